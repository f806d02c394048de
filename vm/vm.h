/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vm.h — run a command as root in a fresh, disposable QEMU VM.
 *
 * The VM boots a Debian kernel (scripts/fetch-kernel caches one) or a kernel of the caller's,
 * from an initramfs blackout writes itself: the kernel's modules for loop, device-mapper
 * (log-writes, flakey, snapshot, thin-pool), 9p and virtio, busybox, the tools of each
 * filesystem its caller names (guestfs.h), and this very blackout binary, which is the guest's PID 1. The command's stdout
 * and stderr come back live; its exit status is returned; files it writes under /results
 * land in the host's share directory; read them with vm/share.h, which never follows a link
 * the guest left. docs/vm.md describes it all.
 */
#ifndef BO_VM_H
#define BO_VM_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness/base/util.h"
#include "vm/guestfs.h"

/* Where the guest sees the shared directory (struct bo_vm_opts.share_dir). */
#define BO_VM_SHARE_GUEST "/results"
/* Where it sees the directory the VMs of one job share (struct bo_vm_opts.exchange_dir). */
#define BO_VM_EXCHANGE_GUEST "/exchange"

#define BO_VM_DEFAULT_MEMORY_MB 2048
/* The least memory a guest boots in: the kernel and the initramfs unpacked into it. */
#define BO_VM_MIN_MEMORY_MB 256
/* The most vCPUs QEMU's q35 machine takes (QEMU 7 and later). */
#define BO_VM_MAX_CPUS 288
/* The largest base image a VM is given (base_size below), so the largest device a check
 * replays: QEMU maps it into the guest's physical address space beside the guest's memory,
 * which is 40 bits (1 TiB) wide under TCG and 39 bits on many KVM hosts. */
#define BO_VM_MAX_BASE_SIZE (256ull << 30)
/* Seconds a command may run when the caller sets no timeout (the boot allowance is added). */
#define BO_VM_DEFAULT_COMMAND_S 600

struct bo_vm_opts {
	/* Kernel image (vmlinux, booted via PVH, or a bzImage); NULL: a cached one. */
	const char *kernel;
	/* Its module directory (.../lib/modules/<release>, after depmod); with kernel only. */
	const char *modules;
	/* Or a cached kernel by release, or a prefix of one ("6.12"; bo_kernel_cached());
	 * NULL: the default. */
	const char *kernel_release;
	/* Or a kernel build tree, booted as it is (vm/ktree.h). */
	const char *kernel_tree;
	/* The filesystems the command tests ("xfs"; NULL-terminated), for the kernel config
	 * check before the boot (vm/kconfig.h); NULL: none named. */
	const char *const *fs;
	/* The row of every filesystem the guest may make (guestfs.h; NULL-name-terminated): its
	 * programs and modules go into the guest, its options are checked when @fs names it. */
	const struct bo_guest_fs *fstab;
	/* Guest memory in MiB; 0: BO_VM_DEFAULT_MEMORY_MB. tmpfs-backed images live in it. */
	unsigned memory_mb;
	/* vCPUs; 0: 1 (under TCG two 1-vCPU VMs outrun one 2-vCPU VM). */
	unsigned cpus;
	/* Seconds for the whole VM, boot included; 0: a boot allowance plus
	 * BO_VM_DEFAULT_COMMAND_S. Ignored when interactive. */
	unsigned timeout_s;
	/* "kvm", "tcg", or NULL / "auto": KVM if a probe boot works on this host. */
	const char *accel;
	/* Host directory mounted read-write at /results in the guest; NULL: none. */
	const char *share_dir;
	/* Host directory mounted read-write at /exchange, the same for every VM of one job
	 * (check --jobs claims its states there); NULL: none. */
	const char *exchange_dir;
	/* Share the host's root directory read-only, for commands to chroot into
	 * (BO_HOSTROOT_GUEST of vm/guest.h): whatever is installed on the host is there. */
	bool host_root;
	/* NULL-terminated host paths copied into the guest at the same absolute paths
	 * (directories recursively, executables with their libraries); NULL: none. */
	const char *const *extra_files;
	/* Serial console log: a new file blackout creates (a path that exists, of any kind, is
	 * refused: bo_vm_opts_judge()) and QEMU writes through blackout's descriptor; NULL:
	 * console.log in a new temporary directory, kept only when the VM fails (the error
	 * names it). */
	const char *console_path;
	/* Console and command on this process's terminal (vm shell); no timeout. */
	bool interactive;
	/*
	 * A base image the host writes while the guest reads it: @base_fd, a regular file of
	 * @base_size bytes (a multiple of 2 MiB) that QEMU maps shared and the guest sees as
	 * a virtio-pmem device, and @base_port_fd, a connected stream socket that becomes the
	 * guest's port BO_PORT_BASE (vm/guest.h). 0: none. The VM's memory ceiling grows by
	 * @base_size; only the pages written take memory, on the host.
	 */
	int base_fd, base_port_fd;
	uint64_t base_size;
	/* Where the command's stdout and stderr go; 0: this process's stdout / stderr. */
	int stdout_fd;
	int stderr_fd;
};

struct bo_vm_result {
	/* The command's exit status; 128+N when a signal N killed it. */
	int status;
	/* "kvm" or "tcg". */
	char accel[8];
	/* The guest kernel's release, and its Debian package and version ("" if a user's). */
	char release[NAME_MAX + 1];
	char package[256];
	/* Seconds from starting QEMU to the command starting, and to QEMU exiting. */
	double boot_s;
	double total_s;
	/* The console log, or "" when it was a temporary one and was removed. */
	char console_path[PATH_MAX];
};

/* Whether a VM can have @mib MiB of memory: at least BO_VM_MIN_MEMORY_MB, at most this
 * host's memory. -ERANGE with @err saying the bounds. */
_must_check_ int bo_vm_memory_check(uint64_t mib, struct bo_err *err);

/* Whether a VM can have @n vCPUs: 1 to this host's online CPUs, at most BO_VM_MAX_CPUS.
 * -ERANGE with @err saying the bounds. */
_must_check_ int bo_vm_cpus_check(uint64_t n, struct bo_err *err);

/*
 * What the host can judge of @opts before anything boots: the memory and vCPUs
 * (bo_vm_memory_check(), bo_vm_cpus_check(); -ERANGE), the share (an existing directory),
 * the console log (a path where nothing is yet: blackout never removes what it did not
 * make; -EEXIST). 0, or -errno with @err naming the option. bo_vm_run() judges the same.
 */
_must_check_ int bo_vm_opts_judge(const struct bo_vm_opts *opts, struct bo_err *err);

/*
 * Boot a VM per @opts, run @argv (argv[0] looked up in the guest's PATH) in it as root with
 * its working directory /results (with a share) or /root, and store the command's exit status
 * in *@ret_status. Returns 0 when the command ran and reported its status, whatever that
 * status; -errno when the VM could not be made (-ENOPKG: QEMU, a cached kernel or a guest
 * tool is not installed), failed to boot or panicked (-EIO) or hit the timeout (-ETIMEDOUT):
 * then @err says so, and for the last two names the console log and quotes its last lines.
 */
_must_check_ int bo_vm_run(const struct bo_vm_opts *opts, char *const argv[], int *ret_status,
			   struct bo_err *err);

/* bo_vm_run(), filling *@ret with the status and what the launch measured. On failure *@ret
 * still says which kernel, accelerator and console log were used, as far as known. */
_must_check_ int bo_vm_run_result(const struct bo_vm_opts *opts, char *const argv[],
				  struct bo_vm_result *ret, struct bo_err *err);

/* Whether this process runs inside a VM that blackout made (its kernel command line carries
 * blackout.vm=<nonce>). Code that needs device-mapper checks it before touching devices. */
bool bo_vm_inside(void);

#endif
