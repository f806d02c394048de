/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fstool.h — mkfs and fsck per filesystem, run through harness/proc.h: a child process (no
 * shell) in its own process group, stdout and stderr captured together, LC_ALL=C, and a
 * timeout that kills it and everything it started.
 *
 * of each filesystem as its row in fstab.h says: MKFS ARGS [opts] DEV, FSCK CHECK_ARGS DEV
 * (read-only), and FSCK REPAIR_ARGS DEV, the repair of a filesystem whose recovery after a
 * crash is fsck's, not the mount's (docs/crash-states.md, "Recovery").
 *
 * An fsck run ends in one of three verdicts, and "the tool could not run or did not finish"
 * is never "clean": a crash state whose fsck is a tool error cannot count as consistent.
 */
#ifndef BO_FSTOOL_H
#define BO_FSTOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/dev/fs.h"
#include "harness/base/proc.h"
#include "harness/base/util.h"

enum bo_fsck_verdict {
	BO_FSCK_CLEAN,	    /* the checker ran to the end and found nothing */
	BO_FSCK_DIRTY,	    /* the checker ran and found damage */
	BO_FSCK_TOOL_ERROR, /* no verdict: not run, killed, timed out, or failed by itself */
};

enum bo_fs_tool {
	BO_TOOL_MKFS,
	BO_TOOL_FSCK,
};

/* Output kept in memory of an fsck run (mkfs keeps bo_proc_run()'s default). */
#define BO_FSCK_OUTPUT_MAX (8u << 20)

/* The most arguments a mkfs command line may have, options included. */
#define BO_TOOL_ARGV_MAX 64

/*
 * The command line of mkfs for @fs on @dev and the devices it also spans, @spans
 * (NULL-terminated, or NULL), with extra options @opts (NULL-terminated, or NULL) into @argv,
 * NULL-terminated, at most BO_TOOL_ARGV_MAX entries. The strings are not copied.
 */
_must_check_ int bo_mkfs_argv(enum bo_fs fs, const char *dev, const char *const *spans,
			      const char *const *opts, const char **argv, struct bo_err *err);

/* The command line of the read-only fsck for @fs on @dev, whose external journal (or log) is
 * @devs->journal (@devs NULL: none), into @argv, as above. The devices it spans are not on
 * it: the tool finds them (bo_fsck()). */
_must_check_ int bo_fsck_argv(enum bo_fs fs, const char *dev, const struct bo_fs_devs *devs,
			      const char **argv, struct bo_err *err);

/*
 * The mkfs options @given of a filesystem @fs, and its row's own unless they hold "-E" (ext4's
 * inode tables and journal zeroed by mkfs, fstab.c). @extra (may be NULL) goes after them.
 * Split into words, in *@ret (bo_strv_free() it); -ENOMEM.
 */
_must_check_ int bo_mkfs_options(enum bo_fs fs, const char *given, const char *extra, char ***ret,
				 struct bo_err *err);

/*
 * Make filesystem @fs on @dev with extra options @opts, killing mkfs after @timeout_ms (> 0).
 * 0 only if mkfs exited 0; otherwise -EIO (it failed: @err has its status and last output),
 * -ETIMEDOUT, or -errno when it could not be run (-ENOENT: not installed). @ret (may be NULL)
 * receives the run's result whenever mkfs ran; clear it with bo_proc_result_clear().
 */
_must_check_ int bo_mkfs(enum bo_fs fs, const char *dev, const char *const *spans,
			 const char *const *opts, unsigned timeout_ms, struct bo_proc_result *ret,
			 struct bo_err *err);

/*
 * Interpret how the fsck of @fs ended: the tools' documented exit codes (e2fsck(8): 0 clean,
 * 1/2 errors corrected, 4 errors left, 8 operational error, 16 usage, 32 cancelled, 128
 * library error; xfs_repair(8) -n: 0 clean, 1 corruption found; btrfs-check(8): 0 clean,
 * non-zero errors) with everything else, and every death by signal or timeout, a tool error.
 * When @why is not NULL it gets a short static explanation.
 */
enum bo_fsck_verdict bo_fsck_interpret(enum bo_fs fs, const struct bo_proc_result *r,
				       const char **why);

/* "clean", "dirty", "tool-error". */
const char *bo_fsck_verdict_name(enum bo_fsck_verdict v);

/*
 * Check @fs on @dev read-only. First @dev must open read-only and exclusively (so that neither
 * a missing device nor a mounted filesystem turn into a checker's "errors found"). Returns 0
 * with *@verdict CLEAN or DIRTY when the checker gave a verdict; on a tool error *@verdict is
 * BO_FSCK_TOOL_ERROR and the return is -errno (-ETIMEDOUT, -ENOENT, -EIO, ...) with @err
 * saying why. When @out_path is not NULL the output (up to BO_FSCK_OUTPUT_MAX, then a line
 * saying it was cut) is also written there; @ret as for bo_mkfs(). @devs (NULL: none) are
 * the filesystem's other devices: its journal is named to the tool; when it spans others, the
 * tool runs seeing @dev, its journal and those alone (bo_proc_opts.only_devs), since it finds
 * them by a scan that takes, of two devices with one identity, the newer: a crash state's own
 * device is then never judged with another state's or the recording's.
 */
_must_check_ int bo_fsck(enum bo_fs fs, const char *dev, const struct bo_fs_devs *devs,
			 unsigned timeout_ms, const char *out_path, enum bo_fsck_verdict *verdict,
			 struct bo_proc_result *ret, struct bo_err *err);

/* How a repair ended. FAILED is the filesystem's: errors left, or no filesystem the tool could
 * open as one; TOOL_ERROR is no verdict (not run, killed, timed out, usage). */
enum bo_repair_verdict {
	BO_REPAIR_CLEAN,      /* nothing to repair */
	BO_REPAIR_FIXED,      /* errors found and corrected */
	BO_REPAIR_FAILED,     /* errors left: the filesystem does not come back */
	BO_REPAIR_TOOL_ERROR, /* no verdict */
};

/* Whether @fs has a repair (above). */
bool bo_fs_can_repair(enum bo_fs fs);

/* The repair's command line for @fs on @dev (its other devices @devs, NULL: none), as
 * bo_fsck_argv(); -EINVAL for a filesystem without one. */
_must_check_ int bo_repair_argv(enum bo_fs fs, const char *dev, const struct bo_fs_devs *devs,
				const char **argv, struct bo_err *err);

/* Interpret how the repair of @fs ended (e2fsck(8), fsck.fat(8)); @why as above. */
enum bo_repair_verdict bo_repair_interpret(enum bo_fs fs, const struct bo_proc_result *r,
					   const char **why);

/* "clean", "fixed", "failed", "tool-error". */
const char *bo_repair_verdict_name(enum bo_repair_verdict v);

/*
 * Repair @fs on @dev (which must open exclusively first, as for bo_fsck()), killing the tool
 * after @timeout_ms. 0 with *@verdict CLEAN, FIXED or FAILED; on a tool error *@verdict is
 * BO_REPAIR_TOOL_ERROR and the return -errno with @err saying why. @ret as for bo_mkfs();
 * @devs as for bo_fsck().
 */
_must_check_ int bo_repair(enum bo_fs fs, const char *dev, const struct bo_fs_devs *devs,
			   unsigned timeout_ms, enum bo_repair_verdict *verdict,
			   struct bo_proc_result *ret, struct bo_err *err);

/* The first line of the version output of @fs's mkfs or fsck tool into @buf. */
_must_check_ int bo_fs_tool_version(enum bo_fs fs, enum bo_fs_tool tool, char *buf, size_t len,
				    struct bo_err *err);

#endif
