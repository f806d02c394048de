// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout run — record a scenario's workload in a fresh VM and check every crash state. The
 * guest side is __guest-run (guest_run.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/json.h"
#include "harness/base/path.h"
#include "harness/base/safety.h"
#include "harness/cli/cli.h"
#include "harness/cli/guest_side.h"
#include "harness/cli/run_kernels.h"
#include "harness/cli/run_parts.h"
#include "harness/cli/settings.h"
#include "harness/cli/vmrun.h"
#include "harness/results/config.h"
#include "harness/results/results.h"
#include "harness/scenario/fsops.h"
#include "harness/scenario/scenario.h"
#include "vm/vm.h"

struct run_args {
	const char *seed, *parent, *kernels, *jobs;
	/* What the run's states are checked with over its scenario's [check] keys: the rows of
	 * bo_setting_opts (--persona, --recovery, --recovery-crashes, --witness), as check
	 * takes them (settings.h). */
	struct bo_check_args check;
};

static const struct bo_opt run_opts[] = {
	{"seed", "N", offsetof(struct run_args, seed), BO_OPT_HOST, NULL, bo_opt_check_u64,
	 "override the scenario's seed"},
	{"results", "DIR", offsetof(struct run_args, parent), BO_OPT_HOST, NULL, NULL,
	 "parent of the run's results directory"},
	{"kernels", "A,B[,C]", offsetof(struct run_args, kernels), BO_OPT_HOST, NULL, NULL,
	 "record and check the workload on each cached kernel (one VM\n"
	 "boot each) into one tree DIR/<id>/<release>/<run-id>/, and\n"
	 "compare them mark by mark: differential.json, report.html"},
	{"jobs", "N", offsetof(struct run_args, jobs), BO_OPT_HOST, NULL, bo_opt_check_jobs,
	 "a bounded scenario: deal its workloads into N parts, each a\n"
	 "run in a VM of its own, all at once (default: one per online\n"
	 "core; 1: one VM), into DIR/<run-id>/part-J/; not with --kernels"},
};

static void run_help(void)
{
	puts("usage: blackout run SCENARIO.ini [--seed N] [--results DIR] [--persona NAME]\n"
	     "                    [--recovery HOW] [--recovery-crashes N] [--witness N]\n"
	     "                    [--kernels A,B[,C]] [--jobs N] [VM OPTIONS]\n\n"
	     "Record the scenario's workload through dm-flakey and dm-log-writes in a fresh VM,\n"
	     "then check every crash state the cut policy selects: mount (with recovery), the\n"
	     "checker, fsck, the oracle. Writes DIR/<run-id>/ (default DIR: ./results) and\n"
	     "prints a summary. With --kernels, once per kernel, then the marks whose verdict\n"
	     "(class and findings of their states) or lint differs between the kernels, first,\n"
	     "with what each kernel wrote before them; \"no difference\" when none does.\n");
	bo_opts_help(stdout, run_opts, BO_ARRAY_SIZE(run_opts));
	puts("\nWhat the states are checked with, over the scenario's [check] keys (as check):");
	bo_opts_help(stdout, bo_setting_opts, bo_setting_opts_n);
	bo_vm_opts_help();
	puts("\nExit status: 0 every state consistent, 1 a state failed (--kernels: or a mark\n"
	     "differs), 3 harness error.");
}

/* The results directory of run @runid under @parent, with scenario.ini and config.json. */
static int prepare(const struct bo_scenario *sc, const struct bo_check_args *ca,
		   const char *checker, const struct vm_args *v, const char *parent,
		   const char *runid, char *dir, struct bo_results **ret, struct bo_err *err)
{
	struct bo_settings set;
	_cleanup_json_ struct json_object *cfg = NULL, *kernel = NULL;
	char path[PATH_MAX];
	struct utsname u;
	int r;

	/* The kernel and --file first: a run that cannot boot leaves no results directory. */
	r = bo_vm_args_judge(v, err);
	if (r >= 0)
		r = bo_vm_args_kernel(v, &kernel, err);
	if (r < 0)
		return r;
	if (mkdir(parent, 0755) < 0 && errno != EEXIST)
		return bo_err_set(err, errno, "creating '%s': %s", parent, strerror(errno));
	if (!realpath(parent, path))
		return bo_err_set(err, errno, "'%s': %s", parent, strerror(errno));
	if (bo_pathf(dir, PATH_MAX, "%s/%s", path, runid) < 0)
		return bo_err_set(err, ENAMETOOLONG, "path too long");
	r = bo_results_create(dir, ret, err);
	if (r >= 0)
		r = bo_pathf(path, sizeof(path), "%s/scenario.ini", dir) == 0
			    ? bo_scenario_save(sc, path, err)
			    : bo_err_set(err, ENAMETOOLONG, "path too long");
	if (r < 0)
		return r;
	if (bo_scenario_to_json(sc, &cfg) < 0)
		return bo_err_set(err, ENOMEM, "config.json");
	json_object_object_add(cfg, "run_id", json_object_new_string(runid));
	json_object_object_add(cfg, "blackout", json_object_new_string(BO_VERSION));
	/* What the VM got besides blackout's own: reproduce and shrink ship the same. */
	json_object_object_add(cfg, "files", bo_vm_args_shipped(v));
	/* The check options the command line gave, which reproduce and shrink give again, and
	 * what the states are checked with. */
	r = bo_settings_make(ca, sc, checker, &set, err);
	if (r < 0)
		return r;
	if (bo_settings_config(cfg, bo_setting_opts, bo_setting_opts_n, ca, &set) < 0)
		return bo_err_set(err, ENOMEM, "config.json");
	if (uname(&u) == 0)
		json_object_object_add(cfg, "host_kernel", json_object_new_string(u.release));
	bo_config_add_origin(cfg);
	json_object_object_add(cfg, "kernel", json_object_get(kernel));
	return bo_results_write_json(*ret, "config.json", cfg, err);
}

/* Record and check scenario @path as @ra and @v say; the exit status. */
static int run_scenario(const char *path, const struct run_args *ra_in, struct vm_args *v)
{
	struct run_args ra = *ra_in;
	struct bo_scenario *sc = NULL;
	struct bo_results *res = NULL;
	struct bo_argv gv = {0};
	struct bo_err err = {0};
	_cleanup_free_ char *wcmd = NULL, *ccmd = NULL;
	const char *cmds[3] = {NULL};
	char **ship = NULL;
	char runid[BO_RUNID_MAX], dir[PATH_MAX] = "", seed_s[32];
	uint64_t seed;
	unsigned timeout;
	int r, ret = BO_EXIT_HARNESS;

	/* Bad scenarios fail here, with file:line, before any VM boots; so does a checker the
	 * guest could not run (as check --checker). */
	if (bo_scenario_load(path, &sc, &err) < 0 || bo_guest_checker_ok(sc, &err) < 0) {
		bo_cli_error("%s", bo_err_str(&err));
		bo_scenario_free(sc);
		return BO_EXIT_HARNESS;
	}
	if (ra.seed && bo_parse_u64(ra.seed, &seed) == 0)
		bo_scenario_set_seed(sc, seed);
	/* The check options over the scenario's keys (their values judged by their rows): the
	 * scenario as run says them in config.json. */
	if (ra.check.recovery_crashes)
		(void) !bo_parse_u64(ra.check.recovery_crashes, &sc->recovery_crashes);
	if (ra.check.witness)
		(void) !bo_parse_u64(ra.check.witness, &sc->witness);
	if (ra.check.persona)
		(void) !bo_persona_parse(ra.check.persona, &sc->persona);
	if (ra.check.recovery) {
		char buf[256];
		const char *why =
			bo_recovery_from_name(ra.check.recovery, &sc->recovery) < 0
				? "auto, mount or fsck"
				: bo_scenario_recovery_problem(sc, sc->recovery, buf, sizeof(buf));

		if (why) {
			bo_scenario_free(sc);
			return bo_cli_usage_error("run", "--recovery %s: %s", ra.check.recovery,
						  why);
		}
	}
	bo_runid_make(sc->seed, runid, sizeof(runid));
	r = bo_guest_vm_for(sc, v, &ship) < 0 || bo_scenario_workload_command(sc, &wcmd) < 0 ||
			    bo_scenario_checker_command(sc, &ccmd) < 0
		    ? bo_err_set(&err, ENOMEM, "out of memory")
		    : 0;
	cmds[0] = wcmd;
	cmds[1] = ccmd;
	if (r >= 0)
		r = bo_vm_cmds_judge(cmds[0] ? cmds : cmds + 1, &err);
	if (r >= 0)
		r = prepare(sc, &ra.check, ccmd, v, ra.parent ? ra.parent : "results", runid, dir,
			    &res, &err);
	if (r >= 0 && bo_guest_argv(&gv, "__guest-run", runid, sc, &err) < 0)
		r = -EINVAL;
	if (r < 0) {
		bo_cli_error("run: %s", bo_err_str(&err));
		/* Refused before a VM booted: the results directory it made goes too. */
		if (res)
			(void) !bo_remove_tree(dir);
		goto out;
	}
	snprintf(seed_s, sizeof(seed_s), "%" PRIu64, sc->seed);
	bo_argv_add(&gv, "--scenario");
	bo_argv_add(&gv, BO_VM_SHARE_GUEST "/scenario.ini");
	bo_argv_add(&gv, "--seed");
	bo_argv_add(&gv, seed_s);
	bo_opts_pass(bo_setting_opts, bo_setting_opts_n, &ra.check, &gv);
	if (gv.oom) {
		bo_cli_error("run: out of memory");
		goto out;
	}
	/* The workload and its checks (a witness's trials are checks too), generously: a VM
	 * that outlives this is hung. */
	timeout = sc->workload_timeout + 600 +
		  (unsigned) (sc->ops ? sc->ops : 500) * (1 + (unsigned) sc->witness) *
			  (sc->checker_timeout / 10 + sc->fsck_timeout / 10 + 4);
	bo_cli_note("run %s: %s (results in %s)", runid,
		    v->in_place ? "in place, on this kernel" : "booting a VM", dir);
	r = bo_guest_boot(v, dir, gv.v, cmds[0] ? cmds : cmds + 1, timeout, &err);
	if (r < 0) {
		bo_cli_error("run %s: %s", runid, bo_err_str(&err));
		fprintf(stderr, "results: %s\n", dir);
		goto out;
	}
	ret = bo_cli_results(dir, sc->name);
	if (r != ret && ret != BO_EXIT_HARNESS) {
		bo_cli_error("run %s: the guest exited %d but its summary says %d", runid, r, ret);
		ret = BO_EXIT_HARNESS;
	}
out:
	bo_argv_free(&gv);
	bo_results_free(res);
	bo_strv_free(ship);
	bo_scenario_free(sc);
	return ret;
}

/* What the command line said. */
struct run_cmd {
	struct run_args ra;
	struct vm_args v;
};

/* run --jobs: one part, run_scenario() of its scenario @path under @parent, as @v says. */
static int run_part(void *ctx, const char *path, const char *parent, struct vm_args *v)
{
	const struct run_cmd *rc = ctx;
	struct run_args rp = rc->ra;

	rp.parent = parent;
	rp.kernels = NULL;
	return run_scenario(path, &rp, v);
}

/*
 * The scenario at @path as @ra and @v say: a bounded one in parts over several VMs (--jobs,
 * by default one per core), anything else in one.
 */
static int run_any(const char *path, const struct run_cmd *rc, const struct run_args *ra,
		   struct vm_args *v)
{
	struct bo_scenario *sc = NULL;
	struct bo_err err = {0};
	uint64_t given = 0;
	unsigned jobs = 1;
	bool bounded;
	int ret;

	if (ra->jobs)
		(void) !bo_parse_u64(ra->jobs, &given);
	/* A scenario that does not load is run_scenario()'s to report. */
	bounded = bo_scenario_load(path, &sc, &err) >= 0 && bo_bounded_is(sc);
	if (!bounded)
		bo_scenario_free(sc);
	if (given > 1 && !bounded)
		return bo_cli_usage_error("run",
					  "--jobs %" PRIu64 ": only a bounded scenario's "
					  "workloads are dealt into parts (check --jobs "
					  "spreads a log's states)",
					  given);
	if (given > 1 && v->in_place) {
		bo_scenario_free(sc);
		return bo_cli_usage_error("run",
					  "--jobs %" PRIu64 " with --in-place: this machine "
					  "has one mount area, for one run at a time",
					  given);
	}
	jobs = (unsigned) given;
	if (bounded && !v->in_place)
		bo_vm_plan_jobs(given != 0, v, &jobs);
	if (jobs <= 1)
		ret = run_scenario(path, ra, v);
	else
		ret = bo_run_parts(sc, jobs, ra->parent ? ra->parent : "results", v, run_part,
				   (void *) rc);
	if (bounded)
		bo_scenario_free(sc);
	return ret;
}

/* run --kernels: run_scenario() for one kernel @release, its results under @parent: one log
 * per kernel, which the comparison goes through mark by mark. */
static int run_on(void *ctx, const char *path, const char *release, const char *parent)
{
	const struct run_cmd *rc = ctx;
	struct run_args ri = rc->ra;
	struct vm_args vi;
	int ret;

	if (bo_vm_args_copy(&vi, &rc->v) < 0)
		return BO_EXIT_HARNESS;
	vi.kernel_release = release;
	ri.parent = parent;
	ri.kernels = NULL;
	ret = run_scenario(path, &ri, &vi);
	bo_vm_args_clear(&vi);
	return ret;
}

static int cmd_run(int argc, char **argv)
{
	struct run_cmd a = {0};
	const struct bo_opt_set sets[] = {
		{run_opts, BO_ARRAY_SIZE(run_opts), &a.ra},
		{bo_setting_opts, bo_setting_opts_n, &a.ra.check},
		{bo_vm_opts, bo_vm_opts_n, &a.v},
	};
	int k, ret;

	k = bo_opts_parse("run", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, run_help, argc, argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k + 1 != argc)
		return bo_cli_usage_error("run", "expected exactly one SCENARIO.ini");
	bo_vm_args_read(&a.v);
	if (a.ra.kernels && a.ra.jobs && strcmp(a.ra.jobs, "1"))
		ret = bo_cli_usage_error("run",
					 "--kernels runs one VM per kernel, one log each: "
					 "not with --jobs %s",
					 a.ra.jobs);
	else if (a.ra.kernels)
		ret = bo_run_kernels(argv[k], a.ra.kernels, a.ra.parent ? a.ra.parent : "results",
				     &a.v, run_on, &a);
	else
		ret = run_any(argv[k], &a, &a.ra, &a.v);
	bo_vm_args_clear(&a.v);
	return ret;
}

const struct bo_cmd bo_cmd_run = {
	"run", cmd_run, "record a scenario's workload in a VM and check every crash state"};
