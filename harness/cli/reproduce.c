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

#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/cli/check.h"
#include "harness/cli/cli.h"
#include "harness/cli/shipped.h"
#include "harness/diagnose/diary.h"
#include "harness/results/config.h"

struct repro_args {
	bool host_root;
};

static const struct bo_opt repro_opts[] = {
	{"host-root", NULL, offsetof(struct repro_args, host_root), BO_OPT_HOST, NULL, NULL,
	 "share the host's root into the VM, read-only, as the run's\n"
	 "scenario says ([vm] root = host): never without this"},
};

static void reproduce_help(void)
{
	puts("usage: blackout reproduce RESULTS STATE [--host-root] [VM OPTIONS]\n\n"
	     "Re-check one state of a results directory from its saved write.log in a fresh VM,\n"
	     "with the configuration the results record (scenario.ini and the run's seed, or\n"
	     "the options of the check), and compare its class with the recorded one. The new\n"
	     "results go to RESULTS/reproduce/<run-id>/. states/<id>/repro.sh runs this.\n"
	     "A host file the results name for the VM (the run's --file and [vm] files, its\n"
	     "scripts, a host path its checker names) goes into it only when given again with\n"
	     "--file; the host's root only with --host-root. RESULTS may be a stranger's.\n");
	bo_opts_help(stdout, repro_opts, BO_ARRAY_SIZE(repro_opts));
	bo_vm_opts_help();
	puts("\nExit status: 0 the class reproduced, 1 it did not, 3 harness error or refused.");
}

/* The recovery log of state record @st, a path beneath @d's directory into @path: a regular
 * file reached without a symlink, or refused. */
static int recovery_log(const struct bo_diary *d, struct json_object *st, char *path,
			struct bo_err *err)
{
	const char *rel = bo_json_str(st, "recovery_log");
	_cleanup_close_ int fd = bo_input_open(d->dir, rel, 0, 0, NULL, err);

	if (fd < 0)
		return bo_err_prefix(err, "'%s/stream.jsonl': state %s: \"recovery_log\"", d->dir,
				     bo_json_str(st, "state"));
	if (bo_pathf(path, PATH_MAX, "%s/%s", d->dir, rel) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/%s': path too long", d->dir, rel);
	return 0;
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
		/* A run: its scenario and seed, and what its command line said its states are
		 * checked with over the scenario's keys (run --persona, --recovery-crashes, ...). */
		snprintf(seed, 32, "%" PRIu64, d->seed);
		a->scen = scen;
		a->seed = seed;
		if (d->config && json_object_object_get_ex(d->config, "options", &opt))
			bo_opts_from_config(bo_setting_opts, bo_setting_opts_n, opt, a);
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
		int r = recovery_log(d, st, rec_log, err);

		if (r < 0)
			return r;
		a->recovery_log = rec_log;
	}
	return 0;
}

/*
 * What of this host the check of @a would put into the VM because the results @d name it
 * (harness/cli/shipped.h): config.json's files; the scenario's files, scripts and root when
 * the check takes it; the host paths its checker names; a recovery log the check recorded
 * (@rec_log is the one of the state's record, beneath the directory: the user named that).
 */
static void what_it_ships(const struct bo_diary *d, const struct bo_check_args *a,
			  const char *rec_log, struct bo_shipped *s)
{
	_cleanup_free_ char *checker = NULL;

	bo_shipped_add_config(s, d->config);
	if (a->scen && d->sc) {
		bo_shipped_add_scenario(s, d->sc);
		if (!a->checker && bo_scenario_checker_command(d->sc, &checker) < 0)
			s->oom = true;
	}
	bo_shipped_add_command(s, a->checker ? a->checker : checker);
	if (a->recovery_log && a->recovery_log != rec_log)
		bo_shipped_add(s, a->recovery_log);
}

static int cmd_reproduce(int argc, char **argv)
{
	struct vm_args v = {0};
	struct repro_args ra = {0};
	const struct bo_opt_set sets[] = {{repro_opts, BO_ARRAY_SIZE(repro_opts), &ra},
					  {bo_vm_opts, bo_vm_opts_n, &v}};
	struct bo_check_args a = {0};
	struct bo_shipped ships = {0};
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
	/* What the run or check shipped into its VM, this one gets when the command line names
	 * it again (--file, --host-root): the results may be a stranger's. */
	what_it_ships(&d, &a, rec_log, &ships);
	if (bo_shipped_judge(&ships, &v, ra.host_root, d.dir, &err) < 0) {
		bo_cli_error("reproduce: %s", bo_err_str(&err));
		goto out;
	}
	/* ... and boots its kernel, unless told otherwise. */
	if (d.config)
		bo_vm_args_kernel_from(&v, d.config);
	bo_cli_note("reproduce: state %s (recorded %s) of %s", a.state, a.expect, d.dir);
	ret = bo_check(log, &a, &v);
	/* The check's options are the record's, not this command line's: one the check refuses
	 * is the results directory's fault (bad input), not a usage error. */
	if (ret == BO_EXIT_USAGE)
		ret = BO_EXIT_HARNESS;
out:
	bo_shipped_clear(&ships);
	bo_vm_args_clear(&v);
	bo_diary_clear(&d);
	return ret;
}

const struct bo_cmd bo_cmd_reproduce = {"reproduce", cmd_reproduce,
					"re-run one state of a results directory in a fresh VM"};
