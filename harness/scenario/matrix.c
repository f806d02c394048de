// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Nightly matrices: the [matrix] keys read line by line through ini.c, each axis value judged
 * as its line is read (a filesystem, mount options, a kernel, a persona, each scenario loaded),
 * and the cells they make.
 */
#include "harness/scenario/matrix.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/dev/fs.h"
#include "harness/scenario/fsops.h"
#include "harness/scenario/ini.h"
#include "harness/scenario/scenario.h"
#include "harness/states/persona.h"

/* @value (of line @line) added to the axis @v of @n values and lines @lines: refused when
 * empty, one too many, or given before (its cells would be run twice, into one directory). */
static int add_axis(char **v, unsigned *lines, size_t *n, const char *name, const char *value,
		    unsigned line, struct bo_err *err)
{
	if (!*value)
		return bo_err_set(err, EINVAL, "[matrix] %s: empty value", name);
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(v[i], value))
			return bo_err_set(err, EINVAL,
					  "[matrix] %s: '%s' given twice (first on line %u): each "
					  "value names its own cells",
					  name, value, lines[i]);
	if (*n == BO_MATRIX_AXIS_MAX)
		return bo_err_set(err, EINVAL, "[matrix] %s: more than %d values", name,
				  BO_MATRIX_AXIS_MAX);
	v[*n] = strdup(value);
	if (!v[*n])
		return bo_err_set(err, ENOMEM, "out of memory");
	lines[*n] = line;
	(*n)++;
	return 0;
}

/* What bo_matrix_load() reads with: the matrix, and the judge of its scenarios. */
struct matrix_read {
	struct bo_matrix *m;
	int (*scenario_ok)(const struct bo_scenario *sc, struct bo_err *err);
};

/* [matrix] scenario = @value (line @line): read now, relative to the matrix file, so that a
 * scenario that does not load (a FIFO, a parse error) is refused before any cell is made; and
 * two scenarios of one [scenario] name (the same file twice, or two files) would name the
 * same cells. */
static int add_scenario(const struct matrix_read *rd, const char *value, unsigned line,
			struct bo_err *err)
{
	struct bo_matrix *m = rd->m;
	const char *slash = strrchr(m->path, '/');
	struct bo_scenario *sc = NULL;
	char src[PATH_MAX];
	size_t i;
	int n, r;

	if (!*value)
		return bo_err_set(err, EINVAL, "[matrix] scenario: empty value");
	n = value[0] == '/' || !slash ? snprintf(src, sizeof(src), "%s", value)
				      : snprintf(src, sizeof(src), "%.*s/%s",
						 (int) (slash - m->path), m->path, value);
	if (n < 0 || (size_t) n >= sizeof(src))
		return bo_err_set(err, ENAMETOOLONG, "[matrix] scenario: '%s': path too long",
				  value);
	r = bo_scenario_load(src, &sc, err);
	if (r < 0)
		return bo_err_prefix(err, "[matrix] scenario");
	/* The caller's judgement (nightly's: its checker as run judges it), at this line. */
	r = rd->scenario_ok ? rd->scenario_ok(sc, err) : 0;
	if (r < 0) {
		bo_scenario_free(sc);
		return bo_err_prefix(err, "[matrix] scenario");
	}
	/* length and fresh apply to builtin bounded's workloads: every scenario must be one. */
	if (!bo_bounded_is(sc))
		m->not_bounded_line = m->not_bounded_line ? m->not_bounded_line : line;
	for (i = 0; i < m->nsc && strcmp(m->scen_names[i], sc->name); i++)
		;
	if (i < m->nsc) {
		r = bo_err_set(err, EINVAL,
			       "[matrix] scenario: '%s' is scenario '%s' again (first on line "
			       "%u): each scenario names its own cells",
			       value, sc->name, m->sc_line[i]);
	} else {
		r = add_axis(m->scenarios, m->sc_line, &m->nsc, "scenario", value, line, err);
		if (r >= 0 && !(m->scen_names[m->nsc - 1] = strdup(sc->name)))
			r = bo_err_set(err, ENOMEM, "out of memory");
	}
	bo_scenario_free(sc);
	return r;
}

/* [matrix] kernel_tree = NAME PATH (line @line): a kernel build tree on the kernel axis, its
 * cells named by NAME, PATH relative to the matrix file and resolved now (nightly judges the
 * tree itself before the first boot, as run --kernel-tree does). */
static int add_tree(struct bo_matrix *m, const char *value, unsigned line, struct bo_err *err)
{
	size_t n = strcspn(value, " \t");
	const char *path = value + n + strspn(value + n, " \t");
	char name[BO_MATRIX_KERNEL_MAX], src[PATH_MAX];
	char *real;
	int k;

	if (!n || !*path)
		return bo_err_set(err, EINVAL,
				  "[matrix] kernel_tree: '%s': expected NAME PATH (a name for its "
				  "cells, and the build tree)",
				  value);
	if (n >= sizeof(name) || value[0] == '.' ||
	    strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") < n)
		return bo_err_set(err, EINVAL,
				  "[matrix] kernel_tree: name '%.*s': letters, digits, '.', '_' "
				  "and '-' only, not first '.', at most %d",
				  (int) n, value, BO_MATRIX_KERNEL_MAX - 1);
	memcpy(name, value, n);
	name[n] = '\0';
	k = path[0] == '/' ? snprintf(src, sizeof(src), "%s", path)
			   : snprintf(src, sizeof(src), "%s/%s", m->dir, path);
	if (k < 0 || (size_t) k >= sizeof(src))
		return bo_err_set(err, ENAMETOOLONG, "[matrix] kernel_tree: '%s': path too long",
				  path);
	real = realpath(src, NULL);
	if (!real)
		return bo_err_set(err, errno, "[matrix] kernel_tree: '%s': %s", src,
				  strerror(errno));
	k = add_axis(m->kernels, m->k_line, &m->nk, "kernel", name, line, err);
	if (k < 0) {
		free(real);
		return k;
	}
	m->ktrees[m->nk - 1] = real;
	return 0;
}

/* A key given once: @value into *@slot, unless it is @bad (its text then says @why). */
static int set_once(char **slot, const char *key, const char *value, bool bad, const char *why,
		    struct bo_err *err)
{
	if (*slot)
		return bo_err_set(err, EINVAL, "[matrix] %s: given twice", key);
	if (bad)
		return bo_err_set(err, EINVAL, "[matrix] %s: '%s' %s", key, value, why);
	*slot = strdup(value);
	return *slot ? 0 : bo_err_set(err, ENOMEM, "out of memory");
}

/* One line of the matrix file (harness/scenario/ini.h: the scenario files' strict rules). */
static int matrix_item(void *ctx, const struct bo_ini_item *it, struct bo_err *err)
{
	const struct matrix_read *rd = ctx;
	struct bo_matrix *m = rd->m;
	const char *value = it->value;
	uint64_t n;

	if (strcmp(it->section, "matrix") || it->name)
		return bo_err_set(err, EINVAL, "unknown section [%s%s%s] (expected [matrix])",
				  it->section, it->name ? " " : "", it->name ? it->name : "");
	if (!it->key)
		return 0;
	if (!strcmp(it->key, "scenario"))
		return add_scenario(rd, value, it->line, err);
	if (!strcmp(it->key, "fs")) {
		enum bo_fs fs;

		if (bo_fs_from_name(value, &fs) < 0)
			return bo_err_set(err, EINVAL, "[matrix] fs: '%s' is not " BO_FS_NAMES,
					  value);
		return add_axis(m->fs, m->fs_line, &m->nfs, it->key, value, it->line, err);
	}
	if (!strcmp(it->key, "mount_options")) {
		if (bo_mount_options_problem(value))
			return bo_err_set(err, EINVAL, "[matrix] mount_options: '%s': %s", value,
					  bo_mount_options_problem(value));
		return add_axis(m->mopts, m->mo_line, &m->nmo, it->key, value, it->line, err);
	}
	if (!strcmp(it->key, "kernel")) {
		if (strlen(value) >= BO_MATRIX_KERNEL_MAX || !bo_scenario_kernel_ok(value))
			return bo_err_set(
				err, EINVAL,
				"[matrix] kernel: '%s' is not a kernel release or version "
				"prefix (blackout kernel list)",
				value);
		return add_axis(m->kernels, m->k_line, &m->nk, it->key, value, it->line, err);
	}
	if (!strcmp(it->key, "kernel_tree"))
		return add_tree(m, value, it->line, err);
	if (!strcmp(it->key, "persona")) {
		enum bo_persona p;

		if (bo_persona_parse(value, &p) < 0)
			return bo_err_set(
				err, EINVAL,
				"[matrix] persona: '%s' is not a device persona (" BO_PERSONA_NAMES
				")",
				value);
		return add_axis(m->personas, m->p_line, &m->np, it->key, value, it->line, err);
	}
	if (!strcmp(it->key, "seed"))
		return set_once(&m->seed, "seed", value, bo_parse_u64(value, &n) < 0,
				"is not a decimal number", err);
	if (!strcmp(it->key, "length"))
		return set_once(&m->length, "length", value,
				strcmp(value, "1") && strcmp(value, "2") && strcmp(value, "3"),
				"(bounded workloads of length 1, 2 or 3)", err);
	if (!strcmp(it->key, "fresh"))
		return set_once(
			&m->fresh, "fresh", value, strcmp(value, "yes") && strcmp(value, "no"),
			"(yes: a fresh filesystem per bounded workload; no: one for all)", err);
	if (!strcmp(it->key, "compare")) {
		if (strcmp(value, "kernels"))
			return bo_err_set(err, EINVAL,
					  "[matrix] compare: '%s' (only 'kernels' is compared)",
					  value);
		m->compare_kernels = true;
		return 0;
	}
	return bo_err_set(err, EINVAL, "[matrix]: unknown key '%s'", it->key);
}

void bo_matrix_free(struct bo_matrix *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nsc; i++) {
		free(m->scenarios[i]);
		free(m->scen_names[i]);
	}
	for (size_t i = 0; i < m->nfs; i++)
		free(m->fs[i]);
	for (size_t i = 0; i < m->nmo; i++)
		free(m->mopts[i]);
	for (size_t i = 0; i < m->nk; i++) {
		free(m->kernels[i]);
		free(m->ktrees[i]);
	}
	for (size_t i = 0; i < m->np; i++)
		free(m->personas[i]);
	free(m->seed);
	free(m->length);
	free(m->fresh);
	free(m->path);
	free(m);
}

int bo_matrix_load(const char *path,
		   int (*scenario_ok)(const struct bo_scenario *sc, struct bo_err *err),
		   struct bo_matrix **ret, struct bo_err *err)
{
	struct bo_matrix *m = calloc(1, sizeof(*m));
	struct matrix_read rd = {m, scenario_ok};
	char *slash;
	int r;

	if (!m || !(m->path = strdup(path))) {
		free(m);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	snprintf(m->dir, sizeof(m->dir), "%s", path);
	slash = strrchr(m->dir, '/');
	*(slash ? slash : m->dir) = '\0';
	if (!m->dir[0])
		snprintf(m->dir, sizeof(m->dir), ".");
	r = bo_ini_load(path, matrix_item, &rd, err);
	if (r >= 0 && !m->nsc)
		r = bo_err_set(err, EINVAL, "%s: [matrix] needs at least one 'scenario'", path);
	if (r >= 0 && m->length && m->not_bounded_line)
		r = bo_err_set(err, EINVAL,
			       "%s:%u: [matrix] scenario: not builtin bounded, and length = %s is "
			       "the length of its workloads",
			       path, m->not_bounded_line, m->length);
	if (r >= 0 && m->fresh && m->not_bounded_line)
		r = bo_err_set(err, EINVAL,
			       "%s:%u: [matrix] scenario: not builtin bounded, and fresh = %s is "
			       "about its workloads",
			       path, m->not_bounded_line, m->fresh);
	if (r >= 0 && m->compare_kernels && m->nk < 2)
		r = bo_err_set(err, EINVAL, "%s: [matrix] compare = kernels needs two 'kernel'",
			       path);
	for (size_t k = 0; r >= 0 && m->compare_kernels && k < m->nk; k++)
		if (m->ktrees[k])
			r = bo_err_set(err, EINVAL,
				       "%s:%u: [matrix] kernel_tree: compare = kernels compares "
				       "cached kernels (run --kernels), not a build tree ('%s')",
				       path, m->k_line[k], m->kernels[k]);
	if (r < 0) {
		bo_matrix_free(m);
		return r;
	}
	*ret = m;
	return 0;
}

/* An axis of @n values has a cell per value; one the matrix does not have, one cell. */
static size_t axis_len(size_t n)
{
	return n ? n : 1;
}

/* The kernel axis is one of cells unless compare = kernels runs them all in one. */
static size_t kernel_len(const struct bo_matrix *m)
{
	return m->compare_kernels ? 1 : axis_len(m->nk);
}

size_t bo_matrix_ncells(const struct bo_matrix *m)
{
	return m->nsc * axis_len(m->nfs) * axis_len(m->nmo) * kernel_len(m) * axis_len(m->np);
}

void bo_matrix_cell(const struct bo_matrix *m, size_t x, struct bo_matrix_cell *ret)
{
	size_t nf = axis_len(m->nfs), no = axis_len(m->nmo), nk = kernel_len(m),
	       np = axis_len(m->np);
	size_t q = x % np, k = x / np % nk, j = x / (np * nk) % no, f = x / (np * nk * no) % nf,
	       i = x / (np * nk * no * nf);
	const char *mo = m->nmo ? m->mopts[j] : NULL;

	ret->scenario = m->scenarios[i];
	ret->fs = m->nfs ? m->fs[f] : NULL;
	ret->options = mo && strcmp(mo, "default") ? mo : NULL;
	ret->kernel = m->nk && !m->compare_kernels ? m->kernels[k] : NULL;
	ret->kernel_tree = ret->kernel ? m->ktrees[k] : NULL;
	ret->persona = m->np ? m->personas[q] : NULL;
	ret->length = m->length;
	ret->fresh = m->fresh;
}
