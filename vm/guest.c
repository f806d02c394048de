// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * guest.c — PID 1 of a blackout VM.
 *
 * It mounts the API file systems, loads the modules the way out needs (virtio, 9p, the
 * virtio-serial ports), mounts the results share, runs the command of the launch description
 * as root and powers off. Everything else is loaded on demand (see boot_modules).
 */
#include "vm/guest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/macro.h"
#include "harness/base/mounts.h"
#include "vm/initramfs.h"
#include "vm/modload.h"
#include "vm/vm.h"

extern char **environ;

/* How long the virtio-serial ports may take to be named: the host names them over the
 * control virtqueue after the device is probed, asynchronously to module loading
 * (drivers/char/virtio_console.c, VIRTIO_CONSOLE_PORT_NAME). */
#define PORT_WAIT_MS 10000

/*
 * Loaded at boot, in this order: what the way in and out needs, and crc32c first (ext4,
 * btrfs and dm-thin-pool want it as a soft dependency, through a crypto alias). Everything
 * else — loop, dm-mod, the dm targets, the file systems — loads on demand: request_module()
 * runs blackout as modprobe, and the static nodes from modules.devname (/dev/loop-control,
 * /dev/mapper/control) make their first open load the driver, as kmod's static-nodes do on a
 * normal system.
 */
static const char *const boot_modules[] = {
	"crc32c-generic", "virtio-pci", "virtio-rng", "virtio-console", NULL,
};
static const char *const share_modules[] = {"9pnet-virtio", "9p", NULL};
static const char *const host_root_modules[] = {"overlay", NULL};
/* The host's base image: a virtio-pmem device, driven by nd_pmem. */
static const char *const base_modules[] = {"virtio-pmem", "nd-pmem", NULL};
#define BASE_DEVICE "/dev/pmem0"
static const char *const optional_boot_modules[] = {"crc32c-generic", "virtio-rng", NULL};

struct launch {
	bool shell, share, exchange, base, host_root;
	char **argv, **envp;
	size_t argc, envc;
};

_printf_(1, 2) static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("blackout: guest: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	/* Only reached if reboot(2) failed; PID 1 exiting panics, which -no-reboot and panic=-1
	 * turn into QEMU exiting. */
	_exit(1);
}

static int nonce_from_cmdline(char *buf, size_t len)
{
	_cleanup_free_ char *cmd = NULL;
	char *p, *save = NULL;

	if (bo_read_file("/proc/cmdline", 1 << 16, &cmd, NULL) < 0)
		return -ENOENT;
	for (p = strtok_r(cmd, " \n", &save); p; p = strtok_r(NULL, " \n", &save))
		if (!strncmp(p, BO_VM_PARAM, strlen(BO_VM_PARAM)) && p[strlen(BO_VM_PARAM)]) {
			snprintf(buf, len, "%s", p + strlen(BO_VM_PARAM));
			return 0;
		}
	return -ENOENT;
}

bool bo_vm_inside(void)
{
	static int inside = -1;
	char nonce[64];

	if (inside < 0)
		inside = nonce_from_cmdline(nonce, sizeof(nonce)) == 0;
	return inside;
}

/* /tmp stays on the rootfs (itself a tmpfs): the launch archive may hold the blackout binary
 * or --file paths under /tmp, and a mount there would hide them. */
static int mount_api(void)
{
	static const struct {
		const char *src, *dst, *type;
		unsigned long flags;
		const char *data;
	} m[] = {
		{"proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL},
		{"sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL},
		{"devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755"},
		{"devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "ptmxmode=0666"},
		{"tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, NULL},
		{"tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755"},
	};

	for (size_t i = 0; i < BO_ARRAY_SIZE(m); i++) {
		(void) mkdir(m[i].dst, 0755);
		if (mount(m[i].src, m[i].dst, m[i].type, m[i].flags, m[i].data) < 0) {
			say("mount %s on %s: %m", m[i].type, m[i].dst);
			return -errno;
		}
	}
	/* Every command blackout starts gets a cgroup of its own there (harness/base/cgroup.h),
	 * so that what it leaves running is ended with it. Without it (a kernel built without
	 * CONFIG_CGROUPS, which the boot's config check names), a command's process group is. */
	(void) mkdir("/sys/fs/cgroup", 0755);
	/* favordynmods (Linux 6.0): entering a group then costs no RCU grace period, which a
	 * command spaced from the last one paid (~10 ms under TCG, twice a state); a kernel
	 * that does not know the option refuses it (EINVAL), and gets the plain mount. */
	if (mount("cgroup2", "/sys/fs/cgroup", "cgroup2", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "favordynmods") < 0 &&
	    mount("cgroup2", "/sys/fs/cgroup", "cgroup2", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) <
		    0)
		say("mount cgroup2 on /sys/fs/cgroup: %m: a command's leftovers outside its "
		    "process group are not ended with it");
	return 0;
}

static int write_string(const char *path, const char *s)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return write(fd, s, strlen(s)) == (ssize_t) strlen(s) ? 0 : -EIO;
}

static int load_list(struct bo_modload *l, const char *const *list, struct bo_err *err)
{
	for (const char *const *p = list; *p; p++) {
		bool optional = false;
		int r;

		for (const char *const *o = optional_boot_modules; *o; o++)
			optional |= !strcmp(*o, *p);
		r = bo_modload_load(l, *p, err);
		if (r < 0 && !optional)
			return r;
		if (r < 0)
			bo_debug(BO_DBG_VM, "%s", bo_err_str(err));
	}
	return 0;
}

/* Load the boot modules, the share's and, with @base, the host base's; *@base is cleared
 * when the latter are not there. */
static int load_boot_modules(bool share, bool host_root, bool *base)
{
	struct bo_modload *l = NULL;
	struct bo_err err = {0};
	int r;

	/* request_module() runs this path; blackout answers as modprobe (bo_guest_modprobe). */
	(void) write_string("/proc/sys/kernel/modprobe", "/sbin/modprobe");
	r = bo_modload_open(&l, &err);
	if (r >= 0)
		r = load_list(l, boot_modules, &err);
	if (r >= 0 && share)
		r = load_list(l, share_modules, &err);
	if (r >= 0 && host_root)
		r = load_list(l, host_root_modules, &err);
	/* Without them the command replays into an image of its own, as without a base. */
	if (r >= 0 && *base && load_list(l, base_modules, &err) < 0) {
		bo_debug(BO_DBG_VM, "guest: no host base: %s", bo_err_str(&err));
		*base = false;
	}
	bo_modload_free(l);
	if (r < 0)
		say("%s", bo_err_str(&err));
	return r;
}

/* Create the device nodes modules.devname lists ("module devname c|bMAJ:MIN"), so that
 * opening one loads its module. */
static void static_nodes(void)
{
	_cleanup_free_ char *text = NULL;
	char path[PATH_MAX], *save = NULL;
	struct utsname u;

	uname(&u);
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.devname", u.release);
	if (bo_read_file(path, 1u << 20, &text, NULL) < 0)
		return;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char mod[64], name[128], type;
		unsigned maj, min;
		char *slash;

		if (sscanf(l, "%63s %127s %c%u:%u", mod, name, &type, &maj, &min) != 5 ||
		    (type != 'c' && type != 'b') || strstr(name, ".."))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", name);
		slash = strrchr(path, '/');
		*slash = '\0';
		(void) mkdir(path, 0755);
		*slash = '/';
		if (mknod(path, (type == 'c' ? S_IFCHR : S_IFBLK) | 0600, makedev(maj, min)) < 0 &&
		    errno != EEXIST)
			bo_debug(BO_DBG_VM, "guest: mknod %s: %m", path);
	}
}

/* Find the /dev node of the virtio-serial port named @name, or -ENOENT. */
static int find_port(const char *name, char *buf, size_t len)
{
	DIR *d = opendir("/sys/class/virtio-ports");
	struct dirent *de;
	int r = -ENOENT;

	while (d && (de = readdir(d))) {
		_cleanup_free_ char *have = NULL;
		char path[PATH_MAX];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name", de->d_name);
		if (bo_read_file(path, 4096, &have, NULL) < 0)
			continue;
		have[strcspn(have, "\n")] = '\0';
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		if (!strcmp(have, name) && access(path, W_OK) == 0) {
			snprintf(buf, len, "%s", path);
			r = 0;
			break;
		}
	}
	if (d)
		closedir(d);
	return r;
}

/* Wait for the next uevents on @uev, draining them; false once @deadline has passed. */
static bool wait_uevents(int uev, double deadline)
{
	struct pollfd p = {.fd = uev, .events = POLLIN};
	int ms = (int) ((deadline - bo_now()) * 1000);
	char drain[8192];

	if (ms <= 0 || poll(&p, 1, ms) <= 0)
		return false;
	while (recv(uev, drain, sizeof(drain), MSG_DONTWAIT) > 0)
		;
	return true;
}

/*
 * Open the three ports, waiting for them to be named. A port's name arrives after its
 * device exists and comes with a "change" uevent, so the wait listens to uevents instead of
 * polling sysfs on a timer; @uev was bound before virtio_console was loaded.
 */
static int open_ports(int uev, int fds[3])
{
	static const char *const names[] = {BO_PORT_OUT, BO_PORT_ERR, BO_PORT_CTL};
	double deadline = bo_now() + PORT_WAIT_MS / 1000.0;
	char path[PATH_MAX];

	for (int i = 0; i < 3; i++) {
		while (find_port(names[i], path, sizeof(path)) < 0) {
			if (!wait_uevents(uev, deadline)) {
				say("virtio-serial port '%s' did not appear", names[i]);
				return -ETIMEDOUT;
			}
		}
		fds[i] = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (fds[i] < 0) {
			say("open %s: %m", path);
			return -errno;
		}
	}
	return 0;
}

static int uevent_socket(void)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK, .nl_groups = 1};
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

static int push(char ***v, size_t *n, char *s)
{
	char **nv = reallocarray(*v, *n + 2, sizeof(char *));

	if (!nv)
		return -ENOMEM;
	nv[(*n)++] = s;
	nv[*n] = NULL;
	*v = nv;
	return 0;
}

/*
 * With a host base: wait for its pmem device (nd_pmem probes its region asynchronously) and
 * its port, and name both to the command in BO_HOST_BASE_ENV. Either missing leaves the
 * variable unset, and the command replays on its own.
 */
static bool find_base(int uev, struct launch *l)
{
	static char env[PATH_MAX + 64];
	double deadline = bo_now() + PORT_WAIT_MS / 1000.0;
	char port[PATH_MAX];

	while (access(BASE_DEVICE, R_OK) < 0 || find_port(BO_PORT_BASE, port, sizeof(port)) < 0) {
		if (!wait_uevents(uev, deadline)) {
			bo_debug(BO_DBG_VM, "guest: no host base: %s or port '%s' did not appear",
				 BASE_DEVICE, BO_PORT_BASE);
			return false;
		}
	}
	snprintf(env, sizeof(env), "%s=%s %s", BO_HOST_BASE_ENV, BASE_DEVICE, port);
	if (push(&l->envp, &l->envc, env) < 0) {
		bo_debug(BO_DBG_VM, "guest: no host base: out of memory");
		return false;
	}
	return true;
}

/* Parse the launch description; the strings point into @buf, which must outlive @l. */
static int parse_launch(char *buf, size_t len, struct launch *l)
{
	for (size_t off = 0; off < len; off += strlen(buf + off) + 1) {
		char *rec = buf + off;
		int r = 0;

		if (!strcmp(rec, "mode=shell"))
			l->shell = true;
		else if (!strcmp(rec, "share=1"))
			l->share = true;
		else if (!strcmp(rec, "exchange=1"))
			l->exchange = true;
		else if (!strcmp(rec, "hostroot=1"))
			l->host_root = true;
		else if (!strcmp(rec, "base=1"))
			l->base = true;
		else if (!strncmp(rec, "env=", 4))
			r = push(&l->envp, &l->envc, rec + 4);
		else if (!strncmp(rec, "arg=", 4))
			r = push(&l->argv, &l->argc, rec + 4);
		if (r < 0)
			return r;
	}
	if (!l->argc) {
		say("the launch description has no command");
		return -EINVAL;
	}
	return 0;
}

/* In the child: the command's stdio, session and working directory, then exec. */
_Noreturn static void exec_command(const struct launch *l, const int ports[3])
{
	int in, tty, e;

	setsid();
	if (l->shell) {
		tty = open("/dev/ttyS0", O_RDWR | O_NOCTTY);
		if (tty < 0 || ioctl(tty, TIOCSCTTY, 0) < 0)
			say("controlling terminal /dev/ttyS0: %m");
		if (tty >= 0)
			dup2(tty, 0), dup2(tty, 1), dup2(tty, 2);
	} else {
		in = open("/dev/null", O_RDONLY);
		if (in >= 0)
			dup2(in, 0);
		dup2(ports[0], 1);
		dup2(ports[1], 2);
	}
	if (chdir(l->share ? BO_SHARE_GUEST : "/root") < 0)
		(void) chdir("/");
	signal(SIGPIPE, SIG_DFL);
	execvpe(l->argv[0], l->argv, l->envp ? l->envp : environ);
	/* As a shell says it: 127 not found, 126 found but not runnable. */
	e = errno;
	fprintf(stderr, "blackout: guest: cannot run '%s': %s\n", l->argv[0], strerror(e));
	_exit(e == ENOENT || e == ENOTDIR ? 127 : 126);
}

/* Mount the 9p share tagged @tag on @dir. */
static int mount_share(const char *tag, const char *dir)
{
	char opts[128];

	snprintf(opts, sizeof(opts), "trans=virtio,version=9p2000.L,msize=%d", BO_SHARE_MSIZE);
	(void) mkdir(dir, 0755);
	if (mount(tag, dir, "9p", 0, opts) < 0) {
		say("mount the %s share on %s: %m", tag, dir);
		return -errno;
	}
	return 0;
}

/*
 * The host's root for commands to chroot into: the read-only share under a tmpfs overlay
 * (what commands write stays in the guest), with /dev, /proc, /sys, /run and BO_FIXED_DIR
 * bound in. /run and BO_FIXED_DIR are made shared mounts first, so that what is mounted under them later
 * (the work directory; the mount area and the file systems under test, dev/mntarea.h) shows
 * inside too, at the same paths.
 */
static int mount_host_root(void)
{
	static const char *const binds[] = {"/dev", "/proc", "/sys", "/run", BO_FIXED_DIR};
	char path[PATH_MAX];
	int r;

	r = mount_share(BO_HOSTROOT_TAG, BO_HOSTROOT_LOWER);
	if (r >= 0 &&
	    mount(NULL, BO_HOSTROOT_LOWER, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) < 0)
		r = -errno;
	(void) mkdir("/.hostrw", 0700);
	if (r >= 0 && mount("hostrw", "/.hostrw", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") < 0)
		r = -errno;
	if (r >= 0 && ((mkdir("/.hostrw/upper", 0755) < 0 && errno != EEXIST) ||
		       (mkdir("/.hostrw/work", 0755) < 0 && errno != EEXIST)))
		r = -errno;
	(void) mkdir(BO_HOSTROOT_GUEST, 0755);
	if (r >= 0 && mount("hostroot", BO_HOSTROOT_GUEST, "overlay", 0,
			    "lowerdir=" BO_HOSTROOT_LOWER
			    ",upperdir=/.hostrw/upper,workdir=/.hostrw/work") < 0)
		r = -errno;
	if (r >= 0 && mount(NULL, "/run", NULL, MS_SHARED | MS_REC, NULL) < 0)
		r = -errno;
	/* BO_FIXED_DIR is a directory of the initramfs: bound on itself, it is a mount to share. */
	(void) mkdir(BO_FIXED_DIR, 0755);
	if (r >= 0 && (mount(BO_FIXED_DIR, BO_FIXED_DIR, NULL, MS_BIND, NULL) < 0 ||
		       mount(NULL, BO_FIXED_DIR, NULL, MS_SHARED, NULL) < 0))
		r = -errno;
	for (size_t i = 0; r >= 0 && i < BO_ARRAY_SIZE(binds); i++) {
		snprintf(path, sizeof(path), "%s%s", BO_HOSTROOT_GUEST, binds[i]);
		(void) mkdir(path, 0755);
		if (mount(binds[i], path, NULL, MS_BIND | MS_REC, NULL) < 0)
			r = -errno;
	}
	if (r < 0)
		say("the host's root on %s: %s", BO_HOSTROOT_GUEST, strerror(-r));
	return r;
}

/* The loopback interface up (the kernel gives it 127.0.0.1): daemons under test listen on
 * localhost. Nothing else of the network exists. */
static void loopback_up(void)
{
	struct ifreq ifr = {0};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr) < 0 ||
	    (ifr.ifr_flags |= IFF_UP, ioctl(fd, SIOCSIFFLAGS, &ifr) < 0))
		say("loopback: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

static double uptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Wait for @child, reaping every orphan PID 1 inherits on the way; its status as a shell's. */
static int wait_command(pid_t child)
{
	for (;;) {
		int status;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			return 255;
		if (pid != child)
			continue;
		if (WIFEXITED(status))
			return WEXITSTATUS(status);
		return 128 + WTERMSIG(status);
	}
}

static int run(const char *nonce)
{
	_cleanup_free_ char *buf = NULL;
	struct launch l = {0};
	int ports[3] = {-1, -1, -1}, uev, status, r;
	size_t len;
	pid_t child;

	r = bo_read_file(BO_GUEST_LAUNCH, 1u << 24, &buf, &len);
	if (r < 0) {
		say("read %s: %s", BO_GUEST_LAUNCH, strerror(-r));
		return r;
	}
	r = parse_launch(buf, len, &l);
	uev = uevent_socket();
	if (r >= 0 && uev < 0)
		say("uevent socket: %s", strerror(-(r = uev)));
	bo_debug(BO_DBG_VM, "guest: init at %.3f s", uptime());
	static_nodes();
	loopback_up();
	if (r >= 0)
		r = load_boot_modules(l.share || l.exchange || l.host_root, l.host_root, &l.base);
	bo_debug(BO_DBG_VM, "guest: boot modules loaded at %.3f s", uptime());
	if (r >= 0)
		r = open_ports(uev, ports);
	bo_debug(BO_DBG_VM, "guest: ports open at %.3f s", uptime());
	if (r >= 0 && l.base && uev >= 0 && find_base(uev, &l))
		bo_debug(BO_DBG_VM, "guest: host base found at %.3f s", uptime());
	if (uev >= 0)
		close(uev);
	if (r >= 0 && l.share)
		r = mount_share(BO_SHARE_TAG, BO_SHARE_GUEST);
	if (r >= 0 && l.exchange)
		r = mount_share(BO_EXCHANGE_TAG, BO_EXCHANGE_GUEST);
	if (r >= 0 && l.host_root)
		r = mount_host_root();
	if (r >= 0) {
		dprintf(ports[2], "blackout %s start %.3f\n", nonce, uptime());
		child = fork();
		if (child == 0)
			exec_command(&l, ports);
		if (child < 0)
			r = -errno;
	}
	if (r >= 0) {
		status = wait_command(child);
		/* Leftover background processes would keep the share busy. */
		kill(-1, SIGKILL);
		while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
			;
		sync();
		if (l.share && umount(BO_SHARE_GUEST) < 0)
			say("unmount %s: %m", BO_SHARE_GUEST);
		if (l.exchange && umount(BO_EXCHANGE_GUEST) < 0)
			say("unmount %s: %m", BO_EXCHANGE_GUEST);
		dprintf(ports[2], "blackout %s exit %d\n", nonce, status);
		say("blackout %s exit %d", nonce, status);
	}
	free(l.argv);
	free(l.envp);
	return r;
}

int bo_guest_init(void)
{
	char nonce[64];

	if (getpid() != 1) {
		fputs("blackout: the guest init runs only as PID 1 of a blackout VM\n", stderr);
		return 3;
	}
	if (mount_api() < 0 || nonce_from_cmdline(nonce, sizeof(nonce)) < 0) {
		say("not a blackout VM (no %s on the kernel command line)", BO_VM_PARAM);
		power_off();
	}
	setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", 1);
	setenv("HOME", "/root", 1);
	(void) run(nonce);
	power_off();
	return 3;
}

int bo_guest_modprobe(int argc, char **argv)
{
	struct bo_modload *l = NULL;
	struct bo_err err = {0};
	bool quiet = false, names = false;
	int r, ret = 0;

	r = bo_modload_open(&l, &err);
	if (r < 0) {
		fprintf(stderr, "modprobe: %s\n", bo_err_str(&err));
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (!names && !strcmp(argv[i], "--")) {
			names = true;
		} else if (!names && (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet"))) {
			quiet = true;
		} else if (!names && argv[i][0] == '-') {
			fprintf(stderr, "modprobe: option '%s' is not supported here\n", argv[i]);
			ret = 1;
		} else if (bo_modload_load(l, argv[i], &err) < 0) {
			if (!quiet)
				fprintf(stderr, "modprobe: %s\n", bo_err_str(&err));
			ret = 1;
		}
	}
	bo_modload_free(l);
	return ret;
}
