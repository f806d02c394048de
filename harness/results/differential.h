/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * differential.h — the one reader of differential.json, the comparison a tree of several
 * kernels keeps beside their results directories: `check --kernels` ("kind": "differential",
 * its "states", cli/check_kernels.c) and `run --kernels` ("kind": "marks", its "marks",
 * cli/run_kernels.c). docs/vm.md says what it holds.
 *
 * A tree may come from anyone (a published nightly, a copy attached to a report): the
 * document is checked whole before it is walked, each member of the type the writers give
 * it, and every path in it (a kernel's "results") relative plain names beneath the tree
 * (bo_input_rel_check()), each "release" a plain name (it names a directory of the tree).
 */
#ifndef BO_DIFFERENTIAL_H
#define BO_DIFFERENTIAL_H

#include <json-c/json.h>
#include <stdbool.h>

#include "harness/base/util.h"

/* Tree @tree's differential.json in *@ret (put by the caller), never read through a symlink;
 * -ENOENT when it has none, -EBADMSG with @err naming the file and the member that is not
 * what the writers write, -errno. */
_must_check_ int bo_differential_read(const char *tree, struct json_object **ret,
				      struct bo_err *err);

/* Whether @d compares runs by mark (run --kernels), not states by id (check --kernels). */
bool bo_differential_by_mark(struct json_object *d);

#endif
