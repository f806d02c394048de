/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fs.h — the filesystems blackout knows how to make, mount and check. */
#ifndef BO_FS_H
#define BO_FS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/macro.h"

enum bo_fs {
	BO_FS_EXT4,
	BO_FS_XFS,
	BO_FS_BTRFS,
	BO_FS_EXT2,
	BO_FS_VFAT,
	BO_FS_F2FS,
	BO_FS_NILFS2,
	BO_FS_EXFAT,
	BO_FS_JFS,
	BO_FS_UDF,
	BO_FS_COUNT,
};

/* The most devices a filesystem spans beside its own. */
#define BO_FS_SPANS_MAX 7

/*
 * A filesystem's devices beside its own (the one it is made, mounted and checked on): its
 * external journal or log (ext4, xfs), and the other devices it spans (btrfs made over
 * several, each device a member of the one filesystem: mkfs.btrfs -d raid1 -m raid1 A B).
 */
struct bo_fs_devs {
	const char *journal;			/* NULL: none */
	const char *spans[BO_FS_SPANS_MAX + 1]; /* NULL-terminated */
};

/* The other devices of a filesystem among @n devices whose paths are @paths: the journal on
 * device @journal (-1: none) and the devices of bitmask @spans (bit k: paths[k]), into *@ret.
 * The strings are not copied. */
void bo_fs_devs_pick(const char (*paths)[PATH_MAX], size_t n, int journal, uint32_t spans,
		     struct bo_fs_devs *ret);

/* The names, as a scenario or an option gives them, for messages: BO_FS_LIST " or raw". */
#define BO_FS_LIST  "ext4, xfs, btrfs, ext2, vfat, f2fs, nilfs2, exfat, jfs, udf"
#define BO_FS_NAMES "ext4, xfs, btrfs, ext2, vfat, f2fs, nilfs2, exfat, jfs or udf"

/* The filesystem's name, as its row says ("?" for anything else). */
const char *bo_fs_name(enum bo_fs fs);

/* The filesystem called @name; -EINVAL if blackout does not know it. */
_must_check_ int bo_fs_from_name(const char *name, enum bo_fs *ret);

/*
 * How a crash state is recovered before the checker (docs/crash-states.md, "Recovery"): by the
 * mount (the kernel replays a journal or log; a copy-on-write filesystem needs nothing), or by
 * fsck's repair before the mount, as a boot does for a filesystem without a journal. AUTO
 * follows the state: fsck where the filesystem has a repair and no journal (fsdetect.h).
 */
enum bo_recovery {
	BO_RECOVERY_AUTO,
	BO_RECOVERY_MOUNT,
	BO_RECOVERY_FSCK,
};

/* "auto", "mount", "fsck". */
const char *bo_recovery_name(enum bo_recovery r);

/* The recovery called @name; -EINVAL for anything else. */
_must_check_ int bo_recovery_from_name(const char *name, enum bo_recovery *ret);

/*
 * What makes @opts no list of mount options, or NULL when nothing does: the one rule for the
 * scenario's mount_options, a matrix's and check --mount-options. mount(2) takes one
 * comma-separated string, which the kernel splits on commas only (fs_context.c,
 * vfs_parse_monolithic_sep()): a blank, a control character (C0, DEL) or a byte outside ASCII
 * is in no option of the filesystems blackout checks, and a quote, a backslash or a shell
 * character (;`$|&<>) would be read by the sh line of a state's repro.sh.
 */
const char *bo_mount_options_problem(const char *opts);

/*
 * Why recovery @r does not fit @fs, into @buf (@len bytes), or NULL: fsck recovery of a
 * filesystem without a repair ("xfs is recovered by its mount (its log); fsck recovery is for
 * ext4, ext2, vfat, exfat and jfs": every row with a repair).
 */
const char *bo_fs_recovery_problem(enum bo_fs fs, enum bo_recovery r, char *buf, size_t len);

/* Whether @fs is one of e2fsprogs' (ext2, ext4): the same tools, options and on-disk format. */
bool bo_fs_is_ext(enum bo_fs fs);

#endif
