/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shrink_opts.h — the options of `blackout shrink`, in one table (opts.h) for its host side
 * (shrink.c) and its guest side (guest_shrink.c).
 */
#ifndef BO_CLI_SHRINK_OPTS_H
#define BO_CLI_SHRINK_OPTS_H

#include <stdbool.h>

#include "harness/cli/check_opts.h"
#include "harness/cli/opts.h"

struct bo_shrink_args {
	/* Both sides. */
	const char *state, *max_tests;
	bool no_bisect;
	/* Host only. */
	bool host_root; /* the run's [vm] root = host shared, as the user says */
	/* Guest only: what the host read from the results. */
	const char *cls, *seed;
	/* What the run's states were checked with over its scenario's keys (its config.json
	 * "options", the rows of bo_setting_opts): its shrink checks with the same. */
	struct bo_check_args check;
};

extern const struct bo_opt bo_shrink_opts[];
extern const size_t bo_shrink_opts_n;

#endif
