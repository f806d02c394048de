// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout check — check the crash states of a saved log in fresh VMs (one, N at once, or one
 * shard), and blackout merge — join shards into one results directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/cli/check_log.h"
#include "harness/states/classify.h"
#include "harness/base/cleanup.h"
#include "harness/base/file.h"
#include "harness/base/path.h"
#include "harness/base/proc.h"
#include "harness/base/sha256.h"
#include "harness/cli/cli.h"
#include "harness/cli/vmrun.h"
#include "harness/log/log.h"
#include "harness/results/merge.h"
#include "harness/results/progress.h"
#include "harness/results/report.h"
#include "harness/results/results.h"
#include "harness/results/summary.h"
#include "harness/scenario/scenario.h"
#include "vm/vm.h"

static void check_help(void)
{
	puts("usage: blackout check LOG [--scenario FILE] [--fs ext4|xfs|btrfs] [--size BYTES]\n"
	     "                          [--mount-options OPTS] [--cuts POLICY] [--from CUT]\n"
	     "                          [--checker CMD] [--state ID [--expect CLASS]]\n"
	     "                          [--results DIR] [VM OPTIONS]\n\n"
	     "Check the crash states of a saved dm-log-writes log in a fresh VM: no workload\n"
	     "runs, the log is the whole input (a log from a bug report, or write.log of a "
	     "run).\n\n"
	     "  --scenario FILE  take fs, size, mount options, cuts and checker from a scenario\n"
	     "  --fs FS          the filesystem (default: from --scenario)\n"
	     "  --size BYTES     size of the logged device (default: from --scenario, else the\n"
	     "                   highest sector the log touches, rounded up to 1 MiB)\n"
	     "  --cuts POLICY    flush, flush/N, fua, mark, every:N, all, entry:A-B,\n"
	     "                   comma-separated (default: from --scenario, else flush)\n"
	     "  --from CUT       skip cuts before CUT (default: mark:mkfs if the log has it)\n"
	     "  --checker CMD    run CMD in each mounted state (see docs/checkers.md)\n"
	     "  --seed N         the seed of the run (checker, sampling, tearing)\n"
	     "  --reorder K      also every state that drops up to K writes of the cut's epoch\n"
	     "                   (writes since the last flush; FUA writes are never dropped)\n"
	     "  --torn           also every multi-block write of the epoch torn at a seeded block\n"
	     "  --budget N       sample N dropped sets per cut (seeded) when there are more\n"
	     "  --state ID       check only the state ID: c1234 (the prefix after entry 1234),\n"
	     "                   c1234-d5,9 (entries 5 and 9 dropped), c1234-t7:3 (entry 7 torn\n"
	     "                   after 3 blocks)\n"
	     "  --shard I/N      check only shard I of N (by state id; see blackout merge)\n"
	     "  --jobs N         split the states over N single-vCPU VMs at once and merge\n"
	     "                   them (default: the number of online cores; 1: one VM)\n"
	     "  --expect CLASS   with --state: exit 0 if the state's class is CLASS, else 1\n"
	     "  --hash           record each state's image sha256 in stream.jsonl\n"
	     "  --results DIR    parent of the results directory (default ./results)\n\n"
	     "Exit status: 0 every state consistent, 1 a state failed, 3 harness error.");
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

struct check_args {
	const char *scen, *fs, *size, *mopt, *cuts, *from, *checker, *state, *seed;
	const char *reorder, *budget;
	const char *bench; /* hidden: scripts/bench-scale's naive and floor modes */
	bool hash, torn;
	bool guest_replay;     /* hidden: no host base (harness/basesrv.h), the guests replay */
	const char *files_cmd; /* the checker the guest will run, for the files it names */
	/* The results hold BO_LOG_INDEX_NAME, the host's index of write.log, for the guests and
	 * the reports, while the check runs. */
	bool log_index;
};

/* The options a check passes to its guest as they are, and records in config.json. */
static const struct {
	const char *flag, *key;
	size_t off;
} passed[] = {
	{"--fs", "fs", offsetof(struct check_args, fs)},
	{"--size", "size", offsetof(struct check_args, size)},
	{"--mount-options", "mount_options", offsetof(struct check_args, mopt)},
	{"--cuts", "cuts", offsetof(struct check_args, cuts)},
	{"--from", "from", offsetof(struct check_args, from)},
	{"--checker", "checker", offsetof(struct check_args, checker)},
	{"--state", "state", offsetof(struct check_args, state)},
	{"--seed", "seed", offsetof(struct check_args, seed)},
	{"--reorder", "reorder", offsetof(struct check_args, reorder)},
	{"--budget", "budget", offsetof(struct check_args, budget)},
	{"--bench-mode", "bench_mode", offsetof(struct check_args, bench)},
};

/*
 * The guest command of one check VM; @shard is "I/N" or NULL, @claims whether the VMs of
 * --jobs claim the states in the exchange directory rather than take them by id. Returns
 * the argument count.
 */
static int check_argv(const struct check_args *a, const char *runid, const char *shard, bool claims,
		      char **gargv)
{
	int n = 0;

	gargv[n++] = (char *) bo_self_exe();
	gargv[n++] = "__guest-check";
	gargv[n++] = "--results";
	gargv[n++] = BO_VM_SHARE_GUEST;
	gargv[n++] = "--run-id";
	gargv[n++] = (char *) runid;
	gargv[n++] = "--libexec";
	gargv[n++] = (char *) bo_libexec_dir();
	for (size_t i = 0; i < BO_ARRAY_SIZE(passed); i++) {
		const char *val = *(const char *const *) ((const char *) a + passed[i].off);

		if (val) {
			gargv[n++] = (char *) passed[i].flag;
			gargv[n++] = (char *) val;
		}
	}
	if (a->scen) {
		gargv[n++] = "--scenario";
		gargv[n++] = BO_VM_SHARE_GUEST "/scenario.ini";
	}
	if (shard) {
		gargv[n++] = "--shard";
		gargv[n++] = (char *) shard;
		if (claims) {
			gargv[n++] = "--claims";
			gargv[n++] = BO_VM_EXCHANGE_GUEST;
		}
	}
	if (a->log_index) {
		gargv[n++] = "--log-index";
		gargv[n++] = BO_VM_SHARE_GUEST "/" BO_LOG_INDEX_NAME;
	}
	if (a->hash)
		gargv[n++] = "--hash";
	if (a->torn)
		gargv[n++] = "--torn";
	gargv[n] = NULL;
	return n;
}

/*
 * config.json of a check: what shards must agree on to be merged. @log_hex is the sha256 of
 * the results' write.log (bo_check_place_log() put it there).
 */
static int check_config(struct bo_results *res, const struct check_args *a, const char *runid,
			const char *shard, bool claims, const char *log_hex, struct bo_err *err)
{
	struct json_object *o = json_object_new_object(), *opt = json_object_new_object();
	char path[PATH_MAX];
	int r = 0;

	if (!o || !opt) {
		json_object_put(o);
		json_object_put(opt);
		return bo_err_set(err, ENOMEM, "config.json");
	}
	for (size_t i = 0; i < BO_ARRAY_SIZE(passed); i++) {
		const char *val = *(const char *const *) ((const char *) a + passed[i].off);

		json_object_object_add(opt, passed[i].key,
				       val ? json_object_new_string(val) : NULL);
	}
	json_object_object_add(opt, "hash", json_object_new_boolean(a->hash));
	json_object_object_add(opt, "torn", json_object_new_boolean(a->torn));
	if (a->scen && r >= 0 &&
	    bo_pathf(path, sizeof(path), "%s/scenario.ini", bo_results_dir(res)) == 0) {
		char sc[BO_SHA256_HEX];

		r = bo_sha256_file(path, sc, err);
		json_object_object_add(opt, "scenario_sha256", json_object_new_string(sc));
	}
	json_object_object_add(o, "kind", json_object_new_string("check"));
	json_object_object_add(o, "run_id", json_object_new_string(runid));
	json_object_object_add(o, "log_sha256", json_object_new_string(log_hex));
	json_object_object_add(o, "blackout", json_object_new_string(BO_VERSION));
	json_object_object_add(o, "options", opt);
	if (shard)
		json_object_object_add(o, "shard", json_object_new_string(shard));
	/* Shards that claimed their states merge only with each other: mixed with shards by
	 * id, states would be missed or checked twice. */
	if (shard && claims)
		json_object_object_add(o, "shard_by", json_object_new_string("claim"));
	if (r >= 0)
		r = bo_results_write_json(res, "config.json", o, err);
	json_object_put(o);
	return r;
}

/* A results directory for shard @i of @n inside @dir, sharing its log and scenario. */
static int make_shard_dir(const char *dir, const struct check_args *a, const char *runid,
			  const char *log_hex, unsigned i, unsigned n, char *sdir, size_t len,
			  struct bo_err *err)
{
	/* What the shard shares with the run, linked where it can be. */
	const char *const shared[] = {"write.log", a->scen ? "scenario.ini" : NULL,
				      a->log_index ? BO_LOG_INDEX_NAME : NULL};
	struct bo_results *res = NULL;
	char from[PATH_MAX], to[PATH_MAX], shard[32];
	int r;

	snprintf(shard, sizeof(shard), "%u/%u", i, n);
	if (snprintf(sdir, len, "%s/shards", dir) >= (int) len ||
	    (mkdir(sdir, 0755) < 0 && errno != EEXIST) ||
	    snprintf(sdir, len, "%s/shards/%u", dir, i) >= (int) len)
		return bo_err_set(err, errno ? errno : ENAMETOOLONG, "creating shard directories");
	r = bo_results_create(sdir, &res, err);
	for (size_t k = 0; r >= 0 && k < BO_ARRAY_SIZE(shared); k++) {
		const char *f = shared[k];

		if (!f)
			continue;
		if (bo_pathf(from, sizeof(from), "%s/%s", dir, f) < 0 ||
		    bo_pathf(to, sizeof(to), "%s/%s", sdir, f) < 0)
			r = bo_err_set(err, ENAMETOOLONG, "path too long");
		else if (link(from, to) < 0)
			r = bo_copy_file(from, to, err);
	}
	if (r >= 0)
		r = check_config(res, a, runid, shard, true, log_hex, err);
	bo_results_free(res);
	return r;
}

/* The memory a check VM needs at least: the kernel, tools and the images on its tmpfs. */
#define JOB_MIN_MEMORY_MB 1024u

/* MemAvailable of the host in MiB, or 0 when unknown. */
static uint64_t host_available_mb(void)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	uint64_t kb;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1)
			return kb / 1024;
	return 0;
}

/*
 * How many VMs to boot and how much memory each gets. Without --jobs: one per online core.
 * Without --memory: the default, but no more than three quarters of the host's available
 * memory shared among them, and never below JOB_MIN_MEMORY_MB: fewer VMs then, not starved
 * ones. An explicit --jobs or --memory is kept as given.
 */
static void plan_jobs(bool jobs_given, struct vm_args *v, unsigned *jobs)
{
	uint64_t avail = host_available_mb() * 3 / 4, per;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	if (!jobs_given)
		*jobs = cores < 1 ? 1 : cores > 64 ? 64 : (unsigned) cores;
	if (*jobs <= 1 || v->memory_mb || !avail)
		return;
	per = avail / *jobs;
	if (per < JOB_MIN_MEMORY_MB && !jobs_given) {
		*jobs = (unsigned) (avail / JOB_MIN_MEMORY_MB);
		if (*jobs <= 1) {
			*jobs = 1;
			return;
		}
		per = avail / *jobs;
	}
	if (per < BO_VM_DEFAULT_MEMORY_MB)
		v->memory_mb = (unsigned) (per < JOB_MIN_MEMORY_MB ? JOB_MIN_MEMORY_MB : per);
}

/*
 * Open the log of results directory @dir for the host base of the check's VMs
 * (harness/basesrv.h), and size the image as the guest will (guest.c): --size, else the
 * scenario's, else the log's extent. Nothing here is fatal: without a host base the guests
 * replay on their own.
 */
static void host_base(const char *dir, const struct check_args *a, struct bo_log **ret,
		      struct vm_args *v)
{
	char log[PATH_MAX], idx[PATH_MAX];
	struct bo_scenario *sc = NULL;
	struct bo_err e = {0};
	uint64_t size = 0;
	int r;

	if (bo_pathf(log, sizeof(log), "%s/write.log", dir) < 0 ||
	    bo_pathf(idx, sizeof(idx), "%s/%s", dir, BO_LOG_INDEX_NAME) < 0)
		return;
	r = a->log_index ? bo_log_open_indexed(log, idx, ret, &e) : bo_log_open(log, 0, ret, &e);
	if (r >= 0 && a->size)
		r = bo_parse_u64(a->size, &size) < 0 ? -EINVAL : 0;
	else if (r >= 0 && a->scen && bo_scenario_load(a->scen, &sc, &e) >= 0)
		size = sc->size;
	bo_scenario_free(sc);
	if (r >= 0 && !size)
		size = bo_log_min_device_size(*ret);
	if (r < 0 || !size) {
		bo_debug(BO_DBG_RUN, "no host base: %s", r < 0 ? bo_err_str(&e) : "no size");
		bo_log_free(*ret);
		*ret = NULL;
		return;
	}
	v->base_log = *ret;
	v->base_size = size;
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
	struct vm_args v;
	const struct check_args *a;
	const char *runid, *dir;
	char shard[32];
	unsigned timeout;
};

/* The status of a job whose VM could not run at all (a guest's own statuses are 0 to 3). */
#define JOB_FAILED 100

static int run_job(void *ctx)
{
	struct job *j = ctx;
	const char *cmds[] = {j->a->files_cmd, NULL};
	struct bo_err e = {0};
	char *gargv[48];
	int st;

	check_argv(j->a, j->runid, j->shard, true, gargv);
	st = bo_guest_boot(&j->v, j->dir, gargv, cmds, j->timeout, &e);
	if (st < 0)
		bo_cli_error("check %s shard %s: %s", j->runid, j->shard, bo_err_str(&e));
	return st < 0 ? JOB_FAILED : st;
}

/*
 * check --jobs N: N single-vCPU VMs at once, each with a shard directory of its own and all
 * sharing a claims directory (explore.c's take()); then one merged directory.
 */
static int check_jobs(const struct vm_args *v, const char *dir, const struct check_args *a,
		      const char *runid, const char *log_hex, unsigned jobs, unsigned timeout,
		      struct bo_err *err)
{
	char sdirs[64][PATH_MAX];
	char *dirs[64] = {0};
	pid_t pids[64];
	struct job job[64];
	int efds[64];
	struct bo_progress_relay *relay = NULL;
	struct vm_args vj = *v;
	char claims[PATH_MAX];
	struct bo_err e2 = {0};
	int r = 0;

	if (bo_pathf(claims, sizeof(claims), "%s/.claims", dir) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", dir);
	if (mkdir(claims, 0755) < 0)
		return bo_err_set(err, errno, "creating '%s': %s", claims, strerror(errno));
	vj.exchange_dir = claims;
	for (unsigned i = 0; i < jobs && r >= 0; i++) {
		r = make_shard_dir(dir, a, runid, log_hex, i, jobs, sdirs[i], sizeof(sdirs[i]),
				   err);
		dirs[i] = sdirs[i];
	}
	/* The VMs' stderr through one relay, which sums their progress into one line. */
	if (r >= 0)
		r = bo_progress_relay_start(jobs, 2, isatty(2), efds, &relay, err);
	if (r < 0) {
		for (unsigned i = 0; a->log_index && i < jobs && dirs[i]; i++)
			bo_check_remove_log_index(dirs[i]);
		(void) remove_claims(claims, &e2);
		return r;
	}
	for (unsigned i = 0; i < jobs; i++) {
		struct job *j = &job[i];

		*j = (struct job){
			.v = vj, .a = a, .runid = runid, .dir = sdirs[i], .timeout = timeout};
		snprintf(j->shard, sizeof(j->shard), "%u/%u", i, jobs);
		j->v.stderr_fd = efds[i];
		r = bo_proc_fork(run_job, j, &pids[i], err);
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
		r = bo_merge_into(dir, dirs, jobs, err);
	/* Each shard is a results directory of its own, with its own report (which reads the
	 * log through the index while it is there). */
	for (unsigned i = 0; r >= 0 && i < jobs; i++) {
		struct bo_err e = {0};

		if (bo_report_write(sdirs[i], NULL, &e) < 0)
			fprintf(stderr, "blackout: warning: %s\n", bo_err_str(&e));
	}
	for (unsigned i = 0; a->log_index && i < jobs; i++)
		bo_check_remove_log_index(sdirs[i]);
	return r;
}

int bo_cmd_check(int argc, char **argv)
{
	enum {
		O_SCEN = 0x200,
		O_FS,
		O_SIZE,
		O_MOPT,
		O_CUTS,
		O_FROM,
		O_CHECKER,
		O_STATE,
		O_EXPECT,
		O_RESULTS,
		O_SEED,
		O_HASH,
		O_SHARD,
		O_JOBS,
		O_REORDER,
		O_TORN,
		O_BUDGET,
		O_BENCH,
		O_GUEST_REPLAY,
	};
	static const struct option opts[] = {
		{"scenario", required_argument, NULL, O_SCEN},
		{"fs", required_argument, NULL, O_FS},
		{"size", required_argument, NULL, O_SIZE},
		{"mount-options", required_argument, NULL, O_MOPT},
		{"cuts", required_argument, NULL, O_CUTS},
		{"from", required_argument, NULL, O_FROM},
		{"checker", required_argument, NULL, O_CHECKER},
		{"state", required_argument, NULL, O_STATE},
		{"expect", required_argument, NULL, O_EXPECT},
		{"results", required_argument, NULL, O_RESULTS},
		{"seed", required_argument, NULL, O_SEED},
		{"hash", no_argument, NULL, O_HASH},
		{"shard", required_argument, NULL, O_SHARD},
		{"jobs", required_argument, NULL, O_JOBS},
		{"reorder", required_argument, NULL, O_REORDER},
		{"torn", no_argument, NULL, O_TORN},
		{"budget", required_argument, NULL, O_BUDGET},
		/* Not in the help: the baseline and floor of scripts/bench-scale. */
		{"bench-mode", required_argument, NULL, O_BENCH},
		/* Not in the help: the guests replay the log themselves, as before the host base. */
		{"guest-replay", no_argument, NULL, O_GUEST_REPLAY},
		{"help", no_argument, NULL, 'h'},
		VM_OPTIONS,
		{},
	};
	struct check_args a = {0};
	const char *expect = NULL, *shard = NULL, *parent = "results";
	struct bo_scenario *sc = NULL;
	_cleanup_free_ char *sc_checker = NULL;
	struct vm_args v = {0};
	struct bo_log *base_log = NULL;
	struct bo_results *res = NULL;
	struct bo_err err = {0};
	char runid[96], dir[PATH_MAX], path[PATH_MAX], log_hex[BO_SHA256_HEX] = "";
	char *gargv[48];
	unsigned jobs = 1, si, sn;
	bool jobs_given = false;
	uint64_t nj;
	int c, r, ret = BO_EXIT_HARNESS;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			check_help();
			return BO_EXIT_OK;
		case O_SCEN:
			a.scen = optarg;
			break;
		case O_FS:
			a.fs = optarg;
			break;
		case O_SIZE:
			a.size = optarg;
			break;
		case O_MOPT:
			a.mopt = optarg;
			break;
		case O_CUTS:
			a.cuts = optarg;
			break;
		case O_FROM:
			a.from = optarg;
			break;
		case O_CHECKER:
			a.checker = optarg;
			break;
		case O_STATE:
			a.state = optarg;
			break;
		case O_EXPECT:
			expect = optarg;
			break;
		case O_RESULTS:
			parent = optarg;
			break;
		case O_SEED:
			a.seed = optarg;
			break;
		case O_HASH:
			a.hash = true;
			break;
		case O_SHARD:
			if (sscanf(optarg, "%u/%u", &si, &sn) != 2 || !sn || si >= sn)
				return bo_cli_usage_error("check",
							  "--shard '%s': expected I/N with "
							  "0 <= I < N",
							  optarg);
			shard = optarg;
			break;
		case O_REORDER:
			if (bo_parse_u64(optarg, &nj) < 0 || nj > 8)
				return bo_cli_usage_error("check", "--reorder '%s': K from 0 to 8",
							  optarg);
			a.reorder = optarg;
			break;
		case O_TORN:
			a.torn = true;
			break;
		case O_BUDGET:
			if (bo_parse_u64(optarg, &nj) < 0)
				return bo_cli_usage_error("check", "--budget '%s' is not a number",
							  optarg);
			a.budget = optarg;
			break;
		case O_BENCH:
			if (strcmp(optarg, "naive") && strcmp(optarg, "floor"))
				return bo_cli_usage_error("check", "--bench-mode naive|floor");
			a.bench = optarg;
			break;
		case O_GUEST_REPLAY:
			a.guest_replay = true;
			break;
		case O_JOBS:
			if (bo_parse_u64(optarg, &nj) < 0 || nj == 0 || nj > 64)
				return bo_cli_usage_error("check", "--jobs '%s': 1 to 64", optarg);
			jobs = (unsigned) nj;
			jobs_given = true;
			break;
		default:
			if (bo_cli_vm_option(c, &v) <= 0)
				return bo_cli_usage_error("check", "bad option");
		}
	}
	if (optind + 1 != argc)
		return bo_cli_usage_error("check", "expected exactly one LOG");
	if (expect && !a.state)
		return bo_cli_usage_error("check", "--expect needs --state");
	if (!a.scen && !a.fs)
		return bo_cli_usage_error("check", "--fs or --scenario is required");
	if (jobs_given && jobs > 1 && (shard || a.state))
		return bo_cli_usage_error("check", "--jobs splits the states itself: not with "
						   "--shard or --state");
	/* One shard or one state is one VM's work. */
	if (shard || a.state)
		jobs_given = true;
	plan_jobs(jobs_given, &v, &jobs);
	if (access(argv[optind], R_OK) < 0) {
		bo_cli_error("check: '%s': %s", argv[optind], strerror(errno));
		return BO_EXIT_HARNESS;
	}
	bo_runid_make(0, runid, sizeof(runid));
	if (mkdir(parent, 0755) < 0 && errno != EEXIST) {
		bo_cli_error("creating '%s': %s", parent, strerror(errno));
		return BO_EXIT_HARNESS;
	}
	if (!realpath(parent, path)) {
		bo_cli_error("'%s': %s", parent, strerror(errno));
		return BO_EXIT_HARNESS;
	}
	r = bo_pathf(dir, sizeof(dir), "%s/%s", path, runid) == 0
		    ? bo_results_create(dir, &res, &err)
		    : bo_err_set(&err, ENAMETOOLONG, "path too long");
	if (r >= 0) {
		r = bo_pathf(path, sizeof(path), "%s/write.log", dir) == 0
			    ? bo_check_place_log(argv[optind], path, log_hex, &err)
			    : bo_err_set(&err, ENAMETOOLONG, "path too long");
	}
	if (r >= 0 && a.scen) {
		r = bo_pathf(path, sizeof(path), "%s/scenario.ini", dir) == 0
			    ? bo_copy_file(a.scen, path, &err)
			    : -ENAMETOOLONG;
	}
	if (r >= 0)
		r = check_config(res, &a, runid, shard, false, log_hex, &err);
	if (r >= 0 && a.scen && !a.checker) {
		r = bo_scenario_load(a.scen, &sc, &err);
		if (r >= 0 && bo_scenario_checker_command(sc, &sc_checker) < 0)
			r = bo_err_set(&err, ENOMEM, "out of memory");
	}
	a.files_cmd = a.checker ? a.checker : sc_checker;
	if (r >= 0)
		a.log_index = bo_check_save_log_index(dir);
	if (r >= 0 && !a.guest_replay)
		host_base(dir, &a, &base_log, &v);
	if (r < 0) {
		bo_cli_error("check: %s", bo_err_str(&err));
		goto out;
	}
	fprintf(stderr, "blackout: check %s: booting %u VM%s", runid, jobs, jobs > 1 ? "s" : "");
	if (jobs > 1)
		fprintf(stderr, " of %u MiB", v.memory_mb ? v.memory_mb : BO_VM_DEFAULT_MEMORY_MB);
	fprintf(stderr, " (results in %s)\n", dir);
	if (jobs > 1) {
		r = check_jobs(&v, dir, &a, runid, log_hex, jobs, 4 * 3600, &err);
	} else {
		check_argv(&a, runid, shard, false, gargv);
		const char *cmds[] = {a.files_cmd, NULL};

		r = bo_guest_boot(&v, dir, gargv, cmds, a.state ? 600 : 4 * 3600, &err);
	}
	if (r < 0) {
		bo_cli_error("check %s: %s", runid, bo_err_str(&err));
		fprintf(stderr, "results: %s\n", dir);
	} else {
		ret = bo_results_report(dir, argv[optind]);
	}
	/* After the report, which opens the log through it: 0.4 s less for 100k entries. */
	if (a.log_index)
		bo_check_remove_log_index(dir);
	if (r < 0)
		goto out;
	if (expect && ret != BO_EXIT_HARNESS)
		ret = compare_expected(dir, a.state, expect);
out:
	bo_log_free(base_log);
	bo_scenario_free(sc);
	bo_results_free(res);
	return ret;
}

static void merge_help(void)
{
	puts("usage: blackout merge --out DIR SHARD-DIR...\n\n"
	     "Combine the results directories of `blackout check --shard I/N` (run on any\n"
	     "machines) into DIR, with the summary one unsharded check gives. Shards of\n"
	     "different logs, seeds or configurations are refused, as are missing or repeated\n"
	     "shards. Exit status as for check: 0 consistent, 1 failures, 3 error.");
}

int bo_cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{"out", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	const char *out = NULL;
	struct bo_err err = {0};
	char abs[PATH_MAX];
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			merge_help();
			return BO_EXIT_OK;
		}
		if (c != 'o')
			return bo_cli_usage_error("merge", "bad option");
		out = optarg;
	}
	if (!out || optind >= argc)
		return bo_cli_usage_error("merge", "expected --out DIR and at least one SHARD-DIR");
	if (bo_merge(out, argv + optind, (size_t) (argc - optind), &err) < 0) {
		bo_cli_error("merge: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	return bo_results_report(realpath(out, abs) ? abs : out, "merged");
}
