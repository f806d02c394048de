// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The replay engine against an image the test computes itself: random writes and discards
 * are written to a log and applied to an in-memory model at the same time; after replaying
 * to any cut the target must equal the model at that cut.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/replay/basesrv.h"
#include "harness/log/cut.h"
#include "harness/log/log.h"
#include "harness/log/writer.h"
#include "harness/replay/replay.h"
#include "harness/base/rand.h"

#define SS	  512u
#define DEV_BLKS  256u
#define N_ENTRIES 300u

/* model[k] is the image after the first k entries. */
static uint8_t *model[N_ENTRIES + 1];

static void build(const char *path)
{
	struct bo_log_writer *w;
	struct bo_err err = {0};
	uint64_t st = 42;
	uint8_t data[16 * SS];

	model[0] = calloc(1, DEV_BLKS * SS);
	CU_ASSERT_FATAL(bo_log_writer_new(path, SS, &w, &err) == 0);
	for (uint64_t n = 0; n < N_ENTRIES; n++) {
		uint64_t roll = bo_rand_next(&st) % 10;
		uint64_t nr = 1 + bo_rand_next(&st) % 16;
		uint64_t sec = bo_rand_next(&st) % (DEV_BLKS - nr + 1);
		uint8_t *img = malloc(DEV_BLKS * SS);

		memcpy(img, model[n], DEV_BLKS * SS);
		if (roll == 0) {
			CU_ASSERT(bo_log_writer_add(w, 0, 0, BO_LOG_FLUSH, NULL, &err) ==
				  (int64_t) n);
		} else if (roll == 1) {
			char name[32];

			snprintf(name, sizeof(name), "m%llu", (unsigned long long) n);
			CU_ASSERT(bo_log_writer_mark(w, name, &err) == (int64_t) n);
		} else if (roll == 2) {
			CU_ASSERT(bo_log_writer_add(w, sec, nr, BO_LOG_DISCARD, NULL, &err) ==
				  (int64_t) n);
			memset(img + sec * SS, 0, nr * SS);
		} else {
			for (size_t i = 0; i < nr * SS; i++)
				data[i] = (uint8_t) bo_rand_next(&st);
			CU_ASSERT(bo_log_writer_add(w, sec, nr, roll == 3 ? BO_LOG_FUA : 0, data,
						    &err) == (int64_t) n);
			memcpy(img + sec * SS, data, nr * SS);
		}
		model[n + 1] = img;
	}
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
}

static void free_model(void)
{
	for (size_t i = 0; i <= N_ENTRIES; i++) {
		free(model[i]);
		model[i] = NULL;
	}
}

/* The target file (read back, zero-extended to the device size) equals model[k]. */
static int target_equals(const char *path, uint64_t k)
{
	uint8_t *img = calloc(1, DEV_BLKS * SS);
	int fd = open(path, O_RDONLY), same;
	ssize_t n;

	CU_ASSERT_FATAL(fd >= 0);
	n = pread(fd, img, DEV_BLKS * SS, 0);
	CU_ASSERT(n >= 0);
	close(fd);
	same = memcmp(img, model[k], DEV_BLKS * SS) == 0;
	free(img);
	return same;
}

static void fresh_target(const char *path, uint8_t fillbyte)
{
	uint8_t *junk = malloc(DEV_BLKS * SS);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	CU_ASSERT_FATAL(fd >= 0);
	memset(junk, fillbyte, DEV_BLKS * SS);
	if (fillbyte)
		CU_ASSERT(write(fd, junk, DEV_BLKS * SS) == (ssize_t) (DEV_BLKS * SS));
	close(fd);
	free(junk);
}

static void test_every_cut(void)
{
	const char *lp = bo_test_path("model.log"), *tp = bo_test_path("model.img");
	struct bo_log *log;
	struct bo_err err = {0};

	build(lp);
	CU_ASSERT_FATAL(bo_log_open(lp, 0, &log, &err) == 0);
	/* Roll forward through every cut and compare at each one: with in-kernel copies,
	 * through the user-space buffer (what block device targets use) and straight from the
	 * mapped log (the host base's). */
	static const unsigned modes[] = {0, BO_REPLAY_BUFFERED, BO_REPLAY_MAP_LOG};

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		unsigned flags = modes[m];
		struct bo_replay *r;

		fresh_target(tp, 0);
		CU_ASSERT_FATAL(bo_replay_new(log, tp, flags, DEV_BLKS * SS, &r, &err) == 0);
		for (uint64_t k = 0; k <= N_ENTRIES; k++) {
			CU_ASSERT_FATAL(bo_replay_to(r, k, &err) == 0);
			CU_ASSERT(bo_replay_position(r) == k);
			if (!target_equals(tp, k)) {
				CU_FAIL("image differs from the model");
				fprintf(stderr, "\n  first difference at cut %llu\n",
					(unsigned long long) k);
				break;
			}
		}
		bo_replay_free(r);
	}
	bo_log_free(log);
	free_model();
}

static void test_resume_equals_one_shot(void)
{
	const char *lp = bo_test_path("resume.log");
	const char *a = bo_test_path("oneshot.img"), *b = bo_test_path("resumed.img");
	struct bo_replay *r;
	struct bo_log *log;
	struct bo_err err = {0};

	build(lp);
	CU_ASSERT_FATAL(bo_log_open(lp, 0, &log, &err) == 0);
	fresh_target(a, 0);
	fresh_target(b, 0);
	CU_ASSERT_FATAL(bo_replay_new(log, a, 0, 0, &r, &err) == 0);
	CU_ASSERT(bo_replay_to(r, 250, &err) == 0);
	bo_replay_free(r);
	/* Resume across separate replay objects, as `replay --from` does. */
	CU_ASSERT_FATAL(bo_replay_new(log, b, 0, 0, &r, &err) == 0);
	CU_ASSERT(bo_replay_to(r, 97, &err) == 0);
	bo_replay_free(r);
	CU_ASSERT_FATAL(bo_replay_new(log, b, 0, 0, &r, &err) == 0);
	CU_ASSERT(bo_replay_set_position(r, 97, &err) == 0);
	CU_ASSERT(bo_replay_to(r, 250, &err) == 0);
	/* Backwards is refused. */
	CU_ASSERT(bo_replay_to(r, 10, &err) == -ERANGE);
	CU_ASSERT(strstr(err.msg, "cannot go back") != NULL);
	CU_ASSERT(bo_replay_to(r, N_ENTRIES + 1, &err) == -ERANGE);
	bo_replay_free(r);
	CU_ASSERT(target_equals(a, 250));
	CU_ASSERT(target_equals(b, 250));
	bo_log_free(log);
	free_model();
}

static void test_discard_zeroes(void)
{
	const char *lp = bo_test_path("discard.log"), *tp = bo_test_path("discard.img");
	struct bo_log_writer *w;
	struct bo_replay *r;
	struct bo_log *log;
	struct bo_err err = {0};
	uint8_t buf[8 * SS];
	struct stat st;
	int fd;

	/* A discard must read back as zeroes even over old data, and one past the end of a
	 * target file extends it (the sectors exist on the device). */
	CU_ASSERT_FATAL(bo_log_writer_new(lp, SS, &w, &err) == 0);
	CU_ASSERT(bo_log_writer_add(w, 4, 8, BO_LOG_DISCARD, NULL, &err) == 0);
	CU_ASSERT(bo_log_writer_add(w, DEV_BLKS, 8, BO_LOG_DISCARD, NULL, &err) == 1);
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	fresh_target(tp, 0xff);
	CU_ASSERT_FATAL(bo_log_open(lp, 0, &log, &err) == 0);
	CU_ASSERT_FATAL(bo_replay_new(log, tp, 0, 0, &r, &err) == 0);
	CU_ASSERT(bo_replay_to(r, 1, &err) == 0);
	fd = open(tp, O_RDONLY);
	CU_ASSERT(pread(fd, buf, sizeof(buf), 4 * SS) == (ssize_t) sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		if (buf[i]) {
			CU_FAIL("discarded range is not zero");
			break;
		}
	CU_ASSERT(pread(fd, buf, SS, 3 * SS) == SS && buf[0] == 0xff && buf[SS - 1] == 0xff);
	CU_ASSERT(pread(fd, buf, SS, 12 * SS) == SS && buf[0] == 0xff);
	CU_ASSERT(bo_replay_to(r, 2, &err) == 0);
	CU_ASSERT(fstat(fd, &st) == 0 && st.st_size == (DEV_BLKS + 8) * SS);
	close(fd);
	bo_replay_free(r);
	bo_log_free(log);
}

/* A write torn inside a block: its whole blocks, then the head of the next over the old data. */
static void test_apply_head(void)
{
	const char *lp = bo_test_path("head.log"), *tp = bo_test_path("head.img");
	static uint8_t data[2 * 4096], buf[3 * 4096];
	struct bo_log_writer *w;
	struct bo_replay *r;
	struct bo_log *log;
	struct bo_err err = {0};
	int fd;

	memset(data, 0xab, sizeof(data));
	CU_ASSERT_FATAL(bo_log_writer_new(lp, 4096, &w, &err) == 0);
	CU_ASSERT(bo_log_writer_add(w, 1, 2, 0, data, &err) == 0);
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	fresh_target(tp, 0xff);
	CU_ASSERT_FATAL(bo_log_open(lp, 0, &log, &err) == 0);
	CU_ASSERT_FATAL(bo_replay_new(log, tp, 0, 0, &r, &err) == 0);
	CU_ASSERT(bo_replay_apply_head(r, 0, 4096 + 1536, &err) == 0);
	CU_ASSERT(bo_replay_sync(r, &err) == 0);
	fd = open(tp, O_RDONLY);
	CU_ASSERT(pread(fd, buf, sizeof(buf), 0) == (ssize_t) sizeof(buf));
	CU_ASSERT(buf[4095] == 0xff && buf[4096] == 0xab && buf[8191] == 0xab);
	CU_ASSERT(buf[8192] == 0xab && buf[8192 + 1535] == 0xab && buf[8192 + 1536] == 0xff);
	close(fd);
	bo_replay_free(r);
	bo_log_free(log);
}

static void test_missing_mark(void)
{
	const char *lp = bo_test_path("mm.log"), *tp = bo_test_path("mm.img");
	struct bo_replay *r;
	struct bo_log *log;
	struct bo_err err = {0};
	uint64_t n = 0;
	struct stat st;

	build(lp);
	CU_ASSERT_FATAL(bo_log_open(lp, 0, &log, &err) == 0);
	CU_ASSERT(bo_cut_resolve(log, "mark:no-such-mark", &n, &err) == -ENOENT);
	CU_ASSERT(n == 0);
	/* Nothing was written: the caller stops before creating a replay. */
	CU_ASSERT(stat(tp, &st) < 0);
	CU_ASSERT_FATAL(bo_replay_new(log, tp, BO_REPLAY_CREATE, 0, &r, &err) == 0);
	bo_replay_free(r);
	bo_log_free(log);
	free_model();
}

static void test_bad_target(void)
{
	const char *lp = bo_test_path("bt.log");
	struct bo_replay *r;
	struct bo_log *log;
	struct bo_err err = {0};

	build(lp);
	CU_ASSERT_FATAL(bo_log_open(lp, 0, &log, &err) == 0);
	CU_ASSERT(bo_replay_new(log, bo_test_path("nope/x.img"), BO_REPLAY_CREATE, 0, &r, &err) ==
		  -ENOENT);
	CU_ASSERT(strstr(err.msg, "nope/x.img") != NULL);
	CU_ASSERT(bo_replay_new(log, bo_test_dir(), 0, 0, &r, &err) < 0);
	/* Not a file nor a block device blackout made (harness/safety.h): refused unopened. */
	CU_ASSERT(bo_replay_new(log, "/dev/null", 0, 0, &r, &err) == -EPERM);
	CU_ASSERT(strstr(err.msg, "'/dev/null'") != NULL);
	bo_log_free(log);
	free_model();
}

/*
 * Entries around the replay's read window (8 MiB): small ones, ones that end just past it,
 * one larger than the window (copied on its own), in one bo_replay_to() and in steps; in steps
 * with the next window read ahead (bo_replay_prefetch()) to the end, or to the next step only;
 * and a read-ahead left running when the replay is freed.
 */
static void test_read_window(void)
{
	static const uint64_t blocks[] = {1, 1025, 3, 2049, 1, 2300, 7, 1, 1030, 1030, 1};
	const uint32_t ss = 4096;
	const size_t n = sizeof(blocks) / sizeof(blocks[0]);
	const char *lp = bo_test_path("window.log"), *tp = bo_test_path("window.img");
	uint64_t end = 0, sector = 0;
	struct bo_log_writer *w;
	struct bo_log *log;
	struct bo_err err = {0};
	uint8_t *want, *data, *got;

	for (size_t i = 0; i < n; i++)
		end += blocks[i];
	want = calloc(end, ss);
	got = malloc(end * ss);
	data = malloc(2300 * ss);
	CU_ASSERT_FATAL(want && got && data);
	CU_ASSERT_FATAL(bo_log_writer_new(lp, ss, &w, &err) == 0);
	for (size_t i = 0; i < n; i++) {
		/* Each entry overlaps the one before by a block: the order shows. */
		uint64_t at = sector ? sector - 1 : 0;

		memset(data, 'a' + (int) i, blocks[i] * ss);
		data[0] = (uint8_t) i;
		CU_ASSERT_FATAL(bo_log_writer_add(w, at, blocks[i], 0, data, &err) == (int64_t) i);
		memcpy(want + at * ss, data, blocks[i] * ss);
		sector = at + blocks[i];
	}
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(lp, 0, &log, &err) == 0);
	for (int steps = 0; steps < 4; steps++) {
		struct bo_replay *r;
		int fd;

		fresh_target(tp, 0);
		CU_ASSERT_FATAL(bo_replay_new(log, tp, 0, end * ss, &r, &err) == 0);
		if (steps) {
			for (uint64_t k = 1; k <= n; k += 3) {
				CU_ASSERT(bo_replay_to(r, k, &err) == 0);
				if (steps == 2)
					bo_replay_prefetch(r, n);
				if (steps == 3)
					bo_replay_prefetch(r, k + 3 < n ? k + 3 : n);
			}
		}
		CU_ASSERT(bo_replay_to(r, n, &err) == 0);
		bo_replay_free(r);
		fd = open(tp, O_RDONLY);
		CU_ASSERT(pread(fd, got, end * ss, 0) == (ssize_t) (end * ss));
		CU_ASSERT(memcmp(got, want, end * ss) == 0);
		close(fd);
	}
	{
		struct bo_replay *r;

		CU_ASSERT_FATAL(bo_replay_new(log, tp, 0, end * ss, &r, &err) == 0);
		bo_replay_prefetch(r, n);
		bo_replay_free(r);
	}
	bo_log_free(log);
	free(want);
	free(got);
	free(data);
}

/*
 * A log cut short after it was indexed: the replay says so, whether the log was mapped before
 * or after it shrank, and the process is not killed (a mapped log is only read by the kernel,
 * which turns the missing pages into EFAULT rather than SIGBUS).
 */
static void test_log_shrank(void)
{
	const char *lp = bo_test_path("shrink.log"), *tp = bo_test_path("shrink.img");
	static const unsigned modes[] = {0, BO_REPLAY_MAP_LOG};
	struct bo_err err = {0};
	struct stat st;

	for (size_t m = 0; m < 2; m++) {
		for (int late = 0; late < 2; late++) {
			struct bo_replay *r;
			struct bo_log *log;

			build(lp);
			CU_ASSERT_FATAL(bo_log_open(lp, 0, &log, &err) == 0);
			CU_ASSERT_FATAL(stat(lp, &st) == 0);
			fresh_target(tp, 0);
			if (!late)
				CU_ASSERT_FATAL(truncate(lp, st.st_size / 2) == 0);
			CU_ASSERT_FATAL(bo_replay_new(log, tp, modes[m], DEV_BLKS * SS, &r, &err) ==
					0);
			if (late)
				CU_ASSERT_FATAL(truncate(lp, st.st_size / 2) == 0);
			err = (struct bo_err){0};
			CU_ASSERT(bo_replay_to(r, N_ENTRIES, &err) < 0);
			CU_ASSERT(err.errnum != 0);
			if (!strstr(bo_err_str(&err), "shrank")) {
				CU_FAIL("the error does not say that the log shrank");
				fprintf(stderr, "\n  mode %zu, late %d: %s\n", m, late,
					bo_err_str(&err));
			}
			CU_ASSERT(bo_replay_position(r) < N_ENTRIES);
			bo_replay_free(r);
			bo_log_free(log);
			free_model();
		}
	}
}

/*
 * Runs of writes to adjacent blocks, which replay gathers into one pwritev(): more of them
 * than one batch holds, runs that cross the read window's end, a run that rewrites blocks of
 * an earlier one, and a discard in the middle of a run. Replayed in one go and in steps, the
 * image is the model's.
 */
static void test_adjacent_runs(void)
{
	const uint32_t ss = 4096;
	const uint64_t dev = 3000;
	const char *lp = bo_test_path("runs.log"), *tp = bo_test_path("runs.img");
	struct bo_log_writer *w;
	struct bo_log *log;
	struct bo_err err = {0};
	uint8_t *want = calloc(dev, ss), *got = malloc(dev * ss), data[2 * 4096];
	uint64_t n = 0;

	CU_ASSERT_FATAL(want && got);
	CU_ASSERT_FATAL(bo_log_writer_new(lp, ss, &w, &err) == 0);
	/* 1100 two-block writes end to end (22 MiB of log: windows of 8 MiB end inside runs),
	 * then 400 over blocks 200..999 again, a discard of 16 blocks inside that range, and 50
	 * more that run on across it. */
	for (uint64_t i = 0; i < 1550; i++) {
		uint64_t at = i < 1100	 ? 2 * i
			      : i < 1500 ? 200 + 2 * (i - 1100)
					 : 900 + 2 * (i - 1500);

		if (i == 1500) {
			CU_ASSERT_FATAL(bo_log_writer_add(w, 950, 16, BO_LOG_DISCARD, NULL, &err) ==
					(int64_t) n++);
			memset(want + 950 * ss, 0, 16 * ss);
		}
		for (size_t b = 0; b < sizeof(data); b++)
			data[b] = (uint8_t) (i * 31 + b);
		CU_ASSERT_FATAL(bo_log_writer_add(w, at, 2, 0, data, &err) == (int64_t) n++);
		memcpy(want + at * ss, data, sizeof(data));
	}
	CU_ASSERT_FATAL(bo_log_writer_close(w, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(lp, 0, &log, &err) == 0);
	for (uint64_t step = 0; step < 3; step++) {
		struct bo_replay *r;
		int fd;

		fresh_target(tp, 0);
		CU_ASSERT_FATAL(bo_replay_new(log, tp, 0, dev * ss, &r, &err) == 0);
		for (uint64_t k = 0; step && k < n; k += step == 1 ? 97 : 613) {
			CU_ASSERT(bo_replay_to(r, k, &err) == 0);
			bo_replay_prefetch(r, n);
		}
		CU_ASSERT(bo_replay_to(r, n, &err) == 0);
		CU_ASSERT(bo_replay_position(r) == n);
		bo_replay_free(r);
		fd = open(tp, O_RDONLY);
		CU_ASSERT(pread(fd, got, dev * ss, 0) == (ssize_t) (dev * ss));
		CU_ASSERT(memcmp(got, want, dev * ss) == 0);
		close(fd);
	}
	bo_log_free(log);
	free(want);
	free(got);
}

/* The first DEV_BLKS blocks of the host base's image equal model[k], and the rest of it
 * (the rounding up to 2 MiB) is zero. */
static bool base_equals(int fd, uint64_t size, uint64_t k)
{
	uint8_t *img = malloc(size);
	bool same;

	CU_ASSERT_FATAL(img != NULL);
	CU_ASSERT(pread(fd, img, size, 0) == (ssize_t) size);
	same = memcmp(img, model[k], DEV_BLKS * SS) == 0;
	for (uint64_t i = DEV_BLKS * SS; same && i < size; i++)
		same = img[i] == 0;
	free(img);
	return same;
}

static void test_host_base(void)
{
	const char *lp = bo_test_path("hostbase.log");
	const uint64_t cuts[] = {0, 1, 7, 8, 8, 90, 150, 151, N_ENTRIES};
	struct bo_base_server *srv = NULL;
	struct bo_log *log;
	struct bo_err err = {0};
	int base = -1, port = -1;
	char ans[256];
	ssize_t n;

	build(lp);
	CU_ASSERT_FATAL(bo_log_open(lp, 0, &log, &err) == 0);
	CU_ASSERT_FATAL(bo_base_server_start(log, DEV_BLKS * SS, &srv, &base, &port, &err) == 0);
	CU_ASSERT(bo_base_server_size(srv) == 2u << 20);
	/* The guest's side is the port: requests, then answers, one line each. */
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		CU_ASSERT_FATAL(bo_base_send(port, cuts[i], &err) == 0);
		CU_ASSERT_FATAL(bo_base_wait(port, cuts[i], &err) == 0);
		if (!base_equals(base, bo_base_server_size(srv), cuts[i])) {
			CU_FAIL("the host base differs from the model");
			fprintf(stderr, "\n  at cut %llu\n", (unsigned long long) cuts[i]);
		}
	}
	/* Positive control: the comparison sees an image one cut behind. */
	CU_ASSERT(!base_equals(base, bo_base_server_size(srv), N_ENTRIES - 1) ||
		  !memcmp(model[N_ENTRIES - 1], model[N_ENTRIES], DEV_BLKS * SS));
	/* Backwards, past the end: an error answer that names it, and the image unchanged. */
	CU_ASSERT(bo_base_send(port, 5, &err) == 0);
	CU_ASSERT(bo_base_wait(port, 5, &err) == -EIO);
	CU_ASSERT(strstr(bo_err_str(&err), "cannot go back to 5") != NULL);
	CU_ASSERT(bo_base_send(port, N_ENTRIES + 1, &err) == 0);
	CU_ASSERT(bo_base_wait(port, N_ENTRIES + 1, &err) == -EIO);
	CU_ASSERT(strstr(bo_err_str(&err), "past the end") != NULL);
	CU_ASSERT(base_equals(base, bo_base_server_size(srv), N_ENTRIES));
	/* A malformed request is answered, not obeyed; an answer for another entry is refused. */
	CU_ASSERT(write(port, "replay 3x\n", 10) == 10);
	n = read(port, ans, sizeof(ans) - 1);
	CU_ASSERT(n > 0);
	ans[n > 0 ? n : 0] = '\0';
	CU_ASSERT(strncmp(ans, "error ", 6) == 0 && strstr(ans, "malformed") != NULL);
	CU_ASSERT(bo_base_send(port, N_ENTRIES, &err) == 0);
	CU_ASSERT(bo_base_wait(port, 7, &err) == -EPROTO);
	CU_ASSERT(bo_base_server_requests(srv) == sizeof(cuts) / sizeof(cuts[0]) + 1);
	/* The host gone while QEMU still holds the guest's end: the wait says so, no hang. */
	port = dup(port);
	bo_base_server_stop(srv);
	CU_ASSERT(bo_base_wait(port, 7, &err) == -EPIPE);
	close(port);
	bo_log_free(log);
	free_model();
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"image equals an independent model at every cut", test_every_cut},
		{"resume equals one-shot replay; no going back", test_resume_equals_one_shot},
		{"discard writes zeroes", test_discard_zeroes},
		{"a missing mark is an error", test_missing_mark},
		{"bad targets are refused", test_bad_target},
		{"entries around the read window", test_read_window},
		{"runs of adjacent writes, batched", test_adjacent_runs},
		{"a write torn inside a block", test_apply_head},
		{"a log that shrank after indexing is an error", test_log_shrank},
		{"the host base serves replays over its port", test_host_base},
		{NULL, NULL},
	};

	return bo_test_run("replay", tests);
}
