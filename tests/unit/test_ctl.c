// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The control-channel server over a real unix socket, with a mark callback that appends the
 * marks to a dm-log-writes log; the log is read back to check that every "ok <entry>" names
 * the entry where the mark really is. The header-only client and `blackout ctl` are the
 * clients.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/ctl/ctl.h"
#include "harness/log/log.h"
#include "harness/log/writer.h"
#include "scenarios/blackout-ctl.h"

struct fake_log {
	struct bo_log_writer *w;
	unsigned calls;
	const char *fail_on; /* a mark name the callback refuses */
};

/* Like the run's callback: some data first (entry numbers are not mark counts), then the mark. */
static int log_mark(void *ctx, const char *name, uint64_t *ret_entry, struct bo_err *err)
{
	struct fake_log *fl = ctx;
	static const char block[512];
	int64_t e;

	fl->calls++;
	if (fl->fail_on && !strcmp(name, fl->fail_on))
		return bo_err_set(err, ENOSPC, "log device full");
	if (fl->calls % 2 && bo_log_writer_add(fl->w, fl->calls, 1, 0, block, err) < 0)
		return -EIO;
	e = bo_log_writer_mark(fl->w, name, err);
	if (e < 0)
		return (int) e;
	*ret_entry = (uint64_t) e;
	return 0;
}

static struct bo_ctl_server *start(struct fake_log *fl, const char *sock, const char *logpath)
{
	static const char *const reserved[] = {"mkfs", NULL};
	struct bo_ctl_server_config cfg = {
		.path = sock, .mark = log_mark, .ctx = fl, .reserved = reserved};
	struct bo_ctl_server *srv;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_log_writer_new(logpath, 512, &fl->w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_writer_mark(fl->w, "mkfs", &err) == 0);
	if (bo_ctl_server_start(&cfg, &srv, &err) < 0) {
		fprintf(stderr, "%s\n", bo_err_str(&err));
		CU_FAIL_FATAL("server start");
	}
	setenv("BLACKOUT_CTL", bo_ctl_server_path(srv), 1);
	return srv;
}

static int raw_connect(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	strcpy(sa.sun_path, path);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(connect(fd, (struct sockaddr *) &sa, sizeof(sa)) == 0);
	return fd;
}

/* Send @len bytes and read one reply line into @reply. */
static void raw_request(int fd, const char *req, size_t len, char *reply, size_t size)
{
	size_t n = 0;

	CU_ASSERT_FATAL(write(fd, req, len) == (ssize_t) len);
	while (n + 1 < size && read(fd, reply + n, 1) == 1 && reply[n] != '\n')
		n++;
	reply[n] = '\0';
}

static uint64_t entries[16];
static const char *names[16];
static size_t nentries;

static void remember(const char *name, uint64_t entry)
{
	names[nentries] = name;
	entries[nentries++] = entry;
}

/* A request through the header-only client that must succeed; remember where it landed. */
static void expect_ok(const char *verb, const char *arg, const char *name)
{
	uint64_t e;
	int r = bo_ctl_request(verb, arg, &e);

	if (r < 0)
		fprintf(stderr, "unexpected failure: %s\n", bo_ctl_error());
	CU_ASSERT_FATAL(r == 0);
	remember(name, e);
}

static void round_trip(void)
{
	const char *logpath = bo_test_path("ctl.log");
	struct fake_log fl = {0};
	struct bo_ctl_server *srv = start(&fl, bo_test_path("ctl.sock"), logpath);
	const struct bo_ctl_state *st;
	char reply[700], big[2000];
	struct bo_err err = {0};
	uint64_t e = 0;
	struct bo_log *log;
	const uint64_t *ids;
	size_t n;
	int a, b;

	nentries = 0;
	expect_ok("issue", "1", "issue:1");
	expect_ok("issue", "2", "issue:2");
	expect_ok("ack", "2", "ack:2");
	CU_ASSERT(bo_ctl_ack(1) == -EPROTO); /* decreasing ack id */
	CU_ASSERT(strstr(bo_ctl_error(), "ack ids must strictly increase") != NULL);
	CU_ASSERT(bo_ctl_mark("mkfs") == -EPROTO);	/* reserved by the run */
	CU_ASSERT(bo_ctl_mark("two words") == -EINVAL); /* refused locally, framing intact */
	expect_ok("mark", "phase-1", "phase-1");

	/* Two more clients, interleaved, with malformed lines in between. */
	a = raw_connect(bo_ctl_server_path(srv));
	b = raw_connect(bo_ctl_server_path(srv));
	raw_request(a, "bogus 1\n", 8, reply, sizeof(reply));
	CU_ASSERT(strncmp(reply, "err unknown request 'bogus'", 27) == 0);
	raw_request(b, "issue x\n", 8, reply, sizeof(reply));
	CU_ASSERT(strncmp(reply, "err ", 4) == 0 && strstr(reply, "'x'"));
	raw_request(a, "issue 3\0\n", 9, reply, sizeof(reply));
	CU_ASSERT(strstr(reply, "NUL") != NULL);
	memset(big, 'z', sizeof(big));
	big[sizeof(big) - 1] = '\n';
	raw_request(b, big, sizeof(big), reply, sizeof(reply));
	CU_ASSERT(strstr(reply, "err request is longer than 512 bytes") != NULL);
	/* Exactly one reply for the over-long line: the next request gets its own answer. */
	raw_request(b, "issue 5\n", 8, reply, sizeof(reply));
	CU_ASSERT_FATAL(strncmp(reply, "ok ", 3) == 0);
	remember("issue:5", strtoull(reply + 3, NULL, 10));
	raw_request(a, "issue 4\n", 8, reply, sizeof(reply)); /* decreasing across clients */
	CU_ASSERT(strstr(reply, "err issue 4: op ids must strictly increase") != NULL);
	raw_request(a, "ack 5\n", 6, reply, sizeof(reply));
	CU_ASSERT_FATAL(strncmp(reply, "ok ", 3) == 0);
	remember("ack:5", strtoull(reply + 3, NULL, 10));
	raw_request(a, "ack 9\n", 6, reply, sizeof(reply));
	CU_ASSERT(strstr(reply, "err ack 9: op was never issued") != NULL);
	CU_ASSERT(write(b, "issue 6", 7) == 7); /* unterminated, then hang up */
	close(b);
	close(a);
	CU_ASSERT(bo_ctl_issue(7) == 0); /* no entry returned: found in the log below */
	bo_ctl_close();

	bo_ctl_server_stop(srv);
	CU_ASSERT_FATAL(bo_ctl_server_state(srv) != NULL);
	st = bo_ctl_server_state(srv);
	ids = bo_ctl_state_issued(st, &n);
	CU_ASSERT_FATAL(n == 4);
	CU_ASSERT(ids[0] == 1 && ids[1] == 2 && ids[2] == 5 && ids[3] == 7);
	ids = bo_ctl_state_acked(st, &n);
	CU_ASSERT_FATAL(n == 2);
	CU_ASSERT(ids[0] == 2 && ids[1] == 5);
	CU_ASSERT(bo_ctl_server_failure(srv, &err) < 0);
	CU_ASSERT(strstr(bo_err_str(&err), "9 failed requests, the first: ack 1: ack ids") != NULL);
	CU_ASSERT(access(bo_test_path("ctl.sock"), F_OK) < 0); /* socket removed */
	bo_ctl_server_free(srv);

	CU_ASSERT_FATAL(bo_log_writer_close(fl.w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(logpath, 0, &log, &err) == 0);
	for (size_t i = 0; i < nentries; i++) {
		const char *got = bo_log_mark_name(log, entries[i]);

		CU_ASSERT_PTR_NOT_NULL_FATAL(got);
		CU_ASSERT_STRING_EQUAL(got, names[i]);
	}
	CU_ASSERT(bo_log_find_mark(log, "issue:7", &e, NULL) == 0);
	/* Only accepted requests reached the log: mkfs + 7 marks. */
	CU_ASSERT(bo_log_mark_count(log) == 8);
	bo_log_free(log);
}

static void mark_failure(void)
{
	struct fake_log fl = {.fail_on = "ack:1"};
	struct bo_ctl_server *srv = start(&fl, bo_test_path("fail.sock"), bo_test_path("f.log"));
	struct bo_err err = {0};
	size_t n;

	CU_ASSERT(bo_ctl_issue(1) == 0);
	CU_ASSERT(bo_ctl_ack(1) == -EPROTO);
	CU_ASSERT(strstr(bo_ctl_error(), "inserting mark 'ack:1': log device full") != NULL);
	bo_ctl_close();
	CU_ASSERT(bo_ctl_server_failure(srv, &err) == -EBUSY);
	bo_ctl_server_stop(srv);
	bo_ctl_server_stop(srv);
	bo_ctl_state_acked(bo_ctl_server_state(srv), &n);
	CU_ASSERT(n == 0); /* a mark that never reached the log is not an ack */
	CU_ASSERT(bo_ctl_server_failure(srv, &err) == -ENOSPC);
	bo_ctl_server_free(srv);
	bo_log_writer_free(fl.w);
}

static void clean_run_has_no_failure(void)
{
	struct fake_log fl = {0};
	struct bo_ctl_server *srv = start(&fl, bo_test_path("ok.sock"), bo_test_path("ok.log"));
	struct bo_err err = {0};

	CU_ASSERT(bo_ctl_issue(10) == 0);
	CU_ASSERT(bo_ctl_ack(10) == 0);
	bo_ctl_close();
	bo_ctl_server_stop(srv);
	CU_ASSERT(bo_ctl_server_failure(srv, &err) == 0);
	bo_ctl_server_free(srv);
	bo_log_writer_free(fl.w);
}

static void server_start_errors(void)
{
	char longpath[200];
	struct bo_ctl_server_config cfg = {.mark = log_mark};
	struct bo_ctl_server *srv = NULL;
	struct bo_err err = {0};

	memset(longpath, 'p', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	cfg.path = longpath;
	CU_ASSERT(bo_ctl_server_start(&cfg, &srv, &err) == -ENAMETOOLONG);
	cfg.path = bo_test_path("no/such/dir/sock");
	CU_ASSERT(bo_ctl_server_start(&cfg, &srv, &err) == -ENOENT);
	CU_ASSERT(strstr(bo_err_str(&err), "bind") != NULL);
	CU_ASSERT(srv == NULL);
}

static void client_without_env(void)
{
	unsetenv("BLACKOUT_CTL");
	bo_ctl_close();
	CU_ASSERT(bo_ctl_issue(1) == -ENOTCONN);
	CU_ASSERT(strstr(bo_ctl_error(), "BLACKOUT_CTL is not set") != NULL);
	setenv("BLACKOUT_CTL", bo_test_path("nobody-listens"), 1);
	CU_ASSERT(bo_ctl_issue(1) == -ENOENT);
}

/* Run `blackout ctl ARGS` with stdout captured into @out; return its exit status. */
static int run_cli(const char *const *args, char *out, size_t size)
{
	int pfd[2], status;
	ssize_t n;
	pid_t pid;

	CU_ASSERT_FATAL(pipe(pfd) == 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		char *argv[8] = {(char *) BO_BLACKOUT_BIN, (char *) "ctl"};

		for (int i = 0; args[i] && i < 5; i++)
			argv[i + 2] = (char *) args[i];
		dup2(pfd[1], 1);
		execv(BO_BLACKOUT_BIN, argv);
		_exit(127);
	}
	close(pfd[1]);
	n = read(pfd[0], out, size - 1);
	out[n > 0 ? n : 0] = '\0';
	close(pfd[0]);
	CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static void cli_client(void)
{
	const char *logpath = bo_test_path("cli.log");
	struct fake_log fl = {0};
	struct bo_ctl_server *srv = start(&fl, bo_test_path("cli.sock"), logpath);
	struct bo_err err = {0};
	struct bo_log *log;
	uint64_t entry;
	char out[64];

	CU_ASSERT(run_cli((const char *const[]){"--print-entry", "issue", "3", NULL}, out,
			  sizeof(out)) == 0);
	entry = strtoull(out, NULL, 10);
	CU_ASSERT(run_cli((const char *const[]){"ack", "4", NULL}, out, sizeof(out)) == 3);
	CU_ASSERT(run_cli((const char *const[]){"frob", "4", NULL}, out, sizeof(out)) == 2);
	CU_ASSERT(run_cli((const char *const[]){"issue", NULL}, out, sizeof(out)) == 2);
	bo_ctl_server_stop(srv);
	CU_ASSERT(bo_ctl_server_failure(srv, &err) < 0); /* the refused ack fails the run */
	bo_ctl_server_free(srv);
	CU_ASSERT_FATAL(bo_log_writer_close(fl.w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(logpath, 0, &log, &err) == 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(bo_log_mark_name(log, entry));
	CU_ASSERT_STRING_EQUAL(bo_log_mark_name(log, entry), "issue:3");
	CU_ASSERT(bo_log_mark_count(log) == 2);
	bo_log_free(log);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"round_trip", round_trip},
		{"mark_failure", mark_failure},
		{"clean_run_has_no_failure", clean_run_has_no_failure},
		{"server_start_errors", server_start_errors},
		{"client_without_env", client_without_env},
		{"cli_client", cli_client},
		{},
	};

	return bo_test_run("ctl", tests);
}
