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

/* Append the states of @dir, column @col, to @v. */
static int read_dir(const char *dir, size_t col, struct cell **v, size_t *n, size_t *cap,
		    struct bo_err *err)
{
	struct bo_stream *st = NULL;
	struct bo_stream_rec rec;
	int r = bo_stream_open(dir, &st, err);

	while (r >= 0 && (r = bo_stream_next(st, &rec, err)) > 0) {
		if (!bo_stream_is_state(&rec))
			continue;
		if (*n == *cap) {
			size_t nc = *cap ? 2 * *cap : 256;
			struct cell *nv = reallocarray(*v, nc, sizeof(**v));

			if (!nv) {
				r = bo_err_set(err, ENOMEM, "out of memory");
				break;
			}
			*v = nv;
			*cap = nc;
		}
		(*v)[*n] = (struct cell){
			.state = strdup(rec.state), .cut = rec.cut, .col = col, .cls = rec.cls};
		if (!(*v)[*n].state) {
			r = bo_err_set(err, ENOMEM, "out of memory");
			break;
		}
		(*n)++;
	}
	bo_stream_free(st);
	return r < 0 ? r : 0;
}

int bo_differ_read(struct bo_differ *d, const char *const *dirs, size_t n, struct bo_err *err)
{
	struct cell *v = NULL;
	size_t nv = 0, cap = 0;
	int r = 0;

	*d = (struct bo_differ){.ncol = n};
	for (size_t i = 0; i < n && r >= 0; i++)
		r = read_dir(dirs[i], i, &v, &nv, &cap, err);
	if (r >= 0 && nv)
		qsort(v, nv, sizeof(*v), cmp_cell);
	for (size_t i = 0; r >= 0 && i < nv;) {
		struct bo_differ_row *row, *nr = reallocarray(d->rows, d->nrow + 1, sizeof(*nr));
		size_t j = i;

		if (!nr || !(nr[d->nrow].cls = malloc(n * sizeof(enum bo_class)))) {
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
		for (; j < nv && !strcmp(v[j].state ? v[j].state : row->state, row->state); j++)
			row->cls[v[j].col] = v[j].cls;
		row->differs = false;
		for (size_t c = 1; c < n; c++)
			row->differs |= row->cls[c] != row->cls[0];
		d->ndiffer += row->differs;
		i = j;
	}
	for (size_t i = 0; i < nv; i++)
		free(v[i].state);
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
		json_object_array_add(a, o);
	}
	return a;
}

void bo_differ_clear(struct bo_differ *d)
{
	for (size_t i = 0; i < d->nrow; i++) {
		free(d->rows[i].state);
		free(d->rows[i].cls);
	}
	free(d->rows);
	*d = (struct bo_differ){0};
}
