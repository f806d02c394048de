// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The search for what a run left in the kernel (leftovers.h): its dm devices by name, its
 * loops by their backing files, its mounts by where they are; what `blackout cleanup` removes
 * and what a run's end asserts is gone.
 */
#include "harness/dev/leftovers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmtargets/dm.h"
#include "harness/base/mounts.h"
#include "harness/dev/loop.h"
#include "harness/dev/mntarea.h"

/* The dm devices of run @runid (NULL: every run's); without device-mapper, -ENODEV when
 * @need_dm, else none. */
static int dm_list(const char *runid, bool need_dm, char ***ret, bool *ret_have_dm,
		   struct bo_err *err)
{
	char prefix[BO_DM_NAME_MAX];
	int r;

	snprintf(prefix, sizeof(prefix), "%s%s%s", BO_DM_NAME_PREFIX, runid ? runid : "",
		 runid ? "-" : "");
	r = bo_dm_list(prefix, ret, err);
	*ret_have_dm = r != -ENODEV;
	if (r != -ENODEV || need_dm)
		return r;
	*ret = calloc(1, sizeof(**ret));
	return *ret ? 0 : bo_err_set(err, ENOMEM, "out of memory");
}

int bo_leftovers_dm(const char *runid, char ***ret, bool *ret_have_dm, struct bo_err *err)
{
	return dm_list(runid, false, ret, ret_have_dm, err);
}

/* Mount points at or under a work directory. */
struct under {
	const char *workdir;
	char **v;
	size_t n;
};

static int mount_under(const struct bo_mount_entry *m, void *ctx)
{
	struct under *u = ctx;
	char **nv;

	if (strcmp(m->target, u->workdir) && !bo_path_within(u->workdir, m->target))
		return 0;
	nv = realloc(u->v, (u->n + 2) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	u->v = nv;
	if (!(u->v[u->n] = strdup(m->target)))
		return -ENOMEM;
	u->v[++u->n] = NULL;
	return 0;
}

int bo_leftovers_mounts(const char *runid, const char *workdir, char ***ret, size_t *ret_area,
			struct bo_err *err)
{
	struct under u = {.workdir = workdir, .v = calloc(1, sizeof(char *))};
	char **area = NULL, **nv;
	size_t n = 0;
	int r;

	if (!u.v)
		return bo_err_set(err, ENOMEM, "out of memory");
	r = bo_mounts_each(mount_under, &u, err);
	if (r == -ENOMEM)
		r = bo_err_set(err, ENOMEM, "out of memory");
	if (r >= 0)
		r = bo_mnt_area_mounts(runid, &area, err);
	while (r >= 0 && area[n])
		n++;
	if (r >= 0 && !(nv = realloc(u.v, (u.n + n + 1) * sizeof(*nv))))
		r = bo_err_set(err, ENOMEM, "out of memory");
	if (r < 0) {
		bo_strv_free(area);
		bo_strv_free(u.v);
		return r;
	}
	memcpy(nv + u.n, area, (n + 1) * sizeof(*area));
	free(area);
	*ret = nv;
	if (ret_area)
		*ret_area = u.n;
	return 0;
}

int bo_leftovers_find(const char *runid, const char *workdir, bool need_dm,
		      struct bo_leftovers *ret, struct bo_err *err)
{
	struct bo_leftovers lo = {0};
	int r = dm_list(runid, need_dm, &lo.dm, &lo.have_dm, err);

	if (r >= 0)
		r = bo_loop_list_inside(workdir, &lo.loops, err);
	if (r >= 0)
		r = bo_leftovers_mounts(runid, workdir, &lo.mounts, &lo.area, err);
	if (r < 0) {
		bo_leftovers_clear(&lo);
		return r;
	}
	*ret = lo;
	return 0;
}

void bo_leftovers_clear(struct bo_leftovers *lo)
{
	bo_dm_list_free(lo->dm);
	bo_loop_list_free(lo->loops);
	bo_strv_free(lo->mounts);
	*lo = (struct bo_leftovers){0};
}
