/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest_side.h — what the guest sides of run, check and shrink share, at both ends: the command
 * line the host starts one with, and in the VM the session around its work (the checks
 * before anything is touched, a tmpfs work directory on a teardown stack, the environment of
 * workloads and checkers, and the end: leftovers asserted, summary.json, diagnostics).
 */
#ifndef BO_CLI_GUEST_SIDE_H
#define BO_CLI_GUEST_SIDE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness/base/util.h"
#include "harness/base/proc.h"
#include "harness/cli/opts.h"
#include "harness/cli/vmrun.h"
#include "harness/explore/explore.h"
#include "harness/log/log.h"
#include "harness/results/results.h"
#include "harness/results/summary.h"
#include "harness/scenario/scenario.h"

/* Where in a results directory `blackout shrink` writes what it found. */
#define BO_SHRINK_DIR "shrink"

/* The options every guest command takes from the host. */
struct bo_guest_args {
	const char *results; /* the results directory, shared from the host */
	const char *runid;
	const char *libexec; /* where the workload programs are (default: beside blackout) */
	bool allow_host;     /* run outside a blackout VM (tests of the guest side) */
	/* The account workloads and checkers run as, "NAME:UID:GID:HOME:GROUPS" as the host
	 * knows it (bo_proc_user_format()); NULL: root. */
	const char *user;
	/* They run in the host's root (bo_vm_opts.host_root), not the guest's. */
	bool host_root;
};

extern const struct bo_opt bo_guest_opts[];
extern const size_t bo_guest_opts_n;

/* Host side: start the command line of guest command @cmd (this binary, -q when blackout is
 * quiet, @cmd, and the options of struct bo_guest_args) in @a; for a scenario @sc (or NULL),
 * its account and root. -errno with @err when its account cannot be looked up. */
_must_check_ int bo_guest_argv(struct bo_argv *a, const char *cmd, const char *runid,
			       const struct bo_scenario *sc, struct bo_err *err);

/* Host side: what a VM for scenario @sc needs: its files and scripts (*@ret_ship, freed
 * with bo_strv_free()), the host's root when it runs there. */
_must_check_ int bo_guest_vm_for(const struct bo_scenario *sc, struct vm_args *v, char ***ret_ship);

/* The environment a workload's checker runs with (bo_guest_env()). */
struct bo_guest_env {
	char seed[48]; /* BLACKOUT_SEED=N */
	char *path;    /* PATH=<the workload programs>:/usr/sbin:... */
	char *v[3];    /* NULL-terminated */
};

/* Make @e for the workload programs in @libexec and the workload's seed @workload_seed. */
_must_check_ int bo_guest_env(struct bo_guest_env *e, const char *libexec, uint64_t workload_seed,
			      struct bo_err *err);
void bo_guest_env_clear(struct bo_guest_env *e);

/*
 * Host side: whether the command line @cmd (a checker's, run by /bin/sh -c in each state with
 * the PATH of bo_guest_env()) names a program the guest can run, as far as the host can tell:
 * an absolute path must be an executable regular file here (the VM gets it at the same
 * path), a bare name a shell builtin or an executable in the guest's PATH directories here
 * (the workload programs' @libexec, /usr/sbin, /usr/bin, /sbin, /bin). What only the guest
 * can judge passes: a relative path (relative to the mounted state), an assignment, an
 * expansion, a quote or other shell syntax first. 0, or -errno with @err saying why.
 */
_must_check_ int bo_guest_command_ok(const char *cmd, const char *libexec, struct bo_err *err);

/* Host side: bo_guest_command_ok() of the checker of scenario @sc (none is fine), with @err
 * naming the scenario and its key: a checker that is not there is refused before a boot, as
 * check --checker is. */
_must_check_ int bo_guest_checker_ok(const struct bo_scenario *sc, struct bo_err *err);

/* Guest side: one run or check in the VM. */
struct bo_guest {
	const char *cmd;
	const struct bo_guest_args *args;
	const char *libexec; /* args->libexec, or beside blackout */
	/* The account and the root directory of workloads and checkers: NULL for root and the
	 * guest's own. */
	const struct bo_proc_user *user;
	const char *root;
	struct bo_proc_user user_buf;
	struct bo_results *res;
	struct bo_summary sum;
	struct bo_teardown *td; /* the guest's own objects: the work directory */
	char workdir[PATH_MAX]; /* a tmpfs of its own, BO_WORKDIR_PREFIX<run-id>; "" before */
	struct bo_guest_env env;
};

/*
 * Begin @g: refuse a bad run id and device-mapper work outside blackout's VM (unless
 * --allow-host), catch SIGINT/SIGTERM/SIGHUP so that a stop unwinds the run, open the results
 * and write the pre diagnostics. On failure the error is printed and -errno returned.
 */
_must_check_ int bo_guest_start(struct bo_guest *g, const char *cmd, const struct bo_guest_args *a);

/* The work directory of @g: a tmpfs of its own (RAM-backed, and gone with everything in it
 * when unmounted), on g->td at once. */
_must_check_ int bo_guest_workdir(struct bo_guest *g, struct bo_err *err);

/*
 * End @g: record its error @r/@rerr, close @log (it may live in the work directory), assert
 * that nothing of the run is left in the kernel and drop the work directory, then write
 * summary.json and the post diagnostics. Returns the exit status.
 */
_must_check_ int bo_guest_finish(struct bo_guest *g, int r, const struct bo_err *rerr,
				 struct bo_log *log);

/* A tmpfs of its own mounted on the new directory @path (that other accounts may @pass
 * through, not list), and its undoing. */
_must_check_ int bo_guest_tmpfs(const char *path, bool pass, struct bo_err *err);
_must_check_ int bo_guest_tmpfs_drop(const char *path, struct bo_err *err);

/* Guest side: the account workloads and checkers run as (*@user, in *@buf; NULL: root) and
 * their root directory (*@root; NULL: the guest's) from @a, the account made in the guest's
 * own root. On failure the error is printed for @cmd and -errno returned. */
_must_check_ int bo_guest_identity(const struct bo_guest_args *a, const char *cmd,
				   struct bo_proc_user *buf, const struct bo_proc_user **user,
				   const char **root);

/*
 * Guest side: the devices the states of @log have (harness/log/layout.h), for @eo: those of
 * scenario @sc (NULL: none) with their mount options, and its cluster; else those the log's
 * layout mark names; @l holds them. -EINVAL with @err when the scenario's and the log's disagree.
 */
_must_check_ int bo_guest_devices(const struct bo_scenario *sc, const struct bo_log *log,
				  struct bo_layout *l, struct bo_explore_opts *eo,
				  struct bo_err *err);

/* Guest side: read the scenario @path a host command put in the results (its paths are
 * shipped or under the host's root; its account is made from the host's). */
_must_check_ int bo_guest_scenario(const char *path, struct bo_scenario **ret, struct bo_err *err);

/* Append " FLAG 'VALUE'" to *@out, quoted for /bin/sh (nothing when @val is NULL). */
_must_check_ int bo_guest_repro_arg(char **out, const char *flag, const char *val);

#endif
