// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Failing states of nightly runs, compared by identity.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/diagnose/baseline.h"
#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/json.h"
#include "harness/diagnose/compare.h"
#include "harness/results/stream.h"
#include "harness/states/findings.h"

/* Joins the parts of a key: a control character, which no sanitized string holds, so that
 * no two cells or failures share one. */
#define SEP "\x1f"

static void failure_free(struct bo_failure *f)
{
	free(f->scenario);
	free(f->fs);
	free(f->options);
	free(f->kernel);
	free(f->persona);
	free(f->state);
	free(f->cls);
	free(f->findings);
	free(f->was_cls);
	free(f->was_findings);
	free(f->cell);
	free(f->key);
}

/* @s sanitized, or "" for NULL; NULL without memory. */
static char *clean(const char *s)
{
	return bo_sanitize(s ? s : "", true);
}

/* The key of the cell of the sanitized axes @f (a failure's, or one made of a cell). */
static char *cell_key(const struct bo_failure *f)
{
	char *key;

	return asprintf(&key, "%s" SEP "%s" SEP "%s" SEP "%s" SEP "%s", f->scenario, f->fs,
			f->options, f->kernel, f->persona) < 0
		       ? NULL
		       : key;
}

/* @c's axes sanitized into @f, with its cell's key; -ENOMEM (@f to be freed either way). */
static int make_cell(struct bo_failure *f, const struct bo_cell *c)
{
	f->scenario = clean(c->scenario);
	f->fs = clean(c->fs);
	f->options = clean(c->options);
	f->kernel = clean(c->kernel);
	f->persona = clean(c->persona);
	if (!f->scenario || !f->fs || !f->options || !f->kernel || !f->persona)
		return -ENOMEM;
	f->cell = cell_key(f);
	return f->cell ? 0 : -ENOMEM;
}

int bo_failset_add(struct bo_failset *s, const struct bo_cell *c, const char *state,
		   const char *cls, const char *findings)
{
	struct bo_failure f = {0};

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct bo_failure *v = reallocarray(s->v, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	f.state = clean(state);
	f.cls = clean(cls);
	f.findings = clean(findings);
	if (make_cell(&f, c) < 0 || !f.state || !f.cls || !f.findings ||
	    asprintf(&f.key, "%s" SEP "%s", f.cell, f.state) < 0) {
		f.key = NULL;
		failure_free(&f);
		return -ENOMEM;
	}
	s->v[s->n++] = f;
	return 0;
}

int bo_failset_ran(struct bo_failset *s, const struct bo_cell *c)
{
	struct bo_failure f = {0};
	char **more = reallocarray(s->ran, s->nran + 1, sizeof(*more));
	int r;

	if (!more)
		return -ENOMEM;
	s->ran = more;
	r = make_cell(&f, c);
	if (r >= 0)
		s->ran[s->nran++] = BO_TAKE_PTR(f.cell);
	failure_free(&f);
	return r;
}

void bo_failset_clear(struct bo_failset *s)
{
	for (size_t i = 0; i < s->n; i++)
		failure_free(&s->v[i]);
	free(s->v);
	for (size_t i = 0; i < s->nran; i++)
		free(s->ran[i]);
	free(s->ran);
	memset(s, 0, sizeof(*s));
}

int bo_failset_from_summary(struct json_object *summary, const char *what, struct bo_failset *ret,
			    struct bo_err *err)
{
	struct json_object *runs, *run, *failing, *f;
	struct bo_failset s = {0};

	if (!json_object_object_get_ex(summary, "runs", &runs) ||
	    !json_object_is_type(runs, json_type_array))
		return bo_err_set(err, EINVAL, "%s: no \"runs\" array: not a nightly summary",
				  what);
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		struct bo_cell c;

		run = json_object_array_get_idx(runs, i);
		/* A summary from before the kernel or persona axis has neither. */
		c = (struct bo_cell){
			.scenario = bo_json_str(run, "scenario"),
			.fs = bo_json_str(run, "fs"),
			.options = bo_json_str(run, "mount_options"),
			.kernel = bo_json_str(run, "kernel"),
			.persona = bo_json_str(run, "persona"),
		};
		if (!c.scenario || !c.fs || !c.options ||
		    !json_object_object_get_ex(run, "failing", &failing) ||
		    !json_object_is_type(failing, json_type_array)) {
			bo_failset_clear(&s);
			return bo_err_set(err, EINVAL,
					  "%s: runs[%zu]: needs \"scenario\", \"fs\", "
					  "\"mount_options\" and a \"failing\" array",
					  what, i);
		}
		for (size_t j = 0; j < json_object_array_length(failing); j++) {
			const char *st, *cls;

			f = json_object_array_get_idx(failing, j);
			st = bo_json_str(f, "state");
			cls = bo_json_str(f, "class");
			if (!st) {
				bo_failset_clear(&s);
				return bo_err_set(err, EINVAL,
						  "%s: runs[%zu].failing[%zu]: no \"state\"", what,
						  i, j);
			}
			if (bo_failset_add(&s, &c, st, cls, bo_json_str(f, "findings")) < 0) {
				bo_failset_clear(&s);
				return bo_err_set(err, ENOMEM, "out of memory");
			}
		}
	}
	*ret = s;
	return 0;
}

int bo_failset_from_stream(struct bo_failset *s, const char *dir, const char *prefix,
			   const struct bo_cell *c, struct bo_err *err)
{
	struct bo_stream *st = NULL;
	struct bo_stream_rec rec;
	struct bo_strmap states = {0}; /* this run's failing states, by id */
	int r = bo_stream_open(dir, &st, err);

	while (r >= 0 && (r = bo_stream_next(st, &rec, err)) > 0) {
		char words[512];
		const char *fw =
			bo_findings_str(&rec.findings, BO_CLASS_COUNT, words, sizeof(words));
		_cleanup_free_ char *of = NULL, *id = NULL;
		size_t i;

		if (!bo_stream_is_state(&rec) || rec.cls == BO_CLASS_CONSISTENT)
			continue;
		if ((rec.alias_of &&
		     asprintf(&of, "%s%s", prefix ? prefix : "", rec.alias_of) < 0) ||
		    asprintf(&id, "%s%s", prefix ? prefix : "", rec.state) < 0) {
			of = id = NULL;
			r = bo_err_set(err, ENOMEM, "out of memory");
			break;
		}
		/* An alias has the findings of the state it repeats, recorded before it. */
		if (of) {
			char *c2 = clean(of);

			free(of);
			of = c2;
		}
		if (of && bo_strmap_get(&states, of, &i))
			fw = s->v[i].findings;
		if (bo_failset_add(s, c, id, bo_class_name(rec.cls), fw) < 0 ||
		    bo_strmap_put(&states, s->v[s->n - 1].state, s->n - 1, NULL) < 0)
			r = bo_err_set(err, ENOMEM, "out of memory");
	}
	bo_strmap_clear(&states);
	bo_stream_free(st);
	return r;
}

/* Add a copy of @f to @s; with @was, what the baseline had of it. */
static int add_copy(struct bo_failset *s, const struct bo_failure *f, const struct bo_failure *was)
{
	const struct bo_cell c = {f->scenario, f->fs, f->options, f->kernel, f->persona};
	struct bo_failure *n;

	if (bo_failset_add(s, &c, f->state, f->cls, f->findings) < 0)
		return -ENOMEM;
	if (!was)
		return 0;
	n = &s->v[s->n - 1];
	n->was_cls = strdup(was->cls);
	n->was_findings = strdup(was->findings);
	return n->was_cls && n->was_findings ? 0 : -ENOMEM;
}

static void details_free(char **d, size_t n)
{
	for (size_t i = 0; d && i < n; i++)
		free(d[i]);
	free(d);
}

/* The entries of the comparison of @s (its identities and cells, borrowed), their detail its
 * class and findings, in *@ret_details (details_free()); NULL without memory. */
static struct bo_cmp_entry *entries(const struct bo_failset *s, char ***ret_details)
{
	struct bo_cmp_entry *v = calloc(s->n + 1, sizeof(*v));
	char **d = calloc(s->n + 1, sizeof(*d));

	for (size_t i = 0; v && d && i < s->n; i++) {
		if (asprintf(&d[i], "%s" SEP "%s", s->v[i].cls, s->v[i].findings) < 0) {
			d[i] = NULL;
			details_free(d, i);
			d = NULL;
			break;
		}
		v[i] = (struct bo_cmp_entry){
			.key = s->v[i].key, .detail = d[i], .cell = s->v[i].cell};
	}
	if (!v || !d) {
		free(v);
		free(d);
		return NULL;
	}
	*ret_details = d;
	return v;
}

int bo_baseline_diff(const struct bo_failset *base, const struct bo_failset *cur,
		     struct bo_baseline_diff *ret)
{
	struct bo_baseline_diff d = {0};
	char **bd = NULL, **cd = NULL;
	_cleanup_free_ struct bo_cmp_entry *b = entries(base, &bd);
	_cleanup_free_ struct bo_cmp_entry *c = entries(cur, &cd);
	struct bo_strmap ran = {0};
	int r = b && c ? 0 : -ENOMEM;

	for (size_t i = 0; r >= 0 && i < cur->nran; i++)
		r = bo_strmap_put(&ran, cur->ran[i], i, NULL);
	if (r >= 0)
		r = bo_compare(b, base->n, c, cur->n, &ran);
	for (size_t i = 0; r >= 0 && i < cur->n; i++)
		if (c[i].status == BO_CMP_NEW)
			r = add_copy(&d.added, &cur->v[i], NULL);
		else if (c[i].status == BO_CMP_CHANGED)
			r = add_copy(&d.changed, &cur->v[i], &base->v[c[i].other]);
		else if (c[i].status == BO_CMP_UNCHANGED)
			r = add_copy(&d.same, &cur->v[i], NULL);
	for (size_t i = 0; r >= 0 && i < base->n; i++)
		if (b[i].status == BO_CMP_FIXED)
			r = add_copy(&d.fixed, &base->v[i], NULL);
		else if (b[i].status == BO_CMP_NOT_RUN)
			r = add_copy(&d.not_run, &base->v[i], NULL);
	bo_strmap_clear(&ran);
	details_free(bd, base->n);
	details_free(cd, cur->n);
	if (r < 0) {
		bo_baseline_diff_clear(&d);
		return r;
	}
	*ret = d;
	return 0;
}

void bo_baseline_diff_clear(struct bo_baseline_diff *d)
{
	bo_failset_clear(&d->added);
	bo_failset_clear(&d->fixed);
	bo_failset_clear(&d->not_run);
	bo_failset_clear(&d->changed);
	bo_failset_clear(&d->same);
}

static struct json_object *set_json(const struct bo_failset *s)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < s->n; i++) {
		struct json_object *o = json_object_new_object();

		if (!o)
			break;
		json_object_object_add(o, "scenario", json_object_new_string(s->v[i].scenario));
		json_object_object_add(o, "fs", json_object_new_string(s->v[i].fs));
		json_object_object_add(o, "mount_options", json_object_new_string(s->v[i].options));
		if (*s->v[i].kernel)
			json_object_object_add(o, "kernel", json_object_new_string(s->v[i].kernel));
		if (*s->v[i].persona)
			json_object_object_add(o, "persona",
					       json_object_new_string(s->v[i].persona));
		json_object_object_add(o, "state", json_object_new_string(s->v[i].state));
		json_object_object_add(o, "class", json_object_new_string(s->v[i].cls));
		if (*s->v[i].findings)
			json_object_object_add(o, "findings",
					       json_object_new_string(s->v[i].findings));
		if (s->v[i].was_cls) {
			json_object_object_add(o, "was_class",
					       json_object_new_string(s->v[i].was_cls));
			json_object_object_add(o, "was_findings",
					       json_object_new_string(s->v[i].was_findings));
		}
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *bo_baseline_diff_json(const struct bo_baseline_diff *d)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "new", set_json(&d->added));
	json_object_object_add(o, "fixed", set_json(&d->fixed));
	json_object_object_add(o, "not_run", set_json(&d->not_run));
	json_object_object_add(o, "changed", set_json(&d->changed));
	json_object_object_add(o, "unchanged", set_json(&d->same));
	return o;
}
