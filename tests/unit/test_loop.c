// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loop devices, the parts that need no root: what counts as inside a run directory, and
 * every refusal bo_loop_attach() makes before it touches a device. Attaching for real is
 * tests/root/root_loop.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/dev/loop.h"

static void test_within(void)
{
	CU_ASSERT(bo_path_within("/run/bo/r1", "/run/bo/r1/data.img"));
	CU_ASSERT(bo_path_within("/run/bo/r1/", "/run/bo/r1/sub/log.img"));
	CU_ASSERT(!bo_path_within("/run/bo/r1", "/run/bo/r10/data.img"));
	CU_ASSERT(!bo_path_within("/run/bo/r1", "/run/bo/r1"));
	CU_ASSERT(!bo_path_within("/run/bo/r1", "/run/bo/r1/"));
	CU_ASSERT(!bo_path_within("/run/bo/r1", "/run/bo"));
	CU_ASSERT(!bo_path_within("/run/bo/r1", "/etc/passwd"));
	CU_ASSERT(bo_path_within("/", "/x"));
	CU_ASSERT(!bo_path_within("/", "/"));
}

static void make_file(const char *path, off_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(ftruncate(fd, size) == 0);
	close(fd);
}

static void expect_refused(const char *file, const char *dir, unsigned flags, uint32_t bs,
			   int errnum, const char *msg)
{
	struct bo_loop_dev dev = {.nr = -7};
	struct bo_err err = {0};

	CU_ASSERT(bo_loop_attach(file, dir, flags, bs, &dev, &err) == -errnum);
	CU_ASSERT(dev.nr == -7);
	if (!strstr(err.msg, msg))
		fprintf(stderr, "\n  message '%s'\n  lacks   '%s'\n", err.msg, msg);
	CU_ASSERT(strstr(err.msg, msg) != NULL);
}

static void test_refusals(void)
{
	char run[512], other[512], inside[600], outside[600], link[600], sub[600], odd[600];
	char dotdot[700];

	snprintf(run, sizeof(run), "%s", bo_test_path("run"));
	snprintf(other, sizeof(other), "%s", bo_test_path("run0"));
	CU_ASSERT_FATAL(mkdir(run, 0755) == 0 && mkdir(other, 0755) == 0);
	snprintf(inside, sizeof(inside), "%s/data.img", run);
	snprintf(outside, sizeof(outside), "%s/data.img", other);
	snprintf(link, sizeof(link), "%s/link.img", run);
	snprintf(sub, sizeof(sub), "%s/sub", run);
	snprintf(odd, sizeof(odd), "%s/odd.img", run);
	snprintf(dotdot, sizeof(dotdot), "%s/../run0/data.img", run);
	make_file(inside, 1 << 20);
	make_file(outside, 1 << 20);
	make_file(odd, 1000);
	CU_ASSERT_FATAL(symlink(outside, link) == 0);
	CU_ASSERT_FATAL(mkdir(sub, 0755) == 0);

	/* A sibling whose name merely starts with the run directory's name. */
	expect_refused(outside, run, 0, 0, EPERM, "outside the allowed directory");
	/* A symlink inside that points outside, and a path that climbs out. */
	expect_refused(link, run, 0, 0, EPERM, "outside the allowed directory");
	expect_refused(dotdot, run, 0, 0, EPERM, "outside the allowed directory");
	expect_refused(inside, NULL, 0, 0, EINVAL, "no allowed directory");
	expect_refused(inside, bo_test_path("missing"), 0, 0, ENOENT, "allowed directory");
	expect_refused(sub, run, 0, 0, EISDIR, "Is a directory");
	expect_refused(sub, run, BO_LOOP_READ_ONLY, 0, EINVAL, "not a regular file");
	expect_refused(odd, run, 0, 0, EINVAL, "size 1000 is not a positive multiple of 512");
	expect_refused(inside, run, 0, 1000, EINVAL, "block size 1000");
	expect_refused(inside, run, 0, 8192, EINVAL, "block size 8192");
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"inside a directory, by whole components", test_within},
		{"attach refuses files outside the run directory", test_refusals},
		{NULL, NULL},
	};

	return bo_test_run("loop", tests);
}
