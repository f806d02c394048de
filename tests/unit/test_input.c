// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading what strangers wrote (harness/base/input.h): paths a file gives, beneath its
 * directory. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/input.h"

static void test_rel_check(void)
{
	static const char *const good[] = {"a", "6.1.0-28-amd64/20260101-000000-1-abc", "a/b/c",
					   "x~y+z,1:2"};
	static const char *const bad[] = {"",	  "/etc",   "../x",   "a/../b",	   "a/./b", "a//b",
					  "a/",	  ".",	    "..",     "a/.hidden", "-x",    "a b",
					  "a\nb", "a/\x1b", "a/b;rm", "é"};
	struct bo_err err = {0};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CU_ASSERT(bo_input_rel_check(good[i], "k", &err) == 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = (struct bo_err){0};
		CU_ASSERT(bo_input_rel_check(bad[i], "f: kernels[0].results", &err) == -EINVAL);
		CU_ASSERT(strstr(err.msg, "f: kernels[0].results: '") != NULL);
	}
	CU_ASSERT(bo_input_rel_check(NULL, "k", &err) == -EINVAL);
	/* The path is quoted in one line, its control characters escaped. */
	CU_ASSERT(bo_input_rel_check("a\nb", "k", &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "'a\\x0ab'") != NULL);
}

static void test_opendir(void)
{
	const char *top = bo_test_path("tree"), *out = bo_test_path("outside");
	char path[4096];
	struct bo_err err = {0};
	int fd;

	CU_ASSERT_FATAL(mkdir(top, 0755) == 0 && mkdir(out, 0755) == 0);
	snprintf(path, sizeof(path), "%s/k", top);
	CU_ASSERT_FATAL(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/k/run", top);
	CU_ASSERT_FATAL(mkdir(path, 0755) == 0);
	bo_test_put(top, "file", "x");
	snprintf(path, sizeof(path), "%s/link", top);
	CU_ASSERT_FATAL(symlink(out, path) == 0);
	snprintf(path, sizeof(path), "%s/k/up", top);
	CU_ASSERT_FATAL(symlink("..", path) == 0);

	/* The positive control: a directory beneath, reached without a symlink. */
	fd = bo_input_opendir(top, "k/run", "w", &err);
	CU_ASSERT(fd >= 0);
	if (fd >= 0)
		close(fd);
	/* A symlink, at the end or on the way, even one that stays inside. */
	CU_ASSERT(bo_input_opendir(top, "link", "w", &err) == -ELOOP);
	CU_ASSERT(strstr(err.msg, "symlink") != NULL);
	CU_ASSERT(bo_input_opendir(top, "k/up/k", "w", &err) == -ELOOP);
	CU_ASSERT(bo_input_opendir(top, "file", "w", &err) == -ENOTDIR);
	CU_ASSERT(strstr(err.msg, "not a directory") != NULL);
	CU_ASSERT(bo_input_opendir(top, "nosuch", "w", &err) == -ENOENT);
	/* What bo_input_rel_check() refuses is not opened. */
	CU_ASSERT(bo_input_opendir(top, "../outside", "w", &err) == -EINVAL);
	CU_ASSERT(bo_input_opendir(top, out, "w", &err) == -EINVAL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"a path from a file: relative, of plain names", test_rel_check},
		{"a directory beneath, never through a symlink", test_opendir},
		{NULL, NULL},
	};

	return bo_test_run("input", tests);
}
