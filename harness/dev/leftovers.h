/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * leftovers.h — what a run left in the kernel, found the way the run named it (base/safety.h):
 * its dm devices blackout-<run-id>-*, the loop devices over files in its work directory, the
 * mounts at or under that directory and those of its mount area (dev/mntarea.h). The one
 * search for them: `blackout cleanup` removes what it finds, and the end of a run asserts
 * that nothing is found (diagnose/diag.h).
 */
#ifndef BO_DEV_LEFTOVERS_H
#define BO_DEV_LEFTOVERS_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/base/util.h"

/* Each list NULL-terminated, empty when there is nothing of its kind. */
struct bo_leftovers {
	char **dm;     /* the run's dm devices, by name */
	char **loops;  /* "/dev/loopN" over files inside the work directory */
	char **mounts; /* bo_leftovers_mounts() */
	size_t area;   /* the index in mounts of the area's own tmpfs; of the NULL without one */
	bool have_dm;  /* the kernel has device-mapper (a host may not) */
};

/*
 * The dm devices of run @runid (NULL: of every run) into *@ret, a NULL-terminated array to
 * free with bo_dm_list_free(). Where the kernel has no device-mapper (a host), none: *@ret is
 * empty and *@ret_have_dm false.
 */
_must_check_ int bo_leftovers_dm(const char *runid, char ***ret, bool *ret_have_dm,
				 struct bo_err *err);

/*
 * The mount points of run @runid: those at or under its work directory @workdir, in the mount
 * table's order (parents first), then its mount area's (the area first: bo_mnt_area_mounts()),
 * into *@ret (free with bo_strv_free()) and the index of the area's own tmpfs into *@ret_area
 * (may be NULL; that of the closing NULL when the run has no area). Written only on success.
 */
_must_check_ int bo_leftovers_mounts(const char *runid, const char *workdir, char ***ret,
				     size_t *ret_area, struct bo_err *err);

/*
 * Everything run @runid, working in @workdir, left, into @ret (bo_leftovers_clear()). Without
 * device-mapper, -ENODEV when @need_dm; otherwise no dm device and have_dm false.
 */
_must_check_ int bo_leftovers_find(const char *runid, const char *workdir, bool need_dm,
				   struct bo_leftovers *ret, struct bo_err *err);

/* Release what @lo holds; it is then empty. */
void bo_leftovers_clear(struct bo_leftovers *lo);

#endif
