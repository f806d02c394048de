// SPDX-License-Identifier: GPL-2.0-or-later
/* Cut points: every kind resolves to the right entry count, and bad ones are errors. */
#include <errno.h>
#include <string.h>

#include "bo_test.h"
#include "harness/log/cut.h"
#include "harness/log/writer.h"

static struct bo_log *sample(void)
{
	const char *p = bo_test_path("cut.log");
	struct bo_log_writer *w;
	struct bo_log *log;
	struct bo_err err = {0};
	char blk[512] = {1};

	/* 0 mark a, 1 write, 2 flush, 3 fua write, 4 mark b, 5 flush, 6 write, 7 flush|fua */
	CU_ASSERT_FATAL(bo_log_writer_new(p, 512, &w, &err) == 0);
	bo_log_writer_mark(w, "a", &err);
	bo_log_writer_add(w, 1, 1, 0, blk, &err);
	bo_log_writer_add(w, 0, 0, BO_LOG_FLUSH, NULL, &err);
	bo_log_writer_add(w, 2, 1, BO_LOG_FUA, blk, &err);
	bo_log_writer_mark(w, "b", &err);
	bo_log_writer_add(w, 0, 0, BO_LOG_FLUSH, NULL, &err);
	bo_log_writer_add(w, 3, 1, 0, blk, &err);
	bo_log_writer_add(w, 4, 1, BO_LOG_FLUSH | BO_LOG_FUA, blk, &err);
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(p, 0, &log, &err) == 0);
	return log;
}

static uint64_t resolve_ok(const struct bo_log *log, const char *spec)
{
	struct bo_err err = {0};
	uint64_t n = UINT64_MAX;

	CU_ASSERT(bo_cut_resolve(log, spec, &n, &err) == 0);
	return n;
}

static void test_kinds(void)
{
	struct bo_log *log = sample();

	CU_ASSERT(resolve_ok(log, "start") == 0);
	CU_ASSERT(resolve_ok(log, "end") == 8);
	CU_ASSERT(resolve_ok(log, "entry:0") == 1);
	CU_ASSERT(resolve_ok(log, "entry:7") == 8);
	CU_ASSERT(resolve_ok(log, "mark:a") == 1);
	CU_ASSERT(resolve_ok(log, "mark:b") == 5);
	CU_ASSERT(resolve_ok(log, "flush:1") == 3);
	CU_ASSERT(resolve_ok(log, "flush:2") == 6);
	CU_ASSERT(resolve_ok(log, "flush:3") == 8);
	CU_ASSERT(resolve_ok(log, "fua:1") == 4);
	CU_ASSERT(resolve_ok(log, "fua:2") == 8);
	bo_log_free(log);
}

static void expect_error(const struct bo_log *log, const char *spec, int errnum, const char *msg)
{
	struct bo_err err = {0};
	uint64_t n = 12345;

	CU_ASSERT(bo_cut_resolve(log, spec, &n, &err) == -errnum);
	CU_ASSERT(n == 12345);
	CU_ASSERT(strstr(err.msg, msg) != NULL);
}

static void test_errors(void)
{
	struct bo_log *log = sample();

	/* A missing mark is an error, never "replay everything". */
	expect_error(log, "mark:c", ENOENT, "mark 'c' is not in log");
	expect_error(log, "entry:8", ERANGE, "past the end");
	expect_error(log, "entry:x", EINVAL, "not an entry number");
	expect_error(log, "flush:4", ERANGE, "only 3 FLUSH");
	expect_error(log, "fua:0", EINVAL, "count from 1");
	expect_error(log, "mark:", EINVAL, "expected start");
	expect_error(log, "bogus:1", EINVAL, "unknown kind");
	expect_error(log, "entries", EINVAL, "expected start");
	bo_log_free(log);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"every cut kind resolves", test_kinds},
		{"bad cuts are errors", test_errors},
		{NULL, NULL},
	};

	return bo_test_run("cut", tests);
}
