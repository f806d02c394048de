/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsdetect.h — which filesystem is on a device, per libblkid.
 */
#ifndef BO_FSDETECT_H
#define BO_FSDETECT_H

#include <stddef.h>

#include "harness/base/util.h"
#include "harness/dev/fs.h"

/*
 * Detect the filesystem on @dev (a block device or an image file) and copy its type ("ext4",
 * "xfs", "btrfs", ...) into @type (@len bytes). blkid_do_safeprobe()'s answers become:
 * -ENODATA no signature found, -ENOTUNIQ several contradicting signatures (libblkid's
 * "ambivalent" result), -errno (or -EIO) when the device could not be probed.
 */
_must_check_ int bo_fs_detect(const char *dev, char *type, size_t len, struct bo_err *err);

/*
 * Whether filesystem @fs on @dev has a journal: for ext2 and ext4, the super block's
 * has_journal feature (an ext4 made with -O ^has_journal has none, an "ext2" with one is an
 * ext3); vfat never; xfs always (its log); btrfs never needs one (copy-on-write), and counts as
 * journaled: its recovery is the mount's. 1 or 0; -ENODATA when the super block there is not
 * one of @fs (a state cut before mkfs, or a damaged one), -errno when @dev cannot be read.
 */
_must_check_ int bo_fs_has_journal(enum bo_fs fs, const char *dev, struct bo_err *err);

#endif
