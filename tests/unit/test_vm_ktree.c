// SPDX-License-Identifier: GPL-2.0-or-later
/* A kernel build tree: what it must hold, the module directory staged for it, the kernel
 * options that exclude each other. (A real tree's modules, through depmod, are
 * tests/vm/kernel_tree.sh's.) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/file.h"
#include "vm/kernel.h"
#include "vm/ktree.h"
#include "vm/moddir.h"

/* A fake bzImage: the setup header's "HdrS" and its kernel_version pointer to @release. */
static void bzimage(const char *path, const char *release)
{
	static unsigned char img[0x800];
	FILE *f = fopen(path, "w");

	CU_ASSERT_FATAL(f != NULL);
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = 0x00, img[0x20f] = 0x04; /* the string at 0x200 + 0x400 */
	memcpy(img + 0x600, release, strlen(release) + 1);
	fwrite(img, 1, sizeof(img), f);
	fclose(f);
}

/* A monolithic tree of release 6.1.99-test: .config, kernel.release, bzImage, built-ins. */
static const char *mono_tree(void)
{
	const char *dir = bo_test_path("mono");
	char path[4096];

	snprintf(path, sizeof(path), "%s/arch/x86/boot", dir);
	CU_ASSERT_FATAL(bo_mkdir_p(path) == 0);
	snprintf(path, sizeof(path), "%s/include/config", dir);
	CU_ASSERT_FATAL(bo_mkdir_p(path) == 0);
	bo_test_put(dir, ".config",
		    "CONFIG_64BIT=y\n# CONFIG_MODULES is not set\n# CONFIG_PVH is not set\n");
	bo_test_put(dir, "include/config/kernel.release", "6.1.99-test\n");
	bo_test_put(dir, "modules.builtin",
		    "kernel/drivers/md/dm-mod.ko\nkernel/fs/ext4/ext4.ko\n");
	snprintf(path, sizeof(path), "%s/arch/x86/boot/bzImage", dir);
	bzimage(path, "6.1.99-test");
	return dir;
}

static void test_open(void)
{
	const char *dir = bo_test_path("empty");
	const char *mono = mono_tree();
	struct bo_ktree t;
	struct bo_err err = {0};
	char path[4096];

	CU_ASSERT_FATAL(bo_mkdir_p(dir) == 0);
	CU_ASSERT(bo_ktree_open(dir, &t, &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "has no .config") != NULL);
	CU_ASSERT(bo_ktree_open(bo_test_path("nowhere"), &t, &err) == -ENOENT);
	/* Configured, not built. */
	bo_test_put(dir, ".config", "CONFIG_PVH=y\n");
	CU_ASSERT(bo_ktree_open(dir, &t, &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "has no image to boot") != NULL);
	/* A vmlinux is booted only with CONFIG_PVH; the release must be there too. */
	bo_test_put(dir, "vmlinux", "not really\n");
	CU_ASSERT(bo_ktree_open(dir, &t, &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "include/config/kernel.release") != NULL);

	CU_ASSERT_FATAL(bo_ktree_open(mono, &t, &err) == 0);
	CU_ASSERT(!strcmp(t.release, "6.1.99-test"));
	CU_ASSERT(strstr(t.image, "/arch/x86/boot/bzImage") != NULL);
	CU_ASSERT(strstr(t.config, "/mono/.config") != NULL);
	CU_ASSERT(t.describe[0] == '\0'); /* not a git tree */
	/* A release that would climb out of the staging directory. */
	snprintf(path, sizeof(path), "%s/include/config/kernel.release", mono);
	bo_test_put(mono, "include/config/kernel.release", "../../etc\n");
	CU_ASSERT(bo_ktree_open(mono, &t, &err) == -ENOENT);
	bo_test_put(mono, "include/config/kernel.release", "6.1.99-test\n");
}

static void test_stage(void)
{
	const char *mono = mono_tree();
	struct bo_ktree t;
	struct bo_moddir *m;
	struct bo_err err = {0};
	char a[4096], b[4096], c[4096];
	static const char *const builtin[] = {"dm-mod", "dm-flakey", NULL};

	CU_ASSERT_FATAL(bo_ktree_open(mono, &t, &err) == 0);
	CU_ASSERT_FATAL(bo_ktree_moddir(&t, NULL, NULL, a, sizeof(a), &err) == 0);
	CU_ASSERT(strstr(a, "/kernel-trees/") != NULL);
	CU_ASSERT(!strcmp(strrchr(a, '/'), "/6.1.99-test"));
	CU_ASSERT_FATAL(bo_moddir_open(a, &m, &err) == 0);
	CU_ASSERT(bo_moddir_count(m) == 0);
	CU_ASSERT(bo_moddir_find(m, "dm_mod", NULL) == BO_MOD_BUILTIN);
	CU_ASSERT(bo_moddir_find(m, "dm-flakey", NULL) == BO_MOD_ABSENT);
	bo_moddir_free(m);
	/* The same files: the same directory, found again. */
	CU_ASSERT_FATAL(bo_ktree_moddir(&t, NULL, NULL, b, sizeof(b), &err) == 0);
	CU_ASSERT(!strcmp(a, b));
	/* A rebuilt tree: another one. */
	bo_test_put(mono, "modules.builtin",
		    "kernel/drivers/md/dm-mod.ko\nkernel/drivers/md/dm-flakey.ko\nkernel/fs/ext4/"
		    "ext4.ko\n");
	CU_ASSERT_FATAL(bo_ktree_moddir(&t, NULL, NULL, c, sizeof(c), &err) == 0);
	CU_ASSERT(strcmp(a, c) != 0);
	CU_ASSERT_FATAL(bo_moddir_open(c, &m, &err) == 0);
	CU_ASSERT(bo_moddir_find(m, "dm-flakey", NULL) == BO_MOD_BUILTIN);
	bo_moddir_free(m);
	/* A standalone image: what it is said to have built in. */
	CU_ASSERT_FATAL(bo_ktree_moddir(NULL, "6.1.98-solo", builtin, a, sizeof(a), &err) == 0);
	CU_ASSERT_FATAL(bo_moddir_open(a, &m, &err) == 0);
	CU_ASSERT(bo_moddir_find(m, "dm-flakey", NULL) == BO_MOD_BUILTIN);
	CU_ASSERT(bo_moddir_find(m, "dm-log-writes", NULL) == BO_MOD_ABSENT);
	bo_moddir_free(m);
	/* A modules.order that climbs out of the tree is refused. */
	bo_test_put(mono, "modules.order", "../../../etc/passwd.ko\n");
	CU_ASSERT(bo_ktree_moddir(&t, NULL, NULL, a, sizeof(a), &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "modules.order line") != NULL);
	bo_test_put(mono, "modules.order", "drivers/md/dm-log-writes.ko\n");
	CU_ASSERT(bo_ktree_moddir(&t, NULL, NULL, a, sizeof(a), &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "is not built") != NULL);
	CU_ASSERT(unlink(bo_test_path("mono/modules.order")) == 0);
}

static void test_find(void)
{
	const char *mono = mono_tree();
	char image[4096];
	struct bo_kernel k;
	struct bo_err err = {0};

	CU_ASSERT(bo_kernel_find(&(struct bo_kernel_spec){.release = "6.1", .tree = mono}, &k,
				 &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "one kernel") != NULL);
	CU_ASSERT(bo_kernel_find(&(struct bo_kernel_spec){.modules = mono}, &k, &err) == -EINVAL);
	CU_ASSERT_FATAL(bo_kernel_find(&(struct bo_kernel_spec){.tree = mono}, &k, &err) == 0);
	CU_ASSERT(!strcmp(k.release, "6.1.99-test"));
	CU_ASSERT(strstr(k.tree, "/mono") != NULL);
	CU_ASSERT(*k.config && *k.modules && !*k.package);
	/* The tree's image alone: monolithic, so its tree's built-ins. */
	snprintf(image, sizeof(image), "%s/arch/x86/boot/bzImage", mono);
	CU_ASSERT_FATAL(bo_kernel_find(&(struct bo_kernel_spec){.image = image}, &k, &err) == 0);
	CU_ASSERT(!strcmp(k.release, "6.1.99-test"));
	CU_ASSERT(strstr(k.modules, "/kernel-trees/") != NULL);
	/* ... refused when its config says it has modules. */
	bo_test_put(mono, ".config", "CONFIG_MODULES=y\n");
	CU_ASSERT(bo_kernel_find(&(struct bo_kernel_spec){.image = image}, &k, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "built with CONFIG_MODULES") != NULL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"a tree and what it lacks", test_open},
		{"the module directory staged", test_stage},
		{"which kernel", test_find},
		{NULL, NULL},
	};

	setenv("XDG_CACHE_HOME", bo_test_path("cache"), 1);
	return bo_test_run("vm_ktree", tests);
}
