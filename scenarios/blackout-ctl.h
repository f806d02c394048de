/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blackout-ctl.h — header-only client of the blackout control channel, for workloads.
 *
 * A workload tells the harness about its operations so that they become marks in the write
 * log (protocol in docs/ctl.md):
 *
 *	if (bo_ctl_issue(17) < 0)           // before starting op 17
 *		die(bo_ctl_error());
 *	... do op 17, e.g. write + fsync ...
 *	if (bo_ctl_ack(17) < 0)             // op 17 is durable; the workload relies on it
 *		die(bo_ctl_error());
 *
 * Every call blocks until the harness answered "ok <entry>", i.e. until the mark is in the
 * log, or for at most BLACKOUT_CTL_TIMEOUT seconds (default 600: a harness that answers
 * nothing that long is gone or stuck; docs/ctl.md). The connection is opened on first use
 * from the socket path in the environment variable BLACKOUT_CTL. Op ids strictly increase (issue ids among themselves, ack ids among
 * themselves); any rejected request fails the run.
 *
 * Only libc is needed. The connection is a per-translation-unit static: use the client from
 * one source file (or pass the results around), from one thread at a time, and do not share
 * the connection across fork() — call bo_ctl_close() in the child and let it reconnect.
 */
#ifndef BLACKOUT_CTL_H
#define BLACKOUT_CTL_H

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* The environment variable naming the socket. */
#define BO_CTL_ENV "BLACKOUT_CTL"

/*
 * The environment variable giving how long, in seconds, the client waits for the harness: to
 * connect, to send, for a reply. The harness answers a request within 30 s of taking it up (it
 * waits that long for its mark to reach the log, then says "err"), one request at a time, and
 * in well under a second under TCG; ten minutes without an answer is a harness gone or stuck.
 */
#define BO_CTL_TIMEOUT_ENV     "BLACKOUT_CTL_TIMEOUT"
#define BO_CTL_TIMEOUT_DEFAULT 600

struct bo_ctl_client {
	int fd;
	char error[640];
};

/* The process's (translation unit's) connection state. */
static inline struct bo_ctl_client *bo_ctl_client_get(void)
{
	static struct bo_ctl_client client = {.fd = -1};

	return &client;
}

/* The text of the last failure: the harness's "err" message or a local error. */
static inline const char *bo_ctl_error(void)
{
	return bo_ctl_client_get()->error;
}

/* Record "WHAT: DETAIL" (DETAIL defaults to strerror) as the last failure; return -@errnum. */
static inline int bo_ctl_fail(int errnum, const char *what, const char *detail)
{
	snprintf(bo_ctl_client_get()->error, sizeof(bo_ctl_client_get()->error), "%s: %s", what,
		 detail ? detail : strerror(errnum));
	return -errnum;
}

/* Close the connection (the next request reopens it). */
static inline void bo_ctl_close(void)
{
	struct bo_ctl_client *c = bo_ctl_client_get();

	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* The seconds of BLACKOUT_CTL_TIMEOUT (1 to 86400), its default without it; 0 for a value that
 * is not such a number. */
static inline unsigned bo_ctl_timeout(void)
{
	const char *v = getenv(BO_CTL_TIMEOUT_ENV);
	unsigned long s;
	char *end;

	if (!v || !*v)
		return BO_CTL_TIMEOUT_DEFAULT;
	errno = 0;
	s = strtoul(v, &end, 10);
	return errno || *end || *v < '0' || *v > '9' || s < 1 || s > 86400 ? 0 : (unsigned) s;
}

/* Connect to $BLACKOUT_CTL unless already connected. Returns 0 or -errno. */
static inline int bo_ctl_connect(void)
{
	struct bo_ctl_client *c = bo_ctl_client_get();
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	const char *path = getenv(BO_CTL_ENV);
	struct timeval tv = {.tv_sec = bo_ctl_timeout()};
	int fd;

	if (c->fd >= 0)
		return 0;
	if (!path || !*path)
		return bo_ctl_fail(ENOTCONN, "blackout ctl",
				   BO_CTL_ENV " is not set (not running under blackout?)");
	if (strlen(path) >= sizeof(sa.sun_path))
		return bo_ctl_fail(ENAMETOOLONG, "blackout ctl: " BO_CTL_ENV, NULL);
	if (!tv.tv_sec)
		return bo_ctl_fail(EINVAL, "blackout ctl: " BO_CTL_TIMEOUT_ENV,
				   "not a number of seconds from 1 to 86400");
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return bo_ctl_fail(errno, "blackout ctl: socket", NULL);
	/* A connect to a server that accepts no more, and a send to one that reads nothing,
	 * give up after the timeout (a unix socket's connect waits as long as its sends). */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    connect(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
		int e = errno;

		close(fd);
		if (e == EAGAIN || e == EINPROGRESS)
			snprintf(
				c->error, sizeof(c->error),
				"blackout ctl: connecting to '%s': no answer in %ld s (the harness "
				"is gone or stuck; " BO_CTL_TIMEOUT_ENV ")",
				path, (long) tv.tv_sec);
		else
			snprintf(c->error, sizeof(c->error), "blackout ctl: connecting to '%s': %s",
				 path, strerror(e));
		return -e;
	}
	c->fd = fd;
	return 0;
}

/*
 * Send "VERB ARG\n" and wait for the reply. On "ok <entry>" returns 0 and stores the entry in
 * *@ret_entry (if not NULL); on "err ..." returns -EPROTO with the message in bo_ctl_error().
 * @arg may not contain whitespace or control characters (they would break the framing).
 */
static inline int bo_ctl_request(const char *verb, const char *arg, uint64_t *ret_entry)
{
	struct bo_ctl_client *c = bo_ctl_client_get();
	char line[600], reply[700], *end;
	size_t len = 0, off = 0;
	unsigned long long entry;
	struct timespec now, until;
	int r, n;

	for (const char *p = arg; *p; p++)
		if ((unsigned char) *p <= ' ' || *p == 0x7f)
			return bo_ctl_fail(EINVAL, "blackout ctl",
					   "argument contains whitespace or a control character");
	n = snprintf(line, sizeof(line), "%s %s\n", verb, arg);
	if (n < 0 || (size_t) n >= sizeof(line))
		return bo_ctl_fail(E2BIG, "blackout ctl", "request too long");
	r = bo_ctl_connect();
	if (r < 0)
		return r;
	while (off < (size_t) n) {
		ssize_t w = send(c->fd, line + off, (size_t) n - off, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			r = bo_ctl_fail(errno, "blackout ctl: sending request",
					errno == EAGAIN ? "the harness reads nothing" : NULL);
			bo_ctl_close();
			return r;
		}
		off += (size_t) w;
	}
	/* One reply per request: read byte by byte so nothing past the newline is consumed;
	 * the whole reply within the timeout, however it trickles in. */
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += bo_ctl_timeout();
	for (;;) {
		struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
		ssize_t got;
		long ms;

		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (until.tv_sec - now.tv_sec) * 1000 + (until.tv_nsec - now.tv_nsec) / 1000000;
		r = ms > 0 ? poll(&pfd, 1, (int) ms) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			/* A reply that comes later would be taken for the next request's. */
			bo_ctl_close();
			snprintf(c->error, sizeof(c->error),
				 "blackout ctl: '%.16s %.64s': no reply from the harness in %u s "
				 "(it is gone or stuck; " BO_CTL_TIMEOUT_ENV ")",
				 verb, arg, bo_ctl_timeout());
			return -ETIMEDOUT;
		}
		got = r < 0 ? -1 : read(c->fd, reply + len, 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			r = bo_ctl_fail(got < 0 ? errno : ECONNRESET, "blackout ctl",
					got < 0 ? NULL : "connection closed before the reply");
			bo_ctl_close();
			return r;
		}
		if (reply[len] == '\n')
			break;
		if (++len == sizeof(reply) - 1) {
			bo_ctl_close();
			return bo_ctl_fail(EBADMSG, "blackout ctl", "reply too long");
		}
	}
	reply[len] = '\0';
	if (!strncmp(reply, "err ", 4)) {
		snprintf(c->error, sizeof(c->error), "blackout ctl: '%.16s %.64s' refused: %.500s",
			 verb, arg, reply + 4);
		return -EPROTO;
	}
	if (strncmp(reply, "ok ", 3) || reply[3] < '0' || reply[3] > '9')
		return bo_ctl_fail(EBADMSG, "blackout ctl", "malformed reply");
	errno = 0;
	entry = strtoull(reply + 3, &end, 10);
	if (errno || *end)
		return bo_ctl_fail(EBADMSG, "blackout ctl", "malformed reply");
	if (ret_entry)
		*ret_entry = entry;
	return 0;
}

/* "VERB <opid>" through bo_ctl_request(). */
static inline int bo_ctl_opid_request(const char *verb, uint64_t opid)
{
	char arg[24];

	snprintf(arg, sizeof(arg), "%" PRIu64, opid);
	return bo_ctl_request(verb, arg, NULL);
}

/* Announce that op @opid is about to start. Returns 0 or -errno (see bo_ctl_error()). */
static inline int bo_ctl_issue(uint64_t opid)
{
	return bo_ctl_opid_request("issue", opid);
}

/* Acknowledge op @opid: it is durable and the workload relies on it. Returns 0 or -errno. */
static inline int bo_ctl_ack(uint64_t opid)
{
	return bo_ctl_opid_request("ack", opid);
}

/* Insert the user mark @name (no whitespace, not "issue:..."/"ack:..."). 0 or -errno. */
static inline int bo_ctl_mark(const char *name)
{
	return bo_ctl_request("mark", name, NULL);
}

#endif
