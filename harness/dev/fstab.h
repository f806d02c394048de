/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fstab.h — every filesystem blackout knows, one row each (fstab.c): what makes it, how it
 * comes back after a power cut, what checks and repairs it and what the tools' exit codes mean,
 * what it promises the bounded checker, how a witness maps its blocks to files, and what the
 * host and the kernel must have for it. Everything else asks the row (fs.h, fstool.h,
 * fsdetect.h, fsmap.h, the scenario's checks); adding a filesystem is a row and its tests
 * (docs/hacking.md, "A new filesystem").
 */
#ifndef BO_FSTAB_H
#define BO_FSTAB_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/dev/fs.h"
#include "harness/dev/fsmap.h"
#include "harness/dev/fstool.h"

/* Whether a crash state of the filesystem has a journal (or log) its mount replays. */
enum bo_fs_journal {
	BO_FS_JOURNAL_NEVER,	  /* none: a boot's fsck repairs it, or nothing does */
	BO_FS_JOURNAL_ALWAYS,	  /* a journal, a log or copy-on-write: the mount recovers it */
	BO_FS_JOURNAL_SUPERBLOCK, /* as the super block says (ext2/ext4's has_journal) */
};

struct bo_fs_desc {
	const char *name;    /* as a scenario, an option and libblkid's TYPE call it */
	const char *package; /* the Debian package of its tools */
	uint64_t min_size;   /* the smallest device its mkfs takes, floored at 16M */

	/* What the guest needs of it besides MKFS and FSCK (vm/guestfs.h): the programs that
	 * map a witness's blocks; its modules, when the kernel has them; the kernel options that
	 * build it, each "CONFIG_A" or "CONFIG_A|CONFIG_B" (either). */
	const char *tools[5], *modules[5], *kconfig[3];

	/* mkfs ARGS [the scenario's options] DEV; MKFS_VERSION prints its version. Unless the
	 * scenario's options hold "-E", UNLESS_E goes after them. MKFS_LABEL is its option that
	 * names the volume: "-L" takes the label as the next argument, "--label=" joined. */
	const char *mkfs, *mkfs_args[3], *mkfs_version[3], *unless_e, *mkfs_label;

	/* FSCK CHECK_ARGS DEV only reads; FSCK REPAIR_ARGS DEV is what a boot runs (none: its
	 * recovery is the mount's). FSCK_VERSION prints the version; when the query has no
	 * option of its own, its first line holding VERSION_LINE is the version, whatever the
	 * exit status. CHECK_CODE and REPAIR_CODE read a non-zero exit code, @why a short static
	 * explanation (0, a signal and a timeout are fstool.c's). FSCK_STATIC, when the machine
	 * has it, is the same fsck linked statically: run instead (a state's check starts it
	 * once or twice, and under TCG the dynamic loader is a quarter of its time). */
	const char *fsck, *check_args[3], *repair_args[3], *fsck_version[4], *version_line;
	const char *fsck_static;
	enum bo_fsck_verdict (*check_code)(int code, const char **why);
	enum bo_repair_verdict (*repair_code)(int code, const char **why);

	/* After a power cut: JOURNAL, and how its mount recovers it, for messages ("its log").
	 * An external journal: JOURNAL_MOUNT=DEV at the mount, JOURNAL_FSCK DEV for fsck and
	 * repair (NULL: it takes none). */
	enum bo_fs_journal journal;
	const char *recovered_by, *journal_mount, *journal_fsck;
	/* Made over several devices (NULL: it is not): its mkfs takes them after its own, its
	 * mount SPANS_MOUNT=DEV for each, and its fsck finds them by a scan (fstool.h); each
	 * device then of SPANS_MIN_SIZE bytes at least. */
	const char *spans_mount;
	uint64_t spans_min_size;

	/* It has no hard links (fsops draws none: --no-links), and not the fsops op families
	 * of LACKS ("falloc,xattr": an op of theirs fails with EOPNOTSUPP or EINVAL on the
	 * Debian kernels; NULL: it has them all) — "all" families is what it has. */
	bool no_links;
	const char *lacks;

	/* The promise table of the bounded and fsops checkers: Linux's (fstests asserts them,
	 * on filesystems with metadata journaling) unless POSIX, where only POSIX's hold; the
	 * source. A SUPERBLOCK journal without one holds POSIX's. */
	bool posix;
	const char *promise_source;

	/* The blocks of a witness as inodes and paths (fsmap.h); NULL: a witness names blocks. */
	int (*fsmap)(const char *dev, struct bo_fsmap_block *v, size_t n, unsigned timeout_ms,
		     struct bo_err *err);
};

/* The row of @fs; NULL for no filesystem blackout knows. */
const struct bo_fs_desc *bo_fs_desc(enum bo_fs fs);

#endif
