/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proc.h — child processes: run a program (mkfs, fsck, a workload, a checker, a helper) with
 * a timeout, capturing what it prints; or run a function of this program in a child of its
 * own (the VMs of check --jobs). A program runs in a cgroup of its own (cgroup.h) and its own
 * process group: at its timeout its group is killed, and once it has exited everything it
 * started — in any session: a daemon that called setsid() too — is listed, killed and waited
 * for before bo_proc_run() returns, so nothing it started outlives it and holds a mount busy.
 * Without a cgroup v2 hierarchy to write to, the process group alone is ended.
 */
#ifndef BO_PROC_H
#define BO_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "harness/base/util.h"

/* The account a child runs as: its name, ids, groups and home, as the host knows them. */
struct bo_proc_user {
	char name[64];
	char home[256];
	uid_t uid;
	gid_t gid;
	gid_t groups[32]; /* its supplementary groups */
	int ngroups;
};

/* Look up the account @name on this machine. -ENOENT with @err naming it when there is none. */
_must_check_ int bo_proc_user_lookup(const char *name, struct bo_proc_user *ret,
				     struct bo_err *err);

/* Whether a process of group @pgid still runs: a zombie does not (it has let go of its files,
 * though kill() still finds it). */
bool bo_proc_group_running(pid_t pgid);

/* Whether @u may @what (R_OK, W_OK, X_OK) the file at absolute @path, and search every
 * directory above it, by their permission bits; -EACCES with @err naming what is in the
 * way. */
_must_check_ int bo_proc_user_access(const struct bo_proc_user *u, const char *path, int what,
				     struct bo_err *err);

/* @u as one word, "NAME:UID:GID:HOME:G1,G2,...", and back (for the guest's command line). */
_must_check_ int bo_proc_user_format(const struct bo_proc_user *u, char *buf, size_t len);
_must_check_ int bo_proc_user_parse(const char *s, struct bo_proc_user *ret);

struct bo_proc_opts {
	char *const *argv;	 /* argv[0] is looked up in PATH */
	char *const *env_add;	 /* "KEY=VALUE" strings added to (or replacing in) the
				 * environment; NULL-terminated; may be NULL */
	const char *cwd;	 /* NULL: inherit */
	unsigned timeout_ms;	 /* 0: no timeout */
	size_t max_output;	 /* bytes kept of each stream (0: 1 MiB); the rest is counted */
	bool kill_at_max;	 /* output past max_output kills the child's group at once (a
				  * helper read whole: more is an error, the rest not worth
				  * waiting for); bo_proc_capture() always does */
	bool merge_stderr;	 /* stderr into the stdout buffer, interleaved as written */
	bool inherit_output;	 /* let the child write to our stdout/stderr, capture nothing */
	const char *output_path; /* stdout and stderr into this file (created or truncated),
				  * capture nothing */
	bool output_append;	 /* ... appended to, not truncated: a daemon restarted */
	/* What a stop request (safety.h) sends the child's group: 0 for SIGKILL at once, or a
	 * signal the child stops cleanly on (blackout's own commands, on SIGTERM), and then
	 * the child is waited for. */
	int stop_signal;
	/* Run in this root directory (chroot; @cwd is then inside it); NULL: ours. */
	const char *root;
	/* Run as this account, with HOME, USER and LOGNAME set; NULL: as we are. */
	const struct bo_proc_user *user;
	/* Run in this network namespace (a path setns() takes: /proc/PID/ns/net, or a bind mount
	 * of one), entered before the root and the account; NULL: ours. */
	const char *netns;
	/* See only these block devices (NULL-terminated, at most BO_PROC_DEVS_MAX, each a path
	 * under /dev; NULL: all): the child runs in a mount namespace of its own whose /dev is a
	 * fresh tmpfs holding their nodes at the same paths and /dev/null, zero and urandom, so
	 * a tool that scans for a filesystem's other devices (btrfs check) finds these alone. */
	const char *const *only_devs;
};

#define BO_PROC_DEVS_MAX 8

enum bo_proc_end {
	BO_PROC_EXITED,
	BO_PROC_SIGNALED,
	BO_PROC_TIMEOUT,
};

struct bo_proc_result {
	enum bo_proc_end end;
	int status; /* exit status, or the signal */
	char *out;  /* NUL-terminated */
	size_t out_len;
	char *err; /* NUL-terminated; empty when merged */
	size_t err_len;
	bool truncated; /* output past max_output was dropped (kill_at_max: and the child killed) */
	double seconds;
	/* What it left running when it ended, killed then (with a cgroup): how many, and who
	 * ("postgres (pid 412), ..."; NULL when nothing was); left_alive: some would not die
	 * within 10 s (stuck in the kernel). */
	unsigned left_n;
	char *left;
	bool left_alive;
};

/*
 * Run the program and wait for it. Returns 0 once it ran (whatever its status), -errno if it
 * could not be started (then @err says why: "'mkfs.xfs' not found", ...).
 */
_must_check_ int bo_proc_run(const struct bo_proc_opts *o, struct bo_proc_result *ret,
			     struct bo_err *err);

void bo_proc_result_clear(struct bo_proc_result *r);

/*
 * A command that runs while its caller goes on (a cluster's node, harness/cluster/): started
 * as bo_proc_run() starts one, in a cgroup and a process group of its own, its output into
 * o->output_path (or ours: nothing is captured), and ended by bo_proc_stop(), which ends all
 * it started with it. @o is copied; the strings it points to must live until this returns.
 */
struct bo_proc_bg;
_must_check_ int bo_proc_start(const struct bo_proc_opts *o, struct bo_proc_bg **ret,
			       struct bo_err *err);
/* Whether it still runs (one that ended is reaped, and what it left ended). */
bool bo_proc_alive(struct bo_proc_bg *b);
/* Stop every process of it where it stands (its cgroup frozen, else SIGSTOP to its process
 * group): a machine's power cut, before bo_proc_stop() kills it. */
_must_check_ int bo_proc_freeze(struct bo_proc_bg *b, struct bo_err *err);
/*
 * Send its process group @sig (0: none, it was asked to stop some other way), wait at most
 * @grace_ms for it to end, then kill all of it; its end in *@ret as bo_proc_run() gives it
 * (BO_PROC_TIMEOUT: it outlived the grace). Frees @b. 0, or -EINTR on a stop request.
 */
_must_check_ int bo_proc_stop(struct bo_proc_bg *b, int sig, unsigned grace_ms,
			      struct bo_proc_result *ret, struct bo_err *err);

/* What @r's command left running, in words for a record: "2 processes, killed: postgres
 * (pid 412), sleep (pid 415)" (", some alive after 10 s" when they would not die). Malloc'd;
 * NULL when it left nothing (or without memory). */
char *bo_proc_left_str(const struct bo_proc_result *r);

/* "exited with status 3", "killed by signal 11 (Segmentation fault)", "timed out after 5 s". */
const char *bo_proc_describe(const struct bo_proc_result *r, const struct bo_proc_opts *o,
			     char *buf, size_t len);

/*
 * Run the helper @argv (argv[0] looked up in PATH; stdin /dev/null, stderr dropped) and keep
 * its standard output, at most @max bytes, in *@ret (NUL-terminated, freed by the caller) and
 * its length in *@ret_len (may be NULL). Returns its exit status (>= 0; 128 + the signal that
 * killed it), or -errno when it could not run; output over @max is -EFBIG, the helper killed
 * as it passed @max.
 */
_must_check_ int bo_proc_capture(char *const argv[], size_t max, char **ret, size_t *ret_len);

/*
 * Run @fn(@ctx) in a child process of this program (fork, no exec) and put its pid in
 * *@ret_pid: for work that must run apart, such as each VM of check --jobs. The child exits
 * with what @fn returns.
 */
_must_check_ int bo_proc_fork(int (*fn)(void *ctx), void *ctx, pid_t *ret_pid, struct bo_err *err);

/* Wait for the child @pid: its exit status, or 128 + the signal that killed it. */
int bo_proc_wait(pid_t pid);

#endif
