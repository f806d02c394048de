// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * recorder.c — what every part of a recording does through the recorder (recorder.h): its
 * records into the run's stream, a mark put in the log and waited for, a path given to the
 * workload's account.
 */
#include "harness/record/recorder.h"

#include <errno.h>
#include <json-c/json.h>
#include <string.h>
#include <unistd.h>

#include "dmtargets/logwrites.h"
#include "harness/base/safety.h"
#include "harness/log/tail.h"
#include "harness/results/results.h"
#include "harness/scenario/scenario.h"

/* A mark reaches the log when dm-log-writes' kthread gets to it; on a busy TCG guest that
 * can take a while, but never this long. */
#define MARK_TIMEOUT_MS 30000

int recorder_emit_record(struct recorder *r, const char *event, struct json_object *o)
{
	struct bo_err err = {0};
	int k;

	pthread_mutex_lock(&r->emit_lock);
	k = bo_results_emit(r->res, event, o, &err);
	pthread_mutex_unlock(&r->emit_lock);
	return k;
}

int recorder_emit(struct recorder *r, const char *event, const char *key, const char *val)
{
	struct json_object *o = json_object_new_object();

	if (o && key)
		json_object_object_add(o, key, json_object_new_string(val));
	return recorder_emit_record(r, event, o);
}

/* Insert a mark: a dm message, then wait for the mark to be in the log, so that the
 * workload's "ok <entry>" names a real entry. */
int recorder_put_mark(void *ctx, const char *name, uint64_t *ret_entry, struct bo_err *err)
{
	struct recorder *r = ctx;
	struct bo_lw_status st;
	int k;

	if (strcmp(name, "mkfs") && bo_test_stall("workload", err) < 0)
		return -EINTR;

	/* With logging off (the log device filled up) the mark would never appear: say why
	 * now rather than after the wait. */
	k = bo_lw_status(r->lw, &st, err);
	if (k >= 0)
		k = bo_lw_status_check(r->lw, &st, err);
	if (k >= 0)
		k = bo_lw_mark(r->lw, name, r->ss, err);
	if (k < 0)
		return k;
	return bo_logtail_wait_mark(r->tail, name, MARK_TIMEOUT_MS, ret_entry, err);
}

/* The workload's account owns @path (a filesystem's root, a raw device's node). */
int recorder_give(const struct recorder *r, const char *path, struct bo_err *err)
{
	const struct bo_proc_user *u = r->o->user;

	if (u && chown(path, u->uid, u->gid) < 0)
		return bo_err_set(err, errno, "giving '%s' to user %s: %s", path, u->name,
				  strerror(errno));
	return 0;
}

void recorder_fs_devs(const struct recorder *r, unsigned i, struct bo_fs_devs *ret)
{
	const struct bo_device *d = &r->o->sc->devices[i];

	bo_fs_devs_pick(r->dev, r->o->sc->ndevices, d->journal, d->spans, ret);
}
