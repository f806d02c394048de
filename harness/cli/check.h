/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h — the host side of `blackout check`, for the commands that check a saved log the way
 * a user's `blackout check` would (reproduce).
 */
#ifndef BO_CLI_CHECK_H
#define BO_CLI_CHECK_H

#include <stdbool.h>

#include "harness/cli/check_opts.h"
#include "harness/cli/vmrun.h"

/*
 * Check @log as @a says, in VMs booted as @v says: a new results directory under a->parent
 * (default ./results), its class table printed. Returns the exit status (with a->expect:
 * whether the one state checked got that class).
 */
int bo_check(const char *log, const struct bo_check_args *a, const struct vm_args *v);

/*
 * Judge the saved log @log on the host, as every check does before a results directory exists
 * or a VM boots: it must open as a whole dm-log-writes log (a symlink, a FIFO, a device that
 * is no log, a corrupt header are refused), and with @a (may be NULL) the options the host
 * can read as wrong must not be. 0; -errno with @err saying why, and *@ret_usage true when an
 * option is wrong rather than the log. bo_check() (so reproduce) and shrink judge here.
 */
_must_check_ int bo_check_judge(const char *log, const struct bo_check_args *a, bool *ret_usage,
				struct bo_err *err);

/*
 * Check @log once per kernel of a->kernels (check_kernels.c) under one tree, and compare the
 * classes state by state. Exit status 1 when a state differs or a check failed, 3 when a check
 * could not be evaluated.
 */
int bo_check_kernels(const char *log, const struct bo_check_args *a, const struct vm_args *v);

#endif
