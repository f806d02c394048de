/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmsg.h — the kernel messages of one check, and only those.
 *
 * The kernel log is cumulative: grepping it would attribute an earlier state's complaint to
 * the current one. Before a check, blackout writes a line with a fresh nonce to /dev/kmsg;
 * afterwards it reads the records that follow that exact line. If the ring buffer wrapped
 * past the nonce, the result says so instead of pretending the state was quiet.
 */
#ifndef BO_KMSG_H
#define BO_KMSG_H

#include <stddef.h>

#include "harness/base/util.h"

struct bo_kmsg;

/* Write "blackout: <tag> nonce <n>" to /dev/kmsg and remember where it is. */
_must_check_ int bo_kmsg_begin(const char *tag, struct bo_kmsg **ret, struct bo_err *err);

/*
 * The messages logged since the nonce line, one per line, as text in *@ret (malloc'd,
 * NUL-terminated). A first line "(blackout: kernel log wrapped: messages lost)" marks a gap.
 */
_must_check_ int bo_kmsg_collect(struct bo_kmsg *k, char **ret, struct bo_err *err);

void bo_kmsg_free(struct bo_kmsg *k);

#endif
