// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * differential.c — differential.json read and checked whole (differential.h).
 */
#include "harness/results/differential.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"

/* How a member may be: absent, or null. */
enum { OPT = 1 << 0, NUL = 1 << 1 };

static const char *type_name(enum json_type t)
{
	return t == json_type_object	? "an object"
	       : t == json_type_array	? "an array"
	       : t == json_type_string	? "a string"
	       : t == json_type_boolean ? "true or false"
					: "an integer";
}

/* Member @key of @o (@where in the file @path) is of type @t, or as @how allows. */
static int member(struct json_object *o, const char *key, enum json_type t, unsigned how,
		  const char *path, const char *where, struct bo_err *err)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return (how & OPT) ? 0
				   : bo_err_set(err, EBADMSG, "'%s': %s has no \"%s\"", path, where,
						key);
	if (json_object_is_type(v, t) || (!v && (how & NUL)))
		return 0;
	return bo_err_set(err, EBADMSG, "'%s': %s.%s is not %s%s", path, where, key, type_name(t),
			  (how & NUL) ? " or null" : "");
}

/* Member @key of @o is an object whose members are of type @t or null (and absent with
 * OPT in @how). */
static int members_of(struct json_object *o, const char *key, enum json_type t, unsigned how,
		      const char *path, const char *where, struct bo_err *err)
{
	struct json_object *m = json_object_object_get(o, key);
	int r = member(o, key, json_type_object, how & OPT, path, where, err);

	if (r < 0 || !m)
		return r;
	json_object_object_foreach(m, k, v)
	{
		(void) k;
		if (!json_object_is_type(v, t) && v)
			return bo_err_set(err, EBADMSG, "'%s': %s.%s holds what is not %s", path,
					  where, key, type_name(t));
	}
	return 0;
}

/* "kernels": each kernel's release and results directory, beneath the tree. */
static int kernels_check(struct json_object *d, const char *path, struct bo_err *err)
{
	struct json_object *ks = json_object_object_get(d, "kernels");
	int r = member(d, "kernels", json_type_array, 0, path, "the document", err);
	char where[64], what[PATH_MAX + 128];

	for (size_t i = 0; r >= 0 && i < json_object_array_length(ks); i++) {
		struct json_object *k = json_object_array_get_idx(ks, i);

		snprintf(where, sizeof(where), "kernels[%zu]", i);
		if (!json_object_is_type(k, json_type_object))
			return bo_err_set(err, EBADMSG, "'%s': %s is not an object", path, where);
		r = member(k, "release", json_type_string, 0, path, where, err);
		if (r >= 0)
			r = member(k, "results", json_type_string, 0, path, where, err);
		if (r >= 0)
			r = member(k, "exit_status", json_type_int, OPT, path, where, err);
		if (r >= 0 && !bo_name_plain(bo_json_str(k, "release")))
			r = bo_err_set(err, EBADMSG, "'%s': %s.release is not a plain name", path,
				       where);
		snprintf(what, sizeof(what), "'%s': %s.results", path, where);
		if (r >= 0)
			r = bo_input_rel_check(bo_json_str(k, "results"), what, err);
	}
	return r;
}

/* Row @o ("states[i]" or "marks[i]": @where) as check --kernels or run --kernels write it. */
static int row_check(struct json_object *o, bool by_mark, const char *path, const char *where,
		     struct bo_err *err)
{
	static const char *const flags[] = {"differs", "lint_differs", "missing"};
	static const char *const words[] = {"verdict", "lint", "state", "findings"};
	struct json_object *ks;
	char side[320];
	int r = 0;

	if (!json_object_is_type(o, json_type_object))
		return bo_err_set(err, EBADMSG, "'%s': %s is not an object", path, where);
	for (size_t i = 0; r >= 0 && i < BO_ARRAY_SIZE(flags); i++)
		r = member(o, flags[i], json_type_boolean, OPT, path, where, err);
	if (r >= 0 && !by_mark) {
		r = member(o, "state", json_type_string, 0, path, where, err);
		if (r >= 0)
			r = members_of(o, "classes", json_type_string, 0, path, where, err);
		if (r >= 0)
			r = members_of(o, "findings", json_type_string, OPT, path, where, err);
		return r;
	}
	if (r >= 0)
		r = member(o, "mark", json_type_string, 0, path, where, err);
	if (r >= 0)
		r = members_of(o, "kernels", json_type_object, 0, path, where, err);
	if (r < 0)
		return r;
	ks = json_object_object_get(o, "kernels");
	json_object_object_foreach(ks, k, v)
	{
		_cleanup_free_ char *name = bo_sanitize(k, true);

		snprintf(side, sizeof(side), "%s.kernels['%s']", where, name ? name : "?");
		for (size_t i = 0; r >= 0 && v && i < BO_ARRAY_SIZE(words); i++)
			r = member(v, words[i], json_type_string, OPT | NUL, path, side, err);
		if (r < 0)
			return r;
	}
	return 0;
}

bool bo_differential_by_mark(struct json_object *d)
{
	const char *kind = bo_json_str(d, "kind");

	return kind && !strcmp(kind, "marks");
}

int bo_differential_read(const char *tree, struct json_object **ret, struct bo_err *err)
{
	_cleanup_json_ struct json_object *d = NULL;
	struct json_object *rows;
	const char *key, *kind;
	char path[PATH_MAX], where[64];
	int r = bo_json_read_in(tree, "differential.json", &d, err);

	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/differential.json", tree);
	r = bo_json_check_format(d, path, err);
	if (r < 0)
		return r;
	r = member(d, "kind", json_type_string, OPT, path, "the document", err);
	kind = bo_json_str(d, "kind");
	if (r >= 0 && kind && strcmp(kind, "differential") && strcmp(kind, "marks"))
		r = bo_err_set(err, EBADMSG,
			       "'%s': \"kind\" is neither \"differential\" nor "
			       "\"marks\"",
			       path);
	if (r >= 0)
		r = kernels_check(d, path, err);
	key = bo_differential_by_mark(d) ? "marks" : "states";
	if (r >= 0)
		r = member(d, key, json_type_array, 0, path, "the document", err);
	rows = json_object_object_get(d, key);
	for (size_t i = 0; r >= 0 && i < json_object_array_length(rows); i++) {
		snprintf(where, sizeof(where), "%s[%zu]", key, i);
		r = row_check(json_object_array_get_idx(rows, i), bo_differential_by_mark(d), path,
			      where, err);
	}
	if (r < 0)
		return r;
	*ret = BO_TAKE_PTR(d);
	return 0;
}
