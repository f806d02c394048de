/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h — the host side of `blackout check`, for the commands that check a saved log the way
 * a user's `blackout check` would (reproduce).
 */
#ifndef BO_CLI_CHECK_H
#define BO_CLI_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/cli/check_opts.h"
#include "harness/cli/vmrun.h"
#include "harness/scenario/scenario.h"

/*
 * Check @log as @a says, in VMs booted as @v says: a new results directory under a->parent
 * (default ./results), its class table printed. Returns the exit status (with a->expect:
 * whether the one state checked got that class).
 */
int bo_check(const char *log, const struct bo_check_args *a, const struct vm_args *v);

/*
 * Judge the saved log @log on the host, as every check does before a results directory exists
 * or a VM boots (check_judge.c): it must open as a whole dm-log-writes log (a symlink, a FIFO,
 * a device that is no log, a corrupt header are refused) with entries to check. With @a (may
 * be NULL) and the scenario @sc (or NULL), what the guest would only fail on later is judged
 * against it: the options on their own, the device its writes need (--size, the scenario's,
 * at most BO_VM_MAX_BASE_SIZE), its first cut (--from, else its 'mkfs' mark), the state of
 * --state (and --recovery-log), the cuts the policy selects, --recovery against the
 * filesystem, the scenario's checker. When @fs is given and nothing names the filesystem
 * (--fs, @sc, the log's layout), the one found in the log's image goes into @fs (@fs_len
 * bytes). 0; -errno with @err saying why, and *@ret_usage true when an option is wrong
 * rather than the log or the scenario. bo_check() (so reproduce) and shrink judge here.
 */
_must_check_ int bo_check_judge(const char *log, const struct bo_check_args *a,
				const struct bo_scenario *sc, char *fs, size_t fs_len,
				bool *ret_usage, struct bo_err *err);

/* One check of @log, its exit status: bo_check(), as the command hands it down. */
typedef int bo_check_fn(const char *log, const struct bo_check_args *a, const struct vm_args *v);

/*
 * Check @log with @check once per kernel of a->kernels (check_kernels.c) under one tree, and
 * compare the classes state by state. Exit status 1 when a state differs or a check failed, 3
 * when a check could not be evaluated.
 */
int bo_check_kernels(const char *log, const struct bo_check_args *a, const struct vm_args *v,
		     bo_check_fn *check);

#endif
