// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file.c — full-length I/O, whole files, copies, directories, the cache and its locks.
 */
#include "harness/base/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"

static int read_fd(int fd, size_t max, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;

	for (;;) {
		ssize_t n;

		if (cap - len < 4096) {
			char *nb;

			cap = cap ? 2 * cap : 8192;
			nb = realloc(buf, cap + 1);
			if (!nb)
				return -ENOMEM;
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t) n;
		if (len > max)
			return -EFBIG;
	}
	if (!buf && !(buf = malloc(1)))
		return -ENOMEM;
	buf[len] = '\0';
	*ret = BO_TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}

ssize_t bo_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *) buf + done, len - done, (off_t) (off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t) n;
	}
	return (ssize_t) done;
}

int bo_pwrite_full(int fd, const void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *) buf + done, len - done, (off_t) (off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		done += (size_t) n;
	}
	return 0;
}

int bo_tmpfile_open(struct bo_tmpfile *t, int dirfd, const char *name)
{
	*t = (struct bo_tmpfile){.dirfd = dirfd, .fd = -1, .name = name};
	/* A name squatted by someone else only costs a draw; 16 taken in a row is no chance. */
	for (int i = 0; i < 16; i++) {
		uint32_t rnd;

		if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd))
			rnd = (uint32_t) (bo_now() * 1e6) + (uint32_t) i;
		if (snprintf(t->tmp, sizeof(t->tmp), "%s.tmp%d.%08x", name, (int) getpid(), rnd) >=
		    (int) sizeof(t->tmp))
			return -ENAMETOOLONG;
		t->fd = openat(dirfd, t->tmp,
			       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
			       0644);
		if (t->fd >= 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int bo_tmpfile_commit(struct bo_tmpfile *t)
{
	int k = close(t->fd) < 0 ? -errno : 0;

	t->fd = -1;
	if (k == 0 && renameat(t->dirfd, t->tmp, t->dirfd, t->name) < 0)
		k = -errno;
	if (k < 0)
		(void) unlinkat(t->dirfd, t->tmp, 0);
	return k;
}

void bo_tmpfile_abort(struct bo_tmpfile *t)
{
	if (t->fd < 0)
		return;
	close(t->fd);
	t->fd = -1;
	(void) unlinkat(t->dirfd, t->tmp, 0);
}

int bo_write_file_at(int dirfd, const char *name, const void *buf, size_t len)
{
	struct bo_tmpfile t;
	int k = bo_tmpfile_open(&t, dirfd, name);

	if (k < 0)
		return k;
	k = bo_pwrite_full(t.fd, buf, len, 0);
	if (k < 0) {
		bo_tmpfile_abort(&t);
		return k;
	}
	return bo_tmpfile_commit(&t);
}

int bo_copy_fd(int in, uint64_t size, const char *src, const char *dst, struct bo_err *err)
{
	_cleanup_close_ int out = -1;
	char buf[1 << 16];
	uint64_t off = 0;
	int r = bo_space_check(dst, size, "copying", err);

	if (r < 0)
		return r;
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (out < 0)
		return bo_err_set(err, errno, "creating '%s': %s", dst, strerror(errno));
	for (;;) {
		ssize_t n = bo_pread_full(in, buf, sizeof(buf), off);

		if (n < 0) {
			r = bo_err_set(err, (int) -n, "reading '%s': %s", src, strerror((int) -n));
			break;
		}
		/* The file may grow while copied: never more than was measured and checked. */
		if (n == 0 || off >= size)
			break;
		if ((uint64_t) n > size - off)
			n = (ssize_t) (size - off);
		r = bo_pwrite_full(out, buf, (size_t) n, off);
		if (r < 0) {
			r = bo_err_set(err, -r, "writing '%s': %s", dst, strerror(-r));
			break;
		}
		off += (uint64_t) n;
	}
	if (r >= 0 && close(BO_TAKE_FD(out)) < 0)
		r = bo_err_set(err, errno, "writing '%s': %s", dst, strerror(errno));
	if (r < 0)
		unlink(dst); /* no half copy left behind */
	return r;
}

int bo_copy_file(const char *src, const char *dst, struct bo_err *err)
{
	uint64_t size;
	_cleanup_close_ int in = bo_input_open_path(src, 0, 0, &size, err);

	if (in < 0)
		return in;
	return bo_copy_fd(in, size, src, dst, err);
}

int bo_read_file(const char *path, size_t max, char **ret, size_t *ret_len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return read_fd(fd, max, ret, ret_len);
}

int bo_mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * A cache directory @path that is missing is empty; one that is, or lies under, something
 * other than a directory (XDG_CACHE_HOME naming a file) is an error naming what is in the
 * way, not an empty cache.
 */
static int cache_dir_kind(const char *path, struct bo_err *err)
{
	char up[PATH_MAX];
	struct stat st;
	char *slash;

	if (stat(path, &st) == 0)
		return S_ISDIR(st.st_mode)
			       ? 0
			       : bo_err_set(err, ENOTDIR, "cache directory '%s': not a directory",
					    path);
	if (errno != ENOTDIR)
		return 0;
	snprintf(up, sizeof(up), "%s", path);
	while ((slash = strrchr(up, '/')) && slash != up) {
		*slash = '\0';
		if (stat(up, &st) == 0 && !S_ISDIR(st.st_mode))
			return bo_err_set(err, ENOTDIR,
					  "cache directory '%s': '%s' is not a directory", path,
					  up);
	}
	return bo_err_set(err, ENOTDIR, "cache directory '%s': not a directory", path);
}

int bo_cache_dir(const char *sub, bool create, char *buf, size_t len, struct bo_err *err)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n, r;

	/* The XDG spec: a relative path in the variable is invalid and ignored. */
	if (xdg && *xdg == '/')
		n = snprintf(buf, len, "%s/blackout/%s", xdg, sub);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/blackout/%s", home, sub);
	else
		return bo_err_set(err, ENOENT,
				  "no cache directory: neither XDG_CACHE_HOME (an absolute "
				  "path) nor HOME is set");
	if (n < 0 || (size_t) n >= len)
		return bo_err_set(err, ENAMETOOLONG, "cache directory path is too long");
	if (create && (r = bo_mkdir_p(buf)) < 0)
		return bo_err_set(err, -r, "create cache directory '%s': %s", buf, strerror(-r));
	return create ? 0 : cache_dir_kind(buf, err);
}

int bo_lock_file(const char *path, struct bo_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return bo_err_set(err, errno, "open lock '%s': %m", path);
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR)
			return bo_err_set(err, errno, "lock '%s': %m", path);
	return BO_TAKE_FD(fd);
}

void bo_cache_touch(const char *path)
{
	(void) utimensat(AT_FDCWD, path, NULL, 0);
}

struct cache_file {
	char *path, *name;
	uint64_t bytes;
	time_t used;
};

static int by_use(const void *a, const void *b)
{
	const struct cache_file *x = a, *y = b;

	return x->used < y->used ? -1 : x->used > y->used;
}

int bo_cache_trim(const char *dir, uint64_t max_bytes, uint64_t older_than, const char *keep,
		  uint64_t *ret_freed, struct bo_err *err)
{
	/* The directory itself is never a symlink (a planted one would have the files it leads
	 * to trimmed), and what is in it is looked at and removed through it, by name. */
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_(bo_closedirp) DIR *d = NULL;
	struct cache_file *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0, freed = 0;
	time_t now = time(NULL);
	struct dirent *de;
	int removed = 0;

	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
		return bo_err_set(err, ENOTDIR,
				  "cache directory '%s' is not a directory (a symlink is not "
				  "followed)",
				  dir);
	if (fd < 0 || !(d = fdopendir(fd)))
		return bo_err_set(err, errno, "cache directory '%s': %s", dir, strerror(errno));
	fd = -1; /* the DIR's now */
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;

		if (de->d_name[0] == '.' ||
		    bo_pathf(path, sizeof(path), "%s/%s", dir, de->d_name) < 0 ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			struct cache_file *nv = reallocarray(v, cap ? 2 * cap : 32, sizeof(*nv));

			if (!nv)
				break;
			v = nv;
			cap = cap ? 2 * cap : 32;
		}
		v[n] = (struct cache_file){.path = strdup(path),
					   .name = strdup(de->d_name),
					   .bytes = (uint64_t) st.st_blocks * 512,
					   .used = st.st_mtim.tv_sec};
		if (!v[n].path || !v[n].name) {
			free(v[n].path);
			free(v[n].name);
			break;
		}
		total += v[n++].bytes;
	}
	if (n)
		qsort(v, n, sizeof(*v), by_use);
	for (size_t i = 0; i < n; i++) {
		/* A use stamped after time(NULL)'s second (the clocks tick apart) is no age: unsigned,
		 * it would be the oldest of all. */
		bool old =
			older_than && now > v[i].used && (uint64_t) (now - v[i].used) > older_than;

		if ((total > max_bytes || old) && !(keep && !strcmp(keep, v[i].path)) &&
		    unlinkat(dirfd(d), v[i].name, 0) == 0) {
			total -= v[i].bytes;
			freed += v[i].bytes;
			removed++;
		}
		free(v[i].path);
		free(v[i].name);
	}
	free(v);
	if (ret_freed)
		*ret_freed = freed;
	return removed;
}

/* Empty the directory @fd (closed here), depth first, never through a symlink. */
static int rm_under(int fd)
{
	_cleanup_(bo_closedirp) DIR *d = fdopendir(fd);
	struct dirent *de;
	int r = 0;

	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			int k = sub < 0 ? -errno : rm_under(sub);

			if (k < 0 && r == 0)
				r = k;
		}
		if (unlinkat(dirfd(d), de->d_name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) < 0 &&
		    r == 0)
			r = -errno;
	}
	return r;
}

DIR *bo_opendirat(int dirfd, const char *rel)
{
	int fd = rel ? openat(dirfd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
		     : fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (fd >= 0 && !d) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return d;
}

int bo_remove_tree_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int r;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	r = rm_under(fd);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && r == 0)
		r = -errno;
	return r;
}

int bo_remove_tree(const char *path)
{
	return bo_remove_tree_at(AT_FDCWD, path);
}
