// SPDX-License-Identifier: GPL-2.0-or-later
/* The control-channel line parser and protocol state machine: every error class. */
#include <errno.h>
#include <string.h>

#include "bo_test.h"
#include "harness/ctl/proto.h"

static int parse(const char *line, struct bo_ctl_req *req, struct bo_err *err)
{
	return bo_ctl_parse(line, strlen(line), req, err);
}

static void parse_valid(void)
{
	struct bo_ctl_req req;
	struct bo_err err = {0};

	CU_ASSERT(parse("issue 5", &req, &err) == 0);
	CU_ASSERT(req.verb == BO_CTL_ISSUE && req.opid == 5);
	CU_ASSERT_STRING_EQUAL(req.name, "issue:5");
	CU_ASSERT(parse("ack 0", &req, &err) == 0);
	CU_ASSERT(req.verb == BO_CTL_ACK && req.opid == 0);
	CU_ASSERT_STRING_EQUAL(req.name, "ack:0");
	CU_ASSERT(parse("issue 18446744073709551615", &req, &err) == 0);
	CU_ASSERT(req.opid == UINT64_MAX);
	CU_ASSERT(parse("ack 007", &req, &err) == 0);
	CU_ASSERT_STRING_EQUAL(req.name, "ack:7");
	CU_ASSERT(parse("mark checkpoint-1/a=b", &req, &err) == 0);
	CU_ASSERT(req.verb == BO_CTL_MARK);
	CU_ASSERT_STRING_EQUAL(req.name, "checkpoint-1/a=b");
}

static void expect_bad(const char *line, size_t len, int want, const char *needle)
{
	struct bo_ctl_req req;
	struct bo_err err = {0};
	int r = bo_ctl_parse(line, len, &req, &err);

	CU_ASSERT_EQUAL(r, want);
	if (needle && !strstr(bo_err_str(&err), needle)) {
		fprintf(stderr, "message '%s' lacks '%s'\n", bo_err_str(&err), needle);
		CU_FAIL("error message");
	}
}

#define BAD(s, want, needle) expect_bad(s, sizeof(s) - 1, want, needle)

static void parse_malformed(void)
{
	char big[BO_CTL_LINE_MAX + 2], name[BO_CTL_NAME_MAX + 8];

	BAD("", -EINVAL, "expected 'VERB ARGUMENT'");
	BAD("issue", -EINVAL, "expected");
	BAD("issue ", -EINVAL, "op id ''");
	BAD("issue x", -EINVAL, "op id 'x'");
	BAD("issue -1", -EINVAL, "op id '-1'");
	BAD("issue +1", -EINVAL, NULL);
	BAD("issue 0x10", -EINVAL, "'0x10'");
	BAD("issue 5 ", -EINVAL, "'5 '");
	BAD("issue  5", -EINVAL, NULL);
	BAD("issue 18446744073709551616", -EINVAL, "below 2^64");
	BAD("issue 123456789012345678901", -EINVAL, NULL);
	BAD("ISSUE 5", -EINVAL, "unknown request 'ISSUE'");
	BAD("frob 5", -EINVAL, "unknown request 'frob'");
	BAD(" issue 5", -EINVAL, "unknown request");
	BAD("issue 5\r", -EINVAL, "\\x0d");
	BAD("issue 5\0", -EINVAL, "NUL");
	BAD("mark a\0b", -EINVAL, "NUL");
	BAD("mark a b", -EINVAL, "not printable non-space");
	BAD("mark a\tb", -EINVAL, "0x09");
	BAD("mark caf\xc3\xa9", -EINVAL, "\\xc3");
	BAD("mark ", -EINVAL, "empty mark name");
	BAD("mark ack:3", -EINVAL, "reserved prefix");
	BAD("mark issue:1", -EINVAL, "reserved prefix");
	BAD("mark fault:1:up", -EINVAL, "reserved prefix");
	BAD("mark layout:a=raw@8+8", -EINVAL, "reserved prefix");

	memset(big, 'a', sizeof(big));
	memcpy(big, "mark ", 5);
	expect_bad(big, BO_CTL_LINE_MAX + 1, -E2BIG, "longer than 512");
	memcpy(name, "mark ", 5);
	memset(name + 5, 'n', BO_CTL_NAME_MAX + 1);
	expect_bad(name, 5 + BO_CTL_NAME_MAX + 1, -E2BIG, "longer than 479");
	{
		struct bo_ctl_req req;

		CU_ASSERT(bo_ctl_parse(name, 5 + BO_CTL_NAME_MAX, &req, NULL) == 0);
		CU_ASSERT(strlen(req.name) == BO_CTL_NAME_MAX);
	}
}

static int apply(struct bo_ctl_state *st, const char *line, struct bo_err *err)
{
	struct bo_ctl_req req;
	int r = parse(line, &req, err);

	return r < 0 ? r : bo_ctl_state_apply(st, &req, err);
}

static void state_order(void)
{
	struct bo_ctl_state *st;
	struct bo_err err = {0};
	const uint64_t *v;
	size_t n;

	CU_ASSERT_FATAL(bo_ctl_state_new(&st) == 0);
	CU_ASSERT(apply(st, "ack 1", &err) == -EPROTO);
	CU_ASSERT(strstr(bo_err_str(&err), "never issued") != NULL);
	CU_ASSERT(apply(st, "issue 1", &err) == 0);
	CU_ASSERT(apply(st, "issue 1", &err) == -EPROTO);
	CU_ASSERT(strstr(bo_err_str(&err), "strictly increase") != NULL);
	CU_ASSERT(apply(st, "issue 5", &err) == 0);
	CU_ASSERT(apply(st, "issue 3", &err) == -EPROTO);
	CU_ASSERT(apply(st, "issue 7", &err) == 0);
	CU_ASSERT(apply(st, "ack 6", &err) == -EPROTO);
	CU_ASSERT(strstr(bo_err_str(&err), "ack 6: op was never issued") != NULL);
	CU_ASSERT(apply(st, "ack 7", &err) == 0);
	/* The exact case from the design review: ack 5 after ack 7. */
	CU_ASSERT(apply(st, "ack 5", &err) == -EPROTO);
	CU_ASSERT(strstr(bo_err_str(&err),
			 "ack 5: ack ids must strictly increase (last acked 7)") != NULL);
	CU_ASSERT(apply(st, "ack 7", &err) == -EPROTO);
	CU_ASSERT(apply(st, "issue 9", &err) == 0);
	CU_ASSERT(apply(st, "ack 9", &err) == 0);

	/* Rejected requests changed nothing: sets, not counts. */
	v = bo_ctl_state_issued(st, &n);
	CU_ASSERT_FATAL(n == 4);
	CU_ASSERT(v[0] == 1 && v[1] == 5 && v[2] == 7 && v[3] == 9);
	v = bo_ctl_state_acked(st, &n);
	CU_ASSERT_FATAL(n == 2);
	CU_ASSERT(v[0] == 7 && v[1] == 9);
	CU_ASSERT(bo_ctl_state_was_issued(st, 5) && !bo_ctl_state_was_issued(st, 3));
	CU_ASSERT(bo_ctl_state_was_acked(st, 9) && !bo_ctl_state_was_acked(st, 5));
	bo_ctl_state_free(st);
}

static void state_check_does_not_commit(void)
{
	struct bo_ctl_state *st;
	struct bo_ctl_req req;
	size_t n;

	CU_ASSERT_FATAL(bo_ctl_state_new(&st) == 0);
	CU_ASSERT(parse("issue 4", &req, NULL) == 0);
	CU_ASSERT(bo_ctl_state_check(st, &req, NULL) == 0);
	bo_ctl_state_issued(st, &n);
	CU_ASSERT(n == 0);
	CU_ASSERT(bo_ctl_state_commit(st, &req) == 0);
	CU_ASSERT(bo_ctl_state_commit(st, &req) == -EPROTO);
	bo_ctl_state_issued(st, &n);
	CU_ASSERT(n == 1);
	bo_ctl_state_free(st);
}

static void state_marks(void)
{
	struct bo_ctl_state *st;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_ctl_state_new(&st) == 0);
	CU_ASSERT(bo_ctl_state_reserve(st, "mkfs") == 0);
	CU_ASSERT(bo_ctl_state_reserve(st, "mkfs") == -EEXIST);
	CU_ASSERT(apply(st, "mark mkfs", &err) == -EPROTO);
	CU_ASSERT(strstr(bo_err_str(&err), "mark 'mkfs': name already used") != NULL);
	CU_ASSERT(apply(st, "mark phase-1", &err) == 0);
	CU_ASSERT(apply(st, "mark phase-2", &err) == 0);
	CU_ASSERT(apply(st, "mark phase-1", &err) == -EPROTO);
	bo_ctl_state_free(st);
	bo_ctl_state_free(NULL);
}

static void replies(void)
{
	char buf[BO_CTL_REPLY_MAX + 2];

	CU_ASSERT(bo_ctl_format_ok(buf, sizeof(buf), 42) == 6);
	CU_ASSERT_STRING_EQUAL(buf, "ok 42\n");
	CU_ASSERT(bo_ctl_format_err(buf, sizeof(buf), "bad\nthing\x01") == 15);
	CU_ASSERT_STRING_EQUAL(buf, "err bad?thing?\n");
	CU_ASSERT(bo_ctl_format_err(buf, 8, "abcdefgh") == 7);
	CU_ASSERT_STRING_EQUAL(buf, "err ab\n");
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"parse_valid", parse_valid},
		{"parse_malformed", parse_malformed},
		{"state_order", state_order},
		{"state_check_does_not_commit", state_check_does_not_commit},
		{"state_marks", state_marks},
		{"replies", replies},
		{},
	};

	return bo_test_run("ctl_proto", tests);
}
