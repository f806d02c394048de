// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * __guest-run — the guest side of `blackout run` (run.c), started by the host in the VM with
 * the results directory shared: record the scenario's workload, save its log, lint it, and
 * check every crash state the scenario's cut policy selects.
 *
 *   blackout __guest-run --results DIR --run-id ID --scenario FILE [--seed N]
 *                        [--recovery-crashes N] [--witness N]
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/cli/cli.h"
#include "harness/cli/explain_nodes.h"
#include "harness/cli/check_opts.h"
#include "harness/cli/guest_side.h"
#include "harness/cli/settings.h"
#include "harness/explore/explore.h"
#include "harness/log/cut.h"
#include "harness/log/log.h"
#include "harness/record/record.h"
#include "harness/scenario/scenario.h"

/* The run's scenario and seed; the settings its check takes from the command line over the
 * scenario's (run.c: --persona, --recovery, --recovery-crashes, --witness) are check options,
 * read by their own table (check_opts.h) into a struct bo_check_args. */
struct run_args {
	const char *scenario, *seed;
};

static const struct bo_opt run_opts[] = {
	{"scenario", "FILE", offsetof(struct run_args, scenario), BO_OPT_GUEST, NULL, NULL, NULL},
	{"seed", "N", offsetof(struct run_args, seed), BO_OPT_GUEST, NULL, bo_opt_check_u64, NULL},
};

static void help(void)
{
	puts("usage: blackout __guest-run --results DIR --run-id ID --scenario FILE [--seed N]\n"
	     "The guest side of 'blackout run', started by it in the VM.");
}

/*
 * Copy the used part of the log into the results: the artifact that reproduces everything.
 * It is read-only from then on, which lets `blackout check` link it rather than copy it.
 * A recording's log ends with the mark dm-log-writes logs when it is removed; without it,
 * dm-log-writes had stopped logging before (its log device of @log_size bytes filled up, or a
 * log write failed: "Ran out of space on the logdev"), which its status may not have said yet
 * when it was asked (it logs behind, after each flush): the log is incomplete, and states
 * built from it would be fiction.
 */
static int save_log(const char *src, uint64_t log_size, struct bo_results *res, struct bo_err *err)
{
	struct bo_log *log = NULL;
	char dst[PATH_MAX];
	_cleanup_close_ int in = -1, out = -1;
	uint64_t end, off = 0;
	_cleanup_free_ char *buf = malloc(1 << 20);
	int r;

	if (!buf)
		return bo_err_set(err, ENOMEM, "saving the log");
	r = bo_log_open(src, 0, &log, err);
	if (r < 0)
		return r;
	if (bo_log_find_mark(log, "dm-log-writes-end", &end, NULL) < 0 ||
	    end + 1 != bo_log_count(log)) {
		r = bo_err_set(err, ENOSPC,
			       "the recorded log is incomplete: it does not end with "
			       "dm-log-writes' final mark, so dm-log-writes stopped logging after "
			       "%" PRIu64 " entries (its log device of %" PRIu64
			       " bytes filled up, or a log write failed; see vm/console.log): "
			       "raise [run] log_size",
			       bo_log_count(log), log_size);
		bo_log_free(log);
		return r;
	}
	end = bo_log_end_offset(log);
	bo_log_free(log);
	snprintf(dst, sizeof(dst), "%s/write.log", bo_results_dir(res));
	in = open(src, O_RDONLY | O_CLOEXEC);
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0444);
	if (in < 0 || out < 0)
		return bo_err_set(err, errno, "saving the log to '%s': %s", dst, strerror(errno));
	while (off < end) {
		size_t n = end - off < (1 << 20) ? (size_t) (end - off) : (1 << 20);
		ssize_t got = bo_pread_full(in, buf, n, off);

		if (got != (ssize_t) n)
			return bo_err_set(err, got < 0 ? (int) -got : EIO, "reading '%s'", src);
		r = bo_pwrite_full(out, buf, n, off);
		if (r < 0)
			return bo_err_set(err, -r, "writing '%s': %s", dst, strerror(-r));
		off += n;
	}
	if (fsync(out) < 0)
		return bo_err_set(err, errno, "writing '%s': %s", dst, strerror(errno));
	return 0;
}

static int cmd_guest_run(int argc, char **argv)
{
	struct bo_guest_args ga = {0};
	struct run_args ra = {0};
	struct bo_check_args ca = {0};
	const struct bo_opt_set sets[] = {
		{bo_guest_opts, bo_guest_opts_n, &ga},
		{run_opts, BO_ARRAY_SIZE(run_opts), &ra},
		{bo_setting_opts, bo_setting_opts_n, &ca},
	};
	struct bo_settings set;
	struct bo_guest g;
	struct bo_scenario *sc = NULL;
	struct bo_log *log = NULL;
	struct bo_err err = {0};
	char logpath[PATH_MAX + 16], seed_s[32];
	_cleanup_free_ char *checker = NULL, *repro = NULL;
	uint64_t first = 0, seed;
	int k, r;

	k = bo_opts_parse("__guest-run", sets, BO_ARRAY_SIZE(sets), BO_OPT_GUEST, help, argc, argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (!ra.scenario || k != argc)
		return bo_cli_usage_error("__guest-run", "--results, --scenario, --run-id");
	if (bo_guest_start(&g, "__guest-run", &ga) < 0)
		return BO_EXIT_HARNESS;
	r = bo_guest_scenario(ra.scenario, &sc, &err);
	if (r >= 0 && ra.seed && bo_parse_u64(ra.seed, &seed) == 0)
		bo_scenario_set_seed(sc, seed);
	if (r >= 0)
		r = bo_guest_workdir(&g, &err);
	if (r >= 0) {
		struct bo_record_opts ro = {
			.sc = sc,
			.runid = ga.runid,
			.workdir = g.workdir,
			.libexec = g.libexec,
			.user = g.user,
			.root = g.root,
			.in_place = ga.allow_host,
		};

		r = bo_record(&ro, g.res, &err);
	}
	snprintf(logpath, sizeof(logpath), "%s/log.img", g.workdir);
	if (r >= 0)
		r = save_log(logpath, sc->log_size, g.res, &err);
	if (r >= 0)
		r = bo_log_open(logpath, 0, &log, &err);
	if (r >= 0) {
		bo_cli_lint(log, "<results>/write.log");
		bo_cli_lint_nodes(log, sc->cluster);
	}
	/* Before the mkfs mark there is no filesystem: the first state is right after it. */
	if (r >= 0)
		r = bo_cut_resolve(log, "mark:mkfs", &first, &err);
	if (r >= 0 && bo_scenario_checker_command(sc, &checker) < 0)
		r = bo_err_set(&err, ENOMEM, "building the checker command");
	if (r >= 0)
		r = bo_settings_make(&ca, sc, checker, &set, &err);
	if (r >= 0) {
		snprintf(seed_s, sizeof(seed_s), "%" PRIu64, sc->seed);
		if (bo_guest_repro_arg(&repro, "--scenario", "scenario.ini") < 0 ||
		    bo_guest_repro_arg(&repro, "--seed", seed_s) < 0)
			r = bo_err_set(&err, ENOMEM, "repro arguments");
	}
	if (r >= 0)
		r = bo_guest_env(&g.env, g.libexec, sc->workload_seed, &err);
	if (r >= 0) {
		struct bo_explore_opts eo = {
			.runid = ga.runid,
			.workdir = g.workdir,
			.first_cut = first,
			.checker_env = g.env.v,
			.log_name = "write.log",
			.repro_args = repro,
			.user = g.user,
			.root = g.root,
			.in_place = ga.allow_host,
		};
		struct bo_layout l;

		bo_settings_explore(&set, &eo);
		r = bo_guest_devices(sc, log, &l, &eo, &err);
		if (r >= 0)
			r = bo_explore(log, &eo, g.res, &g.sum, &err);
	}
	bo_scenario_free(sc);
	return bo_guest_finish(&g, r, &err, log);
}

const struct bo_cmd bo_cmd_guest_run = {"__guest-run", cmd_guest_run, NULL};
