/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.h — which kernel the VM boots, and whether it can do blackout's work.
 */
#ifndef BO_KERNEL_H
#define BO_KERNEL_H

#include <limits.h>

#include "harness/base/util.h"
#include "vm/moddir.h"

struct bo_kernel {
	char image[PATH_MAX];	/* vmlinux (booted via PVH) or a bzImage */
	char modules[PATH_MAX]; /* its module directory, .../lib/modules/<release> */
	char release[NAME_MAX + 1];
	char package[256]; /* "<package> <version>" for a cached Debian kernel, else "" */
};

/* The modules blackout needs, by the name users know them by (dm-mod, dm-log-writes, ...). */
extern const char *const bo_kernel_required[];

/*
 * Pick the kernel: @image and @modules when given (both or neither), else the newest kernel
 * scripts/fetch-kernel left in the cache (kernels/<release>/vmlinux). Fills *@ret.
 */
_must_check_ int bo_kernel_find(const char *image, const char *modules, struct bo_kernel *ret,
				struct bo_err *err);

/* Check that every module in bo_kernel_required is built into @k or a module in @m; the
 * error names the first one missing. */
_must_check_ int bo_kernel_check(const struct bo_kernel *k, const struct bo_moddir *m,
				 struct bo_err *err);

#endif
