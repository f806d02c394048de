/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * moddir.h — a kernel module directory (/lib/modules/<release>) read from the text files
 * depmod writes: modules.dep, modules.softdep, modules.alias, modules.builtin and
 * modules.builtin.modinfo. No modinfo, no libkmod: the host uses it to pick the module
 * closure for the initramfs, the guest to load modules.
 *
 * Module names are normalised the kernel's way: '-' and '_' are the same character.
 */
#ifndef BO_MODDIR_H
#define BO_MODDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/base/util.h"

struct bo_moddir;

enum bo_mod_state {
	BO_MOD_ABSENT,
	BO_MOD_BUILTIN,
	BO_MOD_MODULE,
};

/* Read the module directory @dir. Fails when modules.dep is missing (run depmod) or
 * malformed; the other files are optional. */
_must_check_ int bo_moddir_open(const char *dir, struct bo_moddir **ret, struct bo_err *err);

/* Free @m; NULL is fine. */
void bo_moddir_free(struct bo_moddir *m);

/* The directory @m was read from. */
const char *bo_moddir_path(const struct bo_moddir *m);

/* The release: the last component of the directory's path. */
const char *bo_moddir_release(const struct bo_moddir *m);

/* Number of modules (not counting built-ins) in @m. */
size_t bo_moddir_count(const struct bo_moddir *m);

/* The normalised name and the path relative to the directory (as modules.dep spells it) of
 * module @i. */
const char *bo_moddir_name(const struct bo_moddir *m, size_t i);
const char *bo_moddir_file(const struct bo_moddir *m, size_t i);

/* Whether module @name is built in, a module (its index in *@ret_index when not NULL), or
 * neither. Aliases are not looked at. */
enum bo_mod_state bo_moddir_find(const struct bo_moddir *m, const char *name, size_t *ret_index);

/*
 * Resolve @name — a module name, or else an alias pattern match as modprobe does — to the
 * modules that provide it, in *@ret (an array of @m's indices the caller frees) and *@ret_n.
 * A name provided by a built-in resolves to zero modules and returns 0; one that nothing
 * provides returns -ENOENT.
 */
_must_check_ int bo_moddir_resolve(const struct bo_moddir *m, const char *name, size_t **ret,
				   size_t *ret_n);

/* The direct and indirect dependencies of module @i from modules.dep, in the order that file
 * lists them (the last one is loaded first). */
size_t bo_moddir_deps(const struct bo_moddir *m, size_t i, const size_t **ret);

/* The soft dependencies ("pre" when @pre, else "post") of module @i, as names or aliases. */
size_t bo_moddir_softdeps(const struct bo_moddir *m, size_t i, bool pre, const char *const **ret);

/*
 * Mark in @in (an array of bo_moddir_count() bools) every module needed to load the modules
 * already marked: their modules.dep dependencies and their resolvable soft dependencies,
 * recursively. Soft dependencies that nothing provides are skipped, as modprobe skips them.
 */
void bo_moddir_closure(const struct bo_moddir *m, bool *in);

/* Whether the alias pattern @pattern (modules.alias glob syntax) matches @name. */
bool bo_moddir_alias_match(const char *pattern, const char *name);

/*
 * The modules.dep, modules.softdep and modules.alias text of the modules marked in @in, in
 * three strings the caller frees, with each module path passed through @rename (NULL: kept).
 */
_must_check_ int bo_moddir_write_subset(const struct bo_moddir *m, const bool *in,
					const char *(*rename)(const char *path, char *buf,
							      size_t len),
					char **ret_dep, char **ret_softdep, char **ret_alias);

#endif
