// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nodes.c — a cluster's nodes while the workload runs (docs/clusters.md): started before it,
 * stopped after it, and, one node at a time, a node's power cut at a mark while the others run
 * on: its devices stop persisting at one instant, its daemon is killed, its filesystems are
 * recovered from their disks and it starts again.
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmtargets/linear.h"
#include "harness/base/file.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/dev/mount.h"
#include "harness/record/recorder.h"
#include "harness/results/results.h"
#include "harness/scenario/scenario.h"

/* The node of layout device @i: the node it is a device of, or its filesystem's for an external
 * journal; -1 outside a cluster. */
static int dev_node(const struct recorder *r, unsigned i)
{
	const struct bo_scenario *sc = r->o->sc;
	int n;

	if (!sc->cluster)
		return -1;
	n = bo_cluster_node_of(sc->cluster, r->layout.v[i].name);
	if (n < 0 && bo_layout_owner(&r->layout, i) >= 0)
		n = bo_cluster_node_of(sc->cluster,
				       r->layout.v[bo_layout_owner(&r->layout, i)].name);
	return n;
}

/* Whether layout device @i is a device of a node whose power is cut during the run. */
bool recorder_dev_cut(const struct recorder *r, unsigned i)
{
	int n = dev_node(r, i);

	return n >= 0 && r->o->sc->cluster->v[n].power_cut;
}

/* The table of layout device @i: dm-linear, or dm-flakey passing through when its node's power
 * is cut during the run (its drop_writes table made beside it, for the cut). */
int recorder_carve_table(struct recorder *r, unsigned i, const struct bo_flakey_caps *caps,
			 char **ret, struct bo_err *err)
{
	const struct bo_layout_dev *d = &r->layout.v[i];
	struct bo_flakey on = {.dev = r->lw_dev, .offset = d->start, .up_interval = 1},
			 off = {.dev = r->lw_dev,
				.offset = d->start,
				.down_interval = 1,
				.drop_writes = true};
	int k;

	if (!recorder_dev_cut(r, i))
		return bo_linear_table(d->sectors, r->lw_dev, d->start, ret, err);
	k = bo_flakey_table(&on, d->sectors, caps, &r->dev_on[i], err);
	if (k >= 0)
		k = bo_flakey_table(&off, d->sectors, caps, &r->dev_off[i], err);
	if (k >= 0 && !(*ret = strdup(r->dev_on[i])))
		k = bo_err_set(err, ENOMEM, "out of memory");
	return k;
}

/* The mount point of node @nd's first filesystem: its daemon's working directory. */
static const char *node_cwd(const struct recorder *r, const struct bo_cluster_node *nd)
{
	for (unsigned d = 0; d < nd->ndev; d++)
		for (unsigned i = 0; i < r->layout.n; i++)
			if (!strcmp(r->layout.v[i].name, nd->dev[d]) && r->dev_mnt[i][0])
				return r->dev_mnt[i];
	return "/";
}

/* A cluster's network, and its nodes started with @env, each logging into the work
 * directory (recorder_nodes_stop() keeps the logs). */
int recorder_nodes_start(struct recorder *r, char *const *env, struct bo_err *err)
{
	const struct bo_cluster *c = r->o->sc->cluster;
	struct bo_cluster_env *e = &r->node_env;
	int k;

	*e = (struct bo_cluster_env){
		.env = env, .user = r->o->user, .root = r->o->root, .logdir = r->o->workdir};
	for (unsigned i = 0; i < c->n; i++)
		e->cwd[i] = node_cwd(r, &c->v[i]);
	pthread_mutex_lock(&r->cluster_lock);
	k = bo_cluster_up(c, r->o->root, &r->cluster, err);
	if (k >= 0)
		k = bo_cluster_start(r->cluster, UINT32_MAX, e, err);
	if (k < 0) {
		bo_cluster_down(r->cluster);
		r->cluster = NULL;
	}
	pthread_mutex_unlock(&r->cluster_lock);
	if (k < 0)
		return bo_err_prefix(err, "starting the cluster");
	{
		char set[BO_CLUSTER_SET_NAME_MAX];

		recorder_emit(r, "nodes-start", "nodes",
			      bo_cluster_set_name(c, UINT32_MAX, set, sizeof(set)));
	}
	return 0;
}

/* The nodes stopped and the network down; each node's log kept as nodes/NAME/workload.log and
 * what each did at its stop in the record "nodes-stop". */
int recorder_nodes_stop(struct recorder *r, struct bo_err *err)
{
	const struct bo_cluster *c = r->o->sc->cluster;
	_cleanup_free_ char *report = NULL;
	int k;

	pthread_mutex_lock(&r->cluster_lock);
	k = bo_cluster_stop(r->cluster, &report, err);
	bo_cluster_down(r->cluster);
	r->cluster = NULL;
	pthread_mutex_unlock(&r->cluster_lock);
	recorder_emit(r, "nodes-stop", "nodes", report ? report : "");
	for (unsigned i = 0; i < c->n; i++) {
		char src[PATH_MAX], dir[64], rel[80];
		_cleanup_free_ char *buf = NULL;
		size_t len = 0;
		struct bo_err e2 = {0};
		int w;

		if (bo_pathf(src, sizeof(src), "%s/%s.log", r->o->workdir, c->v[i].name) < 0 ||
		    bo_read_file(src, 16u << 20, &buf, &len) < 0)
			continue;
		snprintf(dir, sizeof(dir), "nodes/%s", c->v[i].name);
		snprintf(rel, sizeof(rel), "%s/workload.log", dir);
		w = bo_results_mkdir(r->res, dir, NULL, &e2);
		if (w >= 0)
			w = bo_results_write_file(r->res, rel, buf, len, &e2);
		if (w < 0 && k >= 0)
			k = bo_err_set(err, e2.errnum, "%s", bo_err_str(&e2));
		unlink(src);
	}
	return k;
}

/* Layout device @i's filesystem mounted again where it was, after its node's power cut: the
 * kernel recovers it from what reached its disk. */
static int remount(struct recorder *r, unsigned i, struct bo_err *err)
{
	const struct bo_device *d = &r->o->sc->devices[i];
	_cleanup_free_ char *mo = NULL;
	struct bo_fs_devs devs;
	int k = 0;

	recorder_fs_devs(r, i, &devs);
	if (!(mo = bo_mount_options_devs(d->fs, d->mount_options, &devs)))
		return bo_err_set(err, ENOMEM, "out of memory");
	if (devs.spans[0])
		k = bo_mount_forget_devices(d->fs, err);
	if (k >= 0)
		k = bo_mount(r->dev[i], r->dev_mnt[i], bo_fs_name(d->fs), mo, err);
	return k < 0 ? k : recorder_give(r, r->dev_mnt[i], err);
}

/*
 * The power of node @ni's devices on (a pass-through) or off (drop_writes), all at one instant:
 * every table loaded, every device suspended as a power cut is (no flush, no lockfs), then all
 * resumed, so that no write reaches one of them once another stopped persisting; each table is
 * read back live.
 */
static int node_power(struct recorder *r, unsigned ni, bool on, struct bo_err *err)
{
	int k = 0;

	for (unsigned i = 0; k >= 0 && i < r->layout.n; i++)
		if (dev_node(r, i) == (int) ni)
			k = bo_dm_load(r->dev_dm[i], on ? r->dev_on[i] : r->dev_off[i], err);
	for (unsigned i = 0; k >= 0 && i < r->layout.n; i++)
		if (dev_node(r, i) == (int) ni)
			k = bo_dm_suspend(r->dev_dm[i], BO_DM_SUSPEND_POWERCUT, err);
	/* Resumed whatever happened: a device left suspended would hang its node's I/O. */
	for (unsigned i = 0; i < r->layout.n; i++)
		if (dev_node(r, i) == (int) ni) {
			struct bo_err e2 = {0};
			int rk = bo_dm_resume(r->dev_dm[i], k < 0 ? &e2 : err);

			if (k >= 0 && rk < 0)
				k = rk;
		}
	for (unsigned i = 0; k >= 0 && i < r->layout.n; i++) {
		struct bo_flakey live;
		char dev[64];

		if (dev_node(r, i) != (int) ni)
			continue;
		k = bo_flakey_live(r->dev_dm[i], &live, dev, sizeof(dev), err);
		if (k >= 0 && live.drop_writes == on)
			k = bo_err_set(err, EPROTO,
				       "device '%s': its power did not go %s: the live table is "
				       "not '%s'",
				       r->layout.v[i].name, on ? "on" : "off",
				       on ? r->dev_on[i] : r->dev_off[i]);
	}
	return k;
}

/* After a failed power cut of node @ni: its power on, its filesystems mounted, its daemon
 * started, as far as each goes, so that the rest of the run is not a node left dead. */
static void node_restore(struct recorder *r, unsigned ni)
{
	struct bo_err e2 = {0};

	(void) !node_power(r, ni, true, &e2);
	for (unsigned i = 0; i < r->layout.n; i++)
		if (dev_node(r, i) == (int) ni && r->dev_mnt[i][0] &&
		    bo_mount_is_mounted(r->dev_mnt[i], &e2) == 0)
			(void) !remount(r, i, &e2);
	(void) !bo_cluster_restart(r->cluster, ni, &e2);
}

/*
 * One node at a time (docs/clusters.md): node @ni's power cut at the mark @trigger (entry
 * @trigger_entry) while the others run on. Its processes stop where they stand and its devices
 * stop persisting, at one instant (the mark "node-cut:NODE:TRIGGER" follows the last of its
 * writes that reached them); then its daemon is killed with all it started, its filesystems
 * are unmounted (their last writes dropped too) and mounted again once the power is back,
 * which recovers them from their disks, and its daemon is started again. The workload's mark
 * is answered after that. A cut that fails half-way is said as the run's failure
 * (r->cut_err), the node brought back as far as it goes.
 *
 * This runs in the control server's thread, and the daemon it starts again is that thread's
 * child: its death signal (PR_SET_PDEATHSIG) is the thread's end, which comes after the
 * nodes' stop (bo_ctl_server_stop() follows the workload), and it starts with no signal
 * blocked, whatever the thread blocks (harness/base/proc.c).
 */
static int node_cut(struct recorder *r, unsigned ni, const char *trigger, uint64_t trigger_entry,
		    struct bo_err *err)
{
	const struct bo_cluster_node *nd = &r->o->sc->cluster->v[ni];
	char mark[BO_LOG_MARK_MAX(512) + 1], killed[512] = "";
	double t0 = bo_now();
	struct json_object *o;
	uint64_t entry = 0;
	int k;

	snprintf(mark, sizeof(mark), BO_NODE_CUT_PREFIX "%s:%.*s", nd->name,
		 (int) (sizeof(mark) - sizeof(BO_NODE_CUT_PREFIX) - BO_CLUSTER_NAME_MAX - 2),
		 trigger);
	k = bo_cluster_freeze(r->cluster, ni, err);
	if (k >= 0)
		k = node_power(r, ni, false, err);
	if (k >= 0)
		k = recorder_put_mark(r, mark, &entry, err);
	if (k >= 0)
		k = bo_cluster_kill(r->cluster, ni, killed, sizeof(killed), err);
	for (unsigned i = r->layout.n; k >= 0 && i-- > 0;)
		if (dev_node(r, i) == (int) ni && r->dev_mnt[i][0])
			k = bo_umount(r->dev_mnt[i], 0, err);
	if (k >= 0)
		k = node_power(r, ni, true, err);
	for (unsigned i = 0; k >= 0 && i < r->layout.n; i++)
		if (dev_node(r, i) == (int) ni && r->dev_mnt[i][0])
			k = remount(r, i, err);
	if (k >= 0)
		k = bo_cluster_restart(r->cluster, ni, err);
	if (k < 0) {
		bo_err_prefix(err, "node '%s': its power cut at '%s'", nd->name, trigger);
		if (!r->cut_err.msg[0])
			r->cut_err = *err;
		node_restore(r, ni);
		return k;
	}
	r->nodes_cut |= 1u << ni;
	bo_debug(BO_DBG_RUN, "node '%s': power cut at '%s' (entry %" PRIu64 "), back in %.2f s",
		 nd->name, trigger, trigger_entry, bo_now() - t0);
	o = json_object_new_object();
	if (o) {
		json_object_object_add(o, "node", json_object_new_string(nd->name));
		json_object_object_add(o, "trigger", json_object_new_string(trigger));
		json_object_object_add(o, "trigger_entry", json_object_new_uint64(trigger_entry));
		json_object_object_add(o, "mark", json_object_new_string(mark));
		json_object_object_add(o, "entry", json_object_new_uint64(entry));
		json_object_object_add(o, "killed", json_object_new_string(killed));
		json_object_object_add(o, "seconds", json_object_new_double(bo_now() - t0));
	}
	return recorder_emit_record(r, "node-cut", o);
}

/* The power cuts of nodes the mark @mark (entry @entry) triggers, in the nodes' order. */
int recorder_node_cuts(struct recorder *r, const char *mark, uint64_t entry, struct bo_err *err)
{
	const struct bo_cluster *c = r->o->sc->cluster;
	int k = 0;

	if (!c)
		return 0;
	pthread_mutex_lock(&r->cluster_lock);
	for (unsigned i = 0; r->cluster && k >= 0 && i < c->n; i++)
		if (bo_cluster_cuts_at(&c->v[i], mark))
			k = node_cut(r, i, mark, entry, err);
	pthread_mutex_unlock(&r->cluster_lock);
	return k;
}

/* A node whose power-cut marks never reached the log: the run was not the one asked for. */
int recorder_check_nodes_cut(const struct recorder *r, struct bo_err *err)
{
	const struct bo_scenario *sc = r->o->sc;

	for (unsigned i = 0; sc->cluster && i < sc->cluster->n; i++)
		if (sc->cluster->v[i].power_cut && !(r->nodes_cut & (1u << i)))
			return bo_err_set(err, ENOENT,
					  "%s:%d: [node %s] power-cut: none of its marks reached "
					  "the log, so its power was never cut: the run did not "
					  "happen",
					  sc->origin, sc->cluster->v[i].line,
					  sc->cluster->v[i].name);
	return 0;
}
