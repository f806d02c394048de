// SPDX-License-Identifier: GPL-2.0-or-later
/* Module directory: dependencies, soft dependencies, aliases, built-ins, the kernel check. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "vm/kernel.h"
#include "vm/moddir.h"
#include "harness/base/file.h"

static void put(const char *dir, const char *name, const char *text, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fwrite(text, 1, len, f);
	fclose(f);
}

#define PUT(dir, name, text) put(dir, name, text, sizeof(text) - 1)

/* A module tree with every module blackout requires, less @without. */
static const char *tree(const char *name, const char *without)
{
	static const char *const mods[][2] = {
		{"kernel/drivers/md/dm-mod.ko", ""},
		{"kernel/drivers/md/dm-log-writes.ko.xz", "kernel/drivers/md/dm-mod.ko"},
		{"kernel/drivers/md/dm-flakey.ko", "kernel/drivers/md/dm-mod.ko"},
		{"kernel/drivers/md/dm-snapshot.ko", "kernel/drivers/md/dm-mod.ko"},
		{"kernel/drivers/md/dm-thin-pool.ko",
		 "kernel/lib/libcrc32c.ko kernel/drivers/md/dm-mod.ko"},
		{"kernel/lib/libcrc32c.ko", ""},
		{"kernel/crypto/crc32c_generic.ko", ""},
		{"kernel/arch/x86/crypto/crc32c-intel.ko", ""},
		{"kernel/drivers/virtio/virtio_pci.ko", ""},
		{"kernel/drivers/char/virtio_console.ko", ""},
		{"kernel/net/9p/9pnet_virtio.ko", "kernel/net/9p/9pnet.ko"},
		{"kernel/net/9p/9pnet.ko", ""},
		{"kernel/fs/9p/9p.ko", "kernel/net/9p/9pnet.ko"},
		{"kernel/fs/ext4/ext4.ko", "kernel/fs/jbd2/jbd2.ko"},
		{"kernel/fs/jbd2/jbd2.ko", ""},
	};
	const char *dir = bo_test_path(name);
	char *dep = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&dep, &len);

	CU_ASSERT_FATAL(bo_mkdir_p(dir) == 0);
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
		if (!without || !strstr(mods[i][0], without))
			fprintf(f, "%s:%s%s\n", mods[i][0], *mods[i][1] ? " " : "", mods[i][1]);
	fclose(f);
	put(dir, "modules.dep", dep, len);
	free(dep);
	PUT(dir, "modules.softdep",
	    "# comment\nsoftdep ext4 pre: crypto-crc32c\n"
	    "softdep libcrc32c pre: crc32c\nsoftdep ext4 post: nothing-has-it\n");
	PUT(dir, "modules.alias",
	    "alias crypto-crc32c crc32c_generic\n"
	    "alias crypto-crc32c crc32c_intel\nalias fs-ext4 ext4\n"
	    "alias char-major-10-236 dm_mod\nalias devname:mapper/control dm_mod\n");
	PUT(dir, "modules.builtin",
	    "kernel/drivers/block/loop.ko\nkernel/crypto/sha256_generic.ko\n");
	PUT(dir, "modules.builtin.modinfo",
	    "sha256_generic.alias=crypto-sha256\0"
	    "sha256_generic.license=GPL\0loop.alias=block-major-7-*\0");
	return dir;
}

static void test_lookup(void)
{
	struct bo_moddir *m;
	struct bo_err err = {0};
	size_t i, *v = NULL, n = 0;

	CU_ASSERT_FATAL(bo_moddir_open(tree("full", NULL), &m, &err) == 0);
	CU_ASSERT_STRING_EQUAL(bo_moddir_release(m), "full");
	CU_ASSERT(bo_moddir_find(m, "dm-log-writes", &i) == BO_MOD_MODULE);
	CU_ASSERT_STRING_EQUAL(bo_moddir_name(m, i), "dm_log_writes");
	CU_ASSERT_STRING_EQUAL(bo_moddir_file(m, i), "kernel/drivers/md/dm-log-writes.ko.xz");
	CU_ASSERT(bo_moddir_find(m, "dm_flakey", NULL) == BO_MOD_MODULE);
	CU_ASSERT(bo_moddir_find(m, "loop", NULL) == BO_MOD_BUILTIN);
	CU_ASSERT(bo_moddir_find(m, "xfs", NULL) == BO_MOD_ABSENT);

	CU_ASSERT(bo_moddir_resolve(m, "crypto-crc32c", &v, &n) == 0);
	CU_ASSERT(n == 2);
	free(v);
	CU_ASSERT(bo_moddir_resolve(m, "char-major-10-236", &v, &n) == 0);
	CU_ASSERT(n == 1 && !strcmp(bo_moddir_name(m, v[0]), "dm_mod"));
	free(v);
	CU_ASSERT(bo_moddir_resolve(m, "block-major-7-0", &v, &n) == 0); /* a built-in's alias */
	CU_ASSERT(n == 0);
	free(v);
	CU_ASSERT(bo_moddir_resolve(m, "crypto-sha256", &v, &n) == 0);
	CU_ASSERT(n == 0);
	free(v);
	CU_ASSERT(bo_moddir_resolve(m, "fs-btrfs", &v, &n) == -ENOENT);
	CU_ASSERT(bo_moddir_alias_match("pci:v00001AF4d*", "pci:v00001AF4d00001005"));
	CU_ASSERT(!bo_moddir_alias_match("pci:v00001AF4d*", "pci:v00008086d00001005"));
	bo_moddir_free(m);
}

static void test_closure(void)
{
	struct bo_moddir *m;
	struct bo_err err = {0};
	char *dep, *soft, *alias;
	size_t i, count = 0;
	bool *in;

	CU_ASSERT_FATAL(bo_moddir_open(tree("closure", NULL), &m, &err) == 0);
	in = calloc(bo_moddir_count(m), sizeof(bool));
	CU_ASSERT_FATAL(in != NULL);
	CU_ASSERT_FATAL(bo_moddir_find(m, "ext4", &i) == BO_MOD_MODULE);
	in[i] = true;
	bo_moddir_closure(m, in);
	/* ext4, jbd2 (dependency), crc32c_generic and crc32c_intel (soft dependency alias) */
	for (size_t k = 0; k < bo_moddir_count(m); k++)
		count += in[k];
	CU_ASSERT(count == 4);
	CU_ASSERT(bo_moddir_find(m, "jbd2", &i) == BO_MOD_MODULE && in[i]);
	CU_ASSERT(bo_moddir_find(m, "crc32c-intel", &i) == BO_MOD_MODULE && in[i]);
	CU_ASSERT(bo_moddir_find(m, "dm-mod", &i) == BO_MOD_MODULE && !in[i]);
	CU_ASSERT_FATAL(bo_moddir_write_subset(m, in, NULL, &dep, &soft, &alias) == 0);
	CU_ASSERT(strstr(dep, "kernel/fs/ext4/ext4.ko: kernel/fs/jbd2/jbd2.ko\n") != NULL);
	CU_ASSERT(strstr(dep, "dm-mod") == NULL);
	CU_ASSERT(strstr(soft, "softdep ext4 pre: crypto-crc32c post: nothing-has-it") != NULL);
	CU_ASSERT(strstr(alias, "alias fs_ext4 ext4") != NULL);
	CU_ASSERT(strstr(alias, "dm_mod") == NULL);
	free(dep);
	free(soft);
	free(alias);
	free(in);
	bo_moddir_free(m);
}

static void test_kernel_check(void)
{
	struct bo_kernel k = {.release = "6.1.0-test"};
	struct bo_moddir *m;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_moddir_open(tree("ok", NULL), &m, &err) == 0);
	CU_ASSERT(bo_kernel_check(&k, m, &err) == 0);
	bo_moddir_free(m);
	CU_ASSERT_FATAL(bo_moddir_open(tree("nolw", "dm-log-writes"), &m, &err) == 0);
	CU_ASSERT(bo_kernel_check(&k, m, &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "kernel 6.1.0-test: dm-log-writes is neither built in nor a "
				  "module in") != NULL);
	bo_moddir_free(m);
}

static void test_bad_dep(void)
{
	const char *dir = bo_test_path("bad");
	struct bo_moddir *m = NULL;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_mkdir_p(dir) == 0);
	CU_ASSERT(bo_moddir_open(dir, &m, &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "run depmod") != NULL);
	PUT(dir, "modules.dep", "kernel/a.ko: kernel/b.ko\n");
	CU_ASSERT(bo_moddir_open(dir, &m, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "'kernel/b.ko', which has no line of its own") != NULL);
	PUT(dir, "modules.dep", "no colon here\n");
	CU_ASSERT(bo_moddir_open(dir, &m, &err) == -EINVAL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"names, built-ins and aliases", test_lookup},
		{"closure and subset", test_closure},
		{"required targets", test_kernel_check},
		{"broken index files", test_bad_dep},
		{NULL, NULL},
	};

	return bo_test_run("vm_moddir", tests);
}
