// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * versions.c — DM_DEVICE_LIST_VERSIONS through libdevmapper.
 */
#include "dmtargets/versions.h"

#include <errno.h>
#include <libdevmapper.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cleanup.h"

static void dm_task_destroyp(struct dm_task **t)
{
	if (*t)
		dm_task_destroy(*t);
}

/* libdm logs to stderr by default; library code logs at debug only. */
static void dm_log(int level, const char *file, int line, int dm_errno, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	bo_debug(BO_DBG_DM, "libdm (level %d, %s:%d): %s", level, file, line, msg);
}

int bo_dm_target_versions(struct bo_dm_target_version **ret, size_t *ret_n, struct bo_err *err)
{
	_cleanup_(dm_task_destroyp) struct dm_task *dmt = NULL;
	_cleanup_free_ struct bo_dm_target_version *v = NULL;
	struct dm_versions *t, *last;
	size_t n = 0;

	dm_log_with_errno_init(dm_log);
	/* No udev in a blackout guest: libdm must not wait for udev to create nodes, and must
	 * make them itself (DM_UDEV_DISABLE_LIBRARY_FALLBACK stays unset). */
	dm_udev_set_sync_support(0);
	dmt = dm_task_create(DM_DEVICE_LIST_VERSIONS);
	if (!dmt)
		return bo_err_set(err, ENOMEM, "device-mapper: cannot create a task");
	if (!dm_task_run(dmt)) {
		int e = dm_task_get_errno(dmt);

		return bo_err_set(err, e > 0 ? e : EIO, "device-mapper: list target versions: %s",
				  strerror(e > 0 ? e : EIO));
	}
	t = dm_task_get_versions(dmt);
	/* The kernel packs the records back to back; "next" is the offset to the following
	 * one and the last record's is 0 (drivers/md/dm-ioctl.c, list_version_get_info). */
	do {
		struct bo_dm_target_version *nv = reallocarray(v, n + 1, sizeof(*nv));

		if (!nv)
			return bo_err_set(err, ENOMEM, "out of memory");
		v = nv;
		snprintf(v[n].name, sizeof(v[n].name), "%s", t->name);
		memcpy(v[n].version, t->version, sizeof(v[n].version));
		n++;
		last = t;
		t = (struct dm_versions *) ((char *) t + t->next);
	} while (last != t);
	*ret = BO_TAKE_PTR(v);
	*ret_n = n;
	return 0;
}
