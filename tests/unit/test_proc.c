// SPDX-License-Identifier: GPL-2.0-or-later
/* Child processes: status, signals, timeouts, output capture, environment, leftovers. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/cgroup.h"
#include "harness/base/file.h"
#include "harness/base/proc.h"

static struct bo_proc_result run_sh(const char *script, unsigned timeout_ms, bool merge,
				    char *const *env)
{
	char *argv[] = {"sh", "-c", (char *) script, NULL};
	struct bo_proc_opts o = {
		.argv = argv, .env_add = env, .timeout_ms = timeout_ms, .merge_stderr = merge};
	struct bo_proc_result r = {0};
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_proc_run(&o, &r, &err) == 0);
	return r;
}

static void test_status(void)
{
	static const int codes[] = {0, 1, 42};
	char script[32];

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		struct bo_proc_result r;

		snprintf(script, sizeof(script), "exit %d", codes[i]);
		r = run_sh(script, 0, false, NULL);
		CU_ASSERT(r.end == BO_PROC_EXITED && r.status == codes[i]);
		bo_proc_result_clear(&r);
	}
}

static void test_signal_and_timeout(void)
{
	struct bo_proc_result r = run_sh("kill -SEGV $$", 0, false, NULL);
	char buf[64];

	CU_ASSERT(r.end == BO_PROC_SIGNALED && r.status == SIGSEGV);
	bo_proc_result_clear(&r);
	r = run_sh("echo started; exec sleep 30", 300, false, NULL);
	CU_ASSERT(r.end == BO_PROC_TIMEOUT);
	CU_ASSERT(r.seconds < 5);
	CU_ASSERT(!strcmp(r.out, "started\n"));
	CU_ASSERT(strstr(bo_proc_describe(&r, &(struct bo_proc_opts){.timeout_ms = 300}, buf,
					  sizeof(buf)),
			 "timed out after 0.3 s") != NULL);
	bo_proc_result_clear(&r);
	/* A silent child that never writes is timed out as well. */
	r = run_sh("exec sleep 30 >/dev/null 2>&1", 200, false, NULL);
	CU_ASSERT(r.end == BO_PROC_TIMEOUT && r.seconds < 5);
	bo_proc_result_clear(&r);
}

static void test_leftovers_killed(void)
{
	/* A background grandchild holding the output pipe does not keep us waiting. */
	struct bo_proc_result r = run_sh("sleep 30 & echo hi", 20000, false, NULL);

	CU_ASSERT(r.end == BO_PROC_EXITED && r.status == 0);
	CU_ASSERT(r.seconds < 5);
	CU_ASSERT(!strcmp(r.out, "hi\n"));
	bo_proc_result_clear(&r);
}

/* Whether a cgroup v2 hierarchy can be written here: the "blackout-" groups of this process
 * are made where cgroup.h finds one. */
static bool have_cgroups(void)
{
	struct bo_cgroup *cg = NULL;
	struct bo_err err = {0};

	if (bo_cgroup_new(&cg, &err) < 0) {
		printf("\n  (SKIPPED: %s)\n", bo_err_str(&err));
		return false;
	}
	bo_cgroup_free(cg);
	return true;
}

/*
 * What left the process group is ended all the same: a daemon that calls setsid() (pg_ctl
 * starts its server so) and a double fork, one holding the output pipe and one not. Each is
 * named in the result, gone when bo_proc_run() returns, and the command's own status stands.
 */
static void test_leftovers_other_session(void)
{
	struct bo_proc_result r = {0};
	char pidfile[PATH_MAX], buf[64], proc[64];
	FILE *f;
	int n = 0;

	if (!have_cgroups())
		return;
	snprintf(pidfile, sizeof(pidfile), "%s", bo_test_path("setsid.pid"));
	{
		char script[2 * PATH_MAX + 400];
		const char *dbl = bo_test_path("double.pid");

		/* Each waited for until it is "sleep", so that it is named so. */
		snprintf(script, sizeof(script),
			 "setsid sh -c 'echo $$ > %s; exec sleep 60' >/dev/null 2>&1 </dev/null &"
			 " (setsid sh -c 'echo $$ > %s; exec sleep 61' &);"
			 " for f in %s %s; do"
			 "  until [ -s $f ] && [ \"$(cat /proc/$(cat $f)/comm)\" = sleep ]; do"
			 "   sleep 0.01; done; done; echo up",
			 pidfile, dbl, pidfile, dbl);
		r = run_sh(script, 20000, false, NULL);
	}
	CU_ASSERT(r.end == BO_PROC_EXITED && r.status == 0);
	CU_ASSERT(!strcmp(r.out, "up\n"));
	CU_ASSERT(r.left_n == 2);
	CU_ASSERT(r.left && strstr(r.left, "sleep 60 (pid ") && strstr(r.left, "sleep 61 (pid "));
	CU_ASSERT(!r.left_alive);
	f = fopen(pidfile, "r");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fscanf(f, "%d", &n) == 1 && n > 0);
	fclose(f);
	/* Gone, not a zombie waiting for its parent: reaped by init. */
	snprintf(proc, sizeof(proc), "/proc/%d/cmdline", n);
	f = fopen(proc, "r");
	CU_ASSERT(!f || !fgets(buf, sizeof(buf), f) || !strstr(buf, "sleep"));
	if (f)
		fclose(f);
	bo_proc_result_clear(&r);
	/* The positive control of "nothing left": a command that leaves nothing says so. */
	r = run_sh("sleep 0.01; echo done", 20000, false, NULL);
	CU_ASSERT(r.left_n == 0 && !r.left);
	bo_proc_result_clear(&r);
}

/* The script's words for the directory of the cgroup its command runs in. */
#define GROUP_DIR                                                    \
	"$(awk '$3 == \"cgroup2\" { print $2; exit }' /proc/mounts)" \
	"$(sed -n 's/^0:://p' /proc/self/cgroup)"

/* The directory of the cgroup a command runs in, into @buf. */
static void group_of_command(char *buf, size_t len)
{
	struct bo_proc_result r = run_sh("echo " GROUP_DIR, 20000, false, NULL);

	CU_ASSERT(r.end == BO_PROC_EXITED && r.status == 0);
	snprintf(buf, len, "%s", r.out ? r.out : "");
	buf[strcspn(buf, "\n")] = '\0';
	bo_proc_result_clear(&r);
}

/*
 * A group its command left as new is the next command's: the second runs where the first
 * did, and finds nothing of the first's — its leftover was killed with it, the group it made
 * beneath its own was removed.
 */
static void test_group_reused(void)
{
	struct bo_proc_result r = {0};
	char first[PATH_MAX], again[PATH_MAX], script[2 * PATH_MAX + 100];

	if (!have_cgroups())
		return;
	group_of_command(first, sizeof(first));
	CU_ASSERT_FATAL(strstr(first, "/blackout-") != NULL);
	r = run_sh("setsid sleep 60 >/dev/null 2>&1 </dev/null & mkdir " GROUP_DIR
		   "/sub && echo made",
		   20000, false, NULL);
	CU_ASSERT(r.left_n == 1 && !strcmp(r.out, "made\n"));
	bo_proc_result_clear(&r);
	/* In the group: this command (sh, and what it runs), no sleep; no sub beneath it. */
	snprintf(script, sizeof(script),
		 "for p in $(cat %s/cgroup.procs); do cat /proc/$p/comm; done | grep -c sleep;"
		 " ls %s | grep -c '^sub$'",
		 first, first);
	r = run_sh(script, 20000, false, NULL);
	CU_ASSERT(r.left_n == 0);
	CU_ASSERT(r.out && !strcmp(r.out, "0\n0\n"));
	bo_proc_result_clear(&r);
	group_of_command(again, sizeof(again));
	CU_ASSERT(!strcmp(first, again));
}

/* A fork()ed child (bo_proc_fork(), as check --jobs starts its VMs) never runs a command in a
 * group its parent kept: the parent's next command may be in it, and each ending would kill
 * the other's. */
static void test_group_not_shared_with_child(void)
{
	char kept[PATH_MAX], child[PATH_MAX] = "", after[PATH_MAX];
	int fds[2], status = 0;
	pid_t pid;

	if (!have_cgroups())
		return;
	group_of_command(kept, sizeof(kept));
	CU_ASSERT_FATAL(pipe(fds) == 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		char *argv[] = {"sh", "-c", "echo " GROUP_DIR, NULL};
		struct bo_proc_opts o = {.argv = argv, .timeout_ms = 20000};
		struct bo_proc_result r = {0};
		struct bo_err err = {0};

		close(fds[0]);
		if (bo_proc_run(&o, &r, &err) < 0 || !r.out)
			_exit(1);
		_exit(write(fds[1], r.out, strlen(r.out)) == (ssize_t) strlen(r.out) ? 0 : 1);
	}
	close(fds[1]);
	CU_ASSERT(read(fds[0], child, sizeof(child) - 1) > 0);
	close(fds[0]);
	CU_ASSERT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	child[strcspn(child, "\n")] = '\0';
	CU_ASSERT(strstr(child, "/blackout-") != NULL);
	CU_ASSERT(strcmp(child, kept) != 0);
	/* The parent still has its own. */
	group_of_command(after, sizeof(after));
	CU_ASSERT(!strcmp(after, kept));
}

/* The groups a process kept are removed when it exits: a child of this test runs a command
 * and exits (main(), "exit-child"), saying where its command ran and that the group was
 * kept; it is gone once the child exited. */
static void exit_child(void)
{
	char *argv[] = {"sh", "-c", "echo " GROUP_DIR, NULL};
	struct bo_proc_opts o = {.argv = argv, .timeout_ms = 20000};
	struct bo_proc_result r = {0};
	struct bo_err err = {0};
	struct stat st;

	if (bo_proc_run(&o, &r, &err) < 0 || !r.out)
		exit(1);
	r.out[strcspn(r.out, "\n")] = '\0';
	printf("%s %s\n", r.out, stat(r.out, &st) == 0 ? "kept" : "gone");
	bo_proc_result_clear(&r);
	exit(0);
}

static void test_groups_removed_at_exit(void)
{
	char cmd[PATH_MAX + 40], dir[PATH_MAX] = "", state[16] = "";
	struct stat st;
	FILE *f;

	if (!have_cgroups())
		return;
	snprintf(cmd, sizeof(cmd), "exec /proc/%d/exe exit-child", (int) getpid());
	f = popen(cmd, "r");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fscanf(f, "%4095s %15s", dir, state) == 2);
	CU_ASSERT(pclose(f) == 0);
	CU_ASSERT(strstr(dir, "/blackout-") != NULL);
	CU_ASSERT(!strcmp(state, "kept"));
	CU_ASSERT(stat(dir, &st) < 0 && errno == ENOENT);
}

/* A group runs while one of its processes does; a zombie has let go of its files and counts
 * as gone, though kill() still finds it. */
static void test_group_running(void)
{
	pid_t pid = fork();
	int status;

	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);
		pause();
		_exit(0);
	}
	setpgid(pid, pid);
	CU_ASSERT(bo_proc_group_running(pid));
	kill(pid, SIGKILL);
	/* Not reaped yet: a zombie, still a member of its group for kill(). */
	for (int i = 0; i < 1000 && bo_proc_group_running(pid); i++)
		usleep(1000);
	CU_ASSERT(kill(-pid, 0) == 0);
	CU_ASSERT(!bo_proc_group_running(pid));
	CU_ASSERT(waitpid(pid, &status, 0) == pid);
	CU_ASSERT(!bo_proc_group_running(pid));
}

static void test_output(void)
{
	char *env[] = {"BO_TEST_X=42", "HOME=/nowhere", NULL};
	struct bo_proc_result r =
		run_sh("echo out; echo err >&2; echo $BO_TEST_X $HOME", 0, false, env);
	char *argv[] = {"sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x; pwd", NULL};
	struct bo_proc_opts o = {.argv = argv, .max_output = 1000, .cwd = "/"};
	struct bo_err err = {0};

	CU_ASSERT(!strcmp(r.out, "out\n42 /nowhere\n"));
	CU_ASSERT(!strcmp(r.err, "err\n"));
	bo_proc_result_clear(&r);
	r = run_sh("echo a; echo b >&2", 0, true, NULL);
	CU_ASSERT(strstr(r.out, "a\n") && strstr(r.out, "b\n") && r.err_len == 0);
	bo_proc_result_clear(&r);
	CU_ASSERT_FATAL(bo_proc_run(&o, &r, &err) == 0);
	CU_ASSERT(r.out_len == 1000 && r.truncated);
	bo_proc_result_clear(&r);
}

/* A helper read whole ends as its output passes the cap, not at its timeout: the result says
 * it was cut; bo_proc_capture() says -EFBIG. Without the flag it runs on (the control). */
static void test_cap_kills(void)
{
	char *argv[] = {"sh", "-c", "yes; echo never >&2", NULL};
	char *rest[] = {"sh", "-c", "head -c 3000000 /dev/zero; echo done >&2", NULL};
	struct bo_proc_opts o = {
		.argv = argv, .max_output = 4096, .timeout_ms = 60000, .kill_at_max = true};
	struct bo_proc_result r = {0};
	struct bo_err err = {0};
	char *out = NULL;

	CU_ASSERT_FATAL(bo_proc_run(&o, &r, &err) == 0);
	CU_ASSERT(r.truncated && r.out_len == 4096 && r.seconds < 10);
	CU_ASSERT(r.end == BO_PROC_SIGNALED && r.status == SIGKILL && !strstr(r.err, "never"));
	bo_proc_result_clear(&r);
	CU_ASSERT(bo_proc_capture(argv, 4096, &out, NULL) == -EFBIG && !out);
	o = (struct bo_proc_opts){.argv = rest, .max_output = 4096};
	CU_ASSERT_FATAL(bo_proc_run(&o, &r, &err) == 0);
	CU_ASSERT(r.truncated && r.end == BO_PROC_EXITED && r.status == 0 && strstr(r.err, "done"));
	bo_proc_result_clear(&r);
}

/* Until the command writing @log said "up" (at most 10 s). */
static void wait_up(const char *log)
{
	char buf[8] = "";

	for (int i = 0; i < 1000 && strncmp(buf, "up", 2); i++) {
		FILE *f = fopen(log, "r");

		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = '\0';
			fclose(f);
		}
		usleep(10000);
	}
	CU_ASSERT(!strncmp(buf, "up", 2));
}

/*
 * A command that runs while its caller goes on (a cluster's node): stopped by a signal to its
 * group, with what it started in another session ended too; one that outlives its grace is
 * killed and said to; one that ended first is said so; a network namespace it cannot enter
 * fails its start, by name.
 */
static void test_background(void)
{
	char *argv[] = {"sh", "-c", "setsid sh -c 'echo up; exec sleep 60' & exec sleep 60", NULL};
	char *ignores_term[] = {"sh", "-c", "trap '' TERM; echo up; while :; do sleep 0.1; done",
				NULL};
	char *quick[] = {"sh", "-c", "exit 3", NULL};
	char log[PATH_MAX];
	struct bo_proc_opts o = {.argv = argv, .output_path = log};
	struct bo_proc_bg *b = NULL;
	struct bo_proc_result r = {0};
	struct bo_err err = {0};
	double t;

	snprintf(log, sizeof(log), "%s", bo_test_path("bg.log"));
	CU_ASSERT_FATAL(bo_proc_start(&o, &b, &err) == 0);
	CU_ASSERT(bo_proc_alive(b));
	wait_up(log);
	t = bo_now();
	CU_ASSERT(bo_proc_stop(b, SIGTERM, 5000, &r, &err) == 0);
	CU_ASSERT(r.end == BO_PROC_SIGNALED && r.status == SIGTERM);
	CU_ASSERT(bo_now() - t < 4);
	/* The setsid'd sleep (it said "up" from its own session) is found through the cgroup,
	 * where there is one. */
	if (have_cgroups())
		CU_ASSERT(r.left_n == 1 && r.left && strstr(r.left, "sleep"));
	bo_proc_result_clear(&r);

	/* Started by a thread that blocks every signal (the control server's, restarting a
	 * node after its power cut), it still stops on SIGTERM; its log appended to. */
	{
		char *say[] = {"sh", "-c", "echo again; exec sleep 60", NULL};
		sigset_t all, old;
		_cleanup_free_ char *text = NULL;
		size_t len = 0;

		o.argv = say;
		o.output_append = true;
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		CU_ASSERT_FATAL(bo_proc_start(&o, &b, &err) == 0);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		for (int i = 0; i < 500; i++) {
			free(text);
			text = NULL;
			if (bo_read_file(log, 4096, &text, &len) == 0 && strstr(text, "again"))
				break;
			usleep(10000);
		}
		CU_ASSERT(text && strstr(text, "up\n") && strstr(text, "again\n"));
		CU_ASSERT(bo_proc_stop(b, SIGTERM, 5000, &r, &err) == 0);
		CU_ASSERT(r.end == BO_PROC_SIGNALED && r.status == SIGTERM);
		bo_proc_result_clear(&r);
		o.output_append = false;
	}

	o.argv = ignores_term;
	CU_ASSERT_FATAL(bo_proc_start(&o, &b, &err) == 0);
	wait_up(log);
	t = bo_now();
	CU_ASSERT(bo_proc_stop(b, SIGTERM, 500, &r, &err) == 0);
	CU_ASSERT(r.end == BO_PROC_TIMEOUT && bo_now() - t < 4);
	bo_proc_result_clear(&r);

	o.argv = quick;
	CU_ASSERT_FATAL(bo_proc_start(&o, &b, &err) == 0);
	for (int i = 0; i < 200 && bo_proc_alive(b); i++)
		usleep(10000);
	CU_ASSERT(!bo_proc_alive(b));
	CU_ASSERT(bo_proc_stop(b, 0, 1000, &r, &err) == 0);
	CU_ASSERT(r.end == BO_PROC_EXITED && r.status == 3);
	bo_proc_result_clear(&r);

	o.netns = "/no/such/netns";
	CU_ASSERT(bo_proc_start(&o, &b, &err) == -ENOENT);
	CU_ASSERT(strstr(bo_err_str(&err), "entering the network namespace '/no/such/netns'") !=
		  NULL);
	unlink(log);
}

static void test_not_found(void)
{
	char *argv[] = {"bo-no-such-program", NULL};
	char *argv2[] = {"true", NULL};
	struct bo_proc_opts o = {.argv = argv};
	struct bo_proc_result r = {0};
	struct bo_err err = {0};

	CU_ASSERT(bo_proc_run(&o, &r, &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "'bo-no-such-program' not found") != NULL);
	o.argv = argv2;
	o.cwd = "/no/such/dir";
	CU_ASSERT(bo_proc_run(&o, &r, &err) == -ENOENT);
}

/* An account: looked up, carried as one word to the guest and back, and run as. */
static void test_user(void)
{
	char *argv[] = {"sh", "-c", "id -u; id -g; echo $HOME $USER $LOGNAME", NULL};
	struct bo_proc_user u, back;
	struct bo_proc_opts o = {.argv = argv, .user = &u};
	struct bo_proc_result r = {0};
	struct bo_err err = {0};
	char word[512], want[600];

	CU_ASSERT_FATAL(bo_proc_user_lookup("nobody", &u, &err) == 0);
	CU_ASSERT(!strcmp(u.name, "nobody") && u.uid == 65534);
	CU_ASSERT_FATAL(bo_proc_user_format(&u, word, sizeof(word)) == 0);
	CU_ASSERT_FATAL(bo_proc_user_parse(word, &back) == 0);
	CU_ASSERT(!strcmp(back.name, u.name) && back.uid == u.uid && back.gid == u.gid &&
		  !strcmp(back.home, u.home) && back.ngroups == u.ngroups);
	CU_ASSERT(bo_proc_user_lookup("bo-no-such-user", &u, &err) == -ENOENT);
	CU_ASSERT(strstr(bo_err_str(&err), "bo-no-such-user") != NULL);
	CU_ASSERT(bo_proc_user_parse("nobody:65534", &back) < 0);
	CU_ASSERT(bo_proc_user_parse("nobody:x:65534:/:", &back) < 0);
	CU_ASSERT(bo_proc_user_parse("", &back) < 0);
	if (geteuid() != 0) {
		printf("\n  (not root: running as another account is not exercised)\n");
		return;
	}
	CU_ASSERT_FATAL(bo_proc_user_lookup("nobody", &u, &err) == 0);
	CU_ASSERT_FATAL(bo_proc_run(&o, &r, &err) == 0);
	snprintf(want, sizeof(want), "65534\n%u\n%s nobody nobody\n", (unsigned) u.gid, u.home);
	CU_ASSERT(r.end == BO_PROC_EXITED && r.status == 0 && !strcmp(r.out, want));
	bo_proc_result_clear(&r);
}

int main(int argc, char **argv)
{
	static const struct bo_test tests[] = {
		{"exit status comes back as is", test_status},
		{"signals and timeouts", test_signal_and_timeout},
		{"leftover descendants are killed", test_leftovers_killed},
		{"leftovers in another session are killed and named", test_leftovers_other_session},
		{"a group left as new is the next command's", test_group_reused},
		{"the groups kept are removed at exit", test_groups_removed_at_exit},
		{"a forked child runs nothing in its parent's groups",
		 test_group_not_shared_with_child},
		{"a group runs while a member does", test_group_running},
		{"output capture, environment, cwd", test_output},
		{"output past the cap of a helper read whole ends it", test_cap_kills},
		{"a program that cannot start", test_not_found},
		{"a command that runs in the background, stopped", test_background},
		{"another account", test_user},
		{NULL, NULL},
	};

	if (argc == 2 && !strcmp(argv[1], "exit-child"))
		exit_child();
	return bo_test_run("proc", tests);
}
