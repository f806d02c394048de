/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm.h — run a command as root in a fresh, disposable QEMU VM.
 *
 * The VM boots a Debian kernel (scripts/fetch-kernel caches one) or a kernel of the caller's,
 * from an initramfs blackout writes itself: the kernel's modules for loop, device-mapper
 * (log-writes, flakey, snapshot, thin-pool), 9p and virtio, busybox, the ext4/xfs/btrfs
 * tools, and this very blackout binary, which is the guest's PID 1. The command's stdout
 * and stderr come back live; its exit status is returned; files it writes under /results
 * land in the host's share directory. docs/vm.md describes it all.
 */
#ifndef BO_VM_H
#define BO_VM_H

#include <limits.h>
#include <stdbool.h>

#include "harness/util.h"

#define BO_VM_DEFAULT_MEMORY_MIB 2048
/* Seconds a command may run when the caller sets no timeout (the boot allowance is added). */
#define BO_VM_DEFAULT_COMMAND_S 600

struct bo_vm_opts {
	const char *kernel;  /* kernel image (vmlinux or bzImage); NULL: newest cached */
	const char *modules; /* its module directory (.../lib/modules/<release>), with kernel */
	unsigned memory_mib; /* guest memory; 0: BO_VM_DEFAULT_MEMORY_MIB (tmpfs lives here) */
	unsigned cpus;	     /* vCPUs; 0: 1 (several 1-vCPU VMs beat one 2-vCPU VM) */
	unsigned timeout_s;  /* whole VM, boot included; 0: boot allowance + 600 s;
				     ignored when interactive */
	const char *accel;   /* "kvm", "tcg", or NULL/"auto": KVM if a probe boot works */
	const char *share;   /* host directory mounted read-write at /results; NULL: none */
	const char *const *files; /* NULL-terminated host paths copied into the guest at the same
				     paths (directories recursively, executables with their
				     libraries); NULL: none */
	const char *console;	  /* serial console log, created anew; NULL: console.log in a
				     new temporary directory, kept only when the VM fails */
	bool interactive;	  /* console and command on this terminal (vm shell) */
	int stdout_fd;		  /* where the command's stdout goes; 0: this process's stdout */
	int stderr_fd;		  /* where the command's stderr goes; 0: this process's stderr */
};

struct bo_vm_result {
	int status;		    /* the command's exit status; 128+N when killed by signal N */
	char accel[8];		    /* "kvm" or "tcg" */
	char release[NAME_MAX + 1]; /* the guest kernel's release */
	char package[256];	    /* its Debian package and version, or "" for a user kernel */
	double boot_s;		    /* from starting QEMU to the command starting */
	double total_s;		    /* from starting QEMU to QEMU exiting */
	char console[PATH_MAX];	    /* the console log, or "" when it was removed */
};

/*
 * Boot a VM per @opts, run @argv (argv[0] looked up in the guest's PATH) in it as root with
 * its working directory /results (with a share) or /root, and store the command's exit status
 * in *@ret_status. Returns 0 when the command ran and reported its status, whatever that
 * status; -errno when the VM could not be made, failed to boot, panicked (-EIO) or hit the
 * timeout (-ETIMEDOUT): then @err says so and names the console log with its last lines.
 */
int bo_vm_run(const struct bo_vm_opts *opts, char *const argv[], int *ret_status,
	      struct bo_err *err);

/* bo_vm_run(), filling *@ret with the status and what the launch measured. On failure *@ret
 * still says which kernel, accelerator and console log were used, as far as known. */
int bo_vm_run_result(const struct bo_vm_opts *opts, char *const argv[], struct bo_vm_result *ret,
		     struct bo_err *err);

/* Whether this process runs inside a VM that blackout made (its kernel command line carries
 * blackout.vm=<nonce>). Code that needs device-mapper checks it before touching devices. */
bool bo_vm_inside(void);

#endif
