// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/base/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/cgroup.h"
#include "harness/base/macro.h"
#include "harness/base/safety.h"

extern char **environ;

struct sink {
	int fd;
	char *buf;
	size_t len, cap, max;
	bool truncated;
	pid_t kill_at_max; /* the group killed as the output passes max (kill_at_max), or 0 */
};

/* Whether "KEY=..." @v sets the key of "KEY=..." @e. */
static bool same_key(const char *v, const char *e)
{
	size_t key = strcspn(e, "=");

	return !strncmp(v, e, key) && v[key] == '=';
}

/* Whether one of @v (NULL-terminated, or NULL) sets the key of @e. */
static bool set_in(char *const *v, const char *e)
{
	for (size_t j = 0; v && v[j]; j++)
		if (same_key(v[j], e))
			return true;
	return false;
}

/* The environment with @add, then @more applied: a KEY=... there replaces the KEY before. */
static char **build_env(char *const *add, char *const *more)
{
	size_t n = 0, k = 0, m = 0, m2 = 0;
	char **env;

	while (environ[n])
		n++;
	while (add && add[m])
		m++;
	while (more && more[m2])
		m2++;
	env = calloc(n + m + m2 + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!set_in(add, environ[i]) && !set_in(more, environ[i]))
			env[k++] = environ[i];
	for (size_t j = 0; j < m; j++)
		if (!set_in(more, add[j]))
			env[k++] = add[j];
	for (size_t j = 0; j < m2; j++)
		env[k++] = more[j];
	return env;
}

static int drain(struct sink *s)
{
	char tmp[16384];
	ssize_t n = read(s->fd, tmp, sizeof(tmp));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -errno;
	if (n == 0)
		return 0;
	if (s->len < s->max) {
		size_t keep = (size_t) n < s->max - s->len ? (size_t) n : s->max - s->len;

		if (s->len + keep + 1 > s->cap) {
			size_t cap = s->cap ? s->cap : 4096;
			char *b;

			while (cap < s->len + keep + 1)
				cap *= 2;
			b = realloc(s->buf, cap);
			if (!b)
				return -ENOMEM;
			s->buf = b;
			s->cap = cap;
		}
		memcpy(s->buf + s->len, tmp, keep);
		s->len += keep;
		s->truncated |= keep < (size_t) n;
	} else {
		s->truncated = true;
	}
	/* Past the cap of a helper read whole: it ends now, not at its timeout (a listing of
	 * millions of workloads would print for minutes), and nothing more is read. */
	if (s->truncated && s->kill_at_max) {
		kill(-s->kill_at_max, SIGKILL);
		return 0;
	}
	return 1;
}

static void finish_sink(struct sink *s, char **ret, size_t *ret_len)
{
	if (!s->buf)
		s->buf = calloc(1, 1);
	else
		s->buf[s->len] = '\0';
	*ret = s->buf;
	*ret_len = s->buf ? s->len : 0;
}

bool bo_proc_group_running(pid_t pgid)
{
	_cleanup_(bo_closedirp) DIR *d = NULL;
	struct dirent *de;

	if (kill(-pgid, 0) < 0)
		return false;
	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		char path[300], buf[512], *p;
		_cleanup_close_ int fd = -1;
		ssize_t n;
		char state;
		long ppid, pgrp;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* "PID (COMM) STATE PPID PGRP ...": COMM may hold anything, up to the last ')'. */
		p = strrchr(buf, ')');
		if (p && sscanf(p + 1, " %c %ld %ld", &state, &ppid, &pgrp) == 3 && pgrp == pgid &&
		    state != 'Z' && state != 'X')
			return true;
	}
	return false;
}

/* How long what a command left running may take to die once killed. */
#define LEFT_WAIT_MS 10000u

/* After group @pgid was killed: wait until none of it runs (at most LEFT_WAIT_MS), so that
 * what its processes held (a mount point, a daemon's files) is let go of when bo_proc_run()
 * returns. Without a cgroup only. */
static void wait_group_gone(pid_t pgid)
{
	double until = bo_now() + LEFT_WAIT_MS / 1000.0;

	while (bo_proc_group_running(pgid) && bo_now() < until)
		nanosleep(&(struct timespec){.tv_nsec = 5 * 1000 * 1000}, NULL);
}

/*
 * The command @pid ended (or timed out): what it left running goes too. With its cgroup
 * (cgroup.h), everything it started, in whatever session, is listed into @r, killed and
 * waited for; without one, its process group is killed (and waited for by the caller).
 */
static void end_the_rest(pid_t pid, struct bo_cgroup *cg, struct bo_proc_result *r)
{
	unsigned n = 0;
	char *left = NULL;
	int k;

	if (!cg) {
		kill(-pid, SIGKILL);
		return;
	}
	/* Listed before anything is killed, its own process group too: all of it is left. */
	k = bo_cgroup_kill(cg, LEFT_WAIT_MS, &n, &left);
	kill(-pid, SIGKILL);
	if (n && !r->left) {
		r->left_n = n;
		r->left = left;
		r->left_alive = k == -ETIMEDOUT;
	} else {
		free(left);
	}
	if (k < 0 && k != -ETIMEDOUT)
		bo_debug(BO_DBG_RUN, "ending what '%d' left: %s", (int) pid, strerror(-k));
}

/* The step of starting a command that failed in the child, reported back before exec. */
enum { STEP_CGROUP, STEP_OUTPUT, STEP_DEVS, STEP_NETNS, STEP_ROOT, STEP_USER, STEP_CWD, STEP_EXEC };

static _Noreturn void child_failed(int fd, int step)
{
	int msg[2] = {step, errno};

	(void) !write(fd, msg, sizeof(msg));
	_exit(127);
}

static int child_error(const struct bo_proc_opts *o, int step, int e, struct bo_err *err)
{
	const char *cmd = o->argv[0];

	switch (step) {
	case STEP_CGROUP:
		return bo_err_set(err, e, "starting '%s': entering its cgroup: %s", cmd,
				  strerror(e));
	case STEP_OUTPUT:
		return bo_err_set(err, e, "starting '%s': opening its output '%s': %s", cmd,
				  o->output_path, strerror(e));
	case STEP_DEVS:
		return bo_err_set(err, e,
				  "starting '%s': a /dev of its devices alone (block devices "
				  "under /dev, at most %d): %s",
				  cmd, BO_PROC_DEVS_MAX, strerror(e));
	case STEP_NETNS:
		return bo_err_set(err, e, "starting '%s': entering the network namespace '%s': %s",
				  cmd, o->netns, strerror(e));
	case STEP_ROOT:
		return bo_err_set(err, e, "starting '%s': entering the root '%s': %s", cmd, o->root,
				  strerror(e));
	case STEP_USER:
		return bo_err_set(err, e, "starting '%s': becoming user '%s': %s", cmd,
				  o->user->name, strerror(e));
	case STEP_CWD:
		return bo_err_set(err, e, "starting '%s': its working directory '%s'%s%s: %s", cmd,
				  o->cwd, o->root ? " under the root " : "", o->root ? o->root : "",
				  strerror(e));
	default:
		return bo_err_set(err, e, e == ENOENT ? "'%s' not found" : "starting '%s': %s", cmd,
				  strerror(e));
	}
}

/* What the child of bo_proc_run() starts from: all made before it exists. */
struct child {
	const struct bo_proc_opts *o;
	char **env;
	pid_t parent;
	bool capture;
	int out, err, status; /* the write ends of the pipes: stdout, stderr, exec status */
	int cgroup;	      /* its cgroup's cgroup.procs, or -1 */
};

/* Make @path's directories below /dev, then its node: a block device @rdev (@blk), else the
 * character device @rdev. The child's: system calls on its own stack only. */
static int dev_node(const char *path, bool blk, dev_t rdev)
{
	char dir[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof(dir))
		return errno = ENAMETOOLONG, -1;
	memcpy(dir, path, n + 1);
	for (char *p = dir + strlen("/dev/"); (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mknod(path, (blk ? S_IFBLK | 0600 : S_IFCHR | 0666), rdev);
}

/* The child's /dev of @devs alone (bo_proc_opts.only_devs): 0, or -1 with errno. */
static int only_devs(const char *const *devs)
{
	static const struct {
		const char *path;
		unsigned major, minor;
	} chr[] = {{"/dev/null", 1, 3}, {"/dev/zero", 1, 5}, {"/dev/urandom", 1, 9}};
	struct stat st[BO_PROC_DEVS_MAX];
	size_t n = 0;

	for (; devs[n]; n++) {
		if (n == BO_PROC_DEVS_MAX)
			return errno = E2BIG, -1;
		if (stat(devs[n], &st[n]) < 0)
			return -1;
		if (!S_ISBLK(st[n].st_mode) || strncmp(devs[n], "/dev/", strlen("/dev/")) ||
		    strstr(devs[n], "/../"))
			return errno = EINVAL, -1;
	}
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("blackout-dev", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755") < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (dev_node(devs[i], true, st[i].st_rdev) < 0 && errno != EEXIST)
			return -1;
	for (size_t i = 0; i < BO_ARRAY_SIZE(chr); i++)
		if (dev_node(chr[i].path, false, makedev(chr[i].major, chr[i].minor)) < 0)
			return -1;
	return 0;
}

/*
 * The child's side of bo_proc_run(), after vfork(): until it execs or exits it runs in the
 * parent's memory while the parent waits, so it makes system calls on what was made before
 * and nothing else — no allocation, no stdio. Its credentials change through the system calls
 * themselves: glibc's setuid() and setgroups() in a process with threads change every thread
 * of the process, and the threads it would see are the parent's. A signal taken before the
 * exec runs the parent's handler, which only sets the stop flag: the parent stops, as it would
 * on the same signal.
 */
static _Noreturn void child_exec(const struct child *ch)
{
	const struct bo_proc_opts *o = ch->o;
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);

	/* Into its own cgroup first: nothing it starts can leave it. */
	if (ch->cgroup >= 0 && write(ch->cgroup, "0", 1) != 1)
		child_failed(ch->status, STEP_CGROUP);
	setpgid(0, 0);
	/* A child must not outlive a blackout killed with -9: it would hold the run's mounts and
	 * files (its own children are found by `blackout cleanup`). */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != ch->parent)
		_exit(127);
	/* What blackout ignores for itself (a write past a file-size limit is its error to
	 * report) a program it runs gets as the default. */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
	/* ... and no signal blocked: a thread of blackout's that blocks them all (the control
	 * server's) may be the one starting it, a node's daemon restarted after its power cut,
	 * which must stop on SIGTERM as any other. */
	{
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
	}
	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	if (ch->capture) {
		dup2(ch->out, STDOUT_FILENO);
		dup2(o->merge_stderr ? ch->out : ch->err, STDERR_FILENO);
	} else if (o->output_path) {
		int fd = open(o->output_path,
			      O_WRONLY | O_CREAT | O_CLOEXEC |
				      (o->output_append ? O_APPEND : O_TRUNC),
			      0644);

		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
			child_failed(ch->status, STEP_OUTPUT);
	}
	if (o->only_devs && only_devs(o->only_devs) < 0)
		child_failed(ch->status, STEP_DEVS);
	if (o->netns) {
		int ns = open(o->netns, O_RDONLY | O_CLOEXEC);

		if (ns < 0 || setns(ns, CLONE_NEWNET) < 0)
			child_failed(ch->status, STEP_NETNS);
	}
	if (o->root && (chroot(o->root) < 0 || chdir("/") < 0))
		child_failed(ch->status, STEP_ROOT);
	if (o->user &&
	    (syscall(SYS_setgroups, (size_t) o->user->ngroups, o->user->groups) < 0 ||
	     syscall(SYS_setgid, o->user->gid) < 0 || syscall(SYS_setuid, o->user->uid) < 0))
		child_failed(ch->status, STEP_USER);
	if (o->cwd && chdir(o->cwd) < 0)
		child_failed(ch->status, STEP_CWD);
	execvpe(o->argv[0], o->argv, ch->env);
	child_failed(ch->status, STEP_EXEC);
}

/* A command bo_proc_run() started, while it is waited for. */
struct running {
	const struct bo_proc_opts *o;
	pid_t pid;
	int pidfd;	      /* or -1 on a kernel without pidfd_open() */
	struct bo_cgroup *cg; /* or NULL: its process group is all there is */
	struct sink out, errs;
	int status;
	bool timed_out, exited, stopped;
};

/* One turn of the wait: the timeout, a stop request, the child's exit, its output. false
 * when poll() failed. */
static bool wait_turn(struct running *w, double deadline, struct bo_proc_result *r)
{
	struct pollfd pfd[3] = {{.fd = w->out.fd, .events = POLLIN},
				{.fd = w->errs.fd, .events = POLLIN},
				{.fd = w->exited ? -1 : w->pidfd, .events = POLLIN}};
	int wait_ms = -1, k;

	if (deadline && !w->exited && !w->timed_out) {
		double left = deadline - bo_now();

		if (left <= 0) {
			w->timed_out = true;
			kill(-w->pid, SIGKILL);
		} else {
			wait_ms = (int) (left * 1000) + 1;
		}
	}
	if (w->pidfd < 0 && !w->exited) /* no pidfd: old kernel */
		wait_ms = wait_ms < 0 || wait_ms > 10 ? 10 : wait_ms;
	/* A stop request (SIGINT, SIGTERM, SIGHUP) ends the child at once. The signal may land
	 * on another thread and not interrupt this poll: look at the flag often. */
	if (!w->exited && !w->stopped && bo_stop_requested()) {
		w->stopped = true;
		kill(-w->pid, w->o->stop_signal ? w->o->stop_signal : SIGKILL);
	}
	if (!w->exited && (wait_ms < 0 || wait_ms > 200))
		wait_ms = 200;
	k = poll(pfd, 3, wait_ms);
	if (k < 0 && errno != EINTR)
		return false;
	if (!w->exited && (w->pidfd < 0 || (k > 0 && pfd[2].revents)) &&
	    waitpid(w->pid, &w->status, w->pidfd < 0 ? WNOHANG : 0) == w->pid) {
		w->exited = true;
		/* Whatever it started goes with it, before its output is read to the end: a
		 * leftover that holds the pipes would keep it from ending. */
		end_the_rest(w->pid, w->cg, r);
	}
	for (int i = 0; i < 2 && k > 0; i++) {
		struct sink *s = i ? &w->errs : &w->out;

		if (s->fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		if (drain(s) <= 0) {
			close(s->fd);
			s->fd = -1;
		}
	}
	return true;
}

/* Wait for the command: its exit (killed at @deadline, 0: none), and its output to the end;
 * what it left is ended. */
static void wait_child(struct running *w, double deadline, struct bo_proc_result *r)
{
	while (!w->exited || w->out.fd >= 0 || w->errs.fd >= 0)
		if (!wait_turn(w, deadline, r))
			break;
	if (!w->exited) {
		kill(-w->pid, SIGKILL);
		while (waitpid(w->pid, &w->status, 0) < 0 && errno == EINTR)
			;
		end_the_rest(w->pid, w->cg, r);
	}
	if (!w->cg)
		wait_group_gone(w->pid);
	if (w->pidfd >= 0)
		close(w->pidfd);
	if (w->out.fd >= 0)
		close(w->out.fd);
	if (w->errs.fd >= 0)
		close(w->errs.fd);
	finish_sink(&w->out, &r->out, &r->out_len);
	finish_sink(&w->errs, &r->err, &r->err_len);
	r->truncated = w->out.truncated || w->errs.truncated;
}

/* Its cgroup, or NULL where there can be none (said once, at debug level). */
static struct bo_cgroup *new_cgroup(void)
{
	static atomic_bool said;
	struct bo_cgroup *cg = NULL;
	struct bo_err err = {0};

	if (bo_cgroup_new(&cg, &err) < 0 && !atomic_exchange(&said, true))
		bo_debug(BO_DBG_RUN, "%s: a command's process group is all that is ended with it",
			 bo_err_str(&err));
	return cg;
}

/* A command started: what bo_proc_run() waits for at once, and bo_proc_start()'s caller
 * later. */
struct bo_proc_bg {
	struct bo_proc_opts o; /* its options: pointers inside are the caller's, used until the
				* exec only */
	char name[64];	       /* argv[0], for what is said of it after the start */
	struct running w;
	struct bo_proc_result r;
	double start;
};

int bo_proc_freeze(struct bo_proc_bg *b, struct bo_err *err)
{
	if (b->w.exited)
		return 0;
	if (b->w.cg)
		return bo_cgroup_freeze(b->w.cg, err);
	/* No cgroup: its process group is all there is. */
	if (kill(-b->w.pid, SIGSTOP) < 0 && errno != ESRCH)
		return bo_err_set(err, errno, "'%s' (pid %d): stopping it: %s", b->name,
				  (int) b->w.pid, strerror(errno));
	return 0;
}

/* Start the command of @b->o: its cgroup, its process group, its pipes. 0, or -errno with
 * @err saying why (the child then waited for and its cgroup gone). */
static int proc_start(struct bo_proc_bg *b, struct bo_err *err)
{
	const struct bo_proc_opts *o = &b->o;
	struct running *w = &b->w;
	size_t max = o->max_output ? o->max_output : (1u << 20);
	int po[2] = {-1, -1}, pe[2] = {-1, -1}, ps[2] = {-1, -1};
	char u_home[sizeof(o->user->home) + 8], u_user[80], u_logname[80];
	char *user_env[] = {u_home, u_user, u_logname, NULL};
	_cleanup_free_ char **env = NULL;
	int exec_errno = 0, failed[2] = {0, 0}, e;
	pid_t parent = getpid();
	bool capture = !o->inherit_output && !o->output_path;

	*w = (struct running){
		.o = o, .out = {.fd = -1, .max = max}, .errs = {.fd = -1, .max = max}, .pidfd = -1};
	b->start = bo_now();
	if (o->user) {
		snprintf(u_home, sizeof(u_home), "HOME=%s", o->user->home);
		snprintf(u_user, sizeof(u_user), "USER=%s", o->user->name);
		snprintf(u_logname, sizeof(u_logname), "LOGNAME=%s", o->user->name);
	}
	env = build_env(o->env_add, o->user ? user_env : NULL);
	if (!env)
		return bo_err_set(err, ENOMEM, "starting '%s'", o->argv[0]);
	/* ps reports a failed exec back to us: close-on-exec, so EOF means exec worked. */
	if (pipe2(ps, O_CLOEXEC) < 0 ||
	    (capture && (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0))) {
		e = errno;
		goto fail_pipes;
	}
	w->cg = new_cgroup();
	/* vfork(): the child shares this memory until it execs, so that starting it costs
	 * neither a copy of this process's page tables nor a copy-on-write fault for every page
	 * written after (a few ms a command under TCG, where a state runs two). */
	w->pid = vfork();
	if (w->pid < 0) {
		e = errno;
		goto fail_pipes;
	}
	if (w->pid == 0)
		child_exec(&(struct child){.o = o,
					   .env = env,
					   .parent = parent,
					   .capture = capture,
					   .out = po[1],
					   .err = pe[1],
					   .status = ps[1],
					   .cgroup = w->cg ? bo_cgroup_procs_fd(w->cg) : -1});
	setpgid(w->pid, w->pid); /* also from here: no window where a timeout kill misses it */
	close(ps[1]);
	ps[1] = -1;
	if (read(ps[0], failed, sizeof(failed)) != sizeof(failed))
		failed[1] = 0;
	exec_errno = failed[1];
	close(ps[0]);
	ps[0] = -1;
	if (capture) {
		close(po[1]);
		close(pe[1]);
		po[1] = pe[1] = -1;
		w->out.fd = po[0];
		w->errs.fd = pe[0];
		w->out.kill_at_max = w->errs.kill_at_max = o->kill_at_max ? w->pid : 0;
	}
	/* Wait on the output pipes and on a pidfd of the child at once, so that neither a
	 * silent child nor one whose descendants keep the pipes open needs polling. */
	w->pidfd = (int) syscall(SYS_pidfd_open, w->pid, 0);
	if (exec_errno) {
		wait_child(w, 0, &b->r);
		bo_cgroup_free(w->cg);
		bo_proc_result_clear(&b->r);
		return child_error(o, failed[0], exec_errno, err);
	}
	return 0;
fail_pipes:
	bo_cgroup_free(w->cg);
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
		if (ps[i] >= 0)
			close(ps[i]);
	}
	return bo_err_set(err, e, "starting '%s': %s", o->argv[0], strerror(e));
}

/* Wait for the started command until @deadline (0: its timeout, if any), and give its
 * result. 0, or -EINTR when a stop request ended it. */
static int proc_finish(struct bo_proc_bg *b, double deadline, struct bo_proc_result *ret,
		       struct bo_err *err)
{
	struct running *w = &b->w;
	struct bo_proc_result r = b->r;

	b->r = (struct bo_proc_result){0};
	if (!deadline && w->o->timeout_ms)
		deadline = b->start + w->o->timeout_ms / 1000.0;
	wait_child(w, deadline, &r);
	r.seconds = bo_now() - b->start;
	bo_cgroup_free(w->cg);
	w->cg = NULL;
	if (w->stopped) {
		char what[256];

		bo_proc_result_clear(&r);
		snprintf(what, sizeof(what), "running '%s'", b->name);
		return bo_stop_error(err, what);
	}
	if (w->timed_out) {
		r.end = BO_PROC_TIMEOUT;
		r.status = SIGKILL;
	} else if (WIFSIGNALED(w->status)) {
		r.end = BO_PROC_SIGNALED;
		r.status = WTERMSIG(w->status);
	} else {
		r.end = BO_PROC_EXITED;
		r.status = WEXITSTATUS(w->status);
	}
	*ret = r;
	return 0;
}

int bo_proc_run(const struct bo_proc_opts *o, struct bo_proc_result *ret, struct bo_err *err)
{
	struct bo_proc_bg b = {.o = *o};
	int k;

	snprintf(b.name, sizeof(b.name), "%s", o->argv[0]);
	k = proc_start(&b, err);

	return k < 0 ? k : proc_finish(&b, 0, ret, err);
}

int bo_proc_start(const struct bo_proc_opts *o, struct bo_proc_bg **ret, struct bo_err *err)
{
	struct bo_proc_bg *b = calloc(1, sizeof(*b));
	int k;

	if (!b)
		return bo_err_set(err, ENOMEM, "starting '%s'", o->argv[0]);
	b->o = *o;
	snprintf(b->name, sizeof(b->name), "%s", o->argv[0]);
	/* Its output goes to a file or to ours: nothing to drain while it runs unwatched. */
	if (!o->output_path && !o->inherit_output)
		b->o.inherit_output = true;
	k = proc_start(b, err);
	if (k < 0) {
		free(b);
		return k;
	}
	/* What it was started with is the caller's, gone once this returns. */
	b->o.argv = NULL;
	b->o.env_add = NULL;
	b->o.cwd = b->o.output_path = b->o.root = b->o.netns = NULL;
	b->o.only_devs = NULL;
	b->o.user = NULL;
	*ret = b;
	return 0;
}

bool bo_proc_alive(struct bo_proc_bg *b)
{
	struct running *w = &b->w;

	if (w->exited)
		return false;
	if (waitpid(w->pid, &w->status, WNOHANG) != w->pid)
		return true;
	w->exited = true;
	end_the_rest(w->pid, w->cg, &b->r);
	return false;
}

int bo_proc_stop(struct bo_proc_bg *b, int sig, unsigned grace_ms, struct bo_proc_result *ret,
		 struct bo_err *err)
{
	int k;

	if (!b->w.exited && sig)
		kill(-b->w.pid, sig);
	k = proc_finish(b, bo_now() + grace_ms / 1000.0, ret, err);
	free(b);
	return k;
}

void bo_proc_result_clear(struct bo_proc_result *r)
{
	free(r->out);
	free(r->err);
	free(r->left);
	*r = (struct bo_proc_result){0};
}

char *bo_proc_left_str(const struct bo_proc_result *r)
{
	char *s = NULL;

	if (!r->left_n)
		return NULL;
	if (asprintf(&s, "%u %s, killed%s: %s", r->left_n, r->left_n == 1 ? "process" : "processes",
		     r->left_alive ? " (some still alive after 10 s)" : "",
		     r->left ? r->left : "?") < 0)
		return NULL;
	return s;
}

const char *bo_proc_describe(const struct bo_proc_result *r, const struct bo_proc_opts *o,
			     char *buf, size_t len)
{
	switch (r->end) {
	case BO_PROC_EXITED:
		snprintf(buf, len, "exited with status %d", r->status);
		break;
	case BO_PROC_SIGNALED:
		snprintf(buf, len, "killed by signal %d (%s)", r->status, strsignal(r->status));
		break;
	case BO_PROC_TIMEOUT:
		snprintf(buf, len, "timed out after %.1f s", o->timeout_ms / 1000.0);
		break;
	}
	return buf;
}

int bo_proc_capture(char *const argv[], size_t max, char **ret, size_t *ret_len)
{
	struct bo_proc_opts o = {.argv = argv, .max_output = max, .kill_at_max = true};
	struct bo_proc_result r = {0};
	int k = bo_proc_run(&o, &r, NULL);

	if (k < 0)
		return k;
	if (r.truncated) {
		bo_proc_result_clear(&r);
		return -EFBIG;
	}
	*ret = BO_TAKE_PTR(r.out);
	if (ret_len)
		*ret_len = r.out_len;
	k = r.end == BO_PROC_EXITED ? r.status : 128 + r.status;
	bo_proc_result_clear(&r);
	return k;
}

int bo_proc_fork(int (*fn)(void *ctx), void *ctx, pid_t *ret_pid, struct bo_err *err)
{
	pid_t pid = fork();

	if (pid < 0)
		return bo_err_set(err, errno, "fork: %s", strerror(errno));
	if (pid == 0)
		_exit(fn(ctx));
	*ret_pid = pid;
	return 0;
}

int bo_proc_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
