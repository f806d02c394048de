/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli_vmrun.h — what `blackout run`, `check` and `merge` share: the VM options, run ids,
 * booting the guest side, and the class table printed at the end.
 */
#ifndef BO_CLI_VMRUN_H
#define BO_CLI_VMRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/log/log.h"
#include "harness/base/util.h"

struct vm_args {
	const char *kernel, *modules;
	unsigned memory_mb, timeout_s;
	int stderr_fd; /* where the guest's stderr goes; 0: through a progress relay to stderr */
	const char *exchange_dir; /* shared by the VMs of one job (bo_vm_opts), or NULL */
	/* check: the log the host replays into the VM's base image (harness/basesrv.h), and
	 * the image's size; NULL: the guest replays on its own. */
	const struct bo_log *base_log;
	uint64_t base_size;
};

enum { OPT_KERNEL = 0x100, OPT_MODULES, OPT_MEMORY, OPT_TIMEOUT };

#define VM_OPTIONS                                                 \
	{"kernel", required_argument, NULL, OPT_KERNEL},           \
		{"modules", required_argument, NULL, OPT_MODULES}, \
		{"memory", required_argument, NULL, OPT_MEMORY},   \
	{                                                          \
		"timeout", required_argument, NULL, OPT_TIMEOUT    \
	}

/* Handle one VM option; 1 if @c was one, 0 if not, -1 on a bad value. */
int bo_cli_vm_option(int c, struct vm_args *v);

/* YYYYMMDD-HHMMSS-<seed>-<nonce>: sortable, and never the same twice. */
void bo_runid_make(uint64_t seed, char *buf, size_t len);

/* Print the class table of a results directory and return the exit status it implies. */
int bo_results_report(const char *dir, const char *what);

/*
 * Boot a VM sharing @dir and run the guest command @gargv; returns the guest's status. The
 * command lines @cmds (NULL-terminated, or NULL) name host files the guest needs too.
 */
int bo_guest_boot(const struct vm_args *v, const char *dir, char *const gargv[],
		  const char *const *cmds, unsigned timeout_s, struct bo_err *err);

#endif
