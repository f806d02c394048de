/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_kernels.h — run SCENARIO --kernels A,B[,C] (run_kernels.c).
 */
#ifndef BO_RUN_KERNELS_H
#define BO_RUN_KERNELS_H

#include "harness/cli/vmrun.h"

/*
 * Record and check the scenario at @path once per cached kernel of @kernels, each by
 * @run_one (a whole `run` booting kernel @release, its results directory made under
 * @parent), into one tree under @parent_dir; then compare the runs mark by mark
 * (results/markdiff.h), print the marks that differ first and write differential.json,
 * report.html and junit.xml in the tree. @v is the command line's VM options (no kernel of
 * its own). The exit status.
 */
int bo_run_kernels(const char *path, const char *kernels, const char *parent_dir,
		   const struct vm_args *v,
		   int (*run_one)(void *ctx, const char *path, const char *release,
				  const char *parent),
		   void *ctx);

#endif
