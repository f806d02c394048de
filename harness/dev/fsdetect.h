/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsdetect.h — which filesystem is on a device, per libblkid.
 */
#ifndef BO_FSDETECT_H
#define BO_FSDETECT_H

#include <stddef.h>

#include "harness/base/util.h"

/*
 * Detect the filesystem on @dev (a block device or an image file) and copy its type ("ext4",
 * "xfs", "btrfs", ...) into @type (@len bytes). blkid_do_safeprobe()'s answers become:
 * -ENODATA no signature found, -ENOTUNIQ several contradicting signatures (libblkid's
 * "ambivalent" result), -errno (or -EIO) when the device could not be probed.
 */
_must_check_ int bo_fs_detect(const char *dev, char *type, size_t len, struct bo_err *err);

#endif
