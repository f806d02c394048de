// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/fs.h"

#include <errno.h>
#include <string.h>

static const char *const names[BO_FS_COUNT] = {
	[BO_FS_EXT4] = "ext4",
	[BO_FS_XFS] = "xfs",
	[BO_FS_BTRFS] = "btrfs",
};

const char *bo_fs_name(enum bo_fs fs)
{
	return (unsigned) fs < BO_FS_COUNT ? names[fs] : "?";
}

int bo_fs_from_name(const char *name, enum bo_fs *ret)
{
	for (int i = 0; i < BO_FS_COUNT; i++)
		if (!strcmp(name, names[i])) {
			*ret = (enum bo_fs) i;
			return 0;
		}
	return -EINVAL;
}
