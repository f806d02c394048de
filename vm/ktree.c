// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ktree.c — a kernel build tree's image, config and release, and its modules staged.
 */
#include "vm/ktree.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/base/proc.h"
#include "harness/base/sha256.h"
#include "vm/kconfig.h"

#define MAX_INDEX (64u << 20)

/* Bump when what a staged directory holds changes. */
#define STAGE_FORMAT "blackout-kernel-tree-1"

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int first_line(const char *path, char *buf, size_t len)
{
	_cleanup_free_ char *text = NULL;
	int r = bo_read_file(path, 4096, &text, NULL);

	if (r < 0)
		return r;
	text[strcspn(text, "\r\n")] = '\0';
	if (!*text || strlen(text) >= len)
		return -EINVAL;
	memcpy(buf, text, strlen(text) + 1);
	return 0;
}

/* `git describe` of the source the tree @dir was built from (the tree itself, or what its
 * `source` link names when built with O=), into @buf; "" when it is not a git tree. */
static void describe(const char *dir, char *buf, size_t len)
{
	char src[PATH_MAX], git[PATH_MAX];
	_cleanup_free_ char *real = NULL, *out = NULL;

	buf[0] = '\0';
	if (bo_pathf(src, sizeof(src), "%s/source", dir) < 0 || !(real = realpath(src, NULL)))
		real = strdup(dir);
	if (!real || bo_pathf(git, sizeof(git), "%s/.git", real) < 0 || access(git, F_OK) < 0)
		return;
	{
		char *argv[] = {(char *) "git",
				(char *) "-C",
				real,
				(char *) "-c",
				(char *) "core.fsmonitor=false",
				(char *) "describe",
				(char *) "--always",
				(char *) "--dirty",
				NULL};

		if (bo_proc_capture(argv, 4096, &out, NULL) != 0)
			return;
	}
	out[strcspn(out, "\n")] = '\0';
	snprintf(buf, len, "%s", out);
}

int bo_ktree_open(const char *dir, struct bo_ktree *ret, struct bo_err *err)
{
	struct bo_ktree t = {0};
	struct bo_kconfig *kc = NULL;
	_cleanup_free_ char *real = realpath(dir, NULL);
	char path[PATH_MAX];
	const char *pvh;
	int r;

	if (!real)
		return bo_err_set(err, errno, "kernel tree '%s': %m", dir);
	if (bo_pathf(t.dir, sizeof(t.dir), "%s", real) < 0 ||
	    bo_pathf(t.config, sizeof(t.config), "%s/.config", real) < 0)
		return bo_err_set(err, ENAMETOOLONG, "kernel tree '%s': path too long", dir);
	if (!is_file(t.config))
		return bo_err_set(
			err, ENOENT,
			"kernel tree '%s' has no .config: configure it first (make "
			"defconfig, blackout kernel config's fragment, make olddefconfig)",
			dir);
	r = bo_kconfig_read(t.config, &kc, err);
	if (r < 0)
		return r;
	pvh = bo_kconfig_get(kc, "CONFIG_PVH");
	/* QEMU boots a vmlinux only through its PVH note; else the compressed image. */
	if (pvh && !strcmp(pvh, "y") && bo_pathf(path, sizeof(path), "%s/vmlinux", real) == 0 &&
	    is_file(path))
		memcpy(t.image, path, strlen(path) + 1);
	else if (bo_pathf(path, sizeof(path), "%s/arch/x86/boot/bzImage", real) == 0 &&
		 is_file(path))
		memcpy(t.image, path, strlen(path) + 1);
	bo_kconfig_free(kc);
	if (!*t.image)
		return bo_err_set(err, ENOENT,
				  "kernel tree '%s' has no image to boot: neither a vmlinux built "
				  "with CONFIG_PVH nor arch/x86/boot/bzImage (run make)",
				  dir);
	if (bo_pathf(path, sizeof(path), "%s/include/config/kernel.release", real) < 0 ||
	    first_line(path, t.release, sizeof(t.release)) < 0 || strchr(t.release, '/') ||
	    t.release[0] == '.')
		return bo_err_set(err, ENOENT,
				  "kernel tree '%s': no release in include/config/kernel.release "
				  "(run make)",
				  dir);
	describe(real, t.describe, sizeof(t.describe));
	*ret = t;
	return 0;
}

/* What modules.order names, a line at a time: "fs/xfs/xfs.ko" (6.1) or "fs/xfs/xfs.o"
 * (since 6.4), as the tree's path of the .ko into @buf. Refuses a path that climbs out. */
static int order_entry(const char *line, char *buf, size_t len)
{
	size_t n = strlen(line);

	if (!n || line[0] == '/' || strstr(line, "..") || n + 2 >= len)
		return -EINVAL;
	memcpy(buf, line, n + 1);
	if (n > 2 && !strcmp(buf + n - 2, ".o"))
		strcpy(buf + n - 2, ".ko");
	else if (n < 3 || strcmp(buf + n - 3, ".ko"))
		return -EINVAL;
	return 0;
}

static void hash_line(struct bo_sha256 *s, const char *what, const char *path)
{
	char line[PATH_MAX + 128];
	struct stat st;
	int n;

	if (stat(path, &st) < 0)
		n = snprintf(line, sizeof(line), "%s %s missing\n", what, path);
	else
		n = snprintf(line, sizeof(line), "%s %s %lld %lld.%09ld %lu\n", what, path,
			     (long long) st.st_size, (long long) st.st_mtim.tv_sec,
			     st.st_mtim.tv_nsec, (unsigned long) st.st_ino);
	bo_sha256_update(s, line, (size_t) n);
}

/* @dir/@name into @buf (PATH_MAX). */
static int join(char *buf, const char *dir, const char *name, struct bo_err *err)
{
	if (bo_pathf(buf, PATH_MAX, "%s/%s", dir, name) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/%s': path too long", dir, name);
	return 0;
}

/* Link @target at @link, making the directories above it. */
static int link_module(const char *target, const char *link, struct bo_err *err)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", link);
	slash = strrchr(dir, '/');
	if (slash) {
		int r;

		*slash = '\0';
		if ((r = bo_mkdir_p(dir)) < 0)
			return bo_err_set(err, -r, "create '%s': %s", dir, strerror(-r));
	}
	if (symlink(target, link) < 0)
		return bo_err_set(err, errno, "link '%s' to '%s': %m", link, target);
	return 0;
}

static int write_text(const char *path, const char *text, struct bo_err *err)
{
	int r = bo_write_file_at(AT_FDCWD, path, text, strlen(text));

	return r < 0 ? bo_err_set(err, -r, "write '%s': %s", path, strerror(-r)) : 0;
}

/* Fill the staging directory @mod (.../lib/modules/RELEASE under @base) from tree @t, whose
 * modules.order text is @order (NULL: no modules), or for a standalone image with @builtin. */
static int stage(const struct bo_ktree *t, char *order, const char *const *builtin,
		 const char *base, const char *mod, const char *release, struct bo_err *err)
{
	static const char *const copied[] = {"modules.builtin", "modules.builtin.modinfo"};
	char src[PATH_MAX], dst[PATH_MAX], rel[PATH_MAX];
	_cleanup_free_ char *norder = NULL;
	size_t olen = 0;
	char *save = NULL;
	int r;

	if ((r = bo_mkdir_p(mod)) < 0)
		return bo_err_set(err, -r, "create '%s': %s", mod, strerror(-r));
	if (!t) {
		size_t cap = 1;
		_cleanup_free_ char *text = NULL;

		for (const char *const *b = builtin; *b; b++)
			cap += strlen(*b) + 12;
		if (!(text = calloc(1, cap)))
			return bo_err_set(err, ENOMEM, "out of memory");
		for (const char *const *b = builtin; *b; b++)
			olen += (size_t) sprintf(text + olen, "kernel/%s.ko\n", *b);
		if ((r = join(dst, mod, "modules.builtin", err)) < 0 ||
		    (r = write_text(dst, text, err)) < 0 ||
		    (r = join(dst, mod, "modules.dep", err)) < 0)
			return r;
		return write_text(dst, "", err);
	}
	for (size_t i = 0; i < BO_ARRAY_SIZE(copied); i++) {
		if ((r = join(src, t->dir, copied[i], err)) < 0 ||
		    (r = join(dst, mod, copied[i], err)) < 0 ||
		    (is_file(src) && (r = bo_copy_file(src, dst, err)) < 0))
			return r;
	}
	if (order) {
		/* Each line grows by "kernel/" and at most ".o" -> ".ko". */
		size_t lines = 1;

		for (const char *c = order; *c; c++)
			lines += *c == '\n';
		if (!(norder = calloc(1, strlen(order) + lines * 9 + 1)))
			return bo_err_set(err, ENOMEM, "out of memory");
	}
	for (char *l = order ? strtok_r(order, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (order_entry(l, rel, sizeof(rel)) < 0)
			return bo_err_set(err, EINVAL, "kernel tree '%s': modules.order line '%s'",
					  t->dir, l);
		if (bo_pathf(src, sizeof(src), "%s/%s", t->dir, rel) < 0 ||
		    bo_pathf(dst, sizeof(dst), "%s/kernel/%s", mod, rel) < 0)
			return bo_err_set(err, ENAMETOOLONG, "module '%s': path too long", rel);
		if (!is_file(src))
			return bo_err_set(
				err, ENOENT,
				"kernel tree '%s': module '%s' (modules.order) is not built: "
				"run make",
				t->dir, rel);
		r = link_module(src, dst, err);
		if (r < 0)
			return r;
		olen += (size_t) sprintf(norder + olen, "kernel/%s\n", rel);
	}
	if ((r = join(dst, mod, "modules.order", err)) < 0 ||
	    (r = write_text(dst, norder ? norder : "", err)) < 0 ||
	    (r = join(dst, mod, "modules.dep", err)) < 0)
		return r;
	if (!order)
		return write_text(dst, "", err);
	{
		/* depmod as `make modules_install` runs it, over the links. */
		char *argv[] = {(char *) "depmod", (char *) "-b", (char *) base, (char *) release,
				NULL};
		_cleanup_free_ char *out = NULL;

		r = bo_proc_capture(argv, 1u << 20, &out, NULL);
		if (r != 0)
			return bo_err_set(err, r < 0 ? -r : EIO,
					  "depmod over kernel tree '%s': %s (package kmod)", t->dir,
					  r < 0 ? strerror(-r) : "failed");
	}
	if (!is_file(dst))
		return bo_err_set(err, EIO, "depmod wrote no '%s'", dst);
	return 0;
}

int bo_ktree_moddir(const struct bo_ktree *t, const char *release, const char *const *builtin,
		    char *buf, size_t len, struct bo_err *err)
{
	char cache[PATH_MAX - 128], path[PATH_MAX], hex[BO_SHA256_HEX], base[PATH_MAX];
	char tmp[PATH_MAX], mod[PATH_MAX];
	_cleanup_free_ char *order = NULL, *copy = NULL;
	struct bo_sha256 s = {0};
	char *save = NULL;
	int r;

	if (t)
		release = t->release;
	if (!*release || strchr(release, '/') || release[0] == '.')
		return bo_err_set(err, EINVAL, "kernel release '%s' cannot name a module directory",
				  release);
	r = bo_cache_dir("kernel-trees", true, cache, sizeof(cache), err);
	if (r < 0)
		return r;
	if (t) {
		if ((r = join(path, t->dir, "modules.order", err)) < 0)
			return r;
		r = bo_read_file(path, MAX_INDEX, &order, NULL);
		if (r < 0 && r != -ENOENT)
			return bo_err_set(err, -r, "read '%s': %s", path, strerror(-r));
		if (order && !*order)
			order = (free(order), NULL);
	}
	/* The name: what went in, each file by its identity and last change. */
	r = bo_sha256_init(&s, err);
	if (r < 0)
		return r;
	bo_sha256_update(&s, STAGE_FORMAT "\n", sizeof(STAGE_FORMAT));
	bo_sha256_update(&s, release, strlen(release) + 1);
	if (t) {
		bo_sha256_update(&s, t->dir, strlen(t->dir) + 1);
		if (bo_pathf(path, sizeof(path), "%s/modules.builtin", t->dir) == 0)
			hash_line(&s, "builtin", path);
		if (bo_pathf(path, sizeof(path), "%s/modules.builtin.modinfo", t->dir) == 0)
			hash_line(&s, "modinfo", path);
		if (order && !(copy = strdup(order))) {
			bo_sha256_done(&s);
			return bo_err_set(err, ENOMEM, "out of memory");
		}
		for (char *l = copy ? strtok_r(copy, "\n", &save) : NULL; l;
		     l = strtok_r(NULL, "\n", &save)) {
			char rel[PATH_MAX];

			if (order_entry(l, rel, sizeof(rel)) == 0 &&
			    bo_pathf(path, sizeof(path), "%s/%s", t->dir, rel) == 0)
				hash_line(&s, "module", path);
			else
				bo_sha256_update(&s, l, strlen(l) + 1);
		}
	} else {
		for (const char *const *b = builtin; *b; b++)
			bo_sha256_update(&s, *b, strlen(*b) + 1);
	}
	r = bo_sha256_final_hex(&s, hex);
	bo_sha256_done(&s);
	if (r < 0)
		return bo_err_set(err, -r, "sha256: %s", strerror(-r));
	hex[16] = '\0';
	if (bo_pathf(base, sizeof(base), "%s/%s", cache, hex) < 0 ||
	    bo_pathf(mod, sizeof(mod), "%s/lib/modules/%s", base, release) < 0 ||
	    bo_pathf(path, sizeof(path), "%s/modules.dep", mod) < 0 || strlen(mod) >= len)
		return bo_err_set(err, ENAMETOOLONG, "kernel cache path '%s' is too long", cache);
	if (!is_file(path)) {
		/* Made aside and renamed into place: a directory there is a finished one. */
		char tmod[PATH_MAX];

		if (bo_pathf(tmp, sizeof(tmp), "%s/.%s.%ld", cache, hex, (long) getpid()) < 0 ||
		    bo_pathf(tmod, sizeof(tmod), "%s/lib/modules/%s", tmp, release) < 0)
			return bo_err_set(err, ENAMETOOLONG, "kernel cache path '%s' is too long",
					  cache);
		int k = bo_remove_tree(tmp);

		if (k < 0)
			return bo_err_set(err, -k, "remove '%s': %s", tmp, strerror(-k));
		r = stage(t, order, builtin, tmp, tmod, release, err);
		if (r >= 0 && rename(tmp, base) < 0 && errno != EEXIST && errno != ENOTEMPTY)
			r = bo_err_set(err, errno, "rename '%s' to '%s': %m", tmp, base);
		if ((k = bo_remove_tree(tmp)) < 0 && r >= 0)
			r = bo_err_set(err, -k, "remove '%s': %s", tmp, strerror(-k));
		if (r < 0)
			return r;
	}
	bo_cache_touch(base);
	memcpy(buf, mod, strlen(mod) + 1);
	return 0;
}
