/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctl.h — the control-channel server: a unix stream socket on which workloads announce their
 * operations (protocol in ctl_proto.h and docs/ctl.md).
 *
 * One thread serves every client with a poll loop. For each valid request it asks the run to
 * insert the request's mark into the write log (the mark callback), replies "ok <entry>" with
 * the entry the mark landed at, and records the op id. Requests are handled one at a time,
 * so the order of ops in the log is the order in which the server accepted them. Every "err"
 * reply — malformed line, protocol violation, failed mark — is recorded and fails the run.
 */
#ifndef BO_CTL_H
#define BO_CTL_H

#include <stdint.h>

#include "harness/ctl/proto.h"
#include "harness/base/util.h"

/*
 * Insert the mark @name into the log and return, in *@ret_entry, the log entry it occupies,
 * once it is there. Returns 0 or -errno with a message in @err. Called from the server's
 * thread, one call at a time.
 */
typedef int (*bo_ctl_mark_fn)(void *ctx, const char *name, uint64_t *ret_entry, struct bo_err *err);

struct bo_ctl_server_config {
	const char *path;	     /* socket path; must not exist yet */
	bo_ctl_mark_fn mark;	     /* how a mark is inserted */
	void *ctx;		     /* passed to @mark */
	const char *const *reserved; /* NULL-terminated mark names workloads may not use, or NULL */
};

struct bo_ctl_server;

/*
 * Bind and listen on @cfg->path and start serving in a new thread (with every signal
 * blocked, so that signals go to the caller's threads). *@ret is written only on success.
 */
_must_check_ int bo_ctl_server_start(const struct bo_ctl_server_config *cfg,
				     struct bo_ctl_server **ret, struct bo_err *err);

/*
 * Stop serving: wake and join the thread, close every client connection and remove the
 * socket. A request being handled is finished first. Calling it twice is harmless.
 */
void bo_ctl_server_stop(struct bo_ctl_server *srv);

/* Stop @srv if it is running and release it; NULL is fine. */
void bo_ctl_server_free(struct bo_ctl_server *srv);

/* The socket path, for BLACKOUT_CTL. */
const char *bo_ctl_server_path(const struct bo_ctl_server *srv);

/*
 * The protocol state (issued and acked op ids, used mark names), or NULL while the server
 * is still running: read it only after bo_ctl_server_stop().
 */
const struct bo_ctl_state *bo_ctl_server_state(const struct bo_ctl_server *srv);

/*
 * 0 if the server never replied "err" and never failed; otherwise -errno of the first
 * failure with @err saying how many failures there were and what the first one was.
 * Only after bo_ctl_server_stop() (-EBUSY before).
 */
_must_check_ int bo_ctl_server_failure(const struct bo_ctl_server *srv, struct bo_err *err);

#endif
