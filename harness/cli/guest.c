// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guest side of `blackout run` and `blackout check`: hidden subcommands the host starts
 * inside the VM, with the results directory shared from the host.
 *
 *   blackout __guest-run   --results DIR --scenario FILE --run-id ID
 *   blackout __guest-check --results DIR --log FILE --run-id ID [check options]
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/cleanup.h"
#include "harness/base/file.h"
#include "harness/base/path.h"
#include "harness/base/safety.h"
#include "harness/cli/cli.h"
#include "harness/cli/guest.h"
#include "harness/diagnose/diag.h"
#include "harness/explore/explore.h"
#include "harness/log/cut.h"
#include "harness/log/log.h"
#include "harness/record/record.h"
#include "harness/results/results.h"
#include "harness/scenario/scenario.h"
#include "harness/results/summary.h"
#include "harness/dev/teardown.h"
#include "vm/guest.h"
#include "vm/vm.h"

static int drop_workdir(const char *dir, struct bo_err *err);

static int undo_workdir(const char *dir, void *ctx, struct bo_err *err)
{
	return drop_workdir(dir, err);
}

/* A tmpfs of its own for the images: RAM-backed, and gone with everything in it when it is
 * unmounted at the end. It goes on the teardown stack @td at once. */
static int make_workdir(const char *runid, struct bo_teardown *td, char *buf, size_t len,
			struct bo_err *err)
{
	int r;

	if (snprintf(buf, len, "%s%s", BO_WORKDIR_PREFIX, runid) >= (int) len)
		return bo_err_set(err, ENAMETOOLONG, "work directory of run '%s'", runid);
	if (mkdir(buf, 0700) < 0)
		return bo_err_set(err, errno, "creating work directory '%s': %s", buf,
				  strerror(errno));
	if (mount("blackout", buf, "tmpfs", MS_NOSUID | MS_NODEV, "size=95%,mode=0700") < 0) {
		int e = errno;

		rmdir(buf);
		return bo_err_set(err, e, "mounting a tmpfs on '%s': %s", buf, strerror(e));
	}
	r = bo_teardown_push(td, "workdir", buf, undo_workdir, NULL, err);
	if (r < 0) {
		struct bo_err e2;

		(void) drop_workdir(buf, &e2);
		return r;
	}
	return bo_test_stall("workdir", err);
}

static int drop_workdir(const char *dir, struct bo_err *err)
{
	if (umount2(dir, 0) < 0)
		return bo_err_set(err, errno, "unmounting work directory '%s': %s", dir,
				  strerror(errno));
	if (rmdir(dir) < 0)
		return bo_err_set(err, errno, "removing '%s': %s", dir, strerror(errno));
	return 0;
}

/* Append " FLAG 'VALUE'" to @out, quoted for /bin/sh. */
static int add_arg(char **out, const char *flag, const char *val)
{
	_cleanup_free_ char *q = NULL;
	char *n = NULL;
	size_t len = 2;
	char *p;

	if (!val)
		return 0;
	for (const char *s = val; *s; s++)
		len += *s == '\'' ? 4 : 1;
	q = malloc(len + 1);
	if (!q)
		return -ENOMEM;
	p = q;
	*p++ = '\'';
	for (const char *s = val; *s; s++) {
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *s;
		}
	}
	*p++ = '\'';
	*p = '\0';
	if (asprintf(&n, "%s %s %s", *out ? *out : "", flag, q) < 0)
		return -ENOMEM;
	free(*out);
	*out = n;
	return 0;
}

/*
 * Copy the used part of the log into the results: the artifact that reproduces everything.
 * It is read-only from then on, which lets `blackout check` link it rather than copy it.
 */
static int save_log(const char *src, struct bo_results *res, struct bo_err *err)
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

static void report_teardown(void *rctx, const char *kind, const char *arg, const struct bo_err *err)
{
	char msg[PATH_MAX + 1024];

	snprintf(msg, sizeof(msg), "teardown of %s '%s' failed: %s", kind, arg, bo_err_str(err));
	bo_summary_error(rctx, msg);
}

/* Nothing of the run may be left in the kernel: assert it, then unwind the guest's own
 * teardown stack (the work directory). */
static void check_leftovers(struct bo_summary *sum, const char *runid, const char *workdir,
			    struct bo_teardown *td)
{
	struct bo_err err = {0};
	char left[2048];
	int n = bo_diag_leftovers(runid, workdir, left, sizeof(left), &err);

	if (n < 0) {
		bo_summary_error(sum, bo_err_str(&err));
	} else if (n > 0) {
		char msg[2200];

		snprintf(msg, sizeof(msg), "%d objects of run %s were left behind:\n%s", n, runid,
			 left);
		bo_summary_error(sum, msg);
	}
	(void) bo_teardown_unwind(td);
}

/*
 * Finish a guest command: record its error @r/@rerr, close the log (it lives in the work
 * directory), assert no leftovers and drop the work directory (when @workdir), then write
 * summary.json and the post diagnostics. Returns the exit status.
 */
static int finish(struct bo_results *res, struct bo_summary *sum, int r, const struct bo_err *rerr,
		  struct bo_log *log, const char *runid, const char *workdir,
		  struct bo_teardown *td)
{
	struct json_object *o;
	struct bo_err err = {0};

	if (r < 0)
		bo_summary_error(sum, bo_err_str(rerr));
	bo_log_free(log);
	if (workdir)
		check_leftovers(sum, runid, workdir, td);
	bo_teardown_free(td);

	bo_diag_capture(res, "post", &err);
	o = bo_summary_json(sum);
	if (!o || bo_results_write_json(res, "summary.json", o, &err) < 0) {
		/* The run's own error first: a full results filesystem fails both. */
		if (sum->error[0])
			bo_cli_error("%s", sum->error);
		bo_cli_error("writing summary.json: %s", o ? bo_err_str(&err) : "out of memory");
		json_object_put(o);
		return BO_EXIT_HARNESS;
	}
	json_object_put(o);
	bo_results_emit(res, "end", json_object_new_object(), &err);
	if (sum->error[0])
		bo_cli_error("%s", sum->error);
	return bo_verdict_exit(bo_summary_verdict(sum));
}

/*
 * What both guest commands do first: refuse a bad run id and dm work outside blackout's VM
 * (unless --allow-host), catch SIGINT/SIGTERM/SIGHUP so that a stop unwinds the run, and make
 * the teardown stack of the guest's own objects.
 */
static int guest_start(const char *cmd, const char *runid, bool allow_host, struct bo_summary *sum,
		       struct bo_teardown **ret_td)
{
	struct bo_err err = {0};

	if (!bo_runid_valid(runid)) {
		bo_cli_error("%s: '%s' is not a valid run id (letters, digits, '.', '_', '-')", cmd,
			     runid);
		return -EINVAL;
	}
	if (bo_own_dm_allowed(cmd, bo_vm_inside(), allow_host, &err) < 0) {
		bo_cli_error("%s", bo_err_str(&err));
		return -EPERM;
	}
	if (bo_teardown_new(4, report_teardown, sum, ret_td) < 0) {
		bo_cli_error("%s: out of memory", cmd);
		return -ENOMEM;
	}
	bo_stop_install();
	return 0;
}

int bo_cmd_guest_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{"results", required_argument, NULL, 'r'},
		{"scenario", required_argument, NULL, 's'},
		{"run-id", required_argument, NULL, 'i'},
		{"seed", required_argument, NULL, 'S'},
		{"libexec", required_argument, NULL, 'l'},
		{"allow-host", no_argument, NULL, 'A'},
		{},
	};
	const char *results = NULL, *scenario = NULL, *runid = NULL, *libexec = bo_libexec_dir();
	struct bo_teardown *td = NULL;
	bool allow_host = false;
	struct bo_scenario *sc = NULL;
	struct bo_results *res = NULL;
	struct bo_summary sum = {0};
	struct bo_log *log = NULL;
	struct bo_err err = {0};
	char workdir[PATH_MAX], logpath[PATH_MAX + 16], seed_env[48];
	_cleanup_free_ char *checker = NULL, *repro = NULL;
	char *checker_env[4] = {seed_env, NULL};
	uint64_t first = 0, seed = 0;
	bool have_workdir = false, seed_set = false;
	int c, r, ret;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'r')
			results = optarg;
		else if (c == 's')
			scenario = optarg;
		else if (c == 'i')
			runid = optarg;
		else if (c == 'l')
			libexec = optarg;
		else if (c == 'S' && bo_parse_u64(optarg, &seed) == 0)
			seed_set = true;
		else if (c == 'A')
			allow_host = true;
		else
			return BO_EXIT_USAGE;
	}
	if (!results || !scenario || !runid || optind != argc)
		return bo_cli_usage_error("__guest-run", "--results, --scenario, --run-id");
	if (guest_start("__guest-run", runid, allow_host, &sum, &td) < 0)
		return BO_EXIT_HARNESS;
	if (bo_results_open(results, &res, &err) < 0) {
		bo_teardown_free(td);
		bo_cli_error("%s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	bo_diag_capture(res, "pre", &err);
	r = bo_scenario_load(scenario, &sc, &err);
	if (r >= 0 && seed_set)
		bo_scenario_set_seed(sc, seed);
	if (r >= 0)
		r = make_workdir(runid, td, workdir, sizeof(workdir), &err);
	if (r < 0) {
		have_workdir = bo_teardown_depth(td) > 0;
		goto out;
	}
	have_workdir = true;
	{
		struct bo_record_opts ro = {
			.sc = sc, .runid = runid, .workdir = workdir, .libexec = libexec};

		r = bo_record(&ro, res, &err);
	}
	snprintf(logpath, sizeof(logpath), "%s/log.img", workdir);
	if (r >= 0)
		r = save_log(logpath, res, &err);
	if (r >= 0)
		r = bo_log_open(logpath, 0, &log, &err);
	/* Before the mkfs mark there is no filesystem: the first state is right after it. */
	if (r >= 0)
		r = bo_cut_resolve(log, "mark:mkfs", &first, &err);
	if (r >= 0 && bo_scenario_checker_command(sc, &checker) < 0)
		r = bo_err_set(&err, ENOMEM, "building the checker command");
	if (r >= 0) {
		_cleanup_free_ char *path_env = NULL;
		struct bo_explore_opts eo = {
			.runid = runid,
			.workdir = workdir,
			.fs = bo_fs_name(sc->fs),
			.mount_options = sc->mount_options,
			.cuts = sc->cuts_spec,
			.first_cut = first,
			.checker = checker,
			.checker_env = checker_env,
			.ordered = sc->ordered,
			.fsck_timeout = sc->fsck_timeout,
			.checker_timeout = sc->checker_timeout,
			.image_size = sc->size,
			.log_name = "write.log",
		};
		char seed_s[32];

		snprintf(seed_s, sizeof(seed_s), "%" PRIu64, sc->seed);
		if (add_arg(&repro, "--scenario", "scenario.ini") < 0 ||
		    add_arg(&repro, "--seed", seed_s) < 0)
			r = bo_err_set(&err, ENOMEM, "repro arguments");
		eo.repro_args = repro;
		snprintf(seed_env, sizeof(seed_env), "BLACKOUT_SEED=%" PRIu64, sc->workload_seed);
		if (r >= 0 &&
		    asprintf(&path_env, "PATH=%s:/usr/sbin:/usr/bin:/sbin:/bin", libexec) < 0)
			r = bo_err_set(&err, ENOMEM, "checker environment");
		if (r >= 0) {
			checker_env[1] = path_env;
			r = bo_explore(log, &eo, res, &sum, &err);
		}
	}
out:
	ret = finish(res, &sum, r, &err, log, runid, have_workdir ? workdir : NULL, td);
	bo_scenario_free(sc);
	bo_results_free(res);
	return ret;
}

int bo_cmd_guest_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{"results", required_argument, NULL, 'r'},
		{"run-id", required_argument, NULL, 'i'},
		{"libexec", required_argument, NULL, 'l'},
		{"scenario", required_argument, NULL, 's'},
		{"fs", required_argument, NULL, 'f'},
		{"size", required_argument, NULL, 'z'},
		{"mount-options", required_argument, NULL, 'o'},
		{"cuts", required_argument, NULL, 'c'},
		{"from", required_argument, NULL, 'F'},
		{"checker", required_argument, NULL, 'k'},
		{"state", required_argument, NULL, 'S'},
		{"seed", required_argument, NULL, 'e'},
		{"hash", no_argument, NULL, 'H'},
		{"shard", required_argument, NULL, 'D'},
		{"claims", required_argument, NULL, 'C'},
		{"log-index", required_argument, NULL, 'X'},
		{"reorder", required_argument, NULL, 'R'},
		{"torn", no_argument, NULL, 'T'},
		{"budget", required_argument, NULL, 'B'},
		{"allow-host", no_argument, NULL, 'A'},
		{"bench-mode", required_argument, NULL, 'M'},
		{},
	};
	struct bo_teardown *td = NULL;
	bool allow_host = false;
	enum bo_bench_mode bench = BO_BENCH_NONE;
	const char *results = NULL, *runid = NULL, *libexec = bo_libexec_dir(), *scen = NULL;
	const char *seed_s = NULL;
	const char *fs = NULL, *size_s = NULL, *mopt = NULL, *cuts = NULL, *from = NULL;
	const char *checker = NULL, *state = NULL;
	_cleanup_free_ char *sc_checker = NULL, *path_env = NULL, *repro = NULL;
	char size_buf[32];
	struct bo_scenario *sc = NULL;
	struct bo_results *res = NULL;
	struct bo_summary sum = {0};
	struct bo_log *log = NULL;
	struct bo_err err = {0};
	char workdir[PATH_MAX] = "", logpath[PATH_MAX + 16], seed_env[48] = "BLACKOUT_SEED=0";
	char *checker_env[3] = {seed_env, NULL, NULL};
	uint64_t size = 0, first = 0;
	bool have_workdir = false, hash = false;
	unsigned shard_i = 0, shard_n = 0;
	const char *claims = NULL, *log_index = NULL;
	uint64_t reorder = 0, budget = 0, gen_seed = 0;
	bool torn = false;
	int c, r = 0, ret;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			results = optarg;
			break;
		case 'i':
			runid = optarg;
			break;
		case 'l':
			libexec = optarg;
			break;
		case 's':
			scen = optarg;
			break;
		case 'f':
			fs = optarg;
			break;
		case 'z':
			size_s = optarg;
			break;
		case 'o':
			mopt = optarg;
			break;
		case 'c':
			cuts = optarg;
			break;
		case 'F':
			from = optarg;
			break;
		case 'k':
			checker = optarg;
			break;
		case 'S':
			state = optarg;
			break;
		case 'e':
			seed_s = optarg;
			break;
		case 'H':
			hash = true;
			break;
		case 'D':
			if (sscanf(optarg, "%u/%u", &shard_i, &shard_n) != 2 || !shard_n ||
			    shard_i >= shard_n)
				return bo_cli_usage_error("__guest-check", "--shard I/N");
			break;
		case 'C':
			claims = optarg;
			break;
		case 'X':
			log_index = optarg;
			break;
		case 'R':
			if (bo_parse_u64(optarg, &reorder) < 0 || reorder > 8)
				return bo_cli_usage_error("__guest-check", "--reorder 0..8");
			break;
		case 'T':
			torn = true;
			break;
		case 'A':
			allow_host = true;
			break;
		case 'B':
			if (bo_parse_u64(optarg, &budget) < 0)
				return bo_cli_usage_error("__guest-check", "--budget N");
			break;
		case 'M':
			if (!strcmp(optarg, "naive"))
				bench = BO_BENCH_NAIVE;
			else if (!strcmp(optarg, "floor"))
				bench = BO_BENCH_FLOOR;
			else
				return bo_cli_usage_error("__guest-check",
							  "--bench-mode naive|floor");
			break;
		default:
			return BO_EXIT_USAGE;
		}
	}
	if (!results || !runid || optind != argc)
		return bo_cli_usage_error("__guest-check", "--results and --run-id are required");
	if (guest_start("__guest-check", runid, allow_host, &sum, &td) < 0)
		return BO_EXIT_HARNESS;
	if (bo_results_open(results, &res, &err) < 0) {
		bo_teardown_free(td);
		bo_cli_error("%s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	bo_diag_capture(res, "pre", &err);
	if (scen) {
		uint64_t seed;

		r = bo_scenario_load(scen, &sc, &err);
		if (r >= 0 && seed_s) {
			if (bo_parse_u64(seed_s, &seed) < 0)
				r = bo_err_set(&err, EINVAL, "--seed '%s' is not a number", seed_s);
			else
				bo_scenario_set_seed(sc, seed);
		}
		if (r >= 0 && bo_scenario_checker_command(sc, &sc_checker) < 0)
			r = bo_err_set(&err, ENOMEM, "building the checker command");
		if (r >= 0) {
			fs = fs ? fs : bo_fs_name(sc->fs);
			mopt = mopt ? mopt : sc->mount_options;
			cuts = cuts ? cuts : sc->cuts_spec;
			checker = checker ? checker : sc_checker;
			size = sc->size;
			snprintf(seed_env, sizeof(seed_env), "BLACKOUT_SEED=%" PRIu64,
				 sc->workload_seed);
		}
	}
	if (r >= 0 && size_s && bo_parse_u64(size_s, &size) < 0)
		r = bo_err_set(&err, EINVAL, "--size '%s' is not a number of bytes", size_s);
	snprintf(logpath, sizeof(logpath), "%s/write.log", results);
	/* The host's index of the log spares reading every entry header over 9p. */
	if (r >= 0)
		r = log_index ? bo_log_open_indexed(logpath, log_index, &log, &err)
			      : bo_log_open(logpath, 0, &log, &err);
	if (r >= 0 && !size)
		size = bo_log_min_device_size(log);
	/* Before the mkfs mark of a recording there is no filesystem to check. A log without
	 * one must say where the filesystem begins: never guess "from the start". */
	if (r >= 0 && from)
		r = bo_cut_resolve(log, from, &first, &err);
	else if (r >= 0 && bo_cut_resolve(log, "mark:mkfs", &first, NULL) < 0)
		r = bo_err_set(&err, ENOENT,
			       "log '%s' has no 'mkfs' mark: say from which cut on the filesystem "
			       "exists with --from CUT (e.g. --from start)",
			       logpath);
	/* Sampling and tearing draw from the run's seed, as the checker does. */
	if (sc)
		gen_seed = sc->seed;
	else if (seed_s && bo_parse_u64(seed_s, &gen_seed) < 0)
		r = bo_err_set(&err, EINVAL, "--seed '%s' is not a number", seed_s);
	/* repro.sh re-runs a state with exactly this configuration. */
	snprintf(size_buf, sizeof(size_buf), "%" PRIu64, size);
	if (r >= 0 && (add_arg(&repro, "--scenario", scen ? "scenario.ini" : NULL) < 0 ||
		       add_arg(&repro, "--seed", seed_s) < 0 || add_arg(&repro, "--fs", fs) < 0 ||
		       add_arg(&repro, "--size", size_buf) < 0 ||
		       add_arg(&repro, "--mount-options", mopt) < 0 ||
		       add_arg(&repro, "--checker", checker) < 0))
		r = bo_err_set(&err, ENOMEM, "repro arguments");
	if (r >= 0)
		r = make_workdir(runid, td, workdir, sizeof(workdir), &err);
	if (r < 0 && bo_teardown_depth(td) > 0)
		have_workdir = true;
	if (r >= 0) {
		struct bo_explore_opts eo = {
			.runid = runid,
			.workdir = workdir,
			.fs = fs,
			.mount_options = mopt ? mopt : "",
			.cuts = cuts ? cuts : "flush",
			.first_cut = first,
			.only_state = state,
			.checker = checker,
			.checker_env = checker_env,
			.ordered = sc ? sc->ordered : false,
			.fsck_timeout = sc ? sc->fsck_timeout : 300,
			.checker_timeout = sc ? sc->checker_timeout : 300,
			.image_size = size,
			.log_name = "write.log",
			.repro_args = repro,
			.hash_image = hash,
			.shard_index = shard_i,
			.shard_count = shard_n,
			.claim_dir = claims,
			.reorder_k = (unsigned) reorder,
			.torn = torn,
			.budget = budget,
			.seed = gen_seed,
			.bench = bench,
			.host_base = getenv(BO_HOST_BASE_ENV),
		};

		have_workdir = true;
		if (asprintf(&path_env, "PATH=%s:/usr/sbin:/usr/bin:/sbin:/bin", libexec) < 0) {
			r = bo_err_set(&err, ENOMEM, "checker environment");
		} else {
			checker_env[1] = path_env;
			r = bo_explore(log, &eo, res, &sum, &err);
		}
	}
	ret = finish(res, &sum, r, &err, log, runid, have_workdir ? workdir : NULL, td);
	bo_scenario_free(sc);
	bo_results_free(res);
	return ret;
}
