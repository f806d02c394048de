// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/ctl/ctl.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "harness/base/macro.h"

/* More clients than this is a runaway workload, not a design. */
#define MAX_CLIENTS 64

struct client {
	int fd;
	size_t used;
	bool discarding; /* skipping the rest of an over-long line */
	char buf[BO_CTL_LINE_MAX + 1];
};

struct bo_ctl_server {
	char *path;
	bo_ctl_mark_fn mark;
	void *ctx;
	int listen_fd, wake_fd;
	pthread_t thread;
	bool running;
	struct bo_ctl_state *state;
	struct client *clients[MAX_CLIENTS];
	size_t nclients;
	unsigned failures;
	struct bo_err first;
};

/* Remember a failure; the first one's text is what the run reports. */
static void record(struct bo_ctl_server *srv, const struct bo_err *err)
{
	if (srv->failures++ == 0)
		srv->first = *err;
	bo_debug(BO_DBG_RUN, "ctl: %s", bo_err_str(err));
}

static void drop_client(struct bo_ctl_server *srv, size_t i)
{
	close(srv->clients[i]->fd);
	free(srv->clients[i]);
	srv->clients[i] = srv->clients[--srv->nclients];
}

/* Send a whole reply; false if the client cannot take it (gone, or not reading). */
static bool send_reply(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf += n;
		len -= (size_t) n;
	}
	return true;
}

static bool reply_err(struct bo_ctl_server *srv, int fd, struct bo_err *err)
{
	char buf[BO_CTL_REPLY_MAX + 2];

	record(srv, err);
	return send_reply(fd, buf, bo_ctl_format_err(buf, sizeof(buf), bo_err_str(err)));
}

/* Handle one request line; false when the client must be dropped. */
static bool handle_line(struct bo_ctl_server *srv, int fd, const char *line, size_t len)
{
	struct bo_err err = {0};
	struct bo_ctl_req req;
	char buf[BO_CTL_REPLY_MAX + 2];
	uint64_t entry;
	int r;

	if (bo_ctl_parse(line, len, &req, &err) < 0 ||
	    bo_ctl_state_check(srv->state, &req, &err) < 0)
		return reply_err(srv, fd, &err);
	r = srv->mark(srv->ctx, req.name, &entry, &err);
	if (r < 0) {
		if (!err.errnum)
			bo_err_set(&err, -r, "%s", strerror(-r));
		bo_err_prefix(&err, "inserting mark '%s'", req.name);
		return reply_err(srv, fd, &err);
	}
	r = bo_ctl_state_commit(srv->state, &req);
	if (r < 0) {
		bo_err_set(&err, -r, "recording '%s': %s", req.name, strerror(-r));
		return reply_err(srv, fd, &err);
	}
	bo_debug(BO_DBG_RUN, "ctl: mark '%s' at entry %" PRIu64, req.name, entry);
	return send_reply(fd, buf, bo_ctl_format_ok(buf, sizeof(buf), entry));
}

/* Read what a client sent and handle every complete line; false when it is done. */
static bool serve_client(struct bo_ctl_server *srv, struct client *c)
{
	struct bo_err err = {0};
	ssize_t n;
	size_t start = 0;

	n = read(c->fd, c->buf + c->used, sizeof(c->buf) - c->used);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0) {
		if (c->used && !c->discarding) {
			bo_err_set(&err, EPROTO, "connection closed in the middle of a request");
			reply_err(srv, c->fd, &err);
		}
		return false;
	}
	c->used += (size_t) n;
	for (;;) {
		char *nl = memchr(c->buf + start, '\n', c->used - start);

		if (!nl)
			break;
		if (c->discarding)
			c->discarding = false;
		else if (!handle_line(srv, c->fd, c->buf + start, (size_t) (nl - c->buf) - start))
			return false;
		start = (size_t) (nl - c->buf) + 1;
	}
	memmove(c->buf, c->buf + start, c->used - start);
	c->used -= start;
	if (c->used == sizeof(c->buf)) {
		/* No newline within the limit: answer once, then skip to the next newline. */
		c->used = 0;
		if (!c->discarding) {
			c->discarding = true;
			bo_err_set(&err, E2BIG, "request is longer than %d bytes", BO_CTL_LINE_MAX);
			return reply_err(srv, c->fd, &err);
		}
	}
	return true;
}

static void accept_client(struct bo_ctl_server *srv)
{
	struct bo_err err = {0};
	struct client *c;
	int fd = accept4(srv->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0) {
		if (errno == EINTR || errno == EAGAIN || errno == ECONNABORTED)
			return;
		bo_err_set(&err, errno, "accepting a control connection: %s", strerror(errno));
		record(srv, &err);
		return;
	}
	if (srv->nclients == MAX_CLIENTS) {
		bo_err_set(&err, EMFILE, "more than %d control connections", MAX_CLIENTS);
		reply_err(srv, fd, &err);
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		bo_err_set(&err, ENOMEM, "out of memory for a control connection");
		reply_err(srv, fd, &err);
		close(fd);
		return;
	}
	c->fd = fd;
	srv->clients[srv->nclients++] = c;
}

static void *serve(void *arg)
{
	struct bo_ctl_server *srv = arg;
	struct pollfd pfd[MAX_CLIENTS + 2];
	struct bo_err err = {0};

	for (;;) {
		size_t n = srv->nclients;

		pfd[0] = (struct pollfd){.fd = srv->wake_fd, .events = POLLIN};
		pfd[1] = (struct pollfd){.fd = srv->listen_fd, .events = POLLIN};
		for (size_t i = 0; i < n; i++)
			pfd[i + 2] = (struct pollfd){.fd = srv->clients[i]->fd, .events = POLLIN};
		if (poll(pfd, n + 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			bo_err_set(&err, errno, "control server poll: %s", strerror(errno));
			record(srv, &err);
			return NULL;
		}
		/* Clients from the back, so that dropping one does not move an unserved one into
		 * its slot; and before the stop request, so that what a client sent before the
		 * run stopped the server is still answered and recorded. */
		for (size_t i = n; i-- > 0;)
			if (pfd[i + 2].revents && !serve_client(srv, srv->clients[i]))
				drop_client(srv, i);
		if (pfd[0].revents)
			return NULL;
		if (pfd[1].revents)
			accept_client(srv);
	}
}

int bo_ctl_server_start(const struct bo_ctl_server_config *cfg, struct bo_ctl_server **ret,
			struct bo_err *err)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct bo_ctl_server *srv;
	sigset_t all, old;
	int r;

	if (strlen(cfg->path) >= sizeof(sa.sun_path))
		return bo_err_set(err, ENAMETOOLONG,
				  "control socket '%s': path longer than %zu bytes", cfg->path,
				  sizeof(sa.sun_path) - 1);
	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return bo_err_set(err, ENOMEM, "out of memory");
	srv->listen_fd = srv->wake_fd = -1;
	srv->mark = cfg->mark;
	srv->ctx = cfg->ctx;
	srv->path = strdup(cfg->path);
	if (!srv->path || bo_ctl_state_new(&srv->state) < 0) {
		r = bo_err_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	for (const char *const *p = cfg->reserved; p && *p; p++)
		if (bo_ctl_state_reserve(srv->state, *p) == -ENOMEM) {
			r = bo_err_set(err, ENOMEM, "out of memory");
			goto fail;
		}
	srv->wake_fd = eventfd(0, EFD_CLOEXEC);
	srv->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (srv->wake_fd < 0 || srv->listen_fd < 0) {
		r = bo_err_set(err, errno, "control socket: %s", strerror(errno));
		goto fail;
	}
	strcpy(sa.sun_path, cfg->path);
	if (bind(srv->listen_fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
		r = bo_err_set(err, errno, "control socket '%s': bind: %s", cfg->path,
			       strerror(errno));
		goto fail;
	}
	if (listen(srv->listen_fd, 16) < 0) {
		r = bo_err_set(err, errno, "control socket '%s': listen: %s", cfg->path,
			       strerror(errno));
		unlink(srv->path);
		goto fail;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = -pthread_create(&srv->thread, NULL, serve, srv);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r < 0) {
		bo_err_set(err, -r, "control server thread: %s", strerror(-r));
		unlink(srv->path);
		goto fail;
	}
	srv->running = true;
	*ret = srv;
	return 0;
fail:
	bo_ctl_server_free(srv);
	return r;
}

void bo_ctl_server_stop(struct bo_ctl_server *srv)
{
	uint64_t one = 1;

	if (!srv || !srv->running)
		return;
	/* An eventfd write of 1 cannot fail short of a counter overflow. */
	(void) !write(srv->wake_fd, &one, sizeof(one));
	pthread_join(srv->thread, NULL);
	srv->running = false;
	while (srv->nclients)
		drop_client(srv, srv->nclients - 1);
	close(srv->listen_fd);
	srv->listen_fd = -1;
	if (unlink(srv->path) < 0)
		bo_debug(BO_DBG_RUN, "ctl: removing '%s': %s", srv->path, strerror(errno));
}

void bo_ctl_server_free(struct bo_ctl_server *srv)
{
	if (!srv)
		return;
	bo_ctl_server_stop(srv);
	if (srv->listen_fd >= 0)
		close(srv->listen_fd);
	if (srv->wake_fd >= 0)
		close(srv->wake_fd);
	bo_ctl_state_free(srv->state);
	free(srv->path);
	free(srv);
}

const char *bo_ctl_server_path(const struct bo_ctl_server *srv)
{
	return srv->path;
}

const struct bo_ctl_state *bo_ctl_server_state(const struct bo_ctl_server *srv)
{
	return srv->running ? NULL : srv->state;
}

int bo_ctl_server_failure(const struct bo_ctl_server *srv, struct bo_err *err)
{
	if (srv->running)
		return bo_err_set(err, EBUSY, "control server still running");
	if (!srv->failures)
		return 0;
	return bo_err_set(err, srv->first.errnum ? srv->first.errnum : EPROTO,
			  "control channel: %u failed request%s, the first: %s", srv->failures,
			  srv->failures == 1 ? "" : "s", bo_err_str(&srv->first));
}
