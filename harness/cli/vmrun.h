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
#include "vm/kernel.h"

struct vm_args {
	const char *kernel, *modules, *memory, *timeout; /* the VM options, as given */
	const char *kernel_release; /* --kernel-release, or the scenario's [vm] kernel */
	const char *kernel_tree;    /* --kernel-tree, or the scenario's [vm] kernel_tree */
	/* The "kernel" a reproduced run recorded when it was one of the user's own
	 * (bo_vm_args_kernel_from()): bo_vm_args_judge() refuses one that changed since. */
	struct json_object *recorded_kernel;
	/* The filesystems the command tests, for the kernel config check (NULL-terminated;
	 * bo_guest_vm_for() fills it from the scenario). */
	const char *fs[8 + 1];
	bool in_place; /* --in-place: the guest side runs here, on this kernel, with no VM */
	struct bo_opt_list files; /* --file PATH...: host paths the guest needs too */
	bool quiet, no_progress;  /* --quiet, --no-progress (bo_vm_args_read() applies them) */
	/* What the command ships besides: a scenario's [vm] files and scripts (NULL-terminated,
	 * or NULL). */
	char *const *ship;
	bool host_root;		       /* the host's root, read-only, for workloads and checkers */
	unsigned memory_mb, timeout_s; /* --memory and --timeout (bo_vm_args_read()), or chosen */
	int stderr_fd; /* where the guest's stderr goes; 0: through a progress relay to stderr */
	const char *exchange_dir; /* shared by the VMs of one job (bo_vm_opts), or NULL */
	/* check: the log the host replays into the VM's base image (harness/replay/basesrv.h),
	 * and the image's size; NULL: the guest replays on its own. */
	const struct bo_log *base_log;
	uint64_t base_size;
	/* The serial console log; NULL: DIR/vm/console.log of the directory shared. A command
	 * that shares a directory it did not make (shrink) gives one of its own. */
	const char *console;
};

/* The VM options (--kernel, --modules, --memory, --timeout), over a struct vm_args. */
extern const struct bo_opt bo_vm_opts[];
extern const size_t bo_vm_opts_n;

/* Read --memory and --timeout, which bo_opts_parse() checked, into their numbers; apply
 * --quiet and --no-progress. */
void bo_vm_args_read(struct vm_args *v);

/* Release what bo_opts_parse() allocated in @v (the --file list). */
void bo_vm_args_clear(struct vm_args *v);

/* @src into @dst with a --file list of its own, which bo_vm_args_clear(@dst) releases (and
 * @dst's changes leave @src's alone): 0, or -ENOMEM with nothing to release. */
_must_check_ int bo_vm_args_copy(struct vm_args *dst, const struct vm_args *src);

/* What a run or check ships into its VMs beyond blackout's own programs, for config.json: the
 * --file paths and @v->ship, as a JSON array. */
struct json_object *bo_vm_args_shipped(const struct vm_args *v);

/*
 * The kernel the VMs of @v boot, for config.json's "kernel": its release and Debian package,
 * or for one of the user's own its image and modules. -errno when there is no such kernel.
 */
_must_check_ int bo_vm_args_kernel(const struct vm_args *v, struct json_object **ret,
				   struct bo_err *err);

/* When @v names no kernel, the one config.json @cfg recorded (the strings stay @cfg's): a
 * reproduction boots the kernel of the run it reproduces — for one of the user's own (an
 * image, a tree), the same files, which bo_vm_args_judge() checks by their sha256. */
void bo_vm_args_kernel_from(struct vm_args *v, struct json_object *cfg);

/* The kernel @v names, for bo_kernel_find(). */
struct bo_kernel_spec bo_vm_args_spec(const struct vm_args *v);

/* Whether @v names a kernel on its command line (or in place, none). */
bool bo_vm_args_kernel_named(const struct vm_args *v);

/* Whether --in-place may be used as @v asks: as root, on this machine's own kernel. */
_must_check_ int bo_vm_args_in_place_ok(const struct vm_args *v, struct bo_err *err);

/* The row of every filesystem blackout knows as the guest needs it (harness/dev/fstab.h to
 * vm/guestfs.h), NULL-name-terminated: what bo_vm_opts.fstab gets. */
const struct bo_guest_fs *bo_cli_guest_fstab(void);

/*
 * What a boot as @v asks would refuse, judged before a results directory is made: --in-place
 * where it may not be, a kernel that cannot be found, a --file that is not an absolute path
 * of a regular file or a directory, or a directory holding what its copy would hang on
 * (bo_input_shippable()), a kernel of one's own that is no longer the one a reproduced run
 * booted. 0, or -errno with @err saying which.
 */
_must_check_ int bo_vm_args_judge(const struct vm_args *v, struct bo_err *err);

/* Every host file the command lines @cmds (NULL-terminated; may be NULL) name, which the VM
 * gets at the same path (a checker or workload given as a host path, a file it reads), judged
 * as --file is (bo_input_shippable()): before anything is made. 0, or -errno with @err. */
_must_check_ int bo_vm_cmds_judge(const char *const *cmds, struct bo_err *err);

/* The --file part of bo_vm_args_judge(): each an absolute path that bo_input_shippable()
 * takes (a directory with all beneath it). */
_must_check_ int bo_vm_args_judge_files(const struct vm_args *v, struct bo_err *err);

/*
 * How many VMs to boot at once (check --jobs, run --jobs of a bounded scenario) and how much
 * memory each gets: without --jobs (@jobs_given false) one per online core; without --memory
 * no more than three quarters of the host's available memory shared among them, and never
 * below 1 GiB each: fewer VMs then, not starved ones. An explicit --jobs or --memory is kept.
 */
void bo_vm_plan_jobs(bool jobs_given, struct vm_args *v, unsigned *jobs);

/* Print the VM options for --help. */
void bo_vm_opts_help(void);

/*
 * Boot a VM sharing @dir and run the guest command @gargv; returns the guest's status. The
 * guest gets blackout's workload programs, the host files that the command lines @cmds
 * (NULL-terminated, or NULL) name, --file's and @v->ship's; without --timeout the VM is
 * killed after @timeout_s seconds.
 */
_must_check_ int bo_guest_boot(const struct vm_args *v, const char *dir, char *const gargv[],
			       const char *const *cmds, unsigned timeout_s, struct bo_err *err);

#endif
