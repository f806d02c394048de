// SPDX-License-Identifier: GPL-2.0-or-later
/* Nightly baselines: failures compared by identity, never by counts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "harness/diagnose/baseline.h"

static bool in(const struct bo_failset *s, const char *sc, const char *state)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].scenario, sc) && !strcmp(s->v[i].state, state))
			return true;
	return false;
}

/* Add the failure of @state (class @cls) in the cell "sc fs opts kernel persona" ("-": ""). */
static void add(struct bo_failset *s, const char *cell, const char *state, const char *cls)
{
	char sc[16], fs[16], opt[16], kernel[16], persona[16];

	CU_ASSERT_FATAL(sscanf(cell, "%15s %15s %15s %15s %15s", sc, fs, opt, kernel, persona) ==
			5);
	for (char *f[] = {opt, kernel, persona}, **p = f; p < f + 3; p++)
		if (!strcmp(*p, "-"))
			**p = '\0';
	CU_ASSERT(bo_failset_add(s,
				 &(struct bo_cell){.scenario = sc,
						   .fs = fs,
						   .options = opt,
						   .kernel = kernel,
						   .persona = persona},
				 state, cls, NULL) == 0);
}

static void test_diff_by_identity(void)
{
	struct bo_failset base = {0}, cur = {0};
	struct bo_baseline_diff d;
	struct json_object *o, *a;

	add(&base, "a ext4 - - -", "c10", "lost-ack");
	add(&base, "a ext4 - - -", "c20", "lost-ack");
	add(&base, "b xfs noatime - -", "c5", "phantom");
	/* Same counts per scenario, different states: one fixed and one new for "a". */
	add(&cur, "a ext4 - - -", "c10", "lost-ack");
	add(&cur, "a ext4 - - -", "c30", "lost-ack");
	add(&cur, "b xfs noatime - -", "c5", "phantom");
	/* The same state under other mount options is another failure, */
	add(&cur, "b xfs - - -", "c5", "phantom");
	/* ... and so is the same state under another kernel, */
	add(&cur, "a ext4 - 6.12 -", "c10", "lost-ack");
	/* ... and under another device persona. */
	add(&cur, "a ext4 - - ignores-flush", "c10", "lost-ack");
	/* Cell "a" ran to its end: c20 is fixed. Cell "b xfs noatime" did not (its run
	 * errored): its c5, found again, is unchanged all the same. */
	CU_ASSERT(bo_failset_ran(&cur, &(struct bo_cell){"a", "ext4", "", "", ""}) == 0);
	CU_ASSERT_FATAL(bo_baseline_diff(&base, &cur, &d) == 0);
	CU_ASSERT(d.added.n == 4 && in(&d.added, "a", "c30") && in(&d.added, "b", "c5"));
	CU_ASSERT(d.fixed.n == 1 && in(&d.fixed, "a", "c20") && d.not_run.n == 0);
	CU_ASSERT(d.same.n == 2 && in(&d.same, "a", "c10"));
	o = bo_baseline_diff_json(&d);
	CU_ASSERT(json_object_object_get_ex(o, "new", &a) && json_object_array_length(a) == 4);
	CU_ASSERT(strstr(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			 "\"kernel\":\"6.12\"") != NULL);
	CU_ASSERT(strstr(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			 "\"persona\":\"ignores-flush\"") != NULL);
	json_object_put(o);
	bo_baseline_diff_clear(&d);
	/* The same failure with other findings, or another class, has changed. */
	{
		struct bo_failset was = {0}, now = {0};

		CU_ASSERT(bo_failset_add(&was, &(struct bo_cell){"a", "ext4", "", "", ""}, "c7",
					 "fsck-dirty", NULL) == 0);
		CU_ASSERT(bo_failset_add(&was, &(struct bo_cell){"a", "ext4", "", "", ""}, "c8",
					 "fsck-dirty", "lost-ack: op 2") == 0);
		CU_ASSERT(bo_failset_add(&now, &(struct bo_cell){"a", "ext4", "", "", ""}, "c7",
					 "fsck-dirty", "lost-ack: op 2") == 0);
		CU_ASSERT(bo_failset_add(&now, &(struct bo_cell){"a", "ext4", "", "", ""}, "c8",
					 "fsck-dirty", "lost-ack: op 2") == 0);
		CU_ASSERT_FATAL(bo_baseline_diff(&was, &now, &d) == 0);
		CU_ASSERT(d.changed.n == 1 && in(&d.changed, "a", "c7") && d.same.n == 1);
		CU_ASSERT(d.changed.n && !strcmp(d.changed.v[0].was_findings, "") &&
			  !strcmp(d.changed.v[0].findings, "lost-ack: op 2"));
		o = bo_baseline_diff_json(&d);
		CU_ASSERT(strstr(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
				 "\"changed\":[{") != NULL);
		json_object_put(o);
		bo_baseline_diff_clear(&d);
		bo_failset_clear(&was);
		bo_failset_clear(&now);
	}
	/* A failure gone from a cell that did not run to its end is not fixed: not run. */
	{
		struct bo_failset now = {0};

		add(&now, "b xfs noatime - -", "c5", "phantom");
		CU_ASSERT_FATAL(bo_baseline_diff(&base, &now, &d) == 0);
		CU_ASSERT(d.fixed.n == 0 && d.not_run.n == 2 && in(&d.not_run, "a", "c10") &&
			  in(&d.not_run, "a", "c20") && d.same.n == 1);
		o = bo_baseline_diff_json(&d);
		CU_ASSERT(json_object_object_get_ex(o, "not_run", &a) &&
			  json_object_array_length(a) == 2);
		json_object_put(o);
		bo_baseline_diff_clear(&d);
		bo_failset_clear(&now);
	}
	/* Against itself: nothing new, nothing fixed. */
	CU_ASSERT_FATAL(bo_baseline_diff(&cur, &cur, &d) == 0);
	CU_ASSERT(d.added.n == 0 && d.fixed.n == 0 && d.same.n == 6);
	bo_baseline_diff_clear(&d);
	bo_failset_clear(&base);
	bo_failset_clear(&cur);
}

static void test_from_summary(void)
{
	struct bo_failset s = {0};
	struct bo_err err = {0};
	struct json_object *o = json_tokener_parse(
		"{\"runs\":[{\"scenario\":\"a\",\"fs\":\"ext4\",\"mount_options\":\"\","
		"\"failing\":[{\"state\":\"c1\",\"class\":\"lost-ack\"}]},"
		"{\"scenario\":\"b\",\"fs\":\"xfs\",\"mount_options\":\"\",\"failing\":[]}]}");

	CU_ASSERT_FATAL(bo_failset_from_summary(o, "s.json", &s, &err) == 0);
	CU_ASSERT(s.n == 1 && in(&s, "a", "c1"));
	bo_failset_clear(&s);
	json_object_put(o);
	o = json_tokener_parse("{\"runs\":[{\"scenario\":\"a\",\"fs\":\"ext4\"}]}");
	CU_ASSERT(bo_failset_from_summary(o, "s.json", &s, &err) == -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "s.json: runs[0]") != NULL);
	json_object_put(o);
	/* A stranger's strings are kept sanitized: no escape, no invalid UTF-8 goes on. */
	o = json_tokener_parse("{\"runs\":[{\"scenario\":\"a\\u001b[2Jb\",\"fs\":\"ext4\","
			       "\"mount_options\":\"\",\"failing\":[{\"state\":\"c\\u009b1\"}]}]}");
	CU_ASSERT_FATAL(bo_failset_from_summary(o, "s.json", &s, &err) == 0);
	CU_ASSERT(s.n == 1 && in(&s, "a\\x1b[2Jb", "c\\xc2\\x9b1"));
	bo_failset_clear(&s);
	json_object_put(o);
	o = json_tokener_parse("{\"verdict\":\"failed\"}");
	CU_ASSERT(bo_failset_from_summary(o, "s.json", &s, &err) == -EINVAL);
	json_object_put(o);
}

/* The stream fixtures every reader of stream.jsonl is fed (tests/fixtures/streams/). */
static int from_fixture(const char *name, struct bo_failset *s, struct bo_err *err)
{
	char src[4096], cmd[8192];

	snprintf(src, sizeof(src), "%s/tests/fixtures/streams/%s", BO_SOURCE_DIR, name);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s/stream.jsonl'", src, bo_test_dir());
	CU_ASSERT_FATAL(system(cmd) == 0);
	return bo_failset_from_stream(
		s, bo_test_dir(), NULL,
		&(struct bo_cell){
			.scenario = "a", .fs = "ext4", .options = "", .kernel = "", .persona = ""},
		err);
}

static void test_from_stream(void)
{
	struct bo_failset s = {0};
	struct bo_err err = {0};

	/* The failing states and aliases: c45 and its alias c46. */
	CU_ASSERT_FATAL(from_fixture("whole.jsonl", &s, &err) == 0);
	CU_ASSERT(s.n == 2 && in(&s, "a", "c45") && in(&s, "a", "c46"));
	bo_failset_clear(&s);
	/* A torn last record is what a crash leaves: read as the whole stream. */
	CU_ASSERT_FATAL(from_fixture("torn.jsonl", &s, &err) == 0);
	CU_ASSERT(s.n == 2 && in(&s, "a", "c45") && in(&s, "a", "c46"));
	bo_failset_clear(&s);
	/* A bad line anywhere else is an error naming it. */
	CU_ASSERT(from_fixture("corrupt-json.jsonl", &s, &err) == -EBADMSG);
	CU_ASSERT(strstr(bo_err_str(&err), "stream.jsonl:3:") != NULL);
	bo_failset_clear(&s);
	CU_ASSERT(from_fixture("corrupt-record.jsonl", &s, &err) == -EBADMSG);
	CU_ASSERT(strstr(bo_err_str(&err), "stream.jsonl:3:") != NULL);
	bo_failset_clear(&s);
	CU_ASSERT(from_fixture("newer-format.jsonl", &s, &err) == -EPROTO);
	CU_ASSERT(strstr(bo_err_str(&err), "stream.jsonl:3: format 2, newer than") != NULL);
	bo_failset_clear(&s);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"failures are compared by identity, never by counts", test_diff_by_identity},
		{"failures from a nightly summary, bad ones named", test_from_summary},
		{"failures from a stream, a torn last record tolerated", test_from_stream},
		{NULL, NULL},
	};

	return bo_test_run("baseline", tests);
}
