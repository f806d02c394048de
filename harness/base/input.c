// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * input.c — reading what strangers wrote, by one rule (input.h, docs/safety.md).
 */
#include "harness/base/input.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/safety.h"
#include "harness/base/sanitize.h"

bool bo_name_plain(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n == 0 || n > 255 || name[0] == '-' || name[0] == '.')
		return false;
	return strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			    ",:._~+@-") == n;
}

/* Every component of @rel a plain name (a leading '-' is fine inside a results directory:
 * only ids are held to that). */
static bool rel_plain(const char *rel)
{
	if (!*rel || *rel == '/')
		return false;
	for (const char *p = rel; *p;) {
		size_t len = strcspn(p, "/");

		if (len == 0 || len > 255 || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		for (size_t i = 0; i < len; i++)
			if ((unsigned char) p[i] < 0x20 || p[i] == 0x7f)
				return false;
		p += len + (p[len] == '/');
	}
	return true;
}

/* openat2 beneath @dirfd with no symlinks; -ENOSYS (or -EPERM from a seccomp filter that
 * does not know it) where the kernel cannot. */
static int open_beneath2(int dirfd, const char *rel)
{
#ifdef SYS_openat2
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));

	return fd < 0 ? -errno : (int) fd;
#else
	(void) dirfd;
	(void) rel;
	return -ENOSYS;
#endif
}

/* The same, one component at a time with O_NOFOLLOW: what kernels before 5.6 allow. */
static int open_beneath_walk(int dirfd, const char *rel)
{
	_cleanup_close_ int cur = -1;
	char name[256];

	for (const char *p = rel;;) {
		size_t len = strcspn(p, "/");
		bool last = p[len] == '\0';
		int fd;

		memcpy(name, p, len);
		name[len] = '\0';
		fd = openat(cur >= 0 ? cur : dirfd, name,
			    O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
				    (last ? 0 : O_DIRECTORY));
		if (fd < 0)
			return -errno;
		if (cur >= 0)
			close(cur);
		cur = fd;
		if (last)
			return BO_TAKE_FD(cur);
		p += len + 1;
	}
}

/* What @fd is, for a message. */
static const char *kind_of(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
			     : "not a regular file";
}

/* The checks on an open @fd: its type and size; blocking again. */
static int check_fd(int fd, const char *what, const char *rel, unsigned flags, uint64_t max,
		    uint64_t *ret_size, struct bo_err *err)
{
	struct stat st;
	uint64_t size;
	int fl;

	if (fstat(fd, &st) < 0)
		return bo_err_set(err, errno, "'%s%s%s': %s", what, *what ? "/" : "", rel,
				  strerror(errno));
	if (!S_ISREG(st.st_mode) && !(S_ISBLK(st.st_mode) && (flags & BO_INPUT_BLOCKDEV)))
		return bo_err_set(err, S_ISDIR(st.st_mode) ? EISDIR : EINVAL,
				  "'%s%s%s' is %s, not a regular file%s: refusing "
				  "to read it",
				  what, *what ? "/" : "", rel, kind_of(st.st_mode),
				  (flags & BO_INPUT_BLOCKDEV) ? " or block device" : "");
	if ((flags & BO_INPUT_ONELINK) && st.st_nlink > 1)
		return bo_err_set(err, EMLINK,
				  "'%s%s%s' is a hard link (one of %ju names of a file that may be "
				  "any file of its filesystem): refusing to read it",
				  what, *what ? "/" : "", rel, (uintmax_t) st.st_nlink);
	size = (uint64_t) st.st_size;
	if (S_ISBLK(st.st_mode)) {
		off_t end = lseek(fd, 0, SEEK_END);

		size = end < 0 ? 0 : (uint64_t) end;
		(void) lseek(fd, 0, SEEK_SET);
	}
	if (max && size > max)
		return bo_err_set(err, EFBIG,
				  "'%s%s%s' is %" PRIu64 " bytes, more than the %" PRIu64
				  " it may be: refusing to read it",
				  what, *what ? "/" : "", rel, size, max);
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		return bo_err_set(err, errno, "'%s%s%s': %s", what, *what ? "/" : "", rel,
				  strerror(errno));
	if (ret_size)
		*ret_size = size;
	return 0;
}

int bo_input_openat(int dirfd, const char *what, const char *rel, unsigned flags, uint64_t max,
		    uint64_t *ret_size, struct bo_err *err)
{
	_cleanup_close_ int fd = -1;
	int r;

	if (!what)
		what = "";
	if (!rel_plain(rel))
		return bo_err_set(err, EINVAL,
				  "'%s%s%s': not a plain name beneath the directory: "
				  "refusing to read it",
				  what, *what ? "/" : "", rel);
	fd = open_beneath2(dirfd, rel);
	if (fd == -ENOSYS || fd == -EPERM)
		fd = open_beneath_walk(dirfd, rel);
	if (fd < 0) {
		/* openat2 says EXDEV or ELOOP for a symlink on the way; O_NOFOLLOW says ELOOP
		 * for the last one, ENOTDIR for one on the way. */
		if (fd == -EXDEV || fd == -ELOOP || fd == -ENOTDIR)
			return bo_err_set(err, ELOOP,
					  "'%s%s%s' is (or lies under) a symlink or not "
					  "beneath the directory: refusing to follow it",
					  what, *what ? "/" : "", rel);
		return bo_err_set(err, -fd, "reading '%s%s%s': %s", what, *what ? "/" : "", rel,
				  strerror(-fd));
	}
	r = check_fd(fd, what, rel, flags, max, ret_size, err);
	if (r < 0)
		return r;
	return BO_TAKE_FD(fd);
}

int bo_input_open(const char *dir, const char *rel, unsigned flags, uint64_t max,
		  uint64_t *ret_size, struct bo_err *err)
{
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		return bo_err_set(err, errno, "reading '%s/%s': %s", dir, rel, strerror(errno));
	return bo_input_openat(dfd, dir, rel, flags, max, ret_size, err);
}

int bo_input_rel_check(const char *rel, const char *what, struct bo_err *err)
{
	_cleanup_free_ char *safe = NULL;
	char name[256];

	for (const char *p = rel && *rel != '/' ? rel : NULL; p;) {
		size_t len = strcspn(p, "/");

		if (len >= sizeof(name))
			break;
		memcpy(name, p, len);
		name[len] = '\0';
		if (!bo_name_plain(name))
			break;
		if (!p[len])
			return 0;
		p += len + 1;
	}
	safe = bo_sanitize(rel ? rel : "", true);
	return bo_err_set(err, EINVAL,
			  "%s: '%s' is not a relative path of plain names (A-Z a-z 0-9 , : . _ ~ "
			  "+ -, none starting with '.' or '-'): refusing it",
			  what, safe ? safe : "?");
}

int bo_input_opendir(const char *dir, const char *rel, const char *what, struct bo_err *err)
{
	_cleanup_close_ int dfd = -1, fd = -1;
	struct stat st;
	int r = bo_input_rel_check(rel, what, err);

	if (r < 0)
		return r;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return bo_err_set(err, errno, "reading '%s': %s", dir, strerror(errno));
	fd = open_beneath2(dfd, rel);
	if (fd == -ENOSYS || fd == -EPERM)
		fd = open_beneath_walk(dfd, rel);
	if (fd == -EXDEV || fd == -ELOOP || fd == -ENOTDIR)
		return bo_err_set(err, ELOOP,
				  "%s: '%s/%s' is (or lies under) a symlink or not a directory: "
				  "refusing to follow it",
				  what, dir, rel);
	if (fd < 0)
		return bo_err_set(err, -fd, "%s: '%s/%s': %s", what, dir, rel, strerror(-fd));
	if (fstat(fd, &st) < 0)
		return bo_err_set(err, errno, "%s: '%s/%s': %s", what, dir, rel, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return bo_err_set(err, ENOTDIR, "%s: '%s/%s' is %s, not a directory", what, dir,
				  rel, kind_of(st.st_mode));
	return BO_TAKE_FD(fd);
}

int bo_input_open_path(const char *path, unsigned flags, uint64_t max, uint64_t *ret_size,
		       struct bo_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
						    ((flags & BO_INPUT_FOLLOW) ? 0 : O_NOFOLLOW));
	int r;

	if (fd < 0) {
		if (errno == ELOOP && !(flags & BO_INPUT_FOLLOW))
			return bo_err_set(err, ELOOP,
					  "'%s' is a symlink: refusing to follow it "
					  "(give the file it points to)",
					  path);
		return bo_err_set(err, errno, "opening '%s': %s", path, strerror(errno));
	}
	r = check_fd(fd, "", path, flags, max, ret_size, err);
	if (r < 0)
		return r;
	return BO_TAKE_FD(fd);
}

/* How deep bo_input_shippable() walks a directory: deeper is refused, not copied. */
#define SHIP_MAX_DEPTH 64

/*
 * Every entry of the directory open at @dfd (@path, @depth levels below the path shipped),
 * judged as its copy would take it: a directory walked in turn (not through a symlink), a
 * regular file fine, a symlink fine unless what it leads to is neither (one that leads
 * nowhere is copied as a symlink), anything else refused naming it. Closes @dfd.
 */
static int ship_walk(int dfd, char *path, size_t len, unsigned depth, struct bo_err *err)
{
	size_t end = strlen(path);
	struct dirent *de;
	DIR *d = fdopendir(dfd);
	int r = 0;

	if (!d) {
		r = bo_err_set(err, errno, "'%s': %s", path, strerror(errno));
		close(dfd);
		return r;
	}
	while (r >= 0 && (errno = 0, de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((size_t) snprintf(path + end, len - end, "/%s", de->d_name) >= len - end) {
			path[end] = '\0';
			r = bo_err_set(err, ENAMETOOLONG, "'%s/%s': path too long", path,
				       de->d_name);
			break;
		}
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			r = bo_err_set(err, errno, "'%s': %s", path, strerror(errno));
		} else if (S_ISDIR(st.st_mode) && depth + 1 >= SHIP_MAX_DEPTH) {
			r = bo_err_set(err, ELOOP,
				       "'%s': more than %u levels deep: refusing to copy it into "
				       "the VM",
				       path, SHIP_MAX_DEPTH);
		} else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			r = sub < 0 ? bo_err_set(err, errno, "'%s': %s", path, strerror(errno))
				    : ship_walk(sub, path, len, depth + 1, err);
		} else if (S_ISLNK(st.st_mode)) {
			if (fstatat(dirfd(d), de->d_name, &st, 0) == 0 && !S_ISREG(st.st_mode) &&
			    !S_ISDIR(st.st_mode))
				r = bo_err_set(err, EINVAL,
					       "'%s' leads to %s: only regular files and "
					       "directories go into the VM",
					       path, kind_of(st.st_mode));
		} else if (!S_ISREG(st.st_mode)) {
			r = bo_err_set(err, EINVAL,
				       "'%s' is %s: only regular files and directories go into "
				       "the VM",
				       path, kind_of(st.st_mode));
		}
		path[end] = '\0';
	}
	if (r >= 0 && errno)
		r = bo_err_set(err, errno, "reading '%s': %s", path, strerror(errno));
	closedir(d);
	return r;
}

int bo_input_shippable(const char *path, struct bo_err *err)
{
	char buf[PATH_MAX];
	struct stat st;
	int dfd;

	if (stat(path, &st) < 0) {
		if (errno == ELOOP)
			return bo_err_set(err, ELOOP, "'%s': a loop of symlinks", path);
		return bo_err_set(err, errno, "'%s': %s", path, strerror(errno));
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return bo_err_set(err, EINVAL,
				  "'%s' is %s: only regular files and directories go into the VM",
				  path, kind_of(st.st_mode));
	/* A directory goes with all beneath it, as it is copied: walked by descriptor, never
	 * through a symlink (one named here is copied as a symlink: nothing beneath it). */
	if (!S_ISDIR(st.st_mode) || lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if ((size_t) snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", path);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return bo_err_set(err, errno, "'%s': %s", path, strerror(errno));
	return ship_walk(dfd, buf, sizeof(buf), 0, err);
}

int bo_output_open(const char *path, struct bo_err *err)
{
	_cleanup_close_ int fd = open(
		path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644);
	struct stat st;
	int fl;

	/* O_NONBLOCK: a FIFO without a reader (or a socket) fails with ENXIO, not a hang. */
	if (fd < 0 && errno == ENXIO && lstat(path, &st) == 0)
		return bo_err_set(err, EINVAL,
				  "'%s' is %s, not a regular file: refusing to "
				  "write it",
				  path, kind_of(st.st_mode));
	if (fd < 0 && errno == ELOOP)
		return bo_err_set(err, ELOOP, "'%s' is a symlink: refusing to write through it",
				  path);
	if (fd < 0)
		return bo_err_set(err, errno, "creating '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0)
		return bo_err_set(err, errno, "'%s': %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return bo_err_set(err, EINVAL,
				  "'%s' is %s, not a regular file: refusing to "
				  "write it",
				  path, kind_of(st.st_mode));
	fl = fcntl(fd, F_GETFL);
	if (ftruncate(fd, 0) < 0 || fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		return bo_err_set(err, errno, "'%s': %s", path, strerror(errno));
	return BO_TAKE_FD(fd);
}

int bo_output_open_target(const char *path, bool *ret_created, struct bo_err *err)
{
	_cleanup_close_ int pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	char self[64];
	struct stat st;
	int fd, r;

	*ret_created = false;
	if (pfd < 0 && errno == ENOENT) {
		/* Nothing there, not even a dangling symlink: made here, new. */
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			return bo_err_set(err, errno, "creating '%s': %s", path, strerror(errno));
		*ret_created = true;
		return fd;
	}
	if (pfd < 0 || fstat(pfd, &st) < 0)
		return bo_err_set(err, errno, "'%s': %s", path, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return bo_err_set(
			err, ELOOP,
			"'%s' is a symlink: refusing to write through it (give the file or "
			"device it points to)",
			path);
	/* What it is, judged on the descriptor before it is opened for writing: a FIFO, a
	 * character device or somebody else's disk is never opened. */
	r = bo_own_check_fd(pfd, path, err);
	if (r < 0)
		return r;
	/* Opened again through the descriptor, not the path: the file judged is the file
	 * written. O_EXCL claims a block device (one mounted or held fails with EBUSY); a
	 * regular file ignores it. */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDWR | O_EXCL | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return bo_err_set(err, errno, "opening '%s': %s", path, strerror(errno));
	return fd;
}

/* All of @fd (of @size bytes said, a hint), at most @max, into *@ret: @dir/@rel in
 * messages (@dir may be ""). */
static int read_all(int fd, uint64_t size, const char *dir, const char *rel, size_t max, char **ret,
		    size_t *ret_len, struct bo_err *err)
{
	_cleanup_free_ char *buf = NULL;
	const char *sep = *dir ? "/" : "";
	size_t len = 0, cap;

	/* The size said is a hint: the file may grow while read; the bound holds anyway. */
	cap = (size_t) size + 1;
	buf = malloc(cap + 1);
	if (!buf)
		return bo_err_set(err, ENOMEM, "reading '%s%s%s': out of memory", dir, sep, rel);
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;

			if (max && cap > max)
				return bo_err_set(err, EFBIG,
						  "'%s%s%s' grew past %zu bytes while "
						  "read: refusing it",
						  dir, sep, rel, max);
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb)
				return bo_err_set(err, ENOMEM, "reading '%s%s%s': out of memory",
						  dir, sep, rel);
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return bo_err_set(err, errno, "reading '%s%s%s': %s", dir, sep, rel,
					  strerror(errno));
		}
		if (n == 0)
			break;
		len += (size_t) n;
	}
	if (max && len > max)
		return bo_err_set(err, EFBIG,
				  "'%s%s%s' grew past %zu bytes while read: refusing it", dir, sep,
				  rel, max);
	buf[len] = '\0';
	*ret = BO_TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}

int bo_input_read_fd(int fd, uint64_t size, const char *what, size_t max, char **ret,
		     size_t *ret_len, struct bo_err *err)
{
	return read_all(fd, size, "", what, max, ret, ret_len, err);
}

int bo_input_read_path(const char *path, unsigned flags, size_t max, char **ret, size_t *ret_len,
		       struct bo_err *err)
{
	uint64_t size;
	_cleanup_close_ int fd = bo_input_open_path(path, flags, max, &size, err);

	if (fd < 0)
		return fd;
	return read_all(fd, size, "", path, max, ret, ret_len, err);
}

int bo_input_read(const char *dir, const char *rel, size_t max, char **ret, size_t *ret_len,
		  struct bo_err *err)
{
	uint64_t size;
	_cleanup_close_ int fd = bo_input_open(dir, rel, 0, max, &size, err);

	if (fd < 0)
		return fd;
	return read_all(fd, size, dir, rel, max, ret, ret_len, err);
}

/*
 * fgets() reads a piece of a line as fast as getline() does, but says nothing of how much it
 * read when the line holds a NUL. So the piece's room is filled with newlines first: fgets()
 * writes what it read, at most one newline (the last byte), and a NUL after it; the room's
 * newlines after that NUL are the ones put there, and the last NUL before them ends the piece.
 */
ssize_t bo_input_read_line(FILE *f, size_t max, char **buf, size_t *cap)
{
	size_t len = 0, piece = 256;

	if (max > SSIZE_MAX - 2)
		max = SSIZE_MAX - 2;
	for (;;) {
		size_t room = piece + 1, k;
		char *p;

		/* At most @max + 1 bytes: one past @max says the line is too long. */
		if (room > max + 2 - len)
			room = max + 2 - len;
		if (*cap < len + room) {
			char *nb = realloc(*buf, len + room);

			if (!nb)
				return -ENOMEM;
			*buf = nb;
			*cap = len + room;
		}
		p = *buf + len;
		memset(p, '\n', room);
		errno = 0;
		if (!fgets(p, (int) room, f)) {
			if (ferror(f))
				return -(errno ? errno : EIO);
			break;
		}
		for (k = room - 1; p[k] == '\n'; k--)
			;
		len += k;
		if (p[k - 1] == '\n')
			break;
		if (len > max)
			return -E2BIG;
		if (piece < (1u << 20))
			piece *= 2;
	}
	/* At the end of the file, the piece fgets() read nothing into is newlines still. */
	if (*buf)
		(*buf)[len] = '\0';
	return (ssize_t) len;
}

/* @b bytes as people read them. */
static void human(uint64_t b, char *buf, size_t len)
{
	if (b >= (1ull << 30))
		snprintf(buf, len, "%.1f GiB", (double) b / (1ull << 30));
	else if (b >= (1ull << 20))
		snprintf(buf, len, "%.1f MiB", (double) b / (1ull << 20));
	else
		snprintf(buf, len, "%" PRIu64 " bytes", b);
}

/* Whether @bytes more fit on the filesystem @sv says, @path and @what in the message. */
static int space_left(const struct statvfs *sv, const char *path, uint64_t bytes, const char *what,
		      struct bo_err *err)
{
	char need[32], have[32];
	uint64_t avail, reserve;

	avail = (uint64_t) sv->f_bavail * sv->f_frsize;
	reserve = (uint64_t) sv->f_blocks * sv->f_frsize / 100;
	if (reserve < (64ull << 20))
		reserve = 64ull << 20;
	if (bytes <= avail && avail - bytes >= reserve)
		return 0;
	human(bytes, need, sizeof(need));
	human(avail, have, sizeof(have));
	return bo_err_set(err, ENOSPC,
			  "%s would write %s to '%s', which has %s free (and keeps %" PRIu64
			  " MiB for everything else): refusing before a byte is written",
			  what, need, path, have, reserve >> 20);
}

int bo_space_check(const char *path, uint64_t bytes, const char *what, struct bo_err *err)
{
	char dir[PATH_MAX];
	struct statvfs sv;

	if (statvfs(path, &sv) < 0) {
		/* A file not made yet: its directory. */
		const char *slash = strrchr(path, '/');
		size_t len = slash ? (size_t) (slash - path) : 0;

		if (len >= sizeof(dir))
			return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", path);
		if (slash && len == 0)
			len = 1;
		if (len)
			memcpy(dir, path, len);
		else
			dir[len++] = '.';
		dir[len] = '\0';
		if (statvfs(dir, &sv) < 0)
			return bo_err_set(err, errno, "%s: free space of '%s': %s", what, dir,
					  strerror(errno));
	}
	return space_left(&sv, path, bytes, what, err);
}

int bo_space_check_fd(int fd, const char *path, uint64_t bytes, const char *what,
		      struct bo_err *err)
{
	struct statvfs sv;

	if (fstatvfs(fd, &sv) < 0)
		return bo_err_set(err, errno, "%s: free space of '%s': %s", what, path,
				  strerror(errno));
	return space_left(&sv, path, bytes, what, err);
}
