/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mounts.h — the mount table of this process's mount namespace, as libmount reads
 * /proc/self/mountinfo (the octal escapes of a path with a space decoded). The one reader of
 * it: the work directory's leftovers, cleanup's sweep and the log reader's "is this a network
 * file system" all walk it here.
 */
#ifndef BO_BASE_MOUNTS_H
#define BO_BASE_MOUNTS_H

#include <sys/types.h>

#include "harness/base/util.h"

/* The directory of blackout's fixed paths on the machine that runs the filesystems: the mount
 * area and its lock (dev/mntarea.h). A VM binds it into the host's root (vm/guest.h), so a
 * workload chrooted there sees the same paths. */
#define BO_FIXED_DIR "/blackout"

struct bo_mount_entry {
	const char *target; /* the mount point */
	const char *fstype;
	const char *source; /* the device, or a pseudo filesystem's name; may be NULL */
	dev_t dev; /* the device number of its filesystem (what stat(2) reports as st_dev) */
};

/*
 * Call @fn for every mount, parents before their children; a non-zero return of @fn stops
 * the walk and is returned. -errno with @err when the table cannot be read.
 */
_must_check_ int bo_mounts_each(int (*fn)(const struct bo_mount_entry *m, void *ctx), void *ctx,
				struct bo_err *err);

#endif
