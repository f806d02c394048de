// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm.c — one launch, from kernel to exit status.
 */
#include "vm/vm.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/safety.h"
#include "vm/accel.h"
#include "vm/guest.h"
#include "vm/initramfs.h"
#include "vm/kernel.h"
#include "vm/moddir.h"
#include "vm/qemu.h"
#include "harness/base/file.h"

/* A KVM guest that works prints its start line within a second or two; one that does not
 * hangs or dies with "emulation failure" (seen on nested hosts). */
#define KVM_PROBE_S 10

/*
 * Kernel parameters, each for a reason measured under TCG. norandmaps: under ASLR every exec
 * retranslates its code (measured: 36 -> 10 ms per exec). cryptomgr.notests and rodata=off
 * skip the crypto self-tests and the read-only/W+X pass. The initcall blacklist skips kprobe
 * tracing, the module signing keys (modules then load unverified, tainting the kernel), the
 * KDF self-test and the encrypted-keys type; ipv6.disable=1 the IPv6 stack: together over a
 * second of boot that no throwaway VM needs. mitigations=off spares entry/exit overhead,
 * init_on_alloc=0 the zeroing of every allocated page (Debian turns it on), which TCG pays
 * for in every tmpfs-backed image. panic=-1 with -no-reboot ends QEMU at a panic instead of
 * hanging to the timeout. no_timer_check: on a loaded host a TCG vCPU can miss the few timer
 * ticks the kernel's early IO-APIC check counts during a short delay (timer_irq_works() in
 * arch/x86/kernel/apic/io_apic.c), and the boot panics with "IO-APIC + timer doesn't work!"
 * (seen beside two CPU-bound loops on 2 cores); QEMU's timer does work.
 */
#define CMDLINE                                                                                \
	"console=ttyS0 quiet panic=-1 norandmaps no_timer_check cryptomgr.notests rodata=off " \
	"mitigations=off "                                                                     \
	"init_on_alloc=0 ipv6.disable=1 initcall_blacklist=init_kprobe_trace,"                 \
	"load_system_certificate_list,crypto_kdf108_init,init_encrypted"

#define CONSOLE_TAIL_LINES 6

struct launch {
	const struct bo_vm_opts *opts;
	const struct bo_kernel *k;
	const char *base;
	char dir[PATH_MAX - 64]; /* the launch's temporary directory */
};

static int append_record(char **buf, size_t *len, const char *key, const char *value)
{
	size_t n = strlen(key) + strlen(value) + 1; /* with the NUL that ends the record */
	char *nb = realloc(*buf, *len + n);

	if (!nb)
		return -ENOMEM;
	memcpy(nb + *len, key, strlen(key));
	memcpy(nb + *len + strlen(key), value, strlen(value) + 1);
	*buf = nb;
	*len += n;
	return 0;
}

static int launch_record(const struct bo_vm_opts *o, char *const argv[], char **ret,
			 size_t *ret_len)
{
	const char *term = getenv("TERM");
	char *buf = NULL;
	size_t len = 0;
	int r;

	r = append_record(&buf, &len, "mode=", o->interactive ? "shell" : "run");
	if (r >= 0 && o->share_dir)
		r = append_record(&buf, &len, "share=", "1");
	if (r >= 0 && o->exchange_dir)
		r = append_record(&buf, &len, "exchange=", "1");
	if (r >= 0 && o->host_root)
		r = append_record(&buf, &len, "hostroot=", "1");
	if (r >= 0 && o->base_fd > 0)
		r = append_record(&buf, &len, "base=", "1");
	if (r >= 0)
		r = append_record(
			&buf, &len, "env=",
			"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
	if (r >= 0)
		r = append_record(&buf, &len, "env=", "HOME=/root");
	if (r >= 0 && o->interactive)
		r = append_record(&buf, &len, "env=", "PS1=blackout-vm:\\w# ");
	if (r >= 0 && o->interactive && term) {
		char t[256];

		snprintf(t, sizeof(t), "TERM=%s", term);
		r = append_record(&buf, &len, "env=", t);
	}
	for (size_t i = 0; r >= 0 && argv[i]; i++)
		r = append_record(&buf, &len, "arg=", argv[i]);
	if (r < 0) {
		free(buf);
		return r;
	}
	*ret = buf;
	*ret_len = len;
	return 0;
}

/* Append the whole file @path to @out. */
static int append_file(int out, const char *path, struct bo_err *err)
{
	_cleanup_close_ int in = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	off_t left;

	if (in < 0 || fstat(in, &st) < 0)
		return bo_err_set(err, errno, "open '%s': %m", path);
	for (left = st.st_size; left > 0;) {
		ssize_t n = sendfile(out, in, NULL, (size_t) left);

		if (n <= 0)
			return bo_err_set(err, n < 0 ? errno : EIO, "copy '%s': %s", path,
					  n < 0 ? strerror(errno) : "it shrank");
		left -= n;
	}
	return 0;
}

/*
 * The launch's initrd, in memory: a copy of the cached base, of the cached archive of the extra
 * files, and the launch archive.
 * A memfd leaves nothing on disk, and nothing behind when blackout is killed; QEMU reads it
 * through /proc/self/fd.
 */
static int make_initrd(const struct launch *L, char *const argv[], off_t *ret_size,
		       struct bo_err *err)
{
	_cleanup_close_ int out = memfd_create("blackout-initrd", MFD_CLOEXEC);
	_cleanup_free_ char *rec = NULL;
	char files[PATH_MAX];
	size_t reclen;
	int r;

	if (out < 0)
		return bo_err_set(err, errno, "memfd_create: %m");
	r = append_file(out, L->base, err);
	/* The extra files: an archive of their own, cached, after the base. */
	if (r >= 0 && L->opts->extra_files && L->opts->extra_files[0]) {
		r = bo_initramfs_files(L->base, L->opts->extra_files, files, sizeof(files), err);
		if (r >= 0)
			r = append_file(out, files, err);
	}
	if (r < 0)
		return r;
	if (launch_record(L->opts, argv, &rec, &reclen) < 0)
		return bo_err_set(err, ENOMEM, "out of memory");
	r = bo_initramfs_launch(out, L->base, rec, reclen, err);
	if (r < 0)
		return r;
	*ret_size = lseek(out, 0, SEEK_CUR);
	return BO_TAKE_FD(out);
}

/* The last lines of the console log open at @fd, indented, for an error message, and the
 * kernel's panic line if it has one (it scrolls away under the backtrace that follows it). */
static void console_tail(int fd, char *buf, size_t len, char *panic, size_t plen)
{
	_cleanup_free_ char *text = NULL;
	size_t n = 0, lines = 0, o = 0;
	struct stat st;
	ssize_t got;
	const char *pl;
	char *p;

	buf[0] = panic[0] = '\0';
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		n = (uint64_t) st.st_size < (64u << 20) ? (size_t) st.st_size : 64u << 20;
		text = malloc(n + 1);
	}
	/* Its end: the last lines and, most likely, the panic. */
	got = text ? bo_pread_full(fd, text, n, (uint64_t) st.st_size - n) : -1;
	if (got <= 0) {
		snprintf(buf, len, " (none: the console is empty)");
		return;
	}
	n = (size_t) got;
	text[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (text[i] == '\r' || text[i] == '\0')
			text[i] = ' ';
	pl = strstr(text, "Kernel panic - not syncing");
	if (pl)
		snprintf(panic, plen, "%.*s", (int) strcspn(pl, "\n"), pl);
	while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
		text[--n] = '\0';
	for (p = text + n; p > text; p--)
		if (p[-1] == '\n' && ++lines == CONSOLE_TAIL_LINES)
			break;
	for (; *p && o + 4 < len; p++) {
		if (p == text || p[-1] == '\n')
			buf[o++] = '\n', buf[o++] = ' ', buf[o++] = ' ';
		if (*p != '\n')
			buf[o++] = *p;
	}
	buf[o] = '\0';
}

static int boot(const struct launch *L, char *const argv[], const char *accel, double timeout,
		int console, struct bo_qemu_outcome *ret, struct bo_err *err)
{
	const struct bo_vm_opts *o = L->opts;
	_cleanup_close_ int initrd = -1;
	char cmdline[512], nonce[17];
	uint8_t rnd[8];
	off_t size = 0;
	int r;

	if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
		return bo_err_set(err, errno, "getrandom: %m");
	for (int i = 0; i < 8; i++)
		snprintf(nonce + 2 * i, 3, "%02x", rnd[i]);
	r = initrd = make_initrd(L, argv, &size, err);
	bo_debug(BO_DBG_VM, "initrd: %lld bytes", (long long) size);
	if (r >= 0) {
		/* The boot allowance grows with what the guest has to unpack and load. */
		double allow = (!strcmp(accel, "kvm") ? 20.0 : 60.0) + (double) size / (16 << 20);
		struct bo_qemu_launch q = {
			.image = L->k->image,
			.initrd_fd = initrd,
			.cmdline = cmdline,
			.accel = accel,
			.memory_mib = o->memory_mb ? o->memory_mb : BO_VM_DEFAULT_MEMORY_MB,
			.cpus = o->cpus ? o->cpus : 1,
			.share = o->share_dir,
			.exchange = o->exchange_dir,
			.host_root = o->host_root,
			.base_fd = o->base_fd,
			.base_port_fd = o->base_port_fd,
			.base_size = o->base_size,
			.console_fd = console,
			.interactive = o->interactive,
			.out_fd = o->stdout_fd > 0 ? o->stdout_fd : 1,
			.err_fd = o->stderr_fd > 0 ? o->stderr_fd : 2,
			.nonce = nonce,
		};

		if (!o->interactive) {
			q.timeout_s = timeout ? timeout : allow + BO_VM_DEFAULT_COMMAND_S;
			q.boot_s = allow < q.timeout_s ? allow : q.timeout_s;
		}
		/* The kernel hands parameters without a dot to init as its environment. */
		snprintf(cmdline, sizeof(cmdline), "%s %s%s%s", CMDLINE, BO_VM_PARAM, nonce,
			 bo_debug_on(BO_DBG_VM) ? " BLACKOUT_DEBUG=vm" : "");
		r = bo_qemu_run(&q, ret, err);
	}
	return r;
}

/*
 * The console log @path, a new file in a directory made if need be: never an old console log
 * appended to or removed, never a path blackout did not make (O_EXCL: a symlink or anything
 * else there is refused, not followed). QEMU writes it through the descriptor returned.
 */
static int console_create(const char *path, struct bo_err *err)
{
	const char *slash = strrchr(path, '/');
	int fd, r;

	if (slash && slash != path) {
		char parent[PATH_MAX];

		snprintf(parent, sizeof(parent), "%.*s", (int) (slash - path), path);
		r = bo_mkdir_p(parent);
		if (r < 0)
			return bo_err_set(err, -r, "create '%s' for the console log: %s", parent,
					  strerror(-r));
	}
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0644);
	if (fd < 0)
		return bo_err_set(err, errno, "creating the console log '%s': %s", path,
				  strerror(errno));
	return fd;
}

static int probe_kvm(void *ctx)
{
	const struct launch *L = ctx;
	char console[PATH_MAX];
	char *const argv[] = {(char *) "true", NULL};
	struct bo_vm_opts o = {.memory_mb = 512};
	struct launch P = *L;
	struct bo_qemu_outcome out;
	struct bo_err err = {0};
	int fd, r;

	P.opts = &o;
	snprintf(console, sizeof(console), "%s/kvm-probe.log", L->dir);
	fd = console_create(console, &err);
	if (fd < 0)
		return fd;
	r = boot(&P, argv, "kvm", KVM_PROBE_S, fd, &out, &err);
	close(fd);
	(void) unlink(console); /* made above, in the launch's own directory */
	if (r < 0)
		return r;
	bo_debug(BO_DBG_VM, "KVM probe: %s (%s)",
		 out.reported && out.status == 0 ? "works" : "does not work", out.qemu_err);
	return out.reported && out.status == 0;
}

static int fail(const struct bo_qemu_outcome *out, const char *console, int console_fd,
		struct bo_err *err)
{
	char tail[400], qerr[160], panic[120], why[200];
	const char *q;
	char *nl;

	console_tail(console_fd, tail, sizeof(tail), panic, sizeof(panic));
	/* The end of QEMU's stderr says why it stopped; its start is often noise. */
	q = out->qemu_err + strlen(out->qemu_err);
	q -= q - out->qemu_err < (ptrdiff_t) sizeof(qerr) ? q - out->qemu_err
							  : (ptrdiff_t) sizeof(qerr) - 1;
	if (q > out->qemu_err && q[-1] != '\n' && strchr(q, '\n') && strchr(q, '\n')[1])
		q = strchr(q, '\n') + 1; /* start at a line */
	memcpy(qerr, q, strlen(q) + 1);
	while ((nl = strchr(qerr, '\n')))
		*nl = nl[1] ? ' ' : '\0';
	if (out->timed_out)
		return bo_err_set(err, ETIMEDOUT,
				  "VM killed at its timeout after %.0f s (%s); console '%s', last "
				  "lines:%s",
				  out->total_s,
				  out->started ? "the command was running"
					       : "still booting: the command never started",
				  console, tail);
	if (out->stopped)
		snprintf(why, sizeof(why), "blackout was stopped by %s",
			 bo_stop_signal() ? strsignal(bo_stop_signal()) : "a signal");
	else if (*panic)
		snprintf(why, sizeof(why), "the kernel panicked: %s", panic);
	else if (WIFSIGNALED(out->wait_status))
		snprintf(why, sizeof(why), "QEMU was killed by signal %d (%s)",
			 WTERMSIG(out->wait_status), strsignal(WTERMSIG(out->wait_status)));
	else if (*qerr)
		snprintf(why, sizeof(why), "qemu: %s", qerr);
	else
		snprintf(why, sizeof(why), "a kernel panic or a failed guest init?");
	return bo_err_set(err, EIO,
			  "VM stopped before the command reported its status (%s); console '%s', "
			  "last lines:%s",
			  why, console, tail);
}

int bo_vm_memory_check(uint64_t mib, struct bo_err *err)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t host = pages > 0 && page > 0 ? ((uint64_t) pages * (uint64_t) page) >> 20 : 0;

	if (mib < BO_VM_MIN_MEMORY_MB)
		return bo_err_set(
			err, ERANGE,
			"a VM needs at least %u MiB (its kernel and initramfs live in it)",
			BO_VM_MIN_MEMORY_MB);
	if (host && mib > host)
		return bo_err_set(err, ERANGE, "more than this host's %" PRIu64 " MiB of memory",
				  host);
	return 0;
}

int bo_vm_cpus_check(uint64_t n, struct bo_err *err)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t most = online > 0 && (uint64_t) online < BO_VM_MAX_CPUS ? (uint64_t) online
									 : BO_VM_MAX_CPUS;

	if (n < 1 || n > most)
		return bo_err_set(err, ERANGE, "1 to %" PRIu64 " (%s)", most,
				  most == BO_VM_MAX_CPUS ? "what QEMU's q35 machine takes"
							 : "this host's online CPUs");
	return 0;
}

int bo_vm_opts_judge(const struct bo_vm_opts *o, struct bo_err *err)
{
	struct stat st;

	if (o->memory_mb && bo_vm_memory_check(o->memory_mb, err) < 0)
		return bo_err_prefix(err, "--memory %u", o->memory_mb);
	if (o->cpus && bo_vm_cpus_check(o->cpus, err) < 0)
		return bo_err_prefix(err, "--cpus %u", o->cpus);
	if (o->share_dir && stat(o->share_dir, &st) < 0)
		return bo_err_set(err, errno, "--share '%s': %s", o->share_dir, strerror(errno));
	if (o->share_dir && !S_ISDIR(st.st_mode))
		return bo_err_set(err, ENOTDIR,
				  "--share '%s' is not a directory: the guest's results share is "
				  "one",
				  o->share_dir);
	/* Nothing of any kind may be there: the log is made new, and blackout never removes
	 * (or writes through) what it did not make. */
	if (o->console_path && lstat(o->console_path, &st) == 0)
		return bo_err_set(err, EEXIST,
				  "--console '%s' exists: the console log is a new file (blackout "
				  "never removes what it did not make); name another, or remove it",
				  o->console_path);
	if (o->console_path && errno != ENOENT)
		return bo_err_set(err, errno, "--console '%s': %s", o->console_path,
				  strerror(errno));
	return 0;
}

int bo_vm_run_result(const struct bo_vm_opts *opts, char *const argv[], struct bo_vm_result *ret,
		     struct bo_err *err)
{
	struct bo_vm_result res = {.status = -1};
	struct bo_moddir *m = NULL;
	struct bo_kernel k;
	char base[PATH_MAX], accel[8];
	struct launch L = {.opts = opts, .k = &k, .base = base};
	struct bo_qemu_outcome out = {0};
	const char *tmp = getenv("TMPDIR");
	_cleanup_close_ int console = -1;
	int r;

	if (!argv || !argv[0])
		return bo_err_set(err, EINVAL, "no command to run in the VM");
	r = bo_vm_opts_judge(opts, err);
	if (r < 0)
		return r;
	if (bo_qemu_path(base, sizeof(base)) < 0)
		return bo_err_set(err, ENOPKG,
				  "qemu-system-x86_64 is not installed (package "
				  "qemu-system-x86; scripts/setup installs it)");
	r = bo_kernel_find(&(struct bo_kernel_spec){opts->kernel, opts->modules,
						    opts->kernel_release, opts->kernel_tree},
			   &k, err);
	if (r < 0)
		return r;
	snprintf(res.release, sizeof(res.release), "%s", k.release);
	snprintf(res.package, sizeof(res.package), "%s", k.package);
	r = bo_initramfs_check_tools(opts->fstab, opts->fs, err);
	if (r >= 0)
		r = bo_kernel_check_config(&k, opts->fs, opts->fstab, opts->base_fd > 0, err);
	if (r >= 0)
		r = bo_moddir_open(k.modules, &m, err);
	if (r >= 0)
		r = bo_kernel_check(&k, m, err);
	if (r >= 0)
		r = bo_initramfs_base(&k, m, opts->fstab, base, sizeof(base), err);
	bo_moddir_free(m);
	if (r < 0)
		goto out;
	snprintf(L.dir, sizeof(L.dir), "%s/blackout-vm-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(L.dir)) {
		r = bo_err_set(err, errno, "create a temporary directory in '%s': %m",
			       tmp && *tmp ? tmp : "/tmp");
		goto out;
	}
	r = bo_accel_pick(opts->accel, probe_kvm, &L, accel, sizeof(accel), err);
	if (r < 0)
		goto out_dir;
	snprintf(res.accel, sizeof(res.accel), "%s", accel);
	if (opts->console_path)
		snprintf(res.console_path, sizeof(res.console_path), "%s", opts->console_path);
	else
		snprintf(res.console_path, sizeof(res.console_path), "%s/console.log", L.dir);
	r = console = console_create(res.console_path, err);
	if (r >= 0)
		r = boot(&L, argv, accel, opts->timeout_s, console, &out, err);
	if (r < 0) {
		/* QEMU never ran: the empty log this launch made goes, and nothing blocks the
		 * retry. */
		if (console >= 0)
			(void) unlink(res.console_path);
		res.console_path[0] = '\0';
		goto out_dir;
	}
	res.boot_s = out.boot_s;
	res.total_s = out.total_s;
	if (out.reported) {
		res.status = out.status;
	} else {
		r = fail(&out, res.console_path, console, err);
	}
out_dir:
	if (r >= 0 && !opts->console_path && unlink(res.console_path) == 0)
		res.console_path[0] = '\0';
	(void) rmdir(L.dir); /* stays when it keeps the console log of a failure */
out:
	*ret = res;
	return r;
}

int bo_vm_run(const struct bo_vm_opts *opts, char *const argv[], int *ret_status,
	      struct bo_err *err)
{
	struct bo_vm_result res;
	int r = bo_vm_run_result(opts, argv, &res, err);

	if (r >= 0)
		*ret_status = res.status;
	return r;
}
