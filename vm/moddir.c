// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * moddir.c — read a kernel module directory from the text files depmod writes.
 *
 * Formats (kmod's depmod, tools/depmod.c): "path: dep dep ..." per module in modules.dep,
 * "softdep MOD pre: a b post: c" in modules.softdep, "alias PATTERN MOD" in modules.alias,
 * one path per line in modules.builtin, and NUL-separated "MOD.KEY=VALUE" records in
 * modules.builtin.modinfo (the kernel's Makefile writes it; "alias" keys are the built-ins'
 * aliases).
 */
#include "vm/moddir.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"

#define MAX_INDEX_FILE (64u << 20)

struct mod {
	char *name;
	char *file;
	size_t *deps;
	size_t ndeps;
	char **soft[2]; /* [0] post, [1] pre */
	size_t nsoft[2];
};

struct alias {
	char *pattern; /* normalised */
	char *module;  /* normalised module name */
};

struct bo_moddir {
	char *dir;
	const char *release;
	struct mod *mods;
	size_t n;
	size_t *by_name; /* indices sorted by name */
	char **builtin;	 /* sorted normalised names */
	size_t nbuiltin;
	struct alias *aliases, *baliases; /* of modules, of built-ins */
	size_t naliases, nbaliases;
};

/* Module names: '-' and '_' are one character (the kernel's module_name handling). */
static void norm_name(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

/* Aliases as kmod's alias_normalize: the same, except inside [...] character classes. */
static void norm_alias(char *s)
{
	bool cls = false;

	for (; *s; s++) {
		if (*s == '[')
			cls = true;
		else if (*s == ']')
			cls = false;
		else if (*s == '-' && !cls)
			*s = '_';
	}
}

static char *name_of(const char *path)
{
	const char *base = strrchr(path, '/');
	char *name, *dot;

	name = strdup(base ? base + 1 : path);
	if (!name)
		return NULL;
	dot = strstr(name, ".ko");
	if (dot)
		*dot = '\0';
	norm_name(name);
	return name;
}

static const struct bo_moddir *sort_ctx;

static int cmp_by_name(const void *a, const void *b)
{
	return strcmp(sort_ctx->mods[*(const size_t *) a].name,
		      sort_ctx->mods[*(const size_t *) b].name);
}

static int cmp_by_file(const void *a, const void *b)
{
	return strcmp(sort_ctx->mods[*(const size_t *) a].file,
		      sort_ctx->mods[*(const size_t *) b].file);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/*
 * The capacity a vector that grows by doubling needs before its element @n goes in, 0 when
 * it has room (its capacity follows from its length: 8, then powers of two). A kernel has
 * tens of thousands of aliases: one reallocation each would copy the table every time.
 */
static size_t grown(size_t n)
{
	return n == 0 ? 8 : n >= 8 && !(n & (n - 1)) ? 2 * n : 0;
}

static int push_str(char ***v, size_t *n, const char *s)
{
	char **nv = *v;

	if (grown(*n) && !(nv = reallocarray(*v, grown(*n), sizeof(**v))))
		return -ENOMEM;
	*v = nv;
	if (!(nv[*n] = strdup(s)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

static int read_index(const struct bo_moddir *m, const char *file, bool required, char **ret,
		      struct bo_err *err)
{
	char path[4096];
	int r;

	snprintf(path, sizeof(path), "%s/%s", m->dir, file);
	r = bo_read_file(path, MAX_INDEX_FILE, ret, NULL);
	if (r == -ENOENT && !required) {
		*ret = NULL;
		return 0;
	}
	if (r == -ENOENT)
		return bo_err_set(err, ENOENT, "module directory '%s' has no %s (run depmod)",
				  m->dir, file);
	if (r < 0)
		return bo_err_set(err, -r, "read '%s': %s", path, strerror(-r));
	return 0;
}

static int parse_dep(struct bo_moddir *m, char *text, struct bo_err *err)
{
	_cleanup_free_ size_t *by_file = NULL;
	_cleanup_free_ char **raw = NULL; /* the dependency part of each line, in text */
	size_t cap = 0, line = 0;
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(l, ':');
		struct mod *mod;

		line++;
		if (!colon)
			return bo_err_set(err, EINVAL, "%s/modules.dep: line %zu: no ':'", m->dir,
					  line);
		if (m->n == cap) {
			cap = cap ? 2 * cap : 4096;
			if (!(mod = realloc(m->mods, cap * sizeof(*mod))))
				return bo_err_set(err, ENOMEM, "out of memory");
			m->mods = mod;
			if (!(raw = reallocarray(BO_TAKE_PTR(raw), cap, sizeof(*raw))))
				return bo_err_set(err, ENOMEM, "out of memory");
		}
		*colon = '\0';
		mod = &m->mods[m->n];
		*mod = (struct mod){.file = strdup(l), .name = name_of(l)};
		raw[m->n++] = colon + 1;
		if (!mod->file || !mod->name)
			return bo_err_set(err, ENOMEM, "out of memory");
	}
	m->by_name = calloc(m->n + 1, sizeof(size_t));
	by_file = calloc(m->n + 1, sizeof(size_t));
	if (!m->by_name || !by_file)
		return bo_err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < m->n; i++)
		m->by_name[i] = by_file[i] = i;
	sort_ctx = m;
	qsort(m->by_name, m->n, sizeof(size_t), cmp_by_name);
	qsort(by_file, m->n, sizeof(size_t), cmp_by_file);
	for (size_t i = 0; i < m->n; i++) {
		struct mod *mod = &m->mods[i];
		char *s2 = NULL;

		for (char *d = strtok_r(raw[i], " \t", &s2); d; d = strtok_r(NULL, " \t", &s2)) {
			size_t lo = 0, hi = m->n, *nd;

			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				int c = strcmp(m->mods[by_file[mid]].file, d);

				if (c == 0)
					lo = hi = mid;
				else if (c < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo >= m->n || strcmp(m->mods[by_file[lo]].file, d))
				return bo_err_set(err, EINVAL,
						  "%s/modules.dep: '%s' depends on '%s', which has "
						  "no line of its own",
						  m->dir, mod->file, d);
			if (!(nd = reallocarray(mod->deps, mod->ndeps + 1, sizeof(*nd))))
				return bo_err_set(err, ENOMEM, "out of memory");
			mod->deps = nd;
			mod->deps[mod->ndeps++] = by_file[lo];
		}
	}
	return 0;
}

static int parse_softdep(struct bo_moddir *m, char *text)
{
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *s2 = NULL, *tok = strtok_r(l, " \t", &s2);
		int side = 1; /* before any "pre:"/"post:", kmod treats names as pre */
		size_t i;

		if (!tok || strcmp(tok, "softdep") || !(tok = strtok_r(NULL, " \t", &s2)))
			continue;
		norm_name(tok);
		if (bo_moddir_find(m, tok, &i) != BO_MOD_MODULE)
			continue;
		while ((tok = strtok_r(NULL, " \t", &s2))) {
			if (!strcmp(tok, "pre:"))
				side = 1;
			else if (!strcmp(tok, "post:"))
				side = 0;
			else if (push_str(&m->mods[i].soft[side], &m->mods[i].nsoft[side], tok) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

static int push_alias(struct alias **v, size_t *n, const char *pattern, const char *module)
{
	struct alias *nv = *v;

	if (grown(*n) && !(nv = reallocarray(*v, grown(*n), sizeof(**v))))
		return -ENOMEM;
	*v = nv;
	nv[*n].pattern = strdup(pattern);
	nv[*n].module = strdup(module);
	if (!nv[*n].pattern || !nv[*n].module)
		return free(nv[*n].pattern), free(nv[*n].module), -ENOMEM;
	norm_alias(nv[*n].pattern);
	norm_name(nv[*n].module);
	(*n)++;
	return 0;
}

static int parse_alias(struct bo_moddir *m, char *text)
{
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *s2 = NULL, *kw = strtok_r(l, " \t", &s2);
		char *pat = strtok_r(NULL, " \t", &s2), *mod = strtok_r(NULL, " \t", &s2);

		if (kw && pat && mod && !strcmp(kw, "alias") &&
		    push_alias(&m->aliases, &m->naliases, pat, mod) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int parse_builtin(struct bo_moddir *m, char *text, char *modinfo, size_t modinfo_len)
{
	char *save = NULL;

	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		_cleanup_free_ char *name = name_of(l);

		if (!name || push_str(&m->builtin, &m->nbuiltin, name) < 0)
			return -ENOMEM;
	}
	if (m->nbuiltin) /* qsort() wants a base, even for nothing */
		qsort(m->builtin, m->nbuiltin, sizeof(char *), cmp_str);
	for (size_t off = 0; modinfo && off < modinfo_len; off += strlen(modinfo + off) + 1) {
		char *rec = modinfo + off, *dot = strchr(rec, '.');

		if (!dot || strncmp(dot + 1, "alias=", 6))
			continue;
		*dot = '\0';
		if (push_alias(&m->baliases, &m->nbaliases, dot + 7, rec) < 0)
			return -ENOMEM;
	}
	return 0;
}

int bo_moddir_open(const char *dir, struct bo_moddir **ret, struct bo_err *err)
{
	_cleanup_free_ char *dep = NULL, *soft = NULL, *alias = NULL, *builtin = NULL;
	_cleanup_free_ char *modinfo = NULL;
	struct bo_moddir *m = calloc(1, sizeof(*m));
	char path[4096];
	size_t modinfo_len = 0;
	int r;

	if (!m || !(m->dir = strdup(dir)))
		return free(m), bo_err_set(err, ENOMEM, "out of memory");
	while (strlen(m->dir) > 1 && m->dir[strlen(m->dir) - 1] == '/')
		m->dir[strlen(m->dir) - 1] = '\0';
	m->release = strrchr(m->dir, '/') ? strrchr(m->dir, '/') + 1 : m->dir;
	r = read_index(m, "modules.dep", true, &dep, err);
	if (r >= 0)
		r = parse_dep(m, dep, err);
	if (r >= 0)
		r = read_index(m, "modules.softdep", false, &soft, err);
	if (r >= 0)
		r = read_index(m, "modules.alias", false, &alias, err);
	if (r >= 0)
		r = read_index(m, "modules.builtin", false, &builtin, err);
	if (r >= 0) {
		snprintf(path, sizeof(path), "%s/modules.builtin.modinfo", m->dir);
		r = bo_read_file(path, MAX_INDEX_FILE, &modinfo, &modinfo_len);
		if (r == -ENOENT)
			r = 0;
		else if (r < 0)
			r = bo_err_set(err, -r, "read '%s': %s", path, strerror(-r));
	}
	if (r >= 0 &&
	    ((soft && parse_softdep(m, soft) < 0) || (alias && parse_alias(m, alias) < 0) ||
	     parse_builtin(m, builtin, modinfo, modinfo_len) < 0))
		r = bo_err_set(err, ENOMEM, "out of memory");
	if (r < 0) {
		bo_moddir_free(m);
		return r;
	}
	*ret = m;
	return 0;
}

void bo_moddir_free(struct bo_moddir *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		free(m->mods[i].name);
		free(m->mods[i].file);
		free(m->mods[i].deps);
		for (int s = 0; s < 2; s++) {
			for (size_t k = 0; k < m->mods[i].nsoft[s]; k++)
				free(m->mods[i].soft[s][k]);
			free(m->mods[i].soft[s]);
		}
	}
	for (size_t i = 0; i < m->nbuiltin; i++)
		free(m->builtin[i]);
	for (size_t i = 0; i < m->naliases; i++)
		free(m->aliases[i].pattern), free(m->aliases[i].module);
	for (size_t i = 0; i < m->nbaliases; i++)
		free(m->baliases[i].pattern), free(m->baliases[i].module);
	free(m->aliases);
	free(m->baliases);
	free(m->builtin);
	free(m->by_name);
	free(m->mods);
	free(m->dir);
	free(m);
}

const char *bo_moddir_path(const struct bo_moddir *m)
{
	return m->dir;
}

const char *bo_moddir_release(const struct bo_moddir *m)
{
	return m->release;
}

size_t bo_moddir_count(const struct bo_moddir *m)
{
	return m->n;
}

const char *bo_moddir_name(const struct bo_moddir *m, size_t i)
{
	return m->mods[i].name;
}

const char *bo_moddir_file(const struct bo_moddir *m, size_t i)
{
	return m->mods[i].file;
}

enum bo_mod_state bo_moddir_find(const struct bo_moddir *m, const char *name, size_t *ret_index)
{
	char key[256];
	const char *k = key;
	size_t lo = 0, hi = m->n;

	if (strlen(name) >= sizeof(key))
		return BO_MOD_ABSENT;
	strcpy(key, name);
	norm_name(key);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(m->mods[m->by_name[mid]].name, key);

		if (c == 0) {
			if (ret_index)
				*ret_index = m->by_name[mid];
			return BO_MOD_MODULE;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (m->nbuiltin && bsearch(&k, m->builtin, m->nbuiltin, sizeof(char *), cmp_str))
		return BO_MOD_BUILTIN;
	return BO_MOD_ABSENT;
}

bool bo_moddir_alias_match(const char *pattern, const char *name)
{
	char p[512], n[512];

	if (strlen(pattern) >= sizeof(p) || strlen(name) >= sizeof(n))
		return false;
	strcpy(p, pattern);
	strcpy(n, name);
	norm_alias(p);
	norm_alias(n);
	return fnmatch(p, n, 0) == 0;
}

int bo_moddir_resolve(const struct bo_moddir *m, const char *name, size_t **ret, size_t *ret_n)
{
	_cleanup_free_ size_t *v = NULL;
	size_t n = 0, idx;
	bool builtin = false;

	switch (bo_moddir_find(m, name, &idx)) {
	case BO_MOD_MODULE:
		if (!(v = malloc(sizeof(*v))))
			return -ENOMEM;
		v[n++] = idx;
		goto done;
	case BO_MOD_BUILTIN:
		goto done;
	case BO_MOD_ABSENT:
		break;
	}
	for (size_t i = 0; i < m->nbaliases; i++)
		if (bo_moddir_alias_match(m->baliases[i].pattern, name))
			builtin = true;
	for (size_t i = 0; i < m->naliases; i++) {
		size_t *nv;

		if (!bo_moddir_alias_match(m->aliases[i].pattern, name) ||
		    bo_moddir_find(m, m->aliases[i].module, &idx) != BO_MOD_MODULE)
			continue;
		if (!(nv = reallocarray(v, n + 1, sizeof(*nv))))
			return -ENOMEM;
		v = nv;
		v[n++] = idx;
	}
	if (!n && !builtin)
		return -ENOENT;
done:
	*ret = BO_TAKE_PTR(v);
	*ret_n = n;
	return 0;
}

size_t bo_moddir_deps(const struct bo_moddir *m, size_t i, const size_t **ret)
{
	*ret = m->mods[i].deps;
	return m->mods[i].ndeps;
}

size_t bo_moddir_softdeps(const struct bo_moddir *m, size_t i, bool pre, const char *const **ret)
{
	*ret = (const char *const *) m->mods[i].soft[pre];
	return m->mods[i].nsoft[pre];
}

void bo_moddir_closure(const struct bo_moddir *m, bool *in)
{
	bool grew = true;

	while (grew) {
		grew = false;
		for (size_t i = 0; i < m->n; i++) {
			if (!in[i])
				continue;
			for (size_t d = 0; d < m->mods[i].ndeps; d++)
				if (!in[m->mods[i].deps[d]])
					in[m->mods[i].deps[d]] = grew = true;
			for (int s = 0; s < 2; s++)
				for (size_t k = 0; k < m->mods[i].nsoft[s]; k++) {
					_cleanup_free_ size_t *v = NULL;
					size_t nv = 0;

					if (bo_moddir_resolve(m, m->mods[i].soft[s][k], &v, &nv) <
					    0)
						continue;
					for (size_t j = 0; j < nv; j++)
						if (!in[v[j]])
							in[v[j]] = grew = true;
				}
		}
	}
}

int bo_moddir_write_subset(const struct bo_moddir *m, const bool *in,
			   const char *(*rename)(const char *path, char *buf, size_t len),
			   char **ret_dep, char **ret_softdep, char **ret_alias)
{
	_cleanup_free_ char *dep = NULL, *soft = NULL, *alias = NULL;
	size_t ldep, lsoft, lalias;
	_cleanup_fclose_ FILE *fd = open_memstream(&dep, &ldep);
	_cleanup_fclose_ FILE *fs = open_memstream(&soft, &lsoft);
	_cleanup_fclose_ FILE *fa = open_memstream(&alias, &lalias);
	char buf[4096];

	if (!fd || !fs || !fa)
		return -ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		const struct mod *mod = &m->mods[i];

		if (!in[i])
			continue;
		fprintf(fd, "%s:", rename ? rename(mod->file, buf, sizeof(buf)) : mod->file);
		for (size_t d = 0; d < mod->ndeps; d++)
			fprintf(fd, " %s",
				rename ? rename(m->mods[mod->deps[d]].file, buf, sizeof(buf))
				       : m->mods[mod->deps[d]].file);
		fputc('\n', fd);
		if (mod->nsoft[0] + mod->nsoft[1]) {
			fprintf(fs, "softdep %s", mod->name);
			for (int s = 1; s >= 0; s--) {
				if (mod->nsoft[s])
					fputs(s ? " pre:" : " post:", fs);
				for (size_t k = 0; k < mod->nsoft[s]; k++)
					fprintf(fs, " %s", mod->soft[s][k]);
			}
			fputc('\n', fs);
		}
	}
	for (size_t i = 0; i < m->naliases; i++) {
		size_t idx;

		if (bo_moddir_find(m, m->aliases[i].module, &idx) == BO_MOD_MODULE && in[idx])
			fprintf(fa, "alias %s %s\n", m->aliases[i].pattern, m->aliases[i].module);
	}
	if (fflush(fd) || fflush(fs) || fflush(fa))
		return -ENOMEM;
	fclose(BO_TAKE_PTR(fd));
	fclose(BO_TAKE_PTR(fs));
	fclose(BO_TAKE_PTR(fa));
	*ret_dep = BO_TAKE_PTR(dep);
	*ret_softdep = BO_TAKE_PTR(soft);
	*ret_alias = BO_TAKE_PTR(alias);
	return 0;
}
