// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A workload of its own in `blackout export` (docs/export.md, "A workload of its own"): what
 * run.sh runs in repro's place, and what goes beside it. A builtin application (SQLite, kvd,
 * ...) goes as its program from blackout's libexec directory, with its checker mode; a
 * scenario's own command line (a script, a daemon's) goes as it ran, with the files the
 * scenario ships to the VM (its scripts, [vm] files) copied under files/ at their own paths,
 * and the command lines reading them from there. Installed software the scenario names
 * (/usr/bin/etcd) is not copied: run.sh needs it on the machine, and says so.
 */
#include <dirent.h>
#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/base/sanitize.h"
#include "harness/cli/cli.h"
#include "harness/cli/export.h"
#include "harness/scenario/builtin.h"

/* Where installed software lives: what the scenario names there is the machine's, not
 * copied. */
static const char *const installed[] = {"/usr/",   "/bin/", "/sbin/", "/lib/",
					"/lib64/", "/etc/", "/opt/",  NULL};

static bool is_installed(const char *path)
{
	for (const char *const *p = installed; *p; p++)
		if (!strncmp(path, *p, strlen(*p)))
			return true;
	return false;
}

/* A path run.sh's command lines can name unquoted: what bo_shell_quote() leaves as it is. */
static bool plain_path(const char *path)
{
	return path[0] == '/' &&
	       strspn(path,
		      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._+-") ==
		       strlen(path);
}

/* @cmd with each path of @copied it names read from under $BO_FILES, quoted for `sh -c`, as
 * the text after `exec /bin/sh -c ` into *@ret. */
static int rewrite(const char *cmd, char *const *copied, char **ret)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return -ENOMEM;
	for (const char *c = cmd; *c;) {
		size_t best = 0;

		/* a copied path where a word starts, followed by the end of a word or a '/' */
		if (c == cmd || c[-1] == ' ' || c[-1] == '\'' || c[-1] == '"')
			for (size_t i = 0; copied[i]; i++) {
				size_t n = strlen(copied[i]);

				if (n > best && !strncmp(c, copied[i], n) &&
				    strchr(" /'\";", c[n] ? c[n] : ' '))
					best = n;
			}
		if (best) {
			fputs("\"$BO_FILES\"", f);
			fwrite(c, 1, best, f);
			c += best;
		} else {
			fputc(*c++, f);
		}
	}
	if (fclose(f) != 0)
		return -ENOMEM;
	*ret = bo_shell_quote(text);
	return *ret ? 0 : -ENOMEM;
}

int bo_export_workload_make(const struct bo_scenario *sc, const char *dir,
			    struct bo_export_workload *w)
{
	const struct bo_builtin *b =
		sc->workload == BO_WORKLOAD_BUILTIN ? bo_builtin_find(sc->builtin) : NULL;
	_cleanup_free_ char *cmd = NULL, *chk = NULL, *qcmd = NULL, *qchk = NULL;
	char **files = NULL;
	size_t nf = 0, nc = 0, nn = 0;
	char path[PATH_MAX];

	if (b) {
		if (sc->checker != BO_CHECKER_BUILTIN)
			return bo_cli_error("export: '%s': a builtin workload goes with its own "
					    "checker, not another [check] checker",
					    dir),
			       -1;
		if (bo_pathf(path, sizeof(path), "%s/%s", bo_libexec_dir(), b->exe) < 0 ||
		    access(path, X_OK) < 0)
			return bo_cli_error("export: the workload's program '%s' is not here: %s",
					    path, strerror(errno)),
			       -1;
		w->exe = b->exe;
	} else if (sc->checker != BO_CHECKER_COMMAND) {
		return bo_cli_error("export: '%s': its workload has no checker to say what "
				    "survived: nothing to judge a reproduction by",
				    dir),
		       -1;
	}
	if (bo_scenario_workload_command(sc, &cmd) < 0 ||
	    bo_scenario_checker_command(sc, &chk) < 0 || !chk || bo_scenario_files(sc, &files) < 0)
		return bo_cli_error("export: out of memory"), -1;
	while (files[nf])
		nf++;
	w->copied = calloc(nf + 1, sizeof(char *));
	w->needed = calloc(nf + 1, sizeof(char *));
	for (size_t i = 0; w->copied && w->needed && files[i]; i++) {
		if (!plain_path(files[i])) {
			_cleanup_free_ char *clean = bo_sanitize(files[i], true);

			bo_strv_free(files);
			return bo_cli_error(
				       "export: '%s': the file '%s' it ships has a name run.sh "
				       "cannot rewrite",
				       dir, clean ? clean : "?"),
			       -1;
		}
		if (is_installed(files[i]))
			w->needed[nn++] = strdup(files[i]);
		else
			w->copied[nc++] = strdup(files[i]);
	}
	bo_strv_free(files);
	if (!w->copied || !w->needed)
		return bo_cli_error("export: out of memory"), -1;
	if (w->exe) {
		/* a builtin's words are plain: its program read from beside the scripts */
		const char *rest = cmd + strlen(w->exe), *crest = chk + strlen(w->exe);

		if (asprintf(&w->cmd, "\"$here\"/%s%s", w->exe, rest) < 0 ||
		    asprintf(&w->checker, "\"$here\"/%s%s", w->exe, crest) < 0)
			return bo_cli_error("export: out of memory"), -1;
		w->line = strdup(cmd);
		w->check_line = strdup(chk);
	} else {
		if (rewrite(cmd, w->copied, &qcmd) < 0 || rewrite(chk, w->copied, &qchk) < 0 ||
		    asprintf(&w->cmd, "/bin/sh -c %s", qcmd) < 0 ||
		    asprintf(&w->checker, "/bin/sh -c %s", qchk) < 0)
			return bo_cli_error("export: out of memory"), -1;
		w->line = strdup(sc->command);
		w->check_line = strdup(sc->checker_command);
	}
	w->user = sc->user;
	return w->line && w->check_line ? 0 : (bo_cli_error("export: out of memory"), -1);
}

void bo_export_workload_clear(struct bo_export_workload *w)
{
	free(w->cmd);
	free(w->checker);
	free(w->line);
	free(w->check_line);
	bo_strv_free(w->copied);
	bo_strv_free(w->needed);
	*w = (struct bo_export_workload){0};
}

/* Copy the file or tree @src to @dst (made), as it is: modes kept, links as links. */
static int copy_tree(const char *src, const char *dst, int depth)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int r = 0;

	if (depth > 16 || lstat(src, &st) < 0)
		return depth > 16 ? (errno = ELOOP, -1) : -1;
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlink(src, target, sizeof(target) - 1);

		if (n < 0)
			return -1;
		target[n] = '\0';
		return symlink(target, dst) < 0 && errno != EEXIST ? -1 : 0;
	}
	if (S_ISREG(st.st_mode)) {
		struct bo_err err = {0};

		/* a file shipped twice (a script inside a shipped folder) is there already */
		if (access(dst, F_OK) == 0)
			return 0;
		if (bo_copy_file(src, dst, &err) < 0)
			return errno = err.errnum, -1;
		return chmod(dst, st.st_mode & 07777);
	}
	if (!S_ISDIR(st.st_mode))
		return errno = EINVAL, -1;
	if ((mkdir(dst, (st.st_mode & 07777) | 0700) < 0 && errno != EEXIST) || !(d = opendir(src)))
		return -1;
	while (r == 0 && (e = readdir(d))) {
		char s[PATH_MAX], t[PATH_MAX];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (bo_pathf(s, sizeof(s), "%s/%s", src, e->d_name) < 0 ||
		    bo_pathf(t, sizeof(t), "%s/%s", dst, e->d_name) < 0)
			r = (errno = ENAMETOOLONG, -1);
		else
			r = copy_tree(s, t, depth + 1);
	}
	closedir(d);
	return r;
}

int bo_export_workload_write(const char *out, const struct bo_export_workload *w)
{
	char src[PATH_MAX], dst[PATH_MAX];

	if (w->exe) {
		if (bo_pathf(src, sizeof(src), "%s/%s", bo_libexec_dir(), w->exe) < 0 ||
		    bo_pathf(dst, sizeof(dst), "%s/%s", out, w->exe) < 0)
			return errno = ENAMETOOLONG, -1;
		return copy_tree(src, dst, 0);
	}
	for (size_t i = 0; w->copied[i]; i++) {
		char *slash;
		int r;

		if (bo_pathf(dst, sizeof(dst), "%s/files%s", out, w->copied[i]) < 0)
			return errno = ENAMETOOLONG, -1;
		slash = strrchr(dst, '/');
		*slash = '\0';
		r = bo_mkdir_p(dst);
		*slash = '/';
		if (r < 0)
			return errno = -r, -1;
		if (copy_tree(w->copied[i], dst, 0) < 0)
			return -1;
	}
	return 0;
}

/* @paths as a Markdown list after @title, into @f; nothing without any. */
static void list(FILE *f, char *const *paths, const char *title)
{
	if (!paths[0])
		return;
	fprintf(f, "%s\n\n", title);
	for (size_t i = 0; paths[i]; i++)
		fprintf(f, "- `%s`\n", paths[i]);
	fprintf(f, "\n");
}

void bo_export_workload_report(FILE *f, const struct bo_export_workload *w, uint64_t upto)
{
	fprintf(f, "## Reproduce\n\n```sh\nsudo ./run.sh              # or: sudo ./run.sh "
		   "/dev/SCRATCH\n```\n\n");
	fprintf(f,
		"run.sh runs the workload `%s` on the filesystem%s%s, with `ctl` (ctl.c) standing "
		"in for blackout's control channel: it cuts the power right after op %" PRIu64
		"'s acknowledgement. After the recovery the workload's checker, `%s`, says which "
		"ops it sees. run.sh exits 1 with a line `LOST: ...` where an acknowledged op is "
		"not seen (or the checker fails), 0 where every one is.\n\n",
		w->line, w->user ? " as user " : "", w->user ? w->user : "", upto, w->check_line);
	if (w->exe)
		fprintf(f,
			"Its program is beside run.sh, built on the machine blackout runs on: "
			"`ldd %s` lists the libraries it needs.\n\n",
			w->exe);
	list(f, w->copied,
	     "The files the scenario ships with it are under `files/`, at their "
	     "own paths:");
	list(f, w->needed,
	     "It needs these installed on the machine (run.sh says which is "
	     "missing):");
}
