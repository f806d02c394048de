// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the log reader, cut resolution and the replay engine: any byte string
 * is a candidate log. The reader must reject or index it without crashing, and whatever it
 * indexes must be readable and replayable within the bounds it checked.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness/log/cut.h"
#include "harness/log/log.h"
#include "harness/replay/replay.h"

#define REPLAY_LIMIT (64ULL << 20)

static void exercise(const char *path, unsigned flags, int img_fd)
{
	struct bo_log *log = NULL;
	struct bo_replay *r = NULL;
	struct bo_err err = {0};
	char img[64];
	uint64_t n, end = 0;
	uint8_t buf[4096];

	if (bo_log_open(path, flags, &log, &err) < 0)
		return;
	for (n = 0; n < bo_log_count(log); n++) {
		const struct bo_log_entry *e = bo_log_entry(log, n);
		uint64_t bytes = bo_log_data_bytes(log, e);
		uint64_t last = (e->sector + e->nr_sectors) * bo_log_sectorsize(log);
		uint64_t m;

		if (bytes)
			(void) bo_log_read_data(log, n, bytes - 1, buf, 1, &err);
		if (last > end)
			end = last;
		if (bo_log_mark_name(log, n))
			(void) bo_cut_resolve(log, "mark:x", &m, &err);
	}
	(void) bo_cut_resolve(log, "flush:1", &n, &err);
	(void) bo_cut_resolve(log, "fua:2", &n, &err);
	if (end <= REPLAY_LIMIT) {
		snprintf(img, sizeof(img), "/proc/self/fd/%d", img_fd);
		if (ftruncate(img_fd, 0) == 0 && bo_replay_new(log, img, 0, 0, &r, &err) == 0) {
			(void) bo_replay_to(r, bo_log_count(log), &err);
			bo_replay_free(r);
		}
	}
	bo_log_free(log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int log_fd = -1, img_fd = -1;
	char path[64];

	if (log_fd < 0) {
		log_fd = memfd_create("fuzz-log", MFD_CLOEXEC);
		img_fd = memfd_create("fuzz-img", MFD_CLOEXEC);
		if (log_fd < 0 || img_fd < 0)
			return 0;
	}
	if (ftruncate(log_fd, 0) < 0 || pwrite(log_fd, data, size, 0) != (ssize_t) size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", log_fd);
	exercise(path, 0, img_fd);
	exercise(path, BO_LOG_OPEN_SALVAGE, img_fd);
	exercise(path, BO_LOG_OPEN_WINDOWED, img_fd);
	exercise(path, BO_LOG_OPEN_SALVAGE | BO_LOG_OPEN_WINDOWED, img_fd);
	return 0;
}
