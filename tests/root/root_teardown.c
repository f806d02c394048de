// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The teardown stack over real kernel objects: a loop device with a mounted filesystem is
 * undone in the right order, failures of real objects are reported, and a SIGINT in the middle
 * of a run ends in a full unwind.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/dev/fstool.h"
#include "harness/dev/loop.h"
#include "harness/dev/mount.h"
#include "harness/dev/teardown.h"
#include "root_util.h"

static const char *run, *mnt;
static char reports[2048];
static int nreports;

static void report(void *rctx, const char *kind, const char *arg, const struct bo_err *err)
{
	char line[600];

	nreports++;
	snprintf(line, sizeof(line), "[%s %s: %s]\n", kind, arg, bo_err_str(err));
	strncat(reports, line, sizeof(reports) - strlen(reports) - 1);
}

/* Bind a new ext4 image and mount it, recording both on @td; returns the loop device. */
static struct bo_loop_dev loop_with_fs(struct bo_teardown *td, const char *name)
{
	struct bo_loop_dev dev = {.fd = -1};
	struct bo_err err = {0};
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", run, name);
	root_make_file(path, 32 << 20);
	CU_ASSERT_FATAL(bo_loop_attach(path, run, 0, 0, &dev, &err) == 0);
	CU_ASSERT_FATAL(bo_teardown_push_loop(td, dev.path, &err) == 0);
	CU_ASSERT_FATAL(bo_mkfs(BO_FS_EXT4, dev.path, NULL, NULL, 60000, NULL, &err) == 0);
	CU_ASSERT_FATAL(bo_mount(dev.path, mnt, "ext4", NULL, &err) == 0);
	CU_ASSERT_FATAL(bo_teardown_push_mount(td, mnt, &err) == 0);
	return dev;
}

static bool bound(const char *dev)
{
	char b[PATH_MAX];

	return bo_loop_backing_file(dev, b, sizeof(b), NULL) == 0;
}

static void test_unwind_real_objects(void)
{
	struct bo_teardown *td = NULL;
	struct bo_loop_dev dev;

	nreports = 0;
	CU_ASSERT_FATAL(bo_teardown_new(8, report, NULL, &td) == 0);
	dev = loop_with_fs(td, "a.img");
	/* Wrong order would fail: the loop cannot go while the filesystem is mounted on it. */
	CU_ASSERT(bo_teardown_unwind(td) == 0);
	CU_ASSERT(nreports == 0);
	CU_ASSERT(bo_mount_is_mounted(mnt, NULL) == 0);
	CU_ASSERT(!bound(dev.path));
	bo_teardown_free(td);
}

static void test_real_failures_reported(void)
{
	struct bo_teardown *td = NULL;
	struct bo_loop_dev dev;
	struct bo_err err = {0};
	char file[PATH_MAX];
	int fd;

	nreports = 0;
	reports[0] = '\0';
	CU_ASSERT_FATAL(bo_teardown_new(8, report, NULL, &td) == 0);
	dev = loop_with_fs(td, "b.img");
	snprintf(file, sizeof(file), "%s/held", mnt);
	fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	/* The busy mount fails, and so does the loop under it; both are reported. */
	CU_ASSERT(bo_teardown_unwind(td) == -EBUSY);
	CU_ASSERT(nreports == 2);
	CU_ASSERT(strstr(reports, "[mount ") != NULL && strstr(reports, "target is busy") != NULL);
	CU_ASSERT(strstr(reports, "[loop /dev/loop") != NULL &&
		  strstr(reports, "still open elsewhere") != NULL);
	fprintf(stderr, "\n%s", reports);
	close(fd);
	CU_ASSERT(bo_umount(mnt, 0, &err) == 0);
	/* LOOP_CLR_FD had marked the loop for detaching at its last close: the unmount. */
	CU_ASSERT(!bound(dev.path));
	bo_teardown_free(td);
}

static void test_sigint_unwinds(void)
{
	struct sigaction sa = {.sa_handler = bo_teardown_request_stop}, old;
	struct bo_teardown *td = NULL;
	struct bo_loop_dev dev;
	int steps = 0;

	nreports = 0;
	sigemptyset(&sa.sa_mask);
	CU_ASSERT_FATAL(sigaction(SIGINT, &sa, &old) == 0);
	CU_ASSERT_FATAL(bo_teardown_new(8, report, NULL, &td) == 0);
	dev = loop_with_fs(td, "c.img");
	/* A run loop: work until asked to stop. */
	while (!bo_teardown_stop_requested() && steps < 1000) {
		if (++steps == 3)
			kill(getpid(), SIGINT);
	}
	CU_ASSERT(steps == 3);
	CU_ASSERT(bo_teardown_stop_signal() == SIGINT);
	CU_ASSERT(bo_teardown_unwind(td) == 0);
	CU_ASSERT(!bound(dev.path));
	CU_ASSERT(bo_mount_is_mounted(mnt, NULL) == 0);
	bo_teardown_free(td);
	sigaction(SIGINT, &old, NULL);
}

static void test_nothing_left(void)
{
	CU_ASSERT(root_leftovers() == 0);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"mount then loop, undone in reverse", test_unwind_real_objects},
		{"failures of real objects are reported", test_real_failures_reported},
		{"SIGINT stops the run and everything is unwound", test_sigint_unwinds},
		{"nothing left behind", test_nothing_left},
		{NULL, NULL},
	};
	int r = root_require("root_teardown");

	if (r)
		return r;
	if (!root_have("mkfs.ext4")) {
		fprintf(stderr, "\n*** SKIP root_teardown: mkfs.ext4 not installed ***\n\n");
		return ROOT_SKIP;
	}
	run = root_dir("run");
	mnt = root_dir("run/mnt");
	r = bo_test_run("root_teardown", tests);
	if (root_leftovers() > 0)
		r = 1;
	return r;
}
