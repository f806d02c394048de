/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_parts.h — run SCENARIO --jobs N of a bounded scenario (run_parts.c).
 */
#ifndef BO_RUN_PARTS_H
#define BO_RUN_PARTS_H

#include "harness/cli/vmrun.h"

/* A whole `run` of the scenario at @path, its results directory made under @parent, its VM as
 * @v says; the exit status. */
typedef int bo_run_part_fn(void *ctx, const char *path, const char *parent, struct vm_args *v);

/*
 * Record and check the bounded scenario at @path in @n parts at once, each a share of its
 * workloads (every n-th of the ranks its sample keeps) run by @run_one in a VM of its own, into
 * one tree @parent/<run-id>/part-J/; then print each part's summary and the tree. The exit
 * status: the worst of the parts'.
 */
int bo_run_parts(const char *path, unsigned n, const char *parent, const struct vm_args *v,
		 bo_run_part_fn *run_one, void *ctx);

#endif
