// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/fs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/dev/fstab.h"

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

const char *bo_fs_recovery_problem(enum bo_fs fs, enum bo_recovery r, char *buf, size_t len)
{
	const char *names[BO_FS_COUNT];
	size_t n = 0, off;

	if (r != BO_RECOVERY_FSCK || !bo_fs_desc(fs) || bo_fs_desc(fs)->repair_args[0])
		return NULL;
	for (int i = 0; i < BO_FS_COUNT; i++)
		if (bo_fs_desc((enum bo_fs) i)->repair_args[0])
			names[n++] = bo_fs_name((enum bo_fs) i);
	off = (size_t) snprintf(buf, len, "%s is recovered by %s; fsck recovery is for",
				bo_fs_name(fs), bo_fs_desc(fs)->recovered_by);
	/* "for ext4, ext2 and vfat" */
	for (size_t k = 0; k < n && off < len; k++)
		off += (size_t) snprintf(buf + off, len - off, "%s%s",
					 k == 0	      ? " "
					 : k + 1 == n ? " and "
						      : ", ",
					 names[k]);
	return buf;
}

bool bo_fs_is_ext(enum bo_fs fs)
{
	return fs == BO_FS_EXT4 || fs == BO_FS_EXT2;
}

const char *bo_fs_name(enum bo_fs fs)
{
	return bo_fs_desc(fs) ? bo_fs_desc(fs)->name : "?";
}

int bo_fs_from_name(const char *name, enum bo_fs *ret)
{
	for (int i = 0; i < BO_FS_COUNT; i++)
		if (!strcmp(name, bo_fs_desc((enum bo_fs) i)->name)) {
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

void bo_fs_devs_pick(const char (*paths)[PATH_MAX], size_t n, int journal, uint32_t spans,
		     struct bo_fs_devs *ret)
{
	size_t k = 0;

	*ret = (struct bo_fs_devs){.journal = journal >= 0 && (size_t) journal < n ? paths[journal]
										   : NULL};
	for (size_t i = 0; i < n && i < 32 && k < BO_FS_SPANS_MAX; i++)
		if (spans & (1u << i))
			ret->spans[k++] = paths[i];
}
