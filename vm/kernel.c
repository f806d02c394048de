// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.c — find the guest kernel (cached Debian kernel or a user's) and check it.
 */
#include "vm/kernel.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/path.h"

const char *const bo_kernel_required[] = {
	/* the storage stack of a run */
	"loop",
	"dm-mod",
	"dm-log-writes",
	"dm-flakey",
	"dm-snapshot",
	"dm-thin-pool",
	/* the way in and out: virtio devices, results over 9p, output over virtio-serial */
	"virtio-pci",
	"virtio-console",
	"9pnet-virtio",
	"9p",
	NULL,
};

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int from_cache(struct bo_kernel *k, struct bo_err *err)
{
	char dir[PATH_MAX - 64], best[NAME_MAX + 1] = "", path[PATH_MAX];
	_cleanup_(bo_closedirp) DIR *d = NULL;
	_cleanup_free_ char *pkg = NULL;
	struct dirent *de;
	int r;

	r = bo_cache_dir("kernels", false, dir, sizeof(dir), err);
	if (r < 0)
		return r;
	d = opendir(dir);
	if (!d && errno != ENOENT)
		return bo_err_set(err, errno, "open kernel cache '%s': %m", dir);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (bo_pathf(path, sizeof(path), "%s/%s/vmlinux", dir, de->d_name) >= 0 &&
		    is_file(path) && (!*best || strverscmp(de->d_name, best) > 0))
			memcpy(best, de->d_name, strlen(de->d_name) + 1);
	}
	if (!*best)
		return bo_err_set(err, ENOPKG,
				  "no kernel in '%s': run scripts/fetch-kernel, or give --kernel "
				  "IMAGE --modules DIR",
				  dir);
	memcpy(k->release, best, sizeof(best));
	/* Debian 12 packages install under /lib/modules, later ones under /usr/lib/modules. */
	if (bo_pathf(k->image, sizeof(k->image), "%s/%s/vmlinux", dir, best) < 0 ||
	    bo_pathf(k->modules, sizeof(k->modules), "%s/%s/lib/modules/%s", dir, best, best) < 0 ||
	    (!is_dir(k->modules) && bo_pathf(k->modules, sizeof(k->modules),
					     "%s/%s/usr/lib/modules/%s", dir, best, best) < 0) ||
	    bo_pathf(path, sizeof(path), "%s/%s/package", dir, best) < 0)
		return bo_err_set(err, ENAMETOOLONG, "kernel cache path '%s' is too long", dir);
	if (!is_dir(k->modules))
		return bo_err_set(err, ENOENT, "cached kernel '%s/%s' has no lib/modules/%s", dir,
				  best, best);
	bo_cache_touch(k->image); /* blackout cache prune goes by last use */
	if (bo_read_file(path, 4096, &pkg, NULL) >= 0) {
		pkg[strcspn(pkg, "\n")] = '\0';
		pkg[strnlen(pkg, sizeof(k->package) - 1)] = '\0';
		memcpy(k->package, pkg, strlen(pkg) + 1);
	}
	return 0;
}

/*
 * The release a kernel image reports in uname: a bzImage names it in its setup header
 * (kernel_version, at offset 0x20e, points at a string 0x200 further on; see the kernel's
 * Documentation/arch/x86/boot.rst); an uncompressed vmlinux holds linux_banner, "Linux
 * version <release> (...)".
 */
static int image_release(const char *image, char *buf, size_t len)
{
	static const char banner[] = "Linux version ";
	_cleanup_close_ int fd = open(image, O_RDONLY | O_CLOEXEC);
	const char *p = NULL, *end;
	struct stat st;
	uint8_t *map;
	size_t n;

	if (fd < 0 || fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size < 0x400)
		return -EINVAL;
	map = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	if (!memcmp(map + 0x202, "HdrS", 4)) {
		size_t off = 0x200 + (size_t) (map[0x20e] | map[0x20f] << 8);

		if (off < (size_t) st.st_size)
			p = (const char *) map + off;
	} else {
		p = memmem(map, (size_t) st.st_size, banner, sizeof(banner) - 1);
		if (p)
			p += sizeof(banner) - 1;
	}
	end = (const char *) map + st.st_size;
	for (n = 0; p && p + n < end && n < len - 1 && p[n] > ' ' && p[n] < 0x7f; n++)
		buf[n] = p[n];
	buf[n] = '\0';
	munmap(map, (size_t) st.st_size);
	return n ? 0 : -EINVAL;
}

int bo_kernel_find(const char *image, const char *modules, struct bo_kernel *ret,
		   struct bo_err *err)
{
	struct bo_kernel k = {0};
	const char *base;
	char *real;
	int r;

	if (!image && !modules) {
		r = from_cache(&k, err);
		if (r < 0)
			return r;
		*ret = k;
		return 0;
	}
	if (!image || !modules)
		return bo_err_set(err, EINVAL,
				  "a user kernel needs both the image (--kernel) and "
				  "its module directory (--modules)");
	if (!is_file(image))
		return bo_err_set(err, ENOENT, "kernel image '%s' is not a file", image);
	if (!is_dir(modules))
		return bo_err_set(err, ENOENT, "module directory '%s' is not a directory", modules);
	if (!(real = realpath(image, NULL)))
		return bo_err_set(err, errno, "kernel image '%s': %m", image);
	if (bo_pathf(k.image, sizeof(k.image), "%s", real) < 0)
		return free(real), bo_err_set(err, ENAMETOOLONG, "'%s': path too long", image);
	free(real);
	if (!(real = realpath(modules, NULL)))
		return bo_err_set(err, errno, "module directory '%s': %m", modules);
	if (bo_pathf(k.modules, sizeof(k.modules), "%s", real) < 0)
		return free(real), bo_err_set(err, ENAMETOOLONG, "'%s': path too long", modules);
	free(real);
	/* The guest looks its modules up by uname's release; a copied module tree may be named
	 * otherwise, so the image is asked first. */
	if (image_release(k.image, k.release, sizeof(k.release)) < 0) {
		base = strrchr(k.modules, '/');
		if (bo_pathf(k.release, sizeof(k.release), "%s", base ? base + 1 : k.modules) < 0)
			return bo_err_set(err, ENAMETOOLONG, "release '%s' is too long", base);
	}
	*ret = k;
	return 0;
}

int bo_kernel_check(const struct bo_kernel *k, const struct bo_moddir *m, struct bo_err *err)
{
	for (const char *const *name = bo_kernel_required; *name; name++)
		if (bo_moddir_find(m, *name, NULL) == BO_MOD_ABSENT)
			return bo_err_set(err, ENOENT,
					  "kernel %s: %s is neither built in nor a module in '%s'",
					  k->release, *name, bo_moddir_path(m));
	return 0;
}
