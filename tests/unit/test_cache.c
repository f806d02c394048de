// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cache's trim (bo_cache_trim()): what was used longest ago goes first until the rest fits,
 * never the entry kept, never a dot file; and by age.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/file.h"

static const char *entry(const char *dir, const char *name, size_t bytes, int days_ago)
{
	static char path[8][4096];
	static int k;
	char *p = path[k++ % 8];
	struct timespec t[2];
	FILE *f;

	CU_ASSERT_FATAL(snprintf(p, 4096, "%s/%s", dir, name) < 4096);
	f = fopen(p, "w");
	CU_ASSERT_FATAL(f != NULL);
	for (size_t i = 0; i < bytes; i++)
		fputc('x', f);
	fclose(f);
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= days_ago * 86400;
	t[1] = t[0];
	CU_ASSERT(utimensat(AT_FDCWD, p, t, 0) == 0);
	return p;
}

static void test_trim(void)
{
	char dir[4096];
	struct bo_err err = {0};
	uint64_t freed = 0;
	const char *a, *b, *c, *keep, *lock;

	snprintf(dir, sizeof(dir), "%s/files", bo_test_dir());
	CU_ASSERT_FATAL(bo_mkdir_p(dir) == 0);
	a = entry(dir, "a.cpio", 40960, 3); /* used 3 days ago */
	b = entry(dir, "b.cpio", 40960, 2);
	c = entry(dir, "c.cpio", 40960, 1);
	keep = entry(dir, "keep.cpio", 40960, 9); /* the oldest, but the one just built */
	lock = entry(dir, ".lock", 0, 30);
	/* Room for two: a and b go, keep stays although it is the oldest. */
	CU_ASSERT(bo_cache_trim(dir, 2 * 40960 + 8192, 0, keep, &freed, &err) == 2);
	CU_ASSERT(access(a, F_OK) < 0 && access(b, F_OK) < 0);
	CU_ASSERT(access(c, F_OK) == 0 && access(keep, F_OK) == 0);
	CU_ASSERT(freed >= 2 * 40960);
	/* A use makes an entry new: touched, keep outlives c under an age limit of 5 days. */
	bo_cache_touch(keep);
	entry(dir, "c.cpio", 40960, 6);
	CU_ASSERT(bo_cache_trim(dir, UINT64_MAX, 5 * 86400, NULL, NULL, &err) == 1);
	CU_ASSERT(access(c, F_OK) < 0 && access(keep, F_OK) == 0);
	CU_ASSERT(access(lock, F_OK) == 0); /* not an entry */
	/* A use stamped ahead of the trim's clock (they tick apart) is new, not of age 2^64. */
	c = entry(dir, "future.cpio", 40960, -1);
	CU_ASSERT(bo_cache_trim(dir, UINT64_MAX, 5 * 86400, NULL, NULL, &err) == 0);
	CU_ASSERT(access(c, F_OK) == 0 && access(keep, F_OK) == 0);
}

/* A cache directory that is a symlink is not trimmed: the files it leads to stay. A tree is
 * removed by descriptor: a symlink in it goes, what it leads to stays; a symlink given as the
 * tree is refused. */
static void test_symlinks_not_followed(void)
{
	char outside[4096], link[4096], tree[4096], sub[4096];
	struct bo_err err = {0};
	const char *precious;
	int dfd;

	snprintf(outside, sizeof(outside), "%s/outside", bo_test_dir());
	snprintf(link, sizeof(link), "%s/files-link", bo_test_dir());
	CU_ASSERT_FATAL(bo_mkdir_p(outside) == 0);
	precious = entry(outside, "precious", 40960, 90);
	CU_ASSERT_FATAL(symlink(outside, link) == 0);
	CU_ASSERT(bo_cache_trim(link, 0, 1, NULL, NULL, &err) == -ENOTDIR);
	CU_ASSERT(strstr(bo_err_str(&err), "a symlink is not followed") != NULL);
	CU_ASSERT(access(precious, F_OK) == 0);
	/* A tree holding a symlink to a directory, and one to a file. */
	snprintf(tree, sizeof(tree), "%s/tree", bo_test_dir());
	snprintf(sub, sizeof(sub), "%s/tree/sub", bo_test_dir());
	CU_ASSERT_FATAL(bo_mkdir_p(sub) == 0);
	entry(sub, "f", 10, 0);
	CU_ASSERT_FATAL(snprintf(link, sizeof(link), "%s/to-dir", sub) < (int) sizeof(link));
	CU_ASSERT_FATAL(symlink(outside, link) == 0);
	CU_ASSERT_FATAL(snprintf(link, sizeof(link), "%s/to-file", tree) < (int) sizeof(link));
	CU_ASSERT_FATAL(symlink(precious, link) == 0);
	snprintf(link, sizeof(link), "%s/files-link", bo_test_dir());
	CU_ASSERT(bo_remove_tree_at(AT_FDCWD, link) < 0 && access(link, F_OK) == 0);
	dfd = open(bo_test_dir(), O_RDONLY | O_DIRECTORY);
	CU_ASSERT_FATAL(dfd >= 0);
	CU_ASSERT(bo_remove_tree_at(dfd, "tree") == 0);
	CU_ASSERT(access(tree, F_OK) < 0 && access(precious, F_OK) == 0);
	CU_ASSERT(bo_remove_tree_at(dfd, "tree") == 0); /* gone already: nothing to do */
	close(dfd);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"trim by last use", test_trim},
		{"symlinks are not followed", test_symlinks_not_followed},
		{},
	};

	return bo_test_run("cache", tests);
}
