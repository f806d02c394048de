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
#include <fnmatch.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/path.h"
#include "harness/base/sha256.h"
#include "vm/kconfig.h"
#include "vm/ktree.h"

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

/* The image to boot of cached kernel @name in @dir: its vmlinux (PVH), else its bzImage. */
static int image_of(const char *dir, const char *name, char *buf, size_t len)
{
	if (bo_pathf(buf, len, "%s/%s/vmlinux", dir, name) == 0 && is_file(buf))
		return 0;
	if (bo_pathf(buf, len, "%s/%s/boot/vmlinuz-%s", dir, name, name) == 0 && is_file(buf))
		return 0;
	return -ENOENT;
}

/* Whether cached release @name is what @spec asks for: the release itself, or a version
 * prefix of it ("6.12" matches 6.12.117+deb12-amd64, "6.1" 6.1.0-57-amd64 but not 6.12...). */
static bool release_matches(const char *name, const char *spec)
{
	size_t n = strlen(spec);

	/* A pattern: 6.12.*, 6.1.0-*-amd64. */
	if (strpbrk(spec, "*?["))
		return fnmatch(spec, name, 0) == 0;
	return !strcmp(name, spec) ||
	       (!strncmp(name, spec, n) && (name[n] == '.' || name[n] == '-' || name[n] == '+'));
}

/* The release named in kernels/default (what linux-image-amd64 depends on, as
 * scripts/fetch-kernel last saw it), into @buf; "" when there is none. */
static void default_release(const char *dir, char *buf, size_t len)
{
	char path[PATH_MAX];
	_cleanup_free_ char *text = NULL;

	buf[0] = '\0';
	if (bo_pathf(path, sizeof(path), "%s/default", dir) < 0 ||
	    bo_read_file(path, 4096, &text, NULL) < 0)
		return;
	text[strcspn(text, "\n")] = '\0';
	if (*text && !strchr(text, '/') && text[0] != '.')
		snprintf(buf, len, "%s", text);
}

/* The newest of the @n releases @v that @spec asks for (every one when NULL), or NULL. */
static const char *newest_of(char **v, size_t n, const char *spec)
{
	const char *best = NULL;

	for (size_t i = 0; i < n; i++)
		if ((!spec || release_matches(v[i], spec)) && (!best || strverscmp(v[i], best) > 0))
			best = v[i];
	return best;
}

int bo_kernel_cached(const char *spec, char *release, size_t len, struct bo_err *err)
{
	char dir[PATH_MAX - 64], def[NAME_MAX + 1], path[PATH_MAX];
	_cleanup_(bo_closedirp) DIR *d = NULL;
	_cleanup_free_ char *have = NULL;
	char **v = NULL;
	size_t n = 0, have_len = 0;
	const char *best;
	struct dirent *de;
	int r;

	/* A package names its release: linux-image-<release>. */
	if (spec && !strncmp(spec, "linux-image-", 12))
		spec += 12;
	r = bo_cache_dir("kernels", false, dir, sizeof(dir), err);
	if (r < 0)
		return r;
	default_release(dir, def, sizeof(def));
	d = opendir(dir);
	if (!d && errno != ENOENT)
		return bo_err_set(err, errno, "open kernel cache '%s': %m", dir);
	while (d && (de = readdir(d))) {
		char **nv;

		if (de->d_name[0] == '.' || image_of(dir, de->d_name, path, sizeof(path)) < 0)
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv || !(nv[n] = strdup(de->d_name))) {
			v = nv ? nv : v;
			r = bo_err_set(err, ENOMEM, "out of memory");
			goto out;
		}
		v = nv;
		n++;
	}
	/* A release asked for; else the default, when it is still there; else the newest. */
	if (spec)
		best = newest_of(v, n, spec);
	else if (!(*def && (best = newest_of(v, n, def)) && !strcmp(best, def)))
		best = newest_of(v, n, NULL);
	if (!best) {
		for (size_t i = 0; i < n; i++) {
			char *nh = realloc(have, have_len + strlen(v[i]) + 3);

			if (!nh)
				break;
			have = nh;
			have_len += (size_t) sprintf(have + have_len, "%s%s", i ? ", " : "", v[i]);
		}
		r = spec ? bo_err_set(err, ENOPKG,
				      "no kernel %s in '%s' (it has: %s): blackout kernel fetch %s",
				      spec, dir, have ? have : "none", spec)
			 : bo_err_set(err, ENOPKG,
				      "no kernel in '%s': run scripts/fetch-kernel (or blackout "
				      "kernel fetch), or give --kernel IMAGE --modules DIR",
				      dir);
	} else if (strlen(best) >= len) {
		r = bo_err_set(err, ENAMETOOLONG, "kernel release '%s' is too long", best);
	} else {
		memcpy(release, best, strlen(best) + 1);
		r = 0;
	}
out:
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return r;
}

/* The config @k was built with, into k->config, or "" (struct bo_kernel). */
static void find_config(struct bo_kernel *k, const char *cache)
{
	char dir[PATH_MAX], path[PATH_MAX];
	const char *slash = strrchr(k->image, '/');
	size_t n = slash ? (size_t) (slash - k->image) : 0;
	static const char bz[] = "/arch/x86/boot";

	k->config[0] = '\0';
	if (cache) {
		if (bo_pathf(path, sizeof(path), "%s/%s/boot/config-%s", cache, k->release,
			     k->release) == 0 &&
		    is_file(path))
			memcpy(k->config, path, strlen(path) + 1);
		return;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int) n, k->image);
	/* A vmlinux at the top of its tree; a bzImage three levels down. */
	if (bo_pathf(path, sizeof(path), "%s/.config", dir) == 0 && is_file(path))
		goto found;
	n = strlen(dir);
	if (n > sizeof(bz) - 1 && !strcmp(dir + n - (sizeof(bz) - 1), bz) &&
	    bo_pathf(path, sizeof(path), "%.*s/.config", (int) (n - (sizeof(bz) - 1)), dir) == 0 &&
	    is_file(path))
		goto found;
	if (*k->modules && bo_pathf(path, sizeof(path), "%s/build/.config", k->modules) == 0 &&
	    is_file(path))
		goto found;
	return;
found:
	memcpy(k->config, path, strlen(path) + 1);
}

static int from_cache(struct bo_kernel *k, const char *spec, struct bo_err *err)
{
	char dir[PATH_MAX - 64], best[NAME_MAX + 1], path[PATH_MAX];
	_cleanup_free_ char *pkg = NULL;
	int r;

	r = bo_kernel_cached(spec, best, sizeof(best), err);
	if (r < 0)
		return r;
	r = bo_cache_dir("kernels", false, dir, sizeof(dir), err);
	if (r < 0)
		return r;
	memcpy(k->release, best, sizeof(best));
	/* Debian 12 packages install under /lib/modules, later ones under /usr/lib/modules. */
	if (image_of(dir, best, k->image, sizeof(k->image)) < 0 ||
	    bo_pathf(k->modules, sizeof(k->modules), "%s/%s/lib/modules/%s", dir, best, best) < 0 ||
	    (!is_dir(k->modules) && bo_pathf(k->modules, sizeof(k->modules),
					     "%s/%s/usr/lib/modules/%s", dir, best, best) < 0) ||
	    bo_pathf(path, sizeof(path), "%s/%s/package", dir, best) < 0)
		return bo_err_set(err, ENAMETOOLONG, "kernel cache path '%s' is too long", dir);
	if (!is_dir(k->modules))
		return bo_err_set(err, ENOENT, "cached kernel '%s/%s' has no lib/modules/%s", dir,
				  best, best);
	find_config(k, dir);
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

int bo_kernel_check_config(const struct bo_kernel *k, const char *const *fs,
			   const struct bo_guest_fs *fstab, bool base_image, struct bo_err *err)
{
	struct bo_kconfig *kc = NULL;
	int r;

	if (!*k->config)
		return 0;
	r = bo_kconfig_read(k->config, &kc, err);
	if (r >= 0)
		r = bo_kconfig_check(kc, k->config, fs, fstab, base_image, NULL, err);
	bo_kconfig_free(kc);
	if (r < 0)
		bo_err_prefix(err, "kernel %s", k->release);
	return r;
}

/* @path made absolute into @buf, with @what naming it in @err. */
static int absolute(const char *path, const char *what, char *buf, size_t len, struct bo_err *err)
{
	_cleanup_free_ char *real = realpath(path, NULL);

	if (!real)
		return bo_err_set(err, errno, "%s '%s': %m", what, path);
	if (bo_pathf(buf, len, "%s", real) < 0)
		return bo_err_set(err, ENAMETOOLONG, "%s '%s': path too long", what, path);
	return 0;
}

static int from_tree(struct bo_kernel *k, const char *dir, struct bo_err *err)
{
	struct bo_ktree t;
	int r = bo_ktree_open(dir, &t, err);

	if (r < 0)
		return r;
	memcpy(k->image, t.image, sizeof(t.image));
	memcpy(k->config, t.config, sizeof(t.config));
	memcpy(k->release, t.release, sizeof(t.release));
	memcpy(k->tree, t.dir, sizeof(t.dir));
	memcpy(k->describe, t.describe, sizeof(t.describe));
	return bo_ktree_moddir(&t, NULL, NULL, k->modules, sizeof(k->modules), err);
}

/* An image given alone must be a kernel with everything built in: its config, when one is
 * found beside it (into k->config), must say so. */
static int refuse_modular(struct bo_kernel *k, const char *image, struct bo_err *err)
{
	struct bo_kconfig *kc = NULL;
	bool modular;
	int r;

	find_config(k, NULL);
	if (!*k->config)
		return 0;
	r = bo_kconfig_read(k->config, &kc, err);
	if (r < 0)
		return r;
	modular = bo_kconfig_get(kc, "CONFIG_MODULES") != NULL;
	bo_kconfig_free(kc);
	if (modular)
		return bo_err_set(err, EINVAL,
				  "kernel image '%s' was built with CONFIG_MODULES (%s): give its "
				  "module directory (--modules), or boot its tree (--kernel-tree)",
				  image, k->config);
	return 0;
}

/* The module directory of a monolithic image: the built-ins of the tree it lies in, else the
 * required modules, which the guest's loader then takes as built in. */
static int monolithic(struct bo_kernel *k, struct bo_err *err)
{
	if (*k->config) {
		char dir[PATH_MAX];
		struct bo_ktree t;
		struct bo_err e = {0};

		snprintf(dir, sizeof(dir), "%.*s", (int) (strrchr(k->config, '/') - k->config),
			 k->config);
		if (bo_ktree_open(dir, &t, &e) == 0 && !strcmp(t.release, k->release))
			return bo_ktree_moddir(&t, NULL, NULL, k->modules, sizeof(k->modules), err);
	}
	return bo_ktree_moddir(NULL, k->release, bo_kernel_required, k->modules, sizeof(k->modules),
			       err);
}

int bo_kernel_find(const struct bo_kernel_spec *spec, struct bo_kernel *ret, struct bo_err *err)
{
	struct bo_kernel k = {0};
	const char *base;
	int r;

	if (!!spec->release + !!spec->tree + !!(spec->image || spec->modules) > 1)
		return bo_err_set(err, EINVAL,
				  "one kernel: --kernel-release (a cached one), --kernel-tree (a "
				  "build tree) or --kernel with --modules (one of your own)");
	if (spec->tree)
		r = from_tree(&k, spec->tree, err);
	else if (!spec->image && !spec->modules)
		r = from_cache(&k, spec->release, err);
	else if (!spec->image)
		r = bo_err_set(err, EINVAL,
			       "--modules goes with the kernel image it is of (--kernel)");
	else if (!is_file(spec->image))
		r = bo_err_set(err, ENOENT, "kernel image '%s' is not a file", spec->image);
	else if (spec->modules && !is_dir(spec->modules))
		r = bo_err_set(err, ENOENT, "module directory '%s' is not a directory",
			       spec->modules);
	else
		r = absolute(spec->image, "kernel image", k.image, sizeof(k.image), err);
	if (r < 0 || spec->tree || !spec->image) {
		if (r >= 0)
			*ret = k;
		return r;
	}
	if (spec->modules && (r = absolute(spec->modules, "module directory", k.modules,
					   sizeof(k.modules), err)) < 0)
		return r;
	if (!spec->modules && (r = refuse_modular(&k, spec->image, err)) < 0)
		return r;
	/* The guest looks its modules up by uname's release; a copied module tree may be named
	 * otherwise, so the image is asked first. */
	if (image_release(k.image, k.release, sizeof(k.release)) < 0) {
		if (!spec->modules)
			return bo_err_set(err, EINVAL,
					  "kernel image '%s': no release in it (not a bzImage or a "
					  "vmlinux?)",
					  spec->image);
		base = strrchr(k.modules, '/');
		if (bo_pathf(k.release, sizeof(k.release), "%s", base ? base + 1 : k.modules) < 0)
			return bo_err_set(err, ENAMETOOLONG, "release '%s' is too long", base);
	}
	if (!spec->modules) {
		r = monolithic(&k, err);
		if (r < 0)
			return r;
	} else {
		find_config(&k, NULL);
	}
	*ret = k;
	return 0;
}

int bo_kernel_hashes(const struct bo_kernel *k, char image[65], char config[65], struct bo_err *err)
{
	int r = bo_sha256_file(k->image, image, err);

	config[0] = '\0';
	if (r >= 0 && *k->config)
		r = bo_sha256_file(k->config, config, err);
	return r < 0 ? r : 0;
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
