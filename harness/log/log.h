/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * log.h — reader of the dm-log-writes on-disk format (target version 1.1.0).
 *
 * Layout, from drivers/md/dm-log-writes.c (log_super(), log_one_block(), log_writes_kthread()):
 *
 *   block 0              super: magic, version, nr_entries, sectorsize (all little endian)
 *   block 1              entry 0 header: sector, nr_sectors, flags, data_len, zero padded;
 *                        a MARK's name is data_len bytes at offset 32 of this block
 *   block 2..            entry 0 data: nr_sectors blocks (none for DISCARD and MARK)
 *   ...                  entry 1 header, entry 1 data, ...
 *
 * A "block" is sectorsize bytes: the logical block size of the logged data device. An entry's
 * sector and nr_sectors count blocks of that size, not 512-byte sectors.
 *
 * The reader streams: opening a log walks its headers once and keeps an index of a few dozen
 * bytes per entry; data is read on demand. Every length and offset is checked against the
 * log's size before use.
 */
#ifndef BO_LOG_H
#define BO_LOG_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"
#include "harness/log/layout.h"

#define BO_LOG_MAGIC	      0x6a736677736872ULL
#define BO_LOG_VERSION	      1
#define BO_LOG_MIN_SECTORSIZE 512u
#define BO_LOG_MAX_SECTORSIZE (1u << 20)
#define BO_LOG_ENTRY_HDR_SIZE 32u
/* log_mark() keeps at most sectorsize - sizeof(entry) - 1 bytes of a mark's name. */
#define BO_LOG_MARK_MAX(ss) ((ss) -BO_LOG_ENTRY_HDR_SIZE - 1)

/* Entry flags, LOG_*_FLAG in drivers/md/dm-log-writes.c. */
enum bo_log_flag {
	BO_LOG_FLUSH = 1u << 0,
	BO_LOG_FUA = 1u << 1,
	BO_LOG_DISCARD = 1u << 2,
	BO_LOG_MARK = 1u << 3,
	BO_LOG_METADATA = 1u << 4,
};
#define BO_LOG_KNOWN_FLAGS 0x1fu

/* struct log_write_super in drivers/md/dm-log-writes.c (unpacked: 28 bytes + 4 of padding). */
struct bo_log_disk_super {
	uint64_t magic;
	uint64_t version;
	uint64_t nr_entries;
	uint32_t sectorsize;
};
_Static_assert(sizeof(struct bo_log_disk_super) == 32, "struct log_write_super layout");

/* struct log_write_entry in drivers/md/dm-log-writes.c. */
struct bo_log_disk_entry {
	uint64_t sector;
	uint64_t nr_sectors;
	uint64_t flags;
	uint64_t data_len;
};
_Static_assert(sizeof(struct bo_log_disk_entry) == BO_LOG_ENTRY_HDR_SIZE,
	       "struct log_write_entry layout");

/* One entry of the in-memory index (32 bytes). */
struct bo_log_entry {
	uint64_t offset;     /* byte offset of the header block in the log */
	uint64_t sector;     /* first block written on the data device */
	uint64_t nr_sectors; /* blocks written (or discarded) */
	uint32_t flags;	     /* enum bo_log_flag */
	uint32_t mark;	     /* for MARK entries, index into the mark table */
};
_Static_assert(sizeof(struct bo_log_entry) == 32, "index entry stays small");

struct bo_log_mark {
	uint64_t entry;
	char *name;
};

enum bo_log_open_flags {
	/* Walk past the super's nr_entries while headers stay valid: the kernel rewrites the
	 * super only after FUA and MARK entries, so a log from a crashed machine under-reports.
	 * The walk stops quietly past the super's count at a tail cut short (a header or its
	 * data past the end of the file) or at a zeroed block; anywhere else it stops with a
	 * note (bo_log_salvage_note()), and a damaged header the super vouches for is the
	 * same error as without salvage. */
	BO_LOG_OPEN_SALVAGE = 1u << 0,
	/* Read entry headers through a window of several entries, as is done anyway on a
	 * network file system (9p, NFS, FUSE) where each read is a round trip. */
	BO_LOG_OPEN_WINDOWED = 1u << 1,
};

struct bo_log;

/*
 * Open and index the log at @path (a regular file or a block device). On failure returns
 * -errno and describes the problem in @err, naming the entry and byte offset for a corrupt
 * or truncated log. *@ret is written only on success.
 */
_must_check_ int bo_log_open(const char *path, unsigned flags, struct bo_log **ret,
			     struct bo_err *err);

/*
 * The same over @fd, a log the caller opened (a results directory's write.log, beneath it:
 * bo_input_open()), named @path in messages: opened once, and read from that descriptor.
 * @fd is the log's from here on, closed by bo_log_free(), and on failure.
 */
_must_check_ int bo_log_open_fd(int fd, const char *path, unsigned flags, struct bo_log **ret,
				struct bo_err *err);

/* The name of a results directory's saved index of its write.log, while a check runs. */
#define BO_LOG_INDEX_NAME "write.log.idx"

/* The smallest device holding every block @log writes, in bytes, rounded up to 1 MiB: the
 * size a check assumes when it is not told one. */
uint64_t bo_log_min_device_size(const struct bo_log *log);

/*
 * Save the index of @log to @path (a new file), for bo_log_open_indexed(): a reader that
 * would pay a round trip per header (a guest over 9p) gets it in one read.
 */
_must_check_ int bo_log_save_index(const struct bo_log *log, const char *path, struct bo_err *err);

/*
 * Open the log at @path with the index bo_log_save_index() made of it at @index, instead of
 * reading its headers. An index that is damaged or of another log is refused (-EBADMSG).
 */
_must_check_ int bo_log_open_indexed(const char *path, const char *index, struct bo_log **ret,
				     struct bo_err *err);

/* Release a log; NULL is fine. */
void bo_log_free(struct bo_log *log);

/* The path the log was opened from. */
const char *bo_log_path(const struct bo_log *log);

/* Bytes per block: the logged device's logical block size. */
uint32_t bo_log_sectorsize(const struct bo_log *log);

/* Number of entries indexed (after salvage, if asked). */
uint64_t bo_log_count(const struct bo_log *log);

/* Where and why a salvage stopped before the end of what was written, naming the entry and
 * its offset: a tail cut short before the super's count, or a damaged header past it. NULL
 * when it read to the end (or was not asked). */
const char *bo_log_salvage_note(const struct bo_log *log);

/* nr_entries as the super block states it. */
uint64_t bo_log_super_entries(const struct bo_log *log);

/* Size in bytes of the log file or device, and the offset just past the last entry. */
uint64_t bo_log_size(const struct bo_log *log);
uint64_t bo_log_end_offset(const struct bo_log *log);

/* Entry @n, or NULL when @n is past the end. */
const struct bo_log_entry *bo_log_entry(const struct bo_log *log, uint64_t n);

/* Name of mark entry @n, or NULL when entry @n is not a mark. */
const char *bo_log_mark_name(const struct bo_log *log, uint64_t n);

/* How the log's device is carved into several devices (layout.h); n == 0: one device. */
const struct bo_layout *bo_log_layout(const struct bo_log *log);

/* Number of marks and the i-th mark in log order. */
size_t bo_log_mark_count(const struct bo_log *log);
const struct bo_log_mark *bo_log_mark_at(const struct bo_log *log, size_t i);

/*
 * Entry number of the mark named @name: -ENOENT if there is none, -ENOTUNIQ if the name
 * appears more than once (the caller must then name an entry). @err says which.
 */
_must_check_ int bo_log_find_mark(const struct bo_log *log, const char *name, uint64_t *ret_entry,
				  struct bo_err *err);

/*
 * Read @len bytes of entry @n's data starting @off bytes into it. The range was checked
 * against the log's size when the log was opened; a short read now means the log shrank.
 */
_must_check_ int bo_log_read_data(const struct bo_log *log, uint64_t n, uint64_t off, void *buf,
				  size_t len, struct bo_err *err);

/* The log's file descriptor, for zero-copy transfers. Owned by the log. */
_must_check_ int bo_log_fd(const struct bo_log *log);

/* Byte offset of entry @n's data in the log. */
static inline uint64_t bo_log_data_offset(const struct bo_log *log, const struct bo_log_entry *e)
{
	return e->offset + bo_log_sectorsize(log);
}

/* Whether entry @e is a barrier: a FLUSH (what completed before it is durable) or a FUA write
 * (durable itself), not a mark. */
static inline bool bo_log_entry_barrier(const struct bo_log_entry *e)
{
	return !(e->flags & BO_LOG_MARK) && (e->flags & (BO_LOG_FLUSH | BO_LOG_FUA));
}

/* Bytes of data entry @e carries on the data device (0 for discards and marks). */
static inline uint64_t bo_log_data_bytes(const struct bo_log *log, const struct bo_log_entry *e)
{
	if (e->flags & (BO_LOG_DISCARD | BO_LOG_MARK))
		return 0;
	return e->nr_sectors * bo_log_sectorsize(log);
}

/*
 * Validate the header block @blk of entry @n found at byte offset @off of a log of @log_size
 * bytes with @sectorsize-byte blocks. Fills @e (its mark field is left 0) and the offset of the
 * next header, or returns -EBADMSG/-EOVERFLOW with @err naming the entry and offset. For
 * readers of a log that is still being written (see logtail.h).
 */
_must_check_ int bo_log_parse_header(const uint8_t *blk, uint32_t sectorsize, uint64_t log_size,
				     uint64_t n, uint64_t off, struct bo_log_entry *e,
				     uint64_t *ret_next, struct bo_err *err);

/* Render @flags as "FLUSH|FUA|..." into @buf; returns @buf ("-" for no flags). */
const char *bo_log_flags_str(uint32_t flags, char *buf, size_t len);

#endif
