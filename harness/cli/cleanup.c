// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout cleanup — remove what a crashed or killed run left behind, by its exact run id.
 *
 *   blackout cleanup --run ID [--dry-run]
 *   blackout cleanup --list
 *
 * What belongs to run ID is decided the way the run itself named things (harness/safety.h):
 * dm devices named blackout-ID-* with a uuid BLACKOUT-ID-*, loop devices whose backing file is
 * inside /run/blackout-ID/, mounts at or under that directory (the three found by
 * dev/leftovers.h), processes working in it or holding those files or devices open, and the
 * directory itself. Nothing else is touched, and an ID that is not a valid run id is refused
 * before anything is looked at.
 *
 * Order: processes (they hold mounts and devices), mounts under the work directory (newest
 * first), dm devices (a device held by another is retried after it), loops, the work
 * directory's own tmpfs (the loops' files are on it), the directory. Every object removed is reported; the run is listed again at the end and anything
 * still there is an error.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dmtargets/dm.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"
#include "harness/diagnose/diag.h"
#include "harness/dev/holders.h"
#include "harness/dev/leftovers.h"
#include "harness/dev/loop.h"
#include "harness/dev/mntarea.h"
#include "harness/base/safety.h"

struct sweep {
	const char *runid;
	char workdir[PATH_MAX];
	bool dry_run;
	bool has_area;		/* the mount area is the run's (dev/mntarea.h) */
	struct bo_leftovers lo; /* what the run left, as found before the sweep */
	unsigned removed, failed;
	pid_t killed[256]; /* the processes killed, waited for */
	size_t n_killed;
};

static void say(struct sweep *s, const char *what, const char *obj, const char *extra)
{
	printf("%s %s%s%s\n", s->dry_run ? "would remove" : what, obj, extra ? " " : "",
	       extra ? extra : "");
	s->removed++;
}

static void failed(struct sweep *s, const char *what, const char *obj, const struct bo_err *err)
{
	bo_cli_error("cleanup: %s '%s': %s", what, obj, bo_err_str(err));
	s->failed++;
}

/* Whether @path is the work directory or inside it. */
static bool in_workdir(const struct sweep *s, const char *path)
{
	return !strcmp(path, s->workdir) || bo_path_within(s->workdir, path);
}

/* Whether @target (what a process holds) is of the run: its work directory, its mount area
 * (when it has it), or one of its dm or loop devices. */
static bool of_run(const char *target, void *ctx)
{
	const struct sweep *s = ctx;

	if (in_workdir(s, target) || (s->has_area && bo_mnt_area_holds(target)))
		return true;
	for (char **l = s->lo.loops; l && *l; l++)
		if (!strcmp(target, *l))
			return true;
	if (!strncmp(target, "/dev/mapper/", 12))
		for (char **d = s->lo.dm; d && *d; d++)
			if (!strcmp(target + 12, *d))
				return true;
	return false;
}

/* A process working in the run: killed (SIGKILL), or with --dry-run named. */
static int kill_holder(const struct bo_holder *h, void *ctx)
{
	struct sweep *s = ctx;
	char obj[128];

	if (h->pid == getpid() || s->n_killed == BO_ARRAY_SIZE(s->killed))
		return 0;
	snprintf(obj, sizeof(obj), "process %d (%s)", (int) h->pid, h->comm);
	if (s->dry_run) {
		say(s, "", obj, NULL);
		return 0;
	}
	if (kill(h->pid, SIGKILL) < 0) {
		struct bo_err err;

		bo_err_set(&err, errno, "%s", strerror(errno));
		failed(s, "killing", obj, &err);
		return 0;
	}
	say(s, "killed", obj, NULL);
	s->killed[s->n_killed++] = h->pid;
	return 0;
}

/* Kill (SIGKILL) every process that works in the run's directory or holds its files or
 * devices: a workload or checker whose blackout was killed. Waits up to 5 s for them. */
static void kill_processes(struct sweep *s)
{
	s->n_killed = 0;
	(void) !bo_holders_each(of_run, kill_holder, s);
	/* SIGKILL is not instant: a process stuck in I/O still holds its files for a moment. */
	for (int tries = 0; tries < 100; tries++) {
		struct timespec ts = {.tv_nsec = 50 * 1000 * 1000};
		bool alive = false;

		for (size_t i = 0; i < s->n_killed; i++)
			if (kill(s->killed[i], 0) == 0)
				alive = true;
		if (!alive)
			break;
		nanosleep(&ts, NULL);
	}
}

/* Unmount what is mounted under the work directory, newest first; the work directory's own
 * tmpfs only when @top (after the loops over its files are gone). */
static void unmount_all(struct sweep *s, bool top)
{
	char **m = NULL;
	size_t n = 0;

	/* Listed again: what was killed or removed before changed them. */
	if (bo_leftovers_mounts(s->runid, s->workdir, &m, NULL, NULL) < 0)
		return;
	while (m[n])
		n++;
	for (size_t i = n; i-- > 0;) {
		struct bo_err err = {0};

		if ((strcmp(m[i], s->workdir) == 0) != top)
			continue;
		if (s->dry_run) {
			say(s, "", "mount", m[i]);
			continue;
		}
		if (umount2(m[i], 0) == 0) {
			say(s, "unmounted", "mount", m[i]);
		} else if (errno == EBUSY && umount2(m[i], MNT_DETACH) == 0) {
			say(s, "detached (lazily, it was busy)", "mount", m[i]);
		} else {
			bo_err_set(&err, errno, "%s", strerror(errno));
			failed(s, "unmounting", m[i], &err);
		}
	}
	bo_strv_free(m);
}

/* Remove the run's dm devices; one held by another of them (flakey over log-writes) goes in a
 * later pass, after its holder. */
static void remove_dm(struct sweep *s)
{
	size_t n = 0;
	bool *done;

	while (s->lo.dm && s->lo.dm[n])
		n++;
	done = calloc(n + 1, sizeof(*done));
	if (!done)
		return;
	for (size_t pass = 0; pass <= n; pass++) {
		bool progress = false, left = false;

		for (size_t i = 0; i < n; i++) {
			struct bo_dm_info info;
			struct bo_err err = {0};

			if (done[i])
				continue;
			if (bo_dm_info(s->lo.dm[i], &info, &err) < 0 || !info.exists) {
				done[i] = true;
				continue;
			}
			if (info.uuid[0] && !(!strncmp(info.uuid, BO_DM_UUID_PREFIX, 9) &&
					      !strncmp(info.uuid + 9, s->runid, strlen(s->runid)) &&
					      info.uuid[9 + strlen(s->runid)] == '-')) {
				bo_err_set(&err, EPERM,
					   "its uuid '%s' is not of run %s: left alone", info.uuid,
					   s->runid);
				failed(s, "dm device", s->lo.dm[i], &err);
				done[i] = true;
				continue;
			}
			if (s->dry_run) {
				say(s, "", "dm", s->lo.dm[i]);
				done[i] = true;
				continue;
			}
			if (info.open_count > 0 && pass < n) {
				left = true;
				continue;
			}
			if (bo_dm_remove(s->lo.dm[i], &err) < 0) {
				if (pass < n) {
					left = true;
					continue;
				}
				failed(s, "removing dm device", s->lo.dm[i], &err);
			} else {
				say(s, "removed", "dm", s->lo.dm[i]);
				progress = true;
			}
			done[i] = true;
		}
		if (!left)
			break;
		if (!progress && pass + 1 < n)
			pass = n - 1; /* nothing moved: the last pass reports what is stuck */
	}
	free(done);
}

static void detach_loops(struct sweep *s)
{
	for (char **l = s->lo.loops; l && *l; l++) {
		char file[PATH_MAX + 4] = "(", back[PATH_MAX];
		struct bo_err err = {0};

		if (bo_loop_backing_file(*l, back, sizeof(back), &err) == 0)
			snprintf(file, sizeof(file), "(%s)", back);
		else
			file[0] = '\0';
		if (s->dry_run) {
			say(s, "", *l, file);
			continue;
		}
		if (bo_loop_detach(*l, &err) < 0 && err.errnum != ENXIO)
			failed(s, "detaching loop device", *l, &err);
		else
			say(s, "detached loop", *l, file);
	}
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void) st;
	(void) flag;
	(void) ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

static void remove_workdir(struct sweep *s)
{
	struct stat st;
	struct bo_err err = {0};

	if (lstat(s->workdir, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		bo_err_set(&err, ENOTDIR, "not a directory: left alone");
		failed(s, "work directory", s->workdir, &err);
		return;
	}
	if (s->dry_run) {
		say(s, "", "directory", s->workdir);
		return;
	}
	/* Its tmpfs is gone by now, and with it the images; what may remain are the empty
	 * mount points. FTW_PHYS: a symlink in it is removed, never followed. */
	if (nftw(s->workdir, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0) {
		bo_err_set(&err, errno, "%s", strerror(errno));
		failed(s, "removing", s->workdir, &err);
	} else {
		say(s, "removed", "directory", s->workdir);
	}
}

static int cleanup_run(const char *runid, bool dry_run)
{
	struct sweep s = {.runid = runid, .dry_run = dry_run};
	char left[2048];
	struct bo_err err = {0};
	bool have_dm;
	int n;

	snprintf(s.workdir, sizeof(s.workdir), "%s%s", BO_WORKDIR_PREFIX, runid);
	if (bo_leftovers_find(runid, s.workdir, false, &s.lo, &err) < 0) {
		bo_cli_error("cleanup --run %s: %s", runid, bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	s.has_area = s.lo.mounts[s.lo.area] != NULL;
	kill_processes(&s);
	unmount_all(&s, false);
	if (s.lo.have_dm)
		remove_dm(&s);
	detach_loops(&s);
	unmount_all(&s, true);
	remove_workdir(&s);
	have_dm = s.lo.have_dm;
	bo_leftovers_clear(&s.lo);
	if (dry_run) {
		printf("run %s: %u objects would be removed\n", runid, s.removed);
		return BO_EXIT_OK;
	}
	/* Trust but verify: list the run again. */
	n = have_dm ? bo_diag_leftovers(runid, s.workdir, left, sizeof(left), &err) : 0;
	if (n < 0) {
		bo_cli_error("cleanup --run %s: listing what is left: %s", runid, bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	if (n > 0 || s.failed) {
		bo_cli_error("cleanup --run %s: %d objects could not be removed%s%s", runid,
			     n ? n : (int) s.failed, n ? ":\n" : "", n ? left : "");
		return BO_EXIT_HARNESS;
	}
	printf("run %s: %s\n", runid, s.removed ? "clean" : "nothing was left");
	printf("cleanup: %u objects removed\n", s.removed);
	return BO_EXIT_OK;
}

/* @v as a JSON array of strings (NULL: empty). */
static struct json_object *strv_json(char *const *v)
{
	struct json_object *a = json_object_new_array();

	for (; a && v && *v; v++)
		if (**v)
			json_object_array_add(a, json_object_new_string(*v));
	return a;
}

/* One run's leftovers, as cleanup --list --json has them. */
static struct json_object *run_leftovers(const char *id, char **all)
{
	struct json_object *o = json_object_new_object(), *dm = json_object_new_array();
	char prefix[BO_DM_NAME_MAX], workdir[PATH_MAX];
	char **loops = NULL, **m = NULL;

	snprintf(workdir, sizeof(workdir), "%s%s", BO_WORKDIR_PREFIX, id);
	snprintf(prefix, sizeof(prefix), "%s%s-", BO_DM_NAME_PREFIX, id);
	for (char **a = all; dm && a && *a; a++) {
		if (strncmp(*a, prefix, strlen(prefix)))
			continue;
		json_object_array_add(dm, json_object_new_string(*a));
		**a = '\0'; /* listed */
	}
	json_object_object_add(o, "run", json_object_new_string(id));
	json_object_object_add(o, "directory", json_object_new_string(workdir));
	json_object_object_add(o, "dm", dm);
	if (bo_loop_list_inside(workdir, &loops, NULL) < 0)
		loops = NULL;
	json_object_object_add(o, "loops", strv_json(loops));
	bo_loop_list_free(loops);
	if (bo_leftovers_mounts(id, workdir, &m, NULL, NULL) < 0)
		m = NULL;
	json_object_object_add(o, "mounts", strv_json(m));
	bo_strv_free(m);
	return o;
}

static void print_strings(const char *what, struct json_object *o, const char *key)
{
	struct json_object *a = json_object_object_get(o, key);

	for (size_t i = 0; i < json_object_array_length(a); i++)
		printf("  %s %s\n", what, json_object_get_string(json_object_array_get_idx(a, i)));
}

/* Every run that left something: work directories under /run, and dm devices or loops
 * whose run has no directory any more. Touches nothing. */
static int list_all(bool json)
{
	_cleanup_(bo_closedirp) DIR *d = opendir("/run");
	_cleanup_json_ struct json_object *out = bo_json_new_doc();
	struct json_object *runs = json_object_new_array(), *orphans;
	bool have_dm;
	char **all = NULL;
	struct bo_err err = {0};
	struct dirent *de;

	if (!out || !runs) {
		json_object_put(runs);
		bo_cli_error("cleanup --list: out of memory");
		return BO_EXIT_HARNESS;
	}
	json_object_object_add(out, "runs", runs);
	if (bo_leftovers_dm(NULL, &all, &have_dm, &err) < 0) {
		bo_cli_error("cleanup --list: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	while (d && (de = readdir(d))) {
		const char *id = de->d_name + strlen("blackout-");

		if (strncmp(de->d_name, "blackout-", 9) || !bo_runid_valid(id))
			continue;
		json_object_array_add(runs, run_leftovers(id, all));
	}
	/* dm devices whose run's work directory is gone. */
	orphans = strv_json(all);
	json_object_object_add(out, "dm_without_run", orphans);
	bo_dm_list_free(all);
	if (json) {
		puts(json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
		return BO_EXIT_OK;
	}
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);

		printf("run %s:\n", bo_json_str(r, "run"));
		print_strings("dm", r, "dm");
		print_strings("loop", r, "loops");
		print_strings("mount", r, "mounts");
		printf("  directory %s\n", bo_json_str(r, "directory"));
	}
	for (size_t i = 0; i < json_object_array_length(orphans); i++)
		printf("dm %s (its run's work directory is gone)\n",
		       json_object_get_string(json_object_array_get_idx(orphans, i)));
	if (!json_object_array_length(runs) && !json_object_array_length(orphans))
		puts("no leftovers of any run");
	return BO_EXIT_OK;
}

struct cleanup_args {
	const char *runid;
	bool list, dry_run, json;
};

#define A(field) offsetof(struct cleanup_args, field)

static const struct bo_opt cleanup_opts[] = {
	{"run", "ID", A(runid), BO_OPT_HOST, NULL, NULL, "remove what run ID left behind"},
	{"dry-run", NULL, A(dry_run), BO_OPT_HOST, NULL, NULL,
	 "with --run: say what would be removed, remove nothing"},
	{"list", NULL, A(list), BO_OPT_HOST, NULL, NULL, "list the leftovers of every run"},
	{"json", NULL, A(json), BO_OPT_HOST, NULL, NULL,
	 "with --list: one JSON object (\"format\", \"runs\": run, directory,\n"
	 "dm, loops, mounts; \"dm_without_run\")"},
};

static void help(void)
{
	puts("usage: blackout cleanup --run ID [--dry-run]\n"
	     "       blackout cleanup --list [--json]\n"
	     "\n"
	     "Remove what the run ID left behind when it was killed: its processes, mounts under\n"
	     "/run/blackout-ID and on its mount area " BO_MNT_ROOT ", dm devices blackout-ID-*,\n"
	     "loop devices over its files and the directory. Each object removed is printed. "
	     "--list shows the leftovers of every run\n"
	     "and touches nothing; --dry-run says what --run would remove.\n");
	bo_opts_help(stdout, cleanup_opts, BO_ARRAY_SIZE(cleanup_opts));
	puts("  -h, --help       this text\n"
	     "\n"
	     "Exit status: 0 done (or nothing to do), 2 usage, 3 something could not be removed.");
}

static int cmd_cleanup(int argc, char **argv)
{
	struct cleanup_args a = {0};
	const struct bo_opt_set sets[] = {{cleanup_opts, BO_ARRAY_SIZE(cleanup_opts), &a}};
	int k = bo_opts_parse("cleanup", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, help, argc, argv);

	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k != argc || !!a.runid == a.list)
		return bo_cli_usage_error("cleanup", "give exactly one of --run ID and --list");
	if (a.json && !a.list)
		return bo_cli_usage_error("cleanup", "--json goes with --list");
	if (a.dry_run && a.list)
		return bo_cli_usage_error("cleanup", "--dry-run goes with --run");
	if (a.list)
		return list_all(a.json);
	/* Never a pattern, a path or an empty id: exactly one run's name. */
	if (!bo_runid_valid(a.runid))
		return bo_cli_usage_error("cleanup",
					  "'%s' is not a run id (letters, digits, '.', '_' "
					  "and '-', not starting with '.' or '-')",
					  a.runid);
	return cleanup_run(a.runid, a.dry_run);
}

const struct bo_cmd bo_cmd_cleanup = {
	"cleanup", cmd_cleanup, "remove what a killed run left behind; --list shows leftovers"};
