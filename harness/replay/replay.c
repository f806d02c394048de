// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/replay/replay.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/safety.h"

#ifndef V9FS_MAGIC
#define V9FS_MAGIC 0x01021997
#endif

#define BO_REPLAY_BUF (1u << 20)
/* Log bytes read at once by bo_replay_to(): a few large reads instead of one per entry. */
#define BO_REPLAY_WINDOW (8u << 20)
#define BATCH_IOV	 256

struct bo_replay {
	const struct bo_log *log;
	char *target;
	int fd;
	bool blockdev;
	uint64_t dev_size; /* block devices only */
	uint64_t position;
	uint64_t bytes;
	bool dirty;
	bool no_copy_range; /* copy_file_range() refused once: use pread/pwrite */
	uint8_t *buf;
	uint8_t *win;		     /* BO_REPLAY_WINDOW bytes of the log, or NULL */
	uint64_t win_start, win_end; /* the log bytes win holds; empty when equal */
	/* BO_REPLAY_MAP_LOG: win is the whole log, mapped, for good; map_len bytes. The data
	 * leaves it only through the kernel (pwrite), so a log cut short under the mapping
	 * fails a write with EFAULT rather than the process with SIGBUS. */
	size_t map_len;
	/*
	 * The read-ahead (bo_replay_prefetch()): a thread reads the log bytes [pf_start, pf_end)
	 * into pf; once joined, pf_got says how many it read (-errno: the read failed, and the
	 * window reads again in the foreground, reporting what went wrong).
	 */
	pthread_t pf_thread;
	bool pf_running;
	uint8_t *pf;
	uint64_t pf_start, pf_end;
	int64_t pf_got;
	/*
	 * Writes to adjacent blocks of the target whose data the window holds, gathered for one
	 * pwritev() (bo_replay_to()): [batch_off, batch_off + batch_len) of the target, from
	 * entries batch_first.. on. Under TCG a write costs ~3 us besides its bytes.
	 */
	struct iovec batch[BATCH_IOV];
	int n_batch;
	uint64_t batch_off, batch_len, batch_first;
};

/* Whether the window holds the @len log bytes at @src. */
static bool in_window(const struct bo_replay *r, uint64_t src, uint64_t len)
{
	return r->win_end > r->win_start && src >= r->win_start && src + len <= r->win_end;
}

/*
 * BO_REPLAY_MAP_LOG: the whole log as the window, when it can be mapped. Not on 9p, where
 * every page of the mapping would be a request of its own: the windowed reads are a few
 * large ones.
 */
static void map_log(struct bo_replay *r)
{
	struct statfs sf;
	struct stat st;
	void *m;

	if (fstat(bo_log_fd(r->log), &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t) st.st_size > SIZE_MAX || fstatfs(bo_log_fd(r->log), &sf) < 0 ||
	    sf.f_type == V9FS_MAGIC)
		return;
	m = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_SHARED, bo_log_fd(r->log), 0);
	if (m == MAP_FAILED) {
		bo_debug(BO_DBG_REPLAY, "replay: log '%s' not mapped: %s", bo_log_path(r->log),
			 strerror(errno));
		return;
	}
	(void) madvise(m, (size_t) st.st_size, MADV_SEQUENTIAL);
	r->win = m;
	r->map_len = (size_t) st.st_size;
	r->win_start = 0;
	r->win_end = (uint64_t) st.st_size;
}

int bo_replay_new(const struct bo_log *log, const char *target, unsigned flags, uint64_t min_size,
		  struct bo_replay **ret, struct bo_err *err)
{
	struct stat st;
	int oflags = O_RDWR | O_CLOEXEC;
	int fd, e;

	if (flags & BO_REPLAY_CREATE)
		oflags |= O_CREAT;
	/* Only a file or a block device blackout made (harness/safety.h); checked again on
	 * the open fd (bo_replay_new_fd()), so a target swapped in between is caught too. */
	e = bo_own_check_target(target, err);
	if (e < 0)
		return e;
	/* A block device is opened exclusively: one that is mounted or held by device-mapper
	 * fails with EBUSY instead of being overwritten under its user. */
	if (stat(target, &st) == 0 && S_ISBLK(st.st_mode))
		oflags = (oflags & ~O_CREAT) | (flags & BO_REPLAY_HELD ? 0 : O_EXCL);
	fd = open(target, oflags, 0644);
	if (fd < 0)
		return bo_err_set(err, errno, "opening replay target '%s': %s", target,
				  strerror(errno));
	return bo_replay_new_fd(log, fd, target, flags, min_size, ret, err);
}

int bo_replay_new_fd(const struct bo_log *log, int fd, const char *target, unsigned flags,
		     uint64_t min_size, struct bo_replay **ret, struct bo_err *err)
{
	struct bo_replay *r;
	struct stat st;
	int e;

	r = calloc(1, sizeof(*r));
	if (!r) {
		close(fd);
		return bo_err_set(err, ENOMEM, "allocating replay");
	}
	r->fd = fd;
	r->log = log;
	r->no_copy_range = flags & BO_REPLAY_BUFFERED;
	r->target = strdup(target);
	r->buf = malloc(BO_REPLAY_BUF);
	if (!r->target || !r->buf) {
		bo_replay_free(r);
		return bo_err_set(err, ENOMEM, "allocating replay");
	}
	if (fstat(r->fd, &st) < 0) {
		e = errno;
		bo_replay_free(r);
		return bo_err_set(err, e, "replay target '%s': %s", target, strerror(e));
	}
	e = bo_own_check_fd(r->fd, target, err);
	if (e < 0) {
		bo_replay_free(r);
		return e;
	}
	if (S_ISBLK(st.st_mode)) {
		r->blockdev = true;
		if (ioctl(r->fd, BLKGETSIZE64, &r->dev_size) < 0) {
			e = errno;
			bo_replay_free(r);
			return bo_err_set(err, e, "replay target '%s': BLKGETSIZE64: %s", target,
					  strerror(e));
		}
	} else if (!S_ISREG(st.st_mode)) {
		bo_replay_free(r);
		return bo_err_set(err, EINVAL,
				  "replay target '%s' is not a regular file or block device",
				  target);
	} else if (min_size > (uint64_t) st.st_size && ftruncate(r->fd, (off_t) min_size) < 0) {
		e = errno;
		bo_replay_free(r);
		return bo_err_set(err, e, "replay target '%s': extending to %llu bytes: %s", target,
				  (unsigned long long) min_size, strerror(e));
	}
	if (flags & BO_REPLAY_MAP_LOG)
		map_log(r);
	*ret = r;
	return 0;
}

static void prefetch_join(struct bo_replay *r)
{
	if (r->pf_running)
		pthread_join(r->pf_thread, NULL);
	r->pf_running = false;
}

void bo_replay_free(struct bo_replay *r)
{
	if (!r)
		return;
	prefetch_join(r);
	free(r->pf);
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	if (r->map_len)
		munmap(r->win, r->map_len);
	else
		free(r->win);
	free(r->target);
	free(r);
}

int bo_replay_set_position(struct bo_replay *r, uint64_t applied, struct bo_err *err)
{
	if (applied > bo_log_count(r->log))
		return bo_err_set(err, ERANGE, "position %llu is past the end of the log (%llu)",
				  (unsigned long long) applied,
				  (unsigned long long) bo_log_count(r->log));
	r->position = applied;
	return 0;
}

uint64_t bo_replay_position(const struct bo_replay *r)
{
	return r->position;
}

uint64_t bo_replay_bytes(const struct bo_replay *r)
{
	return r->bytes;
}

/* Why a write out of the window failed: EFAULT from the mapped log means pages it lost. */
static const char *write_error(const struct bo_replay *r, int e)
{
	return e == EFAULT && r->map_len ? "the log shrank under its mapping" : strerror(e);
}

/* Zero [off, off + len) of the target. */
static int zero_range(struct bo_replay *r, uint64_t off, uint64_t len)
{
	struct stat st;

	if (r->blockdev) {
		uint64_t range[2] = {off, len};

		return ioctl(r->fd, BLKZEROOUT, range) < 0 ? -errno : 0;
	}
	/* A discard covers sectors that exist on the device: keep them in the image. */
	if (fstat(r->fd, &st) < 0)
		return -errno;
	if ((uint64_t) st.st_size < off + len && ftruncate(r->fd, (off_t) (off + len)) < 0)
		return -errno;
	if (fallocate(r->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t) off,
		      (off_t) len) == 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return -errno;
	memset(r->buf, 0, BO_REPLAY_BUF);
	for (uint64_t done = 0; done < len;) {
		size_t chunk = len - done < BO_REPLAY_BUF ? (size_t) (len - done) : BO_REPLAY_BUF;
		int ret = bo_pwrite_full(r->fd, r->buf, chunk, off + done);

		if (ret < 0)
			return ret;
		done += chunk;
	}
	return 0;
}

/*
 * Copy @len bytes of entry @e's data, from @src bytes into it, to @dst in the target with
 * copy_file_range(): the data never passes through user space. Returns -EOPNOTSUPP when the
 * kernel cannot do it for this pair of files (block device targets, old kernels, some
 * filesystems), and the caller copies through a buffer instead.
 */
static int copy_range(struct bo_replay *r, const struct bo_log_entry *e, uint64_t src, uint64_t dst,
		      uint64_t len)
{
	loff_t in = (loff_t) (bo_log_data_offset(r->log, e) + src), out = (loff_t) dst;
	uint64_t done = 0;

	if (r->no_copy_range || r->blockdev)
		return -EOPNOTSUPP;
	while (done < len) {
		ssize_t n = copy_file_range(bo_log_fd(r->log), &in, r->fd, &out, len - done, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && done == 0 &&
		    (errno == EINVAL || errno == EXDEV || errno == EOPNOTSUPP || errno == ENOSYS)) {
			r->no_copy_range = true;
			return -EOPNOTSUPP;
		}
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO; /* the log shrank after it was indexed */
		done += (uint64_t) n;
	}
	return 0;
}

int bo_replay_apply(struct bo_replay *r, uint64_t n, uint64_t first, uint64_t count,
		    struct bo_err *err)
{
	const struct bo_log_entry *e = bo_log_entry(r->log, n);
	const uint64_t ss = bo_log_sectorsize(r->log);
	uint64_t off, len, src;
	int ret;

	if (!e)
		return bo_err_set(err, ERANGE, "entry %llu is past the end of the log",
				  (unsigned long long) n);
	if (e->flags & BO_LOG_MARK || e->nr_sectors == 0)
		return 0;
	if (first > e->nr_sectors)
		first = e->nr_sectors;
	if (count > e->nr_sectors - first)
		count = e->nr_sectors - first;
	off = (e->sector + first) * ss;
	len = count * ss;
	if (r->blockdev && (off > r->dev_size || len > r->dev_size - off))
		return bo_err_set(err, ENOSPC,
				  "entry %llu: writes bytes %llu..%llu, past the end of '%s' "
				  "(%llu bytes)",
				  (unsigned long long) n, (unsigned long long) off,
				  (unsigned long long) (off + len), r->target,
				  (unsigned long long) r->dev_size);
	r->dirty = true;
	if (e->flags & BO_LOG_DISCARD) {
		ret = zero_range(r, off, len);
		if (ret < 0)
			return bo_err_set(err, -ret,
					  "entry %llu: zeroing %llu bytes at %llu of '%s': %s",
					  (unsigned long long) n, (unsigned long long) len,
					  (unsigned long long) off, r->target, strerror(-ret));
		return 0;
	}
	src = first * ss;
	if (in_window(r, bo_log_data_offset(r->log, e) + src, len)) {
		ret = bo_pwrite_full(r->fd,
				     r->win + (bo_log_data_offset(r->log, e) + src - r->win_start),
				     (size_t) len, off);
		if (ret < 0)
			return bo_err_set(
				err, -ret, "entry %llu: writing %llu bytes at %llu of '%s': %s",
				(unsigned long long) n, (unsigned long long) len,
				(unsigned long long) off, r->target, write_error(r, -ret));
		r->bytes += len;
		return 0;
	}
	ret = copy_range(r, e, src, off, len);
	if (ret == 0) {
		r->bytes += len;
		return 0;
	}
	if (ret != -EOPNOTSUPP)
		return bo_err_set(err, -ret, "entry %llu: copying %llu bytes to %llu of '%s': %s",
				  (unsigned long long) n, (unsigned long long) len,
				  (unsigned long long) off, r->target, strerror(-ret));
	for (uint64_t done = 0; done < len;) {
		size_t chunk = len - done < BO_REPLAY_BUF ? (size_t) (len - done) : BO_REPLAY_BUF;

		ret = bo_log_read_data(r->log, n, src + done, r->buf, chunk, err);
		if (ret < 0)
			return ret;
		ret = bo_pwrite_full(r->fd, r->buf, chunk, off + done);
		if (ret < 0)
			return bo_err_set(
				err, -ret, "entry %llu: writing %zu bytes at %llu of '%s': %s",
				(unsigned long long) n, chunk, (unsigned long long) (off + done),
				r->target, strerror(-ret));
		done += chunk;
	}
	r->bytes += len;
	return 0;
}

int bo_replay_apply_head(struct bo_replay *r, uint64_t n, uint64_t bytes, struct bo_err *err)
{
	const struct bo_log_entry *e = bo_log_entry(r->log, n);
	const uint64_t ss = bo_log_sectorsize(r->log);
	uint64_t whole = bytes / ss, rest = bytes % ss, off;
	int ret;

	ret = bo_replay_apply(r, n, 0, whole, err);
	if (ret < 0 || !rest || !e || (e->flags & BO_LOG_MARK) || whole >= e->nr_sectors)
		return ret;
	off = (e->sector + whole) * ss;
	if (e->flags & BO_LOG_DISCARD) {
		ret = zero_range(r, off, rest);
	} else {
		ret = bo_log_read_data(r->log, n, whole * ss, r->buf, (size_t) rest, err);
		if (ret < 0)
			return ret;
		ret = bo_pwrite_full(r->fd, r->buf, (size_t) rest, off);
	}
	if (ret < 0)
		return bo_err_set(err, -ret, "entry %llu: writing %llu bytes at %llu of '%s': %s",
				  (unsigned long long) n, (unsigned long long) rest,
				  (unsigned long long) off, r->target, strerror(-ret));
	r->bytes += rest;
	return 0;
}

int bo_replay_sync(struct bo_replay *r, struct bo_err *err)
{
	if (!r->dirty)
		return 0;
	if (fdatasync(r->fd) < 0)
		return bo_err_set(err, errno, "syncing replay target '%s': %s", r->target,
				  strerror(errno));
	r->dirty = false;
	return 0;
}

/* Read log bytes [@start, @end) into @buf; bytes read, or -errno (-ENODATA: the log shrank). */
static int64_t read_log(int fd, uint8_t *buf, uint64_t start, uint64_t end)
{
	uint64_t done = 0;

	while (done < end - start) {
		ssize_t got = pread(fd, buf + done, (size_t) (end - start - done),
				    (off_t) (start + done));

		if (got < 0 && errno == EINTR)
			continue;
		/* 0: the log shrank after it was indexed */
		if (got <= 0)
			return got < 0 ? -errno : -ENODATA;
		done += (uint64_t) got;
	}
	return (int64_t) done;
}

/*
 * The window the replay reads next, on its way to @applied entries: from the data of the
 * first entry at or after the position whose data the window does not hold, up to
 * BO_REPLAY_WINDOW bytes of whole entries. False when no entry up to @applied needs a read.
 */
static bool next_window(const struct bo_replay *r, uint64_t applied, uint64_t *ret_start,
			uint64_t *ret_end)
{
	uint64_t n = r->position, start, end;

	for (; n < applied; n++) {
		const struct bo_log_entry *e = bo_log_entry(r->log, n);
		uint64_t off = bo_log_data_offset(r->log, e), len = bo_log_data_bytes(r->log, e);

		if (len && !(off >= r->win_start && off + len <= r->win_end))
			break;
	}
	if (n >= applied)
		return false;
	start = end = bo_log_data_offset(r->log, bo_log_entry(r->log, n));
	for (; n < applied; n++) {
		const struct bo_log_entry *x = bo_log_entry(r->log, n);
		uint64_t xend = bo_log_data_offset(r->log, x) + bo_log_data_bytes(r->log, x);

		if (xend - start > BO_REPLAY_WINDOW || xend < start)
			break;
		end = xend > end ? xend : end;
	}
	*ret_start = start;
	*ret_end = end;
	return end > start;
}

static void *prefetch_main(void *arg)
{
	struct bo_replay *r = arg;

	r->pf_got = read_log(bo_log_fd(r->log), r->pf, r->pf_start, r->pf_end);
	return NULL;
}

void bo_replay_prefetch(struct bo_replay *r, uint64_t applied)
{
	uint64_t start, end;

	if (r->map_len || r->pf_running || applied > bo_log_count(r->log) ||
	    !next_window(r, applied, &start, &end))
		return;
	if (r->pf_end > r->pf_start && start >= r->pf_start && end <= r->pf_end)
		return; /* read ahead already */
	if (!r->pf) {
		r->pf = malloc(BO_REPLAY_WINDOW);
		if (!r->pf)
			return;
	}
	r->pf_start = start;
	r->pf_end = end;
	r->pf_got = 0;
	/* Without a thread the window is read when it is needed, as without a prefetch. */
	r->pf_running = pthread_create(&r->pf_thread, NULL, prefetch_main, r) == 0;
	if (!r->pf_running)
		r->pf_start = r->pf_end = 0;
}

/*
 * Before applying entry r->position of a run up to @applied: when its data is not in the
 * window, read the log bytes of as many of the next entries as fit in one large pread, or
 * take them from the read-ahead when it holds them. Entries are stored one after the other,
 * so a stretch of the log is one read; on the VM's 9p share that is a few requests instead
 * of one per entry. An entry too large for the window is left to bo_replay_apply()'s own
 * copy.
 */
static int fill_window(struct bo_replay *r, uint64_t applied, struct bo_err *err)
{
	const struct bo_log_entry *e = bo_log_entry(r->log, r->position);
	uint64_t start = bo_log_data_offset(r->log, e), len = bo_log_data_bytes(r->log, e), end;
	int64_t got;

	if (!len || in_window(r, start, len))
		return 0;
	if (r->map_len)
		return bo_err_set(err, EIO,
				  "entry %llu: its data is past the end of log '%s': the log "
				  "shrank",
				  (unsigned long long) r->position, bo_log_path(r->log));
	prefetch_join(r);
	/* What was read ahead, if it holds this entry: swap it in. */
	if (r->pf_got == (int64_t) (r->pf_end - r->pf_start) && r->pf_end > r->pf_start &&
	    start >= r->pf_start && start + len <= r->pf_end) {
		uint8_t *t = r->win;

		r->win = r->pf;
		r->pf = t;
		r->win_start = r->pf_start;
		r->win_end = r->pf_end;
		r->pf_start = r->pf_end = 0;
		return 0;
	}
	r->win_start = r->win_end = 0;
	if (!next_window(r, applied, &start, &end))
		return 0;
	if (!r->win) {
		r->win = malloc(BO_REPLAY_WINDOW);
		if (!r->win)
			return bo_err_set(err, ENOMEM, "allocating replay");
	}
	got = read_log(bo_log_fd(r->log), r->win, start, end);
	if (got < 0)
		return bo_err_set(err, got == -ENODATA ? EIO : (int) -got,
				  "reading %llu bytes at %llu of log '%s': %s",
				  (unsigned long long) (end - start), (unsigned long long) start,
				  bo_log_path(r->log),
				  got == -ENODATA ? "the log shrank" : strerror((int) -got));
	r->win_start = start;
	r->win_end = end;
	return 0;
}

/* Write the gathered batch, if any. */
static int flush_batch(struct bo_replay *r, struct bo_err *err)
{
	uint64_t done = 0;
	int i = 0;

	while (done < r->batch_len) {
		ssize_t n =
			pwritev(r->fd, r->batch + i, r->n_batch - i, (off_t) (r->batch_off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return bo_err_set(
				err, n < 0 ? errno : EIO,
				"entries %llu..%llu: writing %llu bytes at %llu of '%s': %s",
				(unsigned long long) r->batch_first,
				(unsigned long long) r->position - 1,
				(unsigned long long) r->batch_len,
				(unsigned long long) r->batch_off, r->target,
				write_error(r, n < 0 ? errno : EIO));
		done += (uint64_t) n;
		/* A short write: go on from where it stopped. */
		while (i < r->n_batch && (size_t) n >= r->batch[i].iov_len)
			n -= (ssize_t) r->batch[i++].iov_len;
		if (n > 0) {
			r->batch[i].iov_base = (uint8_t *) r->batch[i].iov_base + n;
			r->batch[i].iov_len -= (size_t) n;
		}
	}
	r->bytes += r->batch_len;
	r->n_batch = 0;
	r->batch_len = 0;
	return 0;
}

/*
 * Apply entry r->position, into the batch when it is a write to a regular file whose data the
 * window holds (after fill_window()): writes to adjacent blocks go down together.
 */
static int batch_or_apply(struct bo_replay *r, struct bo_err *err)
{
	const struct bo_log_entry *e = bo_log_entry(r->log, r->position);
	uint64_t src = bo_log_data_offset(r->log, e), len = bo_log_data_bytes(r->log, e);
	uint64_t off = e->sector * bo_log_sectorsize(r->log);
	int ret;

	if (r->blockdev || !len || !in_window(r, src, len)) {
		ret = flush_batch(r, err);
		return ret < 0 ? ret : bo_replay_apply(r, r->position, 0, UINT64_MAX, err);
	}
	if (r->n_batch && (r->n_batch == BATCH_IOV || r->batch_off + r->batch_len != off)) {
		ret = flush_batch(r, err);
		if (ret < 0)
			return ret;
	}
	if (!r->n_batch) {
		r->batch_off = off;
		r->batch_first = r->position;
	}
	r->batch[r->n_batch].iov_base = r->win + (src - r->win_start);
	r->batch[r->n_batch++].iov_len = (size_t) len;
	r->batch_len += len;
	r->dirty = true;
	return 0;
}

int bo_replay_to(struct bo_replay *r, uint64_t applied, struct bo_err *err)
{
	int ret;

	if (applied > bo_log_count(r->log))
		return bo_err_set(err, ERANGE,
				  "cut after %llu entries is past the end of the log "
				  "(%llu entries)",
				  (unsigned long long) applied,
				  (unsigned long long) bo_log_count(r->log));
	if (applied < r->position)
		return bo_err_set(err, ERANGE,
				  "target '%s' already holds %llu entries; a replay cannot go "
				  "back to %llu (start again from a fresh target)",
				  r->target, (unsigned long long) r->position,
				  (unsigned long long) applied);
	bo_debug(BO_DBG_REPLAY, "replay '%s': entries %llu..%llu", r->target,
		 (unsigned long long) r->position, (unsigned long long) applied);
	for (; r->position < applied; r->position++) {
		const struct bo_log_entry *e = bo_log_entry(r->log, r->position);
		uint64_t src = bo_log_data_offset(r->log, e), len = bo_log_data_bytes(r->log, e);

		/* The batch points into the window: written before the window moves. */
		ret = len && !in_window(r, src, len) ? flush_batch(r, err) : 0;
		if (ret >= 0)
			ret = fill_window(r, applied, err);
		if (ret >= 0)
			ret = batch_or_apply(r, err);
		if (ret < 0) {
			/* What the batch held was not written: the target holds less than that. */
			if (r->n_batch)
				r->position = r->batch_first;
			r->n_batch = 0;
			r->batch_len = 0;
			return ret;
		}
	}
	ret = flush_batch(r, err);
	if (ret < 0)
		return ret;
	return r->blockdev ? bo_replay_sync(r, err) : 0;
}
