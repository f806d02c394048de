/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsmap.h — what a block of a filesystem holds, in the filesystem's own words: the inode that
 * owns it and that inode's path, or the metadata it is. Each filesystem's own tool answers,
 * read-only, on an unmounted device whose journal is clean (after a mount and umount):
 *
 *   ext4   debugfs: icheck (block to inode), ncheck (inode to path), the group table of
 *          stats for the blocks no inode owns (inode tables, bitmaps), logdump for the
 *          journal
 *   xfs    xfs_db: blockget -n, then blockuse -n per block (type, inode, path); for a block
 *          of the log, xfs_logprint -t names the inodes of the record it starts, and
 *          xfs_db ncheck their paths
 *   btrfs  btrfs inspect-internal dump-tree: the chunk tree (physical to logical), the
 *          extent tree (a data extent's inode, a tree block's owner), a leaf's items, the
 *          filesystem tree's INODE_REFs (paths); a written super block names the inodes of
 *          the generation it commits
 *
 * A block that cannot be mapped says why in its `what`; only a tool that cannot be run at all
 * is an error.
 */
#ifndef BO_FSMAP_H
#define BO_FSMAP_H

#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"
#include "harness/dev/fs.h"

/* Most blocks one call maps. */
#define BO_FSMAP_MAX 64

struct bo_fsmap_block {
	uint64_t byte; /* in: the block's offset on the device */
	/* in: what the write that matters put there (its first 2 KiB), or NULL: a write of
	 * ext4's super block says whether the journal is replayed, one of its journal's super
	 * block from which transaction on */
	const unsigned char *data;
	uint64_t block; /* out: its number in the filesystem's own blocks */
	uint64_t inode; /* out: the inode that owns it (or, for an inode table block, the first
			 * inode it holds); 0 when none */
	char path[256]; /* out: that inode's path (an inode table block: the paths of the inodes
			 * it holds, comma-separated); "" when none is known */
	char what[160]; /* out: "data", "journal", "inode table (inodes 12-27)", "block bitmap",
			 * "metadata", xfs_db's type, or "not mapped: why" */
};

/*
 * Map the blocks @v (@n of them, at most BO_FSMAP_MAX) of filesystem @fs on @dev, each tool
 * killed after @timeout_ms. 0 with every block's out fields set (maybe to "not mapped: ...");
 * -errno when @dev cannot be read or the tool cannot be run (-ENOENT: not installed), @err
 * saying why.
 */
_must_check_ int bo_fsmap(enum bo_fs fs, const char *dev, struct bo_fsmap_block *v, size_t n,
			  unsigned timeout_ms, struct bo_err *err);

#endif
