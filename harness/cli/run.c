// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout run — record a scenario's workload in a fresh VM and check every crash state.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "harness/replay/basesrv.h"
#include "harness/states/classify.h"
#include "harness/base/cleanup.h"
#include "harness/base/file.h"
#include "harness/base/path.h"
#include "harness/base/safety.h"
#include "harness/cli/cli.h"
#include "harness/cli/vmrun.h"
#include "harness/results/progress.h"
#include "harness/results/report.h"
#include "harness/results/results.h"
#include "harness/scenario/scenario.h"
#include "harness/results/summary.h"
#include "vm/share.h"
#include "vm/vm.h"

/* Handle one VM option; 1 if @c was one, 0 if not, -1 on a bad value. */
int bo_cli_vm_option(int c, struct vm_args *v)
{
	uint64_t n;

	switch (c) {
	case OPT_KERNEL:
		v->kernel = optarg;
		return 1;
	case OPT_MODULES:
		v->modules = optarg;
		return 1;
	case OPT_MEMORY:
	case OPT_TIMEOUT:
		if (bo_parse_u64(optarg, &n) < 0 || n == 0 || n > UINT32_MAX)
			return -1;
		*(c == OPT_MEMORY ? &v->memory_mb : &v->timeout_s) = (unsigned) n;
		return 1;
	default:
		return 0;
	}
}

/* YYYYMMDD-HHMMSS-<seed>-<nonce>: sortable, and never the same twice. */
void bo_runid_make(uint64_t seed, char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	uint32_t nonce = 0;
	char when[32];

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	if (getrandom(&nonce, sizeof(nonce), 0) != sizeof(nonce))
		nonce = (uint32_t) getpid() ^ (uint32_t) t;
	snprintf(buf, len, "%s-%" PRIu64 "-%06x", when, seed, nonce & 0xffffff);
}

/* Print the class table of a results directory and return the exit status it implies. */
int bo_results_report(const char *dir, const char *what)
{
	struct bo_summary s;
	struct bo_err err = {0};
	enum bo_verdict_kind v;

	/* report.html and junit.xml first: they also describe a run without a valid summary. */
	if (bo_report_write(dir, NULL, &err) < 0)
		fprintf(stderr, "blackout: warning: %s\n", bo_err_str(&err));
	err = (struct bo_err){0};
	if (bo_summary_read(dir, &s, NULL, &err) < 0) {
		bo_cli_error("%s: no valid summary in '%s': %s", what, dir, bo_err_str(&err));
		fprintf(stderr, "results: %s\n", dir);
		return BO_EXIT_HARNESS;
	}
	v = bo_summary_verdict(&s);
	printf("%s: %" PRIu64 " states checked, %" PRIu64 " aliased, %.1f s\n", what, s.states,
	       s.aliases, s.seconds_total);
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		if (!s.counts[c] && c != BO_CLASS_CONSISTENT)
			continue;
		printf("  %-20s %8" PRIu64, bo_class_name((enum bo_class) c), s.counts[c]);
		if (c != BO_CLASS_CONSISTENT && s.first[c][0])
			printf("   first: %s (states/%s/)", s.first[c], s.first[c]);
		putchar('\n');
	}
	if (s.error[0])
		printf("error: %s\n", s.error);
	printf("verdict: %s\n", bo_verdict_name(v));
	printf("report: %s/report.html\nresults: %s\n", dir, dir);
	return bo_verdict_exit(v);
}

/*
 * Every executable "blackout-*" in @dir, as a NULL-terminated malloc'd array of malloc'd
 * paths: the built-in workload programs, which the VM must carry.
 */
static int libexec_programs(const char *dir, char ***ret, struct bo_err *err)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t n = 0;
	struct dirent *de;

	if (!d)
		return bo_err_set(err, errno, "listing '%s': %s", dir, strerror(errno));
	v = calloc(1, sizeof(*v));
	if (!v) {
		closedir(d);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	while ((de = readdir(d))) {
		struct stat st;
		char **nv;
		char *path;

		if (strncmp(de->d_name, "blackout-", 9))
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
			closedir(d);
			bo_strv_free(v);
			return bo_err_set(err, ENOMEM, "out of memory");
		}
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || access(path, X_OK) < 0) {
			free(path);
			continue;
		}
		nv = realloc(v, (n + 2) * sizeof(*v));
		if (!nv) {
			closedir(d);
			free(path);
			bo_strv_free(v);
			return bo_err_set(err, ENOMEM, "out of memory");
		}
		v = nv;
		v[n++] = path;
		v[n] = NULL;
	}
	closedir(d);
	*ret = v;
	return 0;
}

/*
 * Add to @files (a NULL-terminated array built by libexec_programs()) every absolute path that
 * the command line @cmd names and that exists on the host: a checker or workload given as a
 * host path runs in the guest at that same path.
 */
static int add_named_files(char ***files, const char *cmd, struct bo_err *err)
{
	char **words = cmd ? bo_strv_split(cmd) : NULL;
	size_t n = 0;
	int r = 0;

	if (cmd && !words)
		return bo_err_set(err, ENOMEM, "out of memory");
	while ((*files)[n])
		n++;
	for (size_t i = 0; words && words[i] && r >= 0; i++) {
		struct stat st;
		char **nv;

		if (words[i][0] != '/' || stat(words[i], &st) < 0 ||
		    !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
			continue;
		nv = realloc(*files, (n + 2) * sizeof(**files));
		if (!nv || !(nv[n] = strdup(words[i]))) {
			if (nv)
				*files = nv;
			r = bo_err_set(err, ENOMEM, "out of memory");
			break;
		}
		*files = nv;
		(*files)[++n] = NULL;
	}
	bo_strv_free(words);
	return r;
}

/*
 * Boot a VM sharing @dir and run the guest command @gargv; returns the guest's status. The
 * command lines @cmds (NULL-terminated, or NULL) name host files the guest needs too.
 */
int bo_guest_boot(const struct vm_args *v, const char *dir, char *const gargv[],
		  const char *const *cmds, unsigned timeout_s, struct bo_err *err)
{
	char console[PATH_MAX];
	char **files = NULL;
	struct bo_vm_opts o = {
		.kernel = v->kernel,
		.modules = v->modules,
		.memory_mb = v->memory_mb,
		.timeout_s = v->timeout_s ? v->timeout_s : timeout_s,
		.share_dir = dir,
		.exchange_dir = v->exchange_dir,
		.console_path = console,
	};
	struct bo_share_report rep;
	struct bo_progress_relay *relay = NULL;
	struct bo_base_server *base = NULL;
	int status = BO_EXIT_HARNESS, r;

	bo_stop_install(); /* SIGINT, SIGTERM, SIGHUP kill the VM; the results are kept */

	if (bo_pathf(console, sizeof(console), "%s/vm/console.log", dir) < 0)
		return bo_err_set(err, ENAMETOOLONG, "results directory '%s': path too long", dir);
	/* The built-in workloads live next to the blackout binary, and so they do in the guest. */
	r = libexec_programs(bo_libexec_dir(), &files, err);
	for (size_t i = 0; r >= 0 && cmds && cmds[i]; i++)
		r = add_named_files(&files, cmds[i], err);
	if (r < 0) {
		bo_strv_free(files);
		return r;
	}
	o.extra_files = (const char *const *) files;
	/* The guest's stderr through the relay that draws its progress lines; without a relay
	 * it goes to stderr as it is. */
	o.stderr_fd = v->stderr_fd;
	if (!o.stderr_fd) {
		struct bo_err e = {0};

		if (bo_progress_relay_start(1, 2, isatty(2), &o.stderr_fd, &relay, &e) < 0)
			o.stderr_fd = 0;
	}
	/* Without a host base the guest replays into an image of its own: slower, not wrong. */
	if (v->base_log) {
		struct bo_err e = {0};

		if (bo_base_server_start(v->base_log, v->base_size, &base, &o.base_fd,
					 &o.base_port_fd, &e) < 0)
			fprintf(stderr, "blackout: warning: %s; the guest replays on its own\n",
				bo_err_str(&e));
		else
			o.base_size = bo_base_server_size(base);
	}
	r = bo_vm_run(&o, gargv, &status, err);
	if (base) {
		uint64_t served = bo_base_server_stop(base);

		bo_debug(BO_DBG_RUN, "host base: %" PRIu64 " replays served", served);
	}
	bo_progress_relay_stop(relay);
	bo_strv_free(files);
	if (r < 0)
		return r;
	/* The guest wrote this directory: nothing in it may lead the host elsewhere. Symlinks
	 * and special files are removed before anything is read back. */
	r = bo_share_check(dir, true, &rep, err);
	if (r < 0)
		return r;
	if (rep.rejected)
		fprintf(stderr,
			"blackout: warning: removed %zu symlinks or special files the guest left "
			"in '%s' (first: %s)\n",
			rep.rejected, dir, rep.first_rejected);
	return status;
}

static void run_help(void)
{
	puts("usage: blackout run SCENARIO.ini [--seed N] [--results DIR] [VM OPTIONS]\n\n"
	     "Record the scenario's workload through dm-flakey and dm-log-writes in a fresh VM,\n"
	     "then check every crash state the cut policy selects: mount (with recovery), the\n"
	     "checker, fsck, the oracle. Writes DIR/<run-id>/ (default DIR: ./results) and\n"
	     "prints a summary.\n\n"
	     "  --seed N         override the scenario's seed\n"
	     "  --results DIR    parent of the run's results directory\n"
	     "VM options:\n"
	     "  --kernel IMAGE --modules DIR   a kernel of your own (default: Debian's)\n"
	     "  --memory MB      guest memory\n"
	     "  --timeout S      kill the VM after S seconds (default: from the scenario)\n\n"
	     "Exit status: 0 every state consistent, 1 a state failed, 3 harness error.");
}

int bo_cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{"seed", required_argument, NULL, 's'},
		{"results", required_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		VM_OPTIONS,
		{},
	};
	const char *parent = "results";
	struct vm_args v = {0};
	struct bo_scenario *sc = NULL;
	struct bo_results *res = NULL;
	struct bo_err err = {0};
	struct json_object *cfg = NULL;
	char runid[96], dir[PATH_MAX], seed_s[32], path[PATH_MAX];
	char guest_dir[PATH_MAX + 8], guest_sc[PATH_MAX + 32];
	uint64_t seed = 0;
	bool seed_set = false;
	unsigned timeout;
	int c, r, ret = BO_EXIT_HARNESS;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			run_help();
			return BO_EXIT_OK;
		}
		if (c == 's') {
			if (bo_parse_u64(optarg, &seed) < 0)
				return bo_cli_usage_error("run", "--seed '%s' is not a number",
							  optarg);
			seed_set = true;
		} else if (c == 'r') {
			parent = optarg;
		} else if (bo_cli_vm_option(c, &v) <= 0) {
			return bo_cli_usage_error("run", "bad option");
		}
	}
	if (optind + 1 != argc)
		return bo_cli_usage_error("run", "expected exactly one SCENARIO.ini");
	/* Bad scenarios fail here, with file:line, before any VM boots. */
	if (bo_scenario_load(argv[optind], &sc, &err) < 0) {
		bo_cli_error("%s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	if (seed_set)
		bo_scenario_set_seed(sc, seed);
	bo_runid_make(sc->seed, runid, sizeof(runid));
	if (mkdir(parent, 0755) < 0 && errno != EEXIST) {
		bo_cli_error("creating '%s': %s", parent, strerror(errno));
		goto out;
	}
	if (!realpath(parent, path)) {
		bo_cli_error("'%s': %s", parent, strerror(errno));
		goto out;
	}
	r = bo_pathf(dir, sizeof(dir), "%s/%s", path, runid) == 0
		    ? bo_results_create(dir, &res, &err)
		    : bo_err_set(&err, ENAMETOOLONG, "path too long");
	if (r >= 0) {
		r = bo_pathf(path, sizeof(path), "%s/scenario.ini", dir) == 0
			    ? bo_copy_file(argv[optind], path, &err)
			    : -ENAMETOOLONG;
	}
	if (r >= 0 && bo_scenario_to_json(sc, &cfg) < 0)
		r = bo_err_set(&err, ENOMEM, "config.json");
	if (r >= 0) {
		struct utsname u;

		json_object_object_add(cfg, "run_id", json_object_new_string(runid));
		json_object_object_add(cfg, "blackout", json_object_new_string(BO_VERSION));
		if (uname(&u) == 0)
			json_object_object_add(cfg, "host_kernel",
					       json_object_new_string(u.release));
		r = bo_results_write_json(res, "config.json", cfg, &err);
	}
	if (r < 0) {
		bo_cli_error("run: %s", bo_err_str(&err));
		goto out;
	}
	snprintf(seed_s, sizeof(seed_s), "%" PRIu64, sc->seed);
	snprintf(guest_dir, sizeof(guest_dir), "%s", BO_VM_SHARE_GUEST);
	snprintf(guest_sc, sizeof(guest_sc), "%s/scenario.ini", BO_VM_SHARE_GUEST);
	{
		char *gargv[] = {(char *) bo_self_exe(),
				 "__guest-run",
				 "--results",
				 guest_dir,
				 "--scenario",
				 guest_sc,
				 "--run-id",
				 runid,
				 "--seed",
				 seed_s,
				 "--libexec",
				 (char *) bo_libexec_dir(),
				 NULL};
		/* The workload and its checks, generously: a VM that outlives this is hung. */
		timeout = sc->workload_timeout + 600 +
			  (unsigned) (sc->ops ? sc->ops : 500) *
				  (sc->checker_timeout / 10 + sc->fsck_timeout / 10 + 4);
		_cleanup_free_ char *wcmd = NULL, *ccmd = NULL;
		const char *cmds[3] = {NULL};

		if (bo_scenario_workload_command(sc, &wcmd) < 0 ||
		    bo_scenario_checker_command(sc, &ccmd) < 0) {
			bo_cli_error("run: out of memory");
			goto out;
		}
		cmds[0] = wcmd;
		cmds[1] = ccmd;
		fprintf(stderr, "blackout: run %s: booting a VM (results in %s)\n", runid, dir);
		r = bo_guest_boot(&v, dir, gargv, cmds[0] ? cmds : cmds + 1, timeout, &err);
	}
	if (r < 0) {
		bo_cli_error("run %s: %s", runid, bo_err_str(&err));
		fprintf(stderr, "results: %s\n", dir);
		goto out;
	}
	ret = bo_results_report(dir, sc->name);
	if (r != ret && ret != BO_EXIT_HARNESS) {
		bo_cli_error("run %s: the guest exited %d but its summary says %d", runid, r, ret);
		ret = BO_EXIT_HARNESS;
	}
out:
	json_object_put(cfg);
	bo_results_free(res);
	bo_scenario_free(sc);
	return ret;
}
