// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/results/summary.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/exit.h"
#include "harness/base/json.h"
#include "harness/base/path.h"

void bo_summary_add(struct bo_summary *s, enum bo_class c, const char *id, double seconds)
{
	if (c >= BO_CLASS_COUNT)
		c = BO_CLASS_HARNESS_ERROR;
	s->counts[c]++;
	s->states++;
	s->seconds_check += seconds;
	if (!s->first[c][0])
		snprintf(s->first[c], sizeof(s->first[c]), "%s", id);
}

void bo_summary_error(struct bo_summary *s, const char *msg)
{
	if (!s->error[0])
		snprintf(s->error, sizeof(s->error), "%s", msg);
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
	ok = ok &&
	     !json_object_object_add(o, "seconds_total", json_object_new_double(s->seconds_total));
	ok = ok && !json_object_object_add(o, "seconds_checking",
					   json_object_new_double(s->seconds_check));
	if (ok && (s->error[0] || s->states == 0))
		ok = !json_object_object_add(
			o, "error",
			json_object_new_string(s->error[0] ? s->error
							   : "no crash state was checked"));
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

int bo_summary_from_json(struct json_object *o, struct bo_summary *ret, struct bo_err *err)
{
	struct bo_summary s = {0};
	struct json_object *counts, *first, *v;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "counts", &counts) ||
	    !json_object_is_type(counts, json_type_object))
		return bo_err_set(err, EBADMSG, "summary.json: no \"counts\" object");
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		/* A summary from before the class recovery-unsafe has no count of it. */
		if (c == BO_CLASS_RECOVERY_UNSAFE &&
		    !json_object_object_get_ex(counts, bo_class_name((enum bo_class) c), NULL))
			continue;
		if (!json_object_object_get_ex(counts, bo_class_name((enum bo_class) c), &v) ||
		    !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
			return bo_err_set(err, EBADMSG, "summary.json: counts.%s missing or bad",
					  bo_class_name((enum bo_class) c));
		s.counts[c] = (uint64_t) json_object_get_int64(v);
		s.states += s.counts[c];
	}
	if (json_object_object_get_ex(o, "first_state", &first) &&
	    json_object_is_type(first, json_type_object))
		for (int c = 0; c < BO_CLASS_COUNT; c++)
			if (json_object_object_get_ex(first, bo_class_name((enum bo_class) c),
						      &v) &&
			    json_object_is_type(v, json_type_string))
				snprintf(s.first[c], sizeof(s.first[c]), "%s",
					 json_object_get_string(v));
	if (json_object_object_get_ex(o, "states_aliased", &v) &&
	    json_object_is_type(v, json_type_int) && json_object_get_int64(v) >= 0)
		s.aliases = (uint64_t) json_object_get_int64(v);
	if (json_object_object_get_ex(o, "seconds_total", &v))
		s.seconds_total = json_object_get_double(v);
	if (json_object_object_get_ex(o, "seconds_checking", &v))
		s.seconds_check = json_object_get_double(v);
	if (json_object_object_get_ex(o, "error", &v) && json_object_is_type(v, json_type_string))
		snprintf(s.error, sizeof(s.error), "%s", json_object_get_string(v));
	defang(s.error);
	for (int c = 0; c < BO_CLASS_COUNT; c++)
		defang(s.first[c]);
	*ret = s;
	return 0;
}

int bo_summary_read(const char *dir, struct bo_summary *ret, struct json_object **ret_json,
		    struct bo_err *err)
{
	char path[PATH_MAX];
	struct json_object *o;
	int fd, r;

	if (bo_pathf(path, sizeof(path), "%s/summary.json", dir) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/summary.json': path too long", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return bo_err_set(err, errno, "reading '%s': %s", path, strerror(errno));
	o = json_object_from_fd(fd);
	close(fd);
	if (!o)
		return bo_err_set(err, EBADMSG, "summary.json: not JSON");
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
