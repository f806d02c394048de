// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qemu.c — one QEMU process per launch.
 *
 * The serial console goes straight to its log file, which blackout made and QEMU gets as fd 9
 * (opened as /proc/self/fd/9: the file blackout made, whatever its path leads to by then).
 * The command's stdout, stderr and the control lines come over three virtio-serial ports,
 * each a pipe to this process; QEMU gets the pipes as fds 3-5 (and the initrd as fd 6) and
 * opens them as /proc/self/fd/N. Reading them here, rather than handing QEMU our own stdout,
 * keeps a regular file from being truncated by QEMU's open and lets the control port be
 * parsed as it arrives. A host base (bo_qemu_launch.base_fd) comes as fd 7, mapped shared as
 * a virtio-pmem device, and its port's socket as fd 8.
 */
#include "vm/qemu.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/path.h"
#include "harness/base/safety.h"
#include "vm/guest.h"

#define QEMU	 "qemu-system-x86_64"
#define MAX_ARGS 80
/* The fds QEMU inherits: the three port pipes' write ends, then the initrd. */
#define FD_PORT0     3
#define FD_INITRD    6
#define FD_BASE	     7
#define FD_BASE_PORT 8
#define FD_CONSOLE   9
#define QBOOT	     "/usr/share/qemu/qboot.rom"

enum { P_OUT, P_ERR, P_CTL, P_QERR, NPIPES };

int bo_qemu_path(char *buf, size_t len)
{
	const char *path = getenv("PATH");

	for (const char *p = path && *path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		if (bo_pathf(buf, len, "%.*s/%s", (int) n, p, QEMU) >= 0 && access(buf, X_OK) == 0)
			return 0;
		p += n;
		p += *p == ':';
	}
	return -ENOPKG;
}

struct args {
	char *v[MAX_ARGS + 1];
	size_t n;
	bool oom;
};

_printf_(2, 3) static void arg(struct args *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0 || a->n == MAX_ARGS)
		a->oom = true;
	else
		a->v[a->n++] = s;
	va_end(ap);
}

/* QEMU option values escape a comma by doubling it. */
static char *escape(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; *s && o + 2 < len; s++) {
		if (*s == ',')
			buf[o++] = ',';
		buf[o++] = *s;
	}
	buf[o] = '\0';
	return buf;
}

static void build_args(const struct bo_qemu_launch *l, struct args *a)
{
	static const char *const ports[] = {BO_PORT_OUT, BO_PORT_ERR, BO_PORT_CTL};
	char esc[2 * 4096 + 1];

	arg(a, QEMU);
	/* q35: on the i440fx machine every virtio-pci device costs ~0.3 s of ACPI interrupt
	 * routing under TCG at probe time; on q35 the three probe in ~0.1 s. */
	arg(a, "-machine");
	arg(a, "q35");
	/* qboot starts a PVH or bzImage kernel ~0.25 s sooner than SeaBIOS under TCG. */
	if (access(QBOOT, R_OK) == 0) {
		arg(a, "-bios");
		arg(a, QBOOT);
	}
	arg(a, "-nodefaults");
	arg(a, "-no-user-config");
	arg(a, "-nographic");
	arg(a, "-no-reboot");
	if (!strcmp(l->accel, "kvm")) {
		arg(a, "-accel");
		arg(a, "kvm");
		arg(a, "-cpu");
		arg(a, "host");
	} else {
		arg(a, "-accel");
		arg(a, "tcg,thread=multi");
	}
	arg(a, "-m");
	/* The base's region sits in the memory-hotplug space above the RAM. */
	if (l->base_fd > 0)
		arg(a, "%u,slots=1,maxmem=%lluM", l->memory_mib,
		    (unsigned long long) (l->memory_mib + (l->base_size >> 20) + 1024));
	else
		arg(a, "%u", l->memory_mib);
	arg(a, "-smp");
	arg(a, "%u", l->cpus);
	arg(a, "-kernel");
	arg(a, "%s", l->image);
	arg(a, "-initrd");
	arg(a, "/proc/self/fd/%d", FD_INITRD);
	arg(a, "-append");
	arg(a, "%s", l->cmdline);
	arg(a, "-chardev");
	if (l->interactive)
		arg(a, "stdio,id=con,mux=on,signal=off,logfile=/proc/self/fd/%d", FD_CONSOLE);
	else
		arg(a, "file,id=con,path=/proc/self/fd/%d", FD_CONSOLE);
	arg(a, "-serial");
	arg(a, "chardev:con");
	if (l->interactive) {
		arg(a, "-mon");
		arg(a, "chardev=con,mode=readline");
	}
	/* Without an entropy source the guest's getrandom() blocks: mkfs.ext4 took 4.2 s, not
	 * 0.1 s. */
	arg(a, "-device");
	arg(a, "virtio-rng-pci");
	arg(a, "-device");
	arg(a, "virtio-serial-pci,id=vser");
	for (int i = 0; i < 3; i++) {
		arg(a, "-chardev");
		arg(a, "file,id=port%d,path=/proc/self/fd/%d", i, FD_PORT0 + i);
		arg(a, "-device");
		arg(a, "virtserialport,bus=vser.0,chardev=port%d,name=%s", i, ports[i]);
	}
	if (l->base_fd > 0) {
		arg(a, "-object");
		arg(a, "memory-backend-file,id=base,share=on,mem-path=/proc/self/fd/%d,size=%llu",
		    FD_BASE, (unsigned long long) l->base_size);
		arg(a, "-device");
		arg(a, "virtio-pmem-pci,memdev=base,id=pmem0");
		arg(a, "-chardev");
		arg(a, "socket,id=baseport,fd=%d", FD_BASE_PORT);
		arg(a, "-device");
		arg(a, "virtserialport,bus=vser.0,chardev=baseport,name=%s", BO_PORT_BASE);
	}
	if (l->share) {
		arg(a, "-virtfs");
		arg(a, "local,path=%s,mount_tag=%s,security_model=none,multidevs=remap",
		    escape(l->share, esc, sizeof(esc)), BO_SHARE_TAG);
	}
	if (l->exchange) {
		arg(a, "-virtfs");
		arg(a, "local,path=%s,mount_tag=%s,security_model=none,multidevs=remap",
		    escape(l->exchange, esc, sizeof(esc)), BO_EXCHANGE_TAG);
	}
	/* Read-only in QEMU itself: nothing the guest does can write to the host's files. */
	if (l->host_root) {
		arg(a, "-virtfs");
		arg(a, "local,path=/,mount_tag=%s,security_model=none,multidevs=remap,readonly=on",
		    BO_HOSTROOT_TAG);
	}
}

/* In the child: the port pipes, the initrd, the host base and the console log at their fixed
 * fds, QEMU's stderr ours unless interactive. */
_Noreturn static void exec_qemu(const struct bo_qemu_launch *l, char *const argv[],
				int pipes[NPIPES][2], pid_t parent)
{
	const int src[] = {pipes[P_OUT][1], pipes[P_ERR][1], pipes[P_CTL][1], l->initrd_fd,
			   l->base_fd,	    l->base_port_fd, l->console_fd},
		  dst[] = {FD_PORT0, FD_PORT0 + 1, FD_PORT0 + 2, FD_INITRD,
			   FD_BASE,  FD_BASE_PORT, FD_CONSOLE};
	int hi[BO_ARRAY_SIZE(src)];

	/* QEMU must not outlive blackout: a killed harness would leave a VM running. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	/* Move the sources out of the way first: they may sit on the targets themselves.
	 * Without a host base its two are not passed. */
	for (size_t i = 0; i < BO_ARRAY_SIZE(src); i++) {
		hi[i] = -1;
		if (l->base_fd <= 0 && (dst[i] == FD_BASE || dst[i] == FD_BASE_PORT))
			continue;
		hi[i] = fcntl(src[i], F_DUPFD_CLOEXEC, 64);
		if (hi[i] < 0)
			_exit(127);
	}
	for (size_t i = 0; i < BO_ARRAY_SIZE(src); i++)
		if (hi[i] >= 0 && dup2(hi[i], dst[i]) < 0)
			_exit(127);
	if (lseek(FD_INITRD, 0, SEEK_SET) < 0)
		_exit(127);
	if (!l->interactive) {
		int null = open("/dev/null", O_RDWR);

		if (null < 0 || dup2(null, 0) < 0 || dup2(pipes[P_QERR][1], 2) < 0)
			_exit(127);
		dup2(2, 1);
	}
	execvp(argv[0], argv);
	dprintf(2, "cannot run %s: %m\n", argv[0]);
	_exit(127);
}

struct watch {
	const struct bo_qemu_launch *l;
	struct bo_qemu_outcome *o;
	double start;
	char line[512];
	size_t used;
	bool out_broken, err_broken;
};

static void control_line(struct watch *w, const char *line)
{
	char nonce[64], what[16];
	double v;
	int n;

	if (sscanf(line, "blackout %63s %15s %lf%n", nonce, what, &v, &n) < 3 ||
	    strcmp(nonce, w->l->nonce))
		return;
	if (!strcmp(what, "start") && !w->o->started) {
		w->o->started = true;
		w->o->boot_s = bo_now() - w->start;
		bo_debug(BO_DBG_VM, "command started %.2f s after QEMU (guest uptime %.2f s)",
			 w->o->boot_s, v);
	} else if (!strcmp(what, "exit")) {
		w->o->reported = true;
		w->o->status = (int) v;
	}
}

static int write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t k = write(fd, buf, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -EIO;
		buf += k;
		n -= (size_t) k;
	}
	return 0;
}

static void on_data(struct watch *w, int which, const char *buf, size_t n)
{
	struct bo_qemu_outcome *o = w->o;

	switch (which) {
	case P_OUT:
		/* A reader that went away must not stop the VM: the rest is dropped. */
		if (!w->out_broken && write_all(w->l->out_fd, buf, n) < 0)
			w->out_broken = true;
		break;
	case P_ERR:
		if (!w->err_broken && write_all(w->l->err_fd, buf, n) < 0)
			w->err_broken = true;
		break;
	case P_CTL:
		for (size_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (w->used < sizeof(w->line) - 1)
					w->line[w->used++] = buf[i];
				continue;
			}
			w->line[w->used] = '\0';
			control_line(w, w->line);
			w->used = 0;
		}
		break;
	case P_QERR: {
		size_t have = strlen(o->qemu_err), room = sizeof(o->qemu_err) - 1;

		if (n >= room) {
			memcpy(o->qemu_err, buf + n - room, room);
			o->qemu_err[room] = '\0';
			break;
		}
		if (have + n > room) {
			memmove(o->qemu_err, o->qemu_err + have + n - room, room - n);
			have = room - n;
		}
		memcpy(o->qemu_err + have, buf, n);
		o->qemu_err[have + n] = '\0';
		bo_debug(BO_DBG_VM, "qemu: %.*s", (int) n, buf);
		break;
	}
	}
}

int bo_qemu_run(const struct bo_qemu_launch *l, struct bo_qemu_outcome *ret, struct bo_err *err)
{
	int pipes[NPIPES][2], rd[NPIPES], pidfd = -1, r = 0;
	struct bo_qemu_outcome o = {0};
	struct watch w = {.l = l, .o = &o};
	struct args a = {0};
	static char buf[1 << 16];
	bool exited = false;
	pid_t pid, self = getpid();

	build_args(l, &a);
	if (a.oom)
		r = bo_err_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < NPIPES; i++)
		pipes[i][0] = pipes[i][1] = rd[i] = -1;
	for (int i = 0; r >= 0 && i < NPIPES; i++)
		if (pipe2(pipes[i], O_CLOEXEC) < 0)
			r = bo_err_set(err, errno, "pipe: %m");
	if (r < 0)
		goto out;
	if (bo_debug_on(BO_DBG_VM))
		for (size_t i = 0; i < a.n; i++)
			bo_debug(BO_DBG_VM, "qemu arg: %s", a.v[i]);
	w.start = bo_now();
	pid = fork();
	if (pid < 0) {
		r = bo_err_set(err, errno, "fork: %m");
		goto out;
	}
	if (pid == 0)
		exec_qemu(l, a.v, pipes, self);
	for (int i = 0; i < NPIPES; i++) {
		close(pipes[i][1]);
		pipes[i][1] = -1;
		rd[i] = pipes[i][0];
		pipes[i][0] = -1;
	}
	pidfd = (int) syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		r = bo_err_set(err, errno, "pidfd_open: %m");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto out;
	}
	for (;;) {
		struct pollfd p[NPIPES + 1];
		int np = 0, which[NPIPES + 1], ms = -1;
		double now = bo_now(), deadline = 0;

		if (!exited && l->timeout_s > 0)
			deadline = w.start + l->timeout_s;
		if (!exited && !o.started && l->boot_s > 0 &&
		    (!deadline || w.start + l->boot_s < deadline))
			deadline = w.start + l->boot_s;
		/* A stop request (harness/safety.h) ends the VM: it is disposable, and QEMU would
		 * die with us anyway; this way the caller still reports and cleans up. */
		if (!exited && !o.stopped && bo_stop_requested()) {
			bo_debug(BO_DBG_VM, "stop requested: killing QEMU (pid %d)", (int) pid);
			o.stopped = true;
			kill(pid, SIGKILL);
		}
		if (deadline && !o.timed_out) {
			if (now >= deadline) {
				bo_debug(BO_DBG_VM, "timeout: killing QEMU (pid %d)", (int) pid);
				o.timed_out = true;
				kill(pid, SIGKILL);
			} else {
				ms = (int) ((deadline - now) * 1000) + 1;
			}
		}
		for (int i = 0; i < NPIPES; i++)
			if (rd[i] >= 0) {
				p[np] = (struct pollfd){.fd = rd[i], .events = POLLIN};
				which[np++] = i;
			}
		if (!exited) {
			p[np] = (struct pollfd){.fd = pidfd, .events = POLLIN};
			which[np++] = -1;
		}
		if (!np)
			break;
		if (poll(p, (nfds_t) np, ms) < 0) {
			if (errno == EINTR)
				continue;
			r = bo_err_set(err, errno, "poll: %m");
			kill(pid, SIGKILL);
		}
		for (int k = 0; k < np; k++) {
			ssize_t n;

			if (!p[k].revents)
				continue;
			if (which[k] < 0) {
				while (waitpid(pid, &o.wait_status, 0) < 0 && errno == EINTR)
					;
				o.total_s = bo_now() - w.start;
				exited = true;
				continue;
			}
			n = read(p[k].fd, buf, sizeof(buf));
			if (n > 0) {
				on_data(&w, which[k], buf, (size_t) n);
			} else if (n == 0 || errno != EINTR) {
				close(rd[which[k]]);
				rd[which[k]] = -1;
			}
		}
		if (r < 0)
			break;
	}
	if (!exited) {
		while (waitpid(pid, &o.wait_status, 0) < 0 && errno == EINTR)
			;
		o.total_s = bo_now() - w.start;
	}
	*ret = o;
out:
	for (int i = 0; i < NPIPES; i++) {
		bo_closep(&pipes[i][0]);
		bo_closep(&pipes[i][1]);
		bo_closep(&rd[i]);
	}
	bo_closep(&pidfd);
	for (size_t i = 0; i < a.n; i++)
		free(a.v[i]);
	return r;
}
