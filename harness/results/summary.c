// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/results/summary.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/exit.h"
#include "harness/base/json.h"
#include "harness/base/path.h"

/* Op @id into @f's smallest ids, kept ascending and distinct. */
static void finding_op(struct bo_summary_finding *f, uint64_t id)
{
	unsigned at = 0;

	while (at < f->n_ops && f->ops[at] < id)
		at++;
	if (at < f->n_ops && f->ops[at] == id)
		return;
	if (at == BO_SUMMARY_OPS) {
		f->more = true;
		return;
	}
	if (f->n_ops == BO_SUMMARY_OPS)
		f->more = true;
	else
		f->n_ops++;
	memmove(f->ops + at + 1, f->ops + at, (f->n_ops - 1 - at) * sizeof(*f->ops));
	f->ops[at] = id;
}

static void finding_add(struct bo_summary_finding *f, const struct bo_opset *set, const char *id)
{
	f->states++;
	if (!f->first[0])
		snprintf(f->first, sizeof(f->first), "%s", id);
	for (size_t i = 0; i < set->n; i++)
		finding_op(f, set->v[i]);
}

void bo_summary_add(struct bo_summary *s, enum bo_class c, const char *id, double seconds,
		    const struct bo_verdict *v)
{
	if (c >= BO_CLASS_COUNT)
		c = BO_CLASS_HARNESS_ERROR;
	s->counts[c]++;
	s->states++;
	s->seconds_check += seconds;
	if (!s->first[c][0])
		snprintf(s->first[c], sizeof(s->first[c]), "%s", id);
	for (int f = 0; v && f < BO_FINDING_COUNT; f++) {
		const struct bo_opset *set = bo_verdict_set(v, (enum bo_finding) f);

		if (!set->n)
			continue;
		finding_add(&s->findings[f], set, id);
		if (!bo_class_names_finding(c, (enum bo_finding) f))
			finding_add(&s->also[c][f], set, id);
	}
}

const char *bo_summary_also_str(const struct bo_summary *s, enum bo_class c, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (int f = 0; c < BO_CLASS_COUNT && f < BO_FINDING_COUNT && used < len; f++) {
		const struct bo_summary_finding *a = &s->also[c][f];
		int w;

		if (!a->states)
			continue;
		w = snprintf(buf + used, len - used, "%s%" PRIu64 " also %s: op%s ",
			     used ? ", " : "", a->states, bo_finding_name((enum bo_finding) f),
			     a->n_ops > 1 ? "s" : "");
		for (unsigned i = 0; w >= 0 && i < a->n_ops && used + (size_t) w < len; i++)
			w += snprintf(buf + used + w, len - used - (size_t) w, "%s%" PRIu64,
				      i ? "," : "", a->ops[i]);
		if (w >= 0 && a->more && used + (size_t) w < len)
			w += snprintf(buf + used + w, len - used - (size_t) w, ",...");
		used = w < 0 ? len : used + (size_t) w;
	}
	return buf;
}

void bo_summary_error(struct bo_summary *s, const char *msg)
{
	if (!s->error[0])
		snprintf(s->error, sizeof(s->error), "%s", msg);
}

void bo_summary_sum(struct bo_summary *sum, const struct bo_summary *one)
{
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		sum->counts[c] += one->counts[c];
		if (!sum->first[c][0])
			snprintf(sum->first[c], sizeof(sum->first[c]), "%s", one->first[c]);
	}
	sum->states += one->states;
	sum->aliases += one->aliases;
	if (one->error[0])
		bo_summary_error(sum, one->error);
}

enum bo_verdict_kind bo_summary_verdict(const struct bo_summary *s)
{
	if (s->error[0] || s->states == 0 || s->counts[BO_CLASS_HARNESS_ERROR] ||
	    s->counts[BO_CLASS_CHECKER_ERROR])
		return BO_VERDICT_ERROR;
	if (s->counts[BO_CLASS_CONSISTENT] != s->states)
		return BO_VERDICT_FAILED;
	return BO_VERDICT_CONSISTENT;
}

const char *bo_verdict_name(enum bo_verdict_kind v)
{
	switch (v) {
	case BO_VERDICT_CONSISTENT:
		return "consistent";
	case BO_VERDICT_FAILED:
		return "failed";
	default:
		return "error";
	}
}

int bo_verdict_exit(enum bo_verdict_kind v)
{
	switch (v) {
	case BO_VERDICT_CONSISTENT:
		return BO_EXIT_OK;
	case BO_VERDICT_FAILED:
		return BO_EXIT_FAILURE;
	default:
		return BO_EXIT_HARNESS;
	}
}

static struct json_object *finding_json(const struct bo_summary_finding *f)
{
	struct json_object *o = json_object_new_object(), *ops = json_object_new_array();

	if (!o || !ops) {
		json_object_put(o);
		json_object_put(ops);
		return NULL;
	}
	json_object_object_add(o, "states", json_object_new_uint64(f->states));
	if (f->first[0])
		json_object_object_add(o, "first", json_object_new_string(f->first));
	for (unsigned i = 0; i < f->n_ops; i++)
		json_object_array_add(ops, json_object_new_uint64(f->ops[i]));
	json_object_object_add(o, "ops", ops);
	if (f->more)
		json_object_object_add(o, "more_ops", json_object_new_boolean(true));
	return o;
}

/* "findings" (every kind) and "also" (per class, the kinds it holds) of @s into @o. */
static bool findings_json(const struct bo_summary *s, struct json_object *o)
{
	struct json_object *fo = json_object_new_object(), *also = json_object_new_object();
	bool ok = fo && also;

	for (int f = 0; ok && f < BO_FINDING_COUNT; f++)
		ok = !json_object_object_add(fo, bo_finding_name((enum bo_finding) f),
					     finding_json(&s->findings[f]));
	for (int c = 0; ok && c < BO_CLASS_COUNT; c++) {
		struct json_object *co = NULL;

		for (int f = 0; ok && f < BO_FINDING_COUNT; f++) {
			if (!s->also[c][f].states)
				continue;
			if (!co) {
				ok = (co = json_object_new_object()) &&
				     !json_object_object_add(also, bo_class_name((enum bo_class) c),
							     co);
			}
			ok = ok && !json_object_object_add(co, bo_finding_name((enum bo_finding) f),
							   finding_json(&s->also[c][f]));
		}
	}
	ok = ok && !json_object_object_add(o, "findings", fo);
	fo = NULL;
	ok = ok && !json_object_object_add(o, "also", also);
	if (!ok) {
		json_object_put(fo);
		json_object_put(also);
	}
	return ok;
}

struct json_object *bo_summary_json(const struct bo_summary *s)
{
	struct json_object *o = bo_json_new_doc();
	struct json_object *counts = json_object_new_object();
	struct json_object *first = json_object_new_object();
	enum bo_verdict_kind v = bo_summary_verdict(s);
	bool ok = o && counts && first;

	for (int c = 0; ok && c < BO_CLASS_COUNT; c++) {
		ok = json_object_object_add(counts, bo_class_name((enum bo_class) c),
					    json_object_new_uint64(s->counts[c])) == 0;
		if (ok && s->first[c][0])
			ok = json_object_object_add(first, bo_class_name((enum bo_class) c),
						    json_object_new_string(s->first[c])) == 0;
	}
	ok = ok &&
	     !json_object_object_add(o, "verdict", json_object_new_string(bo_verdict_name(v)));
	ok = ok &&
	     !json_object_object_add(o, "exit_status", json_object_new_int(bo_verdict_exit(v)));
	ok = ok && !json_object_object_add(o, "states_checked", json_object_new_uint64(s->states));
	ok = ok && !json_object_object_add(o, "states_aliased", json_object_new_uint64(s->aliases));
	ok = ok && !json_object_object_add(o, "counts", counts);
	counts = NULL;
	ok = ok && !json_object_object_add(o, "first_state", first);
	first = NULL;
	ok = ok && findings_json(s, o);
	ok = ok &&
	     !json_object_object_add(o, "seconds_total", json_object_new_double(s->seconds_total));
	ok = ok && !json_object_object_add(o, "seconds_checking",
					   json_object_new_double(s->seconds_check));
	if (ok && (s->error[0] || s->states == 0))
		ok = !json_object_object_add(
			o, "error",
			json_object_new_string(s->error[0] ? s->error
							   : BO_SUMMARY_NOTHING_CHECKED));
	if (!ok) {
		json_object_put(counts);
		json_object_put(first);
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* summary.json comes from the guest and is printed on the user's terminal: no control
 * characters but newline and tab (an escape sequence could rewrite what the report says). */
static void defang(char *s)
{
	for (; *s; s++)
		if (((unsigned char) *s < 0x20 && *s != '\n' && *s != '\t') || *s == 0x7f)
			*s = '?';
}

/* One finding's object @o into @f; false when it is not one. */
static bool finding_from_json(struct json_object *o, struct bo_summary_finding *f)
{
	struct json_object *ops, *v;
	const char *first = bo_json_str(o, "first");

	if (!bo_json_u64(o, "states", &f->states) ||
	    (json_object_object_get_ex(o, "first", NULL) && !first) ||
	    !json_object_object_get_ex(o, "ops", &ops) ||
	    !json_object_is_type(ops, json_type_array))
		return false;
	if (first)
		snprintf(f->first, sizeof(f->first), "%s", first);
	for (size_t i = 0; i < json_object_array_length(ops); i++) {
		v = json_object_array_get_idx(ops, i);
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
			return false;
		finding_op(f, (uint64_t) json_object_get_int64(v));
	}
	if (json_object_object_get_ex(o, "more_ops", &v)) {
		if (!json_object_is_type(v, json_type_boolean))
			return false;
		f->more |= json_object_get_boolean(v);
	}
	return true;
}

/* "findings" and "also" of summary @o into @s (a summary from before findings has neither);
 * NULL, or the member that is malformed. */
static const char *findings_from_json(struct json_object *o, struct bo_summary *s)
{
	struct json_object *fo, *also, *v;

	if (json_object_object_get_ex(o, "findings", &fo)) {
		if (!json_object_is_type(fo, json_type_object))
			return "findings";
		for (int f = 0; f < BO_FINDING_COUNT; f++)
			if (json_object_object_get_ex(fo, bo_finding_name((enum bo_finding) f),
						      &v) &&
			    !finding_from_json(v, &s->findings[f]))
				return "findings";
	}
	if (!json_object_object_get_ex(o, "also", &also))
		return NULL;
	if (!json_object_is_type(also, json_type_object))
		return "also";
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		struct json_object *co;

		if (!json_object_object_get_ex(also, bo_class_name((enum bo_class) c), &co))
			continue;
		if (!json_object_is_type(co, json_type_object))
			return "also";
		for (int f = 0; f < BO_FINDING_COUNT; f++)
			if (json_object_object_get_ex(co, bo_finding_name((enum bo_finding) f),
						      &v) &&
			    !finding_from_json(v, &s->also[c][f]))
				return "also";
	}
	return NULL;
}

/* Whether "first_state" @o is what the writer makes: an object whose members are strings
 * (commands walk it as one). */
static bool first_ok(struct json_object *o)
{
	if (!json_object_is_type(o, json_type_object))
		return false;
	json_object_object_foreach(o, k, id)
	{
		(void) k;
		if (!json_object_is_type(id, json_type_string))
			return false;
	}
	return true;
}

int bo_summary_from_json(struct json_object *o, struct bo_summary *ret, struct bo_err *err)
{
	struct bo_summary s = {0};
	struct json_object *counts, *first = NULL, *v;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "counts", &counts) ||
	    !json_object_is_type(counts, json_type_object))
		return bo_err_set(err, EBADMSG, "summary.json: no \"counts\" object");
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		/* A summary from before the classes recovery-unsafe and repair-failed has no count
		 * of them. */
		if ((c == BO_CLASS_RECOVERY_UNSAFE || c == BO_CLASS_REPAIR_FAILED) &&
		    !json_object_object_get_ex(counts, bo_class_name((enum bo_class) c), NULL))
			continue;
		if (!json_object_object_get_ex(counts, bo_class_name((enum bo_class) c), &v) ||
		    !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
			return bo_err_set(err, EBADMSG, "summary.json: counts.%s missing or bad",
					  bo_class_name((enum bo_class) c));
		s.counts[c] = (uint64_t) json_object_get_int64(v);
		s.states += s.counts[c];
	}
	if (json_object_object_get_ex(o, "first_state", &first) && !first_ok(first))
		return bo_err_set(err, EBADMSG,
				  "summary.json: \"first_state\" is not an object of state ids");
	for (int c = 0; first && c < BO_CLASS_COUNT; c++)
		if (json_object_object_get_ex(first, bo_class_name((enum bo_class) c), &v))
			snprintf(s.first[c], sizeof(s.first[c]), "%s", json_object_get_string(v));
	if (json_object_object_get_ex(o, "states_aliased", &v) &&
	    json_object_is_type(v, json_type_int) && json_object_get_int64(v) >= 0)
		s.aliases = (uint64_t) json_object_get_int64(v);
	if (json_object_object_get_ex(o, "seconds_total", &v))
		s.seconds_total = json_object_get_double(v);
	if (json_object_object_get_ex(o, "seconds_checking", &v))
		s.seconds_check = json_object_get_double(v);
	if (json_object_object_get_ex(o, "error", &v) && json_object_is_type(v, json_type_string))
		snprintf(s.error, sizeof(s.error), "%s", json_object_get_string(v));
	{
		const char *bad = findings_from_json(o, &s);

		if (bad)
			return bo_err_set(err, EBADMSG, "summary.json: \"%s\" is malformed", bad);
	}
	defang(s.error);
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		defang(s.first[c]);
		for (int f = 0; f < BO_FINDING_COUNT; f++)
			defang(s.also[c][f].first);
	}
	for (int f = 0; f < BO_FINDING_COUNT; f++)
		defang(s.findings[f].first);
	*ret = s;
	return 0;
}

int bo_summary_read(const char *dir, struct bo_summary *ret, struct json_object **ret_json,
		    struct bo_err *err)
{
	char path[PATH_MAX];
	struct json_object *o;
	int r;

	if (bo_pathf(path, sizeof(path), "%s/summary.json", dir) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/summary.json': path too long", dir);
	r = bo_json_read_in_max(dir, "summary.json", BO_SUMMARY_MAX, &o, err);
	if (r < 0)
		return r;
	r = bo_json_check_format(o, path, err);
	if (r >= 0)
		r = bo_summary_from_json(o, ret, err);
	if (r < 0) {
		json_object_put(o);
		return r;
	}
	if (ret_json)
		*ret_json = o;
	else
		json_object_put(o);
	return 0;
}
