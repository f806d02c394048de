// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * share.c — validate and read the results share without following the guest's symlinks.
 */
#include "vm/share.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness/base/macro.h"

/* Deeper trees than this are not results but an attack on the walker's stack. */
#define MAX_DEPTH 64

static int walk(int dfd, const char *rel, unsigned depth, bool remove, struct bo_share_report *rep,
		struct bo_err *err)
{
	DIR *d;
	struct dirent *de;
	int r = 0;

	if (depth > MAX_DEPTH)
		return bo_err_set(err, ELOOP, "results: '%s' is nested too deep", rel);
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return bo_err_set(err, errno, "results: read '%s': %m", rel);
	}
	rep->dirs++;
	while (r >= 0 && (errno = 0, de = readdir(d))) {
		char path[4096];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			r = bo_err_set(err, errno, "results: stat '%s': %m", path);
			break;
		}
		if (S_ISREG(st.st_mode)) {
			rep->files++;
			rep->bytes += (uint64_t) st.st_size;
		} else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub < 0)
				r = bo_err_set(err, errno, "results: open '%s': %m", path);
			else
				r = walk(sub, path, depth + 1, remove, rep, err);
		} else {
			bo_debug(BO_DBG_VM, "results: '%s' is not a file or directory%s", path,
				 remove ? ": removed" : "");
			if (!rep->rejected++) {
				size_t n = strnlen(path, sizeof(rep->first_rejected) - 1);

				memcpy(rep->first_rejected, path, n);
				rep->first_rejected[n] = '\0';
			}
			if (remove && unlinkat(dirfd(d), de->d_name, 0) < 0)
				r = bo_err_set(err, errno, "results: remove '%s': %m", path);
		}
	}
	if (r >= 0 && errno)
		r = bo_err_set(err, errno, "results: read '%s': %m", rel);
	closedir(d);
	return r;
}

int bo_share_check(const char *dir, bool remove, struct bo_share_report *ret, struct bo_err *err)
{
	struct bo_share_report rep = {0};
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int r;

	if (fd < 0)
		return bo_err_set(err, errno, "results directory '%s': %m", dir);
	r = walk(fd, "", 0, remove, &rep, err);
	*ret = rep;
	if (r < 0)
		return bo_err_prefix(err, "check '%s'", dir);
	if (rep.rejected && !remove)
		return bo_err_set(err, ELOOP,
				  "results directory '%s': %zu entries are neither files nor "
				  "directories (first: '%s')",
				  dir, rep.rejected, rep.first_rejected);
	return 0;
}

int bo_share_open(const char *dir, const char *relpath, int flags, struct bo_err *err)
{
	struct open_how how = {
		.flags = (uint64_t) (flags | O_CLOEXEC | O_NOFOLLOW),
		.mode = (flags & O_CREAT) ? 0644 : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd;

	if (dfd < 0)
		return bo_err_set(err, errno, "results directory '%s': %m", dir);
	fd = (int) syscall(SYS_openat2, dfd, relpath, &how, sizeof(how));
	if (fd < 0)
		return bo_err_set(err, errno, "results '%s': open '%s': %m%s", dir, relpath,
				  errno == EXDEV || errno == ELOOP
					  ? " (a symlink or '..' would leave the directory)"
					  : "");
	return fd;
}
