// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * __guest-check — the guest side of `blackout check` (check.c), started by the host in the VM
 * with the results directory shared: check the crash states of its write.log, with the
 * options of check_opts.h that the host passed on as the user gave them.
 *
 *   blackout __guest-check --results DIR --run-id ID [check options]
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/cli/check_opts.h"
#include "harness/cli/cli.h"
#include "harness/cli/guest_side.h"
#include "harness/cli/settings.h"
#include "harness/explore/explore.h"
#include "harness/log/cut.h"
#include "harness/log/log.h"
#include "vm/guest.h"
#include "harness/scenario/scenario.h"

static void help(void)
{
	puts("usage: blackout __guest-check --results DIR --run-id ID [check options]\n"
	     "The guest side of 'blackout check', started by it in the VM.");
}

/* What of a check is this guest's share of it: a shard, or a benchmark's mode. */
static void share(const struct bo_check_args *a, struct bo_explore_opts *eo)
{
	if (a->shard)
		(void) sscanf(a->shard, "%u/%u", &eo->shard_index, &eo->shard_count);
	eo->bench = !a->bench			 ? BO_BENCH_NONE
		    : !strcmp(a->bench, "naive") ? BO_BENCH_NAIVE
						 : BO_BENCH_FLOOR;
}

static int cmd_guest_check(int argc, char **argv)
{
	struct bo_guest_args ga = {0};
	struct bo_check_args a = {0};
	const struct bo_opt_set sets[] = {
		{bo_guest_opts, bo_guest_opts_n, &ga},
		{bo_check_opts, bo_check_opts_n, &a},
	};
	struct bo_guest g;
	struct bo_scenario *sc = NULL;
	struct bo_log *log = NULL;
	struct bo_err err = {0};
	struct bo_settings c;
	_cleanup_free_ char *sc_checker = NULL, *repro = NULL;
	char logpath[PATH_MAX + 16], size_buf[32];
	uint64_t first = 0;
	int k, r = 0;

	k = bo_opts_parse("__guest-check", sets, BO_ARRAY_SIZE(sets), BO_OPT_GUEST, help, argc,
			  argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k != argc)
		return bo_cli_usage_error("__guest-check", "--results and --run-id are required");
	if (bo_guest_start(&g, "__guest-check", &ga) < 0)
		return BO_EXIT_HARNESS;
	if (a.guest_scen) {
		uint64_t seed;

		r = bo_guest_scenario(a.guest_scen, &sc, &err);
		if (r >= 0 && a.seed) {
			if (bo_parse_u64(a.seed, &seed) < 0)
				r = bo_err_set(&err, EINVAL, "--seed '%s' is not a number", a.seed);
			else
				bo_scenario_set_seed(sc, seed);
		}
		if (r >= 0 && bo_scenario_checker_command(sc, &sc_checker) < 0)
			r = bo_err_set(&err, ENOMEM, "building the checker command");
	}
	if (r >= 0)
		r = bo_settings_make(&a, sc, sc_checker, &c, &err);
	snprintf(logpath, sizeof(logpath), "%s/write.log", ga.results);
	/* The host's index of the log spares reading every entry header over 9p. */
	if (r >= 0)
		r = a.log_index ? bo_log_open_indexed(logpath, a.log_index, &log, &err)
				: bo_log_open(logpath, 0, &log, &err);
	if (r >= 0 && !c.size)
		c.size = bo_log_min_device_size(log);
	/* ... and all of its devices, which may not all be written to the end. */
	if (r >= 0 && c.size < bo_layout_sectors(bo_log_layout(log)) * 512)
		c.size = bo_layout_sectors(bo_log_layout(log)) * 512;
	/* Before the mkfs mark of a recording there is no filesystem to check. A log without
	 * one must say where the filesystem begins: never guess "from the start". */
	if (r >= 0 && a.from)
		r = bo_cut_resolve(log, a.from, &first, &err);
	else if (r >= 0 && bo_cut_resolve(log, "mark:mkfs", &first, NULL) < 0)
		r = bo_err_set(&err, ENOENT,
			       "log '%s' has no 'mkfs' mark: say from which cut on the filesystem "
			       "exists with --from CUT (e.g. --from start)",
			       logpath);
	/* repro.sh re-runs a state with exactly this configuration. */
	snprintf(size_buf, sizeof(size_buf), "%" PRIu64, c.size);
	if (r >= 0 &&
	    (bo_guest_repro_arg(&repro, "--scenario", a.guest_scen ? "scenario.ini" : NULL) < 0 ||
	     bo_guest_repro_arg(&repro, "--seed", a.seed) < 0 ||
	     bo_guest_repro_arg(&repro, "--fs", c.fs) < 0 ||
	     bo_guest_repro_arg(&repro, "--size", size_buf) < 0 ||
	     bo_guest_repro_arg(&repro, "--mount-options", c.mount_options) < 0 ||
	     bo_guest_repro_arg(&repro, "--checker", c.checker) < 0))
		r = bo_err_set(&err, ENOMEM, "repro arguments");
	if (r >= 0)
		r = bo_guest_workdir(&g, &err);
	if (r >= 0)
		r = bo_guest_env(&g.env, g.libexec, c.workload_seed, &err);
	if (r >= 0) {
		struct bo_explore_opts eo = {
			.runid = ga.runid,
			.workdir = g.workdir,
			.first_cut = first,
			.only_state = a.state,
			.checker_env = g.env.v,
			.log_name = "write.log",
			.repro_args = repro,
			.hash_image = a.hash,
			.claim_dir = a.claims,
			.recovery_log = a.recovery_log,
			.host_base = getenv(BO_HOST_BASE_ENV),
			.user = g.user,
			.root = g.root,
			.in_place = ga.allow_host,
		};
		struct bo_layout l;

		bo_settings_explore(&c, &eo);
		share(&a, &eo);
		r = bo_guest_devices(sc, log, &l, &eo, &err);
		/* A log of several devices says what they are: its primary's filesystem is the
		 * check's unless told (all raw: any, none is mounted). */
		if (r >= 0 && eo.layout && !a.fs && !sc)
			eo.fs = eo.primary >= 0 ? l.v[eo.primary].kind : "ext4";
		if (r >= 0)
			r = bo_explore(log, &eo, g.res, &g.sum, &err);
	}
	bo_scenario_free(sc);
	return bo_guest_finish(&g, r, &err, log);
}

const struct bo_cmd bo_cmd_guest_check = {"__guest-check", cmd_guest_check, NULL};
