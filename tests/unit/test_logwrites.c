// SPDX-License-Identifier: GPL-2.0-or-later
/* dm-log-writes: the table, mark name rules and the status line, as the kernel has them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "dmtargets/logwrites.h"

static void test_table(void)
{
	struct bo_err err = {0};
	char *t = NULL;

	CU_ASSERT_FATAL(bo_lw_table(524288, "/dev/loop0", "/dev/loop1", &t, &err) == 0);
	CU_ASSERT_STRING_EQUAL(t, "0 524288 log-writes /dev/loop0 /dev/loop1");
	free(t);

	t = NULL;
	CU_ASSERT(bo_lw_table(0, "/dev/loop0", "/dev/loop1", &t, &err) == -EINVAL);
	CU_ASSERT(bo_lw_table(8, "", "/dev/loop1", &t, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "no data device") != NULL);
	CU_ASSERT(bo_lw_table(8, "/dev/loop0", "/tmp/my log", &t, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "log device '/tmp/my log' contains whitespace") != NULL);
	CU_ASSERT(t == NULL);
}

static void expect_bad_mark(const char *mark, unsigned ss, const char *msg)
{
	struct bo_err err = {0};

	CU_ASSERT(bo_lw_mark_check(mark, ss, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, msg) != NULL);
}

static void test_mark_names(void)
{
	char name[4096];
	struct bo_err err = {0};

	CU_ASSERT(bo_lw_mark_check("ack:17", 4096, &err) == 0);
	CU_ASSERT(bo_lw_mark_check("issue:1", 512, &err) == 0);
	CU_ASSERT(bo_lw_mark_check("mkfs", 512, &err) == 0);

	/* 512 - 32 (entry header) - 1: the kernel keeps 479 bytes of a mark. */
	memset(name, 'm', sizeof(name));
	name[479] = '\0';
	CU_ASSERT(bo_lw_mark_check(name, 512, &err) == 0);
	name[479] = 'm';
	name[480] = '\0';
	expect_bad_mark(name, 512, "keeps at most 479");
	name[480] = 'm';
	name[4063] = '\0';
	CU_ASSERT(bo_lw_mark_check(name, 4096, &err) == 0);
	name[4063] = 'm';
	name[4064] = '\0';
	expect_bad_mark(name, 4096, "keeps at most 4063");

	expect_bad_mark("", 4096, "empty");
	expect_bad_mark("ack 17", 4096, "mark 'ack 17': byte 3 is a space");
	expect_bad_mark("ack\t17", 4096, "mark 'ack...': byte 3 (0x09)");
	expect_bad_mark("ack\n", 4096, "byte 3 (0x0a)");
	expect_bad_mark("a\x01", 4096, "control character");
	expect_bad_mark("a\\b", 4096, "backslash");
	expect_bad_mark("ok", 1000, "sector size 1000");
	expect_bad_mark("ok", 256, "sector size 256");
}

static void test_mark_checks_before_sending(void)
{
	struct bo_err err = {0};

	/* Refused by the check, so no message ever reaches device-mapper. */
	CU_ASSERT(bo_lw_mark("blackout-r1-lw", "two words", 4096, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "mark on 'blackout-r1-lw': mark 'two words'") != NULL);
}

static void test_status(void)
{
	struct bo_lw_status st;
	struct bo_err err = {0};

	/* Fresh device, 4 KiB sectors: next_sector is 8 (the super takes sector 0..7). */
	CU_ASSERT_FATAL(bo_lw_status_parse("0 7", &st, &err) == 0);
	CU_ASSERT(st.logged_entries == 0 && st.highest_sector == 7 && !st.logging_disabled);
	CU_ASSERT(bo_lw_status_check("lw", &st, &err) == 0);

	CU_ASSERT_FATAL(bo_lw_status_parse("1534 29703", &st, &err) == 0);
	CU_ASSERT(st.logged_entries == 1534 && st.highest_sector == 29703);
	CU_ASSERT(!st.logging_disabled);

	CU_ASSERT_FATAL(bo_lw_status_parse("1534 29703 logging_disabled", &st, &err) == 0);
	CU_ASSERT(st.logged_entries == 1534 && st.highest_sector == 29703);
	CU_ASSERT(st.logging_disabled);
	CU_ASSERT(bo_lw_status_check("blackout-r1-lw", &st, &err) == -EIO);
	CU_ASSERT(strstr(err.msg, "'blackout-r1-lw' reports logging_disabled after 1534") != NULL);
	CU_ASSERT(strstr(err.msg, "incomplete") != NULL);

	st.logged_entries = 99;
	CU_ASSERT(bo_lw_status_parse("", &st, &err) == -EPROTO);
	CU_ASSERT(bo_lw_status_parse("12", &st, &err) == -EPROTO);
	CU_ASSERT(bo_lw_status_parse("12 x", &st, &err) == -EPROTO);
	CU_ASSERT(bo_lw_status_parse("12 40 logging_enabled", &st, &err) == -EPROTO);
	CU_ASSERT(strstr(err.msg, "'12 40 logging_enabled'") != NULL);
	CU_ASSERT(bo_lw_status_parse("12 40 logging_disabled extra", &st, &err) == -EPROTO);
	CU_ASSERT(bo_lw_status_parse("12 40 logging_disabledxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
				     &st, &err) == -EPROTO);
	CU_ASSERT(st.logged_entries == 99);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"table", test_table},
		{"mark name rules", test_mark_names},
		{"a bad mark is refused before it is sent", test_mark_checks_before_sending},
		{"status with and without logging_disabled", test_status},
		{NULL, NULL},
	};

	return bo_test_run("logwrites", tests);
}
