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
#include <sys/stat.h>
#include <unistd.h>

#include "dmtargets/logwrites.h"
#include "harness/base/path.h"
#include "harness/dev/mount.h"
#include "harness/dev/teardown.h"
#include "harness/base/safety.h"
#include "harness/log/tail.h"
#include "harness/results/results.h"
#include "harness/scenario/scenario.h"

/* A mark reaches the log when dm-log-writes' kthread gets to it; on a busy TCG guest that
 * can take a while, but never this long. */
#define MARK_TIMEOUT_MS 30000
/* ... and mostly within a few ms: past this, the target's status is asked why not. */
#define MARK_LOOK_MS 100

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
 * workload's "ok <entry>" names a real entry. A log device that filled up (logging off) never
 * takes the mark: a mark not there after MARK_LOOK_MS asks the target's status why, and so
 * does one not there at the end, so that the common mark costs no status ioctl (a fifth of a
 * mark's time under TCG). */
int recorder_put_mark(void *ctx, const char *name, uint64_t *ret_entry, struct bo_err *err)
{
	struct recorder *r = ctx;
	struct bo_lw_status st;
	struct bo_err look = {0};
	int k;

	if (strcmp(name, "mkfs") && bo_test_stall("workload", err) < 0)
		return -EINTR;
	k = bo_lw_mark(r->lw, name, r->ss, err);
	if (k < 0)
		return k;
	k = bo_logtail_wait_mark(r->tail, name, MARK_LOOK_MS, ret_entry, &look);
	if (k != -ETIMEDOUT) {
		if (k < 0)
			*err = look;
		return k;
	}
	k = bo_lw_status(r->lw, &st, err);
	if (k >= 0)
		k = bo_lw_status_check(r->lw, &st, err);
	if (k < 0)
		return k;
	k = bo_logtail_wait_mark(r->tail, name, MARK_TIMEOUT_MS, ret_entry, err);
	/* A log device that filled up meanwhile drops the mark: that is what to say. */
	if (k == -ETIMEDOUT && bo_lw_status(r->lw, &st, err) >= 0)
		(void) !bo_lw_status_check(r->lw, &st, err);
	return k;
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

int recorder_mount_kept(struct recorder *r, const char *dev, const char *mnt, const char *fs,
			const char *opts, struct bo_err *err)
{
	int k = bo_mount(dev, mnt, fs, opts, err);

	if (k >= 0 && bo_teardown_push_mount(r->td, mnt, err) < 0) {
		struct bo_err e2;

		(void) !bo_umount(mnt, 0, &e2);
		k = -ENOSPC;
	}
	if (k >= 0)
		r->mounted++;
	return k;
}

int recorder_mount_one(struct recorder *r, struct bo_err *err)
{
	const struct bo_scenario *sc = r->o->sc;
	int k = recorder_mount_kept(r, r->fl_dev, r->mnt, bo_fs_name(sc->fs), sc->mount_options,
				    err);

	/* The workload's account owns the file system it works on. */
	return k < 0 ? k : recorder_give(r, r->mnt, err);
}

/*
 * Mount the filesystems of a [device NAME] scenario, each on r->mnt/NAME, and give the
 * workload's account its own: the root directory of each filesystem, the node of each raw
 * device. The working directory is the primary device's mount point (else r->mnt).
 */
int recorder_mount_devices(struct recorder *r, char *cwd, size_t len, struct bo_err *err)
{
	const struct bo_scenario *sc = r->o->sc;
	int k = 0;

	snprintf(cwd, len, "%s", r->mnt);
	for (size_t i = 0; k >= 0 && i < sc->ndevices; i++) {
		const struct bo_device *d = &sc->devices[i];
		_cleanup_free_ char *mo = NULL;
		const char *own = r->dev[i];

		if (!d->raw) {
			struct bo_fs_devs devs;

			if (bo_pathf(r->dev_mnt[i], sizeof(r->dev_mnt[i]), "%s/%s", r->mnt,
				     d->name) < 0 ||
			    (mkdir(r->dev_mnt[i], 0755) < 0 && errno != EEXIST))
				return bo_err_set(err, errno ? errno : ENAMETOOLONG,
						  "creating '%s'", r->dev_mnt[i]);
			recorder_fs_devs(r, (unsigned) i, &devs);
			mo = bo_mount_options_devs(d->fs, d->mount_options, &devs);
			if (!mo)
				return bo_err_set(err, ENOMEM, "out of memory");
			if (devs.spans[0])
				k = bo_mount_forget_devices(d->fs, err);
			if (k >= 0)
				k = recorder_mount_kept(r, r->dev[i], r->dev_mnt[i],
							bo_fs_name(d->fs), mo, err);
			own = r->dev_mnt[i];
			if ((int) i == sc->primary)
				snprintf(cwd, len, "%s", r->dev_mnt[i]);
		}
		if (k >= 0)
			k = recorder_give(r, own, err);
	}
	return k;
}
