// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Blocks to inodes and paths (harness/dev/fsmap.h) with the filesystems' real tools, on image
 * files made here: mkfs.ext4 and debugfs (which writes files into an image unmounted),
 * mkfs.xfs and xfs_db, mkfs.btrfs --rootdir and btrfs inspect-internal. No root, no device.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/dev/fsmap.h"

#define TIMEOUT_MS 30000

/* The first number in the output of shell command @cmd (after @after, when given). */
static uint64_t number_of(const char *cmd, const char *after)
{
	char out[4096] = "";
	FILE *p = popen(cmd, "r");
	size_t n;
	const char *at;

	CU_ASSERT_FATAL(p != NULL);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	pclose(p);
	at = after ? strstr(out, after) : out;
	CU_ASSERT_FATAL(at != NULL);
	at += after ? strlen(after) : 0;
	at += strcspn(at, "0123456789");
	return strtoull(at, NULL, 10);
}

/* Run shell command @cmd, which must succeed. */
static void sh(const char *cmd)
{
	CU_ASSERT_FATAL(system(cmd) == 0);
}

/* An ext4 image of 4 KiB blocks holding /f7 and /d1/g. */
static const char *ext4_image(void)
{
	static char path[512];

	if (path[0])
		return path;
	char cmd[2048];

	snprintf(path, sizeof(path), "%s", bo_test_path("ext4.img"));
	snprintf(cmd, sizeof(cmd),
		 "truncate -s 64M %s && mkfs.ext4 -q -F -b 4096 %s && "
		 "printf 'write /etc/services f7\\nmkdir d1\\nwrite /etc/hostname d1/g\\n' | "
		 "debugfs -w -f - %s >/dev/null 2>&1",
		 path, path, path);
	sh(cmd);
	return path;
}

static void test_ext4_files_and_metadata(void)
{
	const char *img = ext4_image();
	char cmd[1024];
	struct bo_fsmap_block v[5] = {0};
	struct bo_err err = {0};
	uint64_t data, table;

	snprintf(cmd, sizeof(cmd), "debugfs -R 'bmap f7 0' %s 2>/dev/null", img);
	data = number_of(cmd, NULL);
	snprintf(cmd, sizeof(cmd), "debugfs -R 'imap /d1/g' %s 2>/dev/null", img);
	table = number_of(cmd, "located at block");
	v[0].byte = data * 4096;
	v[1].byte = table * 4096;
	v[2].byte = 0;
	snprintf(cmd, sizeof(cmd), "debugfs -R 'bmap <8> 5' %s 2>/dev/null", img);
	v[3].byte = number_of(cmd, NULL) * 4096;
	v[4].byte = (64ull << 20) - 4096; /* free, at the end */
	CU_ASSERT_FATAL(bo_fsmap(BO_FS_EXT4, img, v, 5, TIMEOUT_MS, &err) == 0);
	/* A file's data block: its inode and path. */
	CU_ASSERT_EQUAL(v[0].block, data);
	CU_ASSERT_STRING_EQUAL(v[0].what, "data");
	CU_ASSERT(v[0].inode >= 11);
	CU_ASSERT_STRING_EQUAL(v[0].path, "/f7");
	/* An inode table block: the inodes it holds, and their paths. */
	CU_ASSERT(!strncmp(v[1].what, "inode table (inodes ", 20));
	CU_ASSERT(strstr(v[1].path, "/d1/g") != NULL);
	CU_ASSERT(strstr(v[1].path, "/f7") != NULL);
	/* The super block, a journal block no transaction holds, a block no one owns. */
	CU_ASSERT_STRING_EQUAL(v[2].what, "super block");
	CU_ASSERT(!strncmp(v[3].what, "journal block 5", 15));
	CU_ASSERT_EQUAL(v[3].inode, 8);
	CU_ASSERT_STRING_EQUAL(v[4].what, "metadata (no inode owns it)");
	CU_ASSERT_EQUAL(v[4].inode, 0);
}

static void test_ext4_written_super_blocks(void)
{
	const char *img = ext4_image();
	char cmd[1024];
	unsigned char jsb[2048], sb[2048];
	struct bo_fsmap_block v[2] = {0};
	struct bo_err err = {0};
	uint64_t j0;
	int fd = open(img, O_RDONLY);

	snprintf(cmd, sizeof(cmd), "debugfs -R 'bmap <8> 0' %s 2>/dev/null", img);
	j0 = number_of(cmd, NULL);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(pread(fd, jsb, sizeof(jsb), (off_t) (j0 * 4096)) == (ssize_t) sizeof(jsb));
	CU_ASSERT_FATAL(pread(fd, sb, sizeof(sb), 0) == (ssize_t) sizeof(sb));
	close(fd);
	/* What a write put there: the journal's super block names where replay starts; the
	 * super block whether the journal is replayed at all. */
	v[0] = (struct bo_fsmap_block){.byte = j0 * 4096, .data = jsb};
	sb[1024 + 96] |= 0x4;
	v[1] = (struct bo_fsmap_block){.byte = 0, .data = sb};
	CU_ASSERT_FATAL(bo_fsmap(BO_FS_EXT4, img, v, 2, TIMEOUT_MS, &err) == 0);
	CU_ASSERT(!strncmp(v[0].what, "the journal's super block: replay starts at transaction ",
			   56));
	CU_ASSERT(strstr(v[1].what, "needs_recovery set") != NULL);
}

static void test_xfs(void)
{
	const char *img = bo_test_path("xfs.img");
	char cmd[1024];
	struct bo_fsmap_block v[2] = {0};
	struct bo_err err = {0};
	uint64_t log;

	snprintf(cmd, sizeof(cmd), "truncate -s 320M %s && mkfs.xfs -q -f %s", img, img);
	sh(cmd);
	snprintf(cmd, sizeof(cmd),
		 "xfs_db -r -f -c 'sb 0' -c 'p logstart' %s | "
		 "{ read _ _ b; xfs_db -r -f -c \"convert fsblock $b daddr\" %s; }",
		 img, img);
	log = number_of(cmd, "(");
	v[0].byte = 0;
	v[1].byte = log * 512;
	CU_ASSERT_FATAL(bo_fsmap(BO_FS_XFS, img, v, 2, TIMEOUT_MS, &err) == 0);
	CU_ASSERT_STRING_EQUAL(v[0].what, "sb");
	CU_ASSERT_STRING_EQUAL(v[1].what, "journal");
}

static void test_btrfs(void)
{
	const char *img = bo_test_path("btrfs.img"), *dir = bo_test_path("btrfs-root");
	char cmd[2048];
	struct bo_fsmap_block v[4] = {0};
	struct bo_err err = {0};
	uint64_t data, leaf;

	/* mkfs.btrfs --rootdir fills the image from a directory: no mount needed. */
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/d1 && cp /etc/services %s/f7 && echo x >%s/d1/g && "
		 "truncate -s 256M %s && mkfs.btrfs -q -f -r %s %s >/dev/null 2>&1",
		 dir, dir, dir, img, dir, img);
	sh(cmd);
	/* f7's data: where its first line is on the device. */
	snprintf(cmd, sizeof(cmd), "grep -obUa -m1 '^tcpmux' %s | head -1", img);
	data = number_of(cmd, NULL) / 4096 * 4096;
	/* The filesystem tree's leaf: its logical address through the chunk tree. */
	snprintf(cmd, sizeof(cmd),
		 "L=$(btrfs inspect-internal dump-tree -t fs %s | awk '/^leaf [0-9]+ items/ "
		 "{print $2; exit}'); btrfs inspect-internal dump-tree -t chunk %s | awk -v L=$L "
		 "'/CHUNK_ITEM/ {k=$6; sub(/\\)/,\"\",k)} /length/ {len=$2} /stripe 0 devid/ "
		 "{if (L>=k && L<k+len) {print $6 + (L-k); exit}}'",
		 img, img);
	leaf = number_of(cmd, NULL);
	v[0].byte = data;
	v[1].byte = leaf;
	v[2].byte = 64 << 10;
	v[3].byte = 0; /* the first MiB: in no chunk */
	CU_ASSERT_FATAL(bo_fsmap(BO_FS_BTRFS, img, v, 4, TIMEOUT_MS, &err) == 0);
	CU_ASSERT_STRING_EQUAL(v[0].what, "data");
	CU_ASSERT(v[0].inode >= 256);
	CU_ASSERT_STRING_EQUAL(v[0].path, "/f7");
	CU_ASSERT(!strncmp(v[1].what, "a tree block of FS_TREE", 23));
	CU_ASSERT(strstr(v[1].path, "/f7") != NULL && strstr(v[1].path, "/d1/g") != NULL);
	CU_ASSERT_STRING_EQUAL(v[2].what, "super block");
	CU_ASSERT(!strncmp(v[3].what, "not mapped: in no chunk", 23));

	/* A write of the super block commits its generation: the inodes of its leaves. */
	{
		unsigned char sb[2048];
		int fd = open(img, O_RDONLY);

		CU_ASSERT_FATAL(fd >= 0);
		CU_ASSERT_FATAL(pread(fd, sb, sizeof(sb), 64 << 10) == (ssize_t) sizeof(sb));
		close(fd);
		v[0] = (struct bo_fsmap_block){.byte = 64 << 10, .data = sb};
		CU_ASSERT_FATAL(bo_fsmap(BO_FS_BTRFS, img, v, 1, TIMEOUT_MS, &err) == 0);
		CU_ASSERT(!strncmp(v[0].what, "super block, committing generation ", 35));
		CU_ASSERT(strstr(v[0].path, "/f7") != NULL);
	}
}

static void test_errors(void)
{
	struct bo_fsmap_block v[BO_FSMAP_MAX + 1] = {0};
	struct bo_err err = {0};
	char *path = strdup(getenv("PATH") ? getenv("PATH") : "");

	CU_ASSERT(bo_fsmap(BO_FS_EXT4, ext4_image(), v, BO_FSMAP_MAX + 1, TIMEOUT_MS, &err) ==
		  -E2BIG);
	/* Not ext4 at all, and a tool that is not there: errors that name what. */
	CU_ASSERT(bo_fsmap(BO_FS_EXT4, "/dev/null", v, 1, TIMEOUT_MS, &err) < 0);
	CU_ASSERT(strstr(bo_err_str(&err), "/dev/null") != NULL);
	setenv("PATH", "/nonexistent", 1);
	CU_ASSERT(bo_fsmap(BO_FS_EXT4, ext4_image(), v, 1, TIMEOUT_MS, &err) == -ENOENT);
	CU_ASSERT(strstr(bo_err_str(&err), "debugfs") != NULL);
	CU_ASSERT(bo_fsmap(BO_FS_BTRFS, "/nonexistent", v, 1, TIMEOUT_MS, &err) == -ENOENT);
	CU_ASSERT(strstr(bo_err_str(&err), "btrfs") != NULL);
	setenv("PATH", path, 1);
	free(path);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"ext4: files, inode tables, super block, journal, free blocks",
		 test_ext4_files_and_metadata},
		{"ext4: what a write of a super block says", test_ext4_written_super_blocks},
		{"xfs: super block and log", test_xfs},
		{"btrfs: data, a leaf of the filesystem tree, super block, no chunk", test_btrfs},
		{"bad devices and missing tools are errors", test_errors},
		{NULL, NULL},
	};

	return bo_test_run("fsmap", tests);
}
