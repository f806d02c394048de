// SPDX-License-Identifier: GPL-2.0-or-later
/* The log reader and writer: round trip, salvage, and every corruption class. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/macro.h"
#include "harness/log/log.h"
#include "harness/log/writer.h"
#include "harness/log/tail.h"
#include "harness/log/synth.h"

static void patch(const char *path, uint64_t off, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(pwrite(fd, buf, len, (off_t) off) == (ssize_t) len);
	close(fd);
}

static void patch_u64(const char *path, uint64_t off, uint64_t v)
{
	uint64_t le = htole64(v);

	patch(path, off, &le, sizeof(le));
}

static void fill(uint8_t *buf, size_t len, uint8_t seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t) (seed + i * 7);
}

/* entry 0 mark "mkfs", 1 write 3 blocks @10, 2 flush, 3 FUA|META write 1 block @0,
 * 4 discard 8 @100, 5 mark "ack:1", 6 write 2 @50. */
static void write_sample(const char *path, uint32_t ss)
{
	struct bo_log_writer *w;
	struct bo_err err = {0};
	uint8_t *buf = malloc(3 * ss);

	CU_ASSERT_FATAL(buf != NULL);
	CU_ASSERT_FATAL(bo_log_writer_new(path, ss, &w, &err) == 0);
	CU_ASSERT(bo_log_writer_mark(w, "mkfs", &err) == 0);
	fill(buf, 3 * ss, 1);
	CU_ASSERT(bo_log_writer_add(w, 10, 3, 0, buf, &err) == 1);
	CU_ASSERT(bo_log_writer_add(w, 0, 0, BO_LOG_FLUSH, NULL, &err) == 2);
	fill(buf, ss, 2);
	CU_ASSERT(bo_log_writer_add(w, 0, 1, BO_LOG_FUA | BO_LOG_METADATA, buf, &err) == 3);
	CU_ASSERT(bo_log_writer_add(w, 100, 8, BO_LOG_DISCARD, NULL, &err) == 4);
	CU_ASSERT(bo_log_writer_mark(w, "ack:1", &err) == 5);
	fill(buf, 2 * ss, 3);
	CU_ASSERT(bo_log_writer_add(w, 50, 2, 0, buf, &err) == 6);
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	free(buf);
}

static void round_trip_ss(uint32_t ss)
{
	const char *p = bo_test_path("rt.log");
	struct bo_log *log;
	struct bo_err err = {0};
	uint8_t *buf = malloc(3 * ss), *want = malloc(3 * ss);
	uint64_t n;

	write_sample(p, ss);
	CU_ASSERT_FATAL(bo_log_open(p, 0, &log, &err) == 0);
	CU_ASSERT(bo_log_sectorsize(log) == ss);
	CU_ASSERT(bo_log_count(log) == 7);
	CU_ASSERT(bo_log_super_entries(log) == 7);
	CU_ASSERT_STRING_EQUAL(bo_log_mark_name(log, 0), "mkfs");
	CU_ASSERT_STRING_EQUAL(bo_log_mark_name(log, 5), "ack:1");
	CU_ASSERT(bo_log_mark_name(log, 1) == NULL);
	CU_ASSERT(bo_log_entry(log, 1)->sector == 10 && bo_log_entry(log, 1)->nr_sectors == 3);
	CU_ASSERT(bo_log_entry(log, 2)->flags == BO_LOG_FLUSH);
	CU_ASSERT(bo_log_entry(log, 3)->flags == (BO_LOG_FUA | BO_LOG_METADATA));
	CU_ASSERT(bo_log_entry(log, 4)->flags == BO_LOG_DISCARD);
	CU_ASSERT(bo_log_data_bytes(log, bo_log_entry(log, 4)) == 0);
	CU_ASSERT(bo_log_entry(log, 7) == NULL);
	/* Layout: super, then header + data blocks per entry. */
	CU_ASSERT(bo_log_entry(log, 0)->offset == ss);
	CU_ASSERT(bo_log_entry(log, 1)->offset == 2 * ss);
	CU_ASSERT(bo_log_entry(log, 2)->offset == 6 * ss);
	CU_ASSERT(bo_log_end_offset(log) == 14 * (uint64_t) ss);
	fill(want, 3 * ss, 1);
	CU_ASSERT(bo_log_read_data(log, 1, 0, buf, 3 * ss, &err) == 0);
	CU_ASSERT(memcmp(buf, want, 3 * ss) == 0);
	CU_ASSERT(bo_log_read_data(log, 1, ss, buf, 2 * ss, &err) == 0);
	CU_ASSERT(memcmp(buf, want + ss, 2 * ss) == 0);
	CU_ASSERT(bo_log_read_data(log, 1, ss, buf, 3 * ss, &err) == -EINVAL);
	CU_ASSERT(bo_log_find_mark(log, "ack:1", &n, &err) == 0 && n == 5);
	CU_ASSERT(bo_log_find_mark(log, "ack:2", &n, &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "'ack:2'") != NULL);
	CU_ASSERT(bo_log_mark_count(log) == 2);
	bo_log_free(log);
	free(buf);
	free(want);
}

static void test_round_trip(void)
{
	round_trip_ss(512);
	round_trip_ss(4096);
	round_trip_ss(65536);
}

/* Open must fail, and the message must contain each of @needles. */
static void expect_corrupt(const char *path, unsigned flags, const char *n1, const char *n2)
{
	struct bo_log *log = NULL;
	struct bo_err err = {0};
	int r = bo_log_open(path, flags, &log, &err);

	CU_ASSERT(r < 0);
	CU_ASSERT(log == NULL);
	if (r == 0)
		bo_log_free(log);
	CU_ASSERT(n1 == NULL || strstr(err.msg, n1) != NULL);
	CU_ASSERT(n2 == NULL || strstr(err.msg, n2) != NULL);
	if ((n1 && !strstr(err.msg, n1)) || (n2 && !strstr(err.msg, n2)))
		fprintf(stderr, "\n  message was: %s\n", err.msg);
	/* Headers read through the window must fail the same way, with the same words. */
	if (!(flags & BO_LOG_OPEN_WINDOWED)) {
		struct bo_err werr = {0};

		log = NULL;
		r = bo_log_open(path, flags | BO_LOG_OPEN_WINDOWED, &log, &werr);
		CU_ASSERT(r < 0);
		if (r == 0)
			bo_log_free(log);
		CU_ASSERT_STRING_EQUAL(werr.msg, err.msg);
	}
}

/* Synthetic logs of small and of large writes: the windowed index is the per-header one. */
static void test_windowed_index(void)
{
	static const uint32_t max_blocks[] = {1, 3, 64, 300};
	const char *p = bo_test_path("window.log");

	for (size_t k = 0; k < sizeof(max_blocks) / sizeof(max_blocks[0]); k++) {
		struct bo_synth_params sp = {.seed = 11 + k,
					     .entries = 3000,
					     .sectorsize = k % 2 ? 4096 : 512,
					     .dev_blocks = 1u << 16,
					     .max_blocks = max_blocks[k],
					     .flush_every = 20,
					     .mark_every = 7};
		struct bo_log *a = NULL, *b = NULL;
		struct bo_err err = {0};

		CU_ASSERT_FATAL(bo_synth_log(p, &sp, &err) == 0);
		CU_ASSERT_FATAL(bo_log_open(p, 0, &a, &err) == 0);
		CU_ASSERT_FATAL(bo_log_open(p, BO_LOG_OPEN_WINDOWED, &b, &err) == 0);
		CU_ASSERT(bo_log_count(a) == 3000);
		CU_ASSERT(bo_log_count(b) == bo_log_count(a));
		CU_ASSERT(bo_log_mark_count(b) == bo_log_mark_count(a));
		CU_ASSERT(bo_log_mark_count(a) > 0);
		for (uint64_t i = 0; i < bo_log_count(a) && i < bo_log_count(b); i++) {
			const struct bo_log_entry *x = bo_log_entry(a, i), *y = bo_log_entry(b, i);
			const char *mx = bo_log_mark_name(a, i), *my = bo_log_mark_name(b, i);

			if (memcmp(x, y, sizeof(*x)) || (mx && (!my || strcmp(mx, my)))) {
				CU_FAIL("windowed index differs");
				break;
			}
		}
		bo_log_free(a);
		bo_log_free(b);
	}
}

/* Whether logs @a and @b have the same index: entries, marks and their names. */
static bool same_index(const struct bo_log *a, const struct bo_log *b)
{
	if (bo_log_count(a) != bo_log_count(b) || bo_log_mark_count(a) != bo_log_mark_count(b) ||
	    bo_log_end_offset(a) != bo_log_end_offset(b))
		return false;
	for (uint64_t i = 0; i < bo_log_count(a); i++) {
		const char *mx = bo_log_mark_name(a, i), *my = bo_log_mark_name(b, i);

		if (memcmp(bo_log_entry(a, i), bo_log_entry(b, i), sizeof(struct bo_log_entry)) ||
		    !mx != !my || (mx && strcmp(mx, my)))
			return false;
	}
	return true;
}

/* bo_log_open_indexed() must refuse @idx for @log, naming @needle. */
static void expect_bad_index(const char *log, const char *idx, const char *needle)
{
	struct bo_log *l = NULL;
	struct bo_err err = {0};

	CU_ASSERT(bo_log_open_indexed(log, idx, &l, &err) == -EBADMSG);
	CU_ASSERT(l == NULL);
	CU_ASSERT(strstr(err.msg, needle) != NULL);
	if (!strstr(err.msg, needle))
		fprintf(stderr, "\n  message was: %s\n", err.msg);
}

/*
 * A saved index opens to the index the headers give (marks found by name too); one that is
 * damaged, cut short, of another log or claims entries past the log is refused.
 */
static void test_saved_index(void)
{
	const char *p = bo_test_path("idx.log"), *q = bo_test_path("idx2.log");
	const char *idx = bo_test_path("idx.log.idx"), *bad = bo_test_path("bad.idx");
	struct bo_synth_params sp = {.seed = 5,
				     .entries = 2000,
				     .sectorsize = 4096,
				     .dev_blocks = 1u << 14,
				     .max_blocks = 16,
				     .flush_every = 20,
				     .mark_every = 9};
	struct bo_log *a = NULL, *b = NULL;
	struct bo_err err = {0};
	uint64_t n = 0, size = 0, sum;
	char cmd[3 * PATH_MAX];
	int fd;

	CU_ASSERT_FATAL(bo_synth_log(p, &sp, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(p, 0, &a, &err) == 0);
	unlink(idx);
	CU_ASSERT_FATAL(bo_log_save_index(a, idx, &err) == 0);
	CU_ASSERT(bo_log_save_index(a, idx, &err) == -EEXIST); /* never overwritten */
	CU_ASSERT_FATAL(bo_log_open_indexed(p, idx, &b, &err) == 0);
	CU_ASSERT(bo_log_mark_count(a) > 10);
	CU_ASSERT(same_index(a, b));
	CU_ASSERT(bo_log_find_mark(b, bo_log_mark_at(a, 3)->name, &n, &err) == 0 &&
		  n == bo_log_mark_at(a, 3)->entry);
	bo_log_free(b);
	b = NULL;
	fd = open(idx, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	size = (uint64_t) lseek(fd, 0, SEEK_END);
	close(fd);

	/* One byte flipped in an entry: the checksum. */
	snprintf(cmd, sizeof(cmd), "cp %s %s", idx, bad);
	CU_ASSERT_FATAL(system(cmd) == 0);
	patch(bad, 64 + 32 * 7 + 8, "\xff", 1);
	expect_bad_index(p, bad, "checksum");
	/* Cut short, and no index at all. */
	CU_ASSERT_FATAL(system(cmd) == 0);
	CU_ASSERT_FATAL(truncate(bad, (off_t) size - 40) == 0);
	expect_bad_index(p, bad, "is cut short");
	CU_ASSERT_FATAL(truncate(bad, 10) == 0);
	expect_bad_index(p, bad, "not a blackout log index");
	/* Longer than its entries and marks make it (a sparse GiB): refused by its size, unread. */
	CU_ASSERT_FATAL(system(cmd) == 0);
	CU_ASSERT_FATAL(truncate(bad, (off_t) size + (1 << 30)) == 0);
	expect_bad_index(p, bad, "where an index of 2000 entries");
	/* More entries than the log's super block says, or than its blocks hold. */
	CU_ASSERT_FATAL(system(cmd) == 0);
	patch_u64(bad, 40, 2001);
	expect_bad_index(p, bad, "do not fit the log");
	patch_u64(bad, 40, 2000);
	patch_u64(bad, 48, 2001);
	expect_bad_index(p, bad, "do not fit the log");
	/* An entry past the end of the log, with a checksum that matches. */
	CU_ASSERT_FATAL(system(cmd) == 0);
	patch_u64(bad, 64 + 32 * 5, size * 1000);
	{
		uint8_t *buf = malloc(size);

		fd = open(bad, O_RDONLY);
		CU_ASSERT_FATAL(buf && fd >= 0 && pread(fd, buf, size, 0) == (ssize_t) size);
		close(fd);
		sum = 0xcbf29ce484222325ULL;
		for (uint64_t i = 0; i < size - 8; i++)
			sum = (sum ^ buf[i]) * 0x100000001b3ULL;
		patch_u64(bad, size - 8, sum);
		free(buf);
	}
	expect_bad_index(p, bad, "entry 5 does not fit the log");
	/* The index of another log: a longer one. */
	sp.seed = 6;
	sp.entries = 2100;
	CU_ASSERT_FATAL(bo_synth_log(q, &sp, &err) == 0);
	expect_bad_index(q, idx, "made for another log");
	bo_log_free(a);
}

static void test_bad_magic(void)
{
	const char *p = bo_test_path("magic.log");

	write_sample(p, 512);
	patch_u64(p, 0, 0x1234);
	expect_corrupt(p, 0, "bad magic", "offset 0");
}

static void test_bad_version(void)
{
	const char *p = bo_test_path("version.log");

	write_sample(p, 512);
	patch_u64(p, 8, 2);
	expect_corrupt(p, 0, "unknown version 2", "offset 8");
}

static void test_bad_sectorsize(void)
{
	const char *p = bo_test_path("ss.log");
	static const uint32_t bad[] = {0, 256, 511, 1000, 4097, 1u << 31};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t le = htole32(bad[i]);

		write_sample(p, 4096);
		patch(p, 24, &le, sizeof(le));
		expect_corrupt(p, 0, "sectorsize", "offset 24");
	}
}

static void test_too_short(void)
{
	const char *p = bo_test_path("short.log");

	write_sample(p, 512);
	CU_ASSERT(truncate(p, 10) == 0);
	expect_corrupt(p, 0, "too short", NULL);
	CU_ASSERT(truncate(p, 0) == 0);
	expect_corrupt(p, 0, "too short", NULL);
}

static void test_nr_entries_past_end(void)
{
	const char *p = bo_test_path("count.log");

	write_sample(p, 512);
	patch_u64(p, 16, 9);
	/* Entry 7 would start at block 14. */
	expect_corrupt(p, 0, "entry 7 at offset 7168", "past end of log");
	patch_u64(p, 16, UINT64_MAX);
	expect_corrupt(p, 0, "entry 7 at offset 7168", "claims 18446744073709551615");
}

static void test_mark_too_long(void)
{
	const char *p = bo_test_path("mark.log");

	write_sample(p, 512);
	/* Entry 5 (mark ack:1) header: block 10; data_len at +24. 512 - 33 = 479 is the max. */
	patch_u64(p, 10 * 512 + 24, 480);
	expect_corrupt(p, 0, "entry 5 at offset 5120", "data_len 480");
	patch_u64(p, 10 * 512 + 24, 479);
	expect_corrupt(p, 0, "entry 5 at offset 5120", "NUL");
	patch_u64(p, 10 * 512 + 24, 0);
	expect_corrupt(p, 0, "entry 5 at offset 5120", "data_len 0");
}

static void test_overflow(void)
{
	const char *p = bo_test_path("ovf.log");

	write_sample(p, 512);
	/* Entry 1 at block 2: nr_sectors at +8. */
	patch_u64(p, 2 * 512 + 8, UINT64_MAX / 256);
	expect_corrupt(p, 0, "entry 1 at offset 1024", "overflows");
	write_sample(p, 512);
	patch_u64(p, 2 * 512, UINT64_MAX - 1);
	expect_corrupt(p, 0, "entry 1 at offset 1024", "overflows");
	/* A discard of an absurd range overflows as well, though it carries no data. */
	write_sample(p, 512);
	patch_u64(p, 9 * 512 + 8, UINT64_MAX / 2);
	expect_corrupt(p, 0, "entry 4 at offset 4608", "overflows");
}

static void test_data_past_end(void)
{
	const char *p = bo_test_path("trunc.log");

	write_sample(p, 512);
	/* Entry 6 (2 blocks) has its header at block 11, data at 12..13: cut inside. */
	CU_ASSERT(truncate(p, 13 * 512) == 0);
	expect_corrupt(p, 0, "entry 6 at offset 5632", "data runs past end of log");
	/* Huge nr_sectors that does not overflow must still be caught against the size. */
	write_sample(p, 512);
	patch_u64(p, 2 * 512 + 8, 1ULL << 40);
	expect_corrupt(p, 0, "entry 1 at offset 1024", "data runs past end of log");
}

static void test_bad_flags_and_empty(void)
{
	const char *p = bo_test_path("flags.log");

	write_sample(p, 512);
	patch_u64(p, 2 * 512 + 16, 0x40);
	expect_corrupt(p, 0, "entry 1 at offset 1024", "unknown flags 0x40");
	write_sample(p, 512);
	patch_u64(p, 2 * 512 + 8, 0);
	expect_corrupt(p, 0, "entry 1 at offset 1024", "empty entry");
	write_sample(p, 512);
	patch_u64(p, 2 * 512 + 24, 3 * 512 + 1);
	expect_corrupt(p, 0, "entry 1 at offset 1024", "data_len");
}

static void test_salvage(void)
{
	const char *p = bo_test_path("salvage.log");
	struct bo_log *log;
	struct bo_err err = {0};

	/* The kernel last rewrote the super after entry 3 (FUA): it says 4 entries. */
	write_sample(p, 512);
	patch_u64(p, 16, 4);
	CU_ASSERT_FATAL(bo_log_open(p, 0, &log, &err) == 0);
	CU_ASSERT(bo_log_count(log) == 4);
	CU_ASSERT(bo_log_mark_count(log) == 1);
	bo_log_free(log);
	CU_ASSERT_FATAL(bo_log_open(p, BO_LOG_OPEN_SALVAGE, &log, &err) == 0);
	CU_ASSERT(bo_log_count(log) == 7);
	CU_ASSERT(bo_log_super_entries(log) == 4);
	CU_ASSERT(bo_log_mark_count(log) == 2);
	bo_log_free(log);

	/* A torn tail (the machine died while writing entry 6's data): stop before it. */
	CU_ASSERT(truncate(p, 13 * 512) == 0);
	CU_ASSERT_FATAL(bo_log_open(p, BO_LOG_OPEN_SALVAGE, &log, &err) == 0);
	CU_ASSERT(bo_log_count(log) == 6);
	CU_ASSERT(bo_log_salvage_note(log) == NULL);
	bo_log_free(log);

	/* Stale zeroes after the last entry end the walk. */
	write_sample(p, 512);
	patch_u64(p, 16, 2);
	CU_ASSERT(truncate(p, 64 * 512) == 0);
	CU_ASSERT_FATAL(bo_log_open(p, BO_LOG_OPEN_SALVAGE, &log, &err) == 0);
	CU_ASSERT(bo_log_count(log) == 7);
	CU_ASSERT(bo_log_salvage_note(log) == NULL);
	bo_log_free(log);

	/* Past the count, a header that is neither zeroes nor the end of the file stops the
	 * walk with a note naming it. */
	write_sample(p, 512);
	patch_u64(p, 16, 4);
	patch_u64(p, 5120 + 16, 0x100);
	CU_ASSERT_FATAL(bo_log_open(p, BO_LOG_OPEN_SALVAGE, &log, &err) == 0);
	CU_ASSERT(bo_log_count(log) == 5);
	CU_ASSERT(bo_log_salvage_note(log) &&
		  strstr(bo_log_salvage_note(log), "entry 5 at offset 5120: unknown flags") &&
		  strstr(bo_log_salvage_note(log), "past the 4 entries"));
	bo_log_free(log);

	/* A damaged header the super vouches for: the error it is without salvage. */
	write_sample(p, 512);
	patch_u64(p, 3072 + 16, 0x100);
	expect_corrupt(p, BO_LOG_OPEN_SALVAGE, "entry 2 at offset 3072", "unknown flags");

	/* A file that ends before the entries the super claims: read to its end, said. */
	write_sample(p, 512);
	CU_ASSERT(truncate(p, 13 * 512) == 0);
	CU_ASSERT_FATAL(bo_log_open(p, BO_LOG_OPEN_SALVAGE, &log, &err) == 0);
	CU_ASSERT(bo_log_count(log) == 6);
	CU_ASSERT(bo_log_salvage_note(log) &&
		  strstr(bo_log_salvage_note(log), "inside entry 6 at offset 5632") &&
		  strstr(bo_log_salvage_note(log), "the 7 entries its super block claims: 6 read"));
	bo_log_free(log);
}

static void test_duplicate_mark(void)
{
	const char *p = bo_test_path("dup.log");
	struct bo_log_writer *w;
	struct bo_log *log;
	struct bo_err err = {0};
	uint64_t n;

	CU_ASSERT_FATAL(bo_log_writer_new(p, 512, &w, &err) == 0);
	CU_ASSERT(bo_log_writer_mark(w, "x", &err) == 0);
	CU_ASSERT(bo_log_writer_mark(w, "y", &err) == 1);
	CU_ASSERT(bo_log_writer_mark(w, "x", &err) == 2);
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(p, 0, &log, &err) == 0);
	CU_ASSERT(bo_log_find_mark(log, "x", &n, &err) == -ENOTUNIQ);
	CU_ASSERT(strstr(err.msg, "entries 0 and 2") != NULL);
	CU_ASSERT(bo_log_find_mark(log, "y", &n, &err) == 0 && n == 1);
	bo_log_free(log);
}

static void test_writer_rejects(void)
{
	struct bo_log_writer *w;
	struct bo_err err = {0};
	char name[600];

	CU_ASSERT(bo_log_writer_new(bo_test_path("w.log"), 1000, &w, &err) == -EINVAL);
	CU_ASSERT_FATAL(bo_log_writer_new(bo_test_path("w.log"), 512, &w, &err) == 0);
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	name[480] = '\0';
	CU_ASSERT(bo_log_writer_mark(w, name, &err) == -EINVAL);
	name[479] = '\0';
	CU_ASSERT(bo_log_writer_mark(w, name, &err) == 0);
	CU_ASSERT(bo_log_writer_add(w, 0, 1, BO_LOG_MARK, name, &err) == -EINVAL);
	CU_ASSERT(bo_log_writer_add(w, 0, 1, 0, NULL, &err) == -EINVAL);
	bo_log_writer_free(w);
}

static void test_not_a_file(void)
{
	struct bo_log *log;
	struct bo_err err = {0};

	CU_ASSERT(bo_log_open(bo_test_dir(), 0, &log, &err) < 0);
	CU_ASSERT(strstr(err.msg, "not a regular file or block device") != NULL);
	CU_ASSERT(bo_log_open(bo_test_path("missing"), 0, &log, &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "missing") != NULL);
}

static int count_marks(void *ctx, uint64_t entry, const char *name)
{
	(*(int *) ctx)++;
	return 0;
}

static void test_tail(void)
{
	const char *p = bo_test_path("tail.log");
	struct bo_log_writer *w;
	struct bo_logtail *t;
	struct bo_err err = {0};
	uint8_t blk[512] = {7};
	uint64_t n = 0;
	int marks = 0;

	/* The log device is a preallocated, zeroed file the kernel fills entry by entry. */
	CU_ASSERT_FATAL(bo_log_writer_new(p, 512, &w, &err) == 0);
	CU_ASSERT_FATAL(truncate(p, 1 << 20) == 0);
	CU_ASSERT_FATAL(bo_logtail_open(p, 512, &t, &err) == 0);
	CU_ASSERT(bo_logtail_scan(t, count_marks, &marks, &err) == 0);
	CU_ASSERT(bo_logtail_count(t) == 0);
	CU_ASSERT(bo_log_writer_mark(w, "mkfs", &err) == 0);
	CU_ASSERT(bo_log_writer_add(w, 3, 1, 0, blk, &err) == 1);
	CU_ASSERT(bo_logtail_scan(t, count_marks, &marks, &err) == 0);
	CU_ASSERT(bo_logtail_count(t) == 2 && marks == 1);
	CU_ASSERT(bo_log_writer_mark(w, "ack:1", &err) == 2);
	CU_ASSERT(bo_log_writer_add(w, 0, 0, BO_LOG_FLUSH, NULL, &err) == 3);
	CU_ASSERT(bo_log_writer_mark(w, "ack:2", &err) == 4);
	CU_ASSERT(bo_logtail_wait_mark(t, "ack:1", 100, &n, &err) == 0 && n == 2);
	CU_ASSERT(bo_logtail_wait_mark(t, "ack:2", 100, &n, &err) == 0 && n == 4);
	/* Marks already passed do not match again; a mark never written times out. */
	CU_ASSERT(bo_logtail_wait_mark(t, "ack:1", 20, &n, &err) == -ETIMEDOUT);
	CU_ASSERT(strstr(err.msg, "'ack:1' did not appear") != NULL);
	CU_ASSERT(bo_logtail_count(t) == 5);
	bo_logtail_free(t);
	bo_log_writer_free(w);
}

/* The layout mark of a log of several devices: written, read back, and refused when wrong. */
static void test_layout(void)
{
	struct bo_layout l = {.n = 2}, back;
	struct bo_err err = {0};
	struct bo_log_writer *w;
	struct bo_log *log;
	char mark[256];
	static const struct {
		const char *mark, *msg;
	} bad[] = {
		{"layout:", "expected layout:"},
		{"layout:a=ext4@2048", "expected layout:"},
		{"layout:A=raw@2048+8", "expected layout:"},
		{"layout:a=raw@0+8", "after sector 0"},
		{"layout:a=raw@8+8,b=raw@12+8", "must follow the one before"},
		{"layout:a=raw@8+8,a=raw@16+8", "named twice"},
		{"layout:a=raw@8+8/a", "must be another device"},
		{"layout:a=raw@8+8/c", "must be another device"},
		{"layout:a=raw@8+8;", "expected layout:"},
		{"layout:a=btrfs@8+8&b", "must be a raw device"},
		{"layout:a=btrfs@8+8&a", "must be a raw device"},
		{"layout:a=btrfs@8+8&b,b=xfs@16+8", "must be a raw device"},
		{"layout:a=raw@8+8&b,b=raw@16+8", "must be a raw device"},
		{"layout:a=btrfs@8+8&c,b=btrfs@16+8&c,c=raw@24+8", "no other filesystem holds"},
		{"layout:a=ext4@8+8/c,b=btrfs@16+8&c,c=raw@24+8", "no other filesystem holds"},
		{"layout:a=btrfs@8+8&", "expected layout:"},
	};

	snprintf(l.v[0].name, sizeof(l.v[0].name), "data");
	snprintf(l.v[0].kind, sizeof(l.v[0].kind), "ext4");
	l.v[0].start = 2048;
	l.v[0].sectors = 262144;
	l.v[0].journal = 1;
	snprintf(l.v[1].name, sizeof(l.v[1].name), "log");
	snprintf(l.v[1].kind, sizeof(l.v[1].kind), "raw");
	l.v[1].start = 264192;
	l.v[1].sectors = 16384;
	l.v[1].journal = -1;
	CU_ASSERT_FATAL(bo_layout_format(&l, mark, sizeof(mark)) == 0);
	CU_ASSERT(!strcmp(mark, "layout:data=ext4@2048+262144/log,log=raw@264192+16384"));
	CU_ASSERT(bo_layout_format(&l, mark, 20) == -ENAMETOOLONG);
	CU_ASSERT_FATAL(bo_layout_format(&l, mark, sizeof(mark)) == 0);
	CU_ASSERT_FATAL(bo_layout_parse(mark, &back, &err) == 0);
	CU_ASSERT(back.n == 2 && back.v[0].journal == 1 && back.v[1].journal == -1 &&
		  !strcmp(back.v[1].kind, "raw") && back.v[1].start == 264192);
	CU_ASSERT(bo_layout_sectors(&back) == 264192 + 16384);
	/* Blocks of 4096 bytes: block 256 is sector 2048, data's first. */
	CU_ASSERT(bo_layout_device(&back, 4096, 256) == 0);
	CU_ASSERT(bo_layout_device(&back, 4096, 264192 / 8) == 1);
	CU_ASSERT(bo_layout_device(&back, 4096, 0) == -1);
	CU_ASSERT(bo_layout_device(&back, 512, (264192 + 16384)) == -1);
	for (size_t i = 0; i < BO_ARRAY_SIZE(bad); i++) {
		CU_ASSERT(bo_layout_parse(bad[i].mark, &back, &err) == -EINVAL);
		CU_ASSERT(strstr(bo_err_str(&err), bad[i].msg) != NULL);
	}
	/* A log carries it; a bad one makes the log unreadable, naming the entry. */
	CU_ASSERT_FATAL(bo_log_writer_new(bo_test_path("layout.log"), 512, &w, &err) == 0);
	CU_ASSERT(bo_log_writer_mark(w, mark, &err) >= 0);
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(bo_test_path("layout.log"), 0, &log, &err) == 0);
	CU_ASSERT(bo_log_layout(log)->n == 2 && !strcmp(bo_log_layout(log)->v[0].name, "data"));
	bo_log_free(log);
	unlink(bo_test_path("layout.log"));
	CU_ASSERT_FATAL(bo_log_writer_new(bo_test_path("layout.log"), 512, &w, &err) == 0);
	CU_ASSERT(bo_log_writer_mark(w, "m", &err) >= 0);
	CU_ASSERT(bo_log_writer_mark(w, "layout:x", &err) >= 0);
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	CU_ASSERT(bo_log_open(bo_test_path("layout.log"), 0, &log, &err) == -EINVAL);
	CU_ASSERT(strstr(bo_err_str(&err), "entry 1: layout mark 'layout:x'") != NULL);
	/* A btrfs over three devices: written and read back, each spanned device owned by it. */
	l.n = 3;
	snprintf(l.v[0].kind, sizeof(l.v[0].kind), "btrfs");
	l.v[0].journal = -1;
	l.v[0].spans = 1u << 1 | 1u << 2;
	l.v[2] = l.v[1];
	snprintf(l.v[2].name, sizeof(l.v[2].name), "c");
	l.v[2].start = 264192 + 16384;
	CU_ASSERT_FATAL(bo_layout_format(&l, mark, sizeof(mark)) == 0);
	CU_ASSERT(!strcmp(mark, "layout:data=btrfs@2048+262144&log&c,log=raw@264192+16384,"
				"c=raw@280576+16384"));
	CU_ASSERT_FATAL(bo_layout_parse(mark, &back, &err) == 0);
	CU_ASSERT(back.v[0].spans == 6 && back.v[1].spans == 0 && back.v[0].journal == -1);
	CU_ASSERT(bo_layout_owner(&back, 1) == 0 && bo_layout_owner(&back, 2) == 0 &&
		  bo_layout_owner(&back, 0) == -1);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"round trip at 512, 4096 and 65536-byte blocks", test_round_trip},
		{"windowed header reads give the same index", test_windowed_index},
		{"a saved index opens the same; a bad one is refused", test_saved_index},
		{"bad magic", test_bad_magic},
		{"unknown version", test_bad_version},
		{"sectorsize not a power of two >= 512", test_bad_sectorsize},
		{"log too short for a super block", test_too_short},
		{"nr_entries past the end", test_nr_entries_past_end},
		{"mark data_len > sectorsize - 33", test_mark_too_long},
		{"nr_sectors * sectorsize overflow", test_overflow},
		{"data past the end", test_data_past_end},
		{"unknown flags, empty entry, oversized data_len", test_bad_flags_and_empty},
		{"salvage past nr_entries, a torn tail, and where it stops", test_salvage},
		{"duplicate mark names", test_duplicate_mark},
		{"writer rejects bad input", test_writer_rejects},
		{"not a log file", test_not_a_file},
		{"following a log being written", test_tail},
		{"the layout of several devices", test_layout},
		{NULL, NULL},
	};

	return bo_test_run("log", tests);
}
