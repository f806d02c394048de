/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fs.h — the filesystems blackout knows how to make, mount and check. */
#ifndef BO_FS_H
#define BO_FS_H

#include "harness/base/macro.h"

enum bo_fs {
	BO_FS_EXT4,
	BO_FS_XFS,
	BO_FS_BTRFS,
	BO_FS_COUNT,
};

/* "ext4", "xfs", "btrfs" ("?" for anything else). */
const char *bo_fs_name(enum bo_fs fs);

/* The filesystem called @name; -EINVAL if blackout does not know it. */
_must_check_ int bo_fs_from_name(const char *name, enum bo_fs *ret);

#endif
