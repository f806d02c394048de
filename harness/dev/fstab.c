// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fstab.c — the rows of fstab.h, and what each filesystem's fsck exit codes mean. The minimum
 * sizes were measured (e2fsprogs 1.47, xfsprogs 6.1, btrfs-progs 6.2).
 */
#include "harness/dev/fstab.h"

#include "harness/base/macro.h"
#include "harness/dev/fsmap_int.h"

/* e2fsck(8): the codes are bits; 8 and up mean the check itself failed. But 8 with 4 is
 * e2fsck -n giving up on a corruption it could not get past without changing the disk
 * ("Salvage? no", "e2fsck: aborted"): it marks the filesystem not valid before it exits, so
 * the filesystem is dirty, not the tool broken. */
static enum bo_fsck_verdict e2fsck_check(int c, const char **why)
{
	if (c == (8 | 4)) {
		*why = "e2fsck -n: aborted on errors it could not get past";
		return BO_FSCK_DIRTY;
	}
	if (c & ~7) {
		*why = c & 8	 ? "e2fsck operational error"
		       : c & 16	 ? "e2fsck usage error"
		       : c & 32	 ? "e2fsck cancelled"
		       : c & 128 ? "e2fsck shared library error"
				 : "e2fsck exit code not in e2fsck(8)";
		return BO_FSCK_TOOL_ERROR;
	}
	*why = c & 4 ? "e2fsck: errors left uncorrected" : "e2fsck: errors found";
	return BO_FSCK_DIRTY;
}

/* e2fsck(8) -y: 1 and 2 errors corrected; 4 errors left; 8 an operational error, which on a
 * device that opened (fstool.c's run_on_dev) is e2fsck finding no filesystem it can open as
 * one ("The superblock could not be read"): what a boot's fsck then says too, a filesystem
 * that does not come back. 16, 32 and 128 are the tool's. */
static enum bo_repair_verdict e2fsck_repair(int c, const char **why)
{
	if (c & (16 | 32 | 128) || c & ~(1 | 2 | 4 | 8 | 16 | 32 | 128)) {
		*why = c & 16	 ? "e2fsck usage error"
		       : c & 32	 ? "e2fsck cancelled"
		       : c & 128 ? "e2fsck shared library error"
				 : "e2fsck exit code not in e2fsck(8)";
		return BO_REPAIR_TOOL_ERROR;
	}
	if (c & (4 | 8)) {
		*why = c & 8 ? "e2fsck -y: no filesystem it could open"
			     : "e2fsck -y: errors left uncorrected";
		return BO_REPAIR_FAILED;
	}
	*why = "e2fsck -y: errors corrected";
	return BO_REPAIR_FIXED;
}

/* xfs_repair(8): with -n, 1 means corruption was detected. 2 (a log that needs replaying)
 * means the check ran on an unrecovered filesystem: no verdict. */
static enum bo_fsck_verdict xfs_check(int c, const char **why)
{
	if (c == 1) {
		*why = "xfs_repair -n: corruption detected";
		return BO_FSCK_DIRTY;
	}
	*why = c == 2 ? "xfs_repair: the log needs replaying first"
		      : "xfs_repair exit code not in xfs_repair(8)";
	return BO_FSCK_TOOL_ERROR;
}

/* btrfs-check(8): non-zero when errors are found. 126/127 are what a shell or wrapper returns
 * when it could not execute the program at all. */
static enum bo_fsck_verdict btrfs_check(int c, const char **why)
{
	if (c == 126 || c == 127) {
		*why = "btrfs could not be executed";
		return BO_FSCK_TOOL_ERROR;
	}
	*why = "btrfs check: errors found";
	return BO_FSCK_DIRTY;
}

/* fsck.fat(8): 1 recoverable errors found (or an inconsistency it cannot get past), 2 usage
 * error: the filesystem was not accessed. */
static enum bo_fsck_verdict fat_check(int c, const char **why)
{
	if (c == 1) {
		*why = "fsck.fat -n: errors found";
		return BO_FSCK_DIRTY;
	}
	*why = c == 2 ? "fsck.fat usage error" : "fsck.fat exit code not in fsck.fat(8)";
	return BO_FSCK_TOOL_ERROR;
}

/* fsck.fat(8) -a: 1 errors found (and fixed, or an inconsistency it could not get past: the
 * read-only fsck after the mount tells which); 2 usage error. */
static enum bo_repair_verdict fat_repair(int c, const char **why)
{
	if (c == 1) {
		*why = "fsck.fat -a: errors found and repaired";
		return BO_REPAIR_FIXED;
	}
	*why = c == 2 ? "fsck.fat usage error" : "fsck.fat exit code not in fsck.fat(8)";
	return BO_REPAIR_TOOL_ERROR;
}

/* fsck.f2fs (f2fs-tools' fsck/fsck.h): 1 errors found (with --dry-run: not corrected), 4
 * errors left, 8 an operational error (no device), 16 usage; 255 (-1) an assertion on a
 * corruption it could not get past (a lost root inode, both checkpoints gone). */
static enum bo_fsck_verdict f2fs_check(int c, const char **why)
{
	if (c == 1 || c == 4 || c == 255) {
		*why = c == 255 ? "fsck.f2fs: stopped on a corruption it could not get past"
				: "fsck.f2fs --dry-run: errors found";
		return BO_FSCK_DIRTY;
	}
	*why = c == 8	 ? "fsck.f2fs operational error"
	       : c == 16 ? "fsck.f2fs usage error"
			 : "fsck.f2fs exit code not in f2fs-tools' fsck.h";
	return BO_FSCK_TOOL_ERROR;
}

/* fsck.exfat (exfatprogs' fsck/fsck.c) and fsck.jfs (jfsutils' fsck/xfsck.h) share the codes
 * of e2fsck(8) they name: 1 corrected, 2 reboot (jfs), 4 errors left, 8 an operational error
 * (no filesystem there), 16 usage. With -n nothing is corrected: 1 and 4 are errors found. */
static enum bo_fsck_verdict fsck_codes_check(int c, const char **why)
{
	if (c == 1 || c == 4) {
		*why = "fsck -n: errors found";
		return BO_FSCK_DIRTY;
	}
	*why = c == 8	 ? "fsck operational error (no filesystem it could open)"
	       : c == 16 ? "fsck usage error"
			 : "fsck exit code not in its source";
	return BO_FSCK_TOOL_ERROR;
}

/* The repair a boot runs (-p, -a): 1 corrected (for jfs, its log replayed: what its recovery
 * is), 2 corrected and a reboot asked for, 4 errors left, 8 no filesystem it could open. */
static enum bo_repair_verdict fsck_codes_repair(int c, const char **why)
{
	if (c == 1 || c == 2) {
		*why = "fsck -p: errors corrected, or a log replayed";
		return BO_REPAIR_FIXED;
	}
	if (c == 4 || c == 8) {
		*why = c == 8 ? "fsck -p: no filesystem it could open"
			      : "fsck -p: errors left uncorrected";
		return BO_REPAIR_FAILED;
	}
	*why = c == 16 ? "fsck usage error" : "fsck exit code not in its source";
	return BO_REPAIR_TOOL_ERROR;
}

/* Linux's promises where fstests asserts them: on filesystems with metadata journaling (its
 * _has_metadata_journaling: not ext2, vfat, udf or exfat), with the fsync tests of generic/
 * and of each filesystem's own directory (tests/generic/3xx-5xx, tests/xfs, tests/btrfs). */
#define FSTESTS	   "fstests' fsync tests (_require_metadata_journaling)"
#define NO_JOURNAL "POSIX alone (no metadata journaling: fstests' _has_metadata_journaling)"

/* What ext4 and ext2 share: e2fsprogs, its fsck's exit codes, debugfs's map of blocks. */
#define E2FSPROGS                                                                             \
	.package = "e2fsprogs", .min_size = 16ULL << 20, .mkfs_args = {"-F", "-q"},           \
	.fsck = "e2fsck", .fsck_static = "e2fsck.static", .check_args = {"-fn"},              \
	.repair_args = {"-fy"}, .fsck_version = {"e2fsck", "-V"}, .check_code = e2fsck_check, \
	.repair_code = e2fsck_repair, .journal = BO_FS_JOURNAL_SUPERBLOCK, .fsmap = fsmap_ext4

static const struct bo_fs_desc rows[BO_FS_COUNT] = {
	[BO_FS_EXT4] = {.name = "ext4",
			E2FSPROGS,
			.tools = {"mke2fs", "fsck.ext4", "dumpe2fs", "debugfs"},
			.modules = {"ext4"},
			.kconfig = {"CONFIG_EXT4_FS"},
			.mkfs = "mkfs.ext4",
			.mkfs_label = "-L",
			.mkfs_version = {"mkfs.ext4", "-V"},
			/* inode tables and the journal zeroed by mkfs: lazy initialisation would
			 * write them later from a kernel thread, on its own schedule, and the
			 * same seed would give a different log each time */
			.unless_e = "-E lazy_itable_init=0,lazy_journal_init=0",
			.recovered_by = "its mount (its journal)",
			.journal_mount = "journal_path",
			.journal_fsck = "-j",
			/* no reflink: ext4 has no remap_file_range */
			.lacks = "clone",
			.promise_source = FSTESTS "; without a journal, POSIX alone"},
	[BO_FS_XFS] = {.name = "xfs",
		       .package = "xfsprogs",
		       .tools = {"xfs_db", "xfs_logprint"},
		       .modules = {"xfs"},
		       .kconfig = {"CONFIG_XFS_FS"},
		       .min_size = 300ULL << 20,
		       .mkfs = "mkfs.xfs",
		       .mkfs_label = "-L",
		       .mkfs_args = {"-f", "-q"},
		       .mkfs_version = {"mkfs.xfs", "-V"},
		       /* xfs_repair refuses a dirty log: recovery is the mount's */
		       .fsck = "xfs_repair",
		       .check_args = {"-n"},
		       .fsck_version = {"xfs_repair", "-V"},
		       .check_code = xfs_check,
		       .journal = BO_FS_JOURNAL_ALWAYS,
		       .recovered_by = "its mount (its log)",
		       .journal_mount = "logdev",
		       .journal_fsck = "-l",
		       .promise_source = FSTESTS,
		       .fsmap = fsmap_xfs},
	[BO_FS_BTRFS] = {.name = "btrfs",
			 .package = "btrfs-progs",
			 .modules = {"btrfs"},
			 .kconfig = {"CONFIG_BTRFS_FS"},
			 .min_size = 110ULL << 20,
			 .mkfs = "mkfs.btrfs",
			 .mkfs_label = "-L",
			 .mkfs_args = {"-f", "-q"},
			 .mkfs_version = {"mkfs.btrfs", "--version"},
			 /* btrfs check --repair is not what a boot runs */
			 .fsck = "btrfs",
			 .check_args = {"check", "--readonly"},
			 .fsck_version = {"btrfs", "--version"},
			 .check_code = btrfs_check,
			 /* btrfs_fallocate() takes no COLLAPSE_RANGE or INSERT_RANGE */
			 .lacks = "collapse",
			 .journal = BO_FS_JOURNAL_ALWAYS,
			 .recovered_by = "its mount (copy-on-write, its log tree)",
			 .promise_source = FSTESTS,
			 .spans_mount = "device",
			 /* btrfs-progs 6.2 over several: "minimum size for each btrfs
			  * device is 131072000" */
			 .spans_min_size = 131072000,
			 .fsmap = fsmap_btrfs},
	[BO_FS_EXT2] = {.name = "ext2",
			E2FSPROGS,
			.tools = {"mke2fs", "debugfs"},
			/* Debian's kernels serve ext2 with ext4's module */
			.modules = {"ext2", "ext4"},
			.kconfig = {"CONFIG_EXT2_FS|CONFIG_EXT4_USE_FOR_EXT2"},
			.mkfs = "mkfs.ext2",
			.mkfs_label = "-L",
			.mkfs_version = {"mkfs.ext2", "-V"},
			/* ext4's fallocate takes no file without extents; ext2's rename no
			 * RENAME_EXCHANGE; no reflink */
			.lacks = "falloc,rename2,clone,collapse",
			.recovered_by = "a boot's e2fsck -y",
			.posix = true,
			.promise_source = NO_JOURNAL},
	/* mkfs.fat picks FAT12/16/32 by size; fsck.fat -n only reads, -a repairs (= -p). */
	[BO_FS_VFAT] = {.name = "vfat",
			.package = "dosfstools",
			/* with the code page and character sets its defaults name:
			 * FAT_DEFAULT_CODEPAGE 437, FAT_DEFAULT_IOCHARSET ascii, FAT_DEFAULT_UTF8 */
			.modules = {"vfat", "nls_cp437", "nls_ascii", "nls_utf8"},
			.kconfig = {"CONFIG_VFAT_FS", "CONFIG_NLS_CODEPAGE_437"},
			.min_size = 16ULL << 20,
			.mkfs = "mkfs.vfat",
			.mkfs_label = "-n",
			.mkfs_version = {"mkfs.vfat", "--version"},
			.fsck = "fsck.vfat",
			.check_args = {"-n"},
			.repair_args = {"-a"},
			.fsck_version = {"fsck.vfat", "-n", "/dev/null"},
			.version_line = ".fat ",
			.no_links = true,
			/* fat_fallocate() takes no mode but KEEP_SIZE: no hole punched or
			 * zeroed; no reflink, no symlinks */
			.lacks = "falloc,xattr,clone,symlink,collapse",
			.check_code = fat_check,
			.repair_code = fat_repair,
			.journal = BO_FS_JOURNAL_NEVER,
			.recovered_by = "a boot's fsck.vfat -a",
			.posix = true,
			.promise_source = NO_JOURNAL},
	/* mkfs.f2fs takes 52 MiB at least (f2fs-tools 1.15); fsck.f2fs -a checks only what the
	 * kernel flagged, so the check is a whole one, -f --dry-run. The mount recovers: the last
	 * checkpoint, then the roll-forward of fsynced data (fs/f2fs/super.c,
	 * f2fs_recover_fsync_data()). */
	[BO_FS_F2FS] = {.name = "f2fs",
			.package = "f2fs-tools",
			/* its module wants lz4's and zstd's, and crc32's (a soft dependency, which
			 * modules.alias names crc32-pclmul first: not under TCG) */
			.modules = {"crc32-generic", "f2fs"},
			.kconfig = {"CONFIG_F2FS_FS"},
			.min_size = 64ULL << 20,
			.mkfs = "mkfs.f2fs",
			.mkfs_label = "-l",
			.mkfs_args = {"-f", "-q"},
			.mkfs_version = {"mkfs.f2fs", "-V"},
			.fsck = "fsck.f2fs",
			.check_args = {"-f", "--dry-run"},
			.fsck_version = {"fsck.f2fs", "-V"},
			.check_code = f2fs_check,
			/* no reflink (no remap_file_range) */
			.lacks = "clone",
			.journal = BO_FS_JOURNAL_ALWAYS,
			.recovered_by =
				"its mount (its checkpoint, then the roll-forward of fsynced data)",
			.posix = true,
			.promise_source =
				"Documentation/filesystems/f2fs.rst: fsync_mode=posix, the "
				"default, follows POSIX; strict is what ext4, xfs and btrfs "
				"do"},
	/* nilfs2 is a log: its mount finds the latest checkpoint (fs/nilfs2/the_nilfs.c,
	 * load_nilfs()). nilfs-tools has no fsck: nothing stands in but the mount's own checks.
	 * mkfs.nilfs2 wants 129 MiB with its default segments of 8 MiB. */
	[BO_FS_NILFS2] = {.name = "nilfs2",
			  .package = "nilfs-tools",
			  .modules = {"nilfs2"},
			  .kconfig = {"CONFIG_NILFS2_FS"},
			  .min_size = 136ULL << 20,
			  .mkfs = "mkfs.nilfs2",
			  .mkfs_label = "-L",
			  .mkfs_args = {"-f", "-q"},
			  .mkfs_version = {"mkfs.nilfs2", "-V"},
			  /* no fallocate or xattrs; nilfs_rename() takes RENAME_NOREPLACE
			   * alone; no reflink; copy_file_range's splice fallback not tried
			   * on it */
			  .lacks = "falloc,xattr,rename2,copy,clone,collapse",
			  .journal = BO_FS_JOURNAL_ALWAYS,
			  .recovered_by = "its mount (the latest checkpoint of its log)",
			  .promise_source = FSTESTS},
	/* exfat has no journal: the kernel mounts a volume left dirty and warns (fs/exfat/
	 * super.c); a boot's fsck.exfat -p repairs it. exfatprogs' version queries exit 1 and
	 * 16: their line says it. */
	[BO_FS_EXFAT] = {.name = "exfat",
			 .package = "exfatprogs",
			 .modules = {"exfat"},
			 .kconfig = {"CONFIG_EXFAT_FS"},
			 .min_size = 16ULL << 20,
			 .mkfs = "mkfs.exfat",
			 .mkfs_label = "-L",
			 .mkfs_version = {"mkfs.exfat", "-V"},
			 .fsck = "fsck.exfat",
			 .check_args = {"-n"},
			 .repair_args = {"-p"},
			 .fsck_version = {"fsck.exfat", "-V"},
			 .version_line = "exfatprogs version",
			 .no_links = true,
			 /* no reflink, no symlinks; copy_file_range's splice fallback not
			  * tried on it */
			 .lacks = "falloc,xattr,rename2,copy,clone,symlink,collapse",
			 .check_code = fsck_codes_check,
			 .repair_code = fsck_codes_repair,
			 .journal = BO_FS_JOURNAL_NEVER,
			 .recovered_by = "a boot's fsck.exfat -p",
			 .posix = true,
			 .promise_source = NO_JOURNAL},
	/* jfs keeps a journal, but its kernel never replays it: a dirty volume fails a
	 * read-write mount ("File System Dirty", fs/jfs/jfs_mount.c, chkSuper()) until fsck.jfs
	 * replays the log (-p, what a boot runs). fsck.jfs -f -n writes to the disk; -n alone
	 * does not. */
	[BO_FS_JFS] = {.name = "jfs",
		       .package = "jfsutils",
		       .modules = {"jfs"},
		       .kconfig = {"CONFIG_JFS_FS"},
		       .min_size = 16ULL << 20,
		       .mkfs = "mkfs.jfs",
		       .mkfs_label = "-L",
		       .mkfs_args = {"-q"},
		       .mkfs_version = {"mkfs.jfs", "-V"},
		       /* no reflink; copy_file_range's splice fallback not tried on it */
		       .lacks = "falloc,rename2,copy,clone,collapse",
		       .fsck = "fsck.jfs",
		       .check_args = {"-n"},
		       .repair_args = {"-p"},
		       .fsck_version = {"fsck.jfs", "-V"},
		       .check_code = fsck_codes_check,
		       .repair_code = fsck_codes_repair,
		       .journal = BO_FS_JOURNAL_NEVER,
		       .recovered_by = "a boot's fsck.jfs -p (it replays the journal)",
		       .promise_source = FSTESTS},
	/* udf keeps no journal and udftools 2.3 no fsck: its mount replays nothing and marks a
	 * volume not closed inconsistent (fs/udf/super.c, udf_open_lvid()). */
	[BO_FS_UDF] = {.name = "udf",
		       .package = "udftools",
		       .modules = {"udf"},
		       .kconfig = {"CONFIG_UDF_FS"},
		       .min_size = 16ULL << 20,
		       .mkfs = "mkfs.udf",
		       .mkfs_label = "--label=",
		       .mkfs_version = {"mkfs.udf", "-h"},
		       .version_line = "udftools",
		       /* no reflink; copy_file_range's splice fallback not tried on it */
		       .lacks = "falloc,xattr,rename2,copy,clone,collapse",
		       .journal = BO_FS_JOURNAL_NEVER,
		       .recovered_by = "its mount (nothing is replayed)",
		       .posix = true,
		       .promise_source = NO_JOURNAL},
};

const struct bo_fs_desc *bo_fs_desc(enum bo_fs fs)
{
	return (unsigned) fs < BO_ARRAY_SIZE(rows) ? &rows[fs] : NULL;
}
