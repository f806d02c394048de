// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The effective configuration of a scenario as JSON (results/<run-id>/config.json).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/scenario/scenario.h"

/* Add @val under @key to @obj; false (and @val released) when out of memory. */
static bool put(struct json_object *obj, const char *key, struct json_object *val)
{
	if (!val)
		return false;
	if (json_object_object_add(obj, key, val) < 0) {
		json_object_put(val);
		return false;
	}
	return true;
}

/* Append @val to array @arr; false (and @val released) when out of memory. */
static bool put_item(struct json_object *arr, struct json_object *val)
{
	if (!val)
		return false;
	if (json_object_array_add(arr, val) < 0) {
		json_object_put(val);
		return false;
	}
	return true;
}

static struct json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

int bo_scenario_to_json(const struct bo_scenario *sc, struct json_object **ret)
{
	struct json_object *root = bo_json_new_doc(), *scen, *dev, *wl, *chk, *cuts, *run;
	struct json_object *faults, *vm, *files, *devices;
	_cleanup_free_ char *wcmd = NULL, *ccmd = NULL;
	bool ok;

	if (!root)
		return -ENOMEM;
	/* Each section is attached as soon as it exists, so that freeing the root frees all. */
	ok = put(root, "scenario", scen = json_object_new_object()) &&
	     put(root, "device", dev = json_object_new_object()) &&
	     put(root, "workload", wl = json_object_new_object()) &&
	     put(root, "check", chk = json_object_new_object()) &&
	     put(chk, "cuts", cuts = json_object_new_object()) &&
	     put(root, "run", run = json_object_new_object()) &&
	     put(root, "vm", vm = json_object_new_object()) &&
	     put(vm, "files", files = json_object_new_array());
	ok = ok && bo_scenario_workload_command(sc, &wcmd) == 0 &&
	     bo_scenario_checker_command(sc, &ccmd) == 0;
	ok = ok && put(scen, "name", json_object_new_string(sc->name)) &&
	     put(scen, "description", json_object_new_string(sc->description)) &&
	     put(scen, "file", json_object_new_string(sc->origin));
	ok = ok && put(dev, "fs", json_object_new_string(bo_fs_name(sc->fs))) &&
	     put(dev, "size", json_object_new_uint64(sc->size)) &&
	     put(dev, "sector_size", json_object_new_int(sc->sector_size)) &&
	     put(dev, "mkfs_options", json_object_new_string(sc->mkfs_options)) &&
	     put(dev, "mount_options", json_object_new_string(sc->mount_options));
	ok = ok &&
	     put(wl, "kind",
		 json_object_new_string(sc->workload == BO_WORKLOAD_BUILTIN ? "builtin"
									    : "command")) &&
	     put(wl, "command", json_object_new_string(wcmd)) &&
	     put(wl, "seed", json_object_new_uint64(sc->workload_seed)) &&
	     put(wl, "timeout", json_object_new_int64(sc->workload_timeout)) &&
	     json_object_object_add(wl, "user", str_or_null(sc->user)) == 0 &&
	     (!sc->workload_script ||
	      put(wl, "script", json_object_new_string(sc->workload_script)));
	if (ok && sc->workload == BO_WORKLOAD_BUILTIN)
		ok = put(wl, "builtin", json_object_new_string(sc->builtin)) &&
		     put(wl, "ops", json_object_new_uint64(sc->ops)) &&
		     put(wl, "bug", json_object_new_string(sc->bug ? sc->bug : "none")) &&
		     (!sc->keep_ops || put(wl, "keep_ops", json_object_new_string(sc->keep_ops))) &&
		     (strcmp(sc->builtin, "bounded") ||
		      (put(wl, "length", json_object_new_uint64(sc->length)) &&
		       put(wl, "workloads",
			   json_object_new_string(sc->workloads ? sc->workloads : "all")) &&
		       (!sc->sample || put(wl, "sample", json_object_new_string(sc->sample))) &&
		       put(wl, "fresh", json_object_new_boolean(sc->fresh)))) &&
		     (strcmp(sc->builtin, "fsops") ||
		      (put(wl, "fsync",
			   json_object_new_string(sc->fsync_inode ? "inode" : "path")) &&
		       put(wl, "families",
			   json_object_new_string(sc->families ? sc->families : "none"))));
	ok = ok && put(cuts, "policy", json_object_new_string(sc->cuts_spec));
	ok = ok && json_object_object_add(chk, "checker", str_or_null(ccmd)) == 0 &&
	     put(chk, "mount_timeout", json_object_new_int64(sc->mount_timeout)) &&
	     put(chk, "fsck_timeout", json_object_new_int64(sc->fsck_timeout)) &&
	     put(chk, "checker_timeout", json_object_new_int64(sc->checker_timeout)) &&
	     put(chk, "ordered", json_object_new_boolean(sc->ordered)) &&
	     put(chk, "persona", json_object_new_string(bo_persona_name(sc->persona))) &&
	     put(chk, "recovery", json_object_new_string(bo_recovery_name(sc->recovery))) &&
	     put(chk, "recovery_crashes", json_object_new_uint64(sc->recovery_crashes)) &&
	     put(chk, "witness", json_object_new_uint64(sc->witness)) &&
	     (sc->checker != BO_CHECKER_BUILTIN || strcmp(sc->checker_command, "fsops") ||
	      put(chk, "promises",
		  json_object_new_string(bo_scenario_promises_posix(sc) ? "posix" : "linux"))) &&
	     (!sc->checker_script ||
	      put(chk, "script", json_object_new_string(sc->checker_script)));
	ok = ok && put(vm, "root", json_object_new_string(sc->root_host ? "host" : "blackout")) &&
	     (!sc->kernel || put(vm, "kernel", json_object_new_string(sc->kernel))) &&
	     (!sc->kernel_tree || put(vm, "kernel_tree", json_object_new_string(sc->kernel_tree)));
	for (size_t i = 0; ok && sc->files && sc->files[i]; i++)
		ok = put_item(files, json_object_new_string(sc->files[i]));
	ok = ok && put(run, "seed", json_object_new_uint64(sc->seed)) &&
	     put(run, "log_size", json_object_new_uint64(sc->log_size));
	/* [device NAME] sections: where each lies in the log's device (the "device" object above
	 * is then the primary device's fs and options, and the log device's size). */
	ok = ok && put(root, "devices", devices = json_object_new_array());
	for (size_t i = 0; ok && i < sc->ndevices; i++) {
		const struct bo_device *d = &sc->devices[i];
		struct json_object *o = json_object_new_object(), *spans = NULL;

		ok = put_item(devices, o) && put(o, "name", json_object_new_string(d->name)) &&
		     put(o, "fs", json_object_new_string(d->raw ? "raw" : bo_fs_name(d->fs))) &&
		     put(o, "size", json_object_new_uint64(d->size)) &&
		     put(o, "start_sector", json_object_new_uint64(d->start)) &&
		     put(o, "mkfs_options", json_object_new_string(d->mkfs_options)) &&
		     put(o, "mount_options", json_object_new_string(d->mount_options)) &&
		     json_object_object_add(
			     o, "journal",
			     str_or_null(d->journal >= 0 ? sc->devices[d->journal].name : NULL)) ==
			     0 &&
		     put(o, "spans", spans = json_object_new_array());
		for (size_t k = 0; ok && k < sc->ndevices; k++)
			if (d->spans & (1u << k))
				ok = put_item(spans, json_object_new_string(sc->devices[k].name));
	}
	/* [node NAME] sections: the cluster, or null. */
	if (ok && sc->cluster) {
		const struct bo_cluster *c = sc->cluster;
		struct json_object *cl = json_object_new_object(), *nodes;
		char words[32];

		ok = put(root, "cluster", cl) &&
		     put(cl, "survivors",
			 json_object_new_string(
				 bo_cluster_survivors_str(c->survivors, words, sizeof(words)))) &&
		     put(cl, "stop_timeout", json_object_new_int((int) c->stop_timeout)) &&
		     put(cl, "nodes", nodes = json_object_new_array());
		for (unsigned i = 0; ok && i < c->n; i++) {
			const struct bo_cluster_node *nd = &c->v[i];
			struct json_object *o = json_object_new_object(), *devs;

			ok = put_item(nodes, o) &&
			     put(o, "name", json_object_new_string(nd->name)) &&
			     put(o, "address", json_object_new_string(nd->addr)) &&
			     put(o, "start", json_object_new_string(nd->start)) &&
			     json_object_object_add(o, "stop", str_or_null(nd->stop)) == 0 &&
			     put(o, "devices", devs = json_object_new_array());
			for (unsigned d = 0; ok && d < nd->ndev; d++)
				ok = put_item(devs, json_object_new_string(nd->dev[d]));
			ok = ok && put(o, "power_cut", devs = json_object_new_array());
			for (size_t w = 0; ok && nd->power_cut && nd->power_cut[w]; w++)
				ok = put_item(devs, json_object_new_string(nd->power_cut[w]));
		}
	} else if (ok) {
		ok = json_object_object_add(root, "cluster", NULL) == 0;
	}
	ok = ok && put(root, "faults", faults = json_object_new_array());
	for (size_t i = 0; ok && i < sc->nfaults; i++) {
		struct json_object *f = json_object_new_object();

		ok = put_item(faults, f) &&
		     put(f, "line", json_object_new_int(sc->faults[i].line)) &&
		     put(f, "trigger", json_object_new_string(sc->faults[i].trigger)) &&
		     put(f, "fault", json_object_new_string(sc->faults[i].what));
	}
	if (!ok) {
		json_object_put(root);
		return -ENOMEM;
	}
	*ret = root;
	return 0;
}
