/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kerneltree.h — what `check --kernels` and `run --kernels` share: the kernel list resolved
 * before any VM boots, the tree RESULTS/<id>/ that holds one results directory per kernel
 * (<release>/<run-id>/), and the exit status of the whole.
 */
#ifndef BO_KERNELTREE_H
#define BO_KERNELTREE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define BO_KERNELS_MAX 8

/*
 * The releases of the cached kernels the list @list ("A,B" or "A B") names, into @rel, and
 * their number into *@ret_n: at least two, each once. -1 with the error printed for @cmd
 * and the exit status in *@ret_status when it does not resolve.
 */
int bo_kerneltree_resolve(const char *cmd, const char *list, char (*rel)[NAME_MAX + 1],
			  size_t *ret_n, int *ret_status);

/* Create the tree RESULTS/<run id of @seed>/ under @parent into @tree (PATH_MAX); -1 with the
 * error printed for @cmd. */
int bo_kerneltree_create(const char *cmd, const char *parent, uint64_t seed, char *tree);

/* The one results directory a command made under @parent, into @dir (PATH_MAX); -ENOENT when
 * there is not exactly one. */
int bo_kerneltree_only_dir(const char *parent, char *dir);

/* The exit status of the whole from each kernel's @status and whether the kernels @differ:
 * a harness error of any, else 1 when one failed or they differ, else 0. */
int bo_kerneltree_exit(const int *status, size_t n, bool differ);

/* differential.json's "kernels": each kernel's release, results directory (relative to the
 * @tree, which may move as a whole) and exit status; NULL without memory. */
struct json_object *bo_kerneltree_kernels_json(const char *tree, const char (*rel)[NAME_MAX + 1],
					       const char (*dirs)[PATH_MAX], const int *status,
					       size_t n);

#endif
