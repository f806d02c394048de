/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmrun.h — running the guest side of a command in a fresh VM: the VM options every such
 * command takes (run, check, reproduce, shrink), and booting the VM with the results
 * directory shared, the workload programs aboard and the guest's progress relayed.
 */
#ifndef BO_CLI_VMRUN_H
#define BO_CLI_VMRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"
#include "harness/cli/opts.h"
#include "harness/log/log.h"

struct vm_args {
	const char *kernel, *modules, *memory, *timeout; /* the VM options, as given */
	unsigned memory_mb, timeout_s; /* --memory and --timeout (bo_vm_args_read()), or chosen */
	int stderr_fd; /* where the guest's stderr goes; 0: through a progress relay to stderr */
	const char *exchange_dir; /* shared by the VMs of one job (bo_vm_opts), or NULL */
	/* check: the log the host replays into the VM's base image (harness/replay/basesrv.h),
	 * and the image's size; NULL: the guest replays on its own. */
	const struct bo_log *base_log;
	uint64_t base_size;
};

/* The VM options (--kernel, --modules, --memory, --timeout), over a struct vm_args. */
extern const struct bo_opt bo_vm_opts[];
extern const size_t bo_vm_opts_n;

/* Read --memory and --timeout, which bo_opts_parse() checked, into their numbers. */
void bo_vm_args_read(struct vm_args *v);

/* Print the VM options for --help. */
void bo_vm_opts_help(void);

/*
 * Boot a VM sharing @dir and run the guest command @gargv; returns the guest's status. The
 * command lines @cmds (NULL-terminated, or NULL) name host files the guest needs too; without
 * --timeout the VM is killed after @timeout_s seconds.
 */
_must_check_ int bo_guest_boot(const struct vm_args *v, const char *dir, char *const gargv[],
			       const char *const *cmds, unsigned timeout_s, struct bo_err *err);

#endif
