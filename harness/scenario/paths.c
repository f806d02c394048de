// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The paths of a scenario file and the scripts it runs: [vm] files, host files the guest
 * needs, and [workload] script and [check] script, program files that make the workload's or
 * the checker's command line. Paths are resolved against the scenario's directory and, on the
 * host, must be there (a script: executable, by the scenario's user too); each line that
 * named a relative path is kept with the path made absolute, so that the copy a run keeps
 * (bo_scenario_save()) means what the file meant from anywhere. bo_scenario_files() is what
 * of the host the guest is given.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/base/proc.h"
#include "harness/scenario/scenario_int.h"

/* @v resolved against the scenario's directory into @buf: absolute as it is, else joined. */
static int resolve(struct scenario_parser *p, const char *v, char *buf, size_t len)
{
	if (*v == '/')
		return bo_pathf(buf, len, "%s", v);
	return bo_pathf(buf, len, "%s/%s", p->sc->dir, v);
}

/* Remember that the value of the current line, @key, reads @value with its paths absolute. */
static int keep_path_line(struct scenario_parser *p, const char *key, const char *value)
{
	struct bo_scenario *sc = p->sc;
	struct bo_scenario_path *v = reallocarray(sc->paths, sc->npaths + 1, sizeof(*v));

	if (!v)
		return scenario_fail(p, ENOMEM, "out of memory");
	sc->paths = v;
	v[sc->npaths] = (struct bo_scenario_path){
		.line = p->lineno, .key = strdup(key), .value = strdup(value)};
	if (!v[sc->npaths].key || !v[sc->npaths].value) {
		free(v[sc->npaths].key);
		free(v[sc->npaths].value);
		return scenario_fail(p, ENOMEM, "out of memory");
	}
	sc->npaths++;
	return 1;
}

/* [vm] files = PATH...: each path resolved, and on the host, there. */
int scenario_set_files(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	struct bo_scenario *sc = p->sc;
	char **words = bo_strv_split(v);
	_cleanup_free_ char *line = NULL;
	size_t n = 0;
	int r = 1;

	if (!words)
		return scenario_fail(p, ENOMEM, "out of memory");
	if (!words[0]) {
		bo_strv_free(words);
		return scenario_fail(p, EINVAL, "[%s] %s: expected one or more paths",
				     scenario_label(p, k->section), k->name);
	}
	while (sc->files && sc->files[n])
		n++;
	for (size_t i = 0; r > 0 && words[i]; i++) {
		char path[PATH_MAX], **nv, *longer;
		struct bo_err e = {0};

		if (resolve(p, words[i], path, sizeof(path)) < 0) {
			r = scenario_fail(p, ENAMETOOLONG, "[%s] %s: '%s': path too long",
					  k->section, k->name, words[i]);
			break;
		}
		/* What the host can judge: a file that is not there, or that its copy into the
		 * VM would hang on (a FIFO) or never finish (/dev/zero), fails here. */
		if (p->o->host && bo_input_shippable(path, &e) < 0) {
			r = scenario_fail(p, e.errnum, "[%s] %s: %s", scenario_label(p, k->section),
					  k->name, bo_err_str(&e));
			break;
		}
		nv = reallocarray(sc->files, n + 2, sizeof(*nv));
		if (!nv || !(nv[n] = strdup(path))) {
			if (nv)
				sc->files = nv;
			r = scenario_fail(p, ENOMEM, "out of memory");
			break;
		}
		sc->files = nv;
		sc->files[++n] = NULL;
		if (asprintf(&longer, "%s%s%s", line ? line : "", line ? " " : "", path) < 0) {
			r = scenario_fail(p, ENOMEM, "out of memory");
			break;
		}
		free(line);
		line = longer;
	}
	bo_strv_free(words);
	return r > 0 ? keep_path_line(p, k->name, line) : r;
}

static void swap_str(char **a, char **b)
{
	char *t = *a;

	*a = *b;
	*b = t;
}

/* A script line, FILE [ARGS], of key @key in section @label: the program file resolved (on the
 * host: an executable regular file) into *@path, and the command line that runs it by that
 * path, the rest of the line shell words added, into *@cmd (both malloc'd). 1, or 0 with the
 * parse failed. */
int scenario_script(struct scenario_parser *p, const char *label, const char *key, const char *v,
		    char **path_ret, char **cmd_ret)
{
	size_t flen = strcspn(v, " \t");
	const char *args = v + flen + strspn(v + flen, " \t");
	char file[PATH_MAX], path[PATH_MAX];
	_cleanup_free_ char *q = NULL, *cmd = NULL, *line = NULL;
	struct stat st;

	if (!flen)
		return scenario_fail(p, EINVAL, "[%s] %s: expected a file", label, key);
	if (flen >= sizeof(file))
		return scenario_fail(p, ENAMETOOLONG, "[%s] %s: path too long", label, key);
	memcpy(file, v, flen);
	file[flen] = '\0';
	if (resolve(p, file, path, sizeof(path)) < 0)
		return scenario_fail(p, ENAMETOOLONG, "[%s] %s: '%s': path too long", label, key,
				     file);
	if (p->o->host) {
		if (stat(path, &st) < 0)
			return scenario_fail(p, errno, "[%s] %s: '%s': %s", label, key, path,
					     strerror(errno));
		if (!S_ISREG(st.st_mode))
			return scenario_fail(p, EINVAL, "[%s] %s: '%s' is not a regular file",
					     label, key, path);
		if (access(path, X_OK) < 0)
			return scenario_fail(p, EACCES,
					     "[%s] %s: '%s' is not executable (chmod +x it)", label,
					     key, path);
	}
	/* The script is shipped (bo_scenario_files()); its command line runs it by path. */
	q = bo_shell_quote(path);
	if (!q || asprintf(&cmd, "%s%s%s", q, *args ? " " : "", args) < 0) {
		cmd = NULL;
		return scenario_fail(p, ENOMEM, "out of memory");
	}
	if (asprintf(&line, "%s%s%s", path, *args ? " " : "", args) < 0) {
		line = NULL;
		return scenario_fail(p, ENOMEM, "out of memory");
	}
	if (!(*path_ret = strdup(path)))
		return scenario_fail(p, ENOMEM, "out of memory");
	*cmd_ret = BO_TAKE_PTR(cmd);
	return keep_path_line(p, key, line);
}

/* [workload] script, [check] script = FILE [ARGS]: a program file, resolved (on the host: an
 * executable regular file), and the rest of the line, shell words added to its command line. */
int scenario_set_script(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	_cleanup_free_ char *path = NULL, *cmd = NULL;

	if (scenario_script(p, scenario_label(p, k->section), k->name, v, &path, &cmd) <= 0)
		return 0;
	if (scenario_set_string(p, k, path) <= 0)
		return 0;
	if (!strcmp(k->section, "workload"))
		swap_str(&p->sc->command, &cmd);
	else
		swap_str(&p->sc->checker_command, &cmd);
	return 1;
}

/* On the host: the scenario's user can run its scripts. The guest keeps the host's modes and
 * owners, in its own root and in the host's, so what fails here would fail there. */
int scenario_user_reaches_scripts(struct scenario_parser *p)
{
	const struct bo_scenario *sc = p->sc;
	const char *const scripts[][2] = {
		{"workload", sc->workload_script},
		{"check", sc->checker_script},
	};
	struct bo_proc_user u;
	struct bo_err e = {0};

	if (bo_proc_user_lookup(sc->user, &u, &e) < 0)
		return scenario_invalid(p, "workload", "user", "%s", bo_err_str(&e));
	for (size_t i = 0; i < BO_ARRAY_SIZE(scripts); i++)
		if (scripts[i][1] && bo_proc_user_access(&u, scripts[i][1], R_OK | X_OK, &e) < 0) {
			(void) !scenario_invalid(p, scripts[i][0], "script", "%s", bo_err_str(&e));
			if (p->err)
				p->err->errnum = e.errnum;
			return -e.errnum;
		}
	/* The nodes of a cluster run as the workload's user too. */
	for (size_t i = 0; sc->node_scripts && sc->node_scripts[i]; i++)
		if (bo_proc_user_access(&u, sc->node_scripts[i], R_OK | X_OK, &e) < 0) {
			(void) !scenario_invalid(p, "workload", "user", "the nodes run as it: %s",
						 bo_err_str(&e));
			if (p->err)
				p->err->errnum = e.errnum;
			return -e.errnum;
		}
	return 0;
}

/* The directory of @origin, absolute (relative paths in the file are relative to it). */
char *scenario_origin_dir(const char *origin)
{
	char abs[PATH_MAX];
	const char *slash;

	if (realpath(origin, abs)) {
		slash = strrchr(abs, '/');
		return strndup(abs, slash == abs ? 1 : (size_t) (slash - abs));
	}
	/* Text that is no file (tests, fuzzing): its name's directory as it stands. */
	slash = strrchr(origin, '/');
	return slash ? strndup(origin, (size_t) (slash - origin)) : strdup(".");
}

int bo_scenario_text(const struct bo_scenario *sc, char **ret, size_t *ret_len)
{
	const char *text = sc->text;
	size_t len = sc->text_len, pos = 0;
	char *out = NULL;
	size_t olen = 0;
	FILE *f = open_memstream(&out, &olen);
	int line = 0;

	if (!f)
		return -ENOMEM;
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t) (nl - l) + 1 : len - pos;
		const struct bo_scenario_path *sp = NULL;

		line++;
		for (size_t i = 0; i < sc->npaths; i++)
			if (sc->paths[i].line == line)
				sp = &sc->paths[i];
		if (sp)
			fprintf(f, "%s = %s\n", sp->key, sp->value);
		else
			fwrite(l, 1, n, f);
		pos += n;
	}
	if (fclose(f) != 0) {
		free(out);
		return -ENOMEM;
	}
	*ret = out;
	*ret_len = olen;
	return 0;
}

int bo_scenario_save(const struct bo_scenario *sc, const char *dst, struct bo_err *err)
{
	_cleanup_free_ char *out = NULL;
	_cleanup_close_ int fd = -1;
	size_t olen = 0;
	int r;

	if (bo_scenario_text(sc, &out, &olen) < 0)
		return bo_err_set(err, ENOMEM, "out of memory");
	fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return bo_err_set(err, errno, "creating '%s': %s", dst, strerror(errno));
	r = bo_pwrite_full(fd, out, olen, 0);
	if (r < 0)
		return bo_err_set(err, -r, "writing '%s': %s", dst, strerror(-r));
	return 0;
}

int bo_scenario_files(const struct bo_scenario *sc, char ***ret)
{
	size_t n = 0, k = 0;
	char **v;

	while (sc->files && sc->files[n])
		n++;
	v = calloc(n + 3 + 2 * BO_CLUSTER_MAX, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!(v[k++] = strdup(sc->files[i])))
			goto fail;
	if (sc->workload_script && !(v[k++] = strdup(sc->workload_script)))
		goto fail;
	if (sc->checker_script && !(v[k++] = strdup(sc->checker_script)))
		goto fail;
	for (size_t i = 0; sc->node_scripts && sc->node_scripts[i]; i++)
		if (!(v[k++] = strdup(sc->node_scripts[i])))
			goto fail;
	*ret = v;
	return 0;
fail:
	bo_strv_free(v);
	return -ENOMEM;
}
