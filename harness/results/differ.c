// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * differ.c — states by id across results directories (differ.h).
 */
#include "harness/results/differ.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/results/stream.h"

/* One state of one directory, before they are joined by id. */
struct cell {
	char *state;
	uint64_t cut;
	size_t col;
	enum bo_class cls;
	struct bo_verdict fnd;
};

static int cmp_cell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;
	int c = strcmp(x->state, y->state);

	return c ? c : (x->col > y->col) - (x->col < y->col);
}

static int cmp_row(const void *a, const void *b)
{
	const struct bo_differ_row *x = a, *y = b;

	if (x->differs != y->differs)
		return x->differs ? -1 : 1;
	if (x->cut != y->cut)
		return x->cut < y->cut ? -1 : 1;
	return strcmp(x->state, y->state);
}

/* The cells being read, and the column of the directory at hand. */
struct reading {
	struct cell *v;
	size_t n, cap, col;
};

static int add_cell(const struct bo_stream_rec *rec, void *ctx, struct bo_err *err)
{
	struct reading *g = ctx;

	if (g->n == g->cap) {
		size_t nc = g->cap ? 2 * g->cap : 256;
		struct cell *nv = reallocarray(g->v, nc, sizeof(*nv));

		if (!nv)
			return bo_err_set(err, ENOMEM, "out of memory");
		g->v = nv;
		g->cap = nc;
	}
	g->v[g->n] = (struct cell){
		.state = strdup(rec->state), .cut = rec->cut, .col = g->col, .cls = rec->cls};
	if (!g->v[g->n].state || bo_verdict_copy(&rec->findings, &g->v[g->n].fnd) < 0) {
		free(g->v[g->n].state);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	g->n++;
	return 0;
}

int bo_differ_read(struct bo_differ *d, const char *const *dirs, size_t n, struct bo_err *err)
{
	struct reading g = {0};
	struct cell *v;
	size_t nv;
	int r = 0;

	*d = (struct bo_differ){.ncol = n};
	for (size_t i = 0; i < n && r >= 0; i++) {
		g.col = i;
		r = bo_stream_each_state(dirs[i], add_cell, &g, err);
	}
	v = g.v;
	nv = g.n;
	if (r >= 0 && nv)
		qsort(v, nv, sizeof(*v), cmp_cell);
	for (size_t i = 0; r >= 0 && i < nv;) {
		struct bo_differ_row *row, *nr = reallocarray(d->rows, d->nrow + 1, sizeof(*nr));
		size_t j = i;

		if (nr) {
			nr[d->nrow].cls = malloc(n * sizeof(enum bo_class));
			nr[d->nrow].fnd = calloc(n, sizeof(struct bo_verdict));
		}
		if (!nr || !nr[d->nrow].cls || !nr[d->nrow].fnd) {
			if (nr) {
				free(nr[d->nrow].cls);
				free(nr[d->nrow].fnd);
			}
			d->rows = nr ? nr : d->rows;
			r = bo_err_set(err, ENOMEM, "out of memory");
			break;
		}
		d->rows = nr;
		row = &d->rows[d->nrow++];
		row->state = v[i].state;
		v[i].state = NULL;
		row->cut = v[i].cut;
		for (size_t c = 0; c < n; c++)
			row->cls[c] = BO_DIFFER_NONE;
		for (; j < nv && !strcmp(v[j].state ? v[j].state : row->state, row->state); j++) {
			row->cls[v[j].col] = v[j].cls;
			bo_verdict_clear(&row->fnd[v[j].col]);
			row->fnd[v[j].col] = v[j].fnd; /* the row owns it now */
			v[j].fnd = (struct bo_verdict){0};
		}
		row->differs = false;
		for (size_t c = 1; c < n; c++)
			row->differs |= row->cls[c] != row->cls[0] ||
					!bo_verdict_equal(&row->fnd[c], &row->fnd[0]);
		d->ndiffer += row->differs;
		i = j;
	}
	for (size_t i = 0; i < nv; i++) {
		free(v[i].state);
		bo_verdict_clear(&v[i].fnd);
	}
	free(v);
	if (r < 0) {
		bo_differ_clear(d);
		return r;
	}
	if (d->nrow)
		qsort(d->rows, d->nrow, sizeof(*d->rows), cmp_row);
	return 0;
}

struct json_object *bo_differ_json(const struct bo_differ *d, const char *const *names)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < d->nrow; i++) {
		const struct bo_differ_row *row = &d->rows[i];
		struct json_object *o = json_object_new_object(), *cls = json_object_new_object();
		struct json_object *fnd = json_object_new_object();
		char words[512];

		json_object_object_add(o, "state", json_object_new_string(row->state));
		json_object_object_add(o, "cut", json_object_new_uint64(row->cut));
		json_object_object_add(o, "differs", json_object_new_boolean(row->differs));
		for (size_t c = 0; c < d->ncol; c++)
			json_object_object_add(
				cls, names[c],
				row->cls[c] == BO_DIFFER_NONE
					? NULL
					: json_object_new_string(bo_class_name(row->cls[c])));
		json_object_object_add(o, "classes", cls);
		for (size_t c = 0; c < d->ncol; c++)
			json_object_object_add(fnd, names[c],
					       row->cls[c] == BO_DIFFER_NONE
						       ? NULL
						       : json_object_new_string(bo_findings_str(
								 &row->fnd[c], BO_CLASS_COUNT,
								 words, sizeof(words))));
		json_object_object_add(o, "findings", fnd);
		json_object_array_add(a, o);
	}
	return a;
}

void bo_differ_clear(struct bo_differ *d)
{
	for (size_t i = 0; i < d->nrow; i++) {
		free(d->rows[i].state);
		free(d->rows[i].cls);
		for (size_t c = 0; d->rows[i].fnd && c < d->ncol; c++)
			bo_verdict_clear(&d->rows[i].fnd[c]);
		free(d->rows[i].fnd);
	}
	free(d->rows);
	*d = (struct bo_differ){0};
}

const char *bo_differ_cell_str(const struct bo_differ_row *row, size_t col, char *buf, size_t len)
{
	char words[512];

	if (row->cls[col] == BO_DIFFER_NONE)
		snprintf(buf, len, "not checked");
	else if (bo_verdict_any(&row->fnd[col]))
		snprintf(buf, len, "%s (%s)", bo_class_name(row->cls[col]),
			 bo_findings_str(&row->fnd[col], BO_CLASS_COUNT, words, sizeof(words)));
	else
		snprintf(buf, len, "%s", bo_class_name(row->cls[col]));
	return buf;
}
