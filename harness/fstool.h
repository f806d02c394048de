/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fstool.h — mkfs and fsck per filesystem, run as child processes (posix_spawnp, no shell)
 * with their output captured and a timeout that kills them.
 *
 *   ext4   mkfs.ext4 -F -q [opts] DEV     e2fsck -fn DEV
 *   xfs    mkfs.xfs -f -q [opts] DEV      xfs_repair -n DEV
 *   btrfs  mkfs.btrfs -f -q [opts] DEV    btrfs check --readonly DEV
 *
 * An fsck run ends in one of three verdicts, and "the tool could not run or did not finish"
 * is never "clean": a crash state whose fsck is a tool error cannot count as consistent.
 */
#ifndef BO_FSTOOL_H
#define BO_FSTOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/util.h"

enum bo_fs {
	BO_FS_EXT4,
	BO_FS_XFS,
	BO_FS_BTRFS,
};

enum bo_fsck_verdict {
	BO_FSCK_CLEAN,	    /* the checker ran to the end and found nothing */
	BO_FSCK_DIRTY,	    /* the checker ran and found damage */
	BO_FSCK_TOOL_ERROR, /* no verdict: not run, killed, timed out, or failed by itself */
};

enum bo_fs_tool {
	BO_TOOL_MKFS,
	BO_TOOL_FSCK,
};

/* How a child process ended. */
struct bo_tool_result {
	bool exited;	 /* it called exit(): exit_code is valid */
	int exit_code;	 /* 0..255 */
	int term_signal; /* the signal that killed it, or 0 */
	bool timed_out;	 /* blackout killed it when the timeout passed */
	uint64_t elapsed_ms;
	char *output; /* stdout and stderr interleaved, NUL-terminated; free with clear */
	size_t output_len;
	bool output_truncated; /* more than BO_TOOL_OUTPUT_MAX bytes; the rest was dropped */
};

/* Output kept in memory per run (a file given to bo_tool_run() gets all of it). */
#define BO_TOOL_OUTPUT_MAX (1u << 20)

/* The most arguments a mkfs command line may have, options included. */
#define BO_TOOL_ARGV_MAX 64

/* "ext4", "xfs", "btrfs". */
const char *bo_fs_name(enum bo_fs fs);

/* The filesystem named @name; -EINVAL for one blackout does not drive. */
int bo_fs_from_name(const char *name, enum bo_fs *ret);

/*
 * Run @argv[0] (looked up in PATH) with @argv, stdin from /dev/null, stdout and stderr both
 * captured into ret->output and, when @out_path is not NULL, also written to that file. After
 * @timeout_ms (> 0) the child's process group is killed with SIGKILL and ret->timed_out is
 * set. Returns 0 whenever the child was started and reaped, whatever its exit status; -errno
 * when it could not be started (e.g. -ENOENT: no such program) or reaped.
 */
int bo_tool_run(const char *const argv[], unsigned timeout_ms, const char *out_path,
		struct bo_tool_result *ret, struct bo_err *err);

/* Free ret->output and zero @r; NULL is fine. */
void bo_tool_result_clear(struct bo_tool_result *r);

/*
 * The command line of mkfs for @fs on @dev with extra options @opts (NULL-terminated, or NULL)
 * into @argv, NULL-terminated, at most BO_TOOL_ARGV_MAX entries. The strings are not copied.
 */
int bo_mkfs_argv(enum bo_fs fs, const char *dev, const char *const *opts, const char **argv,
		 struct bo_err *err);

/* The command line of the read-only fsck for @fs on @dev into @argv, as above. */
int bo_fsck_argv(enum bo_fs fs, const char *dev, const char **argv, struct bo_err *err);

/*
 * Make filesystem @fs on @dev with extra options @opts. 0 only if mkfs exited 0; otherwise
 * -EIO (it failed: @err has its exit code and last output), -ETIMEDOUT or -errno. @ret (may be
 * NULL) receives the run's result; clear it with bo_tool_result_clear().
 */
int bo_mkfs(enum bo_fs fs, const char *dev, const char *const *opts, unsigned timeout_ms,
	    struct bo_tool_result *ret, struct bo_err *err);

/*
 * Interpret how the fsck of @fs ended: the tools' documented exit codes (e2fsck(8): 0 clean,
 * 1/2 errors corrected, 4 errors left, 8 operational error, 16 usage, 32 cancelled, 128
 * library error; xfs_repair(8) -n: 0 clean, 1 corruption found; btrfs-check(8): 0 clean,
 * non-zero errors) with everything else, and every death by signal or timeout, a tool error.
 * When @why is not NULL it gets a short static explanation.
 */
enum bo_fsck_verdict bo_fsck_interpret(enum bo_fs fs, const struct bo_tool_result *r,
				       const char **why);

/* "clean", "dirty", "tool-error". */
const char *bo_fsck_verdict_name(enum bo_fsck_verdict v);

/*
 * Check @fs on @dev read-only. First @dev must open read-only and exclusively (so that neither
 * a missing device nor a mounted filesystem turn into a checker's "errors found"). Returns 0
 * with *@verdict CLEAN or DIRTY when the checker gave a verdict; on a tool error *@verdict is
 * BO_FSCK_TOOL_ERROR and the return is -errno (-ETIMEDOUT, -ENOENT, -EIO, ...) with @err
 * saying why. The output goes to @out_path too when it is not NULL; @ret as for bo_mkfs().
 */
int bo_fsck(enum bo_fs fs, const char *dev, unsigned timeout_ms, const char *out_path,
	    enum bo_fsck_verdict *verdict, struct bo_tool_result *ret, struct bo_err *err);

/* The first line of the version output of @fs's mkfs or fsck tool into @buf. */
int bo_fs_tool_version(enum bo_fs fs, enum bo_fs_tool tool, char *buf, size_t len,
		       struct bo_err *err);

#endif
