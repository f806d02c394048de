/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * teardown.h — the stack of kernel objects a run created (dm devices, loop bindings, mounts),
 * undone in reverse order of creation with every failure reported.
 *
 * Kernel objects outlive the process, so they are never released by cleanup attributes: each
 * one is pushed right after it was created, and bo_teardown_unwind() removes them newest
 * first (the mount before the dm device under it, the dm device before its loops). A failure
 * does not stop the unwinding: each is handed to the report callback and the rest are still
 * tried, so one stuck mount does not leave every loop device behind.
 *
 * Signals: the caller installs bo_teardown_request_stop() (async-signal-safe: it only sets a
 * flag) as its SIGINT/SIGTERM handler, checks bo_teardown_stop_requested() in its loops and
 * unwinds when it is set. Unwinding itself never looks at the flag; it always finishes.
 *
 * Pushing never allocates (the capacity is fixed at creation), so an object that was created
 * can always be recorded.
 */
#ifndef BO_TEARDOWN_H
#define BO_TEARDOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/base/util.h"

struct bo_teardown;

/* Undo the object @arg; 0 or -errno with @err saying what went wrong. */
typedef int (*bo_teardown_undo_fn)(const char *arg, void *ctx, struct bo_err *err);

/* Told about each object that could not be undone: its kind, its name and why. */
typedef void (*bo_teardown_report_fn)(void *rctx, const char *kind, const char *arg,
				      const struct bo_err *err);

/*
 * A stack for up to @capacity objects. @report (may be NULL, then failures are only counted
 * in the return of bo_teardown_unwind()) is called with @rctx for each failure.
 */
_must_check_ int bo_teardown_new(size_t capacity, bo_teardown_report_fn report, void *rctx,
				 struct bo_teardown **ret);

/* Unwind what is still on the stack (reporting failures), then free it; NULL is fine. */
void bo_teardown_free(struct bo_teardown *td);

/*
 * Record object @arg of kind @kind ("dm", "loop", "mount", ...), undone by @undo(@arg, @ctx).
 * -ENOSPC when the stack is full, -ENAMETOOLONG when @arg or @kind does not fit; the object
 * is then not recorded and the caller must undo it itself.
 */
_must_check_ int bo_teardown_push(struct bo_teardown *td, const char *kind, const char *arg,
				  bo_teardown_undo_fn undo, void *ctx, struct bo_err *err);

/* Record dm device @name, undone by bo_dm_remove(). */
_must_check_ int bo_teardown_push_dm(struct bo_teardown *td, const char *name, struct bo_err *err);

/* Record loop device @dev, undone by bo_loop_detach(). */
_must_check_ int bo_teardown_push_loop(struct bo_teardown *td, const char *dev, struct bo_err *err);

/* Record the mount on @target, undone by bo_umount() (no lazy detach). */
_must_check_ int bo_teardown_push_mount(struct bo_teardown *td, const char *target,
					struct bo_err *err);

/* Objects on the stack. */
size_t bo_teardown_depth(const struct bo_teardown *td);

/*
 * Undo the newest object now (e.g. the snapshot of one crash state). On success it is popped;
 * on failure it stays on the stack for the final unwind and the error is returned (not
 * reported: the caller has it). -ENOENT on an empty stack.
 */
_must_check_ int bo_teardown_undo_top(struct bo_teardown *td, struct bo_err *err);

/*
 * Undo every object, newest first, reporting each failure and carrying on. The stack is empty
 * afterwards. Returns 0 when everything was undone, else the -errno of the first failure.
 */
_must_check_ int bo_teardown_unwind(struct bo_teardown *td);

/* Signal handler (async-signal-safe): remember @signo and ask the run to stop and unwind. */
void bo_teardown_request_stop(int signo);

/* Whether a stop was requested, and by which signal (0: none). */
bool bo_teardown_stop_requested(void);
_must_check_ int bo_teardown_stop_signal(void);

#endif
