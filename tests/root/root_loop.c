// SPDX-License-Identifier: GPL-2.0-or-later
/* Loop devices for real: attach with every option, both ioctl paths, detach, cleanup lists. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/dev/loop.h"
#include "root_util.h"

static const char *run;	    /* the "run directory": the only place files may be bound from */
static char data[PATH_MAX]; /* a 16 MiB file in it */

static bool bound(const char *dev)
{
	char b[PATH_MAX];

	return bo_loop_backing_file(dev, b, sizeof(b), NULL) == 0;
}

static int ioctl_int(const char *dev, unsigned long req)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC), v = -1;

	if (fd >= 0) {
		if (ioctl(fd, req, &v) < 0)
			v = -1;
		close(fd);
	}
	return v;
}

static void test_attach_detach(void)
{
	struct bo_loop_dev dev = {.fd = -2};
	struct bo_err err = {0};
	char backing[PATH_MAX], real[PATH_MAX], **list = NULL, buf[512];
	uint64_t size = 0;
	int fd;

	CU_ASSERT_FATAL(bo_loop_attach(data, run, 0, 0, &dev, &err) == 0);
	CU_ASSERT(dev.fd == -1);
	CU_ASSERT(strncmp(dev.path, "/dev/loop", 9) == 0);
	CU_ASSERT_FATAL(bo_loop_backing_file(dev.path, backing, sizeof(backing), &err) == 0);
	CU_ASSERT_FATAL(realpath(data, real) != NULL);
	CU_ASSERT_STRING_EQUAL(backing, real);

	/* It is the file: a write through the device lands in it. */
	fd = open(dev.path, O_RDWR | O_CLOEXEC);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(ioctl(fd, BLKGETSIZE64, &size) == 0 && size == 16 << 20);
	memset(buf, 0xa5, sizeof(buf));
	CU_ASSERT(pwrite(fd, buf, sizeof(buf), 4096) == (ssize_t) sizeof(buf));
	CU_ASSERT(fsync(fd) == 0);
	close(fd);
	memset(buf, 0, sizeof(buf));
	fd = open(data, O_RDONLY | O_CLOEXEC);
	CU_ASSERT(pread(fd, buf, sizeof(buf), 4096) == (ssize_t) sizeof(buf));
	CU_ASSERT((unsigned char) buf[0] == 0xa5 && (unsigned char) buf[511] == 0xa5);
	close(fd);

	/* Cleanup finds it by directory, and only by the right one. */
	CU_ASSERT_FATAL(bo_loop_list_inside(run, &list, &err) == 0);
	CU_ASSERT(list[0] && !strcmp(list[0], dev.path) && !list[1]);
	bo_loop_list_free(list);
	CU_ASSERT_FATAL(bo_loop_list_inside(root_dir("elsewhere"), &list, &err) == 0);
	CU_ASSERT(list[0] == NULL);
	bo_loop_list_free(list);

	CU_ASSERT(bo_loop_detach(dev.path, &err) == 0);
	CU_ASSERT(!bound(dev.path));
	CU_ASSERT(bo_loop_backing_file(dev.path, backing, sizeof(backing), &err) == -ENXIO);
	CU_ASSERT(bo_loop_detach(dev.path, &err) == -ENXIO);
	CU_ASSERT(strstr(err.msg, "not bound") != NULL);
	CU_ASSERT(bo_loop_detach("/dev/null", &err) == -ENOTBLK);
}

/* Read-only with 4 KiB sectors, through LOOP_CONFIGURE or the legacy ioctls. */
static void attach_ro_4k(unsigned extra)
{
	struct bo_loop_dev dev;
	struct bo_err err = {0};
	char buf[4096] = {1};
	int fd;

	CU_ASSERT_FATAL(bo_loop_attach(data, run, BO_LOOP_READ_ONLY | extra, 4096, &dev, &err) ==
			0);
	CU_ASSERT(ioctl_int(dev.path, BLKROGET) == 1);
	CU_ASSERT(ioctl_int(dev.path, BLKSSZGET) == 4096);
	/* Writes are refused (opening for writing may or may not be, by kernel version). */
	fd = open(dev.path, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		CU_ASSERT(pwrite(fd, buf, sizeof(buf), 0) < 0);
		close(fd);
	}
	CU_ASSERT(bo_loop_detach(dev.path, &err) == 0);
	CU_ASSERT(!bound(dev.path));
}

static void test_read_only_block_size(void)
{
	attach_ro_4k(0);
}

static void test_legacy_ioctls(void)
{
	struct bo_loop_dev dev;
	struct bo_err err = {0};

	attach_ro_4k(BO_LOOP_LEGACY_IOCTLS);
	/* And read-write with the default sector size. */
	CU_ASSERT_FATAL(bo_loop_attach(data, run, BO_LOOP_LEGACY_IOCTLS, 0, &dev, &err) == 0);
	CU_ASSERT(ioctl_int(dev.path, BLKROGET) == 0);
	CU_ASSERT(ioctl_int(dev.path, BLKSSZGET) == 512);
	CU_ASSERT(bo_loop_detach(dev.path, &err) == 0);
}

static void test_autoclear(void)
{
	struct bo_loop_dev dev;
	struct bo_err err = {0};
	char path[32];

	CU_ASSERT_FATAL(bo_loop_attach(data, run, BO_LOOP_AUTOCLEAR, 0, &dev, &err) == 0);
	CU_ASSERT(dev.fd >= 0);
	CU_ASSERT(bound(dev.path));
	strcpy(path, dev.path);
	/* The last close detaches it. */
	bo_loop_dev_close(&dev);
	CU_ASSERT(dev.fd == -1);
	CU_ASSERT(!bound(path));
}

static void test_direct_io(void)
{
	struct bo_loop_dev dev;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_loop_attach(data, run, BO_LOOP_DIRECT_IO, 0, &dev, &err) == 0);
	fprintf(stderr, "(direct I/O on %s: %s) ", dev.path, dev.direct_io ? "on" : "refused");
	CU_ASSERT(bo_loop_detach(dev.path, &err) == 0);
}

static void test_detach_while_open(void)
{
	struct bo_loop_dev dev;
	struct bo_err err = {0};
	int holder;

	CU_ASSERT_FATAL(bo_loop_attach(data, run, 0, 0, &dev, &err) == 0);
	holder = open(dev.path, O_RDONLY | O_CLOEXEC);
	CU_ASSERT_FATAL(holder >= 0);
	/* The kernel only schedules the detach: that is reported, the loop is still there. */
	CU_ASSERT(bo_loop_detach(dev.path, &err) == -EBUSY);
	CU_ASSERT(strstr(err.msg, "still open elsewhere") != NULL);
	CU_ASSERT(bound(dev.path));
	close(holder);
	/* ...and happens at the last close. */
	CU_ASSERT(!bound(dev.path));
}

static void test_concurrent_attach(void)
{
	enum { PROCS = 6, EACH = 4 };
	char seen[PROCS * EACH][32];
	int pipes[PROCS][2], n = 0;

	/* Several processes race for free devices: every attach must still succeed once. */
	for (int p = 0; p < PROCS; p++) {
		CU_ASSERT_FATAL(pipe(pipes[p]) == 0);
		if (fork() == 0) {
			close(pipes[p][0]);
			for (int i = 0; i < EACH; i++) {
				struct bo_loop_dev dev;
				struct bo_err err = {0};
				char line[40];

				if (bo_loop_attach(data, run, BO_LOOP_READ_ONLY, 0, &dev, &err) <
				    0) {
					fprintf(stderr, "child: %s\n", err.msg);
					_exit(1);
				}
				snprintf(line, sizeof(line), "%-31s", dev.path);
				if (write(pipes[p][1], line, 32) != 32)
					_exit(1);
			}
			_exit(0);
		}
		close(pipes[p][1]);
	}
	for (int p = 0; p < PROCS; p++) {
		int st;

		while (n < PROCS * EACH && read(pipes[p][0], seen[n], 32) == 32) {
			seen[n][31] = '\0';
			seen[n][strcspn(seen[n], " ")] = '\0';
			n++;
		}
		close(pipes[p][0]);
		wait(&st);
		CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	CU_ASSERT(n == PROCS * EACH);
	for (int i = 0; i < n; i++) {
		for (int j = i + 1; j < n; j++)
			CU_ASSERT(strcmp(seen[i], seen[j]) != 0);
		CU_ASSERT(bo_loop_detach(seen[i], NULL) == 0);
	}
}

static void test_nothing_left(void)
{
	CU_ASSERT(root_leftovers() == 0);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"attach, use, list, detach", test_attach_detach},
		{"read-only with 4 KiB sectors", test_read_only_block_size},
		{"legacy LOOP_SET_FD path", test_legacy_ioctls},
		{"autoclear detaches at the last close", test_autoclear},
		{"direct I/O request", test_direct_io},
		{"detach while held open is reported", test_detach_while_open},
		{"concurrent attaches each get their own device", test_concurrent_attach},
		{"nothing left behind", test_nothing_left},
		{NULL, NULL},
	};
	int r = root_require("root_loop");

	if (r)
		return r;
	run = root_dir("run");
	snprintf(data, sizeof(data), "%s/data.img", run);
	root_make_file(data, 16 << 20);
	r = bo_test_run("root_loop", tests);
	/* Even when a test failed half-way: nothing may stay bound. */
	if (root_leftovers() > 0)
		r = 1;
	return r;
}
