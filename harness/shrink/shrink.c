// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * __guest-shrink — the guest side of `blackout shrink` (shrink.c): bisect over the saved
 * log for the earliest failing cut, then record and check each candidate op list of the
 * fsops workload (delta debugging), so that a candidate costs mkfs, the workload and its
 * checks, never a boot. Every probe and candidate is a record of RESULTS/shrink/stream.jsonl.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/ddmin.h"
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
#include "harness/log/cut.h"
#include "harness/log/log.h"
#include "harness/record/record.h"
#include "harness/results/results.h"
#include "harness/results/summary.h"
#include "harness/scenario/fsops.h"
#include "harness/scenario/ini.h"
#include "harness/scenario/scenario.h"
#include "scenarios/blackout-ids.h"

struct seen {
	char *ops;
	int fails;
};

struct shrinker {
	const char *runid, *libexec;
	/* The account and root directory of workload and checker (bo_guest_identity()). */
	const struct bo_proc_user *user;
	const char *root;
	struct bo_proc_user user_buf;
	char workdir[PATH_MAX]; /* /run/blackout-<run-id>: one tmpfs per probe or candidate */
	bool in_place;		/* ... in this machine's memory (--allow-host: --in-place) */
	struct bo_scenario *sc;
	struct bo_settings set; /* what each state is checked with: the run's (settings.h) */
	struct bo_results *res; /* RESULTS/shrink */
	enum bo_class want;	/* the class that must still show */
	char *const *checker_env;
	unsigned step;
	struct seen *seen; /* candidates already judged, by their performed op list */
	size_t nseen;
};

/* A tmpfs work directory of its own under s->workdir, gone with everything in it when
 * unmounted (bo_guest_tmpfs_drop()). */
static int workdir_make(const struct shrinker *s, const char *name, char *buf, size_t len,
			struct bo_err *err)
{
	if (bo_pathf(buf, len, "%s/%s", s->workdir, name) < 0)
		return bo_err_set(err, ENAMETOOLONG, "work directory name too long");
	return bo_guest_tmpfs(buf, s->user != NULL, err);
}

/* Check the states @o selects (or @only) of @log; the class counts go to @sum. */
static int check_log(struct shrinker *s, const struct bo_log *log, const char *workdir,
		     const char *cuts, const char *only, uint64_t first, struct bo_results *res,
		     struct bo_summary *sum, const char *runid, struct bo_err *err)
{
	_cleanup_free_ char *checker = NULL;
	struct bo_layout l;
	struct bo_explore_opts eo = {
		.runid = runid,
		.workdir = workdir,
		.checker_env = s->checker_env,
		.log_name = "write.log",
		.user = s->user,
		.root = s->root,
		.in_place = s->in_place,
	};

	/* The checker of the candidate: its command line names the ops it kept (--keep). */
	if (bo_scenario_checker_command(s->sc, &checker) < 0)
		return bo_err_set(err, ENOMEM, "building the checker command");
	bo_settings_explore(&s->set, &eo);
	eo.checker = checker;
	eo.cuts = cuts;
	eo.only_state = only;
	eo.first_cut = first;
	if (bo_guest_devices(s->sc, log, &l, &eo, err) < 0)
		return -EINVAL;
	return bo_explore(log, &eo, res, sum, err);
}

static void emit(struct shrinker *s, const char *event, struct json_object *o)
{
	struct bo_err err = {0};

	if (bo_results_emit(s->res, event, o, &err) < 0)
		fprintf(stderr, "blackout: shrink: %s\n", bo_err_str(&err));
}

/*
 * Phase 1: the earliest failing prefix cut between the mkfs mark (a fresh filesystem: taken
 * as passing) and the state that failed. Assumes that once a prefix fails, longer ones up to
 * the known failure do too; each probe is recorded, so a violation shows in the stream.
 */
static int bisect(struct shrinker *s, const char *results, const char *state, uint64_t *ret_cut,
		  unsigned *ret_probes, struct bo_err *err)
{
	char logpath[PATH_MAX], id[64], wd[PATH_MAX];
	struct bo_log *log = NULL;
	uint64_t lo, hi, last;
	unsigned probes = 0;
	int r;

	if (state[0] != 'c' || bo_parse_u64(state + 1, &last) < 0)
		return bo_err_set(err, EINVAL,
				  "state '%s' is not a prefix state (c<N>): nothing to bisect",
				  state);
	if (bo_pathf(logpath, sizeof(logpath), "%s/write.log", results) < 0)
		return bo_err_set(err, ENAMETOOLONG, "path too long");
	r = bo_log_open(logpath, 0, &log, err);
	if (r >= 0)
		r = bo_cut_resolve(log, "mark:mkfs", &lo, err);
	hi = last + 1;
	if (r >= 0 && lo >= hi)
		r = bo_err_set(err, EINVAL, "state %s is not after the mkfs mark", state);
	while (r >= 0 && hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		struct bo_summary sum = {0};
		char runid[128];
		struct bo_err perr = {0};
		double t0 = bo_now();
		bool fails;
		int pr;

		bo_state_id(mid, id, sizeof(id));
		snprintf(runid, sizeof(runid), "%s-b%u", s->runid, probes);
		r = workdir_make(s, runid, wd, sizeof(wd), err);
		if (r < 0)
			break;
		pr = check_log(s, log, wd, "all", id, lo, s->res, &sum, runid, &perr);
		r = bo_guest_tmpfs_drop(wd, err);
		probes++;
		fails = sum.counts[s->want] > 0;
		{
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "phase", json_object_new_string("bisect"));
			json_object_object_add(o, "state", json_object_new_string(id));
			json_object_object_add(o, "cut", json_object_new_uint64(mid));
			json_object_object_add(o, "fails", json_object_new_boolean(fails));
			json_object_object_add(o, "seconds", json_object_new_double(bo_now() - t0));
			if (pr < 0)
				json_object_object_add(o, "error",
						       json_object_new_string(bo_err_str(&perr)));
			emit(s, "shrink-probe", o);
		}
		if (pr < 0 || sum.counts[BO_CLASS_HARNESS_ERROR]) {
			r = bo_err_set(err, EIO, "probing state %s: %s", id,
				       pr < 0 ? bo_err_str(&perr) : "harness error");
			break;
		}
		if (fails)
			hi = mid;
		else
			lo = mid;
	}
	bo_log_free(log);
	if (r < 0)
		return r;
	*ret_cut = hi;
	*ret_probes = probes;
	return 0;
}

/* The op ids @sc's workload performs with op list @keep: blackout-fsops list, which drops
 * what cannot run. */
static int performed_ops(const struct shrinker *s, const char *keep, uint64_t **ret, size_t *ret_n,
			 struct bo_err *err)
{
	_cleanup_free_ char *out = NULL;
	uint64_t *v = NULL;
	size_t n = 0, cap = 0;
	int r = bo_fsops_list(s->sc, s->libexec, keep, &out, err);

	if (r < 0)
		return r;
	for (char *line = out; *line;
	     line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0)) {
		if (n == cap) {
			size_t c2 = cap ? 2 * cap : 256;
			uint64_t *nv = reallocarray(v, c2, sizeof(*v));

			if (!nv) {
				free(v);
				return bo_err_set(err, ENOMEM, "listing ops");
			}
			v = nv;
			cap = c2;
		}
		v[n++] = strtoull(line, NULL, 10);
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/*
 * The states of a candidate, in log order: right after each ack mark, where an acknowledged
 * op must already be durable; without acks, the end of the log.
 */
static int ack_states(const struct bo_log *log, uint64_t **ret, size_t *ret_n)
{
	uint64_t *v = calloc(bo_log_mark_count(log) + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < bo_log_mark_count(log); i++) {
		const struct bo_log_mark *m = bo_log_mark_at(log, i);

		if (!strncmp(m->name, "ack:", 4))
			v[n++] = m->entry + 1;
	}
	if (!n)
		v[n++] = bo_log_count(log);
	*ret = v;
	*ret_n = n;
	return 0;
}

/* Record the workload with op list @keep and check its ack cuts; 1 when class want shows. */
static int try_ops(struct shrinker *s, const char *keep, struct bo_summary *sum, struct bo_err *err)
{
	char runid[128], wd[PATH_MAX], rdir[PATH_MAX + 8], logpath[PATH_MAX + 16];
	struct bo_results *cres = NULL;
	struct bo_log *log = NULL;
	_cleanup_free_ uint64_t *cuts = NULL;
	size_t ncuts = 0;
	struct bo_err derr = {0};
	uint64_t first = 0;
	int r;

	snprintf(runid, sizeof(runid), "%s-k%u", s->runid, s->step);
	r = bo_scenario_set_keep_ops(s->sc, keep);
	if (r < 0)
		return bo_err_set(err, -r, "op list '%s'", keep);
	r = workdir_make(s, runid, wd, sizeof(wd), err);
	if (r < 0)
		return r;
	snprintf(rdir, sizeof(rdir), "%s/res", wd);
	snprintf(logpath, sizeof(logpath), "%s/log.img", wd);
	r = bo_results_create(rdir, &cres, err);
	if (r >= 0) {
		struct bo_record_opts ro = {
			.sc = s->sc,
			.runid = runid,
			.workdir = wd,
			.libexec = s->libexec,
			.user = s->user,
			.root = s->root,
			.in_place = s->in_place,
		};

		r = bo_record(&ro, cres, err);
	}
	if (r >= 0)
		r = bo_log_open(logpath, 0, &log, err);
	if (r >= 0)
		r = bo_cut_resolve(log, "mark:mkfs", &first, err);
	if (r >= 0 && ack_states(log, &cuts, &ncuts) < 0)
		r = bo_err_set(err, ENOMEM, "cut list");
	/* One state at a time, stopping at the first that shows the class: a failing candidate
	 * usually fails at its first ack, and only passing ones pay for every state. */
	for (size_t i = 0; r >= 0 && i < ncuts && !sum->counts[s->want]; i++) {
		char id[64];

		if (cuts[i] <= first)
			continue;
		bo_state_id(cuts[i], id, sizeof(id));
		r = check_log(s, log, wd, "all", id, first, cres, sum, runid, err);
	}
	bo_log_free(log);
	bo_results_free(cres);
	if (bo_guest_tmpfs_drop(wd, &derr) < 0 && r >= 0)
		r = bo_err_set(err, derr.errnum, "%s", bo_err_str(&derr));
	return r < 0 ? r : sum->counts[s->want] > 0;
}

/* The ddmin test: the performed form of @ids, judged once. */
static int candidate(const uint64_t *ids, size_t n, void *ctx)
{
	struct shrinker *s = ctx;
	_cleanup_free_ char *want = bo_ids_format(ids, n), *keep = NULL;
	_cleanup_free_ uint64_t *perf = NULL;
	struct bo_summary sum = {0};
	struct bo_err err = {0};
	struct json_object *o;
	size_t np = 0;
	double t0 = bo_now();
	int fails = 0;

	if (!want || performed_ops(s, want, &perf, &np, &err) < 0) {
		fprintf(stderr, "blackout: shrink: %s\n", want ? bo_err_str(&err) : "no memory");
		return -ENOMEM;
	}
	keep = bo_ids_format(perf, np);
	if (!keep)
		return -ENOMEM;
	for (size_t i = 0; i < s->nseen; i++)
		if (!strcmp(s->seen[i].ops, keep))
			return s->seen[i].fails;
	s->step++;
	if (np > 0)
		fails = try_ops(s, keep, &sum, &err);
	o = json_object_new_object();
	json_object_object_add(o, "phase", json_object_new_string("ddmin"));
	json_object_object_add(o, "step", json_object_new_uint64(s->step));
	json_object_object_add(o, "ops", json_object_new_string(keep));
	json_object_object_add(o, "op_count", json_object_new_uint64(np));
	json_object_object_add(o, "asked", json_object_new_uint64(n));
	json_object_object_add(o, "fails", json_object_new_boolean(fails > 0));
	json_object_object_add(o, "states", json_object_new_uint64(sum.states));
	json_object_object_add(o, "seconds", json_object_new_double(bo_now() - t0));
	if (fails < 0)
		json_object_object_add(o, "error", json_object_new_string(bo_err_str(&err)));
	emit(s, "shrink-candidate", o);
	fprintf(stderr, "blackout: shrink: candidate %u: %zu ops: %s\n", s->step, np,
		fails > 0   ? "fails"
		: fails < 0 ? "error (counted as passing)"
			    : "passes");
	/* A candidate that could not be evaluated is no evidence of failure. */
	if (fails < 0)
		fails = 0;
	{
		struct seen *nv = reallocarray(s->seen, s->nseen + 1, sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->seen = nv;
		s->seen[s->nseen].ops = BO_TAKE_PTR(keep);
		s->seen[s->nseen++].fails = fails;
	}
	return fails;
}

/* The original scenario file with [workload] keep_ops and [run] seed set, and the settings
 * its candidates were checked with that the run's command line may have given over the
 * scenario's keys (run --persona, --recovery, --recovery-crashes, --witness). */
static int write_minimal(struct shrinker *s, const char *scenario, const char *keep,
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
		{"check", "persona", bo_persona_name(s->set.persona)},
		{"check", "recovery", bo_recovery_name(s->set.recovery)},
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
	snprintf(seed, sizeof(seed), "%" PRIu64, s->sc->seed);
	snprintf(crashes, sizeof(crashes), "%" PRIu64, s->set.recovery_crashes);
	snprintf(witness, sizeof(witness), "%" PRIu64, s->set.witness);
	fprintf(out,
		"; The smallest op list 'blackout shrink' found that still fails %s, from the\n"
		"; run whose results directory holds this shrink/ directory (%s of %" PRIu64
		" ops).\n",
		bo_class_name(s->want), keep, s->sc->ops);
	r = bo_ini_override(in, out, sets);
	if (fclose(out) != 0 && r >= 0)
		r = -ENOMEM;
	if (r < 0)
		return bo_err_set(err, -r, "writing the minimal scenario");
	return bo_results_write_file(s->res, "minimal.ini", text, len, err);
}

/* Phase 2: ddmin over the op list; the minimal list goes to *@ret_keep. */
static int shrink_ops(struct shrinker *s, uint64_t *ret_before, uint64_t *ret_after,
		      char **ret_keep, unsigned max_tests, struct bo_err *err)
{
	_cleanup_free_ uint64_t *all = NULL, *min = NULL;
	size_t n = 0, nmin = 0;
	unsigned tests = 0;
	int r;

	r = performed_ops(s, s->sc->keep_ops, &all, &n, err);
	if (r < 0)
		return r;
	/* The starting point must fail under the candidates' cheaper cut policy too. */
	r = candidate(all, n, s);
	if (r < 0)
		return bo_err_set(err, -r, "running the full op list");
	if (r == 0)
		return bo_err_set(err, ENOENT,
				  "the full op list (%zu ops) shows no %s at its ack cuts: the "
				  "failure does not reproduce when recorded again",
				  n, bo_class_name(s->want));
	r = bo_ddmin(all, n, candidate, s, max_tests, &min, &nmin, &tests);
	if (r < 0)
		return bo_err_set(err, -r, "delta debugging");
	*ret_before = n;
	*ret_after = nmin;
	*ret_keep = bo_ids_format(min, nmin);
	return *ret_keep ? 0 : bo_err_set(err, ENOMEM, "op list");
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
	struct shrinker s = {0};
	struct bo_err err = {0};
	_cleanup_json_ struct json_object *sum = bo_json_new_doc();
	char path[PATH_MAX], scen[PATH_MAX];
	struct bo_guest_env env = {0};
	_cleanup_free_ char *keep = NULL;
	uint64_t seed = 0, cut = 0, before = 0, after = 0, max_tests = 0;
	unsigned probes = 0;
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
	s.runid = runid;
	s.libexec = ga.libexec ? ga.libexec : bo_libexec_dir();
	s.in_place = ga.allow_host;
	if (bo_guest_identity(&ga, "__guest-shrink", &s.user_buf, &s.user, &s.root) < 0)
		return BO_EXIT_USAGE;
	if (bo_class_from_name(sa.cls, &s.want) < 0)
		return bo_cli_usage_error("__guest-shrink", "unknown class '%s'", sa.cls);
	if (bo_pathf(path, sizeof(path), "%s/%s", ga.results, BO_SHRINK_DIR) < 0 ||
	    bo_pathf(scen, sizeof(scen), "%s/scenario.ini", ga.results) < 0)
		return BO_EXIT_HARNESS;
	r = bo_results_open(path, &s.res, &err);
	if (r >= 0)
		r = bo_guest_scenario(scen, &s.sc, &err);
	if (r >= 0) {
		snprintf(s.workdir, sizeof(s.workdir), "%s%s", BO_WORKDIR_PREFIX, runid);
		if (mkdir(s.workdir, s.user ? 0711 : 0700) < 0) {
			r = bo_err_set(&err, errno, "creating '%s': %s", s.workdir,
				       strerror(errno));
			s.workdir[0] = '\0';
		}
	}
	if (r >= 0 && sa.seed) {
		if (bo_parse_u64(sa.seed, &seed) < 0)
			r = bo_err_set(&err, EINVAL, "--seed '%s'", sa.seed);
		else
			bo_scenario_set_seed(s.sc, seed);
	}
	if (r >= 0 && bo_scenario_checker_command(s.sc, &checker) < 0)
		r = bo_err_set(&err, ENOMEM, "building the checker command");
	if (r >= 0)
		r = bo_settings_make(&sa.check, s.sc, checker, &s.set, &err);
	if (r >= 0)
		r = bo_guest_env(&env, s.libexec, s.sc->workload_seed, &err);
	if (r < 0)
		goto out;
	s.checker_env = env.v;
	json_object_object_add(sum, "state", json_object_new_string(state));
	json_object_object_add(sum, "class", json_object_new_string(sa.cls));
	/* Bisection walks prefix states; a state with dropped or torn writes has none below it. */
	if (bisect_on &&
	    (state[0] != 'c' || strspn(state + 1, "0123456789") != strlen(state + 1))) {
		json_object_object_add(sum, "bisect_skipped",
				       json_object_new_string("not a prefix state"));
		bisect_on = false;
	}
	if (bisect_on) {
		char id[64];

		r = bisect(&s, ga.results, state, &cut, &probes, &err);
		if (r < 0)
			goto out;
		bo_state_id(cut, id, sizeof(id));
		json_object_object_add(sum, "earliest_state", json_object_new_string(id));
		json_object_object_add(sum, "earliest_cut", json_object_new_uint64(cut));
		json_object_object_add(sum, "bisect_probes", json_object_new_uint64(probes));
		fprintf(stderr, "blackout: shrink: earliest failing cut: %s (%u probes)\n", id,
			probes);
	}
	if (bo_fsops_is(s.sc)) {
		r = shrink_ops(&s, &before, &after, &keep, (unsigned) max_tests, &err);
		if (r < 0)
			goto out;
		json_object_object_add(sum, "ops_before", json_object_new_uint64(before));
		json_object_object_add(sum, "ops_after", json_object_new_uint64(after));
		json_object_object_add(sum, "keep_ops", json_object_new_string(keep));
		json_object_object_add(sum, "candidates", json_object_new_uint64(s.step));
		json_object_object_add(sum, "minimal_scenario",
				       json_object_new_string("minimal.ini"));
		r = write_minimal(&s, scen, keep, &err);
	}
out:
	/* Every probe and candidate removed what it made; assert it (devices are named
	 * blackout-<run-id>-b<N>-... and -k<N>-..., images live under s.workdir). */
	if (s.workdir[0]) {
		struct bo_err lerr = {0};
		char left[1024];
		int n = bo_diag_leftovers(runid, s.workdir, left, sizeof(left), &lerr);

		if (n != 0 && r >= 0)
			r = n < 0 ? bo_err_set(&err, lerr.errnum, "%s", bo_err_str(&lerr))
				  : bo_err_set(&err, EBUSY, "%d objects were left behind:\n%s", n,
					       left);
		if (n == 0 && rmdir(s.workdir) < 0 && r >= 0)
			r = bo_err_set(&err, errno, "removing '%s': %s", s.workdir,
				       strerror(errno));
	}
	json_object_object_add(sum, "seconds", json_object_new_double(bo_now() - t0));
	if (r < 0) {
		json_object_object_add(sum, "error", json_object_new_string(bo_err_str(&err)));
		bo_cli_error("shrink: %s", bo_err_str(&err));
	} else {
		ret = BO_EXIT_OK;
	}
	if (s.res) {
		struct bo_err werr = {0};

		if (bo_results_write_json(s.res, "summary.json", sum, &werr) < 0) {
			bo_cli_error("shrink: %s", bo_err_str(&werr));
			ret = BO_EXIT_HARNESS;
		}
		emit(&s, "end", json_object_new_object());
	}
	bo_guest_env_clear(&env);
	for (size_t i = 0; i < s.nseen; i++)
		free(s.seen[i].ops);
	free(s.seen);
	bo_scenario_free(s.sc);
	bo_results_free(s.res);
	return ret;
}

const struct bo_cmd bo_cmd_guest_shrink = {"__guest-shrink", cmd_guest_shrink, NULL};
