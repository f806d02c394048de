// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cache's trim (bo_cache_trim()): what was used longest ago goes first until the rest fits,
 * never the entry kept, never a dot file; and by age.
 */
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

int main(void)
{
	static const struct bo_test tests[] = {
		{"trim by last use", test_trim},
		{},
	};

	return bo_test_run("cache", tests);
}
