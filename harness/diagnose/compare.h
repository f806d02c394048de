/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h — what tonight found against what a baseline found: the one comparison of
 * `findings --baseline` (findings by signature) and `nightly --baseline` (failing states by
 * cell and id).
 *
 * Each entry has an identity (what it is compared by), a detail compared when both sides have
 * it, and a cell (where it can be found: a filesystem, its options and a kernel; a nightly's
 * cell). An entry of tonight is new, unchanged or changed; one of the baseline that tonight
 * lacks is fixed only when its cell ran to its end tonight: a cell that did not run, or whose
 * run errored, fixed nothing — it is "not run". Entries are found by their identity in a hash
 * (base/strmap.h): comparing n entries with m costs n + m lookups, not n x m compares.
 */
#ifndef BO_COMPARE_H
#define BO_COMPARE_H

#include <stddef.h>

#include "harness/base/strmap.h"

enum bo_cmp_status {
	BO_CMP_NEW,	  /* tonight's, not in the baseline */
	BO_CMP_UNCHANGED, /* in both, alike */
	BO_CMP_CHANGED,	  /* in both, with another detail */
	BO_CMP_FIXED,	  /* the baseline's, gone from a cell that ran */
	BO_CMP_NOT_RUN,	  /* the baseline's, in a cell that did not run to its end */
	BO_CMP_AGAIN,	  /* an identity its side named before: the first one stands for it */
};

struct bo_cmp_entry {
	const char *key;	   /* its identity */
	const char *detail;	   /* compared when both sides have it (NULL: nothing) */
	const char *cell;	   /* where it can be found */
	enum bo_cmp_status status; /* bo_compare() says */
	size_t other; /* UNCHANGED, CHANGED: the index of the entry of the other side */
};

/*
 * Compare tonight's @cur (@ncur entries) with @base (@nbase) by identity, then detail, and set
 * the status of each entry of both: one of the baseline found tonight has the status of the
 * entry it was found as. @ran holds the cells that ran to their end tonight. 0, or -ENOMEM.
 */
_must_check_ int bo_compare(struct bo_cmp_entry *base, size_t nbase, struct bo_cmp_entry *cur,
			    size_t ncur, const struct bo_strmap *ran);

/* "new", "unchanged", "changed", "fixed", "not run", "again". */
const char *bo_cmp_status_name(enum bo_cmp_status s);

#endif
