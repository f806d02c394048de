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
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/json.h"
#include "harness/base/path.h"
#include "harness/base/safety.h"
#include "harness/cli/check.h"
#include "harness/cli/cli.h"
#include "harness/cli/guest_side.h"
#include "harness/cli/settings.h"
#include "harness/cli/shipped.h"
#include "harness/cli/shrink_opts.h"
#include "harness/cli/vmrun.h"
#include "harness/results/config.h"
#include "harness/results/results.h"
#include "harness/results/stream.h"
#include "harness/results/summary.h"
#include "harness/scenario/scenario.h"

static void shrink_help(void)
{
	puts("usage: blackout shrink RESULTS [--state ID] [--no-bisect] [--max-tests N]\n"
	     "                      [--host-root] [VM OPTIONS]\n\n"
	     "Make the failure of a run small, in one VM:\n"
	     "  1. the earliest failing cut: bisection over the saved log between the mkfs mark\n"
	     "     and the failing state (one prefix check per probe);\n"
	     "  2. for the builtin fsops workload, delta debugging of the op list: each candidate\n"
	     "     list is recorded again and checked right after each ack mark; the smallest\n"
	     "     list that still shows the class is written as RESULTS/shrink/minimal.ini,\n"
	     "     which 'blackout run' re-runs.\n"
	     "Every probe and candidate is a record of RESULTS/shrink/stream.jsonl; the outcome\n"
	     "is RESULTS/shrink/summary.json. A host file the results name for the VM (the\n"
	     "run's --file and [vm] files, its scripts, host paths its command lines name)\n"
	     "goes into it only when given again with --file; the host's root only with\n"
	     "--host-root. RESULTS may be a stranger's.\n");
	bo_opts_help(stdout, bo_shrink_opts, bo_shrink_opts_n);
	bo_vm_opts_help();
	puts("\nExit status: 0 shrunk, 1 the failure did not reproduce, 3 harness error.");
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

/*
 * config.json of the shrink into @res: the run's seed, what its states are checked with (the
 * options of @sa's run and the settings made of them over the scenario @sc, as the guest makes
 * them), the files and kernel of its VM @v. 0, or -errno with @err.
 */
static int shrink_config(struct bo_results *res, const char *runid, const struct bo_scenario *sc,
			 const struct bo_shrink_args *sa, const char *seed, const struct vm_args *v,
			 struct bo_err *err)
{
	_cleanup_json_ struct json_object *o = bo_json_new_doc(), *kernel = NULL;
	_cleanup_free_ char *checker = NULL;
	struct bo_check_args ca = sa->check;
	struct bo_settings set;

	if (!o || bo_scenario_checker_command(sc, &checker) < 0)
		return bo_err_set(err, ENOMEM, "config.json");
	ca.seed = seed;
	if (bo_settings_make(&ca, sc, checker, &set, err) < 0)
		return -EINVAL;
	json_object_object_add(o, "kind", json_object_new_string("shrink"));
	json_object_object_add(o, "run_id", json_object_new_string(runid));
	json_object_object_add(o, "blackout", json_object_new_string(BO_VERSION));
	if (bo_settings_config(o, bo_setting_opts, bo_setting_opts_n, &sa->check, &set) < 0)
		return bo_err_set(err, ENOMEM, "config.json");
	json_object_object_add(o, "files", bo_vm_args_shipped(v));
	bo_config_add_origin(o);
	if (bo_vm_args_kernel(v, &kernel, NULL) == 0)
		json_object_object_add(o, "kernel", json_object_get(kernel));
	return bo_results_write_json(res, "config.json", o, err);
}

/* Boot the VM of __guest-shrink for state @state of class @want of results @dir. */
static int boot(const struct vm_args *v, const char *dir, const char *runid, const char *state,
		enum bo_class want, const char *seed, const struct bo_shrink_args *host,
		const struct bo_scenario *sc, struct bo_err *err)
{
	struct bo_shrink_args sa = *host;
	_cleanup_free_ char *wcmd = NULL, *ccmd = NULL;
	const char *cmds[3] = {NULL};
	struct bo_argv gv = {0};
	int r;

	sa.state = state;
	sa.cls = bo_class_name(want);
	sa.seed = seed;
	r = bo_guest_argv(&gv, "__guest-shrink", runid, sc, err);
	if (r < 0) {
		bo_argv_free(&gv);
		return r;
	}
	bo_opts_pass(bo_shrink_opts, bo_shrink_opts_n, &sa, &gv);
	bo_opts_pass(bo_setting_opts, bo_setting_opts_n, &sa.check, &gv);
	/* What the host read from the results, for the guest only. */
	bo_argv_add(&gv, "--class");
	bo_argv_add(&gv, sa.cls);
	if (seed) {
		bo_argv_add(&gv, "--seed");
		bo_argv_add(&gv, seed);
	}
	if (gv.oom || bo_scenario_workload_command(sc, &wcmd) < 0 ||
	    bo_scenario_checker_command(sc, &ccmd) < 0)
		r = bo_err_set(err, ENOMEM, "out of memory");
	else {
		cmds[0] = wcmd;
		cmds[1] = ccmd;
		r = bo_guest_boot(v, dir, gv.v, cmds, 7200, err);
	}
	bo_argv_free(&gv);
	return r;
}

/* The state to shrink: the one asked for, else the summary's first failing one; its class is
 * the one the stream recorded. 0, -ENOENT when there is none (reported), -errno. */
static int pick_state(const char *dir, char *state, size_t len, enum bo_class *want)
{
	struct bo_err err = {0};
	int r = state[0] ? 0 : first_failure(dir, state, len, want);

	if (r == 0) {
		r = state_class(dir, state, want, &err);
		if (r == 0 && *want == BO_CLASS_CONSISTENT)
			r = -ENOENT;
		else if (r < 0 && r != -ENOENT)
			bo_cli_error("shrink: %s", bo_err_str(&err));
	}
	if (r == -ENOENT)
		bo_cli_error("shrink: %s%s%s has no failing state to shrink", dir,
			     state[0] ? ": " : "", state);
	return r;
}

/*
 * What of this host the VM of shrink would get because the results @dir name it (config.json
 * @cfg's files, scenario @sc's files, scripts and root, the host paths its command lines
 * name), judged against the command line @v and @host_root (harness/cli/shipped.h).
 */
static int judge_shipped(const char *dir, struct json_object *cfg, const struct bo_scenario *sc,
			 const struct vm_args *v, bool host_root, struct bo_err *err)
{
	_cleanup_free_ char *wcmd = NULL, *ccmd = NULL;
	struct bo_shipped s = {0};
	int r;

	bo_shipped_add_config(&s, cfg);
	bo_shipped_add_scenario(&s, sc);
	if (bo_scenario_workload_command(sc, &wcmd) < 0 ||
	    bo_scenario_checker_command(sc, &ccmd) < 0)
		s.oom = true;
	bo_shipped_add_command(&s, wcmd);
	bo_shipped_add_command(&s, ccmd);
	r = bo_shipped_judge(&s, v, host_root, dir, err);
	bo_shipped_clear(&s);
	return r;
}

/* What the guest found, from RESULTS/shrink/summary.json; the exit status. */
static int print_outcome(const char *dir)
{
	_cleanup_json_ struct json_object *sum = NULL;
	struct bo_err err = {0};
	char path[PATH_MAX];
	struct json_object *x;

	if (bo_pathf(path, sizeof(path), "%s/" BO_SHRINK_DIR "/summary.json", dir) < 0 ||
	    bo_json_read_file(path, &sum, &err) < 0) {
		bo_cli_error("shrink: the guest wrote no summary: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	if (json_object_object_get_ex(sum, "earliest_state", &x))
		printf("earliest failing cut: %s\n", json_object_get_string(x));
	if (json_object_object_get_ex(sum, "ops_after", &x)) {
		struct json_object *b = NULL, *keep = NULL, *nc = NULL;

		json_object_object_get_ex(sum, "ops_before", &b);
		json_object_object_get_ex(sum, "keep_ops", &keep);
		json_object_object_get_ex(sum, "candidates", &nc);
		printf("ops: %" PRIu64 " -> %" PRIu64 " (%s), %" PRIu64
		       " candidates\nminimal scenario: %s/" BO_SHRINK_DIR "/minimal.ini\n",
		       json_object_get_uint64(b), json_object_get_uint64(x),
		       json_object_get_string(keep), json_object_get_uint64(nc), dir);
	}
	if (!json_object_object_get_ex(sum, "error", &x))
		return BO_EXIT_OK;
	bo_cli_error("shrink: %s", json_object_get_string(x));
	return strstr(json_object_get_string(x), "does not reproduce") ? BO_EXIT_FAILURE
								       : BO_EXIT_HARNESS;
}

static int cmd_shrink(int argc, char **argv)
{
	struct bo_shrink_args sa = {0};
	struct vm_args v = {0};
	const struct bo_opt_set sets[] = {
		{bo_shrink_opts, bo_shrink_opts_n, &sa},
		{bo_vm_opts, bo_vm_opts_n, &v},
	};
	struct bo_results *res = NULL;
	struct bo_scenario *sc = NULL;
	struct bo_err err = {0};
	_cleanup_json_ struct json_object *cfg = NULL;
	char dir[PATH_MAX], path[PATH_MAX], state[64] = "", runid[BO_RUNID_MAX], seed_s[32] = "";
	char console[PATH_MAX];
	char **ship = NULL;
	enum bo_class want = BO_CLASS_CONSISTENT;
	uint64_t seed;
	int k, r, ret = BO_EXIT_HARNESS;

	k = bo_opts_parse("shrink", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, shrink_help, argc,
			  argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k + 1 != argc)
		return bo_cli_usage_error("shrink", "expected one RESULTS directory");
	bo_vm_args_read(&v);
	/* In place only as root: said before anything is made. */
	if (bo_vm_args_in_place_ok(&v, &err) < 0) {
		bo_cli_error("shrink: %s", bo_err_str(&err));
		goto out;
	}
	if (sa.state)
		snprintf(state, sizeof(state), "%s", sa.state);
	if (!realpath(argv[k], dir)) {
		bo_cli_error("shrink: '%s': %s", argv[k], strerror(errno));
		goto out;
	}
	if (bo_pathf(path, sizeof(path), "%s/scenario.ini", dir) < 0 || access(path, R_OK) < 0) {
		bo_cli_error("shrink: '%s' has no scenario.ini: shrink needs the results of "
			     "'blackout run'",
			     dir);
		goto out;
	}
	if (bo_scenario_load_in(dir, NULL, &sc, &err) < 0) {
		bo_cli_error("shrink: %s", bo_err_str(&err));
		goto out;
	}
	/* Its trials check a state through all the nodes: a loss seen through a smaller set
	 * would never reproduce there. */
	if (sc->cluster) {
		bo_cli_error("shrink: '%s' is a cluster's run, whose states are not shrunk yet "
			     "(docs/clusters.md): reproduce one with 'blackout reproduce'",
			     dir);
		goto out;
	}
	r = pick_state(dir, state, sizeof(state), &want);
	if (r < 0) {
		ret = r == -ENOENT ? BO_EXIT_FAILURE : BO_EXIT_HARNESS;
		goto out;
	}
	/* The saved log is judged as reproduce judges it (bo_check_judge()), with the state and
	 * the scenario: a corrupt log, a state it does not have, a checker the guest could not
	 * run are refused here, before shrink/ exists or a VM boots; a run without a failing
	 * state has nothing to shrink whatever its log. */
	{
		const struct bo_check_args ca = {.state = state};
		bool usage = false;

		if (bo_pathf(path, sizeof(path), "%s/write.log", dir) < 0 ||
		    bo_check_judge(path, &ca, sc, NULL, 0, &usage, &err) < 0) {
			bo_cli_error("shrink: %s", bo_err_str(&err));
			if (usage && sa.state)
				ret = BO_EXIT_USAGE;
			goto out;
		}
	}
	/* The run's seed: the scenario's, unless the run overrode it; and what its VM got
	 * besides the scenario's files. */
	r = bo_config_read(dir, &cfg, &err);
	if (r < 0 && r != -ENOENT) {
		bo_cli_error("shrink: %s", bo_err_str(&err));
		goto out;
	}
	if (judge_shipped(dir, cfg, sc, &v, sa.host_root, &err) < 0) {
		bo_cli_error("shrink: %s", bo_err_str(&err));
		goto out;
	}
	if (cfg) {
		struct json_object *opt;

		if (bo_config_run_seed(cfg, &seed))
			snprintf(seed_s, sizeof(seed_s), "%" PRIu64, seed);
		bo_vm_args_kernel_from(&v, cfg); /* the run's kernel, unless told otherwise */
		/* What its command line said its states are checked with (run --persona, ...). */
		if (json_object_object_get_ex(cfg, "options", &opt))
			bo_opts_from_config(bo_setting_opts, bo_setting_opts_n, opt, &sa.check);
	}
	if (bo_guest_vm_for(sc, &v, &ship) < 0) {
		bo_cli_error("shrink: out of memory");
		goto out;
	}
	/* What the boot would refuse, refused before shrink/ exists. */
	if (bo_vm_args_judge(&v, &err) < 0) {
		bo_cli_error("shrink: %s", bo_err_str(&err));
		goto out;
	}
	/* The VM's console log goes to shrink/, which this shrink makes: the run's own
	 * vm/console.log is the run's. */
	if (bo_pathf(console, sizeof(console), "%s/%s/vm/console.log", dir, BO_SHRINK_DIR) < 0) {
		bo_cli_error("shrink: '%s': path too long", dir);
		goto out;
	}
	v.console = console;
	if (bo_pathf(path, sizeof(path), "%s/%s", dir, BO_SHRINK_DIR) < 0 ||
	    bo_results_create(path, &res, &err) < 0) {
		bo_cli_error("shrink: %s (remove '%s' to shrink again)", bo_err_str(&err), path);
		goto out;
	}
	bo_runid_make(sc->seed, runid, sizeof(runid));
	r = shrink_config(res, runid, sc, &sa, seed_s[0] ? seed_s : NULL, &v, &err);
	bo_results_free(res);
	if (r < 0) {
		bo_cli_error("shrink: %s", bo_err_str(&err));
		goto out;
	}
	bo_cli_note("shrink: %s, state %s (%s): %s", dir, state, bo_class_name(want),
		    v.in_place ? "in place, on this kernel" : "booting a VM");
	r = boot(&v, dir, runid, state, want, seed_s[0] ? seed_s : NULL, &sa, sc, &err);
	if (r < 0)
		bo_cli_error("shrink: %s", bo_err_str(&err));
	else
		ret = print_outcome(dir);
out:
	bo_strv_free(ship);
	bo_vm_args_clear(&v);
	bo_scenario_free(sc);
	return ret;
}

const struct bo_cmd bo_cmd_shrink = {"shrink", cmd_shrink,
				     "find the earliest failing cut and a minimal op list"};
