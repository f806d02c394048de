// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One workload's logs on two kernels, compared by mark (markdiff.h): states join their mark
 * (the last before their cut) whatever their entry numbers; an ack one kernel sent a barrier
 * for and the other did not comes first, with each log's entries before it; the same class
 * with other op sets differs; an alias takes its original's findings; a mark one log lacks
 * differs; identical runs do not differ at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bo_test.h"
#include "harness/log/log.h"
#include "harness/log/writer.h"
#include "harness/results/markdiff.h"

/*
 * A log of @script in results directory @name: words "w" (a write of one block at the next
 * sector), "F" (a FLUSH), "U" (a FUA write) and any other word a mark of that name. Its
 * stream.jsonl is @stream.
 */
static const char *run_with(const char *name, const char *script, const char *stream)
{
	const char *d = bo_test_path(name);
	char path[512], words[512], blk[512];
	struct bo_log_writer *w;
	struct bo_err err = {0};
	uint64_t sector = 8;

	mkdir(d, 0755);
	snprintf(path, sizeof(path), "%s/write.log", d);
	memset(blk, 0x5a, sizeof(blk));
	CU_ASSERT_FATAL(bo_log_writer_new(path, 512, &w, &err) == 0);
	snprintf(words, sizeof(words), "%s", script);
	for (char *save, *t = strtok_r(words, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		int64_t r;

		if (!strcmp(t, "w"))
			r = bo_log_writer_add(w, sector++, 1, 0, blk, &err);
		else if (!strcmp(t, "U"))
			r = bo_log_writer_add(w, sector++, 1, BO_LOG_FUA, blk, &err);
		else if (!strcmp(t, "F"))
			r = bo_log_writer_add(w, 0, 0, BO_LOG_FLUSH, NULL, &err);
		else
			r = bo_log_writer_mark(w, t, &err);
		CU_ASSERT_FATAL(r >= 0);
	}
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	bo_test_put(d, "stream.jsonl", stream);
	return d;
}

#define REC(id, cut, cls, extra)                                                           \
	"{\"seq\":0,\"time\":\"t\",\"event\":\"state\",\"state\":\"" id "\",\"cut\":" #cut \
	",\"class\":\"" cls "\"" extra "}\n"
#define ALIAS(id, cut, cls, of)                                                            \
	"{\"seq\":0,\"time\":\"t\",\"event\":\"alias\",\"state\":\"" id "\",\"cut\":" #cut \
	",\"class\":\"" cls "\",\"alias_of\":\"" of "\"}\n"

static struct bo_log *open_log(const char *dir)
{
	char path[512];
	struct bo_log *log = NULL;
	struct bo_err err = {0};

	snprintf(path, sizeof(path), "%s/write.log", dir);
	CU_ASSERT_FATAL(bo_log_open(path, 0, &log, &err) == 0);
	return log;
}

static const struct bo_markdiff_row *row_of(const struct bo_markdiff *d, const char *mark,
					    size_t *ret_pos)
{
	for (size_t i = 0; i < d->nrow; i++)
		if (!strcmp(d->rows[i].mark, mark)) {
			if (ret_pos)
				*ret_pos = i;
			return &d->rows[i];
		}
	return NULL;
}

/* Entries:  0 w 1 mkfs 2 issue:1 3 w 4 F 5 ack:1 6 x 7 issue:2 8 w 9 F 10 ack:2 11 done */
#define LOG_A "w mkfs issue:1 w F ack:1 x issue:2 w F ack:2 done"
/* Entries:  0 w 1 w 2 mkfs 3 issue:1 4 w 5 F 6 ack:1 7 x 8 issue:2 9 ack:2 10 w 11 F 12 other */
#define LOG_B "w w mkfs issue:1 w F ack:1 x issue:2 ack:2 w F other"

static void test_marks(void)
{
	/* Cut N: N entries applied, so the last mark before it is at an entry < N. */
	const char *dirs[2] = {
		run_with("a", LOG_A,
			 REC("c0", 1, "consistent", "") REC("c1", 2, "consistent", "")
				 REC("c5", 6, "consistent", "") REC("c6", 7, "fsck-dirty", "") REC(
					 "c8", 9, "consistent", "") REC("c10", 11, "consistent", "")
					 REC("c11", 12, "consistent", "")),
		run_with("b", LOG_B,
			 REC("c1", 2, "consistent", "") REC("c2", 3, "consistent", "")
				 REC("c6", 7, "consistent", "") REC("c7", 8, "fsck-dirty",
								    ",\"lost\":[1]")
					 REC("c8", 9, "consistent", "") REC("c9", 10, "lost-ack",
									    ",\"lost\":[2]")
						 ALIAS("c10", 11, "lost-ack", "c9")
							 ALIAS("c12", 13, "lost-ack", "c9")),
	};
	const char *names[2] = {"6.1", "6.12"};
	struct bo_log *logs[2] = {open_log(dirs[0]), open_log(dirs[1])};
	const struct bo_markdiff_row *r;
	struct bo_markdiff d;
	struct bo_err err = {0};
	struct json_object *j;
	char buf[256];
	const char *s;
	size_t pos;

	CU_ASSERT_FATAL(bo_markdiff_build(&d, logs, dirs, 2, &err) == 0);
	/* The lint difference first, then the other differences in log order. */
	CU_ASSERT_FATAL(d.nrow == 9);
	CU_ASSERT_STRING_EQUAL(d.rows[0].mark, "ack:2");
	CU_ASSERT(d.rows[0].lint_differs && d.rows[0].differs);
	CU_ASSERT(d.rows[0].side[0].lint == BO_MARKDIFF_LINT_BARRIER);
	CU_ASSERT(d.rows[0].side[1].lint == BO_MARKDIFF_LINT_NO_BARRIER);
	/* Its segment on 6.12: the state and its alias, the alias with its original's op. */
	CU_ASSERT_EQUAL(d.rows[0].side[1].nstates, 2);
	CU_ASSERT_STRING_EQUAL(bo_markdiff_verdict_str(&d.rows[0], 1, buf, sizeof(buf)),
			       "lost-ack (lost-ack: op 2)");
	CU_ASSERT_STRING_EQUAL(bo_markdiff_verdict_str(&d.rows[0], 0, buf, sizeof(buf)),
			       "consistent");
	CU_ASSERT_STRING_EQUAL(d.rows[0].side[1].state, "c9");
	CU_ASSERT_STRING_EQUAL(d.rows[1].mark, "x");
	CU_ASSERT(d.rows[1].differs && !d.rows[1].lint_differs);
	CU_ASSERT_STRING_EQUAL(d.rows[2].mark, "done");
	CU_ASSERT(d.rows[2].missing && !d.rows[2].side[1].present);
	CU_ASSERT_STRING_EQUAL(d.rows[3].mark, "other");
	CU_ASSERT(d.rows[3].missing && !d.rows[3].side[0].present);
	/* An alias in another segment than its original: its findings are its original's. */
	CU_ASSERT_STRING_EQUAL(bo_markdiff_verdict_str(&d.rows[3], 1, buf, sizeof(buf)),
			       "lost-ack (lost-ack: op 2)");
	CU_ASSERT_EQUAL(d.ndiffer, 4);
	/* The agreeing, in log order: the states before any mark, then each mark. */
	CU_ASSERT_STRING_EQUAL(d.rows[4].mark, BO_MARKDIFF_START);
	CU_ASSERT(!d.rows[4].differs);
	CU_ASSERT_STRING_EQUAL(d.rows[5].mark, "mkfs");
	r = row_of(&d, "ack:1", &pos);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT(!r->differs && pos == 7 && r->side[0].lint == BO_MARKDIFF_LINT_BARRIER &&
		  r->side[1].lint == BO_MARKDIFF_LINT_BARRIER);
	/* The same class, fsck-dirty, with an op set on one kernel only: a difference. */
	r = row_of(&d, "x", NULL);
	CU_ASSERT(r->side[0].classes == r->side[1].classes);
	/* What each kernel wrote before ack:2. */
	j = bo_markdiff_json(&d, logs, names);
	s = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
	CU_ASSERT(strstr(s, "\"mark\":\"ack:2\",\"differs\":true,\"lint_differs\":true") != NULL);
	CU_ASSERT(strstr(s, "\"entries\":[\"write 10+1\",\"FLUSH\"],\"entries_from\":8") != NULL);
	CU_ASSERT(strstr(s, "\"lint\":\"no barrier\",\"state\":\"c9\",\"entries\":[],"
			    "\"entries_from\":9") != NULL);
	json_object_put(j);
	bo_markdiff_clear(&d);
	bo_log_free(logs[0]);
	bo_log_free(logs[1]);
}

/* The same behaviour on both: nothing differs, although entry numbers and ids do. */
static void test_same(void)
{
	const char *dirs[2] = {
		run_with("c", "mkfs issue:1 w U ack:1",
			 REC("c0", 1, "consistent", "") REC("c4", 5, "consistent", "")),
		run_with("e", "w mkfs issue:1 w w U ack:1",
			 REC("c1", 2, "consistent", "") REC("c6", 7, "consistent", "")),
	};
	struct bo_log *logs[2] = {open_log(dirs[0]), open_log(dirs[1])};
	struct bo_markdiff d;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_markdiff_build(&d, logs, dirs, 2, &err) == 0);
	CU_ASSERT_EQUAL(d.ndiffer, 0);
	CU_ASSERT_EQUAL(d.nrow, 3);
	CU_ASSERT(row_of(&d, "ack:1", NULL) &&
		  row_of(&d, "ack:1", NULL)->side[1].lint == BO_MARKDIFF_LINT_BARRIER);
	bo_markdiff_clear(&d);
	bo_log_free(logs[0]);
	bo_log_free(logs[1]);
}

static void test_corrupt(void)
{
	const char *dirs[2] = {
		run_with("f", "mkfs", REC("c0", 1, "consistent", "")),
		run_with(
			"g", "mkfs",
			REC("c0", 1, "consistent", "") "not json\n" REC("c0", 1, "consistent", "")),
	};
	struct bo_log *logs[2] = {open_log(dirs[0]), open_log(dirs[1])};
	struct bo_markdiff d;
	struct bo_err err = {0};

	CU_ASSERT(bo_markdiff_build(&d, logs, dirs, 2, &err) == -EBADMSG);
	CU_ASSERT(strstr(bo_err_str(&err), "stream.jsonl:2:") != NULL);
	CU_ASSERT(d.nrow == 0 && d.rows == NULL);
	bo_log_free(logs[0]);
	bo_log_free(logs[1]);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"states joined by mark, lint differences first", test_marks},
		{"the same behaviour: no difference", test_same},
		{"a corrupt stream names its line", test_corrupt},
		{NULL, NULL},
	};

	return bo_test_run("markdiff", tests);
}
