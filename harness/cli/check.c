// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout check — check the crash states of a saved log in fresh VMs: one, N at once
 * (--jobs, merged into one results directory), or one shard (--shard). The guest side is
 * __guest-check (guest_check.c); both read the options of check_opts.h.
 */
#include "harness/cli/check.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/path.h"
#include "harness/base/proc.h"
#include "harness/base/safety.h"
#include "harness/base/sha256.h"
#include "harness/cli/check_log.h"
#include "harness/cli/cli.h"
#include "harness/cli/explain_nodes.h"
#include "harness/cli/guest_side.h"
#include "harness/cli/settings.h"
#include "harness/cli/shipped.h"
#include "harness/dev/fsdetect.h"
#include "harness/dev/fs.h"
#include "harness/log/cut.h"
#include "harness/log/log.h"
#include "harness/replay/replay.h"
#include "harness/results/config.h"
#include "harness/results/merge.h"
#include "harness/results/progress.h"
#include "harness/results/report.h"
#include "harness/results/results.h"
#include "harness/results/summary.h"
#include "harness/scenario/scenario.h"
#include "harness/states/classify.h"
#include "harness/states/cutsel.h"
#include "vm/vm.h"

/* One check on the host. */
struct check {
	const struct bo_check_args *a;
	const struct bo_scenario *sc; /* --scenario's, or NULL */
	const struct vm_args *v;
	char runid[BO_RUNID_MAX], dir[PATH_MAX], log_hex[BO_SHA256_HEX];
	const char *files_cmd; /* the checker the guest will run, for the host files it names */
	/* The results hold BO_LOG_INDEX_NAME, the host's index of write.log, for the guests and
	 * the reports, while the check runs. */
	bool log_index;
};

static void check_help(void)
{
	puts("usage: blackout check LOG [--scenario FILE] [--fs FS] [--size "
	     "BYTES]\n"
	     "                          [--mount-options OPTS] [--cuts POLICY] [--from CUT]\n"
	     "                          [--checker CMD] [--state ID [--expect CLASS]]\n"
	     "                          [--results DIR] [VM OPTIONS]\n\n"
	     "Check the crash states of a saved dm-log-writes log in a fresh VM: no workload\n"
	     "runs, the log is the whole input (a log from a bug report, or write.log of a "
	     "run).\n");
	bo_opts_help(stdout, bo_check_opts, bo_check_opts_n);
	bo_vm_opts_help();
	puts("\nExit status: 0 every state consistent, 1 a state failed, 3 harness error.");
}

/* With --state and --expect: did the one state checked get the expected class? */
static int compare_expected(const char *dir, const char *state, const char *expect)
{
	struct bo_summary s;
	struct bo_err err = {0};
	enum bo_class want;

	if (bo_class_from_name(expect, &want) < 0) {
		bo_cli_error("--expect '%s' is not a class name", expect);
		return BO_EXIT_USAGE;
	}
	if (bo_summary_read(dir, &s, NULL, &err) < 0 || s.states != 1) {
		bo_cli_error("state %s was not checked (see %s)", state, dir);
		return BO_EXIT_HARNESS;
	}
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		if (!s.counts[c])
			continue;
		if ((enum bo_class) c == want) {
			printf("state %s: %s, as expected: reproduced\n", state, expect);
			return BO_EXIT_OK;
		}
		printf("state %s: %s, expected %s: not reproduced\n", state,
		       bo_class_name((enum bo_class) c), expect);
		return BO_EXIT_FAILURE;
	}
	return BO_EXIT_HARNESS;
}

/*
 * The guest command of one check VM; @shard is "I/N" or NULL, @claims whether the VMs of
 * --jobs claim the states in the exchange directory rather than take them by id.
 */
static int guest_argv(const struct check *c, const char *shard, bool claims, struct bo_argv *v,
		      struct bo_err *err)
{
	struct bo_check_args a = *c->a;
	int r;

	a.shard = shard;
	r = bo_guest_argv(v, "__guest-check", c->runid, c->sc, err);
	if (r < 0)
		return r;
	bo_opts_pass(bo_check_opts, bo_check_opts_n, &a, v);
	if (a.scen) {
		bo_argv_add(v, "--scenario");
		bo_argv_add(v, BO_VM_SHARE_GUEST "/scenario.ini");
	}
	if (claims) {
		bo_argv_add(v, "--claims");
		bo_argv_add(v, BO_VM_EXCHANGE_GUEST);
	}
	if (c->log_index) {
		bo_argv_add(v, "--log-index");
		bo_argv_add(v, BO_VM_SHARE_GUEST "/" BO_LOG_INDEX_NAME);
	}
	return v->oom ? bo_err_set(err, ENOMEM, "out of memory") : 0;
}

/* config.json of a check: what shards must agree on to be merged. */
static int check_config(const struct check *c, struct bo_results *res, const char *shard,
			bool claims, struct bo_err *err)
{
	_cleanup_json_ struct json_object *o = bo_json_new_doc();
	struct json_object *opt = json_object_new_object();
	char path[PATH_MAX];
	int r = 0;

	if (!o || !opt) {
		json_object_put(opt);
		return bo_err_set(err, ENOMEM, "config.json");
	}
	bo_opts_to_config(bo_check_opts, bo_check_opts_n, c->a, opt);
	if (c->a->scen &&
	    bo_pathf(path, sizeof(path), "%s/scenario.ini", bo_results_dir(res)) == 0) {
		char sc[BO_SHA256_HEX];

		r = bo_sha256_file(path, sc, err);
		json_object_object_add(opt, "scenario_sha256", json_object_new_string(sc));
	}
	json_object_object_add(o, "kind", json_object_new_string("check"));
	json_object_object_add(o, "run_id", json_object_new_string(c->runid));
	json_object_object_add(o, "log_sha256", json_object_new_string(c->log_hex));
	json_object_object_add(o, "blackout", json_object_new_string(BO_VERSION));
	json_object_object_add(o, "options", opt);
	/* What the states are checked with, as the guests make it of the same options. */
	{
		struct bo_settings set;
		struct json_object *so;

		if (bo_settings_make(c->a, c->sc, c->files_cmd, &set, err) < 0)
			return -EINVAL;
		so = bo_settings_json(&set);
		if (!so)
			return bo_err_set(err, ENOMEM, "config.json");
		json_object_object_add(o, "settings", so);
	}
	/* What the VMs got besides blackout's own: reproduce ships the same. */
	json_object_object_add(o, "files", bo_vm_args_shipped(c->v));
	bo_config_add_origin(o);
	{
		/* The kernel the VMs boot; one that cannot be found is reported by the boot. */
		struct json_object *kernel = NULL;

		if (bo_vm_args_kernel(c->v, &kernel, NULL) == 0)
			json_object_object_add(o, "kernel", kernel);
	}
	if (shard)
		json_object_object_add(o, "shard", json_object_new_string(shard));
	/* Shards that claimed their states merge only with each other: mixed with shards by
	 * id, states would be missed or checked twice. */
	if (shard && claims)
		json_object_object_add(o, "shard_by", json_object_new_string("claim"));
	return r < 0 ? r : bo_results_write_json(res, "config.json", o, err);
}

/* A results directory for shard @i of @n inside the check's, sharing its log and scenario. */
static int make_shard_dir(const struct check *c, unsigned i, unsigned n, char *sdir, size_t len,
			  struct bo_err *err)
{
	/* What the shard shares with the run, linked where it can be. */
	const char *const shared[] = {"write.log", c->a->scen ? "scenario.ini" : NULL,
				      c->log_index ? BO_LOG_INDEX_NAME : NULL};
	struct bo_results *res = NULL;
	char from[PATH_MAX], to[PATH_MAX], shard[32];
	int r;

	snprintf(shard, sizeof(shard), "%u/%u", i, n);
	if (bo_pathf(sdir, len, "%s/shards", c->dir) < 0 ||
	    (mkdir(sdir, 0755) < 0 && errno != EEXIST) ||
	    bo_pathf(sdir, len, "%s/shards/%u", c->dir, i) < 0)
		return bo_err_set(err, errno ? errno : ENAMETOOLONG, "creating shard directories");
	r = bo_results_create(sdir, &res, err);
	for (size_t k = 0; r >= 0 && k < BO_ARRAY_SIZE(shared); k++) {
		const char *f = shared[k];

		if (!f)
			continue;
		if (bo_pathf(from, sizeof(from), "%s/%s", c->dir, f) < 0 ||
		    bo_pathf(to, sizeof(to), "%s/%s", sdir, f) < 0)
			r = bo_err_set(err, ENAMETOOLONG, "path too long");
		else if (link(from, to) < 0)
			r = bo_copy_file(from, to, err);
	}
	if (r >= 0)
		r = check_config(c, res, shard, true, err);
	bo_results_free(res);
	return r;
}

/* The results' write.log, through the index the host made of it when there is one. */
static int open_placed_log(const struct check *c, struct bo_log **ret, struct bo_err *err)
{
	char log[PATH_MAX], idx[PATH_MAX];

	if (bo_pathf(log, sizeof(log), "%s/write.log", c->dir) < 0 ||
	    bo_pathf(idx, sizeof(idx), "%s/%s", c->dir, BO_LOG_INDEX_NAME) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", c->dir);
	return c->log_index ? bo_log_open_indexed(log, idx, ret, err)
			    : bo_log_open(log, 0, ret, err);
}

/*
 * The host base of the check's VMs (harness/replay/basesrv.h), from the results' log @log, with
 * the image sized as the guest will (guest_check.c): --size, else the scenario's, else the
 * log's extent. True when there is one: @log is then the VM's (v->base_log). Nothing here is
 * fatal: without a host base the guests replay on their own.
 */
static bool host_base(const struct check *c, struct bo_log *log, struct vm_args *v)
{
	struct bo_scenario *sc = NULL;
	struct bo_err e = {0};
	uint64_t size = 0;
	int r = 0;

	if (c->a->size)
		r = bo_parse_u64(c->a->size, &size) < 0 ? -EINVAL : 0;
	else if (c->a->scen && bo_scenario_load(c->a->scen, &sc, &e) >= 0)
		size = sc->size;
	bo_scenario_free(sc);
	if (r >= 0 && !size)
		size = bo_log_min_device_size(log);
	if (r < 0 || !size) {
		bo_debug(BO_DBG_RUN, "no host base: %s", r < 0 ? "bad --size" : "no size");
		return false;
	}
	v->base_log = log;
	v->base_size = size;
	return true;
}

/*
 * Remove the claims directory of check --jobs: one empty directory per state, made by the
 * guests. Nothing in it is followed; what cannot be removed is an error.
 */
static int remove_claims(const char *path, struct bo_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(dup(fd));
	struct dirent *de;
	int r = 0;

	if (!d)
		return bo_err_set(err, errno, "opening the claims directory '%s': %s", path,
				  strerror(errno));
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    unlinkat(fd, de->d_name, AT_REMOVEDIR) < 0 &&
		    (errno != ENOTDIR || unlinkat(fd, de->d_name, 0) < 0) && r == 0)
			r = bo_err_set(err, errno, "removing '%s/%s': %s", path, de->d_name,
				       strerror(errno));
	closedir(d);
	if (r == 0 && rmdir(path) < 0)
		r = bo_err_set(err, errno, "removing '%s': %s", path, strerror(errno));
	return r;
}

/* One VM of check --jobs, in a process of its own (bo_proc_fork()). */
struct job {
	const struct check *c;
	struct vm_args v;
	char dir[PATH_MAX];
	char shard[32];
	unsigned timeout;
};

/* The status of a job whose VM could not run at all (a guest's own statuses are 0 to 3). */
#define JOB_FAILED 100

static int run_job(void *ctx)
{
	struct job *j = ctx;
	const char *cmds[] = {j->c->files_cmd, NULL};
	struct bo_argv gv = {0};
	struct bo_err e = {0};
	int st;

	st = guest_argv(j->c, j->shard, true, &gv, &e);
	if (st >= 0)
		st = bo_guest_boot(&j->v, j->dir, gv.v, cmds, j->timeout, &e);
	if (st < 0)
		bo_cli_error("check %s shard %s: %s", j->c->runid, j->shard, bo_err_str(&e));
	bo_argv_free(&gv);
	return st < 0 ? JOB_FAILED : st;
}

/*
 * check --jobs N: N single-vCPU VMs at once, each with a shard directory of its own and all
 * sharing a claims directory (explore/select.c); then one merged directory.
 */
static int check_jobs(const struct check *c, const struct vm_args *v, unsigned jobs,
		      unsigned timeout, struct bo_err *err)
{
	_cleanup_free_ struct job *job = calloc(jobs, sizeof(*job));
	char *dirs[64] = {0};
	pid_t pids[64];
	int efds[64];
	struct bo_progress_relay *relay = NULL;
	char claims[PATH_MAX];
	struct bo_err e2 = {0};
	int r = 0;

	if (!job)
		return bo_err_set(err, ENOMEM, "out of memory");
	if (bo_pathf(claims, sizeof(claims), "%s/.claims", c->dir) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", c->dir);
	if (mkdir(claims, 0755) < 0)
		return bo_err_set(err, errno, "creating '%s': %s", claims, strerror(errno));
	for (unsigned i = 0; i < jobs && r >= 0; i++) {
		job[i] = (struct job){.c = c, .v = *v, .timeout = timeout};
		job[i].v.exchange_dir = claims;
		snprintf(job[i].shard, sizeof(job[i].shard), "%u/%u", i, jobs);
		r = make_shard_dir(c, i, jobs, job[i].dir, sizeof(job[i].dir), err);
		dirs[i] = job[i].dir;
	}
	/* The VMs' stderr through one relay, which sums their progress into one line. */
	if (r >= 0)
		r = bo_progress_relay_start(jobs, 2, bo_progress_draw_for(2), efds, &relay, err);
	if (r < 0) {
		for (unsigned i = 0; c->log_index && i < jobs && dirs[i]; i++)
			bo_check_remove_log_index(dirs[i]);
		(void) remove_claims(claims, &e2);
		return r;
	}
	for (unsigned i = 0; i < jobs; i++) {
		job[i].v.stderr_fd = efds[i];
		r = bo_proc_fork(run_job, &job[i], &pids[i], err);
		if (r < 0) {
			jobs = i;
			break;
		}
	}
	for (unsigned i = 0; i < jobs; i++) {
		int st = bo_proc_wait(pids[i]);

		if ((st < 0 || st >= JOB_FAILED) && r >= 0)
			r = bo_err_set(err, EIO, "the VM of shard %u/%u failed", i, jobs);
	}
	bo_progress_relay_stop(relay);
	if (remove_claims(claims, &e2) < 0 && r >= 0)
		r = bo_err_set(err, e2.errnum, "%s", bo_err_str(&e2));
	if (r >= 0)
		r = bo_merge_into(c->dir, dirs, jobs, err);
	/* Each shard is a results directory of its own, with its own report (which reads the
	 * log through the index while it is there). */
	for (unsigned i = 0; r >= 0 && i < jobs; i++) {
		struct bo_err e = {0};

		if (bo_report_write(dirs[i], NULL, &e) < 0)
			bo_cli_warning("%s", bo_err_str(&e));
	}
	for (unsigned i = 0; c->log_index && i < jobs; i++)
		bo_check_remove_log_index(dirs[i]);
	return r;
}

/* A new results directory under --results, with the log, the scenario and config.json. */
static int prepare(struct check *c, const char *log, struct bo_results **ret, struct bo_err *err)
{
	const char *parent = c->a->parent ? c->a->parent : "results";
	char path[PATH_MAX];
	int r;

	bo_runid_make(0, c->runid, sizeof(c->runid));
	if (mkdir(parent, 0755) < 0 && errno != EEXIST)
		return bo_err_set(err, errno, "creating '%s': %s", parent, strerror(errno));
	if (!realpath(parent, path))
		return bo_err_set(err, errno, "'%s': %s", parent, strerror(errno));
	if (bo_pathf(c->dir, sizeof(c->dir), "%s/%s", path, c->runid) < 0)
		return bo_err_set(err, ENAMETOOLONG, "path too long");
	r = bo_results_create(c->dir, ret, err);
	if (r >= 0)
		r = bo_pathf(path, sizeof(path), "%s/write.log", c->dir) == 0
			    ? bo_check_place_log(log, path, c->log_hex, err)
			    : bo_err_set(err, ENAMETOOLONG, "path too long");
	if (r >= 0 && c->sc)
		r = bo_pathf(path, sizeof(path), "%s/scenario.ini", c->dir) == 0
			    ? bo_scenario_save(c->sc, path, err)
			    : bo_err_set(err, ENAMETOOLONG, "path too long");
	if (r >= 0)
		r = check_config(c, *ret, c->a->shard, false, err);
	return r;
}

/*
 * What the VM of the run or check whose results directory holds the log at @path was given
 * (its config.json beside the log, "files"), judged against the command line @v: a check of
 * it ships those files only when the command line names them again — with --file, or as the
 * files of the scenario it gives (@v->ship) or the host paths of its checker command @cmd
 * (harness/cli/shipped.h). 0, or -errno with @err saying what to give.
 */
static int shipped_before(const char *path, const struct vm_args *v, const char *cmd,
			  struct bo_err *err)
{
	_cleanup_free_ char *dir = strdup(path);
	_cleanup_json_ struct json_object *cfg = NULL;
	struct bo_shipped s = {0};
	char *slash = dir ? strrchr(dir, '/') : NULL;
	const char *where = slash ? (slash == dir ? "/" : dir) : ".";
	int r;

	if (!dir)
		return bo_err_set(err, ENOMEM, "out of memory");
	if (slash && slash != dir)
		*slash = '\0';
	(void) !bo_config_read(where, &cfg, NULL);
	bo_shipped_add_config(&s, cfg);
	bo_shipped_drop(&s, v->ship);
	bo_shipped_drop_command(&s, cmd);
	r = bo_shipped_judge(&s, v, false, where, err);
	bo_shipped_clear(&s);
	return r;
}

/*
 * What the check's VMs get besides --file, added to @v: --recovery-log at its absolute path
 * (into @rec_log, PATH_MAX bytes, which @a then names), libcrypto for --hash (the guests hash
 * the images through it, which blackout loads only when it hashes: harness/base/sha256.c).
 * What the VM of the log's own run or check was given goes in only when --file names it
 * (shipped_before()). 0, or -errno with @err.
 */
static int ship_more(const char *log, struct bo_check_args *a, struct vm_args *v, const char *cmd,
		     char *rec_log, struct bo_err *err)
{
	const char *lib;
	int r = shipped_before(log, v, cmd, err);

	if (r < 0)
		return r;
	/* The guest reads the recovery log at the same absolute path, shipped. */
	if (a->recovery_log) {
		if (!realpath(a->recovery_log, rec_log))
			return bo_err_set(err, errno, "--recovery-log '%s': %s", a->recovery_log,
					  strerror(errno));
		a->recovery_log = rec_log;
		if (bo_opt_list_add(&v->files, rec_log) < 0)
			return bo_err_set(err, ENOMEM, "out of memory");
	}
	if (!a->hash)
		return 0;
	lib = bo_sha256_library();
	if (!lib)
		return bo_err_set(err, ENOPKG,
				  "--hash: cannot load libcrypto.so.3 (package libssl3)");
	return bo_opt_list_add(&v->files, lib) < 0 ? bo_err_set(err, ENOMEM, "out of memory") : 0;
}

/* Say where check @c runs: in place, or in how many VMs of how much memory. */
static void say_where(const struct check *c, const struct vm_args *v, unsigned jobs)
{
	char mib[32] = "";

	if (jobs > 1)
		snprintf(mib, sizeof(mib), " of %u MiB",
			 v->memory_mb ? v->memory_mb : BO_VM_DEFAULT_MEMORY_MB);
	if (v->in_place)
		bo_cli_note("check %s: in place, on this kernel (results in %s)", c->runid, c->dir);
	else
		bo_cli_note("check %s: booting %u VM%s%s (results in %s)", c->runid, jobs,
			    jobs > 1 ? "s" : "", mib, c->dir);
}

int bo_check(const char *log, const struct bo_check_args *given, const struct vm_args *given_v)
{
	_cleanup_(bo_vm_args_clear) struct vm_args vv = {0};
	struct vm_args *v = &vv; /* this check's own: what it adds stays here */
	struct bo_check_args args = *given;
	const struct bo_check_args *a = &args;
	char found[32], rec_log[PATH_MAX];
	struct check c = {.a = a, .v = v};
	struct bo_scenario *sc = NULL;
	char **ship = NULL;
	_cleanup_free_ char *sc_checker = NULL;
	struct bo_log *base_log = NULL;
	struct bo_results *res = NULL;
	struct bo_argv gv = {0};
	struct bo_err err = {0}, lerr = {0};
	bool jobs_given;
	unsigned jobs = 1;
	uint64_t nj;
	int r, ret = BO_EXIT_HARNESS;

	if (bo_vm_args_copy(&vv, given_v) < 0) {
		bo_cli_error("check: out of memory");
		return BO_EXIT_HARNESS;
	}
	if (a->expect && !a->state)
		return bo_cli_usage_error("check", "--expect needs --state");
	/* In place: one guest side, here, replaying on its own. */
	if (v->in_place && a->jobs && strcmp(a->jobs, "1"))
		return bo_cli_usage_error("check", "--in-place checks in one process: --jobs 1");
	if (bo_vm_args_in_place_ok(v, &err) < 0) {
		bo_cli_error("check: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	if (v->in_place) {
		args.jobs = "1";
		args.guest_replay = true;
	}
	jobs_given = a->jobs != NULL;
	if (a->jobs && bo_parse_u64(a->jobs, &nj) == 0)
		jobs = (unsigned) nj;
	if (jobs_given && jobs > 1 && (a->shard || a->state))
		return bo_cli_usage_error("check", "--jobs splits the states itself: not with "
						   "--shard or --state");
	/* One shard or one state is one VM's work. */
	if (a->shard || a->state)
		jobs_given = true;
	bo_vm_plan_jobs(jobs_given, v, &jobs);
	/* A bad scenario fails here, with file:line, before anything is made. */
	if (a->scen) {
		r = bo_scenario_load(a->scen, &sc, &err);
		if (r >= 0 && bo_guest_vm_for(sc, v, &ship) < 0)
			r = bo_err_set(&err, ENOMEM, "out of memory");
		if (r < 0) {
			bo_cli_error("check: %s", bo_err_str(&err));
			goto out;
		}
		c.sc = sc;
	}
	/* The log and the options against it are judged here, before a results directory
	 * exists or a VM boots (check_judge.c); without --fs or a scenario the log says what it
	 * holds. */
	{
		bool usage = false;

		found[0] = '\0';
		if (bo_check_judge(log, a, sc, found, sizeof(found), &usage, &err) < 0) {
			bo_cli_error("check: %s", bo_err_str(&err));
			ret = usage ? BO_EXIT_USAGE : BO_EXIT_HARNESS;
			goto out;
		}
		if (found[0])
			args.fs = found;
	}
	if (access(log, R_OK) < 0) {
		bo_cli_error("check: '%s': %s", log, strerror(errno));
		goto out;
	}
	if (sc && !a->checker && bo_scenario_checker_command(sc, &sc_checker) < 0) {
		bo_cli_error("check: out of memory");
		goto out;
	}
	c.files_cmd = a->checker ? a->checker : sc_checker;
	if (ship_more(log, &args, v, c.files_cmd, rec_log, &err) < 0) {
		bo_cli_error("check: %s", bo_err_str(&err));
		goto out;
	}
	/* ... and what its boot would refuse: a kernel not found (the scenario's, when it names
	 * one), a file for the VM (--file, the log's run's, --recovery-log) that is not there
	 * or cannot be shipped. */
	if (bo_vm_cmds_judge((const char *const[]){c.files_cmd, NULL}, &err) < 0 ||
	    bo_vm_args_judge(v, &err) < 0) {
		bo_cli_error("check: %s", bo_err_str(&err));
		goto out;
	}
	r = prepare(&c, log, &res, &err);
	if (r >= 0)
		c.log_index = bo_check_save_log_index(c.dir);
	if (r < 0) {
		bo_cli_error("check: %s", bo_err_str(&err));
		/* Refused before a VM booted: nothing of it blocks or clutters the retry. */
		if (res) {
			if (c.log_index)
				bo_check_remove_log_index(c.dir);
			(void) !bo_remove_tree(c.dir);
		}
		goto out;
	}
	/* The lint first: its findings stand whatever the states say. A log that does not
	 * open here fails in the guest, which records why. */
	if (open_placed_log(&c, &base_log, &lerr) >= 0) {
		bo_cli_lint(base_log, bo_log_path(base_log));
		bo_cli_lint_nodes(base_log, c.sc ? c.sc->cluster : NULL);
		if (a->guest_replay || !host_base(&c, base_log, v)) {
			bo_log_free(base_log);
			base_log = NULL;
		}
	} else {
		bo_debug(BO_DBG_RUN, "no lint, no host base: %s", bo_err_str(&lerr));
	}
	say_where(&c, v, jobs);
	if (jobs > 1) {
		r = check_jobs(&c, v, jobs, 4 * 3600, &err);
	} else {
		const char *cmds[] = {c.files_cmd, NULL};

		r = guest_argv(&c, a->shard, false, &gv, &err);
		if (r >= 0)
			r = bo_guest_boot(v, c.dir, gv.v, cmds, a->state ? 600 : 4 * 3600, &err);
	}
	if (r < 0) {
		bo_cli_error("check %s: %s", c.runid, bo_err_str(&err));
		fprintf(stderr, "results: %s\n", c.dir);
	} else {
		ret = bo_cli_results(c.dir, log);
	}
	/* After the report, which opens the log through it: 0.4 s less for 100k entries. */
	if (c.log_index)
		bo_check_remove_log_index(c.dir);
	if (r >= 0 && a->expect && ret != BO_EXIT_HARNESS)
		ret = compare_expected(c.dir, a->state, a->expect);
out:
	bo_argv_free(&gv);
	bo_log_free(base_log);
	bo_strv_free(ship);
	bo_scenario_free(sc);
	bo_results_free(res);
	return ret;
}

static int cmd_check(int argc, char **argv)
{
	struct bo_check_args a = {0};
	struct vm_args v = {0};
	const struct bo_opt_set sets[] = {
		{bo_check_opts, bo_check_opts_n, &a},
		{bo_vm_opts, bo_vm_opts_n, &v},
	};
	int k = bo_opts_parse("check", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, check_help, argc,
			      argv);

	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k + 1 != argc)
		return bo_cli_usage_error("check", "expected exactly one LOG");
	bo_vm_args_read(&v);
	k = a.kernels ? bo_check_kernels(argv[k], &a, &v, bo_check) : bo_check(argv[k], &a, &v);
	bo_vm_args_clear(&v);
	return k;
}

const struct bo_cmd bo_cmd_check = {"check", cmd_check,
				    "check the crash states of a saved log in a VM"};
