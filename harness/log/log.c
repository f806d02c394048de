// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * log.c — index and read a dm-log-writes log. See log.h for the layout and
 * docs/log-format.md for the rules the reader enforces.
 */
#include "harness/log/log.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/mounts.h"
#include "harness/log/log_int.h"

static int file_size(int fd, uint64_t *ret)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		uint64_t sz;

		if (ioctl(fd, BLKGETSIZE64, &sz) < 0)
			return -errno;
		*ret = sz;
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	*ret = (uint64_t) st.st_size;
	return 0;
}

static int read_super(struct bo_log *log, struct bo_err *err)
{
	struct bo_log_disk_super s;
	uint64_t magic, version;
	uint32_t ss;
	ssize_t n;

	n = bo_pread_full(log->fd, &s, sizeof(s), 0);
	if (n < 0)
		return bo_err_set(err, (int) -n, "reading super block at offset 0: %s",
				  strerror((int) -n));
	/* The kernel writes a whole block; the fields we use are the first 28 bytes. */
	if ((size_t) n < offsetof(struct bo_log_disk_super, sectorsize) + sizeof(uint32_t))
		return bo_err_set(err, EBADMSG,
				  "log is %llu bytes, too short for a super block (offset 0)",
				  (unsigned long long) log->size);
	magic = le64toh(s.magic);
	version = le64toh(s.version);
	ss = le32toh(s.sectorsize);
	if (magic != BO_LOG_MAGIC)
		return bo_err_set(err, EBADMSG,
				  "super block: bad magic 0x%llx at offset 0 (expected 0x%llx): "
				  "not a dm-log-writes log",
				  (unsigned long long) magic, (unsigned long long) BO_LOG_MAGIC);
	if (version != BO_LOG_VERSION)
		return bo_err_set(err, EPROTO,
				  "super block: unknown version %llu at offset 8 (this reader "
				  "knows version %d)",
				  (unsigned long long) version, BO_LOG_VERSION);
	if (ss < BO_LOG_MIN_SECTORSIZE || ss > BO_LOG_MAX_SECTORSIZE || (ss & (ss - 1)))
		return bo_err_set(err, EBADMSG,
				  "super block: sectorsize %u at offset 24 is not a power of two "
				  "between %u and %u",
				  ss, BO_LOG_MIN_SECTORSIZE, BO_LOG_MAX_SECTORSIZE);
	if (log->size < ss)
		return bo_err_set(err, EBADMSG,
				  "log is %llu bytes, shorter than its %u-byte super block",
				  (unsigned long long) log->size, ss);
	log->sectorsize = ss;
	log->super_entries = le64toh(s.nr_entries);
	return 0;
}

int log_add_mark(struct bo_log *log, uint64_t entry, const char *name, size_t len)
{
	if (log->n_marks == log->cap_marks) {
		size_t cap = log->cap_marks ? log->cap_marks * 2 : 64;
		struct bo_log_mark *m = realloc(log->marks, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		log->marks = m;
		log->cap_marks = cap;
	}
	log->marks[log->n_marks].entry = entry;
	log->marks[log->n_marks].name = strndup(name, len);
	if (!log->marks[log->n_marks].name)
		return -ENOMEM;
	log->n_marks++;
	return 0;
}

static int add_entry(struct bo_log *log, const struct bo_log_entry *e)
{
	if (log->n_entries == log->cap_entries) {
		uint64_t cap = log->cap_entries ? log->cap_entries * 2 : 1024;
		struct bo_log_entry *v = realloc(log->entries, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		log->entries = v;
		log->cap_entries = cap;
	}
	log->entries[log->n_entries++] = *e;
	return 0;
}

int bo_log_parse_header(const uint8_t *blk, uint32_t sectorsize, uint64_t log_size, uint64_t n,
			uint64_t off, struct bo_log_entry *e, uint64_t *ret_next,
			struct bo_err *err)
{
	const uint64_t ss = sectorsize;
	struct bo_log_disk_entry d;
	uint64_t sector, nr, flags, dlen, data_bytes = 0;

	memcpy(&d, blk, sizeof(d));
	sector = le64toh(d.sector);
	nr = le64toh(d.nr_sectors);
	flags = le64toh(d.flags);
	dlen = le64toh(d.data_len);

	if (flags & ~(uint64_t) BO_LOG_KNOWN_FLAGS)
		return bo_err_set(err, EBADMSG, "entry %llu at offset %llu: unknown flags 0x%llx",
				  (unsigned long long) n, (unsigned long long) off,
				  (unsigned long long) flags);
	if (flags & BO_LOG_MARK) {
		if (dlen == 0 || dlen > BO_LOG_MARK_MAX(ss))
			return bo_err_set(err, EBADMSG,
					  "entry %llu at offset %llu: mark data_len %llu outside "
					  "1..%llu (sectorsize - 33)",
					  (unsigned long long) n, (unsigned long long) off,
					  (unsigned long long) dlen,
					  (unsigned long long) BO_LOG_MARK_MAX(ss));
		if (nr != 0 || (flags & ~(uint64_t) (BO_LOG_MARK | BO_LOG_METADATA)))
			return bo_err_set(err, EBADMSG,
					  "entry %llu at offset %llu: mark with nr_sectors %llu "
					  "and flags 0x%llx (a mark carries no data)",
					  (unsigned long long) n, (unsigned long long) off,
					  (unsigned long long) nr, (unsigned long long) flags);
		if (memchr(blk + BO_LOG_ENTRY_HDR_SIZE, '\0', dlen))
			return bo_err_set(err, EBADMSG,
					  "entry %llu at offset %llu: mark name holds a NUL byte "
					  "before data_len %llu",
					  (unsigned long long) n, (unsigned long long) off,
					  (unsigned long long) dlen);
	} else {
		if (nr == 0 && !(flags & BO_LOG_FLUSH))
			return bo_err_set(err, EBADMSG,
					  "entry %llu at offset %llu: empty entry (no sectors, "
					  "flags 0x%llx)",
					  (unsigned long long) n, (unsigned long long) off,
					  (unsigned long long) flags);
		if (nr > (UINT64_MAX / ss) || sector > (UINT64_MAX / ss) - nr ||
		    (sector + nr) * ss > (uint64_t) INT64_MAX)
			return bo_err_set(err, EOVERFLOW,
					  "entry %llu at offset %llu: sector %llu + nr_sectors "
					  "%llu times sectorsize %llu overflows",
					  (unsigned long long) n, (unsigned long long) off,
					  (unsigned long long) sector, (unsigned long long) nr,
					  (unsigned long long) ss);
		if (!(flags & BO_LOG_DISCARD))
			data_bytes = nr * ss;
		/* data_len only describes inline data (log_one_block()), which occupies
		 * the entry's own data blocks. */
		if (dlen > data_bytes)
			return bo_err_set(err, EBADMSG,
					  "entry %llu at offset %llu: data_len %llu larger than "
					  "its %llu bytes of data",
					  (unsigned long long) n, (unsigned long long) off,
					  (unsigned long long) dlen,
					  (unsigned long long) data_bytes);
	}
	/* The data, then the next header, must lie inside the log: a tail cut short. */
	if (off > log_size || log_size - off < ss || data_bytes > log_size - off - ss)
		return bo_err_set(err, ENODATA,
				  "entry %llu at offset %llu: data runs past end of log (offset "
				  "%llu, %llu bytes, log size %llu)",
				  (unsigned long long) n, (unsigned long long) off,
				  (unsigned long long) (off + ss), (unsigned long long) data_bytes,
				  (unsigned long long) log_size);
	e->offset = off;
	e->sector = (flags & BO_LOG_MARK) ? 0 : sector;
	e->nr_sectors = (flags & BO_LOG_MARK) ? 0 : nr;
	e->flags = (uint32_t) flags;
	e->mark = 0;
	*ret_next = off + ss + data_bytes;
	return 0;
}

/*
 * Entry headers are read through a window: one read brings the headers of every small entry
 * it spans. Over the VM's 9p share a read costs a round trip whatever its size, and a log of
 * 100k small entries took 26 s to index one header at a time, 2.9 s through the window. On
 * a local filesystem the page cache and readahead make single-header reads the cheaper (the
 * same log: 0.17 s against 0.8 s), so the window is only used on network filesystems. After
 * an entry whose data exceeds BIG_DATA the next read is a single block, so logs of large
 * writes still read little more than their headers.
 */
#define INDEX_WINDOW (256u << 10)
#define BIG_DATA     (32u << 10)

/*
 * 9p, NFS, SMB/CIFS and FUSE: every read is a round trip. The file system type comes from
 * mountinfo by device number: 9p's statfs reports the type of the host's file system.
 */
static const char *const remote_fs[] = {"9p", "nfs", "nfs4", "cifs", "smb3", "fuse"};

struct remote_probe {
	dev_t dev;
	bool remote;
};

static int remote_one(const struct bo_mount_entry *m, void *ctx)
{
	struct remote_probe *p = ctx;

	if (m->dev != p->dev || !m->fstype)
		return 0;
	for (size_t i = 0; i < BO_ARRAY_SIZE(remote_fs); i++)
		p->remote |= !strcmp(m->fstype, remote_fs[i]) || !strncmp(m->fstype, "fuse.", 5);
	return 1;
}

static bool round_trip_fs(int fd)
{
	struct remote_probe p = {0};
	struct stat st;

	if (fstat(fd, &st) < 0)
		return false;
	p.dev = st.st_dev;
	return bo_mounts_each(remote_one, &p, NULL) > 0 && p.remote;
}

struct hdr_window {
	uint8_t *buf;
	uint64_t off; /* log offset of buf[0] */
	size_t len;   /* bytes held */
};

/* Point @ret at the @ss-byte block at @off, reading when the window does not hold it. */
static int window_block(struct bo_log *log, struct hdr_window *w, uint64_t off, bool small_next,
			uint64_t n, const uint8_t **ret, struct bo_err *err)
{
	const uint64_t ss = log->sectorsize;
	uint64_t want;
	ssize_t got;

	if (off >= w->off && off - w->off <= w->len && w->len - (off - w->off) >= ss) {
		*ret = w->buf + (off - w->off);
		return 0;
	}
	want = small_next ? INDEX_WINDOW : ss;
	if (want > log->size - off)
		want = log->size - off;
	got = bo_pread_full(log->fd, w->buf, (size_t) want, off);
	if (got < 0)
		return bo_err_set(err, (int) -got, "entry %llu at offset %llu: read: %s",
				  (unsigned long long) n, (unsigned long long) off,
				  strerror((int) -got));
	if ((uint64_t) got < ss)
		return bo_err_set(err, EIO,
				  "entry %llu at offset %llu: log shrank while being read",
				  (unsigned long long) n, (unsigned long long) off);
	w->off = off;
	w->len = (size_t) got;
	*ret = w->buf;
	return 0;
}

/*
 * Salvage reached the end of the file inside entry @n at @off: quiet past the super's count,
 * where a crashed machine's log ends; before it, said, for entries the super vouched for are
 * missing. -ENOMEM.
 */
static int cut_short(struct bo_log *log, uint64_t n, uint64_t off)
{
	if (n >= log->super_entries)
		return 0;
	if (asprintf(&log->salvage_note,
		     "the log ends inside entry %llu at offset %llu (size %llu), before the %llu "
		     "entries its super block claims: %llu read",
		     (unsigned long long) n, (unsigned long long) off,
		     (unsigned long long) log->size, (unsigned long long) log->super_entries,
		     (unsigned long long) n) < 0) {
		log->salvage_note = NULL;
		return -ENOMEM;
	}
	return 0;
}

/*
 * Salvage met the header @blk of entry @n at @off that bo_log_parse_header() refused, saying
 * why in @why (its errno: ENODATA for data past the end of the file, a tail cut short). Past
 * the super's count a zeroed block is space never written, and anything else stops the walk
 * with a note; a header the super vouches for stays the error it is. 0 to stop there, or
 * -errno.
 */
static int salvage_stop(struct bo_log *log, uint64_t n, uint64_t off, const uint8_t *blk,
			const struct bo_err *why)
{
	bool zero = true;

	if (why->errnum == ENODATA)
		return cut_short(log, n, off);
	if (n < log->super_entries)
		return -why->errnum;
	for (uint32_t i = 0; i < log->sectorsize && zero; i++)
		zero = !blk[i];
	if (zero)
		return 0;
	if (asprintf(&log->salvage_note,
		     "%s; salvage stops there, past the %llu entries its super block claims",
		     why->msg, (unsigned long long) log->super_entries) < 0) {
		log->salvage_note = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int index_entries(struct bo_log *log, unsigned flags, struct bo_err *err)
{
	const bool salvage = flags & BO_LOG_OPEN_SALVAGE;
	const uint64_t ss = log->sectorsize;
	_cleanup_free_ uint8_t *wbuf = malloc(INDEX_WINDOW > ss ? INDEX_WINDOW : ss);
	struct hdr_window w = {.buf = wbuf};
	const bool windowed = (flags & BO_LOG_OPEN_WINDOWED) || round_trip_fs(log->fd);
	bool small_next = windowed;
	uint64_t off = ss, n;
	int r;

	if (!wbuf)
		return bo_err_set(err, ENOMEM, "allocating a %u-byte read window", INDEX_WINDOW);
	for (n = 0; salvage || n < log->super_entries; n++) {
		struct bo_log_entry e;
		struct bo_err why = {0};
		const uint8_t *blk = NULL;
		uint64_t next = 0;

		if (off > log->size || log->size - off < ss) {
			if (salvage) {
				r = cut_short(log, n, off);
				if (r < 0)
					return bo_err_set(err, -r, "salvaging the log");
				break;
			}
			return bo_err_set(err, EBADMSG,
					  "entry %llu at offset %llu: header runs past end of log "
					  "(size %llu; the super block claims %llu entries)",
					  (unsigned long long) n, (unsigned long long) off,
					  (unsigned long long) log->size,
					  (unsigned long long) log->super_entries);
		}
		r = window_block(log, &w, off, small_next, n, &blk, err);
		if (r < 0)
			return r;
		r = bo_log_parse_header(blk, log->sectorsize, log->size, n, off, &e, &next, &why);
		if (r < 0) {
			if (salvage && (r = salvage_stop(log, n, off, blk, &why)) == 0)
				break;
			if (r == -ENOMEM)
				return bo_err_set(err, ENOMEM, "salvaging the log");
			return bo_err_set(err, why.errnum, "%s", why.msg);
		}
		if (e.flags & BO_LOG_MARK) {
			uint64_t dlen = le64toh(((const struct bo_log_disk_entry *) blk)->data_len);

			e.mark = (uint32_t) log->n_marks;
			if (log->n_marks >= UINT32_MAX ||
			    log_add_mark(log, n, (const char *) blk + BO_LOG_ENTRY_HDR_SIZE, dlen) <
				    0)
				return bo_err_set(err, ENOMEM, "indexing mark of entry %llu",
						  (unsigned long long) n);
		}
		if (add_entry(log, &e) < 0)
			return bo_err_set(err, ENOMEM, "indexing entry %llu",
					  (unsigned long long) n);
		small_next = windowed && next - off - ss <= BIG_DATA;
		off = next;
	}
	log->end = off;
	bo_debug(BO_DBG_LOG, "log '%s': %llu entries (super says %llu), %zu marks", log->path,
		 (unsigned long long) log->n_entries, (unsigned long long) log->super_entries,
		 log->n_marks);
	return 0;
}

static const struct bo_log *sort_log;

static int cmp_mark_name(const void *a, const void *b)
{
	const size_t *x = a, *y = b;
	int c = strcmp(sort_log->marks[*x].name, sort_log->marks[*y].name);

	if (c)
		return c;
	return (*x > *y) - (*x < *y);
}

static int sort_marks(struct bo_log *log)
{
	log->by_name = malloc((log->n_marks ? log->n_marks : 1) * sizeof(size_t));
	if (!log->by_name)
		return -ENOMEM;
	for (size_t i = 0; i < log->n_marks; i++)
		log->by_name[i] = i;
	/* qsort has no context argument in C11; opening logs is not concurrent. */
	sort_log = log;
	qsort(log->by_name, log->n_marks, sizeof(size_t), cmp_mark_name);
	sort_log = NULL;
	return 0;
}

int log_index_marks(struct bo_log *log, struct bo_err *err)
{
	if (sort_marks(log) < 0)
		return bo_err_set(err, ENOMEM, "indexing marks");
	/* The first layout mark says how the log's device is carved (layout.h). */
	for (size_t i = 0; i < log->n_marks; i++) {
		const char *name = log->marks[i].name;

		if (strncmp(name, BO_LAYOUT_MARK_PREFIX, strlen(BO_LAYOUT_MARK_PREFIX)))
			continue;
		if (bo_layout_parse(name, &log->layout, err) < 0)
			return bo_err_prefix(err, "entry %" PRIu64, log->marks[i].entry);
		break;
	}
	return 0;
}

const struct bo_layout *bo_log_layout(const struct bo_log *log)
{
	return &log->layout;
}

/* The log over @fd (its own from here on: closed on failure too), @path naming it, with its
 * super block read. */
static int log_open_fd_super(int fd, const char *path, struct bo_log **ret, struct bo_err *err)
{
	struct bo_log *log;
	int r;

	log = calloc(1, sizeof(*log));
	if (!log) {
		close(fd);
		return bo_err_set(err, ENOMEM, "allocating log");
	}
	log->fd = fd;
	log->path = strdup(path);
	if (!log->path) {
		r = bo_err_set(err, ENOMEM, "allocating log");
		goto fail;
	}
	r = file_size(log->fd, &log->size);
	if (r < 0) {
		r = bo_err_set(err, -r, "'%s': %s", path,
			       r == -EINVAL ? "not a regular file or block device" : strerror(-r));
		goto fail;
	}
	r = read_super(log, err);
	if (r < 0) {
		bo_err_prefix(err, "log '%s'", path);
		goto fail;
	}
	*ret = log;
	return 0;
fail:
	bo_log_free(log);
	return r;
}

int log_open_super(const char *path, struct bo_log **ret, struct bo_err *err)
{
	/* A log arrives from a bug report or a results directory: never a symlink, a FIFO or a
	 * character device (harness/base/input.h). */
	int fd = bo_input_open_path(path, BO_INPUT_BLOCKDEV, 0, NULL, err);

	return fd < 0 ? fd : log_open_fd_super(fd, path, ret, err);
}

int bo_log_open_fd(int fd, const char *path, unsigned flags, struct bo_log **ret,
		   struct bo_err *err)
{
	struct bo_log *log;
	int r;

	r = log_open_fd_super(fd, path, &log, err);
	if (r < 0)
		return r;
	r = index_entries(log, flags, err);
	if (r >= 0)
		r = log_index_marks(log, err);
	if (r < 0) {
		bo_err_prefix(err, "log '%s'", path);
		bo_log_free(log);
		return r;
	}
	*ret = log;
	return 0;
}

int bo_log_open(const char *path, unsigned flags, struct bo_log **ret, struct bo_err *err)
{
	int fd = bo_input_open_path(path, BO_INPUT_BLOCKDEV, 0, NULL, err);

	return fd < 0 ? fd : bo_log_open_fd(fd, path, flags, ret, err);
}

void bo_log_free(struct bo_log *log)
{
	if (!log)
		return;
	if (log->fd >= 0)
		close(log->fd);
	for (size_t i = 0; i < log->n_marks; i++)
		free(log->marks[i].name);
	free(log->marks);
	free(log->by_name);
	free(log->entries);
	free(log->path);
	free(log->salvage_note);
	free(log);
}

const char *bo_log_path(const struct bo_log *log)
{
	return log->path;
}

uint32_t bo_log_sectorsize(const struct bo_log *log)
{
	return log->sectorsize;
}

uint64_t bo_log_count(const struct bo_log *log)
{
	return log->n_entries;
}

uint64_t bo_log_super_entries(const struct bo_log *log)
{
	return log->super_entries;
}

uint64_t bo_log_size(const struct bo_log *log)
{
	return log->size;
}

const char *bo_log_salvage_note(const struct bo_log *log)
{
	return log->salvage_note;
}

uint64_t bo_log_end_offset(const struct bo_log *log)
{
	return log->end;
}

int bo_log_fd(const struct bo_log *log)
{
	return log->fd;
}

const struct bo_log_entry *bo_log_entry(const struct bo_log *log, uint64_t n)
{
	return n < log->n_entries ? &log->entries[n] : NULL;
}

const char *bo_log_mark_name(const struct bo_log *log, uint64_t n)
{
	const struct bo_log_entry *e = bo_log_entry(log, n);

	if (!e || !(e->flags & BO_LOG_MARK))
		return NULL;
	return log->marks[e->mark].name;
}

size_t bo_log_mark_count(const struct bo_log *log)
{
	return log->n_marks;
}

const struct bo_log_mark *bo_log_mark_at(const struct bo_log *log, size_t i)
{
	return i < log->n_marks ? &log->marks[i] : NULL;
}

int bo_log_find_mark(const struct bo_log *log, const char *name, uint64_t *ret_entry,
		     struct bo_err *err)
{
	size_t lo = 0, hi = log->n_marks;

	/* Lower bound of @name in the sorted index. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(log->marks[log->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == log->n_marks || strcmp(log->marks[log->by_name[lo]].name, name))
		return bo_err_set(err, ENOENT, "mark '%s' is not in log '%s' (%zu marks)", name,
				  log->path, log->n_marks);
	if (lo + 1 < log->n_marks && !strcmp(log->marks[log->by_name[lo + 1]].name, name))
		return bo_err_set(err, ENOTUNIQ,
				  "mark '%s' appears more than once in log '%s' (entries %llu "
				  "and %llu): name the entry instead",
				  name, log->path,
				  (unsigned long long) log->marks[log->by_name[lo]].entry,
				  (unsigned long long) log->marks[log->by_name[lo + 1]].entry);
	*ret_entry = log->marks[log->by_name[lo]].entry;
	return 0;
}

int bo_log_read_data(const struct bo_log *log, uint64_t n, uint64_t off, void *buf, size_t len,
		     struct bo_err *err)
{
	const struct bo_log_entry *e = bo_log_entry(log, n);
	ssize_t got;

	if (!e)
		return bo_err_set(err, EINVAL, "entry %llu is past the end of log '%s'",
				  (unsigned long long) n, log->path);
	if (off > bo_log_data_bytes(log, e) || len > bo_log_data_bytes(log, e) - off)
		return bo_err_set(err, EINVAL,
				  "entry %llu: reading %zu bytes at %llu of its %llu bytes of data",
				  (unsigned long long) n, len, (unsigned long long) off,
				  (unsigned long long) bo_log_data_bytes(log, e));
	got = bo_pread_full(log->fd, buf, len, bo_log_data_offset(log, e) + off);
	if (got < 0)
		return bo_err_set(err, (int) -got, "log '%s': entry %llu: read at offset %llu: %s",
				  log->path, (unsigned long long) n,
				  (unsigned long long) (bo_log_data_offset(log, e) + off),
				  strerror((int) -got));
	if ((size_t) got < len)
		return bo_err_set(err, EIO,
				  "log '%s': entry %llu: data ends early at offset %llu (the log "
				  "shrank after it was opened)",
				  log->path, (unsigned long long) n,
				  (unsigned long long) (bo_log_data_offset(log, e) + off + got));
	return 0;
}

const char *bo_log_flags_str(uint32_t flags, char *buf, size_t len)
{
	static const char *const names[] = {"FLUSH", "FUA", "DISCARD", "MARK", "METADATA"};
	size_t used = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < BO_ARRAY_SIZE(names); i++) {
		if (!(flags & (1u << i)))
			continue;
		used += (size_t) snprintf(buf + used, used < len ? len - used : 0, "%s%s",
					  used ? "|" : "", names[i]);
	}
	if (!used)
		snprintf(buf, len, "-");
	return buf;
}

uint64_t bo_log_min_device_size(const struct bo_log *log)
{
	uint64_t end = 0;

	for (uint64_t n = 0; n < bo_log_count(log); n++) {
		const struct bo_log_entry *e = bo_log_entry(log, n);

		if (!(e->flags & BO_LOG_MARK) && e->sector + e->nr_sectors > end)
			end = e->sector + e->nr_sectors;
	}
	end *= bo_log_sectorsize(log);
	return (end + (1 << 20) - 1) & ~(uint64_t) ((1 << 20) - 1);
}
