// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shipped.c — what of this host a results directory would put into a VM, judged against the
 * command line (shipped.h).
 */
#include "harness/cli/shipped.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"

int bo_cmd_host_files(const char *cmd, char ***ret)
{
	char **words = cmd ? bo_strv_split(cmd) : NULL, **v = calloc(1, sizeof(*v));
	size_t n = 0;

	if ((cmd && !words) || !v)
		goto oom;
	for (size_t i = 0; words && words[i]; i++) {
		struct stat st;
		char **nv;

		if (words[i][0] != '/' || stat(words[i], &st) < 0 ||
		    !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
			continue;
		nv = realloc(v, (n + 2) * sizeof(*v));
		if (!nv)
			goto oom;
		v = nv;
		if (!(v[n] = strdup(words[i])))
			goto oom;
		v[++n] = NULL;
	}
	bo_strv_free(words);
	*ret = v;
	return 0;
oom:
	bo_strv_free(words);
	bo_strv_free(v);
	return -ENOMEM;
}

void bo_shipped_add(struct bo_shipped *s, const char *path)
{
	char **nv;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], path))
			return;
	nv = realloc(s->v, (s->n + 2) * sizeof(*nv));
	if (!nv || !(nv[s->n] = strdup(path))) {
		if (nv)
			s->v = nv;
		s->oom = true;
		return;
	}
	s->v = nv;
	s->v[++s->n] = NULL;
}

void bo_shipped_add_config(struct bo_shipped *s, struct json_object *cfg)
{
	struct json_object *a;

	if (!cfg || !json_object_object_get_ex(cfg, "files", &a) ||
	    !json_object_is_type(a, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		if (json_object_is_type(e, json_type_string))
			bo_shipped_add(s, json_object_get_string(e));
	}
}

void bo_shipped_add_scenario(struct bo_shipped *s, const struct bo_scenario *sc)
{
	char **files = NULL;

	if (bo_scenario_files(sc, &files) < 0) {
		s->oom = true;
		return;
	}
	for (size_t i = 0; files[i]; i++)
		bo_shipped_add(s, files[i]);
	bo_strv_free(files);
	s->host_root |= sc->root_host;
}

void bo_shipped_add_command(struct bo_shipped *s, const char *cmd)
{
	char **files = NULL;

	if (bo_cmd_host_files(cmd, &files) < 0) {
		s->oom = true;
		return;
	}
	for (size_t i = 0; files[i]; i++)
		bo_shipped_add(s, files[i]);
	bo_strv_free(files);
}

/* Whether @given (a --file) names @path: the same, or a directory above it. */
static bool covers(const char *given, const char *path)
{
	size_t n = strlen(given);

	while (n > 1 && given[n - 1] == '/')
		n--;
	return !strncmp(given, path, n) &&
	       (path[n] == '\0' || path[n] == '/' || given[n - 1] == '/');
}

void bo_shipped_drop(struct bo_shipped *s, char *const *named)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++) {
		bool drop = false;

		for (size_t j = 0; named && named[j] && !drop; j++)
			drop = covers(named[j], s->v[i]);
		if (drop)
			free(s->v[i]);
		else
			s->v[k++] = s->v[i];
	}
	s->n = k;
	if (s->v)
		s->v[k] = NULL;
}

void bo_shipped_drop_command(struct bo_shipped *s, const char *cmd)
{
	char **files = NULL;

	if (bo_cmd_host_files(cmd, &files) < 0) {
		s->oom = true;
		return;
	}
	bo_shipped_drop(s, files);
	bo_strv_free(files);
}

int bo_shipped_judge(const struct bo_shipped *s, const struct vm_args *v, bool host_root,
		     const char *what, struct bo_err *err)
{
	_cleanup_free_ char *names = NULL, *opts = NULL;
	size_t nlen = 0, olen = 0, missing = 0;
	FILE *fn, *fo;

	if (s->oom)
		return bo_err_set(err, ENOMEM, "out of memory");
	fn = open_memstream(&names, &nlen);
	fo = fn ? open_memstream(&opts, &olen) : NULL;
	if (!fn || !fo) {
		if (fn)
			fclose(fn);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < s->n; i++) {
		_cleanup_free_ char *q = bo_shell_quote(s->v[i]);
		bool named = false;

		for (size_t j = 0; j < v->files.n && !named; j++)
			named = covers(v->files.v[j], s->v[i]);
		if (named)
			continue;
		fprintf(fn, "%s'%s'", missing++ ? ", " : "", s->v[i]);
		fprintf(fo, " --file %s", q ? q : s->v[i]);
	}
	if (s->host_root && !host_root) {
		fprintf(fn, "%sthe host's root ([vm] root = host)", missing++ ? ", " : "");
		fputs(" --host-root", fo);
	}
	if (fclose(fn) != 0 || fclose(fo) != 0)
		return bo_err_set(err, ENOMEM, "out of memory");
	if (!missing)
		return 0;
	return bo_err_set(err, EPERM,
			  "'%s' would put into the VM what it names of this host: %s; a results "
			  "directory may be a stranger's, and nothing of this host goes into a VM "
			  "unless the command line says so: to ship it, give%s",
			  what, names, opts);
}

void bo_shipped_clear(struct bo_shipped *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct bo_shipped){0};
}
