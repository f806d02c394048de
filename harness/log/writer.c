// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/log/writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/file.h"
#include "harness/log/log.h"

struct bo_log_writer {
	char *path;
	int fd;
	uint32_t ss;
	uint64_t off; /* where the next header goes */
	uint64_t count;
	uint64_t super_entries;
	bool super_override;
	uint8_t *blk;
};

int bo_log_writer_new(const char *path, uint32_t sectorsize, struct bo_log_writer **ret,
		      struct bo_err *err)
{
	struct bo_log_writer *w;

	if (sectorsize < BO_LOG_MIN_SECTORSIZE || sectorsize > BO_LOG_MAX_SECTORSIZE ||
	    (sectorsize & (sectorsize - 1)))
		return bo_err_set(err, EINVAL, "sectorsize %u is not a power of two >= 512",
				  sectorsize);
	w = calloc(1, sizeof(*w));
	if (!w)
		return bo_err_set(err, ENOMEM, "allocating log writer");
	w->fd = -1;
	w->ss = sectorsize;
	w->off = sectorsize;
	w->path = strdup(path);
	w->blk = calloc(1, sectorsize);
	if (!w->path || !w->blk) {
		bo_log_writer_free(w);
		return bo_err_set(err, ENOMEM, "allocating log writer");
	}
	/* A FIFO, a device or a symlink is refused, not written (and a FIFO cannot hang it). */
	w->fd = bo_output_open(path, err);
	if (w->fd < 0) {
		int e = w->fd;

		bo_log_writer_free(w);
		return e;
	}
	*ret = w;
	return 0;
}

static int64_t put_header(struct bo_log_writer *w, uint64_t sector, uint64_t nr, uint32_t flags,
			  const char *name, size_t name_len, struct bo_err *err)
{
	struct bo_log_disk_entry d = {
		.sector = htole64(sector),
		.nr_sectors = htole64(nr),
		.flags = htole64(flags),
		.data_len = htole64(name_len),
	};
	int r;

	memset(w->blk, 0, w->ss);
	memcpy(w->blk, &d, sizeof(d));
	if (name_len)
		memcpy(w->blk + sizeof(d), name, name_len);
	r = bo_pwrite_full(w->fd, w->blk, w->ss, w->off);
	if (r < 0)
		return bo_err_set(err, -r, "log '%s': writing entry %llu at offset %llu: %s",
				  w->path, (unsigned long long) w->count,
				  (unsigned long long) w->off, strerror(-r));
	w->off += w->ss;
	return (int64_t) w->count++;
}

int64_t bo_log_writer_add(struct bo_log_writer *w, uint64_t sector, uint64_t nr_sectors,
			  uint32_t flags, const void *data, struct bo_err *err)
{
	uint64_t bytes = (flags & BO_LOG_DISCARD) ? 0 : nr_sectors * w->ss;
	int64_t n;
	int r;

	if (flags & (BO_LOG_MARK | ~BO_LOG_KNOWN_FLAGS))
		return bo_err_set(err, EINVAL, "entry flags 0x%x: use the mark call for marks",
				  flags);
	if (bytes && !data)
		return bo_err_set(err, EINVAL, "entry of %llu blocks without data",
				  (unsigned long long) nr_sectors);
	n = put_header(w, sector, nr_sectors, flags, NULL, 0, err);
	if (n < 0)
		return n;
	if (bytes) {
		r = bo_pwrite_full(w->fd, data, bytes, w->off);
		if (r < 0)
			return bo_err_set(err, -r, "log '%s': writing data of entry %lld: %s",
					  w->path, (long long) n, strerror(-r));
		w->off += bytes;
	}
	return n;
}

int64_t bo_log_writer_mark(struct bo_log_writer *w, const char *name, struct bo_err *err)
{
	size_t len = strlen(name);

	if (len == 0 || len > BO_LOG_MARK_MAX(w->ss))
		return bo_err_set(err, EINVAL, "mark name '%s' is %zu bytes; 1..%u allowed", name,
				  len, BO_LOG_MARK_MAX(w->ss));
	return put_header(w, 0, 0, BO_LOG_MARK, name, len, err);
}

uint64_t bo_log_writer_count(const struct bo_log_writer *w)
{
	return w->count;
}

void bo_log_writer_set_super_entries(struct bo_log_writer *w, uint64_t n)
{
	w->super_entries = n;
	w->super_override = true;
}

int bo_log_writer_close(struct bo_log_writer *w, struct bo_err *err)
{
	struct bo_log_disk_super s = {
		.magic = htole64(BO_LOG_MAGIC),
		.version = htole64(BO_LOG_VERSION),
		.nr_entries = htole64(w->super_override ? w->super_entries : w->count),
		.sectorsize = htole32(w->ss),
	};
	int r;

	memset(w->blk, 0, w->ss);
	memcpy(w->blk, &s, sizeof(s));
	r = bo_pwrite_full(w->fd, w->blk, w->ss, 0);
	if (r < 0) {
		r = bo_err_set(err, -r, "log '%s': writing super block: %s", w->path, strerror(-r));
	} else if (close(w->fd) < 0) {
		r = bo_err_set(err, errno, "log '%s': close: %s", w->path, strerror(errno));
	}
	w->fd = -1;
	bo_log_writer_free(w);
	return r;
}

void bo_log_writer_free(struct bo_log_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	free(w->blk);
	free(w->path);
	free(w);
}
