// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/mntarea.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/dev/loop.h"
#include "harness/dev/mount.h"

/* The lock of the area, held from its setup to its teardown (one area per process). */
static int lock_fd = -1;

static void source_of(const char *runid, char *buf, size_t len)
{
	snprintf(buf, len, "blackout-%s", runid);
}

bool bo_mnt_area_of(const struct bo_mount_entry *m, const char *runid)
{
	char src[128];

	source_of(runid, src, sizeof(src));
	return !strcmp(m->target, BO_MNT_ROOT) && m->fstype && !strcmp(m->fstype, "tmpfs") &&
	       m->source && !strcmp(m->source, src);
}

bool bo_mnt_area_holds(const char *path)
{
	return !strcmp(path, BO_MNT_ROOT) || bo_path_within(BO_MNT_ROOT, path);
}

struct walk {
	const char *runid; /* NULL: every mount at or under BO_MNT_ROOT */
	bool in;
	char **v;
	size_t n;
};

static int take(const struct bo_mount_entry *m, void *ctx)
{
	struct walk *w = ctx;
	char **nv;

	if (!bo_mnt_area_holds(m->target))
		return 0;
	if (w->runid && !strcmp(m->target, BO_MNT_ROOT) && m->fstype &&
	    !strcmp(m->fstype, "tmpfs") && m->source && !strncmp(m->source, "blackout-", 9))
		w->in = bo_mnt_area_of(m, w->runid); /* an area: this run's, or another's */
	if (w->runid && !w->in)
		return 0;
	nv = realloc(w->v, (w->n + 2) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	w->v = nv;
	if (!(w->v[w->n] = strdup(w->runid ? m->target : m->source ? m->source : m->target)))
		return -ENOMEM;
	w->v[++w->n] = NULL;
	return 0;
}

static int walk(struct walk *w, struct bo_err *err)
{
	int r;

	w->v = calloc(1, sizeof(*w->v));
	if (!w->v)
		return bo_err_set(err, ENOMEM, "out of memory");
	r = bo_mounts_each(take, w, err);
	if (r < 0) {
		bo_strv_free(w->v);
		w->v = NULL;
		return r == -ENOMEM ? bo_err_set(err, ENOMEM, "out of memory") : r;
	}
	return 0;
}

int bo_mnt_area_mounts(const char *runid, char ***ret, struct bo_err *err)
{
	struct walk w = {.runid = runid};
	int r = walk(&w, err);

	if (r >= 0)
		*ret = w.v;
	return r;
}

static int undo_area(const char *target, void *ctx, struct bo_err *err)
{
	int r = bo_umount(target, 0, err);

	if (r == 0 && lock_fd >= 0) {
		close(lock_fd);
		lock_fd = -1;
	}
	return r;
}

int bo_mnt_area_setup(const char *runid, struct bo_teardown *td, struct bo_err *err)
{
	_cleanup_close_ int fd = -1;
	struct walk w = {0};
	char src[128], holder[128] = "";
	ssize_t n;
	int r;

	if (lock_fd >= 0)
		return bo_err_set(err, EBUSY, "the mount area '%s' is set up already", BO_MNT_ROOT);
	r = bo_mkdir_p(BO_MNT_ROOT);
	if (r < 0)
		return bo_err_set(err, -r, "creating '%s': %s", BO_MNT_ROOT, strerror(-r));
	fd = open(BO_MNT_LOCK, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return bo_err_set(err, errno, "opening '%s': %s", BO_MNT_LOCK, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;

		n = pread(fd, holder, sizeof(holder) - 1, 0);
		holder[n > 0 ? n : 0] = '\0';
		holder[strcspn(holder, "\n")] = '\0';
		return bo_err_set(err, e == EWOULDBLOCK ? EBUSY : e,
				  "'%s' is in use by run %s: in place, one run at a time mounts "
				  "its filesystems there",
				  BO_MNT_ROOT, *holder ? holder : "(unknown)");
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, runid, strlen(runid), 0) < 0 ||
	    pwrite(fd, "\n", 1, (off_t) strlen(runid)) < 0)
		return bo_err_set(err, errno, "writing '%s': %s", BO_MNT_LOCK, strerror(errno));
	/* What a killed run left there would be mounted under this run's states. */
	r = walk(&w, err);
	if (r < 0)
		return r;
	if (w.n) {
		r = bo_err_set(err, EBUSY,
			       "'%s' holds %zu mounts left by another run (the first from '%s'); "
			       "'blackout cleanup --list' finds the run",
			       BO_MNT_ROOT, w.n, w.v[0]);
		bo_strv_free(w.v);
		return r;
	}
	bo_strv_free(w.v);
	source_of(runid, src, sizeof(src));
	if (mount(src, BO_MNT_ROOT, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") < 0)
		return bo_err_set(err, errno, "mounting a tmpfs on '%s': %s", BO_MNT_ROOT,
				  strerror(errno));
	lock_fd = BO_TAKE_FD(fd);
	r = bo_teardown_push(td, "mount", BO_MNT_ROOT, undo_area, NULL, err);
	if (r < 0) {
		struct bo_err e2;

		(void) !undo_area(BO_MNT_ROOT, NULL, &e2);
	}
	return r;
}
