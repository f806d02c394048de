// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/log/synth.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/rand.h"
#include "harness/log/log.h"
#include "harness/log/writer.h"

void bo_synth_fill(void *buf, uint32_t ss, uint64_t seed, uint64_t entry, uint64_t blk)
{
	uint64_t st = seed ^ (entry * 0x100000001b3ULL) ^ (blk << 40);
	uint64_t *w = buf;

	/* A header a human can read in a hex dump, then cheap pseudo-random words. */
	w[0] = htole64(entry);
	w[1] = htole64(blk);
	for (size_t i = 2; i < ss / sizeof(uint64_t); i++)
		w[i] = bo_rand_next(&st);
}

int bo_synth_log(const char *path, const struct bo_synth_params *p, struct bo_err *err)
{
	const uint32_t ss = p->sectorsize;
	struct bo_log_writer *w = NULL;
	_cleanup_free_ uint8_t *data = NULL;
	uint64_t st = p->seed, op = 0;
	char name[64];
	int64_t r;

	if (!p->dev_blocks || !p->max_blocks || p->max_blocks > p->dev_blocks)
		return bo_err_set(err, EINVAL, "synthetic log: bad device or write size");
	data = malloc((size_t) p->max_blocks * ss);
	if (!data)
		return bo_err_set(err, ENOMEM, "synthetic log: allocating %u blocks",
				  p->max_blocks);
	/* Said and refused before a byte is written when it may not fit: every entry a sector
	 * of header and at most max_blocks of data, and the super block. */
	if (p->entries > UINT64_MAX / ss / (1 + (uint64_t) p->max_blocks) - 1)
		return bo_err_set(err, EFBIG,
				  "synthetic log: %" PRIu64 " entries of up to %u "
				  "blocks do not fit in 64 bits",
				  p->entries, p->max_blocks);
	r = bo_space_check(path, (p->entries + 1) * ss * (1 + (uint64_t) p->max_blocks),
			   "the log (at most, by --entries and --max-write)", err);
	if (r < 0)
		return (int) r;
	r = bo_log_writer_new(path, ss, &w, err);
	if (r < 0)
		return (int) r;
	r = bo_log_writer_mark(w, "mkfs", err);
	while (r >= 0 && bo_log_writer_count(w) < p->entries) {
		uint64_t n = bo_log_writer_count(w), roll = bo_rand_next(&st);
		uint64_t nr = 1 + bo_rand_next(&st) % p->max_blocks;
		uint64_t sector = bo_rand_next(&st) % (p->dev_blocks - nr + 1);

		if (p->flush_every && roll % p->flush_every == 0) {
			r = bo_log_writer_add(w, 0, 0, BO_LOG_FLUSH, NULL, err);
		} else if (p->mark_every && roll % p->mark_every == 1 && n + 2 <= p->entries) {
			snprintf(name, sizeof(name), "issue:%llu", (unsigned long long) ++op);
			r = bo_log_writer_mark(w, name, err);
			snprintf(name, sizeof(name), "ack:%llu", (unsigned long long) op);
			if (r >= 0)
				r = bo_log_writer_mark(w, name, err);
		} else if (roll % 97 == 2) {
			r = bo_log_writer_add(w, sector, nr, BO_LOG_DISCARD, NULL, err);
		} else {
			uint32_t flags = 0;

			if (roll % 23 == 3)
				flags |= BO_LOG_FUA;
			if (roll % 5 == 4)
				flags |= BO_LOG_METADATA;
			for (uint64_t b = 0; b < nr; b++)
				bo_synth_fill(data + b * ss, ss, p->seed, n, b);
			r = bo_log_writer_add(w, sector, nr, flags, data, err);
		}
	}
	if (r >= 0)
		r = bo_log_writer_close(w, err);
	else
		bo_log_writer_free(w);
	/* A log cut short is no log: nothing half-written is left behind. */
	if (r < 0)
		unlink(path);
	return r < 0 ? (int) r : 0;
}
