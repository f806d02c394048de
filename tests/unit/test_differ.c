// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The same states in several results directories (check --kernels): joined by id, a class
 * that differs marks the state, differing states come first, a state one directory lacks
 * differs, and a directory whose stream is corrupt is an error naming its line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bo_test.h"
#include "harness/results/differ.h"

/* A results directory @name holding only @stream as its stream.jsonl. */
static const char *dir_with(const char *name, const char *stream)
{
	const char *d = bo_test_path(name);

	mkdir(d, 0755);
	bo_test_put(d, "stream.jsonl", stream);
	return d;
}

#define REC(id, cut, cls)                                                                  \
	"{\"seq\":0,\"time\":\"t\",\"event\":\"state\",\"state\":\"" id "\",\"cut\":" #cut \
	",\"class\":\"" cls "\"}\n"

static void test_join(void)
{
	const char *dirs[2] = {
		dir_with("a", REC("c10", 11, "consistent") REC("c20", 21, "consistent")
				      REC("c30", 31, "lost-ack")),
		dir_with("b", REC("c30", 31, "lost-ack") REC("c20", 21, "unmountable")
				      REC("c40", 41, "consistent")),
	};
	const char *names[2] = {"6.1", "6.12"};
	struct bo_differ d;
	struct bo_err err = {0};
	struct json_object *j;

	CU_ASSERT_FATAL(bo_differ_read(&d, dirs, 2, &err) == 0);
	CU_ASSERT_EQUAL(d.nrow, 4);
	CU_ASSERT_EQUAL(d.ndiffer, 3); /* c20 (classes), c10 and c40 (each in one only) */
	/* Differing first, by cut; then the agreeing. */
	CU_ASSERT_STRING_EQUAL(d.rows[0].state, "c10");
	CU_ASSERT(d.rows[0].differs && d.rows[0].cls[1] == BO_DIFFER_NONE);
	CU_ASSERT_STRING_EQUAL(d.rows[1].state, "c20");
	CU_ASSERT(d.rows[1].cls[0] == BO_CLASS_CONSISTENT &&
		  d.rows[1].cls[1] == BO_CLASS_UNMOUNTABLE);
	CU_ASSERT_STRING_EQUAL(d.rows[2].state, "c40");
	CU_ASSERT_STRING_EQUAL(d.rows[3].state, "c30");
	CU_ASSERT(!d.rows[3].differs);
	j = bo_differ_json(&d, names);
	CU_ASSERT(strstr(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
			 "\"state\":\"c20\",\"cut\":21,\"differs\":true,\"classes\":{\"6.1\":"
			 "\"consistent\",\"6.12\":\"unmountable\"}") != NULL);
	json_object_put(j);
	bo_differ_clear(&d);
}

#define RECF(id, cut, cls, extra)                                                          \
	"{\"seq\":0,\"time\":\"t\",\"event\":\"state\",\"state\":\"" id "\",\"cut\":" #cut \
	",\"class\":\"" cls "\"," extra "}\n"

/* A class says nothing of the op sets beneath it: the same class with different findings is a
 * difference, and the words name each side's ops. */
static void test_findings(void)
{
	const char *dirs[2] = {
		dir_with("e", RECF("c10", 11, "fsck-dirty", "\"lost\":[2]")
				      RECF("c20", 21, "lost-ack", "\"lost\":[3]")
					      RECF("c30", 31, "fsck-dirty", "\"phantom\":[4]")),
		dir_with("f",
			 REC("c10", 11, "fsck-dirty") RECF("c20", 21, "lost-ack", "\"lost\":[5]")
				 RECF("c30", 31, "fsck-dirty", "\"phantom\":[4]")),
	};
	const char *names[2] = {"6.1", "6.12"};
	struct bo_differ d;
	struct bo_err err = {0};
	struct json_object *j;
	char cell[128];
	const char *s;

	CU_ASSERT_FATAL(bo_differ_read(&d, dirs, 2, &err) == 0);
	CU_ASSERT_EQUAL(d.nrow, 3);
	CU_ASSERT_EQUAL(d.ndiffer, 2);
	CU_ASSERT_STRING_EQUAL(d.rows[0].state, "c10");
	CU_ASSERT(d.rows[0].differs && d.rows[0].cls[0] == d.rows[0].cls[1]);
	CU_ASSERT_STRING_EQUAL(bo_differ_cell_str(&d.rows[0], 0, cell, sizeof(cell)),
			       "fsck-dirty (lost-ack: op 2)");
	CU_ASSERT_STRING_EQUAL(bo_differ_cell_str(&d.rows[0], 1, cell, sizeof(cell)), "fsck-dirty");
	CU_ASSERT_STRING_EQUAL(d.rows[1].state, "c20");
	CU_ASSERT(d.rows[1].differs);
	/* The same findings under the same class agree. */
	CU_ASSERT_STRING_EQUAL(d.rows[2].state, "c30");
	CU_ASSERT(!d.rows[2].differs);
	j = bo_differ_json(&d, names);
	s = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
	CU_ASSERT(strstr(s, "\"state\":\"c10\",\"cut\":11,\"differs\":true,\"classes\":{\"6.1\":"
			    "\"fsck-dirty\",\"6.12\":\"fsck-dirty\"},\"findings\":{\"6.1\":"
			    "\"lost-ack: op 2\",\"6.12\":\"\"}") != NULL);
	json_object_put(j);
	bo_differ_clear(&d);
}

static void test_corrupt(void)
{
	const char *dirs[2] = {
		dir_with("c", REC("c10", 11, "consistent")),
		dir_with("d",
			 REC("c10", 11, "consistent") "not json\n" REC("c20", 21, "consistent")),
	};
	struct bo_differ d;
	struct bo_err err = {0};

	CU_ASSERT(bo_differ_read(&d, dirs, 2, &err) == -EBADMSG);
	CU_ASSERT(strstr(bo_err_str(&err), "stream.jsonl:2:") != NULL);
	CU_ASSERT(d.nrow == 0 && d.rows == NULL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"states joined by id, differing first", test_join},
		{"same class, different op sets: differs", test_findings},
		{"a corrupt stream names its line", test_corrupt},
		{NULL, NULL},
	};

	return bo_test_run("differ", tests);
}
