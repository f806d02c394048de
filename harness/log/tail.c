// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/log/tail.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/log/log.h"
#include "harness/base/file.h"
#include "harness/base/safety.h"

struct bo_logtail {
	char *path;
	int fd;
	uint32_t ss;
	uint64_t off; /* next header */
	uint64_t count;
	uint8_t *blk;
	/* The blocks written or discarded since bo_logtail_track() turned it on. */
	bool tracking;
	struct bo_logtail_range *w;
	size_t nw, cap;
};

int bo_logtail_open(const char *path, uint32_t sectorsize, struct bo_logtail **ret,
		    struct bo_err *err)
{
	struct bo_logtail *t = calloc(1, sizeof(*t));

	if (!t)
		return bo_err_set(err, ENOMEM, "log tail");
	t->ss = sectorsize;
	t->off = sectorsize;
	t->path = strdup(path);
	t->blk = malloc(sectorsize);
	t->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (!t->path || !t->blk || t->fd < 0) {
		int e = t->fd < 0 ? errno : ENOMEM;

		bo_logtail_free(t);
		return bo_err_set(err, e, "following log '%s': %s", path, strerror(e));
	}
	*ret = t;
	return 0;
}

void bo_logtail_free(struct bo_logtail *t)
{
	if (!t)
		return;
	if (t->fd >= 0)
		close(t->fd);
	free(t->blk);
	free(t->path);
	free(t->w);
	free(t);
}

void bo_logtail_track(struct bo_logtail *t, bool on)
{
	t->tracking = on;
	t->nw = 0;
}

const struct bo_logtail_range *bo_logtail_written(const struct bo_logtail *t, size_t *ret_n)
{
	*ret_n = t->nw;
	return t->w;
}

/* Note entry @e's blocks when tracking; -ENOMEM. */
static int note(struct bo_logtail *t, const struct bo_log_entry *e)
{
	if (!t->tracking || !e->nr_sectors || (e->flags & BO_LOG_MARK))
		return 0;
	if (t->nw && t->w[t->nw - 1].sector + t->w[t->nw - 1].count == e->sector) {
		t->w[t->nw - 1].count += e->nr_sectors;
		return 0;
	}
	if (t->nw == t->cap) {
		size_t c = t->cap ? 2 * t->cap : 64;
		struct bo_logtail_range *v = reallocarray(t->w, c, sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->w = v;
		t->cap = c;
	}
	t->w[t->nw++] = (struct bo_logtail_range){e->sector, e->nr_sectors};
	return 0;
}

uint64_t bo_logtail_count(const struct bo_logtail *t)
{
	return t->count;
}

int bo_logtail_scan(struct bo_logtail *t, int (*fn)(void *ctx, uint64_t entry, const char *name),
		    void *ctx, struct bo_err *err)
{
	struct stat st;

	if (fstat(t->fd, &st) < 0)
		return bo_err_set(err, errno, "following log '%s': %s", t->path, strerror(errno));
	for (;;) {
		struct bo_log_entry e;
		uint64_t next;
		ssize_t got = bo_pread_full(t->fd, t->blk, t->ss, t->off);
		char name[BO_LOG_MAX_SECTORSIZE > 4096 ? 4096 : BO_LOG_MAX_SECTORSIZE];
		int r;

		if (got < 0)
			return bo_err_set(err, (int) -got, "following log '%s': %s", t->path,
					  strerror((int) -got));
		if ((uint64_t) got < t->ss)
			return 0;
		/* Not a valid header (yet): the kernel has not written this far. */
		if (bo_log_parse_header(t->blk, t->ss, (uint64_t) st.st_size, t->count, t->off, &e,
					&next, NULL) < 0)
			return 0;
		if (note(t, &e) < 0)
			return bo_err_set(err, ENOMEM, "following log '%s': out of memory",
					  t->path);
		if (e.flags & BO_LOG_MARK && fn) {
			uint64_t len;

			memcpy(&len, t->blk + 24, sizeof(len));
			len = le64toh(len);
			if (len >= sizeof(name))
				len = sizeof(name) - 1;
			memcpy(name, t->blk + BO_LOG_ENTRY_HDR_SIZE, len);
			name[len] = '\0';
			r = fn(ctx, t->count, name);
			if (r < 0) {
				t->off = next;
				t->count++;
				return r;
			}
		}
		t->off = next;
		t->count++;
	}
}

struct want {
	const char *name;
	uint64_t entry;
	bool found;
};

static int match(void *ctx, uint64_t entry, const char *name)
{
	struct want *w = ctx;

	if (strcmp(name, w->name))
		return 0;
	w->entry = entry;
	w->found = true;
	return -EEXIST; /* stop here: later marks are for later calls */
}

int bo_logtail_wait_mark(struct bo_logtail *t, const char *name, unsigned timeout_ms,
			 uint64_t *ret_entry, struct bo_err *err)
{
	struct want w = {.name = name};
	struct timespec pause = {0, 50 * 1000};
	double start = bo_now();
	int r;

	for (;;) {
		r = bo_logtail_scan(t, match, &w, err);
		if (w.found) {
			*ret_entry = w.entry;
			return 0;
		}
		if (r < 0)
			return r;
		if (bo_stop_requested())
			return bo_stop_error(err, "waiting for a mark");
		if ((bo_now() - start) * 1000 >= timeout_ms)
			return bo_err_set(err, ETIMEDOUT,
					  "mark '%s' did not appear in log '%s' within %u ms "
					  "(%llu entries read)",
					  name, t->path, timeout_ms, (unsigned long long) t->count);
		/* dm-log-writes queues the mark for its kthread and offers no completion event
		 * (log_mark() only wakes the thread); the log file is all we can watch. Back off
		 * from 50 us to 1 ms between looks: a mark mostly lands within a few ms, and a
		 * longer step would be waited through in full at every one of them (a bounded
		 * workload asks for a dozen); a look is one read. */
		nanosleep(&pause, NULL);
		pause.tv_nsec = pause.tv_nsec < 500 * 1000 ? 2 * pause.tv_nsec : 1000 * 1000;
	}
}
