// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fsmap.c — blocks to inodes and paths with each filesystem's own read-only tool (fsmap.h):
 * the one entry point, which calls the reader its filesystem's row names (fstab.h:
 * fsmap_ext4.c, fsmap_xfs.c, fsmap_btrfs.c; they share the helpers of fsmap_util.c). Each
 * reader parses its tool's output line by line; a line that does not parse is skipped, so a
 * block the tool said nothing about stays "not mapped".
 */
#include "harness/dev/fsmap.h"

#include <errno.h>

#include "harness/dev/fstab.h"

int bo_fsmap(enum bo_fs fs, const char *dev, struct bo_fsmap_block *v, size_t n,
	     unsigned timeout_ms, struct bo_err *err)
{
	if (n > BO_FSMAP_MAX)
		return bo_err_set(err, E2BIG, "mapping %zu blocks: at most %d at once", n,
				  BO_FSMAP_MAX);
	for (size_t i = 0; i < n; i++) {
		v[i].block = v[i].inode = 0;
		v[i].path[0] = v[i].what[0] = '\0';
	}
	if (!bo_fs_desc(fs) || !bo_fs_desc(fs)->fsmap)
		return bo_err_set(err, EINVAL, "mapping blocks: no map of %s's blocks",
				  bo_fs_name(fs));
	return bo_fs_desc(fs)->fsmap(dev, v, n, timeout_ms, err);
}
