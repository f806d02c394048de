// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout-kvd — the blackout side of the kvd example (docs/daemons.md): a client workload
 * that starts the daemon in the filesystem under test and acknowledges each committed put,
 * and a checker that restarts the daemon on a crash state (its recovery runs) and asks it for
 * every key.
 *
 * Op i is "put k<i> <value of op i>"; it is issued before the request is sent and
 * acknowledged once kvd answered "ok" (kvd fsyncs before answering). The checker prints
 * "present <i>" when "get k<i>" returns op i's value. A daemon that does not come up on the
 * crash state is kvd's recovery failing: "done", exit 1 (app-recovery-failed).
 *
 * Planted bug skip-fsync: kvd runs with --no-fsync, so "ok" no longer means durable.
 *
 * --compact: kvd compacts its log in every recovery, through a temporary file it renames
 * (--compact=rename). Planted bug compact-in-place: it compacts in place instead, so a crash
 * during that recovery loses what it had recovered (blackout check --recovery-crashes).
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scenarios/blackout-ctl.h"
#include "scenarios/common/family.h"

#define DAEMON	  "blackout-kvdd"
#define VALUE_LEN 48u /* bytes, sent as 96 hex digits */

enum { BUG_SKIP_FSYNC, BUG_COMPACT_IN_PLACE };

static const char *const bugs[] = {"skip-fsync", "compact-in-place", NULL};
static bool compact;

static const char usage[] =
	"usage: blackout-kvd [run|check] [--seed N] [--ops N] [--compact]\n"
	"                    [--bug=skip-fsync|compact-in-place]\n\n"
	"run    start " DAEMON " on the current directory and put --ops keys through it,\n"
	"       acknowledging each once the daemon answered 'ok'\n"
	"check  restart " DAEMON " on the crash state (its recovery runs), print\n"
	"       'present <id>' for every key with the right value, 'done'; exit 1 when the\n"
	"       daemon does not come up\n"
	"--compact  kvd compacts its log in each recovery (through a renamed temporary\n"
	"           file; in place with --bug=compact-in-place)";

struct daemon {
	pid_t pid;
	FILE *in, *out;
	char sock[108];
};

/* Start the daemon on the current directory and connect to it. Returns 0 or -1 when it did
 * not come up (its own messages are on stderr). */
static int daemon_start(const struct family_args *a, struct daemon *d)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char fdarg[16], buf[8];
	int pfd[2], fd;
	ssize_t n;

	/* The socket lives outside the filesystem under test: it is no part of the workload. */
	snprintf(d->sock, sizeof(d->sock), "/run/blackout-kvd-%d.sock", (int) getpid());
	if (pipe(pfd) < 0)
		return -1;
	d->pid = fork();
	if (d->pid < 0)
		return -1;
	if (d->pid == 0) {
		close(pfd[0]);
		snprintf(fdarg, sizeof(fdarg), "%d", pfd[1]);
		const char *how = a->bug == BUG_COMPACT_IN_PLACE ? "--compact=in-place"
				  : compact			 ? "--compact=rename"
								 : NULL;

		execlp(DAEMON, DAEMON, "--dir", ".", "--socket", d->sock, "--ready-fd", fdarg,
		       a->bug == BUG_SKIP_FSYNC ? "--no-fsync" : how,
		       a->bug == BUG_SKIP_FSYNC ? how : NULL, (char *) NULL);
		_exit(127);
	}
	close(pfd[1]);
	/* The daemon writes "ready" once it listens, or exits and the pipe reads EOF. */
	do
		n = read(pfd[0], buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n != 6)
		return -1;
	memcpy(sa.sun_path, d->sock, strlen(d->sock) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	d->in = fdopen(fd, "r");
	d->out = fdopen(fcntl(fd, F_DUPFD_CLOEXEC, 0), "w");
	return d->in && d->out ? 0 : -1;
}

/* Send one request line and read the reply into @reply. Returns 0 or -1. */
static int request(struct daemon *d, const char *req, char *reply, size_t len)
{
	if (fprintf(d->out, "%s\n", req) < 0 || fflush(d->out) != 0 ||
	    !fgets(reply, (int) len, d->in))
		return -1;
	reply[strcspn(reply, "\n")] = '\0';
	return 0;
}

/* Ask the daemon to quit and reap it. Returns its exit status, or -1. */
static int daemon_stop(struct daemon *d)
{
	char reply[16];
	int st;

	if (d->in && d->out)
		(void) request(d, "quit", reply, sizeof(reply));
	else if (d->pid > 0)
		/* Up but not connected to: it would wait for a client forever. */
		kill(d->pid, SIGTERM);
	if (d->in)
		fclose(d->in);
	if (d->out)
		fclose(d->out);
	if (d->pid <= 0)
		return -1;
	if (waitpid(d->pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void value_of(uint64_t seed, uint64_t id, char *hex)
{
	unsigned char v[VALUE_LEN];

	family_fill(seed, id, v, VALUE_LEN);
	for (unsigned i = 0; i < VALUE_LEN; i++)
		sprintf(hex + 2 * i, "%02x", v[i]);
}

static int run(const struct family_args *a)
{
	struct daemon d = {0};
	char req[300], reply[300], value[2 * VALUE_LEN + 1];
	int st = 0;

	if (daemon_start(a, &d) < 0) {
		daemon_stop(&d);
		return family_die(1, a->prog, "%s did not start", DAEMON);
	}
	for (uint64_t id = 1; id <= a->ops && !st; id++) {
		value_of(a->seed, id, value);
		snprintf(req, sizeof(req), "put k%llu %s", (unsigned long long) id, value);
		if (bo_ctl_issue(id) < 0)
			st = family_die(1, a->prog, "%s", bo_ctl_error());
		else if (request(&d, req, reply, sizeof(reply)) < 0 || strcmp(reply, "ok"))
			st = family_die(1, a->prog, "put %llu: '%s'", (unsigned long long) id,
					reply);
		else if (bo_ctl_ack(id) < 0)
			st = family_die(1, a->prog, "%s", bo_ctl_error());
	}
	if (daemon_stop(&d) != 0 && !st)
		st = family_die(1, a->prog, "%s did not exit cleanly", DAEMON);
	return st;
}

static int check(const struct family_args *a)
{
	struct daemon d = {0};
	char req[64], reply[300], value[2 * VALUE_LEN + 1];
	int st = 0;

	if (daemon_start(a, &d) < 0) {
		daemon_stop(&d);
		puts("# kvd did not come up on this state");
		puts("done");
		fflush(stdout);
		return 1;
	}
	for (uint64_t id = 1; id <= a->ops; id++) {
		snprintf(req, sizeof(req), "get k%llu", (unsigned long long) id);
		if (request(&d, req, reply, sizeof(reply)) < 0) {
			puts("# kvd stopped answering");
			st = 1;
			break;
		}
		value_of(a->seed, id, value);
		if (!strncmp(reply, "val ", 4) && !strcmp(reply + 4, value))
			printf("present %llu\n", (unsigned long long) id);
	}
	if (daemon_stop(&d) != 0) {
		puts("# kvd did not exit cleanly");
		st = 1;
	}
	puts("done");
	return fflush(stdout) == 0 ? st : 3;
}

static int extra(int opt, const char *arg)
{
	(void) arg;
	compact = opt == 'c';
	return compact ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {{"compact", no_argument, NULL, 'c'}, {}};
	struct family_args a;
	int r = family_parse(argc, argv, usage, bugs, opts, extra, &a);

	if (r)
		return r;
	signal(SIGPIPE, SIG_IGN);
	return a.check ? check(&a) : run(&a);
}
