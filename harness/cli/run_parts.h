/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_parts.h — run SCENARIO --jobs N of a bounded scenario (run_parts.c).
 */
#ifndef BO_RUN_PARTS_H
#define BO_RUN_PARTS_H

#include "harness/cli/vmrun.h"
#include "harness/scenario/scenario.h"

/* A whole `run` of the scenario at @path, its results directory made under @parent, its VM as
 * @v says; the exit status. */
typedef int bo_run_part_fn(void *ctx, const char *path, const char *parent, struct vm_args *v);

/*
 * Record and check the bounded scenario @sc in parts, each a share of its workloads (every
 * P-th of the ranks its sample keeps, P at least @n and as many as their logs need) run by
 * @run_one in a VM of its own, @n at once, into one tree @parent/<run-id>/part-J/; then print
 * the summary of each part that did not pass, the states of all by class, and the tree. The
 * exit status: the worst of the parts'.
 */
int bo_run_parts(const struct bo_scenario *sc, unsigned n, const char *parent,
		 const struct vm_args *v, bo_run_part_fn *run_one, void *ctx);

#endif
