// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmutil.c — whole-file I/O, helper programs, the cache directory and its locks.
 */
#include "harness/base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/cleanup.h"

extern char **environ;

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

int bo_run_capture(char *const argv[], size_t max, char **ret, size_t *ret_len)
{
	posix_spawn_file_actions_t fa;
	_cleanup_close_ int rd = -1;
	int pipefd[2], status, r;
	char *out = NULL;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	rd = pipefd[0];
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r)
		return -r;
	r = read_fd(rd, max, &out, ret_len);
	if (r < 0)
		(void) kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return free(out), -errno;
	if (r < 0)
		return r;
	*ret = out;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int bo_cache_dir(const char *sub, bool create, char *buf, size_t len, struct bo_err *err)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n, r;

	if (xdg && *xdg)
		n = snprintf(buf, len, "%s/blackout/%s", xdg, sub);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/blackout/%s", home, sub);
	else
		return bo_err_set(err, ENOENT,
				  "no cache directory: neither XDG_CACHE_HOME nor "
				  "HOME is set");
	if (n < 0 || (size_t) n >= len)
		return bo_err_set(err, ENAMETOOLONG, "cache directory path is too long");
	if (create && (r = bo_mkdir_p(buf)) < 0)
		return bo_err_set(err, -r, "create cache directory '%s': %s", buf, strerror(-r));
	return 0;
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

int bo_pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t) n >= len ? -ENAMETOOLONG : 0;
}

double bo_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}
