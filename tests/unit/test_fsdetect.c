// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filesystem detection without root: libblkid probes image files too. Images are made by
 * writing the on-disk signatures by hand, so no mkfs is needed here (tests/root/root_fs.c
 * detects what the real tools made).
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/dev/fsdetect.h"

static const char *image(const char *name)
{
	const char *p = bo_test_path(name);
	int fd = open(p, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(ftruncate(fd, 4 << 20) == 0);
	close(fd);
	return p;
}

static void put(const char *path, off_t off, const void *buf, size_t len)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(pwrite(fd, buf, len, off) == (ssize_t) len);
	close(fd);
}

static void test_nothing_there(void)
{
	struct bo_err err = {0};
	char type[32] = "unset";

	CU_ASSERT(bo_fs_detect(image("zero.img"), type, sizeof(type), &err) == -ENODATA);
	CU_ASSERT(strstr(err.msg, "no signature found") != NULL);
	CU_ASSERT_STRING_EQUAL(type, "unset");
	CU_ASSERT(bo_fs_detect(bo_test_path("missing.img"), type, sizeof(type), &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "missing.img") != NULL);
}

static void test_swap_signature(void)
{
	/* mkswap's signature is the simplest blkid knows: a version 1 header at byte 1024 and
	 * "SWAPSPACE2" at the end of the first 4 KiB page. */
	const char *p = image("swap.img");
	uint32_t version = 1, last_page = 1023;
	struct bo_err err = {0};
	char type[32], small[3];

	put(p, 1024, &version, sizeof(version));
	put(p, 1028, &last_page, sizeof(last_page));
	put(p, 4096 - 10, "SWAPSPACE2", 10);
	CU_ASSERT_FATAL(bo_fs_detect(p, type, sizeof(type), &err) == 0);
	CU_ASSERT_STRING_EQUAL(type, "swap");
	CU_ASSERT(bo_fs_detect(p, small, sizeof(small), &err) == -ENAMETOOLONG);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"no signature and no file", test_nothing_there},
		{"a signature is recognised", test_swap_signature},
		{NULL, NULL},
	};

	return bo_test_run("fsdetect", tests);
}
