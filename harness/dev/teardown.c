// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/teardown.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "dmtargets/dm.h"
#include "harness/dev/loop.h"
#include "harness/dev/mount.h"
#include "harness/base/safety.h"

struct bo_teardown_entry {
	char kind[16];
	char arg[PATH_MAX];
	bo_teardown_undo_fn undo;
	void *ctx;
};

struct bo_teardown {
	size_t capacity, depth;
	bo_teardown_report_fn report;
	void *rctx;
	struct bo_teardown_entry entries[];
};

/* The stop flag is the run's one flag (harness/safety.h), so that every wait sees it. */
void bo_teardown_request_stop(int signo)
{
	bo_stop_request(signo);
}

bool bo_teardown_stop_requested(void)
{
	return bo_stop_requested();
}

int bo_teardown_stop_signal(void)
{
	return bo_stop_signal();
}

int bo_teardown_new(size_t capacity, bo_teardown_report_fn report, void *rctx,
		    struct bo_teardown **ret)
{
	struct bo_teardown *td;

	if (capacity == 0 || capacity > 4096)
		return -EINVAL;
	td = calloc(1, sizeof(*td) + capacity * sizeof(td->entries[0]));
	if (!td)
		return -ENOMEM;
	td->capacity = capacity;
	td->report = report;
	td->rctx = rctx;
	*ret = td;
	return 0;
}

void bo_teardown_free(struct bo_teardown *td)
{
	if (!td)
		return;
	(void) !bo_teardown_unwind(td);
	free(td);
}

int bo_teardown_push(struct bo_teardown *td, const char *kind, const char *arg,
		     bo_teardown_undo_fn undo, void *ctx, struct bo_err *err)
{
	struct bo_teardown_entry *e;

	if (td->depth == td->capacity)
		return bo_err_set(err, ENOSPC,
				  "teardown: no room to record %s '%s' (%zu objects already)", kind,
				  arg, td->capacity);
	if (strlen(kind) >= sizeof(e->kind) || strlen(arg) >= sizeof(e->arg))
		return bo_err_set(err, ENAMETOOLONG, "teardown: %s '%s': name too long", kind, arg);
	e = &td->entries[td->depth];
	strcpy(e->kind, kind);
	strcpy(e->arg, arg);
	e->undo = undo;
	e->ctx = ctx;
	td->depth++;
	bo_debug(BO_DBG_RUN, "teardown: +%s '%s' (depth %zu)", kind, arg, td->depth);
	return 0;
}

static int undo_dm(const char *arg, void *ctx, struct bo_err *err)
{
	return bo_dm_remove(arg, err);
}

static int undo_loop(const char *arg, void *ctx, struct bo_err *err)
{
	return bo_loop_detach(arg, err);
}

static int undo_mount(const char *arg, void *ctx, struct bo_err *err)
{
	return bo_umount(arg, 0, err);
}

int bo_teardown_push_dm(struct bo_teardown *td, const char *name, struct bo_err *err)
{
	return bo_teardown_push(td, "dm", name, undo_dm, NULL, err);
}

int bo_teardown_push_loop(struct bo_teardown *td, const char *dev, struct bo_err *err)
{
	return bo_teardown_push(td, "loop", dev, undo_loop, NULL, err);
}

int bo_teardown_push_mount(struct bo_teardown *td, const char *target, struct bo_err *err)
{
	return bo_teardown_push(td, "mount", target, undo_mount, NULL, err);
}

size_t bo_teardown_depth(const struct bo_teardown *td)
{
	return td->depth;
}

/* Undo entry @e; its error (with a message even if the undo set none) lands in @err. */
static int undo(const struct bo_teardown_entry *e, struct bo_err *err)
{
	int r;

	*err = (struct bo_err){0};
	r = e->undo(e->arg, e->ctx, err);
	if (r < 0 && !err->msg[0])
		bo_err_set(err, -r, "undoing %s '%s': %s", e->kind, e->arg, strerror(-r));
	bo_debug(BO_DBG_RUN, "teardown: -%s '%s': %s", e->kind, e->arg,
		 r < 0 ? bo_err_str(err) : "done");
	return r;
}

int bo_teardown_undo_top(struct bo_teardown *td, struct bo_err *err)
{
	struct bo_err e;
	int r;

	if (td->depth == 0)
		return bo_err_set(err, ENOENT, "teardown: nothing to undo");
	r = undo(&td->entries[td->depth - 1], &e);
	if (r < 0) {
		if (err)
			*err = e;
		return r;
	}
	td->depth--;
	return 0;
}

int bo_teardown_unwind(struct bo_teardown *td)
{
	int first = 0;

	while (td->depth > 0) {
		const struct bo_teardown_entry *e = &td->entries[td->depth - 1];
		struct bo_err err;
		int r = undo(e, &err);

		if (r < 0) {
			if (!first)
				first = r;
			if (td->report)
				td->report(td->rctx, e->kind, e->arg, &err);
		}
		td->depth--;
	}
	return first;
}
