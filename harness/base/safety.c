// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/base/safety.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/macro.h"

bool bo_runid_valid(const char *id)
{
	size_t n = id ? strlen(id) : 0;

	if (n == 0 || n > BO_RUNID_MAX || id[0] == '.' || id[0] == '-')
		return false;
	return strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

void bo_runid_make(uint64_t seed, char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	uint32_t nonce = 0;
	char when[32];

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	if (getrandom(&nonce, sizeof(nonce), 0) != sizeof(nonce))
		nonce = (uint32_t) getpid() ^ (uint32_t) t;
	snprintf(buf, len, "%s-%" PRIu64 "-%06x", when, seed, nonce & 0xffffff);
}

/* Read sysfs attribute @attr of block device @rdev into @buf, without its trailing newline.
 * false when it does not exist. */
static bool sysfs_attr(dev_t rdev, const char *attr, char *buf, size_t len)
{
	char path[128];
	_cleanup_close_ int fd = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s", major(rdev), minor(rdev), attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	if (n < 0)
		return false;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return true;
}

/* The kernel's name of @rdev ("vda", "loop3", "dm-1"), or "M:m". */
static void dev_name(dev_t rdev, char *buf, size_t len)
{
	char path[128], target[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		const char *base;

		target[n] = '\0';
		base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
		if (snprintf(buf, len, "%s", base) < (int) len)
			return;
	}
	snprintf(buf, len, "%u:%u", major(rdev), minor(rdev));
}

/* Does @s start with @prefix followed by @runid and '-' (or by any valid id when NULL)? */
static bool has_run_prefix(const char *s, const char *prefix, const char *runid)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n))
		return false;
	s += n;
	if (runid)
		return !strncmp(s, runid, strlen(runid)) && s[strlen(runid)] == '-';
	return *s && *s != '-';
}

/* Is @file inside the work directory of run @runid (of any run when NULL)? */
static bool in_workdir(const char *file, const char *runid)
{
	const char *id = file + strlen(BO_WORKDIR_PREFIX), *slash;
	char buf[BO_RUNID_MAX + 1];

	if (strncmp(file, BO_WORKDIR_PREFIX, strlen(BO_WORKDIR_PREFIX)))
		return false;
	slash = strchr(id, '/');
	if (!slash || slash == id || (size_t) (slash - id) > BO_RUNID_MAX || !slash[1])
		return false;
	memcpy(buf, id, (size_t) (slash - id));
	buf[slash - id] = '\0';
	/* The kernel gives the path as d_path() made it: absolute, no "." or "..". */
	return bo_runid_valid(buf) && (!runid || !strcmp(buf, runid)) && !strstr(slash, "/../");
}

bool bo_own_blockdev(dev_t rdev, const char *runid, char *why, size_t len)
{
	char uuid[160], name[160], file[4096], kname[64];
	const char *del;

	dev_name(rdev, kname, sizeof(kname));
	if (sysfs_attr(rdev, "dm/uuid", uuid, sizeof(uuid))) {
		if (!sysfs_attr(rdev, "dm/name", name, sizeof(name)))
			name[0] = '\0';
		if (has_run_prefix(uuid, "BLACKOUT-", runid) &&
		    has_run_prefix(name, "blackout-", runid))
			return true;
		snprintf(why, len, "%s is dm device '%s' (uuid '%s'), not one %s made", kname, name,
			 uuid, runid ? "this run" : "blackout");
		return false;
	}
	if (sysfs_attr(rdev, "loop/backing_file", file, sizeof(file))) {
		del = strstr(file, " (deleted)");
		if (del && !del[10])
			file[del - file] = '\0';
		if (in_workdir(file, runid))
			return true;
		snprintf(why, len, "%s is a loop device over '%s', which is outside %s", kname,
			 file, runid ? "this run's work directory" : "every run's work directory");
		return false;
	}
	snprintf(why, len, "%s is neither a dm device nor a loop device that blackout made", kname);
	return false;
}

static int check_stat(const struct stat *st, const char *path, struct bo_err *err)
{
	char why[512];

	if (S_ISREG(st->st_mode))
		return 0;
	if (!S_ISBLK(st->st_mode))
		return bo_err_set(err, EPERM,
				  "'%s' is not a regular file or a block device: refusing to "
				  "write to it",
				  path);
	if (bo_own_blockdev(st->st_rdev, NULL, why, sizeof(why)))
		return 0;
	return bo_err_set(err, EPERM,
			  "refusing to write to '%s': blackout writes only to block devices it "
			  "created (%s); replay onto a file instead",
			  path, why);
}

int bo_own_check_target(const char *path, struct bo_err *err)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0
				       : bo_err_set(err, errno, "'%s': %s", path, strerror(errno));
	return check_stat(&st, path, err);
}

int bo_own_check_fd(int fd, const char *path, struct bo_err *err)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return bo_err_set(err, errno, "'%s': %s", path, strerror(errno));
	return check_stat(&st, path, err);
}

int bo_own_dm_allowed(const char *cmd, bool inside_vm, bool allow_host, struct bo_err *err)
{
	if (inside_vm || allow_host)
		return 0;
	return bo_err_set(err, EPERM,
			  "%s creates dm devices and loop devices: it runs inside the VM blackout "
			  "boots (blackout run, check or vm run); on this machine only with "
			  "--allow-host, and then it still touches only devices it creates",
			  cmd);
}

static volatile sig_atomic_t stop_signal;

void bo_stop_request(int signo)
{
	stop_signal = signo ? signo : -1;
}

bool bo_stop_requested(void)
{
	return stop_signal != 0;
}

int bo_stop_signal(void)
{
	return stop_signal > 0 ? stop_signal : 0;
}

void bo_stop_install(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa = {.sa_handler = bo_stop_request};

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < BO_ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

int bo_stop_error(struct bo_err *err, const char *what)
{
	int s = bo_stop_signal();

	return bo_err_set(err, EINTR, "stopped by %s while %s", s ? strsignal(s) : "request", what);
}

int bo_test_stall(const char *point, struct bo_err *err)
{
	const char *want = getenv("BLACKOUT_TEST_STALL");
	struct timespec ts = {.tv_nsec = 50 * 1000 * 1000};

	if (!want || strcmp(want, point))
		return 0;
	fprintf(stderr, "blackout: stalled at %s (pid %d)\n", point, (int) getpid());
	fflush(stderr);
	while (!bo_stop_requested())
		nanosleep(&ts, NULL);
	return bo_stop_error(err, point);
}
