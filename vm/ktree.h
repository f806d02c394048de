/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ktree.h — a kernel build tree booted as it is, without `make modules_install`: its image
 * (vmlinux when built with CONFIG_PVH, else arch/x86/boot/bzImage), its .config, its release
 * (include/config/kernel.release), and its modules staged as an installed module directory
 * in blackout's cache — links to the tree's *.ko files that modules.order lists, the tree's
 * modules.builtin and modules.builtin.modinfo, and the modules.dep that depmod writes over
 * them. A monolithic tree (CONFIG_MODULES off) stages a directory with its built-in list
 * only. The staged directory is named by a hash of what went into it, so a rebuilt module
 * makes a new one and two runs at once share a finished one.
 */
#ifndef BO_KTREE_H
#define BO_KTREE_H

#include <stddef.h>

#include "harness/base/util.h"

/* What a tree gives to boot; paths absolute. */
struct bo_ktree {
	char dir[4096];	    /* the tree (its O= directory when built out of the source) */
	char image[4096];   /* what to boot of it */
	char config[4096];  /* its .config */
	char release[256];  /* include/config/kernel.release */
	char describe[256]; /* `git describe --always --dirty` of its source, or "" */
};

/* Read the tree @dir: -ENOENT naming what a built tree lacks (no .config, no image, no
 * release: run make first). */
_must_check_ int bo_ktree_open(const char *dir, struct bo_ktree *ret, struct bo_err *err);

/*
 * The module directory of @t in @buf: staged in the cache (kernel-trees/) unless one staged
 * from the same files is there. With @t NULL, one for a standalone image of release
 * @release with everything built in: its built-in list names @builtin (NULL-terminated), so
 * that the guest's loader finds them built in.
 */
_must_check_ int bo_ktree_moddir(const struct bo_ktree *t, const char *release,
				 const char *const *builtin, char *buf, size_t len,
				 struct bo_err *err);

#endif
