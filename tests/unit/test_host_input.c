// SPDX-License-Identifier: GPL-2.0-or-later
/* What the host judges of the files it is given (harness/base/input.h): what may go into a
 * VM, a write target that is never written through a symlink, free space by descriptor. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/input.h"

static void test_shippable(void)
{
	char top[2048], dir[4096], deep[4096];
	struct bo_err err = {0};
	size_t n;

	/* bo_test_path() reuses its buffers: the paths kept are copied. */
	snprintf(top, sizeof(top), "%s", bo_test_path("ship"));
	snprintf(dir, sizeof(dir), "%s/a/b", top);
	CU_ASSERT_FATAL(mkdir(top, 0755) == 0 && mkdir(bo_test_path("ship/a"), 0755) == 0 &&
			mkdir(dir, 0755) == 0);
	bo_test_put(dir, "file", "x");
	CU_ASSERT_FATAL(symlink("/nonexistent", bo_test_path("ship/a/dangling")) == 0);
	CU_ASSERT_FATAL(symlink("/dev", bo_test_path("ship/a/dirlink")) == 0);
	/* Regular files, directories, a dangling symlink, one to a directory (not walked). */
	CU_ASSERT(bo_input_shippable(top, &err) == 0);
	CU_ASSERT(bo_input_shippable(bo_test_path("ship/a/b/file"), &err) == 0);
	/* A FIFO deep inside: refused, named. */
	CU_ASSERT_FATAL(mkfifo(bo_test_path("ship/a/b/pipe"), 0600) == 0);
	CU_ASSERT(bo_input_shippable(top, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "/ship/a/b/pipe' is a FIFO") != NULL);
	CU_ASSERT(unlink(bo_test_path("ship/a/b/pipe")) == 0);
	/* A symlink inside to a character device: refused, named. */
	CU_ASSERT_FATAL(symlink("/dev/zero", bo_test_path("ship/a/zero")) == 0);
	CU_ASSERT(bo_input_shippable(top, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "/ship/a/zero' leads to a character device") != NULL);
	CU_ASSERT(unlink(bo_test_path("ship/a/zero")) == 0);
	CU_ASSERT(bo_input_shippable(top, &err) == 0);
	/* The path named itself: a device, a symlink loop, nothing. */
	CU_ASSERT(bo_input_shippable("/dev/null", &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "character device") != NULL);
	CU_ASSERT(bo_input_shippable(bo_test_path("ship/none"), &err) == -ENOENT);
	/* Deeper than the walk goes: refused. */
	n = (size_t) snprintf(deep, sizeof(deep), "%s", bo_test_path("deep"));
	CU_ASSERT_FATAL(mkdir(deep, 0755) == 0);
	for (int i = 0; i < 70; i++) {
		n += (size_t) snprintf(deep + n, sizeof(deep) - n, "/d");
		CU_ASSERT_FATAL(mkdir(deep, 0755) == 0);
	}
	CU_ASSERT(bo_input_shippable(bo_test_path("deep"), &err) == -ELOOP);
	CU_ASSERT(strstr(err.msg, "levels deep") != NULL);
}

static void test_output_target(void)
{
	const char *file = bo_test_path("t.img"), *link = bo_test_path("t.link");
	const char *dangling = bo_test_path("d.link"), *away = bo_test_path("away");
	const char *fifo = bo_test_path("t.fifo");
	struct bo_err err = {0};
	struct stat st;
	bool created = false;
	int fd;

	/* Nothing there: made, and said so. */
	fd = bo_output_open_target(file, &created, &err);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(created);
	CU_ASSERT(write(fd, "abc", 3) == 3);
	close(fd);
	/* There: opened as it is, not truncated, not made. */
	fd = bo_output_open_target(file, &created, &err);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(!created);
	CU_ASSERT(fstat(fd, &st) == 0 && st.st_size == 3);
	close(fd);
	/* A symlink, to the file or to nothing: refused, nothing made or written. */
	CU_ASSERT_FATAL(symlink(file, link) == 0 && symlink(away, dangling) == 0);
	CU_ASSERT(bo_output_open_target(link, &created, &err) == -ELOOP);
	CU_ASSERT(strstr(err.msg, "symlink") != NULL);
	CU_ASSERT(bo_output_open_target(dangling, &created, &err) == -ELOOP);
	CU_ASSERT(!created && access(away, F_OK) < 0);
	CU_ASSERT(stat(file, &st) == 0 && st.st_size == 3);
	/* A FIFO (no hang), a character device, a directory: refused unopened. */
	CU_ASSERT_FATAL(mkfifo(fifo, 0600) == 0);
	CU_ASSERT(bo_output_open_target(fifo, &created, &err) == -EPERM);
	CU_ASSERT(strstr(err.msg, "not a regular file") != NULL);
	CU_ASSERT(bo_output_open_target("/dev/null", &created, &err) == -EPERM);
	CU_ASSERT(bo_output_open_target(bo_test_dir(), &created, &err) == -EPERM);
	CU_ASSERT(!created);
}

static void test_space_fd(void)
{
	const char *file = bo_test_path("space.img");
	struct bo_err err = {0};
	int fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(bo_space_check_fd(fd, file, 4096, "a test", &err) == 0);
	CU_ASSERT(bo_space_check_fd(fd, file, UINT64_MAX, "a test", &err) == -ENOSPC);
	CU_ASSERT(strstr(err.msg, "a test would write") != NULL);
	CU_ASSERT(strstr(err.msg, file) != NULL);
	close(fd);
	CU_ASSERT(bo_space_check_fd(-1, file, 1, "a test", &err) == -EBADF);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"what goes into a VM: a directory walked, a special file inside named",
		 test_shippable},
		{"a write target: never through a symlink, judged unopened", test_output_target},
		{"free space by descriptor", test_space_fd},
		{NULL, NULL},
	};

	return bo_test_run("host input", tests);
}
