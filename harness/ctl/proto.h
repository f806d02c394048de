/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctl_proto.h — the control-channel protocol without sockets: a line parser and the state
 * machine that enforces op-id ordering. See docs/ctl.md.
 *
 * A request is one line (the newline is not part of what is parsed here):
 *
 *   issue <opid>     the workload is about to start op <opid>       -> mark "issue:<opid>"
 *   ack <opid>       op <opid> is durable, the workload relies on it -> mark "ack:<opid>"
 *   mark <name>      a user mark, inserted as <name>
 *
 * and is answered with "ok <entry>" (the log entry of the inserted mark) or "err <message>".
 * Op ids are decimal integers that strictly increase: issue ids among themselves, ack ids
 * among themselves, and an ack names an op that was issued. Every "err" reply is recorded
 * and fails the run.
 */
#ifndef BO_CTL_PROTO_H
#define BO_CTL_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"

/* Longest request line in bytes, without its newline. */
#define BO_CTL_LINE_MAX 512
/* Longest mark name: what dm-log-writes keeps with 512-byte blocks (BO_LOG_MARK_MAX(512)). */
#define BO_CTL_NAME_MAX 479
/* Longest reply line ("ok <entry>" or "err <message>"), without its newline. */
#define BO_CTL_REPLY_MAX 600

enum bo_ctl_verb {
	BO_CTL_ISSUE,
	BO_CTL_ACK,
	BO_CTL_MARK,
};

/* One parsed request. @name is the mark the harness inserts for it. */
struct bo_ctl_req {
	enum bo_ctl_verb verb;
	uint64_t opid; /* issue and ack only */
	char name[BO_CTL_NAME_MAX + 1];
};

/*
 * Parse the request line @line of @len bytes (no trailing newline; it may contain NUL bytes,
 * which are rejected). On success fills *@ret and returns 0; otherwise returns -EINVAL (or
 * -E2BIG for an over-long line or name) with a message in @err quoting the offending text.
 */
_must_check_ int bo_ctl_parse(const char *line, size_t len, struct bo_ctl_req *ret,
			      struct bo_err *err);

/*
 * Whether @name is acceptable as a user mark: 1..BO_CTL_NAME_MAX bytes of printable,
 * non-space ASCII, and not starting with the reserved prefixes "issue:" or "ack:".
 * Returns 0 or -EINVAL/-E2BIG with a message in @err.
 */
_must_check_ int bo_ctl_check_mark_name(const char *name, size_t len, struct bo_err *err);

struct bo_ctl_state;

/* A fresh state: nothing issued, acked or marked. */
_must_check_ int bo_ctl_state_new(struct bo_ctl_state **ret);

/* Release a state; NULL is fine. */
void bo_ctl_state_free(struct bo_ctl_state *st);

/*
 * Reserve the mark name @name for the harness's own use (e.g. "mkfs"), so that a workload
 * asking for it is refused. Returns 0, -EEXIST if already taken, or -ENOMEM.
 */
_must_check_ int bo_ctl_state_reserve(struct bo_ctl_state *st, const char *name);

/*
 * Check @req against the protocol state without changing it: a repeated or decreasing issue
 * id, an ack of an op never issued, a repeated or decreasing ack id, or a mark name already
 * used are protocol errors (-EPROTO, message in @err).
 */
_must_check_ int bo_ctl_state_check(const struct bo_ctl_state *st, const struct bo_ctl_req *req,
				    struct bo_err *err);

/*
 * Record @req, which bo_ctl_state_check() accepted and whose mark is now in the log.
 * Returns 0, -EPROTO if the request is no longer valid, or -ENOMEM.
 */
_must_check_ int bo_ctl_state_commit(struct bo_ctl_state *st, const struct bo_ctl_req *req);

/*
 * Check and, if valid, record @req in one step (for callers that need no side effect in
 * between). Same returns as bo_ctl_state_check() and bo_ctl_state_commit().
 */
_must_check_ int bo_ctl_state_apply(struct bo_ctl_state *st, const struct bo_ctl_req *req,
				    struct bo_err *err);

/* The op ids issued (or acked) so far, in increasing order; *@ret_n receives the count. */
const uint64_t *bo_ctl_state_issued(const struct bo_ctl_state *st, size_t *ret_n);
const uint64_t *bo_ctl_state_acked(const struct bo_ctl_state *st, size_t *ret_n);

/* Whether @opid was issued (acked). */
bool bo_ctl_state_was_issued(const struct bo_ctl_state *st, uint64_t opid);
bool bo_ctl_state_was_acked(const struct bo_ctl_state *st, uint64_t opid);

/* Format the replies, newline included, into @buf of @len bytes; return their length. */
size_t bo_ctl_format_ok(char *buf, size_t len, uint64_t entry);
size_t bo_ctl_format_err(char *buf, size_t len, const char *msg);

#endif
