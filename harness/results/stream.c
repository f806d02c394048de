// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/results/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/path.h"

struct bo_stream {
	FILE *f;
	char path[PATH_MAX];
	char *line;
	size_t cap;
	unsigned lineno;
	struct json_object *cur;
	struct bo_verdict cur_findings;
	bool torn;
};

int bo_stream_open(const char *dir, struct bo_stream **ret, struct bo_err *err)
{
	struct bo_stream *s = calloc(1, sizeof(*s));
	int fd;

	if (!s)
		return bo_err_set(err, ENOMEM, "reading '%s/stream.jsonl': out of memory", dir);
	if (bo_pathf(s->path, sizeof(s->path), "%s/stream.jsonl", dir) < 0) {
		free(s);
		return bo_err_set(err, ENAMETOOLONG, "'%s/stream.jsonl': path too long", dir);
	}
	/* Its size is the point: a long run's stream is as long as it is. */
	fd = bo_input_open(dir, "stream.jsonl", 0, 0, NULL, err);
	if (fd < 0) {
		free(s);
		return fd;
	}
	if (!(s->f = fdopen(fd, "r"))) {
		int e = errno;

		close(fd);
		free(s);
		return bo_err_set(err, e, "reading '%s/stream.jsonl': %s", dir, strerror(e));
	}
	*ret = s;
	return 0;
}

void bo_stream_free(struct bo_stream *s)
{
	if (!s)
		return;
	json_object_put(s->cur);
	bo_verdict_clear(&s->cur_findings);
	if (s->f)
		fclose(s->f);
	free(s->line);
	free(s);
}

const char *bo_stream_path(const struct bo_stream *s)
{
	return s->path;
}

bool bo_stream_torn(const struct bo_stream *s)
{
	return s->torn;
}

int bo_stream_rec_findings(struct json_object *o, struct bo_verdict *ret, const char **ret_bad)
{
	struct bo_verdict v = {0};
	struct json_object *a, *why;
	int r = 0;

	*ret_bad = NULL;
	for (int f = 0; f < BO_FINDING_COUNT && r >= 0; f++) {
		const char *key = bo_finding_key((enum bo_finding) f);

		if (!json_object_object_get_ex(o, key, &a))
			continue;
		*ret_bad = key;
		if (!json_object_is_type(a, json_type_array))
			r = -EBADMSG;
		for (size_t i = 0; r >= 0 && i < json_object_array_length(a); i++) {
			struct json_object *e = json_object_array_get_idx(a, i);

			if (!json_object_is_type(e, json_type_int) || json_object_get_int64(e) < 0)
				r = -EBADMSG;
			else
				r = bo_opset_add(bo_verdict_set_mut(&v, (enum bo_finding) f),
						 (uint64_t) json_object_get_int64(e));
		}
	}
	if (r >= 0 && json_object_object_get_ex(o, "why", &why)) {
		*ret_bad = "why";
		if (!json_object_is_type(why, json_type_object))
			r = -EBADMSG;
		else {
			json_object_object_foreach(why, k, w)
			{
				(void) k;
				if (!json_object_is_type(w, json_type_string))
					r = -EBADMSG;
			}
		}
	}
	if (r < 0) {
		bo_verdict_clear(&v);
		return r;
	}
	*ret_bad = NULL;
	*ret = v;
	return 0;
}

/* The fields of a state or alias record into @rec; false when one is missing or wrong. */
static bool state_fields(struct bo_stream_rec *rec, bool alias)
{
	const char *cls = bo_json_str(rec->o, "class");

	rec->state = bo_json_str(rec->o, "state");
	rec->alias_of = alias ? bo_json_str(rec->o, "alias_of") : NULL;
	return rec->state && *rec->state && (!alias || (rec->alias_of && *rec->alias_of)) &&
	       bo_json_u64(rec->o, "cut", &rec->cut) && cls &&
	       bo_class_from_name(cls, &rec->cls) == 0;
}

int bo_stream_next(struct bo_stream *s, struct bo_stream_rec *ret, struct bo_err *err)
{
	struct bo_stream_rec rec = {0};
	ssize_t len;
	int r;

	json_object_put(s->cur);
	s->cur = NULL;
	bo_verdict_clear(&s->cur_findings);
	len = bo_input_read_line(s->f, BO_STREAM_LINE_MAX, &s->line, &s->cap);
	if (len == -E2BIG)
		return bo_err_set(
			err, E2BIG,
			"%s:%u: a line longer than %u bytes: no record blackout writes is "
			"(docs/results.md)",
			s->path, s->lineno + 1, BO_STREAM_LINE_MAX);
	if (len < 0)
		return bo_err_set(err, (int) -len, "%s:%u: %s", s->path, s->lineno + 1,
				  strerror((int) -len));
	if (len == 0)
		return 0;
	s->lineno++;
	if (s->line[len - 1] != '\n') {
		/* The last line, without its newline: a record a crash cut short. */
		s->torn = true;
		return 0;
	}
	r = bo_json_parse(s->line, (size_t) len, s->path, s->lineno, &rec.o, err);
	if (r < 0)
		return r;
	rec.line = s->lineno;
	rec.event = bo_json_str(rec.o, "event");
	if (!rec.event) {
		json_object_put(rec.o);
		return bo_err_set(err, EBADMSG, "%s:%u: not a JSON object with a string \"event\"",
				  s->path, s->lineno);
	}
	if (json_object_object_get_ex(rec.o, "format", NULL)) {
		char where[PATH_MAX + 16];

		snprintf(where, sizeof(where), "%s:%u", s->path, s->lineno);
		if (bo_json_check_format(rec.o, where, err) < 0) {
			json_object_put(rec.o);
			return -EPROTO;
		}
	}
	if ((!strcmp(rec.event, "state") || !strcmp(rec.event, "alias")) &&
	    !state_fields(&rec, !strcmp(rec.event, "alias"))) {
		bool alias = !strcmp(rec.event, "alias");

		json_object_put(rec.o);
		return bo_err_set(err, EBADMSG,
				  "%s:%u: a%s record without a \"state\", a \"cut\" or a known "
				  "\"class\"%s",
				  s->path, s->lineno, alias ? "n alias" : " state",
				  alias ? " or \"alias_of\"" : "");
	}
	/* json-c reads a number past 2^64-1 as 2^64-1: no log has that many entries. */
	if ((!strcmp(rec.event, "state") || !strcmp(rec.event, "alias")) && rec.cut == UINT64_MAX) {
		bool alias = !strcmp(rec.event, "alias");

		json_object_put(rec.o);
		return bo_err_set(
			err, ERANGE,
			"%s:%u: a%s record whose \"cut\" is out of range (2^64-1 or more)", s->path,
			s->lineno, alias ? "n alias" : " state");
	}
	if (!strcmp(rec.event, "state")) {
		const char *bad = "";

		r = bo_stream_rec_findings(rec.o, &rec.findings, &bad);

		if (r < 0) {
			json_object_put(rec.o);
			if (r == -ENOMEM)
				return bo_err_set(err, ENOMEM, "reading '%s': out of memory",
						  s->path);
			return bo_err_set(
				err, EBADMSG, "%s:%u: a state record whose \"%s\" is not %s",
				s->path, s->lineno, bad,
				strcmp(bad, "why") ? "an array of op ids" : "an object of strings");
		}
	}
	s->cur = rec.o;
	s->cur_findings = rec.findings;
	*ret = rec;
	return 1;
}

int bo_stream_each_state(const char *dir,
			 int (*fn)(const struct bo_stream_rec *rec, void *ctx, struct bo_err *err),
			 void *ctx, struct bo_err *err)
{
	struct bo_stream *st = NULL;
	struct bo_stream_rec rec;
	int r = bo_stream_open(dir, &st, err);

	while (r >= 0 && (r = bo_stream_next(st, &rec, err)) > 0) {
		int k = bo_stream_is_state(&rec) ? fn(&rec, ctx, err) : 0;

		if (k < 0)
			r = k;
	}
	bo_stream_free(st);
	return r < 0 ? r : 0;
}
