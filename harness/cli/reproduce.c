// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout reproduce — re-check one state of a results directory from its saved write.log in
 * a fresh VM, with the configuration the results record (a run's scenario and seed, or the
 * options a check recorded in config.json), and say whether its class reproduced.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/json.h"
#include "harness/base/path.h"
#include "harness/cli/check.h"
#include "harness/cli/cli.h"
#include "harness/diagnose/diary.h"
#include "harness/results/config.h"

static void reproduce_help(void)
{
	puts("usage: blackout reproduce RESULTS STATE [VM OPTIONS]\n\n"
	     "Re-check one state of a results directory from its saved write.log in a fresh VM,\n"
	     "with the configuration the results record (scenario.ini and the run's seed, or\n"
	     "the options of the check), and compare its class with the recorded one. The new\n"
	     "results go to RESULTS/reproduce/<run-id>/. states/<id>/repro.sh runs this.\n");
	bo_vm_opts_help();
	puts("\nExit status: 0 the class reproduced, 1 it did not, 3 harness error.");
}

/* The check that re-runs state record @st of @d, into @a (strings owned by @d and the
 * buffers). */
static int plan(const struct bo_diary *d, struct json_object *st, struct bo_check_args *a,
		char *log, char *scen, char *parent, char *seed, char *rec_log, struct bo_err *err)
{
	struct json_object *opt;

	if (!d->log || bo_pathf(log, PATH_MAX, "%s/write.log", d->dir) < 0 ||
	    bo_pathf(scen, PATH_MAX, "%s/scenario.ini", d->dir) < 0 ||
	    bo_pathf(parent, PATH_MAX, "%s/reproduce", d->dir) < 0)
		return bo_err_set(err, ENOENT, "'%s' has no write.log to re-check", d->dir);
	if (d->config && bo_config_is_check(d->config)) {
		/* A check: the options it was given, as it recorded them. */
		if (!json_object_object_get_ex(d->config, "options", &opt))
			return bo_err_set(err, EINVAL, "'%s/config.json' has no \"options\"",
					  d->dir);
		bo_opts_from_config(bo_check_opts, bo_check_opts_n, opt, a);
		if (bo_json_str(opt, "scenario_sha256"))
			a->scen = scen;
		/* A reproduction is a check of one state, not a benchmark. */
		a->bench = NULL;
	} else if (d->sc) {
		/* A run: its scenario and seed. */
		snprintf(seed, 32, "%" PRIu64, d->seed);
		a->scen = scen;
		a->seed = seed;
	} else {
		return bo_err_set(err, ENOENT,
				  "'%s' has neither a check's config.json nor scenario.ini",
				  d->dir);
	}
	a->state = bo_json_str(st, "state");
	a->expect = bo_json_str(st, "class");
	a->parent = parent;
	/* A state cut inside another's recovery: that recovery's log, kept beside it. */
	if (bo_json_str(st, "recovery_log")) {
		if (bo_pathf(rec_log, PATH_MAX, "%s/%s", d->dir, bo_json_str(st, "recovery_log")) <
		    0)
			return bo_err_set(err, ENAMETOOLONG, "path too long");
		a->recovery_log = rec_log;
	}
	return 0;
}

static int cmd_reproduce(int argc, char **argv)
{
	struct vm_args v = {0};
	const struct bo_opt_set sets[] = {{bo_vm_opts, bo_vm_opts_n, &v}};
	struct bo_check_args a = {0};
	struct bo_diary d = {0};
	struct bo_err err = {0};
	struct json_object *st;
	char log[PATH_MAX], scen[PATH_MAX], parent[PATH_MAX], seed[32], rec_log[PATH_MAX];
	const char *alias_of;
	int k, ret = BO_EXIT_HARNESS;

	k = bo_opts_parse("reproduce", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, reproduce_help, argc,
			  argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (argc - k != 2)
		return bo_cli_usage_error("reproduce", "expected RESULTS STATE");
	bo_vm_args_read(&v);
	if (bo_diary_load(&d, argv[k], &err) < 0) {
		bo_cli_error("reproduce: %s", bo_err_str(&err));
		goto out;
	}
	if (bo_diary_state(&d, argv[k + 1], &st, &alias_of, &err) < 0) {
		bo_cli_error("reproduce: %s", bo_err_str(&err));
		goto out;
	}
	if (alias_of)
		bo_cli_note("state %s is an alias of %s: reproducing %s", argv[k + 1], alias_of,
			    alias_of);
	if (plan(&d, st, &a, log, scen, parent, seed, rec_log, &err) < 0) {
		bo_cli_error("reproduce: %s", bo_err_str(&err));
		goto out;
	}
	/* What the run or check shipped into its VM, this one gets too. */
	if (d.config && bo_vm_args_files_from(&v, d.config) < 0) {
		bo_cli_error("reproduce: out of memory");
		goto out;
	}
	/* ... and boots its kernel, unless told otherwise. */
	if (d.config)
		bo_vm_args_kernel_from(&v, d.config);
	bo_cli_note("reproduce: state %s (recorded %s) of %s", a.state, a.expect, d.dir);
	ret = bo_check(log, &a, &v);
out:
	bo_vm_args_clear(&v);
	bo_diary_clear(&d);
	return ret;
}

const struct bo_cmd bo_cmd_reproduce = {"reproduce", cmd_reproduce,
					"re-run one state of a results directory in a fresh VM"};
