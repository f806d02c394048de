// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/base/cgroup.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/mounts.h"
#include "harness/base/path.h"
#include "harness/base/sanitize.h"

struct bo_cgroup {
	int dirfd;    /* the group's directory */
	int procs_fd; /* its cgroup.procs, for writing */
	char name[64];
};

/* Where groups are made: found once per process. */
static struct {
	pthread_once_t once;
	int parentfd;		  /* the directory groups are made in, or -1 */
	char why[PATH_MAX + 128]; /* why there is none */
	atomic_bool refused;	  /* a mkdir there was refused: none from then on */
	atomic_uint next;	  /* the number of the next group */
} where = {.once = PTHREAD_ONCE_INIT, .parentfd = -1};

/*
 * Groups the command that ran in them left empty, kept for the next command: making and
 * removing a group costs ~10 ms under TCG, and a state runs two commands. Only a group as
 * new is kept (nothing in it, nothing beneath it, no controller, not frozen, a domain); the
 * pool is removed when this process exits (a blackout killed with -9 leaves its groups to the
 * next one's sweep_stale()).
 */
enum { POOL_MAX = 16 };
static struct {
	pthread_mutex_t lock;
	struct bo_cgroup *v[POOL_MAX];
	size_t n;
	pid_t owner; /* the process the groups are this one's: not a forked child */
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void destroy(struct bo_cgroup *cg);

/* A fork()ed child starts with no group kept: those in its copy of the pool are its parent's,
 * whose next command may run in one (the lock is held across the fork, so the copy is whole
 * and unlocked). vfork() runs none of this, and its child execs. */
static void pool_lock(void)
{
	pthread_mutex_lock(&pool.lock);
}

static void pool_unlock(void)
{
	pthread_mutex_unlock(&pool.lock);
}

static void pool_forget(void)
{
	pool.n = 0;
	pool.owner = getpid();
	pthread_mutex_unlock(&pool.lock);
}

static void drain_pool(void)
{
	if (getpid() != pool.owner)
		return;
	pthread_mutex_lock(&pool.lock);
	while (pool.n)
		destroy(pool.v[--pool.n]);
	pthread_mutex_unlock(&pool.lock);
}

static int find_cgroup2(const struct bo_mount_entry *m, void *ctx)
{
	char *mnt = ctx;

	if (!m->fstype || strcmp(m->fstype, "cgroup2"))
		return 0;
	snprintf(mnt, PATH_MAX, "%s", m->target);
	return 1;
}

/* This process's own group, as /proc/self/cgroup names it ("0::/PATH"), into @buf; "" when
 * it says none. */
static void own_group(char *buf, size_t len)
{
	_cleanup_free_ char *text = NULL;

	buf[0] = '\0';
	if (bo_read_file("/proc/self/cgroup", 1u << 16, &text, NULL) < 0)
		return;
	for (char *line = text; line && *line;) {
		char *end = strchr(line, '\n');

		if (end)
			*end = '\0';
		if (!strncmp(line, "0::/", 4)) {
			snprintf(buf, len, "%s", line + 3);
			return;
		}
		line = end ? end + 1 : NULL;
	}
}

/* Remove the groups beneath @dirfd (a blackout the command ran made its own there, and may
 * have been killed before it removed them), deepest first; at most @depth levels. */
static void remove_below(int dirfd, int depth)
{
	_cleanup_(bo_closedirp) DIR *d = bo_opendirat(dirfd, NULL);
	struct dirent *de;

	/* The directory is read through a copy of @dirfd, which shares its offset: from the
	 * start, whatever an earlier reading left. */
	if (d)
		rewinddir(d);
	while (d && (de = readdir(d))) {
		int sub;

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		sub = openat(dirfd, de->d_name, O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0 && depth > 0)
			remove_below(sub, depth - 1);
		if (sub >= 0)
			close(sub);
		(void) !unlinkat(dirfd, de->d_name, AT_REMOVEDIR);
	}
}

/* The groups a blackout killed with -9 left beside ours, emptied since: removed (a group that
 * still holds a process, or whose blackout still runs, stays). */
static void sweep_stale(int parentfd)
{
	_cleanup_(bo_closedirp) DIR *d = bo_opendirat(parentfd, NULL);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		int pid, fd;
		unsigned n;
		char end;

		if (de->d_type != DT_DIR ||
		    sscanf(de->d_name, "blackout-%d-%u%c", &pid, &n, &end) != 2 || pid <= 0 ||
		    kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		/* What its commands made beneath it first: a group with groups in it stays. */
		fd = openat(parentfd, de->d_name, O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			remove_below(fd, 16);
			close(fd);
		}
		if (unlinkat(parentfd, de->d_name, AT_REMOVEDIR) == 0)
			bo_debug(BO_DBG_RUN, "removed the stale cgroup '%s'", de->d_name);
	}
}

static void find_parent(void)
{
	char mnt[PATH_MAX] = "", own[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	struct bo_err err = {0};
	int r = bo_mounts_each(find_cgroup2, mnt, &err);

	if (r < 0) {
		snprintf(where.why, sizeof(where.why), "%s", bo_err_str(&err));
		return;
	}
	if (!mnt[0]) {
		snprintf(where.why, sizeof(where.why), "no cgroup v2 hierarchy is mounted");
		return;
	}
	/* In this process's own group, which is where a service manager expects its processes'
	 * groups; should the path not lead there (a namespace, a bind mount of a subtree), the
	 * hierarchy's root will do: a group anywhere keeps a command together. */
	own_group(own, sizeof(own));
	if (!own[0] || bo_pathf(dir, sizeof(dir), "%s%s", mnt, own) < 0 || stat(dir, &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		snprintf(dir, sizeof(dir), "%s", mnt);
	where.parentfd = open(dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (where.parentfd < 0) {
		snprintf(where.why, sizeof(where.why), "opening '%s': %s", dir, strerror(errno));
		return;
	}
	sweep_stale(where.parentfd);
	pool.owner = getpid();
	atexit(drain_pool);
	pthread_atfork(pool_lock, pool_unlock, pool_forget);
}

int bo_cgroup_new(struct bo_cgroup **ret, struct bo_err *err)
{
	_cleanup_free_ struct bo_cgroup *cg = NULL;
	int e;

	pthread_once(&where.once, find_parent);
	if (where.parentfd < 0 || atomic_load(&where.refused))
		return bo_err_set(err, EOPNOTSUPP, "no cgroup for a command: %s", where.why);
	pthread_mutex_lock(&pool.lock);
	if (pool.n)
		cg = pool.v[--pool.n];
	pthread_mutex_unlock(&pool.lock);
	if (cg) {
		*ret = BO_TAKE_PTR(cg);
		return 0;
	}
	cg = calloc(1, sizeof(*cg));
	if (!cg)
		return bo_err_set(err, ENOMEM, "a cgroup for a command: out of memory");
	cg->dirfd = cg->procs_fd = -1;
	snprintf(cg->name, sizeof(cg->name), "blackout-%d-%u", (int) getpid(),
		 atomic_fetch_add(&where.next, 1));
	if (mkdirat(where.parentfd, cg->name, 0755) < 0) {
		e = errno;
		if (e == EACCES || e == EPERM || e == EROFS) {
			snprintf(where.why, sizeof(where.why), "making a group: %s", strerror(e));
			atomic_store(&where.refused, true);
			return bo_err_set(err, EOPNOTSUPP, "no cgroup for a command: %s",
					  where.why);
		}
		return bo_err_set(err, e, "making cgroup '%s': %s", cg->name, strerror(e));
	}
	cg->dirfd = openat(where.parentfd, cg->name, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (cg->dirfd >= 0)
		cg->procs_fd = openat(cg->dirfd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
	if (cg->procs_fd < 0) {
		e = errno;
		bo_cgroup_free(BO_TAKE_PTR(cg));
		return bo_err_set(err, e, "opening a new cgroup's cgroup.procs: %s", strerror(e));
	}
	*ret = BO_TAKE_PTR(cg);
	return 0;
}

int bo_cgroup_procs_fd(const struct bo_cgroup *cg)
{
	return cg->procs_fd;
}

/* Whether the group is populated (cgroup.events, read on @fd from its start): 1, 0, -errno. */
static int populated(int fd)
{
	char buf[256], *p;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	p = strstr(buf, "populated ");
	return p ? p[10] == '1' : -EIO;
}

/* The pids in the group now, at most @max, into @pids; their number, or -errno. */
static int list_pids(const struct bo_cgroup *cg, pid_t *pids, int max, unsigned *ret_all)
{
	_cleanup_close_ int fd = openat(cg->dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	_cleanup_fclose_ FILE *f = NULL;
	unsigned all = 0;
	int n = 0;
	long pid;

	if (fd < 0)
		return -errno;
	f = fdopen(BO_TAKE_FD(fd), "r");
	if (!f)
		return -errno;
	while (fscanf(f, "%ld", &pid) == 1) {
		if (n < max)
			pids[n++] = (pid_t) pid;
		all++;
	}
	*ret_all = all;
	return n;
}

/* "NAME (pid N)" for @pid appended to @buf: its command line (as it shows itself: a daemon
 * may rename itself, "postgres: checkpointer"), cut short and made safe to print. */
static void describe(pid_t pid, char *buf, size_t len)
{
	char path[64], cmd[72] = "";
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *safe = NULL;
	size_t used = strlen(buf);
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int) pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, cmd, sizeof(cmd) - 1);
	if (n <= 0) {
		snprintf(path, sizeof(path), "/proc/%d/comm", (int) pid);
		(void) !close(fd);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, cmd, sizeof(cmd) - 1);
	}
	if (n < 0)
		n = 0;
	for (ssize_t i = 0; i < n; i++)
		if (cmd[i] == '\0' || cmd[i] == '\n')
			cmd[i] = ' ';
	while (n > 0 && cmd[n - 1] == ' ')
		n--;
	cmd[n] = '\0';
	safe = bo_sanitize(cmd, true);
	snprintf(buf + used, len - used, "%s%s (pid %d)", used ? ", " : "",
		 safe && *safe ? safe : "?", (int) pid);
}

/* Kill what is in the group: cgroup.kill (Linux 5.14), else each process, as listed now. */
static void kill_all(const struct bo_cgroup *cg)
{
	_cleanup_close_ int fd = openat(cg->dirfd, "cgroup.kill", O_WRONLY | O_CLOEXEC);
	pid_t pids[256];
	unsigned all;
	int n;

	if (fd >= 0 && write(fd, "1", 1) == 1)
		return;
	n = list_pids(cg, pids, (int) BO_ARRAY_SIZE(pids), &all);
	for (int i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
}

int bo_cgroup_kill(struct bo_cgroup *cg, unsigned timeout_ms, unsigned *ret_n, char **ret_left)
{
	enum { SHOWN = 8 };
	_cleanup_close_ int ev = openat(cg->dirfd, "cgroup.events", O_RDONLY | O_CLOEXEC);
	double until = bo_now() + timeout_ms / 1000.0;
	pid_t pids[SHOWN];
	char left[1024] = "";
	unsigned all = 0;
	int n, p;

	*ret_n = 0;
	*ret_left = NULL;
	if (ev < 0)
		return -errno;
	p = populated(ev);
	if (p <= 0)
		return p;
	n = list_pids(cg, pids, SHOWN, &all);
	for (int i = 0; i < n; i++)
		describe(pids[i], left, sizeof(left));
	if (all > (unsigned) (n > 0 ? n : 0)) {
		size_t used = strlen(left);

		snprintf(left + used, sizeof(left) - used, "%sand %u more", used ? ", " : "",
			 all - (unsigned) n);
	}
	*ret_n = all;
	*ret_left = left[0] ? strdup(left) : NULL;
	/* The kill is asynchronous: the group empties as each process gets through its exit
	 * (cgroup.events is notified, POLLPRI, when "populated" changes). */
	while ((p = populated(ev)) > 0) {
		double now = bo_now();
		struct pollfd pfd = {.fd = ev, .events = POLLPRI};

		if (now >= until)
			return -ETIMEDOUT;
		kill_all(cg);
		if (poll(&pfd, 1, (int) ((until - now) * 1000) + 1) < 0 && errno != EINTR)
			return -errno;
	}
	return p;
}

/* Whether @cg's file @name holds @want (its first line), or the file is absent and @absent. */
static bool reads(const struct bo_cgroup *cg, const char *name, const char *want, bool absent)
{
	_cleanup_close_ int fd = openat(cg->dirfd, name, O_RDONLY | O_CLOEXEC);
	char buf[64];
	ssize_t n;

	if (fd < 0)
		return absent && errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return !strcmp(buf, want);
}

int bo_cgroup_freeze(struct bo_cgroup *cg, struct bo_err *err)
{
	_cleanup_close_ int fd = openat(cg->dirfd, "cgroup.freeze", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, "1", 1) != 1)
		return bo_err_set(err, errno, "cgroup %s: freezing it: %s", cg->name,
				  strerror(errno));
	/* The freeze is asynchronous: a task inside a system call stops when it returns. */
	for (int i = 0; i < 200; i++) {
		_cleanup_close_ int ev = openat(cg->dirfd, "cgroup.events", O_RDONLY | O_CLOEXEC);
		char buf[256];
		ssize_t n = ev >= 0 ? read(ev, buf, sizeof(buf) - 1) : -1;

		if (n > 0) {
			buf[n] = '\0';
			if (strstr(buf, "frozen 1"))
				return 0;
		}
		usleep(10000);
	}
	return bo_err_set(err, ETIMEDOUT, "cgroup %s: not frozen within 2 s", cg->name);
}

/* Whether @cg, its command ended, is as a new group: the next command may have it. */
static bool as_new(const struct bo_cgroup *cg)
{
	_cleanup_close_ int ev = -1;

	if (cg->dirfd < 0 || cg->procs_fd < 0)
		return false;
	ev = openat(cg->dirfd, "cgroup.events", O_RDONLY | O_CLOEXEC);
	return ev >= 0 && populated(ev) == 0 && reads(cg, "cgroup.subtree_control", "", false) &&
	       reads(cg, "cgroup.type", "domain", true) && reads(cg, "cgroup.freeze", "0", true);
}

void bo_cgroup_free(struct bo_cgroup *cg)
{
	bool kept = false;

	if (!cg)
		return;
	/* What the command made beneath its group goes in any case. */
	if (cg->dirfd >= 0)
		remove_below(cg->dirfd, 16);
	if (as_new(cg)) {
		pthread_mutex_lock(&pool.lock);
		if (pool.n < POOL_MAX && getpid() == pool.owner) {
			pool.v[pool.n++] = cg;
			kept = true;
		}
		pthread_mutex_unlock(&pool.lock);
	}
	if (!kept)
		destroy(cg);
}

/* Remove the group (nothing beneath it by now) and free it. */
static void destroy(struct bo_cgroup *cg)
{
	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	if (cg->dirfd >= 0)
		close(cg->dirfd);
	if (cg->name[0] && unlinkat(where.parentfd, cg->name, AT_REMOVEDIR) < 0)
		bo_debug(BO_DBG_RUN, "removing cgroup '%s': %s", cg->name, strerror(errno));
	free(cg);
}
