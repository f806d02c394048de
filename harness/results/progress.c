// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Progress of the states checked in the VM, drawn on the host (see progress.h).
 */
#include "harness/results/progress.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LINE_MAX_ 4096

/* The guest's counter: one exploration per process. */
static struct {
	uint64_t done, total;
	double last;
	bool on;
} guest;

static void guest_emit(void)
{
	char line[80];
	int n = snprintf(line, sizeof(line), BO_PROGRESS_TAG "%" PRIu64 " %" PRIu64 "\n",
			 guest.done, guest.total);

	/* One write: the line arrives whole between other output. */
	if (n > 0 && write(2, line, (size_t) n) < 0)
		guest.on = false;
	guest.last = bo_now();
}

void bo_progress_begin(uint64_t total)
{
	guest.done = 0;
	guest.total = total;
	guest.on = true;
	guest_emit();
}

void bo_progress_step(void)
{
	if (!guest.on)
		return;
	guest.done++;
	if (guest.done > guest.total)
		guest.total = guest.done;
	if (bo_now() - guest.last >= 0.5)
		guest_emit();
}

void bo_progress_share_done(void)
{
	if (!guest.on)
		return;
	guest.total = guest.done;
	guest_emit();
}

void bo_progress_end(void)
{
	if (guest.on)
		guest_emit();
	guest.on = false;
}

static void duration(char *buf, size_t len, double s)
{
	uint64_t t = s < 0 ? 0 : (uint64_t) (s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%" PRIu64 "h%02" PRIu64 "m", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%" PRIu64 "m%02" PRIu64 "s", t / 60, t % 60);
	else
		snprintf(buf, len, "%" PRIu64 "s", t);
}

void bo_progress_format(char *buf, size_t len, uint64_t done, uint64_t total, double elapsed,
			unsigned vms)
{
	double rate = elapsed > 0 ? (double) done / elapsed : 0;
	char eta[32] = "?", vm[32] = "";

	if (done >= total)
		snprintf(eta, sizeof(eta), "done");
	else if (rate > 0)
		duration(eta, sizeof(eta), (double) (total - done) / rate);
	if (vms > 1)
		snprintf(vm, sizeof(vm), " over %u VMs", vms);
	snprintf(buf, len,
		 "checked %" PRIu64 "/%" PRIu64 " states (%" PRIu64 "%%)%s, %.1f states/s, ETA %s",
		 done, total, total ? done * 100 / total : 0, vm, rate, eta);
}

struct source {
	int rfd;
	char buf[LINE_MAX_];
	size_t len;
	uint64_t done, total;
	bool reported;
};

struct bo_progress_relay {
	unsigned n;
	int out;
	bool tty;  /* BO_PROGRESS_TERMINAL */
	bool none; /* BO_PROGRESS_NONE: progress lines are dropped */
	int *wfds;
	struct source *src;
	pthread_t thread;
	bool started;
	double t0;	     /* first progress line */
	double last_draw;    /* last line drawn */
	uint64_t last_tenth; /* tenths done at the last plain line */
	bool shown;	     /* a terminal line is on screen */
	bool finished;	     /* the 100% plain line was printed */
};

static void out_write(struct bo_progress_relay *r, const char *s, size_t len)
{
	while (len > 0) {
		ssize_t k = write(r->out, s, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return;
		s += k;
		len -= (size_t) k;
	}
}

static void draw(struct bo_progress_relay *r, bool force)
{
	uint64_t done = 0, total = 0;
	unsigned reporting = 0;
	double now = bo_now();
	char line[256], msg[300];
	int n;

	if (r->none)
		return;
	for (unsigned i = 0; i < r->n; i++) {
		done += r->src[i].done;
		total += r->src[i].total;
		reporting += r->src[i].reported;
	}
	if (!reporting)
		return;
	bo_progress_format(line, sizeof(line), done, total, now - r->t0, r->n);
	if (r->tty) {
		if (!force && now - r->last_draw < 0.2)
			return;
		n = snprintf(msg, sizeof(msg), "\r\033[Kblackout: %s", line);
		r->shown = true;
	} else {
		uint64_t tenth = total ? done * 10 / total : 0;
		bool all = reporting == r->n && done >= total;

		if (r->finished || !(force || now - r->last_draw >= 10.0 ||
				     (tenth > r->last_tenth && now - r->last_draw >= 1.0) || all))
			return;
		r->finished = all;
		r->last_tenth = tenth;
		n = snprintf(msg, sizeof(msg), "blackout: %s\n", line);
	}
	r->last_draw = now;
	if (n > 0)
		out_write(r, msg, (size_t) n < sizeof(msg) ? (size_t) n : sizeof(msg) - 1);
}

/* Pass a line of the guest's stderr on, above the progress line. */
static void pass_line(struct bo_progress_relay *r, const char *s, size_t len)
{
	if (r->tty && r->shown) {
		out_write(r, "\r\033[K", 4);
		r->shown = false;
	}
	out_write(r, s, len);
	/* A last line without its newline would be drawn over. */
	if (r->tty && len && s[len - 1] != '\n')
		out_write(r, "\n", 1);
	if (r->tty)
		draw(r, true);
}

static void take_line(struct bo_progress_relay *r, struct source *s, char *line, size_t len)
{
	size_t tag = strlen(BO_PROGRESS_TAG);
	uint64_t done, total;

	if (len > tag && !strncmp(line, BO_PROGRESS_TAG, tag)) {
		char tmp[64];

		snprintf(tmp, sizeof(tmp), "%.*s", (int) (len - tag), line + tag);
		if (sscanf(tmp, "%" SCNu64 " %" SCNu64, &done, &total) == 2 && done <= total) {
			if (r->t0 == 0)
				r->t0 = bo_now();
			s->done = done;
			s->total = total;
			s->reported = true;
			draw(r, false);
			return;
		}
	}
	pass_line(r, line, len);
}

static void *relay_main(void *arg)
{
	struct bo_progress_relay *r = arg;
	struct pollfd *p = calloc(r->n, sizeof(*p));
	unsigned open = r->n;

	if (!p)
		return NULL;
	for (unsigned i = 0; i < r->n; i++) {
		p[i].fd = r->src[i].rfd;
		p[i].events = POLLIN;
	}
	while (open > 0) {
		if (poll(p, r->n, 1000) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (unsigned i = 0; i < r->n; i++) {
			struct source *s = &r->src[i];
			ssize_t k;
			char *nl;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			k = read(p[i].fd, s->buf + s->len, sizeof(s->buf) - s->len);
			if (k < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (k <= 0) {
				if (s->len)
					pass_line(r, s->buf, s->len);
				s->len = 0;
				p[i].fd = -1;
				open--;
				continue;
			}
			s->len += (size_t) k;
			while ((nl = memchr(s->buf, '\n', s->len))) {
				size_t l = (size_t) (nl - s->buf) + 1;

				take_line(r, s, s->buf, l);
				memmove(s->buf, s->buf + l, s->len - l);
				s->len -= l;
			}
			/* A line longer than the buffer goes on as it is. */
			if (s->len == sizeof(s->buf)) {
				pass_line(r, s->buf, s->len);
				s->len = 0;
			}
		}
		/* A plain line every 10 s even when nothing new arrived. */
		if (!r->tty)
			draw(r, false);
	}
	free(p);
	return NULL;
}

static bool progress_disabled;

void bo_progress_off(void)
{
	progress_disabled = true;
}

enum bo_progress_draw bo_progress_draw_for(int fd)
{
	const char *term = getenv("TERM");

	if (progress_disabled)
		return BO_PROGRESS_NONE;
	return isatty(fd) && (!term || strcmp(term, "dumb")) ? BO_PROGRESS_TERMINAL
							     : BO_PROGRESS_LINES;
}

int bo_progress_relay_start(unsigned n, int out_fd, enum bo_progress_draw how, int *ret_fds,
			    struct bo_progress_relay **ret, struct bo_err *err)
{
	struct bo_progress_relay *r = calloc(1, sizeof(*r));
	int e;

	if (!r || !(r->src = calloc(n, sizeof(*r->src))) || !(r->wfds = calloc(n, sizeof(int)))) {
		if (r)
			free(r->src);
		free(r);
		return bo_err_set(err, ENOMEM, "progress: out of memory");
	}
	r->n = n;
	r->out = out_fd;
	r->tty = how == BO_PROGRESS_TERMINAL;
	r->none = how == BO_PROGRESS_NONE;
	for (unsigned i = 0; i < n; i++)
		r->src[i].rfd = r->wfds[i] = -1;
	for (unsigned i = 0; i < n; i++) {
		int fds[2];

		if (pipe2(fds, O_CLOEXEC) < 0) {
			e = errno;
			bo_progress_relay_stop(r);
			return bo_err_set(err, e, "progress: pipe: %s", strerror(e));
		}
		r->src[i].rfd = fds[0];
		r->wfds[i] = ret_fds[i] = fds[1];
	}
	{
		/* The thread takes no signal: they stay with the threads that handle them. */
		sigset_t all, old;

		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		e = pthread_create(&r->thread, NULL, relay_main, r);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (e) {
		bo_progress_relay_stop(r);
		return bo_err_set(err, e, "progress: starting a thread: %s", strerror(e));
	}
	r->started = true;
	*ret = r;
	return 0;
}

void bo_progress_relay_stop(struct bo_progress_relay *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->n; i++)
		if (r->wfds[i] >= 0)
			close(r->wfds[i]);
	if (r->started) {
		pthread_join(r->thread, NULL);
		if (r->tty && r->shown) {
			draw(r, true);
			out_write(r, "\n", 1);
		} else if (!r->tty) {
			draw(r, true);
		}
	}
	for (unsigned i = 0; i < r->n; i++)
		if (r->src[i].rfd >= 0)
			close(r->src[i].rfd);
	free(r->src);
	free(r->wfds);
	free(r);
}
