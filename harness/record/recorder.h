/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * recorder.h — inside the recording (record.c): the recorder's state, and what record.c and
 * nodes.c, a cluster's nodes while the workload runs, ask of each other.
 */
#ifndef BO_RECORDER_H
#define BO_RECORDER_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "dmtargets/dm.h"
#include "dmtargets/flakey.h"
#include "harness/cluster/cluster.h"
#include "harness/dev/fs.h"
#include "harness/dev/loop.h"
#include "harness/log/layout.h"
#include "harness/record/record.h"

struct bo_faultrun;
struct bo_logtail;
struct bo_teardown;
struct json_object;

struct recorder {
	const struct bo_record_opts *o;
	struct bo_results *res;
	uint32_t ss;
	uint64_t sectors;
	char image[PATH_MAX], log[PATH_MAX], mnt[PATH_MAX], sock[PATH_MAX];
	struct bo_loop_dev img_loop, log_loop;
	/* What the recording made, undone in reverse (mount, flakey, log-writes, loops). */
	struct bo_teardown *td;
	struct bo_err *down_err; /* where unwinding reports its first failure */
	int down_first;
	char lw[BO_DM_NAME_MAX], lw_uuid[BO_DM_UUID_MAX], lw_dev[PATH_MAX];
	char fl[BO_DM_NAME_MAX], fl_uuid[BO_DM_UUID_MAX], fl_dev[PATH_MAX];
	/* With [device NAME] sections: the devices carved out of the log-writes device by
	 * dm-linear (harness/log/layout.h), their nodes and, for filesystems, mount points.
	 * layout.n == 0: the one device is fl_dev, mounted at mnt. */
	struct bo_layout layout;
	char dev[BO_LAYOUT_MAX][PATH_MAX], dev_mnt[BO_LAYOUT_MAX][PATH_MAX];
	unsigned mounted;   /* mounts on the teardown stack */
	char cwd[PATH_MAX]; /* the workload's working directory: the primary mount point */
	struct bo_logtail *tail;
	struct bo_faultrun *faults;
	/* The control server's thread emits fault records while the main thread runs. */
	pthread_mutex_t emit_lock;
	/* A cluster's nodes, while the workload runs (harness/cluster/cluster.h), under
	 * cluster_lock: the control server's thread cuts one node's power while the main
	 * thread may end the workload. */
	struct bo_cluster_run *cluster;
	struct bo_cluster_env node_env;
	pthread_mutex_t cluster_lock;
	/* One node at a time: each device of a node whose power is cut is dm-flakey, not
	 * dm-linear, with its tables of power on (a pass-through) and off (drop_writes). */
	char dev_dm[BO_LAYOUT_MAX][BO_DM_NAME_MAX];
	char *dev_on[BO_LAYOUT_MAX], *dev_off[BO_LAYOUT_MAX];
	uint32_t nodes_cut;    /* a bit per node whose power was cut at least once */
	struct bo_err cut_err; /* the first power cut that failed (msg "" when none) */
	/* A fresh filesystem per workload (fresh.c): the base's copy, once marked. */
	char pristine[PATH_MAX];
	bool have_base;
};

/* Emit a record of @event into the run's stream (under the emit lock): @o, or @key: @val. */
int recorder_emit_record(struct recorder *r, const char *event, struct json_object *o);
int recorder_emit(struct recorder *r, const char *event, const char *key, const char *val);
/* Put the mark @name in the log and wait until it is there; its entry in *@ret_entry. */
int recorder_put_mark(void *ctx, const char *name, uint64_t *ret_entry, struct bo_err *err);
/* The workload's account owns @path (a filesystem's root, a raw device's node). */
int recorder_give(const struct recorder *r, const char *path, struct bo_err *err);
/* The other devices of device @i's filesystem (its journal, the devices it spans), as paths. */
void recorder_fs_devs(const struct recorder *r, unsigned i, struct bo_fs_devs *ret);

/* Mount @dev on @mnt and put the mount on the teardown stack. */
int recorder_mount_kept(struct recorder *r, const char *dev, const char *mnt, const char *fs,
			const char *opts, struct bo_err *err);
/*
 * Mount the filesystems of a [device NAME] scenario, each on r->mnt/NAME, and give the
 * workload's account its own: the root directory of each filesystem, the node of each raw
 * device. The working directory, into @cwd, is the primary device's mount point (else r->mnt).
 */
int recorder_mount_devices(struct recorder *r, char *cwd, size_t len, struct bo_err *err);
/* The one device's filesystem (no [device] sections) mounted, given to the workload's account. */
int recorder_mount_one(struct recorder *r, struct bo_err *err);

/* fresh.c. Whether mark @name is `base` or `fresh:<label>`: a fresh filesystem's. */
bool recorder_fresh_mark(const char *name);
/* Carry out the mark @name of recorder_fresh_mark(): the filesystem unmounted, the base kept
 * or gone back to, the filesystem mounted again; the mark's entry in *@ret_entry. */
int recorder_fresh(struct recorder *r, const char *name, uint64_t *ret_entry, struct bo_err *err);

/* nodes.c. Whether layout device @i is a device of a node whose power is cut during the run. */
bool recorder_dev_cut(const struct recorder *r, unsigned i);
/* The table of layout device @i: dm-linear, or dm-flakey passing through when its node's power
 * is cut during the run (its drop_writes table made beside it, for the cut). */
int recorder_carve_table(struct recorder *r, unsigned i, const struct bo_flakey_caps *caps,
			 char **ret, struct bo_err *err);
/* A cluster's network, and its nodes started with @env, each logging into the work
 * directory; recorder_nodes_stop() stops them and keeps their logs. */
int recorder_nodes_start(struct recorder *r, char *const *env, struct bo_err *err);
int recorder_nodes_stop(struct recorder *r, struct bo_err *err);
/* The power cuts of nodes the mark @mark (entry @entry) triggers, one node at a time. */
int recorder_node_cuts(struct recorder *r, const char *mark, uint64_t entry, struct bo_err *err);
/* -ENOENT naming a node whose power-cut marks never reached the log. */
int recorder_check_nodes_cut(const struct recorder *r, struct bo_err *err);

#endif
