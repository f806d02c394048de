// SPDX-License-Identifier: GPL-2.0-or-later
/* Results share: symlinks and special files are found, reported, removed; never followed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "vm/share.h"
#include "harness/base/file.h"

static const char *populate(const char *name)
{
	const char *dir = bo_test_path(name);
	char p[4096];
	int fd;

	snprintf(p, sizeof(p), "%s/sub/deeper", dir);
	CU_ASSERT_FATAL(bo_mkdir_p(p) == 0);
	snprintf(p, sizeof(p), "%s/sub/deeper/data", dir);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0 && write(fd, "12345", 5) == 5);
	close(fd);
	snprintf(p, sizeof(p), "%s/sub/escape", dir);
	CU_ASSERT_FATAL(symlink("../../../../../../../etc", p) == 0);
	snprintf(p, sizeof(p), "%s/passwd", dir);
	CU_ASSERT_FATAL(symlink("/etc/passwd", p) == 0);
	snprintf(p, sizeof(p), "%s/fifo", dir);
	CU_ASSERT_FATAL(mkfifo(p, 0600) == 0);
	return dir;
}

static void test_check(void)
{
	const char *dir = populate("share");
	struct bo_share_report rep;
	struct bo_err err = {0};
	struct stat st;
	char p[4096];

	CU_ASSERT(bo_share_check(dir, false, &rep, &err) == -ELOOP);
	CU_ASSERT(rep.rejected == 3 && rep.files == 1 && rep.dirs == 3 && rep.bytes == 5);
	CU_ASSERT(strstr(err.msg, "3 entries are neither files nor directories") != NULL);
	snprintf(p, sizeof(p), "%s/passwd", dir);
	CU_ASSERT(lstat(p, &st) == 0); /* reported, left */
	CU_ASSERT(bo_share_check(dir, true, &rep, &err) == 0);
	CU_ASSERT(rep.rejected == 3);
	CU_ASSERT(lstat(p, &st) < 0 && errno == ENOENT);
	snprintf(p, sizeof(p), "%s/sub/escape", dir);
	CU_ASSERT(lstat(p, &st) < 0 && errno == ENOENT);
	CU_ASSERT(stat("/etc/passwd", &st) == 0); /* the targets are untouched */
	CU_ASSERT(bo_share_check(dir, false, &rep, &err) == 0);
	CU_ASSERT(rep.rejected == 0 && rep.files == 1);
}

static void test_open(void)
{
	const char *dir = populate("open");
	struct bo_err err = {0};
	char buf[8] = "";
	int fd;

	fd = bo_share_open(dir, "sub/deeper/data", O_RDONLY, &err);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(read(fd, buf, sizeof(buf)) == 5 && !memcmp(buf, "12345", 5));
	close(fd);
	CU_ASSERT(bo_share_open(dir, "passwd", O_RDONLY, &err) < 0);
	CU_ASSERT(bo_share_open(dir, "sub/escape/passwd", O_RDONLY, &err) < 0);
	CU_ASSERT(bo_share_open(dir, "sub/../../etc/passwd", O_RDONLY, &err) < 0);
	CU_ASSERT(bo_share_open(dir, "/etc/passwd", O_RDONLY, &err) < 0);
	CU_ASSERT(strstr(err.msg, "would leave the directory") != NULL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"walk, report and remove", test_check},
		{"open beneath, no symlinks", test_open},
		{NULL, NULL},
	};

	return bo_test_run("vm_share", tests);
}
