// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/fstool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/cleanup.h"

extern char **environ;

/* How long a child killed with SIGKILL gets to disappear before it is given up on. */
#define KILL_GRACE_MS 5000
/* Version queries are quick; this only guards against a hanging tool. */
#define VERSION_TIMEOUT_MS 10000
/* Bytes of a failed tool's output quoted in an error message. */
#define TAIL_BYTES 200

static const struct {
	const char *name;
	const char *mkfs;
	const char *mkfs_args[3];
	const char *fsck;
	const char *fsck_args[3];
	const char *mkfs_version[3];
	const char *fsck_version[3];
} tools[] = {
	[BO_FS_EXT4] = {"ext4",
			"mkfs.ext4",
			{"-F", "-q"},
			"e2fsck",
			{"-fn"},
			{"mkfs.ext4", "-V"},
			{"e2fsck", "-V"}},
	[BO_FS_XFS] = {"xfs",
		       "mkfs.xfs",
		       {"-f", "-q"},
		       "xfs_repair",
		       {"-n"},
		       {"mkfs.xfs", "-V"},
		       {"xfs_repair", "-V"}},
	[BO_FS_BTRFS] = {"btrfs",
			 "mkfs.btrfs",
			 {"-f", "-q"},
			 "btrfs",
			 {"check", "--readonly"},
			 {"mkfs.btrfs", "--version"},
			 {"btrfs", "--version"}},
};

const char *bo_fs_name(enum bo_fs fs)
{
	return (unsigned) fs < BO_ARRAY_SIZE(tools) ? tools[fs].name : "?";
}

int bo_fs_from_name(const char *name, enum bo_fs *ret)
{
	for (size_t i = 0; i < BO_ARRAY_SIZE(tools); i++)
		if (!strcmp(name, tools[i].name)) {
			*ret = (enum bo_fs) i;
			return 0;
		}
	return -EINVAL;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000 + (uint64_t) ts.tv_nsec / 1000000;
}

void bo_tool_result_clear(struct bo_tool_result *r)
{
	if (!r)
		return;
	free(r->output);
	*r = (struct bo_tool_result){0};
}

/* Keep @n bytes of output in @r (up to the cap) and write them all to @file_fd (if >= 0). */
static int take_output(struct bo_tool_result *r, const char *buf, size_t n, int file_fd)
{
	size_t keep = n;

	for (size_t done = 0; file_fd >= 0 && done < n;) {
		ssize_t w = write(file_fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		done += (size_t) w;
	}
	if (r->output_len + keep > BO_TOOL_OUTPUT_MAX) {
		keep = BO_TOOL_OUTPUT_MAX - r->output_len;
		r->output_truncated = true;
	}
	if (keep) {
		char *grown = realloc(r->output, r->output_len + keep + 1);

		if (!grown)
			return -ENOMEM;
		r->output = grown;
		memcpy(r->output + r->output_len, buf, keep);
		r->output_len += keep;
		r->output[r->output_len] = '\0';
	}
	return 0;
}

/* Read what the pipe has; returns 1 at end of file, 0 when it would block, -errno. */
static int drain(int fd, struct bo_tool_result *r, int file_fd)
{
	char buf[4096];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		int t;

		if (n == 0)
			return 1;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? 0 : -errno;
		t = take_output(r, buf, (size_t) n, file_fd);
		if (t < 0)
			return t;
	}
}

static void status_to_result(int status, struct bo_tool_result *r)
{
	if (WIFEXITED(status)) {
		r->exited = true;
		r->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		r->term_signal = WTERMSIG(status);
	}
}

/* Wait up to @ms for the child behind @pidfd to exit; 1 if it did, 0 if not, -errno. */
static int wait_pidfd(int pidfd, int pipe_fd, bool *pipe_open, struct bo_tool_result *r,
		      int file_fd, uint64_t deadline)
{
	for (;;) {
		struct pollfd p[2] = {{.fd = pidfd, .events = POLLIN},
				      {.fd = *pipe_open ? pipe_fd : -1, .events = POLLIN}};
		uint64_t now = now_ms();
		int n, d;

		if (now >= deadline)
			return 0;
		n = poll(p, 2, (int) (deadline - now > INT32_MAX ? INT32_MAX : deadline - now));
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0)
			continue;
		if (p[1].revents) {
			d = drain(pipe_fd, r, file_fd);
			if (d < 0)
				return d;
			if (d == 1)
				*pipe_open = false;
		}
		if (p[0].revents)
			return 1;
	}
}

static int spawn(const char *const argv[], int out_fd, pid_t *ret_pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, all;
	int r;

	sigemptyset(&none);
	sigfillset(&all);
	if (posix_spawn_file_actions_init(&fa))
		return -ENOMEM;
	if (posix_spawnattr_init(&attr)) {
		posix_spawn_file_actions_destroy(&fa);
		return -ENOMEM;
	}
	/* Its own process group, so a timeout kills whatever it started too; default signal
	 * dispositions and an empty mask, whatever the harness set up for itself. */
	r = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!r)
		r = posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (!r)
		r = posix_spawn_file_actions_adddup2(&fa, out_fd, 2);
	if (!r)
		r = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
							    POSIX_SPAWN_SETSIGDEF);
	if (!r)
		r = posix_spawnattr_setpgroup(&attr, 0);
	if (!r)
		r = posix_spawnattr_setsigmask(&attr, &none);
	if (!r)
		r = posix_spawnattr_setsigdefault(&attr, &all);
	if (!r)
		r = posix_spawnp(ret_pid, argv[0], &fa, &attr, (char *const *) argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return -r;
}

static void free_output(struct bo_tool_result *r)
{
	free(r->output);
	r->output = NULL;
}

int bo_tool_run(const char *const argv[], unsigned timeout_ms, const char *out_path,
		struct bo_tool_result *ret, struct bo_err *err)
{
	_cleanup_close_ int file_fd = -1, pidfd = -1;
	struct bo_tool_result res = {0};
	int pipefd[2] = {-1, -1}, status = 0, r;
	uint64_t start = now_ms();
	bool pipe_open = true;
	pid_t pid;

	if (timeout_ms == 0)
		return bo_err_set(err, EINVAL, "run '%s': a timeout is required", argv[0]);
	if (out_path) {
		file_fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (file_fd < 0)
			return bo_err_set(err, errno, "run '%s': output file '%s': %s", argv[0],
					  out_path, strerror(errno));
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return bo_err_set(err, errno, "run '%s': pipe: %s", argv[0], strerror(errno));
	r = spawn(argv, pipefd[1], &pid);
	(void) close(pipefd[1]);
	if (r < 0) {
		(void) close(pipefd[0]);
		return bo_err_set(err, -r, "run '%s': %s", argv[0], strerror(-r));
	}
	(void) fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
	pidfd = (int) syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		r = -errno;
		(void) kill(-pid, SIGKILL);
		(void) waitpid(pid, NULL, 0);
		(void) close(pipefd[0]);
		return bo_err_set(err, -r, "run '%s': pidfd_open: %s", argv[0], strerror(-r));
	}
	r = wait_pidfd(pidfd, pipefd[0], &pipe_open, &res, file_fd, start + timeout_ms);
	if (r == 0) {
		res.timed_out = true;
		(void) kill(-pid, SIGKILL);
		r = wait_pidfd(pidfd, pipefd[0], &pipe_open, &res, file_fd,
			       now_ms() + KILL_GRACE_MS);
		if (r == 0) {
			(void) close(pipefd[0]);
			free_output(&res);
			return bo_err_set(err, ETIMEDOUT,
					  "run '%s': killed after %u ms, but it did not die (stuck "
					  "in the kernel?)",
					  argv[0], timeout_ms);
		}
	}
	if (r < 0) {
		(void) kill(-pid, SIGKILL);
		(void) waitpid(pid, NULL, 0);
		(void) close(pipefd[0]);
		free_output(&res);
		return bo_err_set(err, -r, "run '%s': waiting for it: %s", argv[0], strerror(-r));
	}
	if (waitpid(pid, &status, 0) < 0) {
		r = -errno;
		(void) close(pipefd[0]);
		free_output(&res);
		return bo_err_set(err, -r, "run '%s': waitpid: %s", argv[0], strerror(-r));
	}
	/* Whatever the child wrote before it exited; a grandchild may keep the pipe open, so
	 * read only what is there. */
	if (pipe_open)
		(void) drain(pipefd[0], &res, file_fd);
	(void) close(pipefd[0]);
	status_to_result(status, &res);
	res.elapsed_ms = now_ms() - start;
	if (!res.output) {
		res.output = calloc(1, 1);
		if (!res.output)
			return bo_err_set(err, ENOMEM, "run '%s': out of memory", argv[0]);
	}
	bo_debug(BO_DBG_MOUNT, "ran '%s': %s %d after %llu ms%s", argv[0],
		 res.exited ? "exit" : "signal", res.exited ? res.exit_code : res.term_signal,
		 (unsigned long long) res.elapsed_ms, res.timed_out ? " (timed out)" : "");
	*ret = res;
	return 0;
}

/* Append @extra (NULL-terminated, may be NULL) to @argv at *@n, keeping room for two more. */
static int append(const char **argv, size_t *n, const char *const *extra)
{
	for (; extra && *extra; extra++) {
		if (*n + 2 >= BO_TOOL_ARGV_MAX)
			return -E2BIG;
		argv[(*n)++] = *extra;
	}
	return 0;
}

int bo_mkfs_argv(enum bo_fs fs, const char *dev, const char *const *opts, const char **argv,
		 struct bo_err *err)
{
	size_t n = 0;

	if ((unsigned) fs >= BO_ARRAY_SIZE(tools))
		return bo_err_set(err, EINVAL, "mkfs: unknown filesystem %d", (int) fs);
	argv[n++] = tools[fs].mkfs;
	if (append(argv, &n, tools[fs].mkfs_args) < 0 || append(argv, &n, opts) < 0)
		return bo_err_set(err, E2BIG, "mkfs.%s '%s': more than %d arguments",
				  tools[fs].name, dev, BO_TOOL_ARGV_MAX);
	argv[n++] = dev;
	argv[n] = NULL;
	return 0;
}

int bo_fsck_argv(enum bo_fs fs, const char *dev, const char **argv, struct bo_err *err)
{
	size_t n = 0;

	if ((unsigned) fs >= BO_ARRAY_SIZE(tools))
		return bo_err_set(err, EINVAL, "fsck: unknown filesystem %d", (int) fs);
	argv[n++] = tools[fs].fsck;
	(void) append(argv, &n, tools[fs].fsck_args);
	argv[n++] = dev;
	argv[n] = NULL;
	return 0;
}

/* The end of @r's output (at most TAIL_BYTES) on one line, into @buf, for error messages. */
static const char *tail(const struct bo_tool_result *r, char *buf, size_t len)
{
	const char *s = r->output ? r->output : "";
	size_t n = 0;

	if (r->output_len > TAIL_BYTES)
		s = r->output + r->output_len - TAIL_BYTES;
	for (; *s && n + 3 < len; s++) {
		if (*s != '\n') {
			buf[n++] = *s;
		} else if (n && s[1]) {
			buf[n++] = ';';
			buf[n++] = ' ';
		}
	}
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == ';'))
		n--;
	buf[n] = '\0';
	return n ? buf : "(no output)";
}

/* Describe how @r ended into @buf, for error messages. */
static const char *ending(const struct bo_tool_result *r, char *buf, size_t len)
{
	if (r->timed_out)
		snprintf(buf, len, "timed out and was killed");
	else if (!r->exited)
		snprintf(buf, len, "was killed by signal %d", r->term_signal);
	else
		snprintf(buf, len, "exited with %d", r->exit_code);
	return buf;
}

int bo_mkfs(enum bo_fs fs, const char *dev, const char *const *opts, unsigned timeout_ms,
	    struct bo_tool_result *ret, struct bo_err *err)
{
	const char *argv[BO_TOOL_ARGV_MAX];
	struct bo_tool_result res = {0};
	char how[64], out[TAIL_BYTES + 8];
	int r;

	r = bo_mkfs_argv(fs, dev, opts, argv, err);
	if (r < 0)
		return r;
	r = bo_tool_run(argv, timeout_ms, NULL, &res, err);
	if (r < 0)
		return bo_err_prefix(err, "mkfs %s on '%s'", tools[fs].name, dev);
	if (res.exited && res.exit_code == 0)
		r = 0;
	else
		r = bo_err_set(err, res.timed_out ? ETIMEDOUT : EIO, "mkfs %s on '%s': %s %s: %s",
			       tools[fs].name, dev, argv[0], ending(&res, how, sizeof(how)),
			       tail(&res, out, sizeof(out)));
	if (ret)
		*ret = res;
	else
		bo_tool_result_clear(&res);
	return r;
}

enum bo_fsck_verdict bo_fsck_interpret(enum bo_fs fs, const struct bo_tool_result *r,
				       const char **why)
{
	const char *dummy;
	int c = r->exit_code;

	if (!why)
		why = &dummy;
	if (r->timed_out) {
		*why = "timed out";
		return BO_FSCK_TOOL_ERROR;
	}
	if (!r->exited) {
		*why = "killed by a signal";
		return BO_FSCK_TOOL_ERROR;
	}
	if (c == 0) {
		*why = "no errors";
		return BO_FSCK_CLEAN;
	}
	switch (fs) {
	case BO_FS_EXT4:
		/* e2fsck(8): the codes are bits; 8 and up mean the check itself failed. */
		if (c & ~7) {
			*why = c & 8	 ? "e2fsck operational error"
			       : c & 16	 ? "e2fsck usage error"
			       : c & 32	 ? "e2fsck cancelled"
			       : c & 128 ? "e2fsck shared library error"
					 : "e2fsck exit code not in e2fsck(8)";
			return BO_FSCK_TOOL_ERROR;
		}
		*why = c & 4 ? "e2fsck: errors left uncorrected" : "e2fsck: errors found";
		return BO_FSCK_DIRTY;
	case BO_FS_XFS:
		/* xfs_repair(8): with -n, 1 means corruption was detected. 2 (a log that needs
		 * replaying) means the check ran on an unrecovered filesystem: no verdict. */
		if (c == 1) {
			*why = "xfs_repair -n: corruption detected";
			return BO_FSCK_DIRTY;
		}
		*why = c == 2 ? "xfs_repair: the log needs replaying first"
			      : "xfs_repair exit code not in xfs_repair(8)";
		return BO_FSCK_TOOL_ERROR;
	case BO_FS_BTRFS:
		/* btrfs-check(8): non-zero when errors are found. 126/127 are what a shell or
		 * wrapper returns when it could not execute the program at all. */
		if (c == 126 || c == 127) {
			*why = "btrfs could not be executed";
			return BO_FSCK_TOOL_ERROR;
		}
		*why = "btrfs check: errors found";
		return BO_FSCK_DIRTY;
	}
	*why = "unknown filesystem";
	return BO_FSCK_TOOL_ERROR;
}

const char *bo_fsck_verdict_name(enum bo_fsck_verdict v)
{
	switch (v) {
	case BO_FSCK_CLEAN:
		return "clean";
	case BO_FSCK_DIRTY:
		return "dirty";
	case BO_FSCK_TOOL_ERROR:
		break;
	}
	return "tool-error";
}

int bo_fsck(enum bo_fs fs, const char *dev, unsigned timeout_ms, const char *out_path,
	    enum bo_fsck_verdict *verdict, struct bo_tool_result *ret, struct bo_err *err)
{
	const char *argv[BO_TOOL_ARGV_MAX], *why;
	struct bo_tool_result res = {0};
	char how[64], out[TAIL_BYTES + 8];
	int fd, r;

	*verdict = BO_FSCK_TOOL_ERROR;
	r = bo_fsck_argv(fs, dev, argv, err);
	if (r < 0)
		return r;
	/* The checkers report "cannot open" and "mounted" through the same exit codes as
	 * damage, so make sure neither is the case. O_EXCL on a block device fails with EBUSY
	 * while it is mounted or otherwise claimed. */
	fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return bo_err_set(err, errno, "fsck %s on '%s': cannot open it exclusively: %s",
				  tools[fs].name, dev, strerror(errno));
	(void) close(fd);
	r = bo_tool_run(argv, timeout_ms, out_path, &res, err);
	if (r < 0)
		return bo_err_prefix(err, "fsck %s on '%s'", tools[fs].name, dev);
	*verdict = bo_fsck_interpret(fs, &res, &why);
	if (*verdict == BO_FSCK_TOOL_ERROR)
		r = bo_err_set(err, res.timed_out ? ETIMEDOUT : EIO,
			       "fsck %s on '%s': %s %s (%s), so there is no verdict: %s",
			       tools[fs].name, dev, argv[0], ending(&res, how, sizeof(how)), why,
			       tail(&res, out, sizeof(out)));
	bo_debug(BO_DBG_MOUNT, "fsck %s '%s': %s (%s)", tools[fs].name, dev,
		 bo_fsck_verdict_name(*verdict), why);
	if (ret)
		*ret = res;
	else
		bo_tool_result_clear(&res);
	return r;
}

int bo_fs_tool_version(enum bo_fs fs, enum bo_fs_tool tool, char *buf, size_t len,
		       struct bo_err *err)
{
	const char *const *argv;
	struct bo_tool_result res = {0};
	const char *line;
	size_t n;
	int r;

	if ((unsigned) fs >= BO_ARRAY_SIZE(tools))
		return bo_err_set(err, EINVAL, "tool version: unknown filesystem %d", (int) fs);
	argv = tool == BO_TOOL_MKFS ? tools[fs].mkfs_version : tools[fs].fsck_version;
	r = bo_tool_run(argv, VERSION_TIMEOUT_MS, NULL, &res, err);
	if (r < 0)
		return bo_err_prefix(err, "version of %s", argv[0]);
	if (!res.exited || res.exit_code != 0) {
		char how[64];

		r = bo_err_set(err, EIO, "version of %s: '%s %s' %s", argv[0], argv[0], argv[1],
			       ending(&res, how, sizeof(how)));
		bo_tool_result_clear(&res);
		return r;
	}
	line = res.output + strspn(res.output, " \t\n");
	n = strcspn(line, "\n");
	if (n == 0)
		r = bo_err_set(err, EIO, "version of %s: no output", argv[0]);
	else
		snprintf(buf, len, "%.*s", (int) n, line);
	bo_tool_result_clear(&res);
	return r;
}
