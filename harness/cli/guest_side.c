// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * guest_side.c — what the guest sides of run, check and shrink share (guest_side.h): the
 * command line the host starts them with, and their session inside the VM.
 */
#include "harness/cli/guest_side.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/base/safety.h"
#include "harness/cli/cli.h"
#include "harness/dev/mntarea.h"
#include "harness/dev/teardown.h"
#include "harness/diagnose/diag.h"
#include "vm/guest.h"
#include "vm/share.h"
#include "vm/vm.h"

const struct bo_opt bo_guest_opts[] = {
	{"results", "DIR", offsetof(struct bo_guest_args, results), BO_OPT_GUEST, NULL, NULL, NULL},
	{"run-id", "ID", offsetof(struct bo_guest_args, runid), BO_OPT_GUEST, NULL, NULL, NULL},
	{"libexec", "DIR", offsetof(struct bo_guest_args, libexec), BO_OPT_GUEST, NULL, NULL, NULL},
	{"allow-host", NULL, offsetof(struct bo_guest_args, allow_host), BO_OPT_GUEST, NULL, NULL,
	 NULL},
	{"user", "NAME:UID:GID:HOME:GROUPS", offsetof(struct bo_guest_args, user), BO_OPT_GUEST,
	 NULL, NULL, NULL},
	{"host-root", NULL, offsetof(struct bo_guest_args, host_root), BO_OPT_GUEST, NULL, NULL,
	 NULL},
};
const size_t bo_guest_opts_n = BO_ARRAY_SIZE(bo_guest_opts);

int bo_guest_argv(struct bo_argv *a, const char *cmd, const char *runid,
		  const struct bo_scenario *sc, struct bo_err *err)
{
	struct bo_proc_user u;
	char word[512];
	int r;

	bo_argv_add(a, bo_self_exe());
	/* -q reaches the guest side too: its notes (the lint) are as quiet as the host's. */
	if (bo_cli_quiet)
		bo_argv_add(a, "-q");
	bo_argv_add(a, cmd);
	bo_argv_add(a, "--results");
	bo_argv_add(a, BO_VM_SHARE_GUEST);
	bo_argv_add(a, "--run-id");
	bo_argv_add(a, runid);
	bo_argv_add(a, "--libexec");
	bo_argv_add(a, bo_libexec_dir());
	if (sc && sc->user) {
		/* The account as the host has it: the guest makes it with the same ids. */
		r = bo_proc_user_lookup(sc->user, &u, err);
		if (r >= 0 && bo_proc_user_format(&u, word, sizeof(word)) < 0)
			r = bo_err_set(err, ENAMETOOLONG, "user '%s': too many groups", sc->user);
		if (r < 0)
			return r;
		bo_argv_add(a, "--user");
		bo_argv_add(a, word);
	}
	if (sc && sc->root_host)
		bo_argv_add(a, "--host-root");
	return a->oom ? bo_err_set(err, ENOMEM, "out of memory") : 0;
}

int bo_guest_vm_for(const struct bo_scenario *sc, struct vm_args *v, char ***ret_ship)
{
	int r = bo_scenario_files(sc, ret_ship);

	if (r < 0)
		return r;
	v->ship = *ret_ship;
	v->host_root = sc->root_host;
	/* Its filesystems, once each, for the kernel config check. */
	memset(v->fs, 0, sizeof(v->fs));
	for (size_t i = 0, n = 0; i < (sc->ndevices ? sc->ndevices : 1); i++) {
		const char *fs = bo_fs_name(sc->ndevices ? sc->devices[i].fs : sc->fs);
		bool seen = sc->ndevices && sc->devices[i].raw;

		for (size_t j = 0; j < n && !seen; j++)
			seen = !strcmp(v->fs[j], fs);
		if (!seen && n + 1 < BO_ARRAY_SIZE(v->fs))
			v->fs[n++] = fs;
	}
	/* The scenario's kernel, unless the command line named one or runs in place (on the
	 * kernel this machine booted, whatever the scenario would boot). */
	if (!bo_vm_args_kernel_named(v)) {
		v->kernel_release = sc->kernel;
		v->kernel_tree = sc->kernel_tree;
	}
	return 0;
}

/* The guest's PATH after the workload programs' directory. */
#define GUEST_PATH "/usr/sbin:/usr/bin:/sbin:/bin"

int bo_guest_env(struct bo_guest_env *e, const char *libexec, uint64_t workload_seed,
		 struct bo_err *err)
{
	bo_guest_env_clear(e);
	snprintf(e->seed, sizeof(e->seed), "BLACKOUT_SEED=%" PRIu64, workload_seed);
	if (asprintf(&e->path, "PATH=%s:" GUEST_PATH, libexec) < 0) {
		e->path = NULL;
		return bo_err_set(err, ENOMEM, "checker environment");
	}
	e->v[0] = e->seed;
	e->v[1] = e->path;
	e->v[2] = NULL;
	return 0;
}

void bo_guest_env_clear(struct bo_guest_env *e)
{
	free(e->path);
	*e = (struct bo_guest_env){0};
}

/* Whether @name is a builtin or a keyword of a POSIX shell (dash, busybox ash): no file. */
static bool shell_word(const char *name)
{
	static const char *const words[] = {
		"!",	 "{",	    "}",      ".",	 ":",	     "[",	 "alias",  "bg",
		"break", "case",    "cd",     "command", "continue", "do",	 "done",   "echo",
		"elif",	 "else",    "esac",   "eval",	 "exec",     "exit",	 "export", "false",
		"fc",	 "fg",	    "fi",     "for",	 "getopts",  "hash",	 "if",	   "jobs",
		"kill",	 "local",   "printf", "pwd",	 "read",     "readonly", "return", "set",
		"shift", "test",    "then",   "times",	 "trap",     "true",	 "type",   "ulimit",
		"umask", "unalias", "unset",  "until",	 "wait",     "while",
	};

	for (size_t i = 0; i < BO_ARRAY_SIZE(words); i++)
		if (!strcmp(name, words[i]))
			return true;
	return false;
}

/* Whether @path is an executable regular file here. */
static bool runnable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int bo_guest_command_ok(const char *cmd, const char *libexec, struct bo_err *err)
{
	char word[PATH_MAX], path[PATH_MAX];
	size_t len;

	cmd += strspn(cmd, " \t\n");
	len = strcspn(cmd, " \t\n;&|<>()");
	if (len == 0)
		return *cmd ? 0 : bo_err_set(err, EINVAL, "an empty command");
	/* Quoted, expanded, globbed or assigned: the shell's to read, in the guest. */
	if (len >= sizeof(word) || memchr(cmd, '=', len) || strcspn(cmd, "'\"\\`$*?[~") < len)
		return 0;
	memcpy(word, cmd, len);
	word[len] = '\0';
	if (word[0] == '/') {
		struct stat st;

		if (stat(word, &st) < 0)
			return bo_err_set(err, errno,
					  "'%s': %s (the VM runs it from the same path)", word,
					  strerror(errno));
		if (!S_ISREG(st.st_mode) || access(word, X_OK) < 0)
			return bo_err_set(err, EACCES,
					  "'%s' is not an executable file (the VM runs it from "
					  "the same path)",
					  word);
		return 0;
	}
	if (strchr(word, '/') || shell_word(word))
		return 0;
	if (bo_pathf(path, sizeof(path), "%s/%s", libexec, word) == 0 && runnable(path))
		return 0;
	for (const char *d = GUEST_PATH; *d;) {
		size_t n = strcspn(d, ":");

		if (snprintf(path, sizeof(path), "%.*s/%s", (int) n, d, word) <
			    (int) sizeof(path) &&
		    runnable(path))
			return 0;
		d += n + (d[n] == ':');
	}
	return bo_err_set(err, ENOENT,
			  "'%s': no such program in %s or " GUEST_PATH
			  " (the checker's PATH in the VM); give its absolute path",
			  word, libexec);
}

int bo_guest_checker_ok(const struct bo_scenario *sc, struct bo_err *err)
{
	_cleanup_free_ char *cmd = NULL;
	int r;

	if (bo_scenario_checker_command(sc, &cmd) < 0)
		return bo_err_set(err, ENOMEM, "out of memory");
	r = cmd ? bo_guest_command_ok(cmd, bo_libexec_dir(), err) : 0;
	if (r < 0)
		bo_err_prefix(err, "scenario '%s': [check] checker", sc->origin);
	return r;
}

int bo_guest_tmpfs(const char *path, bool pass, struct bo_err *err)
{
	mode_t mode = pass ? 0711 : 0700;
	char opts[64];

	snprintf(opts, sizeof(opts), "size=95%%,mode=0%o", (unsigned) mode);
	if (mkdir(path, mode) < 0)
		return bo_err_set(err, errno, "creating work directory '%s': %s", path,
				  strerror(errno));
	if (mount("blackout", path, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0) {
		int e = errno;

		rmdir(path);
		return bo_err_set(err, e, "mounting a tmpfs on '%s': %s", path, strerror(e));
	}
	return 0;
}

int bo_guest_tmpfs_drop(const char *path, struct bo_err *err)
{
	if (umount2(path, 0) < 0)
		return bo_err_set(err, errno, "unmounting work directory '%s': %s", path,
				  strerror(errno));
	if (rmdir(path) < 0)
		return bo_err_set(err, errno, "removing '%s': %s", path, strerror(errno));
	return 0;
}

static int undo_workdir(const char *dir, void *ctx, struct bo_err *err)
{
	return bo_guest_tmpfs_drop(dir, err);
}

int bo_guest_workdir(struct bo_guest *g, struct bo_err *err)
{
	char dir[PATH_MAX];
	struct bo_err e2;
	int r;

	if (bo_pathf(dir, sizeof(dir), "%s%s", BO_WORKDIR_PREFIX, g->args->runid) < 0)
		return bo_err_set(err, ENAMETOOLONG, "work directory of run '%s'", g->args->runid);
	/* A workload of another account reaches its file system through here: it may pass,
	 * not look. */
	r = bo_guest_tmpfs(dir, g->user != NULL, err);
	if (r < 0)
		return r;
	r = bo_teardown_push(g->td, "workdir", dir, undo_workdir, NULL, err);
	if (r < 0) {
		(void) !bo_guest_tmpfs_drop(dir, &e2);
		return r;
	}
	snprintf(g->workdir, sizeof(g->workdir), "%s", dir);
	/* Where the workload and every crash state are mounted: one place for all. */
	r = bo_mnt_area_setup(g->args->runid, g->td, err);
	if (r < 0)
		return r;
	return bo_test_stall("workdir", err);
}

int bo_guest_repro_arg(char **out, const char *flag, const char *val)
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

/* Append @line to the file @path. */
static int append_line(const char *path, const char *line, struct bo_err *err)
{
	_cleanup_fclose_ FILE *f = fopen(path, "ae");

	if (!f || fputs(line, f) == EOF || fflush(f) == EOF)
		return bo_err_set(err, errno ? errno : EIO, "writing '%s': %s", path,
				  strerror(errno ? errno : EIO));
	return 0;
}

/* The account @u in the guest's /etc/passwd and /etc/group: its own group, and each of its
 * supplementary groups by number (their names are the host's business). */
static int add_account(const struct bo_proc_user *u, struct bo_err *err)
{
	char line[512];
	int r;

	snprintf(line, sizeof(line), "%s:x:%u:%u::%s:/bin/sh\n", u->name, (unsigned) u->uid,
		 (unsigned) u->gid, u->home);
	r = append_line("/etc/passwd", line, err);
	snprintf(line, sizeof(line), "%s:x:%u:\n", u->name, (unsigned) u->gid);
	if (r >= 0)
		r = append_line("/etc/group", line, err);
	for (int i = 0; r >= 0 && i < u->ngroups; i++) {
		if (u->groups[i] == u->gid)
			continue;
		snprintf(line, sizeof(line), "g%u:x:%u:%s\n", (unsigned) u->groups[i],
			 (unsigned) u->groups[i], u->name);
		r = append_line("/etc/group", line, err);
	}
	return r;
}

int bo_guest_identity(const struct bo_guest_args *a, const char *cmd, struct bo_proc_user *buf,
		      const struct bo_proc_user **user, const char **root)
{
	struct bo_err err = {0};

	*user = NULL;
	*root = a->host_root ? BO_HOSTROOT_GUEST : NULL;
	if (!a->user)
		return 0;
	if (bo_proc_user_parse(a->user, buf) < 0)
		return -bo_cli_usage_error(cmd, "--user '%s': expected NAME:UID:GID:HOME:GROUPS",
					   a->user);
	*user = buf;
	/* In the guest's own root the account is made as the host has it; the host's root has
	 * it already. */
	if (!*root && !getpwnam(buf->name) && add_account(buf, &err) < 0) {
		bo_cli_error("%s: %s", cmd, bo_err_str(&err));
		return -EIO;
	}
	return 0;
}

static void report_teardown(void *rctx, const char *kind, const char *arg, const struct bo_err *err)
{
	char msg[PATH_MAX + 1024];

	snprintf(msg, sizeof(msg), "teardown of %s '%s' failed: %s", kind, arg, bo_err_str(err));
	bo_summary_error(rctx, msg);
}

int bo_guest_start(struct bo_guest *g, const char *cmd, const struct bo_guest_args *a)
{
	struct bo_err err = {0};

	*g = (struct bo_guest){.cmd = cmd, .args = a};
	g->libexec = a->libexec ? a->libexec : bo_libexec_dir();
	if (!a->results || !a->runid)
		return -bo_cli_usage_error(cmd, "--results and --run-id are required");
	if (!bo_runid_valid(a->runid)) {
		bo_cli_error("%s: '%s' is not a valid run id (letters, digits, '.', '_', '-')", cmd,
			     a->runid);
		return -EINVAL;
	}
	if (bo_own_dm_allowed(cmd, bo_vm_inside(), a->allow_host, &err) < 0) {
		bo_cli_error("%s", bo_err_str(&err));
		return -EPERM;
	}
	if (bo_teardown_new(4, report_teardown, &g->sum, &g->td) < 0) {
		bo_cli_error("%s: out of memory", cmd);
		return -ENOMEM;
	}
	if (bo_guest_identity(a, cmd, &g->user_buf, &g->user, &g->root) < 0)
		return -EINVAL;
	bo_stop_install();
	if (bo_results_open(a->results, &g->res, &err) < 0) {
		bo_teardown_free(g->td);
		g->td = NULL;
		bo_cli_error("%s", bo_err_str(&err));
		return -EIO;
	}
	/* A missing tool is noted in the diagnostics; what fails here is writing the results. */
	if (bo_diag_capture(g->res, "pre", &err) < 0)
		bo_summary_error(&g->sum, bo_err_str(&err));
	return 0;
}

/* Nothing of the run may be left in the kernel: assert it, then unwind the guest's own
 * teardown stack (the work directory). */
static void check_leftovers(struct bo_guest *g)
{
	struct bo_err err = {0};
	char left[2048];
	int n = bo_diag_leftovers(g->args->runid, g->workdir, left, sizeof(left), &err);

	if (n < 0) {
		bo_summary_error(&g->sum, bo_err_str(&err));
	} else if (n > 0) {
		char msg[2200];

		snprintf(msg, sizeof(msg), "%d objects of run %s were left behind:\n%s", n,
			 g->args->runid, left);
		bo_summary_error(&g->sum, msg);
	}
	(void) !bo_teardown_unwind(g->td);
}

int bo_guest_finish(struct bo_guest *g, int r, const struct bo_err *rerr, struct bo_log *log)
{
	struct json_object *o;
	struct bo_err err = {0};
	int ret;

	if (r < 0)
		bo_summary_error(&g->sum, bo_err_str(rerr));
	bo_log_free(log);
	if (g->workdir[0])
		check_leftovers(g);
	bo_teardown_free(g->td);
	g->td = NULL;
	bo_guest_env_clear(&g->env);

	if (bo_diag_capture(g->res, "post", &err) < 0)
		bo_summary_error(&g->sum, bo_err_str(&err));
	err = (struct bo_err){0};
	o = bo_summary_json(&g->sum);
	if (!o || bo_results_write_json(g->res, "summary.json", o, &err) < 0) {
		/* The run's own error first: a full results filesystem fails both. */
		if (g->sum.error[0])
			bo_cli_error("%s", g->sum.error);
		bo_cli_error("writing summary.json: %s", o ? bo_err_str(&err) : "out of memory");
		json_object_put(o);
		bo_results_free(g->res);
		g->res = NULL;
		return BO_EXIT_HARNESS;
	}
	json_object_put(o);
	if (g->sum.error[0])
		bo_cli_error("%s", g->sum.error);
	ret = bo_verdict_exit(bo_summary_verdict(&g->sum));
	/* The stream's last record says it is complete. */
	if (bo_results_emit(g->res, "end", json_object_new_object(), &err) < 0) {
		bo_cli_error("%s", bo_err_str(&err));
		ret = BO_EXIT_HARNESS;
	}
	bo_results_free(g->res);
	g->res = NULL;
	return ret;
}

int bo_guest_scenario(const char *path, struct bo_scenario **ret, struct bo_err *err)
{
	const struct bo_scenario_opts o = {.host = false};

	return bo_scenario_load_opts(path, &o, ret, err);
}

int bo_guest_devices(const struct bo_scenario *sc, const struct bo_log *log, struct bo_layout *l,
		     struct bo_explore_opts *eo, struct bo_err *err)
{
	const struct bo_layout *logs = bo_log_layout(log);
	char a[512], b[512];

	eo->primary = -1;
	eo->layout = NULL;
	if (sc && sc->ndevices) {
		bo_scenario_layout(sc, l);
		/* A log recorded for other devices would be mounted wrong. */
		if (logs->n && (bo_layout_format(l, a, sizeof(a)) < 0 ||
				bo_layout_format(logs, b, sizeof(b)) < 0 || strcmp(a, b)))
			return bo_err_set(err, EINVAL,
					  "the scenario's devices are not the log's: '%s' and '%s'",
					  a, b);
		for (size_t i = 0; i < sc->ndevices; i++)
			eo->dev_mount_options[i] = sc->devices[i].mount_options;
		eo->primary = sc->primary;
		/* A cluster's nodes are restarted on their devices for every state. */
		eo->cluster = sc->cluster;
	} else if (logs->n) {
		*l = *logs;
		for (unsigned i = 0; i < l->n && eo->primary < 0; i++)
			if (strcmp(l->v[i].kind, "raw"))
				eo->primary = (int) i;
	} else {
		return 0;
	}
	eo->layout = l;
	return 0;
}
