/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * findings.h — what a crash state showed beside its class. The class is one headline, chosen
 * by the order of classify.h; the op sets of the oracle's verdict (oracle.h) are findings of
 * their own, recorded whatever the class: a state that fsck finds dirty and whose checker
 * misses an acknowledged op is fsck-dirty *and* lost-ack: op 2. Every view (the class table,
 * summary.json, report.html, junit.xml, explain) shows them, and every comparison (a nightly
 * baseline, a differential, a reproduction) compares class and op sets, so that a milder
 * class never hides a lost acknowledged op (docs/results.md, "Findings").
 */
#ifndef BO_FINDINGS_H
#define BO_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/states/classify.h"
#include "harness/states/oracle.h"

enum bo_finding {
	BO_FINDING_LOST,      /* "lost-ack": acknowledged before the cut, not present */
	BO_FINDING_WRONG,     /* "wrong-content": acknowledged, present with another digest */
	BO_FINDING_PHANTOM,   /* "phantom": present, never issued before the cut */
	BO_FINDING_UNORDERED, /* "unordered": missing though a later-issued op is present */
	BO_FINDING_COUNT,
};

/* "lost-ack", "wrong-content", "phantom", "unordered". */
const char *bo_finding_name(enum bo_finding f);

/* The member of a state's stream record that holds the finding's op ids: "lost",
 * "wrong_content", "phantom", "unordered". */
const char *bo_finding_key(enum bo_finding f);

/* The op set of finding @f in @v. */
const struct bo_opset *bo_verdict_set(const struct bo_verdict *v, enum bo_finding f);
struct bo_opset *bo_verdict_set_mut(struct bo_verdict *v, enum bo_finding f);

/* Whether class @c is the headline finding @f gives (lost-ack for lost and wrong content,
 * phantom for phantom and unordered): a state of class @c with finding @f says nothing more
 * than its class. The others are findings "also" found (bo_findings_also()). */
bool bo_class_names_finding(enum bo_class c, enum bo_finding f);

/* Whether @v holds any finding; whether it holds one that class @c does not name. */
bool bo_verdict_any(const struct bo_verdict *v);
bool bo_findings_also(const struct bo_verdict *v, enum bo_class c);

/* Whether @a and @b hold the same op sets (NULL: none). */
bool bo_verdict_equal(const struct bo_verdict *a, const struct bo_verdict *b);

/* A deep copy of @v into *@ret; -ENOMEM. */
_must_check_ int bo_verdict_copy(const struct bo_verdict *v, struct bo_verdict *ret);

/*
 * The findings of @v in words, into @buf: "lost-ack: op 2; phantom: ops 7,9" ("" for none);
 * with @c given (not BO_CLASS_COUNT), only those class @c does not name. Long sets are cut
 * with "...". Returns @buf.
 */
const char *bo_findings_str(const struct bo_verdict *v, enum bo_class c, char *buf, size_t len);

#endif
