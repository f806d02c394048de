// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * markdiff.c — one workload's runs on several kernels, mark by mark (markdiff.h).
 */
#include "harness/results/markdiff.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/results/stream.h"
#include "harness/states/lint.h"
#include "harness/states/oracle.h"

/* A state's findings by id, for an alias to take its original's. */
struct kept {
	char *state;
	struct bo_verdict fnd;
};

/* Reading one kernel's stream into its sides of the rows. */
struct reading {
	struct bo_markdiff *d;
	const struct bo_log *log;
	size_t col;
	size_t *row_of_mark; /* row of the log's i-th mark */
	size_t nmarks;
	struct kept *kept;
	size_t nkept, capkept;
};

static void side_clear(struct bo_markdiff_side *s)
{
	bo_verdict_clear(&s->fnd);
	free(s->state);
}

void bo_markdiff_clear(struct bo_markdiff *d)
{
	for (size_t i = 0; i < d->nrow; i++) {
		for (size_t c = 0; d->rows[i].side && c < d->ncol; c++)
			side_clear(&d->rows[i].side[c]);
		free(d->rows[i].side);
		free(d->rows[i].mark);
	}
	free(d->rows);
	*d = (struct bo_markdiff){0};
}

static ssize_t find_row(const struct bo_markdiff *d, const char *mark)
{
	for (size_t i = 0; i < d->nrow; i++)
		if (!strcmp(d->rows[i].mark, mark))
			return (ssize_t) i;
	return -1;
}

/* The row of @mark, added when there is none. */
static int row_for(struct bo_markdiff *d, const char *mark, size_t *ret)
{
	ssize_t i = find_row(d, mark);
	struct bo_markdiff_row *nr;

	if (i >= 0) {
		*ret = (size_t) i;
		return 0;
	}
	nr = reallocarray(d->rows, d->nrow + 1, sizeof(*nr));
	if (!nr)
		return -ENOMEM;
	d->rows = nr;
	nr[d->nrow] = (struct bo_markdiff_row){.mark = strdup(mark),
					       .side = calloc(d->ncol, sizeof(*nr->side))};
	if (!nr[d->nrow].mark || !nr[d->nrow].side) {
		free(nr[d->nrow].mark);
		free(nr[d->nrow].side);
		return -ENOMEM;
	}
	*ret = d->nrow++;
	return 0;
}

/* The index of the last mark of @log before entry @cut (a state applying @cut entries), or
 * -1 when none is. */
static ssize_t mark_before(const struct bo_log *log, uint64_t cut)
{
	size_t lo = 0, hi = bo_log_mark_count(log);

	/* Marks are in log order: the first mark at or after @cut, minus one. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (bo_log_mark_at(log, mid)->entry < cut)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (ssize_t) lo - 1;
}

static int union_into(struct bo_verdict *dst, const struct bo_verdict *src)
{
	for (int f = 0; f < BO_FINDING_COUNT; f++) {
		const struct bo_opset *s = bo_verdict_set(src, (enum bo_finding) f);
		struct bo_opset *t = bo_verdict_set_mut(dst, (enum bo_finding) f);

		for (size_t i = 0; i < s->n; i++)
			if (!bo_opset_has(t, s->v[i]) && bo_opset_add(t, s->v[i]) < 0)
				return -ENOMEM;
	}
	return 0;
}

static const struct bo_verdict *kept_find(const struct reading *g, const char *state)
{
	for (size_t i = g->nkept; i-- > 0;)
		if (!strcmp(g->kept[i].state, state))
			return &g->kept[i].fnd;
	return NULL;
}

static int add_state(const struct bo_stream_rec *rec, void *ctx, struct bo_err *err)
{
	struct reading *g = ctx;
	const struct bo_verdict *fnd = &rec->findings;
	ssize_t m = mark_before(g->log, rec->cut);
	struct bo_markdiff_side *s;
	size_t row;

	if (rec->alias_of) {
		/* An alias record carries no findings: they are its original's. */
		fnd = kept_find(g, rec->alias_of);
		if (!fnd)
			fnd = &rec->findings;
	} else if (bo_verdict_any(&rec->findings)) {
		struct kept *nk = g->kept;

		if (g->nkept == g->capkept) {
			g->capkept = g->capkept ? 2 * g->capkept : 64;
			nk = reallocarray(g->kept, g->capkept, sizeof(*nk));
			if (!nk)
				return bo_err_set(err, ENOMEM, "out of memory");
			g->kept = nk;
		}
		nk[g->nkept].state = strdup(rec->state);
		if (!nk[g->nkept].state || bo_verdict_copy(&rec->findings, &nk[g->nkept].fnd) < 0) {
			free(nk[g->nkept].state);
			return bo_err_set(err, ENOMEM, "out of memory");
		}
		g->nkept++;
	}
	if (m < 0) {
		/* Before the first mark: a segment of its own. */
		if (row_for(g->d, BO_MARKDIFF_START, &row) < 0)
			return bo_err_set(err, ENOMEM, "out of memory");
		g->d->rows[row].side[g->col].present = true;
	} else {
		row = g->row_of_mark[m];
	}
	s = &g->d->rows[row].side[g->col];
	s->nstates++;
	if (rec->cls < BO_CLASS_COUNT)
		s->classes |= 1u << rec->cls;
	if (union_into(&s->fnd, fnd) < 0)
		return bo_err_set(err, ENOMEM, "out of memory");
	/* The first failing state, else the first: the one to reproduce or explain. */
	if (!s->state || (!s->state_fails && rec->cls != BO_CLASS_CONSISTENT)) {
		char *id = strdup(rec->state);

		if (!id)
			return bo_err_set(err, ENOMEM, "out of memory");
		free(s->state);
		s->state = id;
		s->state_fails = rec->cls != BO_CLASS_CONSISTENT;
	}
	return 0;
}

/* Kernel @col's marks and lint into its sides of @d's rows. */
static int read_log(struct bo_markdiff *d, const struct bo_log *log, size_t col,
		    size_t *row_of_mark, struct bo_err *err)
{
	struct bo_lint lint = {0};
	struct bo_ops ops = {0};
	uint64_t from = 0;
	int r;

	r = bo_ops_from_log(log, &ops, err);
	if (r >= 0)
		r = bo_lint_log(log, &lint, err);
	for (size_t i = 0; r >= 0 && i < bo_log_mark_count(log); i++) {
		const struct bo_log_mark *m = bo_log_mark_at(log, i);
		struct bo_markdiff_side *s;

		if (row_for(d, m->name, &row_of_mark[i]) < 0) {
			r = bo_err_set(err, ENOMEM, "out of memory");
			break;
		}
		s = &d->rows[row_of_mark[i]].side[col];
		if (s->present) {
			_cleanup_free_ char *name = bo_sanitize(m->name, true);

			r = bo_err_set(err, EBADMSG, "'%s': mark '%s' appears twice",
				       bo_log_path(log), name ? name : "?");
			break;
		}
		s->present = true;
		s->entry = m->entry;
		s->from = from;
		from = m->entry + 1;
	}
	for (size_t i = 0; r >= 0 && i < ops.n; i++) {
		const struct bo_op *op = &ops.v[i];
		enum bo_markdiff_lint l = BO_MARKDIFF_LINT_BARRIER;
		const char *name;
		ssize_t row;

		if (op->ack_entry == BO_NO_ENTRY || op->issue_entry == BO_NO_ENTRY)
			continue;
		for (size_t k = 0; k < lint.n; k++)
			if (lint.v[k].op == op->id)
				l = BO_MARKDIFF_LINT_NO_BARRIER;
		name = bo_log_mark_name(log, op->ack_entry);
		row = name ? find_row(d, name) : -1;
		if (row >= 0)
			d->rows[row].side[col].lint = l;
	}
	bo_lint_clear(&lint);
	bo_ops_clear(&ops);
	return r;
}

/* The rows in order: lint differences, other differences, the rest; each in the log order
 * of the first kernel whose log has the mark. */
static int cmp_row(const void *a, const void *b, void *ctx)
{
	const struct bo_markdiff_row *x = a, *y = b;
	size_t ncol = *(const size_t *) ctx;
	int gx = x->lint_differs ? 0 : x->differs ? 1 : 2;
	int gy = y->lint_differs ? 0 : y->differs ? 1 : 2;
	uint64_t ex, ey;

	if (gx != gy)
		return gx - gy;
	/* The states before any mark come before every mark. */
	if (!strcmp(x->mark, BO_MARKDIFF_START) || !strcmp(y->mark, BO_MARKDIFF_START))
		return strcmp(x->mark, BO_MARKDIFF_START) ? 1 : -1;
	/* By the entries of the first kernel whose log has both, else by the first kernel
	 * whose log has each. */
	for (size_t c = 0; c < ncol; c++)
		if (x->side[c].present && y->side[c].present) {
			ex = x->side[c].entry;
			ey = y->side[c].entry;
			return (ex > ey) - (ex < ey);
		}
	for (size_t c = 0; c < ncol; c++)
		if (x->side[c].present != y->side[c].present)
			return x->side[c].present ? -1 : 1;
	return 0;
}

static bool side_equal(const struct bo_markdiff_side *a, const struct bo_markdiff_side *b)
{
	return a->present == b->present && a->classes == b->classes &&
	       bo_verdict_equal(&a->fnd, &b->fnd);
}

int bo_markdiff_build(struct bo_markdiff *d, struct bo_log *const *logs, const char *const *dirs,
		      size_t n, struct bo_err *err)
{
	int r = 0;

	*d = (struct bo_markdiff){.ncol = n};
	for (size_t c = 0; c < n && r >= 0; c++) {
		struct reading g = {.d = d, .log = logs[c], .col = c};

		g.nmarks = bo_log_mark_count(logs[c]);
		g.row_of_mark = calloc(g.nmarks ? g.nmarks : 1, sizeof(*g.row_of_mark));
		if (!g.row_of_mark)
			r = bo_err_set(err, ENOMEM, "out of memory");
		if (r >= 0)
			r = read_log(d, logs[c], c, g.row_of_mark, err);
		if (r >= 0)
			r = bo_stream_each_state(dirs[c], add_state, &g, err);
		for (size_t k = 0; k < g.nkept; k++) {
			free(g.kept[k].state);
			bo_verdict_clear(&g.kept[k].fnd);
		}
		free(g.kept);
		free(g.row_of_mark);
	}
	if (r < 0) {
		bo_markdiff_clear(d);
		return r;
	}
	for (size_t i = 0; i < d->nrow; i++) {
		struct bo_markdiff_row *row = &d->rows[i];

		for (size_t c = 0; c < n; c++) {
			row->missing |= !row->side[c].present;
			if (c && !side_equal(&row->side[c], &row->side[0]))
				row->differs = true;
			if (c && row->side[c].lint != row->side[0].lint && row->side[c].present &&
			    row->side[0].present)
				row->lint_differs = true;
		}
		row->differs |= row->missing || row->lint_differs;
		d->ndiffer += row->differs;
	}
	if (d->nrow)
		qsort_r(d->rows, d->nrow, sizeof(*d->rows), cmp_row, &n);
	return 0;
}

const char *bo_markdiff_lint_str(enum bo_markdiff_lint l)
{
	return l == BO_MARKDIFF_LINT_BARRIER	  ? "barrier"
	       : l == BO_MARKDIFF_LINT_NO_BARRIER ? "no barrier"
						  : NULL;
}

const char *bo_markdiff_verdict_str(const struct bo_markdiff_row *row, size_t c, char *buf,
				    size_t len)
{
	const struct bo_markdiff_side *s = &row->side[c];
	char words[512];
	size_t used = 0;

	buf[0] = '\0';
	if (!s->present)
		snprintf(buf, len, "not in the log");
	else if (!s->nstates)
		snprintf(buf, len, "no states");
	for (unsigned k = 0; s->present && s->nstates && k < BO_CLASS_COUNT && used < len; k++)
		if (s->classes & (1u << k)) {
			int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
					 bo_class_name((enum bo_class) k));

			used = w < 0 ? len : used + (size_t) w;
		}
	if (s->present && bo_verdict_any(&s->fnd) && used < len)
		snprintf(buf + used, len - used, " (%s)",
			 bo_findings_str(&s->fnd, BO_CLASS_COUNT, words, sizeof(words)));
	return buf;
}

const char *bo_markdiff_entry_str(const struct bo_log *log, uint64_t e, char *buf, size_t len)
{
	const struct bo_log_entry *x = bo_log_entry(log, e);

	if (!x)
		snprintf(buf, len, "?");
	else if (x->flags & BO_LOG_MARK)
		snprintf(buf, len, "mark %s", bo_log_mark_name(log, e));
	else if (x->flags & BO_LOG_DISCARD)
		snprintf(buf, len, "discard %" PRIu64 "+%" PRIu64, x->sector, x->nr_sectors);
	else if (!x->nr_sectors)
		snprintf(buf, len, "%s%s", x->flags & BO_LOG_FLUSH ? "FLUSH" : "empty",
			 x->flags & BO_LOG_FUA ? " FUA" : "");
	else
		snprintf(buf, len, "%s%swrite %" PRIu64 "+%" PRIu64 "%s",
			 x->flags & BO_LOG_FLUSH ? "FLUSH " : "",
			 x->flags & BO_LOG_FUA ? "FUA " : "", x->sector, x->nr_sectors,
			 x->flags & BO_LOG_METADATA ? " (metadata)" : "");
	return buf;
}

struct json_object *bo_markdiff_json(const struct bo_markdiff *d, struct bo_log *const *logs,
				     const char *const *names)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < d->nrow; i++) {
		const struct bo_markdiff_row *row = &d->rows[i];
		struct json_object *o = json_object_new_object(), *ks = json_object_new_object();

		json_object_object_add(o, "mark", json_object_new_string(row->mark));
		json_object_object_add(o, "differs", json_object_new_boolean(row->differs));
		json_object_object_add(o, "lint_differs",
				       json_object_new_boolean(row->lint_differs));
		json_object_object_add(o, "missing", json_object_new_boolean(row->missing));
		for (size_t c = 0; c < d->ncol; c++) {
			const struct bo_markdiff_side *s = &row->side[c];
			struct json_object *k = json_object_new_object(), *cl, *en;
			const char *lint = bo_markdiff_lint_str(s->lint);
			char buf[600];

			json_object_object_add(k, "present", json_object_new_boolean(s->present));
			if (!s->present) {
				json_object_object_add(ks, names[c], k);
				continue;
			}
			if (strcmp(row->mark, BO_MARKDIFF_START))
				json_object_object_add(k, "entry",
						       json_object_new_uint64(s->entry));
			json_object_object_add(k, "states", json_object_new_uint64(s->nstates));
			cl = json_object_new_array();
			for (unsigned b = 0; b < BO_CLASS_COUNT; b++)
				if (s->classes & (1u << b))
					json_object_array_add(
						cl, json_object_new_string(
							    bo_class_name((enum bo_class) b)));
			json_object_object_add(k, "classes", cl);
			json_object_object_add(k, "findings",
					       json_object_new_string(bo_findings_str(
						       &s->fnd, BO_CLASS_COUNT, buf, sizeof(buf))));
			json_object_object_add(k, "verdict",
					       json_object_new_string(bo_markdiff_verdict_str(
						       row, c, buf, sizeof(buf))));
			json_object_object_add(k, "lint",
					       lint ? json_object_new_string(lint) : NULL);
			json_object_object_add(k, "state",
					       s->state ? json_object_new_string(s->state) : NULL);
			if (row->differs && strcmp(row->mark, BO_MARKDIFF_START)) {
				en = json_object_new_array();
				for (uint64_t e = s->from; e < s->entry; e++)
					json_object_array_add(
						en, json_object_new_string(bo_markdiff_entry_str(
							    logs[c], e, buf, sizeof(buf))));
				json_object_object_add(k, "entries", en);
				json_object_object_add(k, "entries_from",
						       json_object_new_uint64(s->from));
			}
			json_object_object_add(ks, names[c], k);
		}
		json_object_object_add(o, "kernels", ks);
		json_object_array_add(a, o);
	}
	return a;
}
