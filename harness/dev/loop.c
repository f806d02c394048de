// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/loop.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "harness/base/macro.h"

/* Loop majors are fixed (LOOP_MAJOR in include/uapi/linux/major.h). */
#define LOOP_MAJOR_NR 7

/* How often to go back to LOOP_CTL_GET_FREE when the free device was taken meanwhile. */
#define ATTACH_ATTEMPTS 16

bool bo_path_within(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1 && dir[0] == '/')
		return path[0] == '/' && path[1] != '\0';
	return strncmp(dir, path, n) == 0 && path[n] == '/' && path[n + 1] != '\0';
}

/* Read a small sysfs attribute of the block device with device number @rdev. */
static int read_sysfs(dev_t rdev, const char *attr, char *buf, size_t len)
{
	char path[96];
	_cleanup_close_ int fd = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s", major(rdev), minor(rdev), attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		return -errno;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return 0;
}

static int loop_rdev(const char *dev, dev_t *ret, struct bo_err *err)
{
	struct stat st;

	if (stat(dev, &st) < 0)
		return bo_err_set(err, errno, "loop '%s': %s", dev, strerror(errno));
	if (!S_ISBLK(st.st_mode) || major(st.st_rdev) != LOOP_MAJOR_NR)
		return bo_err_set(err, ENOTBLK, "loop '%s': not a loop device", dev);
	*ret = st.st_rdev;
	return 0;
}

static int backing_of(dev_t rdev, char *buf, size_t len)
{
	static const char deleted[] = " (deleted)";
	size_t n;
	int r;

	/* The loop/ directory exists only while the device is bound. */
	r = read_sysfs(rdev, "loop/backing_file", buf, len);
	if (r == -ENOENT)
		return -ENXIO;
	if (r < 0)
		return r;
	n = strlen(buf);
	if (n > sizeof(deleted) - 1 && !strcmp(buf + n - (sizeof(deleted) - 1), deleted))
		buf[n - (sizeof(deleted) - 1)] = '\0';
	return 0;
}

int bo_loop_backing_file(const char *dev, char *buf, size_t len, struct bo_err *err)
{
	dev_t rdev;
	int r;

	r = loop_rdev(dev, &rdev, err);
	if (r < 0)
		return r;
	r = backing_of(rdev, buf, len);
	if (r == -ENXIO)
		return bo_err_set(err, ENXIO, "loop '%s': not bound", dev);
	if (r < 0)
		return bo_err_set(err, -r, "loop '%s': reading its backing file: %s", dev,
				  strerror(-r));
	return 0;
}

/* The real path of what @fd is open on, via /proc/self/fd. */
static int fd_path(int fd, char *buf, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	if (n < 0)
		return -errno;
	if ((size_t) n >= len - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

/* Open @file and check, on what was actually opened, that it is a regular file in @dir. */
static int open_backing(const char *file, const char *dir, bool ro, struct bo_err *err)
{
	char real_dir[PATH_MAX], real_file[PATH_MAX];
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	if (!dir)
		return bo_err_set(err, EINVAL, "loop attach '%s': no allowed directory given",
				  file);
	if (!realpath(dir, real_dir))
		return bo_err_set(err, errno, "loop attach '%s': allowed directory '%s': %s", file,
				  dir, strerror(errno));
	fd = open(file, (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return bo_err_set(err, errno, "loop attach '%s': %s", file, strerror(errno));
	/* Checked on the open file, so a symlink swapped in meanwhile cannot redirect it. */
	r = fd_path(fd, real_file, sizeof(real_file));
	if (r < 0)
		return bo_err_set(err, -r, "loop attach '%s': resolving it: %s", file,
				  strerror(-r));
	if (!bo_path_within(real_dir, real_file))
		return bo_err_set(err, EPERM,
				  "loop attach '%s': refusing '%s', which is outside the allowed "
				  "directory '%s'",
				  file, real_file, real_dir);
	if (fstat(fd, &st) < 0)
		return bo_err_set(err, errno, "loop attach '%s': %s", file, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return bo_err_set(err, EINVAL, "loop attach '%s': not a regular file", file);
	if (st.st_size == 0 || st.st_size % 512)
		return bo_err_set(err, EINVAL,
				  "loop attach '%s': size %lld is not a positive multiple of 512",
				  file, (long long) st.st_size);
	return BO_TAKE_FD(fd);
}

/* LOOP_SET_FD, then the settings LOOP_CONFIGURE would have made, undone on failure. */
static int configure_legacy(int lfd, int ffd, unsigned flags, uint32_t block_size)
{
	struct loop_info64 info = {0};
	int r;

	if (ioctl(lfd, LOOP_SET_FD, ffd) < 0)
		return -errno;
	if (flags & BO_LOOP_AUTOCLEAR)
		info.lo_flags |= LO_FLAGS_AUTOCLEAR;
	if (ioctl(lfd, LOOP_SET_STATUS64, &info) < 0)
		goto undo;
	if (block_size && ioctl(lfd, LOOP_SET_BLOCK_SIZE, (unsigned long) block_size) < 0)
		goto undo;
	/* Like LOOP_CONFIGURE, carry on without direct I/O where the backing file cannot do it;
	 * bo_loop_dev.direct_io tells. */
	if ((flags & BO_LOOP_DIRECT_IO) && ioctl(lfd, LOOP_SET_DIRECT_IO, 1UL) < 0) {
		if (errno != EINVAL)
			goto undo;
		bo_debug(BO_DBG_LOOP, "LOOP_SET_DIRECT_IO refused; continuing without");
	}
	return 0;
undo:
	r = -errno;
	(void) ioctl(lfd, LOOP_CLR_FD, 0);
	return r;
}

static int configure(int lfd, int ffd, unsigned flags, uint32_t block_size, bool *legacy)
{
	struct loop_config cfg = {.fd = (uint32_t) ffd, .block_size = block_size};

	if (!*legacy) {
		if (flags & BO_LOOP_READ_ONLY)
			cfg.info.lo_flags |= LO_FLAGS_READ_ONLY;
		if (flags & BO_LOOP_DIRECT_IO)
			cfg.info.lo_flags |= LO_FLAGS_DIRECT_IO;
		if (flags & BO_LOOP_AUTOCLEAR)
			cfg.info.lo_flags |= LO_FLAGS_AUTOCLEAR;
		if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0)
			return 0;
		/* Before Linux 5.8 the loop driver answers an unknown ioctl with EINVAL (or
		 * ENOTTY); the arguments were validated already, so that means "missing". */
		if (errno != EINVAL && errno != ENOTTY)
			return -errno;
		bo_debug(BO_DBG_LOOP, "LOOP_CONFIGURE: %s; falling back to LOOP_SET_FD",
			 strerror(errno));
		*legacy = true;
	}
	return configure_legacy(lfd, ffd, flags, block_size);
}

int bo_loop_attach(const char *file, const char *allowed_dir, unsigned flags, uint32_t block_size,
		   struct bo_loop_dev *ret, struct bo_err *err)
{
	_cleanup_close_ int ffd = -1, ctl = -1;
	bool ro = flags & BO_LOOP_READ_ONLY, legacy = flags & BO_LOOP_LEGACY_IOCTLS;
	char dio[8];

	if (block_size &&
	    (block_size < 512 || block_size > 4096 || (block_size & (block_size - 1))))
		return bo_err_set(
			err, EINVAL,
			"loop attach '%s': block size %u is not a power of two in 512..4096", file,
			block_size);
	ffd = open_backing(file, allowed_dir, ro, err);
	if (ffd < 0)
		return ffd;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return bo_err_set(err, errno, "loop attach '%s': /dev/loop-control: %s", file,
				  strerror(errno));
	for (int attempt = 1; attempt <= ATTACH_ATTEMPTS; attempt++) {
		_cleanup_close_ int lfd = -1;
		struct bo_loop_dev dev = {.fd = -1};
		struct stat st;
		int nr, r;

		nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0)
			return bo_err_set(err, errno, "loop attach '%s': no free loop device: %s",
					  file, strerror(errno));
		dev.nr = nr;
		snprintf(dev.path, sizeof(dev.path), "/dev/loop%d", nr);
		lfd = open(dev.path, (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NOCTTY);
		if (lfd < 0)
			return bo_err_set(err, errno, "loop attach '%s': opening '%s': %s", file,
					  dev.path, strerror(errno));
		r = configure(lfd, ffd, flags, block_size, &legacy);
		/*
		 * LOOP_CTL_GET_FREE only names a device that was free a moment ago; another
		 * process (losetup, a second blackout) can bind it first, and then configuring
		 * it fails with EBUSY. Ask for the next free one, a bounded number of times.
		 */
		if (r == -EBUSY) {
			bo_debug(BO_DBG_LOOP, "%s was taken meanwhile (attempt %d)", dev.path,
				 attempt);
			continue;
		}
		if (r < 0)
			return bo_err_set(err, -r, "loop attach '%s' to '%s': %s", file, dev.path,
					  strerror(-r));
		if (fstat(lfd, &st) == 0 &&
		    read_sysfs(st.st_rdev, "loop/dio", dio, sizeof(dio)) == 0)
			dev.direct_io = !strcmp(dio, "1");
		if (flags & BO_LOOP_AUTOCLEAR)
			dev.fd = BO_TAKE_FD(lfd);
		bo_debug(BO_DBG_LOOP, "attached '%s' to %s%s%s%s (block size %u%s)", file, dev.path,
			 ro ? " read-only" : "", dev.direct_io ? " direct-io" : "",
			 flags & BO_LOOP_AUTOCLEAR ? " autoclear" : "", block_size,
			 legacy ? ", legacy ioctls" : "");
		*ret = dev;
		return 0;
	}
	return bo_err_set(err, EBUSY,
			  "loop attach '%s': %d free loop devices in a row were taken by somebody "
			  "else first",
			  file, ATTACH_ATTEMPTS);
}

void bo_loop_dev_close(struct bo_loop_dev *dev)
{
	if (dev && dev->fd >= 0) {
		(void) close(dev->fd);
		dev->fd = -1;
	}
}

int bo_loop_detach(const char *dev, struct bo_err *err)
{
	char backing[PATH_MAX];
	dev_t rdev;
	int fd, r;

	r = loop_rdev(dev, &rdev, err);
	if (r < 0)
		return bo_err_prefix(err, "loop detach");
	fd = open(dev, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return bo_err_set(err, errno, "loop detach '%s': %s", dev, strerror(errno));
	r = ioctl(fd, LOOP_CLR_FD, 0) < 0 ? -errno : 0;
	(void) close(fd);
	if (r == -ENXIO)
		return bo_err_set(err, ENXIO, "loop detach '%s': not bound", dev);
	if (r < 0 && r != -EBUSY)
		return bo_err_set(err, -r, "loop detach '%s': %s", dev, strerror(-r));
	/* Since Linux 5.x LOOP_CLR_FD on a device others hold open only sets autoclear; older
	 * kernels say EBUSY. Either way the loop is still bound, and the caller must know. */
	if (r == -EBUSY || backing_of(rdev, backing, sizeof(backing)) == 0)
		return bo_err_set(err, EBUSY,
				  "loop detach '%s': still open elsewhere (mounted, or under a dm "
				  "device?); it stays bound until the last close",
				  dev);
	bo_debug(BO_DBG_LOOP, "detached %s", dev);
	return 0;
}

void bo_loop_list_free(char **list)
{
	if (!list)
		return;
	for (char **p = list; *p; p++)
		free(*p);
	free(list);
}

int bo_loop_list_inside(const char *dir, char ***ret, struct bo_err *err)
{
	char real_dir[PATH_MAX];
	_cleanup_(bo_closedirp) DIR *d = NULL;
	char **list = NULL;
	size_t n = 0;
	struct dirent *de;

	/* A directory that is gone may still back loops (a killed run's): its name is enough. */
	if (!realpath(dir, real_dir) &&
	    (errno != ENOENT || dir[0] != '/' ||
	     snprintf(real_dir, sizeof(real_dir), "%s", dir) >= (int) sizeof(real_dir)))
		return bo_err_set(err, errno, "loop list '%s': %s", dir, strerror(errno));
	list = calloc(1, sizeof(*list));
	d = opendir("/sys/block");
	if (!list || !d) {
		int e = list ? errno : ENOMEM;

		free(list);
		return bo_err_set(err, e, "loop list '%s': /sys/block: %s", dir, strerror(e));
	}
	while ((de = readdir(d))) {
		char attr[300], backing[PATH_MAX], **grown;
		unsigned nr;
		_cleanup_close_ int fd = -1;
		ssize_t len;

		if (sscanf(de->d_name, "loop%u", &nr) != 1)
			continue;
		snprintf(attr, sizeof(attr), "/sys/block/%s/loop/backing_file", de->d_name);
		fd = open(attr, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue; /* not bound */
		len = read(fd, backing, sizeof(backing) - 1);
		if (len <= 0)
			continue;
		backing[len] = '\0';
		backing[strcspn(backing, "\n")] = '\0';
		if (!bo_path_within(real_dir, backing))
			continue;
		grown = realloc(list, (n + 2) * sizeof(*list));
		if (!grown)
			goto oom;
		list = grown;
		if (asprintf(&list[n], "/dev/loop%u", nr) < 0)
			goto oom;
		list[++n] = NULL;
	}
	*ret = list;
	return 0;
oom:
	list[n] = NULL;
	bo_loop_list_free(list);
	return bo_err_set(err, ENOMEM, "loop list '%s': out of memory", dir);
}
