// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/replay/basesrv.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness/replay/replay.h"

#define BASE_ALIGN (2ull << 20)
/* A request or an answer: "replay N", "ok N", "error MESSAGE". */
#define LINE_MAX_LEN 600

struct bo_base_server {
	const struct bo_log *log;
	struct bo_replay *replay;
	uint64_t size, requests;
	int base_fd;
	int sock[2]; /* [0] served here, [1] the guest's end, for QEMU */
	pthread_t thread;
	bool running;
};

/* Read one line (without its newline) from @fd into @buf; 0 at a clean end, -errno. */
static int read_line(int fd, char *buf, size_t len)
{
	size_t n = 0;

	for (;;) {
		ssize_t got = read(fd, buf + n, 1);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0)
			return n ? -EPROTO : 0;
		if (buf[n] == '\n') {
			buf[n] = '\0';
			return 1;
		}
		if (++n == len)
			return -EMSGSIZE;
	}
}

static int write_all(int fd, const char *s)
{
	size_t len = strlen(s);

	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		s += n;
		len -= (size_t) n;
	}
	return 0;
}

/* Answer one request line @req. */
static void serve(struct bo_base_server *s, const char *req, char *out, size_t len)
{
	struct bo_err err = {0};
	uint64_t n;
	int end = 0;

	if (sscanf(req, "replay %" SCNu64 "%n", &n, &end) != 1 || req[end]) {
		snprintf(out, len, "error the host base got a malformed request '%.64s'\n", req);
		return;
	}
	if (bo_replay_to(s->replay, n, &err) < 0) {
		/* One line: the message must not carry a newline of its own. */
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", bo_err_str(&err));
		msg[strcspn(msg, "\n")] = '\0';
		snprintf(out, len, "error %s\n", msg);
		return;
	}
	s->requests++;
	snprintf(out, len, "ok %" PRIu64 "\n", n);
	/* The next cut's log data is read while the guest checks this state. */
	bo_replay_prefetch(s->replay, bo_log_count(s->log));
}

static void *server_main(void *arg)
{
	struct bo_base_server *s = arg;
	char req[LINE_MAX_LEN], out[LINE_MAX_LEN];

	for (;;) {
		int r = read_line(s->sock[0], req, sizeof(req));

		if (r <= 0) {
			if (r < 0)
				bo_debug(BO_DBG_RUN, "host base: reading a request: %s",
					 strerror(-r));
			break;
		}
		serve(s, req, out, sizeof(out));
		if (write_all(s->sock[0], out) < 0)
			break;
	}
	return NULL;
}

int bo_base_server_start(const struct bo_log *log, uint64_t size, struct bo_base_server **ret,
			 int *ret_base_fd, int *ret_port_fd, struct bo_err *err)
{
	struct bo_base_server *s;
	char path[64];
	int r;

	if (size == 0 || size > UINT64_MAX - BASE_ALIGN)
		return bo_err_set(err, EINVAL, "host base: bad image size %" PRIu64, size);
	s = calloc(1, sizeof(*s));
	if (!s)
		return bo_err_set(err, ENOMEM, "host base: out of memory");
	s->log = log;
	s->sock[0] = s->sock[1] = -1;
	s->size = (size + BASE_ALIGN - 1) & ~(BASE_ALIGN - 1);
	/* Sparse, zeroed, in memory, gone with its last fd: nothing is left behind. */
	s->base_fd = memfd_create("blackout-base", MFD_CLOEXEC);
	if (s->base_fd < 0 || ftruncate(s->base_fd, (off_t) s->size) < 0) {
		r = bo_err_set(err, errno, "host base: a memory file of %" PRIu64 " bytes: %s",
			       s->size, strerror(errno));
		goto fail;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s->sock) < 0) {
		r = bo_err_set(err, errno, "host base: socketpair: %s", strerror(errno));
		goto fail;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", s->base_fd);
	r = bo_replay_new(log, path, BO_REPLAY_MAP_LOG, 0, &s->replay, err);
	if (r < 0)
		goto fail;
	r = -pthread_create(&s->thread, NULL, server_main, s);
	if (r < 0) {
		r = bo_err_set(err, -r, "host base: starting its thread: %s", strerror(-r));
		goto fail;
	}
	s->running = true;
	*ret = s;
	*ret_base_fd = s->base_fd;
	*ret_port_fd = s->sock[1];
	return 0;
fail:
	bo_base_server_stop(s);
	return r;
}

uint64_t bo_base_server_size(const struct bo_base_server *s)
{
	return s->size;
}

uint64_t bo_base_server_requests(const struct bo_base_server *s)
{
	return s->requests;
}

uint64_t bo_base_server_stop(struct bo_base_server *s)
{
	uint64_t n;

	if (!s)
		return 0;
	if (s->running) {
		/* Ends the thread's read, whoever else still holds the guest's end. */
		shutdown(s->sock[0], SHUT_RDWR);
		pthread_join(s->thread, NULL);
	}
	bo_replay_free(s->replay);
	for (int i = 0; i < 2; i++)
		if (s->sock[i] >= 0)
			close(s->sock[i]);
	if (s->base_fd >= 0)
		close(s->base_fd);
	n = s->requests;
	free(s);
	return n;
}

int bo_base_send(int fd, uint64_t applied, struct bo_err *err)
{
	char req[64];
	int r;

	snprintf(req, sizeof(req), "replay %" PRIu64 "\n", applied);
	r = write_all(fd, req);
	if (r < 0)
		return bo_err_set(err, -r, "asking the host to replay to entry %" PRIu64 ": %s",
				  applied, strerror(-r));
	return 0;
}

int bo_base_wait(int fd, uint64_t applied, struct bo_err *err)
{
	char ans[LINE_MAX_LEN], want[64];
	int r;

	r = read_line(fd, ans, sizeof(ans));
	if (r <= 0)
		return bo_err_set(err, r < 0 ? -r : EPIPE,
				  "waiting for the host's replay to entry %" PRIu64 ": %s", applied,
				  r < 0 ? strerror(-r) : "the host closed the port");
	if (!strncmp(ans, "error ", 6))
		return bo_err_set(err, EIO, "the host's replay to entry %" PRIu64 ": %s", applied,
				  ans + 6);
	snprintf(want, sizeof(want), "ok %" PRIu64, applied);
	if (strcmp(ans, want))
		return bo_err_set(err, EPROTO,
				  "the host answered '%.64s' to a replay to entry %" PRIu64, ans,
				  applied);
	return 0;
}
