// SPDX-License-Identifier: GPL-2.0-or-later
/* The teardown stack with fake kernel objects: order, failure reports, signals. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bo_test.h"
#include "harness/dev/teardown.h"

/* What the fakes saw: the undo order and the reports, as text. */
static char undone[256], reported[512];

/* Fails for objects whose name starts with "stuck", with a message. */
static int fake_undo(const char *arg, void *ctx, struct bo_err *err)
{
	int *calls = ctx;

	if (calls)
		(*calls)++;
	strcat(undone, arg);
	strcat(undone, " ");
	if (!strncmp(arg, "stuck", 5))
		return bo_err_set(err, EBUSY, "fake '%s' is busy", arg);
	if (!strncmp(arg, "mute", 4))
		return -EIO; /* fails without a message */
	return 0;
}

static void fake_report(void *rctx, const char *kind, const char *arg, const struct bo_err *err)
{
	int *n = rctx;
	char line[160];

	(*n)++;
	snprintf(line, sizeof(line), "[%s %s: %s]", kind, arg, bo_err_str(err));
	strcat(reported, line);
}

static void reset(void)
{
	undone[0] = reported[0] = '\0';
}

static struct bo_teardown *stack(int *nreports)
{
	struct bo_teardown *td = NULL;

	CU_ASSERT_FATAL(bo_teardown_new(8, fake_report, nreports, &td) == 0);
	return td;
}

static void test_reverse_order(void)
{
	int nreports = 0, calls = 0;
	struct bo_teardown *td = stack(&nreports);
	struct bo_err err = {0};

	reset();
	CU_ASSERT(bo_teardown_push(td, "loop", "loop0", fake_undo, &calls, &err) == 0);
	CU_ASSERT(bo_teardown_push(td, "loop", "loop1", fake_undo, &calls, &err) == 0);
	CU_ASSERT(bo_teardown_push(td, "dm", "lw", fake_undo, &calls, &err) == 0);
	CU_ASSERT(bo_teardown_push(td, "mount", "mnt", fake_undo, &calls, &err) == 0);
	CU_ASSERT(bo_teardown_depth(td) == 4);
	CU_ASSERT(bo_teardown_unwind(td) == 0);
	CU_ASSERT_STRING_EQUAL(undone, "mnt lw loop1 loop0 ");
	CU_ASSERT(calls == 4 && nreports == 0);
	CU_ASSERT(bo_teardown_depth(td) == 0);
	/* Unwinding an empty stack does nothing. */
	CU_ASSERT(bo_teardown_unwind(td) == 0);
	CU_ASSERT(calls == 4);
	bo_teardown_free(td);
}

static void test_failures_reported_and_unwinding_continues(void)
{
	int nreports = 0;
	struct bo_teardown *td = stack(&nreports);
	struct bo_err err = {0};

	reset();
	CU_ASSERT_FATAL(bo_teardown_push(td, "loop", "loop0", fake_undo, NULL, &err) == 0);
	CU_ASSERT_FATAL(bo_teardown_push(td, "dm", "stuck-lw", fake_undo, NULL, &err) == 0);
	CU_ASSERT_FATAL(bo_teardown_push(td, "dm", "mute-snap", fake_undo, NULL, &err) == 0);
	CU_ASSERT_FATAL(bo_teardown_push(td, "mount", "stuck-mnt", fake_undo, NULL, &err) == 0);
	/* The first failure's errno is returned, every failure is reported, all are tried. */
	CU_ASSERT(bo_teardown_unwind(td) == -EBUSY);
	CU_ASSERT_STRING_EQUAL(undone, "stuck-mnt mute-snap stuck-lw loop0 ");
	CU_ASSERT(nreports == 3);
	CU_ASSERT_STRING_EQUAL(reported,
			       "[mount stuck-mnt: fake 'stuck-mnt' is busy]"
			       "[dm mute-snap: undoing dm 'mute-snap': Input/output error]"
			       "[dm stuck-lw: fake 'stuck-lw' is busy]");
	CU_ASSERT(bo_teardown_depth(td) == 0);
	bo_teardown_free(td);
}

static void test_undo_top(void)
{
	int nreports = 0;
	struct bo_teardown *td = stack(&nreports);
	struct bo_err err = {0};

	reset();
	CU_ASSERT(bo_teardown_undo_top(td, &err) == -ENOENT);
	CU_ASSERT_FATAL(bo_teardown_push(td, "loop", "loop0", fake_undo, NULL, &err) == 0);
	CU_ASSERT_FATAL(bo_teardown_push(td, "dm", "snap1", fake_undo, NULL, &err) == 0);
	CU_ASSERT(bo_teardown_undo_top(td, &err) == 0);
	CU_ASSERT(bo_teardown_depth(td) == 1);
	CU_ASSERT_FATAL(bo_teardown_push(td, "dm", "stuck-snap2", fake_undo, NULL, &err) == 0);
	/* A failed undo is returned to the caller, not reported, and stays for the unwind. */
	CU_ASSERT(bo_teardown_undo_top(td, &err) == -EBUSY);
	CU_ASSERT(strstr(err.msg, "fake 'stuck-snap2' is busy") != NULL);
	CU_ASSERT(nreports == 0);
	CU_ASSERT(bo_teardown_depth(td) == 2);
	CU_ASSERT(bo_teardown_unwind(td) == -EBUSY);
	CU_ASSERT_STRING_EQUAL(undone, "snap1 stuck-snap2 stuck-snap2 loop0 ");
	CU_ASSERT(nreports == 1);
	bo_teardown_free(td);
}

static void test_free_unwinds_leftovers(void)
{
	int nreports = 0;
	struct bo_teardown *td = stack(&nreports);
	struct bo_err err = {0};

	reset();
	CU_ASSERT_FATAL(bo_teardown_push(td, "loop", "loop3", fake_undo, NULL, &err) == 0);
	CU_ASSERT_FATAL(bo_teardown_push(td, "mount", "stuck-m", fake_undo, NULL, &err) == 0);
	/* An early return that forgot to unwind still undoes and reports everything. */
	bo_teardown_free(td);
	CU_ASSERT_STRING_EQUAL(undone, "stuck-m loop3 ");
	CU_ASSERT(nreports == 1);
	bo_teardown_free(NULL);
}

static void test_limits(void)
{
	struct bo_teardown *td = NULL;
	struct bo_err err = {0};
	char longname[5000];

	reset();
	CU_ASSERT(bo_teardown_new(0, NULL, NULL, &td) == -EINVAL);
	CU_ASSERT_FATAL(bo_teardown_new(2, NULL, NULL, &td) == 0);
	CU_ASSERT(bo_teardown_push(td, "loop", "a", fake_undo, NULL, &err) == 0);
	CU_ASSERT(bo_teardown_push(td, "loop", "stuck-b", fake_undo, NULL, &err) == 0);
	CU_ASSERT(bo_teardown_push(td, "loop", "c", fake_undo, NULL, &err) == -ENOSPC);
	CU_ASSERT(strstr(err.msg, "no room to record loop 'c'") != NULL);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CU_ASSERT(bo_teardown_unwind(td) == -EBUSY); /* no report callback: still counted */
	CU_ASSERT(bo_teardown_push(td, "loop", longname, fake_undo, NULL, &err) == -ENAMETOOLONG);
	CU_ASSERT(bo_teardown_push(td, "a-very-long-kind-name", "x", fake_undo, NULL, &err) ==
		  -ENAMETOOLONG);
	CU_ASSERT(bo_teardown_depth(td) == 0);
	bo_teardown_free(td);
}

static void test_signal_flag(void)
{
	struct sigaction sa = {.sa_handler = bo_teardown_request_stop}, old;

	CU_ASSERT(!bo_teardown_stop_requested());
	CU_ASSERT(bo_teardown_stop_signal() == 0);
	sigemptyset(&sa.sa_mask);
	CU_ASSERT_FATAL(sigaction(SIGTERM, &sa, &old) == 0);
	CU_ASSERT(raise(SIGTERM) == 0);
	CU_ASSERT(bo_teardown_stop_requested());
	CU_ASSERT(bo_teardown_stop_signal() == SIGTERM);
	sigaction(SIGTERM, &old, NULL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"objects are undone newest first", test_reverse_order},
		{"every failure is reported and the rest still undone",
		 test_failures_reported_and_unwinding_continues},
		{"undo the newest object early", test_undo_top},
		{"free unwinds what is left", test_free_unwinds_leftovers},
		{"capacity and name limits", test_limits},
		{"signal handler sets the stop flag", test_signal_flag},
		{NULL, NULL},
	};

	return bo_test_run("teardown", tests);
}
