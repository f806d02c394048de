// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/fs.h"

#include <errno.h>
#include <string.h>

static const char *const names[BO_FS_COUNT] = {
	[BO_FS_EXT4] = "ext4", [BO_FS_XFS] = "xfs",   [BO_FS_BTRFS] = "btrfs",
	[BO_FS_EXT2] = "ext2", [BO_FS_VFAT] = "vfat",
};

static const char *const recoveries[] = {
	[BO_RECOVERY_AUTO] = "auto",
	[BO_RECOVERY_MOUNT] = "mount",
	[BO_RECOVERY_FSCK] = "fsck",
};

const char *bo_recovery_name(enum bo_recovery r)
{
	return (unsigned) r < BO_ARRAY_SIZE(recoveries) ? recoveries[r] : "?";
}

int bo_recovery_from_name(const char *name, enum bo_recovery *ret)
{
	for (unsigned i = 0; i < BO_ARRAY_SIZE(recoveries); i++)
		if (!strcmp(name, recoveries[i])) {
			*ret = (enum bo_recovery) i;
			return 0;
		}
	return -EINVAL;
}

bool bo_fs_is_ext(enum bo_fs fs)
{
	return fs == BO_FS_EXT4 || fs == BO_FS_EXT2;
}

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

const char *bo_mount_options_problem(const char *opts)
{
	for (const unsigned char *p = (const unsigned char *) opts; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return "a control character is in no mount option";
		if (*p >= 0x80)
			return "mount options are ASCII";
		if (*p == ' ')
			return "one comma-separated list, no blanks";
		if (strchr("'\"\\`$;|&<>", *p))
			return "quotes, backslashes and shell characters are in no mount option";
	}
	return NULL;
}
