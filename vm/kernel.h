/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.h — which kernel the VM boots, and whether it can do blackout's work.
 */
#ifndef BO_KERNEL_H
#define BO_KERNEL_H

#include <limits.h>

#include "harness/base/util.h"
#include "vm/guestfs.h"
#include "vm/moddir.h"

struct bo_kernel {
	char image[PATH_MAX];	/* vmlinux (booted via PVH) or a bzImage */
	char modules[PATH_MAX]; /* its module directory, .../lib/modules/<release> */
	char release[NAME_MAX + 1];
	char package[256]; /* "<package> <version>" for a cached Debian kernel, else "" */
	/* Its build config, where one is found: a cached kernel's boot/config-<release>; for
	 * one of the user's own, the .config of the tree the image was built in (beside a
	 * vmlinux, three levels above arch/x86/boot/bzImage) or the module directory's
	 * build/.config; else "". */
	char config[PATH_MAX];
	/* For --kernel-tree: the tree, and its source's `git describe` ("" when not git). */
	char tree[PATH_MAX];
	char describe[256];
};

/* The modules blackout needs, by the name users know them by (dm-mod, dm-log-writes, ...). */
extern const char *const bo_kernel_required[];

/*
 * The cached kernel (kernels/<release>/vmlinux, scripts/fetch-kernel) that @spec names, in
 * @release: the release itself, a version prefix of it ("6.12", "6.1.0-57") or a pattern
 * ("6.12.*"), the newest that matches. Without @spec, the default kernel: the one kernels/default names (what
 * linux-image-amd64 depends on), else the newest cached. -ENOPKG, naming what the cache
 * has and the command that fetches it, when there is none.
 */
_must_check_ int bo_kernel_cached(const char *spec, char *release, size_t len, struct bo_err *err);

/* Where a kernel comes from, as a command's options name it: at most one of a cached
 * release, a build tree (vm/ktree.h), or an image of one's own with its module directory
 * (without one: a kernel with everything built in). All NULL: the default cached kernel. */
struct bo_kernel_spec {
	const char *image, *modules, *release, *tree;
};

/* Pick the kernel @spec names; fills *@ret. */
_must_check_ int bo_kernel_find(const struct bo_kernel_spec *spec, struct bo_kernel *ret,
				struct bo_err *err);

/* The sha256 (hex) of @k's image and of its config ("" when it has none), which say whether
 * a kernel of one's own is still the one a run booted. */
_must_check_ int bo_kernel_hashes(const struct bo_kernel *k, char image[65], char config[65],
				  struct bo_err *err);

/* Check that every module in bo_kernel_required is built into @k or a module in @m; the
 * error names the first one missing. */
_must_check_ int bo_kernel_check(const struct bo_kernel *k, const struct bo_moddir *m,
				 struct bo_err *err);

/*
 * Check @k's config (when it has one) for what a VM testing the filesystems @fs (NULL: none),
 * rows of @fstab, needs, with @base_image a host-written base image too (vm/kconfig.h): -ENOPKG naming every
 * CONFIG option missing. 0 when @k has no config to judge: the module check is then the one.
 */
_must_check_ int bo_kernel_check_config(const struct bo_kernel *k, const char *const *fs,
					const struct bo_guest_fs *fstab, bool base_image,
					struct bo_err *err);

#endif
