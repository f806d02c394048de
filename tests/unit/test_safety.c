// SPDX-License-Identifier: GPL-2.0-or-later
/* What blackout may touch (harness/safety.h): run ids, write targets, the stop flag. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/safety.h"

static void test_runid(void)
{
	static const char *const good[] = {"20260101-120000-1-abcdef", "a", "dmtest-123", "x.y_z"};
	static const char *const bad[] = {"",	"*",	"-x",  ".hidden", "..", "a/b",	"a b", "a*",
					  "x?", "[ab]", "a\n", "../etc",  "é",	"a;rm", "$(x)"};
	char longid[BO_RUNID_MAX + 2];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CU_ASSERT(bo_runid_valid(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT(!bo_runid_valid(bad[i]));
	CU_ASSERT(!bo_runid_valid(NULL));
	memset(longid, 'a', sizeof(longid) - 1);
	longid[sizeof(longid) - 1] = '\0';
	CU_ASSERT(!bo_runid_valid(longid));
	longid[BO_RUNID_MAX] = '\0';
	CU_ASSERT(bo_runid_valid(longid));
}

static void test_targets(void)
{
	const char *file = bo_test_path("target.img");
	struct bo_err err = {0};
	int fd;

	/* A file to be created, an existing regular file: fine. */
	CU_ASSERT(bo_own_check_target(file, &err) == 0);
	fd = open(file, O_RDWR | O_CREAT, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(bo_own_check_target(file, &err) == 0);
	CU_ASSERT(bo_own_check_fd(fd, file, &err) == 0);
	close(fd);
	/* A character device, a directory: refused, by name. */
	CU_ASSERT(bo_own_check_target("/dev/null", &err) == -EPERM);
	CU_ASSERT(strstr(err.msg, "'/dev/null'") != NULL);
	fd = open("/dev/null", O_RDONLY);
	CU_ASSERT(bo_own_check_fd(fd, "/dev/null", &err) == -EPERM);
	close(fd);
	CU_ASSERT(bo_own_check_target(bo_test_dir(), &err) == -EPERM);
}

static void test_blockdev(void)
{
	char why[512] = "";

	/* Block device 1:0 is ram0 (brd) or nothing: never blackout's either way. */
	CU_ASSERT(!bo_own_blockdev(makedev(1, 0), NULL, why, sizeof(why)));
	CU_ASSERT(strstr(why, "neither a dm device nor a loop device") != NULL);
}

static void test_dm_allowed(void)
{
	struct bo_err err = {0};

	CU_ASSERT(bo_own_dm_allowed("x", true, false, &err) == 0);
	CU_ASSERT(bo_own_dm_allowed("x", false, true, &err) == 0);
	CU_ASSERT(bo_own_dm_allowed("__dmtest smoke", false, false, &err) == -EPERM);
	CU_ASSERT(strstr(err.msg, "--allow-host") != NULL);
}

static void test_stop_and_stall(void)
{
	struct bo_err err = {0};

	unsetenv("BLACKOUT_TEST_STALL");
	CU_ASSERT(bo_test_stall("mkfs", &err) == 0);
	setenv("BLACKOUT_TEST_STALL", "replay", 1);
	CU_ASSERT(bo_test_stall("mkfs", &err) == 0);
	CU_ASSERT(!bo_stop_requested());
	bo_stop_install();
	raise(SIGTERM);
	CU_ASSERT(bo_stop_requested());
	CU_ASSERT(bo_stop_signal() == SIGTERM);
	/* The stall point named returns at once once a stop was asked for. */
	CU_ASSERT(bo_test_stall("replay", &err) == -EINTR);
	CU_ASSERT(strstr(err.msg, "replay") != NULL);
	unsetenv("BLACKOUT_TEST_STALL");
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"run ids: no patterns, paths or odd characters", test_runid},
		{"write targets: files yes, other devices no", test_targets},
		{"a block device blackout did not make", test_blockdev},
		{"dm work only in the VM or with --allow-host", test_dm_allowed},
		{"stop requests and stall points", test_stop_and_stall},
		{NULL, NULL},
	};

	return bo_test_run("safety", tests);
}
