// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout shrink — make a failure small: the earliest failing cut of the saved log (by
 * bisection), and for the builtin fsops workload a 1-minimal op list that still fails (by
 * delta debugging), written as a scenario file of its own.
 *
 * All of it runs in one VM: the host starts __guest-shrink (guest_shrink.c), which bisects
 * over the saved log and then records and checks each candidate op list itself. Every probe
 * and candidate is a record of RESULTS/shrink/stream.jsonl.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/cleanup.h"
#include "harness/base/path.h"
#include "harness/cli/cli.h"
#include "harness/cli/vmrun.h"
#include "harness/results/stream.h"
#include "harness/cli/guest.h"
#include "harness/results/results.h"
#include "harness/scenario/scenario.h"
#include "harness/results/summary.h"
#include "vm/vm.h"

static void shrink_help(void)
{
	puts("usage: blackout shrink RESULTS [--state ID] [--no-bisect] [--max-tests N]\n"
	     "                      [VM OPTIONS]\n\n"
	     "Make the failure of a run small, in one VM:\n"
	     "  1. the earliest failing cut: bisection over the saved log between the mkfs mark\n"
	     "     and the failing state (one prefix check per probe);\n"
	     "  2. for the builtin fsops workload, delta debugging of the op list: each candidate\n"
	     "     list is recorded again and checked right after each ack mark; the smallest\n"
	     "     list that still shows the class is written as RESULTS/shrink/minimal.ini,\n"
	     "     which 'blackout run' re-runs.\n"
	     "Every probe and candidate is a record of RESULTS/shrink/stream.jsonl; the outcome\n"
	     "is RESULTS/shrink/summary.json.\n\n"
	     "  --state ID      the failing state to start from (default: the first one)\n"
	     "  --no-bisect     skip the bisection\n"
	     "  --max-tests N   stop delta debugging after N candidates (default: none)\n\n"
	     "Exit status: 0 shrunk, 1 the failure did not reproduce, 3 harness error.");
}

/* The first failing state of a run and its class, from summary.json. */
static int first_failure(const char *dir, char *state, size_t len, enum bo_class *ret)
{
	struct bo_summary sm;
	struct bo_err err = {0};

	if (bo_summary_read(dir, &sm, NULL, &err) < 0) {
		bo_cli_error("shrink: no valid summary in '%s': %s", dir, bo_err_str(&err));
		return -EINVAL;
	}
	for (int c = BO_CLASS_CONSISTENT + 1; c < BO_CLASS_CHECKER_ERROR; c++)
		if (sm.counts[c] && sm.first[c][0]) {
			snprintf(state, len, "%s", sm.first[c]);
			*ret = (enum bo_class) c;
			return 0;
		}
	return -ENOENT;
}

/* The class of state @id as the stream recorded it: 0, -ENOENT when it has none, -errno. */
static int state_class(const char *dir, const char *id, enum bo_class *ret, struct bo_err *err)
{
	struct bo_stream *st = NULL;
	struct bo_stream_rec rec;
	int found = -ENOENT, r = bo_stream_open(dir, &st, err);

	while (r >= 0 && (r = bo_stream_next(st, &rec, err)) > 0)
		if (bo_stream_is_state(&rec) && !strcmp(rec.state, id)) {
			*ret = rec.cls;
			found = 0;
		}
	bo_stream_free(st);
	return r < 0 ? r : found;
}

int bo_cmd_shrink(int argc, char **argv)
{
	static const struct option opts[] = {
		{"state", required_argument, NULL, 's'},
		{"no-bisect", no_argument, NULL, 'B'},
		{"max-tests", required_argument, NULL, 'm'},
		{"help", no_argument, NULL, 'h'},
		VM_OPTIONS,
		{},
	};
	struct vm_args v = {0};
	struct bo_results *res = NULL;
	struct bo_scenario *sc = NULL;
	struct bo_err err = {0};
	char dir[PATH_MAX], path[PATH_MAX], state[64] = "", runid[96], seed_s[32] = "";
	const char *max_tests = NULL;
	struct json_object *cfg = NULL, *run, *seed;
	enum bo_class want = BO_CLASS_CONSISTENT;
	bool no_bisect = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			shrink_help();
			return BO_EXIT_OK;
		} else if (c == 's') {
			snprintf(state, sizeof(state), "%s", optarg);
		} else if (c == 'B') {
			no_bisect = true;
		} else if (c == 'm') {
			uint64_t n;

			if (bo_parse_u64(optarg, &n) < 0 || n > 100000)
				return bo_cli_usage_error("shrink", "--max-tests 0..100000");
			max_tests = optarg;
		} else if (bo_cli_vm_option(c, &v) <= 0) {
			return bo_cli_usage_error("shrink", "bad option");
		}
	}
	if (optind + 1 != argc)
		return bo_cli_usage_error("shrink", "expected one RESULTS directory");
	if (!realpath(argv[optind], dir)) {
		bo_cli_error("shrink: '%s': %s", argv[optind], strerror(errno));
		return BO_EXIT_HARNESS;
	}
	if (bo_pathf(path, sizeof(path), "%s/scenario.ini", dir) < 0 || access(path, R_OK) < 0) {
		bo_cli_error("shrink: '%s' has no scenario.ini: shrink needs the results of "
			     "'blackout run'",
			     dir);
		return BO_EXIT_HARNESS;
	}
	if (bo_scenario_load(path, &sc, &err) < 0) {
		bo_cli_error("shrink: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	/* The state to shrink is the one asked for, else the summary's first failing one; its
	 * class is the one the stream recorded. */
	r = state[0] ? 0 : first_failure(dir, state, sizeof(state), &want);
	if (r == 0) {
		r = state_class(dir, state, &want, &err);
		if (r == 0 && want == BO_CLASS_CONSISTENT)
			r = -ENOENT;
		else if (r < 0 && r != -ENOENT)
			bo_cli_error("shrink: %s", bo_err_str(&err));
	}
	if (r < 0) {
		if (r == -ENOENT)
			bo_cli_error("shrink: %s%s%s has no failing state to shrink", dir,
				     state[0] ? ": " : "", state);
		bo_scenario_free(sc);
		return r == -ENOENT ? BO_EXIT_FAILURE : BO_EXIT_HARNESS;
	}
	/* The run's seed: the scenario's, unless the run overrode it. */
	cfg = bo_pathf(path, sizeof(path), "%s/config.json", dir) == 0 ? json_object_from_file(path)
								       : NULL;
	if (cfg && json_object_object_get_ex(cfg, "run", &run) &&
	    json_object_object_get_ex(run, "seed", &seed))
		snprintf(seed_s, sizeof(seed_s), "%" PRIu64, json_object_get_uint64(seed));
	json_object_put(cfg);
	if (bo_pathf(path, sizeof(path), "%s/%s", dir, BO_SHRINK_DIR) < 0 ||
	    bo_results_create(path, &res, &err) < 0) {
		bo_cli_error("shrink: %s (remove '%s' to shrink again)", bo_err_str(&err), path);
		bo_scenario_free(sc);
		return BO_EXIT_HARNESS;
	}
	bo_results_free(res);
	bo_runid_make(sc->seed, runid, sizeof(runid));
	fprintf(stderr, "blackout: shrink: %s, state %s (%s): booting a VM\n", dir, state,
		bo_class_name(want));
	{
		char *gargv[24] = {(char *) bo_self_exe(),
				   "__guest-shrink",
				   "--results",
				   BO_VM_SHARE_GUEST,
				   "--run-id",
				   runid,
				   "--state",
				   state,
				   "--class",
				   (char *) bo_class_name(want),
				   "--libexec",
				   (char *) bo_libexec_dir()};
		int n = 12;
		_cleanup_free_ char *wcmd = NULL, *ccmd = NULL;
		const char *cmds[3] = {NULL};

		if (seed_s[0]) {
			gargv[n++] = "--seed";
			gargv[n++] = seed_s;
		}
		if (max_tests) {
			gargv[n++] = "--max-tests";
			gargv[n++] = (char *) max_tests;
		}
		if (no_bisect)
			gargv[n++] = "--no-bisect";
		gargv[n] = NULL;
		if (bo_scenario_workload_command(sc, &wcmd) < 0 ||
		    bo_scenario_checker_command(sc, &ccmd) < 0) {
			bo_scenario_free(sc);
			return BO_EXIT_HARNESS;
		}
		cmds[0] = wcmd;
		cmds[1] = ccmd;
		r = bo_guest_boot(&v, dir, gargv, cmds, 7200, &err);
	}
	bo_scenario_free(sc);
	if (r < 0) {
		bo_cli_error("shrink: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	cfg = bo_pathf(path, sizeof(path), "%s/" BO_SHRINK_DIR "/summary.json", dir) == 0
		      ? json_object_from_file(path)
		      : NULL;
	if (!cfg) {
		bo_cli_error("shrink: the guest wrote no '%s'", path);
		return BO_EXIT_HARNESS;
	}
	{
		struct json_object *x;

		if (json_object_object_get_ex(cfg, "earliest_state", &x))
			printf("earliest failing cut: %s\n", json_object_get_string(x));
		if (json_object_object_get_ex(cfg, "ops_after", &x)) {
			struct json_object *b = NULL, *k = NULL, *nc = NULL;

			json_object_object_get_ex(cfg, "ops_before", &b);
			json_object_object_get_ex(cfg, "keep_ops", &k);
			json_object_object_get_ex(cfg, "candidates", &nc);
			printf("ops: %" PRIu64 " -> %" PRIu64 " (%s), %" PRIu64
			       " candidates\nminimal scenario: %s/" BO_SHRINK_DIR "/minimal.ini\n",
			       json_object_get_uint64(b), json_object_get_uint64(x),
			       json_object_get_string(k), json_object_get_uint64(nc), dir);
		}
		if (json_object_object_get_ex(cfg, "error", &x)) {
			bo_cli_error("shrink: %s", json_object_get_string(x));
			r = strstr(json_object_get_string(x), "does not reproduce")
				    ? BO_EXIT_FAILURE
				    : BO_EXIT_HARNESS;
		} else {
			r = BO_EXIT_OK;
		}
	}
	json_object_put(cfg);
	return r;
}
