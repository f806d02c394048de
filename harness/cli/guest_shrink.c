// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * __guest-shrink — the guest side of `blackout shrink` (shrink.c): the run's scenario and
 * settings made again in the VM, then the shrink of harness/shrink/ on this kernel (bisection
 * over the saved log for the earliest failing cut, delta debugging of the fsops workload's op
 * list), and what it found written down. Every probe and candidate is a record of
 * RESULTS/shrink/stream.jsonl; the result is RESULTS/shrink/summary.json and minimal.ini.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/base/safety.h"
#include "harness/cli/cli.h"
#include "harness/cli/guest_side.h"
#include "harness/cli/settings.h"
#include "harness/cli/shrink_opts.h"
#include "harness/diagnose/diag.h"
#include "harness/explore/explore.h"
#include "harness/results/results.h"
#include "harness/scenario/fsops.h"
#include "harness/scenario/ini.h"
#include "harness/scenario/scenario.h"
#include "harness/shrink/shrink.h"

struct guest_shrink {
	struct bo_results *res; /* RESULTS/shrink */
	struct bo_scenario *sc;
	struct bo_settings set; /* what each state is checked with: the run's (settings.h) */
	enum bo_class want;	/* the class that must still show */
};

static void emit(struct guest_shrink *g, const char *event, struct json_object *o)
{
	struct bo_err err = {0};

	if (bo_results_emit(g->res, event, o, &err) < 0)
		fprintf(stderr, "blackout: shrink: %s\n", bo_err_str(&err));
}

static void report_probe(struct guest_shrink *g, const struct bo_shrink_step *st)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "phase", json_object_new_string("bisect"));
	json_object_object_add(o, "state", json_object_new_string(st->state));
	json_object_object_add(o, "cut", json_object_new_uint64(st->cut));
	json_object_object_add(o, "fails", json_object_new_boolean(st->t->fails));
	json_object_object_add(o, "seconds", json_object_new_double(st->seconds));
	if (st->t->error < 0)
		json_object_object_add(o, "error", json_object_new_string(bo_err_str(&st->t->err)));
	emit(g, "shrink-probe", o);
}

static void report_candidate(struct guest_shrink *g, const struct bo_shrink_step *st)
{
	const struct bo_shrink_trial *t = st->t;
	struct json_object *o;

	if (!st->ops) {
		fprintf(stderr, "blackout: shrink: %s\n", bo_err_str(&t->err));
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "phase", json_object_new_string("ddmin"));
	json_object_object_add(o, "step", json_object_new_uint64(st->n));
	json_object_object_add(o, "ops", json_object_new_string(st->ops));
	json_object_object_add(o, "op_count", json_object_new_uint64(st->op_count));
	json_object_object_add(o, "asked", json_object_new_uint64(st->asked));
	json_object_object_add(o, "fails", json_object_new_boolean(t->fails));
	json_object_object_add(o, "states", json_object_new_uint64(t->states));
	json_object_object_add(o, "seconds", json_object_new_double(st->seconds));
	if (t->error < 0)
		json_object_object_add(o, "error", json_object_new_string(bo_err_str(&t->err)));
	emit(g, "shrink-candidate", o);
	fprintf(stderr, "blackout: shrink: candidate %u: %zu ops: %s\n", st->n, st->op_count,
		t->fails       ? "fails"
		: t->error < 0 ? "error (counted as passing)"
			       : "passes");
}

/* Each probe and candidate: a record of the stream, and a line for a candidate. */
static void report(void *rctx, const struct bo_shrink_step *st)
{
	if (st->phase == BO_SHRINK_BISECT)
		report_probe(rctx, st);
	else
		report_candidate(rctx, st);
}

/* The original scenario file with [workload] keep_ops and [run] seed set, and the settings
 * its candidates were checked with that the run's command line may have given over the
 * scenario's keys (run --persona, --recovery, --recovery-crashes, --witness). */
static int write_minimal(struct guest_shrink *g, const char *scenario, const char *keep,
			 struct bo_err *err)
{
	_cleanup_fclose_ FILE *in = fopen(scenario, "re");
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	char seed[32], crashes[32], witness[32];
	const char *const sets[][3] = {
		{"workload", "keep_ops", keep},
		{"run", "seed", seed},
		/* The candidates were judged right after their ack marks: every mark is a
		 * superset of those, and cheap for a handful of ops. */
		{"check", "cuts", "mark"},
		{"check", "persona", bo_persona_name(g->set.persona)},
		{"check", "recovery", bo_recovery_name(g->set.recovery)},
		{"check", "recovery_crashes", crashes},
		{"check", "witness", witness},
		{NULL, NULL, NULL},
	};
	int r;

	if (!in || !out) {
		if (out)
			fclose(out);
		return bo_err_set(err, errno, "reading '%s': %s", scenario, strerror(errno));
	}
	snprintf(seed, sizeof(seed), "%" PRIu64, g->sc->seed);
	snprintf(crashes, sizeof(crashes), "%" PRIu64, g->set.recovery_crashes);
	snprintf(witness, sizeof(witness), "%" PRIu64, g->set.witness);
	fprintf(out,
		"; The smallest op list 'blackout shrink' found that still fails %s, from the\n"
		"; run whose results directory holds this shrink/ directory (%s of %" PRIu64
		" ops).\n",
		bo_class_name(g->want), keep, g->sc->ops);
	r = bo_ini_override(in, out, sets);
	if (fclose(out) != 0 && r >= 0)
		r = -ENOMEM;
	if (r < 0)
		return bo_err_set(err, -r, "writing the minimal scenario");
	return bo_results_write_file(g->res, "minimal.ini", text, len, err);
}

/* The shrink @in of the run in @results (unless @bisect_on is false, no bisection; delta
 * debugging for an fsops workload), what it found into @sum and minimal.ini. */
static int shrink(struct guest_shrink *g, struct bo_shrink_in *in, bool bisect_on,
		  const char *results, const char *scen, struct json_object *sum,
		  struct bo_err *err)
{
	struct bo_shrink_out out = {0};
	char logpath[PATH_MAX], id[64];
	int r;

	if (bisect_on) {
		if (bo_pathf(logpath, sizeof(logpath), "%s/write.log", results) < 0)
			return bo_err_set(err, ENAMETOOLONG, "path too long");
		in->log = logpath;
		r = bo_shrink_bisect(in, &out, err);
		if (r < 0)
			return r;
		bo_state_id(out.cut, id, sizeof(id));
		json_object_object_add(sum, "earliest_state", json_object_new_string(id));
		json_object_object_add(sum, "earliest_cut", json_object_new_uint64(out.cut));
		json_object_object_add(sum, "bisect_probes", json_object_new_uint64(out.probes));
		fprintf(stderr, "blackout: shrink: earliest failing cut: %s (%u probes)\n", id,
			out.probes);
	}
	if (!bo_fsops_is(g->sc))
		return 0;
	r = bo_shrink_ops(in, &out, err);
	if (r < 0)
		return r;
	json_object_object_add(sum, "ops_before", json_object_new_uint64(out.ops_before));
	json_object_object_add(sum, "ops_after", json_object_new_uint64(out.ops_after));
	json_object_object_add(sum, "keep_ops", json_object_new_string(out.keep));
	json_object_object_add(sum, "candidates", json_object_new_uint64(out.candidates));
	json_object_object_add(sum, "minimal_scenario", json_object_new_string("minimal.ini"));
	r = write_minimal(g, scen, out.keep, err);
	free(out.keep);
	return r;
}

static void help(void)
{
	puts("usage: blackout __guest-shrink --results DIR --run-id ID --state ID --class CLASS\n"
	     "                              [--seed N] [--max-tests N] [--no-bisect]\n"
	     "The guest side of 'blackout shrink', started by it in the VM.");
}

static int cmd_guest_shrink(int argc, char **argv)
{
	struct bo_guest_args ga = {0};
	struct bo_shrink_args sa = {0};
	const struct bo_opt_set sets[] = {
		{bo_guest_opts, bo_guest_opts_n, &ga},
		{bo_shrink_opts, bo_shrink_opts_n, &sa},
		{bo_setting_opts, bo_setting_opts_n, &sa.check},
	};
	_cleanup_free_ char *checker = NULL;
	const char *runid, *state;
	struct guest_shrink g = {0};
	struct bo_proc_user user_buf = {0};
	struct bo_explore_opts eo = {0};
	struct bo_shrink_vm vm = {
		.eo = &eo,
		.tmpfs = bo_guest_tmpfs,
		.tmpfs_drop = bo_guest_tmpfs_drop,
		.devices = bo_guest_devices,
	};
	struct bo_shrink_in in = {
		.judge = &bo_shrink_vm_judge,
		.ctx = &vm,
		.report = report,
		.rctx = &g,
	};
	struct bo_err err = {0};
	_cleanup_json_ struct json_object *sum = bo_json_new_doc();
	char path[PATH_MAX], scen[PATH_MAX], workdir[PATH_MAX] = "";
	struct bo_guest_env env = {0};
	uint64_t seed = 0, max_tests = 0;
	bool bisect_on;
	double t0 = bo_now();
	int k, r = 0, ret = BO_EXIT_HARNESS;

	k = bo_opts_parse("__guest-shrink", sets, BO_ARRAY_SIZE(sets), BO_OPT_GUEST, help, argc,
			  argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	runid = ga.runid;
	state = sa.state;
	bisect_on = !sa.no_bisect;
	if (sa.max_tests)
		(void) !bo_parse_u64(sa.max_tests, &max_tests);
	if (!ga.results || !runid || !state || !sa.cls || !sum || k != argc)
		return bo_cli_usage_error("__guest-shrink", "--results --run-id --state --class");
	vm.runid = runid;
	vm.libexec = ga.libexec ? ga.libexec : bo_libexec_dir();
	vm.in_place = ga.allow_host;
	if (bo_guest_identity(&ga, "__guest-shrink", &user_buf, &vm.user, &vm.root) < 0)
		return BO_EXIT_USAGE;
	if (bo_class_from_name(sa.cls, &g.want) < 0)
		return bo_cli_usage_error("__guest-shrink", "unknown class '%s'", sa.cls);
	if (bo_pathf(path, sizeof(path), "%s/%s", ga.results, BO_SHRINK_DIR) < 0 ||
	    bo_pathf(scen, sizeof(scen), "%s/scenario.ini", ga.results) < 0)
		return BO_EXIT_HARNESS;
	r = bo_results_open(path, &g.res, &err);
	if (r >= 0)
		r = bo_guest_scenario(scen, &g.sc, &err);
	if (r >= 0) {
		snprintf(workdir, sizeof(workdir), "%s%s", BO_WORKDIR_PREFIX, runid);
		if (mkdir(workdir, vm.user ? 0711 : 0700) < 0) {
			r = bo_err_set(&err, errno, "creating '%s': %s", workdir, strerror(errno));
			workdir[0] = '\0';
		}
	}
	if (r >= 0 && sa.seed) {
		if (bo_parse_u64(sa.seed, &seed) < 0)
			r = bo_err_set(&err, EINVAL, "--seed '%s'", sa.seed);
		else
			bo_scenario_set_seed(g.sc, seed);
	}
	if (r >= 0 && bo_scenario_checker_command(g.sc, &checker) < 0)
		r = bo_err_set(&err, ENOMEM, "building the checker command");
	if (r >= 0)
		r = bo_settings_make(&sa.check, g.sc, checker, &g.set, &err);
	if (r >= 0)
		r = bo_guest_env(&env, vm.libexec, g.sc->workload_seed, &err);
	if (r < 0)
		goto out;
	bo_settings_explore(&g.set, &eo);
	vm.workdir = workdir;
	vm.sc = g.sc;
	vm.checker_env = env.v;
	vm.res = g.res;
	in.want = g.want;
	in.state = state;
	in.max_tests = (unsigned) max_tests;
	json_object_object_add(sum, "state", json_object_new_string(state));
	json_object_object_add(sum, "class", json_object_new_string(sa.cls));
	/* Bisection walks prefix states; a state with dropped or torn writes has none below it. */
	if (bisect_on &&
	    (state[0] != 'c' || strspn(state + 1, "0123456789") != strlen(state + 1))) {
		json_object_object_add(sum, "bisect_skipped",
				       json_object_new_string("not a prefix state"));
		bisect_on = false;
	}
	r = shrink(&g, &in, bisect_on, ga.results, scen, sum, &err);
out:
	/* Every probe and candidate removed what it made; assert it (devices are named
	 * blackout-<run-id>-b<N>-... and -k<N>-..., images live under workdir). */
	if (workdir[0]) {
		struct bo_err lerr = {0};
		char left[1024];
		int n = bo_diag_leftovers(runid, workdir, left, sizeof(left), &lerr);

		if (n != 0 && r >= 0)
			r = n < 0 ? bo_err_set(&err, lerr.errnum, "%s", bo_err_str(&lerr))
				  : bo_err_set(&err, EBUSY, "%d objects were left behind:\n%s", n,
					       left);
		if (n == 0 && rmdir(workdir) < 0 && r >= 0)
			r = bo_err_set(&err, errno, "removing '%s': %s", workdir, strerror(errno));
	}
	json_object_object_add(sum, "seconds", json_object_new_double(bo_now() - t0));
	if (r < 0) {
		json_object_object_add(sum, "error", json_object_new_string(bo_err_str(&err)));
		bo_cli_error("shrink: %s", bo_err_str(&err));
	} else {
		ret = BO_EXIT_OK;
	}
	if (g.res) {
		struct bo_err werr = {0};

		if (bo_results_write_json(g.res, "summary.json", sum, &werr) < 0) {
			bo_cli_error("shrink: %s", bo_err_str(&werr));
			ret = BO_EXIT_HARNESS;
		}
		emit(&g, "end", json_object_new_object());
	}
	bo_guest_env_clear(&env);
	bo_scenario_free(g.sc);
	bo_results_free(g.res);
	return ret;
}

const struct bo_cmd bo_cmd_guest_shrink = {"__guest-shrink", cmd_guest_shrink, NULL};
