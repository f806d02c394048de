// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Base initramfs: compressed modules go in decompressed, the module closure and its index
 * files are there, the tools come with their libraries, and the cache is reused until an
 * input changes. Needs the host tools the guest gets (scripts/setup); exits 77 without them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "vm/initramfs.h"
#include "vm/kernel.h"
#include "vm/moddir.h"
#include "harness/base/file.h"

#define REL "6.1.0-test"

static char moddir[4096];

static void put(const char *rel, const char *text)
{
	char path[8192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", moddir, rel);
	*strrchr(path, '/') = '\0';
	CU_ASSERT_FATAL(bo_mkdir_p(path) == 0);
	snprintf(path, sizeof(path), "%s/%s", moddir, rel);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
}

static void compress(const char *tool, const char *rel)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "%s -q '%s/%s'", tool, moddir, rel);
	CU_ASSERT_FATAL(system(cmd) == 0);
}

/* The archive as text: "name\n" per entry, small files with their content after a tab. */
static char *listing(const char *cpio)
{
	char *buf, *out = NULL;
	size_t len, off = 0, olen = 0;
	FILE *o = open_memstream(&out, &olen);

	CU_ASSERT_FATAL(bo_read_file(cpio, 1u << 30, &buf, &len) == 0);
	while (off + 110 <= len && !memcmp(buf + off, "070701", 6)) {
		char f[9] = "";
		unsigned size, namesize;
		const char *name = buf + off + 110;

		memcpy(f, buf + off + 54, 8);
		size = (unsigned) strtoul(f, NULL, 16);
		memcpy(f, buf + off + 94, 8);
		namesize = (unsigned) strtoul(f, NULL, 16);
		if (!strcmp(name, "TRAILER!!!"))
			break;
		off = (off + 110 + namesize + 3) & ~(size_t) 3;
		fprintf(o, "%s", name);
		if (size < 2048)
			fprintf(o, "\t%.*s", (int) size, buf + off);
		fputc('\n', o);
		off = (off + size + 3) & ~(size_t) 3;
	}
	fclose(o);
	free(buf);
	return out;
}

static void test_base(void)
{
	/* One filesystem, a tool of it not installed: left out. */
	static const struct bo_guest_fs fstab[] = {
		{.name = "xfs",
		 .package = "xfsprogs",
		 .tools = {"mkfs.xfs", "no-such-tool-of-blackout"},
		 .modules = {"xfs"}},
		{0},
	};
	struct bo_kernel k = {.release = REL};
	struct bo_moddir *m;
	struct bo_err err = {0};
	char path[4096], again[4096], changed[4096];
	struct stat st1, st2;
	char *list;
	int r;

	snprintf(moddir, sizeof(moddir), "%s/lib/modules/%s", bo_test_dir(), REL);
	put("kernel/drivers/md/dm-mod.ko", "dm-mod");
	put("kernel/drivers/md/dm-log-writes.ko", "log-writes");
	compress("xz", "kernel/drivers/md/dm-log-writes.ko");
	put("kernel/drivers/md/dm-flakey.ko", "flakey");
	compress("zstd --rm", "kernel/drivers/md/dm-flakey.ko");
	put("kernel/drivers/md/dm-snapshot.ko", "snapshot");
	put("kernel/drivers/md/dm-thin-pool.ko", "thin-pool");
	put("kernel/drivers/virtio/virtio_pci.ko", "virtio-pci");
	put("kernel/drivers/char/virtio_console.ko", "console");
	put("kernel/net/9p/9pnet.ko", "9pnet");
	put("kernel/net/9p/9pnet_virtio.ko", "9pnet-virtio");
	put("kernel/fs/9p/9p.ko", "9p");
	put("kernel/crypto/unrelated.ko", "not needed");
	put("kernel/fs/xfs/xfs.ko", "xfs");
	put("modules.dep",
	    "kernel/drivers/md/dm-mod.ko:\n"
	    "kernel/drivers/md/dm-log-writes.ko.xz: kernel/drivers/md/dm-mod.ko\n"
	    "kernel/drivers/md/dm-flakey.ko.zst: kernel/drivers/md/dm-mod.ko\n"
	    "kernel/drivers/md/dm-snapshot.ko: kernel/drivers/md/dm-mod.ko\n"
	    "kernel/drivers/md/dm-thin-pool.ko: kernel/drivers/md/dm-mod.ko\n"
	    "kernel/drivers/virtio/virtio_pci.ko:\nkernel/drivers/char/virtio_console.ko:\n"
	    "kernel/net/9p/9pnet.ko:\nkernel/net/9p/9pnet_virtio.ko: kernel/net/9p/9pnet.ko\n"
	    "kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko\nkernel/crypto/unrelated.ko:\n"
	    "kernel/fs/xfs/xfs.ko:\n");
	put("modules.builtin", "kernel/drivers/block/loop.ko\n");
	put("modules.devname", "dm_mod mapper/control c10:236\nunrelated foo c1:1\n");
	CU_ASSERT_FATAL(setenv("XDG_CACHE_HOME", bo_test_path("cache"), 1) == 0);

	CU_ASSERT_FATAL(bo_moddir_open(moddir, &m, &err) == 0);
	CU_ASSERT_FATAL(bo_kernel_check(&k, m, &err) == 0);
	r = bo_initramfs_base(&k, m, fstab, path, sizeof(path), &err);
	if (r == -ENOPKG) {
		fprintf(stderr, "*** SKIP test_vm_initramfs: %s ***\n", bo_err_str(&err));
		exit(77);
	}
	CU_ASSERT_FATAL(r == 0);
	list = listing(path);
	/* Compressed modules are stored decompressed, under a .ko name, and indexed so. */
	CU_ASSERT(strstr(list, "usr/lib/modules/" REL
			       "/kernel/drivers/md/dm-log-writes.ko\tlog-writes\n") != NULL);
	CU_ASSERT(strstr(list, "usr/lib/modules/" REL
			       "/kernel/drivers/md/dm-flakey.ko\tflakey\n") != NULL);
	CU_ASSERT(strstr(list, "dm-log-writes.ko.xz") == NULL);
	CU_ASSERT(strstr(list, "dm-log-writes.ko: kernel/drivers/md/dm-mod.ko") != NULL);
	CU_ASSERT(strstr(list, "unrelated") == NULL);
	CU_ASSERT(strstr(list, "modules.devname\tdm_mod mapper/control c10:236\n") != NULL);
	/* A filesystem's module and its tools that are installed, with their libraries; busybox
	 * applets, the merged-/usr links. */
	CU_ASSERT(strstr(list, "usr/lib/modules/" REL "/kernel/fs/xfs/xfs.ko\txfs\n") != NULL);
	CU_ASSERT(strstr(list, "usr/sbin/mkfs.xfs\n") != NULL);
	CU_ASSERT(strstr(list, "no-such-tool") == NULL);
	CU_ASSERT(strstr(list, "libc.so.6\n") != NULL);
	CU_ASSERT(strstr(list, "usr/bin/sha256sum\t") != NULL);
	CU_ASSERT(strstr(list, "\nlib\tusr/lib\n") != NULL);
	free(list);

	/* The same inputs: the same archive, not rebuilt. */
	CU_ASSERT_FATAL(stat(path, &st1) == 0);
	CU_ASSERT(bo_initramfs_base(&k, m, fstab, again, sizeof(again), &err) == 0);
	CU_ASSERT_STRING_EQUAL(path, again);
	CU_ASSERT_FATAL(stat(again, &st2) == 0);
	/* The same file (a rebuild renames a new one in), marked used. */
	CU_ASSERT(st1.st_ino == st2.st_ino && st2.st_mtim.tv_sec >= st1.st_mtim.tv_sec);
	bo_moddir_free(m);

	/* A module that changed: another archive. */
	put("kernel/drivers/md/dm-snapshot.ko", "snapshot v2");
	CU_ASSERT_FATAL(bo_moddir_open(moddir, &m, &err) == 0);
	CU_ASSERT(bo_initramfs_base(&k, m, fstab, changed, sizeof(changed), &err) == 0);
	CU_ASSERT_STRING_NOT_EQUAL(path, changed);
	list = listing(changed);
	CU_ASSERT(strstr(list, "dm-snapshot.ko\tsnapshot v2\n") != NULL);
	free(list);
	bo_moddir_free(m);
}

/* A filesystem a command tests is refused before a boot when one of its programs is missing,
 * naming it and its package; one it does not test is not asked for. */
static void test_tools(void)
{
	static const struct bo_guest_fs fstab[] = {
		{.name = "sh", .package = "dash", .tools = {"sh"}},
		{.name = "nofs", .package = "nofs-tools", .tools = {"sh", "mkfs.nofs-of-blackout"}},
		{0},
	};
	struct bo_err err = {0};

	CU_ASSERT(bo_initramfs_check_tools(fstab, NULL, &err) == 0);
	CU_ASSERT(bo_initramfs_check_tools(fstab, (const char *[]){"sh", NULL}, &err) == 0);
	CU_ASSERT(bo_initramfs_check_tools(fstab, (const char *[]){"sh", "nofs", NULL}, &err) ==
		  -ENOPKG);
	CU_ASSERT_STRING_EQUAL(bo_err_str(&err),
			       "nofs needs 'mkfs.nofs-of-blackout' (package nofs-tools; "
			       "scripts/setup installs it)");
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"base archive and its cache", test_base},
		{"a filesystem's programs", test_tools},
		{NULL, NULL},
	};

	return bo_test_run("vm_initramfs", tests);
}
