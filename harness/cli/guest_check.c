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
#include "harness/cli/guest.h"
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

/* The effective configuration of a check: the options, else the scenario's, else defaults. */
struct config {
	const char *fs, *mopt, *cuts, *checker;
	uint64_t size, first, seed, reorder, budget, workload_seed, recovery_crashes, witness;
	bool ordered, torn;
	enum bo_persona persona;
	enum bo_recovery recovery;
	unsigned fsck_timeout, checker_timeout;
	unsigned shard_i, shard_n;
	enum bo_bench_mode bench;
};

static int configure(const struct bo_check_args *a, const struct bo_scenario *sc,
		     const char *checker_cmd, struct config *c, struct bo_err *err)
{
	*c = (struct config){
		.fs = a->fs,
		.mopt = a->mopt,
		.cuts = a->cuts,
		.checker = a->checker,
		.torn = a->torn,
		.fsck_timeout = 300,
		.checker_timeout = 300,
	};
	if (sc) {
		c->fs = c->fs ? c->fs : bo_fs_name(sc->fs);
		c->mopt = c->mopt ? c->mopt : sc->mount_options;
		c->cuts = c->cuts ? c->cuts : sc->cuts_spec;
		c->checker = c->checker ? c->checker : checker_cmd;
		c->size = sc->size;
		c->workload_seed = sc->workload_seed;
		/* Sampling and tearing draw from the run's seed, as the checker does. */
		c->seed = sc->seed;
		c->ordered = sc->ordered;
		c->persona = sc->persona;
		c->recovery_crashes = sc->recovery_crashes;
		c->recovery = sc->recovery;
		c->witness = sc->witness;
		c->fsck_timeout = sc->fsck_timeout;
		c->checker_timeout = sc->checker_timeout;
	} else if (a->seed && bo_parse_u64(a->seed, &c->seed) < 0) {
		return bo_err_set(err, EINVAL, "--seed '%s' is not a number", a->seed);
	}
	if (a->size && bo_parse_u64(a->size, &c->size) < 0)
		return bo_err_set(err, EINVAL, "--size '%s' is not a number of bytes", a->size);
	if (a->reorder)
		(void) !bo_parse_u64(a->reorder, &c->reorder);
	if (a->budget)
		(void) !bo_parse_u64(a->budget, &c->budget);
	if (a->recovery_crashes)
		(void) !bo_parse_u64(a->recovery_crashes, &c->recovery_crashes);
	if (a->witness)
		(void) !bo_parse_u64(a->witness, &c->witness);
	if (a->recovery && bo_recovery_from_name(a->recovery, &c->recovery) < 0)
		return bo_err_set(err, EINVAL, "--recovery '%s': auto, mount or fsck", a->recovery);
	if (c->recovery == BO_RECOVERY_FSCK && c->fs) {
		enum bo_fs fs;

		if (bo_fs_from_name(c->fs, &fs) == 0 && !bo_fs_can_repair(fs))
			return bo_err_set(err, EINVAL,
					  "--recovery fsck: %s is recovered by its mount; fsck "
					  "recovery is for ext2, ext4 and vfat",
					  c->fs);
	}
	if (a->persona && bo_persona_parse(a->persona, &c->persona) < 0)
		return bo_err_set(err, EINVAL, "--persona '%s': one of " BO_PERSONA_NAMES,
				  a->persona);
	/* A persona's own states when none were asked for, and its budget (crashgen.h). */
	{
		unsigned k = (unsigned) c->reorder;

		bo_persona_defaults(c->persona, a->reorder || a->torn, &k, &c->torn, &c->budget);
		c->reorder = k;
	}
	if (a->shard)
		(void) sscanf(a->shard, "%u/%u", &c->shard_i, &c->shard_n);
	c->bench = !a->bench			? BO_BENCH_NONE
		   : !strcmp(a->bench, "naive") ? BO_BENCH_NAIVE
						: BO_BENCH_FLOOR;
	return 0;
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
	struct config c;
	_cleanup_free_ char *sc_checker = NULL, *repro = NULL;
	char logpath[PATH_MAX + 16], size_buf[32];
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
		r = configure(&a, sc, sc_checker, &c, &err);
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
		r = bo_cut_resolve(log, a.from, &c.first, &err);
	else if (r >= 0 && bo_cut_resolve(log, "mark:mkfs", &c.first, NULL) < 0)
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
	     bo_guest_repro_arg(&repro, "--mount-options", c.mopt) < 0 ||
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
			.fs = c.fs,
			.mount_options = c.mopt ? c.mopt : "",
			.cuts = c.cuts ? c.cuts : "flush",
			.first_cut = c.first,
			.only_state = a.state,
			.checker = c.checker,
			.checker_env = g.env.v,
			.ordered = c.ordered,
			.fsck_timeout = c.fsck_timeout,
			.checker_timeout = c.checker_timeout,
			.image_size = c.size,
			.log_name = "write.log",
			.repro_args = repro,
			.hash_image = a.hash,
			.shard_index = c.shard_i,
			.shard_count = c.shard_n,
			.claim_dir = a.claims,
			.reorder_k = (unsigned) c.reorder,
			.torn = c.torn,
			.budget = c.budget,
			.persona = c.persona,
			.recovery_crashes = (unsigned) c.recovery_crashes,
			.recovery = c.recovery,
			.recovery_log = a.recovery_log,
			.witness = (unsigned) c.witness,
			.witness_full = a.witness_mode != NULL,
			.seed = c.seed,
			.bench = c.bench,
			.host_base = getenv(BO_HOST_BASE_ENV),
			.user = g.user,
			.root = g.root,
			.in_place = ga.allow_host,
		};
		struct bo_layout l;

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
