/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * upto.h — the ops of a sequence (or of the bounded space) up to an acknowledged op N, and what
 * that acknowledgement promised in words: what the reproducers of `blackout export` are made
 * of (repro.c: a C program, fstests.c: a test in fstests' form).
 */
#ifndef BO_FSOPS_UPTO_H
#define BO_FSOPS_UPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenarios/fsops/fsops.h"

/* The ops up to N, each with the workload directory it runs in ("" for a sequence). */
struct fsops_upto {
	struct fsops_op *v; /* each with its id in the whole run (its ack's) */
	uint64_t *data_id;  /* ... and the id its workload wrote its data with */
	char (*dir)[24];
	uint64_t n, cap, upto;
	bool found;
	bool fresh; /* a fresh filesystem per workload (--fresh): the setup and op upto's workload */
};

/* The ops of @p up to @upto into @c (zeroed first); 0, 1 out of memory, 2 when @upto is no
 * acknowledged op (said on stderr). fsops_upto_free() it after, whatever this returned. */
int fsops_upto_collect(const struct fsops_params *p, uint64_t upto, struct fsops_upto *c);
void fsops_upto_free(struct fsops_upto *c);

/* What the ops of @p are of, for a reproducer's header: "ops 1-N of blackout-fsops <this>". */
const char *fsops_upto_source(const struct fsops_params *p);

/* @p under workload directory @dir ("" for none), into @buf. */
const char *fsops_upto_path(const char *dir, const char *p, char *buf, size_t len);

/* What persistence op @op (on path @a) promised, in words, into @buf. */
const char *fsops_upto_promise(const struct fsops_op *op, const char *a, bool linux_names,
			       char *buf, size_t len);

#endif
