/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_opts.h — the options of `blackout check`, in one table (opts.h) for its host side
 * (check.c), its guest side (guest_check.c) and `blackout reproduce`, which reads them back
 * from a check's config.json.
 */
#ifndef BO_CLI_CHECK_OPTS_H
#define BO_CLI_CHECK_OPTS_H

#include <stdbool.h>

#include "harness/cli/opts.h"

struct bo_check_args {
	/* Both sides: what the user gave, passed to the guest as it is. */
	const char *fs, *size, *mopt, *cuts, *from, *checker, *state, *seed;
	const char *reorder, *budget, *bench, *shard, *persona;
	const char *recovery_crashes, *recovery_log, *recovery;
	const char *witness, *witness_mode;
	bool hash, torn;
	/* Host only. */
	const char *scen, *expect, *parent, *jobs;
	const char *kernels; /* --kernels A,B: check_kernels.c */
	bool guest_replay;   /* no host base (harness/replay/basesrv.h): the guests replay */
	/* Guest only: the results directory, run id and workload programs (guest_side.h), and what
	 * the host prepared: the scenario's copy, the claims directory of check --jobs, the
	 * host's index of the log. */
	const char *results, *runid, *libexec, *guest_scen, *claims, *log_index;
	bool allow_host;
};

extern const struct bo_opt bo_check_opts[];
extern const size_t bo_check_opts_n;

/*
 * The rows of bo_check_opts that say what a state is checked with and that run and shrink
 * take too, into the same fields of a struct bo_check_args (settings.h): --persona,
 * --recovery, --recovery-crashes, --witness (and --witness-mode).
 */
extern const struct bo_opt bo_setting_opts[];
extern const size_t bo_setting_opts_n;

/* Check a value of --shard ("I/N", 0 <= I < N). */
const char *bo_check_shard_problem(const char *val);

#endif
