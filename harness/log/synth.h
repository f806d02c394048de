/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * synth.h — synthesise a dm-log-writes log shaped like a filesystem workload: writes of
 * varied sizes, flushes closing epochs, FUA writes, discards and issue:/ack: marks. The data
 * of every block is a function of (seed, entry, block) so a test can predict any replayed
 * image without trusting the replayer.
 */
#ifndef BO_SYNTH_H
#define BO_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"

struct bo_synth_params {
	uint64_t seed;
	uint64_t entries;     /* total entries to write */
	uint32_t sectorsize;  /* block size of the logged device */
	uint64_t dev_blocks;  /* size of the logged device in blocks */
	uint32_t max_blocks;  /* largest write, in blocks */
	uint32_t flush_every; /* about one flush per this many writes */
	uint32_t mark_every;  /* about one issue/ack pair per this many writes (0: none) */
};

/* Fill one block of @ss bytes with the data of block @blk of entry @entry. */
void bo_synth_fill(void *buf, uint32_t ss, uint64_t seed, uint64_t entry, uint64_t blk);

/* Write a synthetic log to @path. */
_must_check_ int bo_synth_log(const char *path, const struct bo_synth_params *p,
			      struct bo_err *err);

#endif
