// SPDX-License-Identifier: GPL-2.0-or-later
/* dm-snapshot: the non-persistent table and every status the kernel can report. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "dmtargets/snapshot.h"

static void test_table(void)
{
	struct bo_err err = {0};
	char *t = NULL;

	CU_ASSERT_FATAL(bo_snap_table(524288, "/dev/loop2", "/dev/loop3", BO_SNAP_DEFAULT_CHUNK, &t,
				      &err) == 0);
	CU_ASSERT_STRING_EQUAL(t, "0 524288 snapshot /dev/loop2 /dev/loop3 N 8");
	free(t);
	CU_ASSERT_FATAL(bo_snap_table(16, "/dev/mapper/o", "/dev/loop3", 32, &t, &err) == 0);
	CU_ASSERT_STRING_EQUAL(t, "0 16 snapshot /dev/mapper/o /dev/loop3 N 32");
	free(t);

	t = NULL;
	CU_ASSERT(bo_snap_table(16, "/dev/loop2", "/dev/loop3", 0, &t, &err) == -EINVAL);
	CU_ASSERT(bo_snap_table(16, "/dev/loop2", "/dev/loop3", 12, &t, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "chunk size 12 sectors is not a power of two") != NULL);
	CU_ASSERT(bo_snap_table(0, "/dev/loop2", "/dev/loop3", 8, &t, &err) == -EINVAL);
	CU_ASSERT(bo_snap_table(16, "/dev/loop2", "", 8, &t, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "no CoW device") != NULL);
	CU_ASSERT(t == NULL);
}

static void expect_state(const char *params, enum bo_snap_state state)
{
	struct bo_snap_status st = {.used_sectors = 5};
	struct bo_err err = {0};

	CU_ASSERT(bo_snap_status_parse(params, &st, &err) == 0);
	CU_ASSERT(st.state == state);
	CU_ASSERT(st.used_sectors == 0);
}

static void test_status(void)
{
	struct bo_snap_status st;
	struct bo_err err = {0};

	/* A fresh transient snapshot: nothing used, no metadata. */
	CU_ASSERT_FATAL(bo_snap_status_parse("0/204800 0", &st, &err) == 0);
	CU_ASSERT(st.state == BO_SNAP_VALID && st.used_sectors == 0 && st.total_sectors == 204800);
	CU_ASSERT(bo_snap_status_check("snap", &st, &err) == 0);
	CU_ASSERT_FATAL(bo_snap_status_parse("2056/204800 0", &st, &err) == 0);
	CU_ASSERT(st.used_sectors == 2056 && st.metadata_sectors == 0);
	CU_ASSERT_FATAL(bo_snap_status_parse("16/2048 8", &st, &err) == 0);
	CU_ASSERT(st.metadata_sectors == 8);

	expect_state("Invalid", BO_SNAP_INVALID);
	expect_state("Overflow", BO_SNAP_OVERFLOW);
	expect_state("Merge failed", BO_SNAP_MERGE_FAILED);
	expect_state("Unknown", BO_SNAP_UNKNOWN);
}

static void test_full_cow_detected(void)
{
	struct bo_snap_status st;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_snap_status_parse("Invalid", &st, &err) == 0);
	CU_ASSERT(bo_snap_status_check("blackout-r1-snap", &st, &err) == -ENOSPC);
	CU_ASSERT(strstr(err.msg, "snapshot 'blackout-r1-snap' is Invalid: its CoW device") !=
		  NULL);
	CU_ASSERT_FATAL(bo_snap_status_parse("Overflow", &st, &err) == 0);
	CU_ASSERT(bo_snap_status_check("blackout-r1-snap", &st, &err) == -ENOSPC);
	CU_ASSERT(strstr(err.msg, "overflowed") != NULL);
	CU_ASSERT_FATAL(bo_snap_status_parse("Merge failed", &st, &err) == 0);
	CU_ASSERT(bo_snap_status_check("s", &st, &err) == -EIO);
}

static void test_malformed(void)
{
	static const char *const bad[] = {
		"",
		"16",
		"16/",
		"/2048 0",
		"16/2048",
		"16/x 0",
		"16/2048 0 junk",
		"16/ 2048 0",
		"Invalidx",
		"Invalid junk",
		"Merge",
		"30/20 0",
		"-1/20 0",
	};
	struct bo_snap_status st;
	struct bo_err err = {0};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = bo_snap_status_parse(bad[i], &st, &err);

		if (r != -EPROTO)
			fprintf(stderr, "\n  '%s' parsed (%d)\n", bad[i], r);
		CU_ASSERT(r == -EPROTO);
	}
	CU_ASSERT(strstr(err.msg, "'-1/20 0'") != NULL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"non-persistent table", test_table},
		{"status: usage and every state word", test_status},
		{"a full CoW device is an error of its own", test_full_cow_detected},
		{"malformed status strings", test_malformed},
		{NULL, NULL},
	};

	return bo_test_run("snapshot", tests);
}
