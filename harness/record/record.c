// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/record/record.h"
#include "harness/record/recorder.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmtargets/dm.h"
#include "dmtargets/flakey.h"
#include "dmtargets/linear.h"
#include "dmtargets/logwrites.h"
#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/cluster/cluster.h"
#include "harness/ctl/ctl.h"
#include "harness/record/faultrun.h"
#include "harness/dev/fstab.h"
#include "harness/dev/fstool.h"
#include "harness/log/log.h"
#include "harness/log/tail.h"
#include "harness/dev/loop.h"
#include "harness/dev/mntarea.h"
#include "harness/dev/mount.h"
#include "harness/states/oracle.h"
#include "harness/base/proc.h"
#include "harness/base/safety.h"
#include "harness/dev/teardown.h"

/* The control channel's way of inserting a mark: put it in the log, then carry out the fault
 * plan's switch, or the power cut of a node, it triggers, if any, before the workload gets its
 * reply. */
static int insert_mark(void *ctx, const char *name, uint64_t *ret_entry, struct bo_err *err)
{
	struct recorder *r = ctx;
	struct json_object *rec = NULL;
	int k;

	k = recorder_fresh_mark(name) ? recorder_fresh(r, name, ret_entry, err)
				      : recorder_put_mark(r, name, ret_entry, err);
	if (k >= 0 && r->faults)
		k = bo_faultrun_on_mark(r->faults, name, *ret_entry, &rec, err);
	if (rec)
		recorder_emit_record(r, "fault", rec);
	if (k >= 0)
		k = recorder_node_cuts(r, name, *ret_entry, err);
	return k;
}

static int make_file(const char *path, uint64_t size, struct bo_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || ftruncate(fd, (off_t) size) < 0)
		return bo_err_set(err, errno, "creating '%s' (%" PRIu64 " bytes): %s", path, size,
				  strerror(errno));
	return 0;
}

/*
 * Record a loop or dm device just made on the teardown stack. The stack has room for all a
 * recording makes; should recording fail anyway, the object is undone at once, not lost.
 */
static int keep_loop(struct recorder *r, const char *dev, struct bo_err *err)
{
	struct bo_err e2;
	int k = bo_teardown_push_loop(r->td, dev, err);

	if (k < 0)
		(void) !bo_loop_detach(dev, &e2);
	return k;
}

static int keep_dm(struct recorder *r, const char *name, struct bo_err *err)
{
	struct bo_err e2;
	int k = bo_teardown_push_dm(r->td, name, err);

	if (k < 0)
		(void) !bo_dm_remove(name, &e2);
	return k;
}

/* The devices of a [device NAME] scenario: one dm-linear each on the log-writes device, so that
 * the one log orders the writes of all of them; dm-flakey instead for a node whose power is cut
 * during the run. No fault plan. */
static int carve(struct recorder *r, struct bo_err *err)
{
	struct json_object *devs = json_object_new_array(), *rec = json_object_new_object();
	struct bo_flakey_caps caps = {0};
	int k = 0;

	if (!devs || !rec) {
		json_object_put(devs);
		json_object_put(rec);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	for (unsigned i = 0; k >= 0 && i < r->layout.n; i++)
		if (recorder_dev_cut(r, i)) {
			k = bo_flakey_probe(r->o->runid, r->lw_dev, &caps, err);
			break;
		}

	for (unsigned i = 0; k >= 0 && i < r->layout.n; i++) {
		const struct bo_layout_dev *d = &r->layout.v[i];
		char role[32], *name = r->dev_dm[i], uuid[BO_DM_UUID_MAX];
		_cleanup_free_ char *table = NULL;
		struct json_object *o = json_object_new_object();

		snprintf(role, sizeof(role), "dev-%s", d->name);
		k = bo_dm_name(r->o->runid, role, name, uuid, err);
		if (k >= 0 && bo_dm_device_path(name, r->dev[i], sizeof(r->dev[i])) < 0)
			k = bo_err_set(err, ENAMETOOLONG, "device path of '%s': too long", name);
		if (k >= 0)
			k = recorder_carve_table(r, i, &caps, &table, err);
		if (k >= 0)
			k = bo_dm_create(name, uuid, table, err);
		if (k >= 0)
			k = keep_dm(r, name, err);
		if (!o)
			continue; /* out of memory: the record is short, the run goes on */
		json_object_object_add(o, "name", json_object_new_string(d->name));
		json_object_object_add(o, "device", json_object_new_string(r->dev[i]));
		json_object_object_add(o, "kind", json_object_new_string(d->kind));
		json_object_array_add(devs, o);
	}
	if (k >= 0)
		k = bo_test_stall("stack", err);
	if (k < 0) {
		json_object_put(rec);
		json_object_put(devs);
		return k;
	}
	json_object_object_add(rec, "device", json_object_new_string(r->lw_dev));
	json_object_object_add(rec, "devices", devs);
	return recorder_emit_record(r, "stack", rec);
}

static int stack_up(struct recorder *r, struct bo_err *err)
{
	const struct bo_scenario *sc = r->o->sc;
	struct bo_flakey fl = {.up_interval = 1, .down_interval = 0};
	struct bo_flakey_caps caps;
	_cleanup_free_ char *lw_table = NULL, *fl_table = NULL;
	int k;

	k = make_file(r->image, sc->size, err);
	if (k >= 0)
		k = make_file(r->log, sc->log_size, err);
	if (k >= 0)
		k = bo_loop_attach(r->image, r->o->workdir, 0, sc->sector_size, &r->img_loop, err);
	if (k < 0)
		return k;
	k = keep_loop(r, r->img_loop.path, err);
	if (k >= 0)
		k = bo_loop_attach(r->log, r->o->workdir, 0, 0, &r->log_loop, err);
	if (k < 0)
		return k;
	k = keep_loop(r, r->log_loop.path, err);
	if (k >= 0)
		k = bo_test_stall("loops", err);
	if (k >= 0)
		k = bo_dm_name(r->o->runid, "lw", r->lw, r->lw_uuid, err);
	if (k >= 0)
		k = bo_dm_name(r->o->runid, "flakey", r->fl, r->fl_uuid, err);
	if (k < 0)
		return k;
	if (bo_dm_device_path(r->lw, r->lw_dev, sizeof(r->lw_dev)) < 0 ||
	    bo_dm_device_path(r->fl, r->fl_dev, sizeof(r->fl_dev)) < 0)
		return bo_err_set(err, ENAMETOOLONG, "device paths of '%s': too long", r->lw);
	k = bo_lw_table(r->sectors, r->img_loop.path, r->log_loop.path, &lw_table, err);
	if (k >= 0)
		k = bo_dm_create(r->lw, r->lw_uuid, lw_table, err);
	if (k < 0)
		return k;
	/* Removing log-writes appends its final mark `dm-log-writes-end` and rewrites the super
	 * block with the true entry count (log_writes_dtr()): it goes after flakey, before the
	 * loops under it. */
	k = keep_dm(r, r->lw, err);
	if (k < 0)
		return k;
	if (r->layout.n)
		return carve(r, err);
	/* flakey "up 1 s, down 0 s" is always up: a pass-through until a fault plan says
	 * otherwise. */
	fl.dev = r->lw_dev;
	k = bo_flakey_probe(r->o->runid, r->lw_dev, &caps, err);
	if (k >= 0)
		k = bo_flakey_table(&fl, r->sectors, &caps, &fl_table, err);
	/* Every table of the fault plan is built now, so that a feature this kernel lacks is
	 * refused before the workload runs. */
	if (k >= 0) {
		struct bo_faultrun_config fc = {.sc = sc,
						.caps = &caps,
						.flakey = r->fl,
						.below = r->lw_dev,
						.sectors = r->sectors,
						.mark = recorder_put_mark,
						.ctx = r};

		k = bo_faultrun_new(&fc, &r->faults, err);
	}
	if (k >= 0)
		k = bo_dm_create(r->fl, r->fl_uuid, fl_table, err);
	if (k < 0)
		return k;
	k = keep_dm(r, r->fl, err);
	if (k >= 0)
		k = bo_test_stall("stack", err);
	return k < 0 ? k : recorder_emit(r, "stack", "device", r->fl_dev);
}

static void down_report(void *rctx, const char *kind, const char *arg, const struct bo_err *e)
{
	struct recorder *r = rctx;

	if (r->down_first == 0)
		r->down_first = bo_err_set(r->down_err, e->errnum, "%s", bo_err_str(e));
}

/* Remove what stack_up() and the run made, in reverse, reporting the first failure. */
static int stack_down(struct recorder *r, struct bo_err *err)
{
	r->down_err = err;
	r->down_first = 0;
	(void) !bo_teardown_unwind(r->td);
	return r->down_first;
}

static int run_workload(struct recorder *r, struct bo_ctl_server *srv, struct bo_err *err)
{
	const struct bo_scenario *sc = r->o->sc;
	_cleanup_free_ char *cmd = NULL, *path_env = NULL;
	char ctl_env[PATH_MAX + 16], mnt_env[PATH_MAX + 16], seed_env[48];
	char dev_env[2 * BO_LAYOUT_MAX][PATH_MAX + 40];
	char *argv[] = {"/bin/sh", "-c", NULL, NULL};
	char *env[5 + 2 * BO_LAYOUT_MAX + BO_CLUSTER_MAX + 2] = {ctl_env, mnt_env, seed_env};
	char **cluster_env = NULL;
	size_t n = 4;
	struct bo_proc_opts po = {.argv = argv,
				  .env_add = env,
				  .cwd = r->cwd,
				  .merge_stderr = true,
				  .user = r->o->user,
				  .root = r->o->root};
	struct bo_proc_result pr = {0};
	struct json_object *rec;
	_cleanup_free_ char *left = NULL, *out = NULL;
	char how[128];
	int k;

	/* Each device by name: BLACKOUT_DEV_<NAME> its node, BLACKOUT_MNT_<NAME> its mount
	 * point (filesystems). */
	for (unsigned i = 0; i < r->layout.n; i++) {
		char up[BO_LAYOUT_NAME_MAX + 1];

		bo_layout_env_name(r->layout.v[i].name, up);
		snprintf(dev_env[2 * i], sizeof(dev_env[0]), "BLACKOUT_DEV_%s=%s", up, r->dev[i]);
		env[n++] = dev_env[2 * i];
		if (r->dev_mnt[i][0]) {
			snprintf(dev_env[2 * i + 1], sizeof(dev_env[0]), "BLACKOUT_MNT_%s=%s", up,
				 r->dev_mnt[i]);
			env[n++] = dev_env[2 * i + 1];
		}
	}
	k = bo_scenario_workload_command(sc, &cmd);
	if (k < 0)
		return bo_err_set(err, -k, "building the workload command");
	if (asprintf(&path_env, "PATH=%s:%s", r->o->libexec,
		     getenv("PATH") ? getenv("PATH") : "/usr/sbin:/usr/bin:/sbin:/bin") < 0)
		return bo_err_set(err, ENOMEM, "workload environment");
	argv[2] = cmd;
	env[3] = path_env;
	if (sc->cluster && bo_cluster_env_vars(sc->cluster, &cluster_env) < 0)
		return bo_err_set(err, ENOMEM, "workload environment");
	for (size_t i = 0; cluster_env && cluster_env[i]; i++)
		env[n++] = cluster_env[i];
	env[n] = NULL;
	snprintf(ctl_env, sizeof(ctl_env), "BLACKOUT_CTL=%s", bo_ctl_server_path(srv));
	snprintf(mnt_env, sizeof(mnt_env), "BLACKOUT_MNT=%s", r->cwd);
	snprintf(seed_env, sizeof(seed_env), "BLACKOUT_SEED=%" PRIu64, sc->workload_seed);
	po.timeout_ms = sc->workload_timeout * 1000u;
	/* A cluster's nodes first: the workload is their client. */
	if (sc->cluster && recorder_nodes_start(r, env, err) < 0) {
		bo_strv_free(cluster_env);
		return -EIO;
	}
	recorder_emit(r, "workload-start", "command", cmd);
	k = bo_proc_run(&po, &pr, err);
	if (k < 0)
		(void) !bo_err_prefix(err, "starting the workload");
	if (sc->cluster) {
		struct bo_err e2 = {0};

		if (recorder_nodes_stop(r, &e2) < 0 && k >= 0)
			k = bo_err_set(err, e2.errnum, "stopping the cluster: %s", bo_err_str(&e2));
	}
	bo_strv_free(cluster_env);
	if (k < 0) {
		bo_proc_result_clear(&pr);
		return k;
	}
	bo_proc_describe(&pr, &po, how, sizeof(how));
	left = bo_proc_left_str(&pr);
	rec = json_object_new_object();
	json_object_object_add(rec, "outcome", json_object_new_string(how));
	json_object_object_add(rec, "seconds", json_object_new_double(pr.seconds));
	/* A daemon it did not stop, ended with it before the unmount: said, not a failure. */
	if (left)
		json_object_object_add(rec, "left", json_object_new_string(left));
	recorder_emit_record(r, "workload-end", rec);
	if (left && asprintf(&out, "%.*s--- blackout: the workload left %s\n", (int) pr.out_len,
			     pr.out, left) < 0)
		out = NULL;
	k = bo_results_write_file(r->res, "workload.out", out ? out : pr.out,
				  out ? strlen(out) : pr.out_len, err);
	/* Once a fault went live, the workload failing is its reaction to the fault, recorded
	 * for the oracle's judgement of the crash states, not a failure of the run. */
	if (bo_faultrun_fired(r->faults))
		recorder_emit_record(
			r, "fault-outcome",
			bo_faultrun_outcome(r->faults, how,
					    pr.end == BO_PROC_EXITED ? pr.status : -1));
	else if (k >= 0 && (pr.end != BO_PROC_EXITED || pr.status != 0))
		k = bo_err_set(err, ECANCELED, "workload '%s' %s (output in workload.out)", cmd,
			       how);
	bo_proc_result_clear(&pr);
	return k;
}

/* The ack guard and the empty-log guard, on the log as the kernel left it. */
static int check_acks(struct recorder *r, const struct bo_ctl_state *st, struct bo_err *err)
{
	struct bo_log *log = NULL;
	struct bo_ops ops = {0};
	const uint64_t *acked;
	size_t n;
	int k;

	k = bo_log_open(r->log, 0, &log, err);
	if (k >= 0)
		k = bo_ops_from_log(log, &ops, err);
	acked = bo_ctl_state_acked(st, &n);
	if (k >= 0)
		k = bo_ops_check_acked(&ops, acked, n, err);
	if (k >= 0 && bo_log_count(log) == 0)
		k = bo_err_set(err, ENODATA, "the log of the recording is empty");
	bo_ops_clear(&ops);
	bo_log_free(log);
	return k;
}

/* mkfs @fs on @dev (and the devices it spans, @spans: NULL-terminated, or NULL) with @opts;
 * its output goes to mkfs.out (appended to @out). */
static int run_mkfs(struct recorder *r, enum bo_fs fs, const char *dev, const char *const *spans,
		    char **opts, FILE *out, struct bo_err *err)
{
	struct bo_proc_result mr = {0};
	int k = bo_mkfs(fs, dev, spans, (const char *const *) opts,
			r->o->sc->workload_timeout * 1000u, &mr, err);

	if (mr.out && out)
		fprintf(out, "# mkfs %s %s\n%.*s", bo_fs_name(fs), dev, (int) mr.out_len, mr.out);
	bo_proc_result_clear(&mr);
	return k;
}

/* The block size of an ext4 with an external journal, which the journal device must share:
 * "-b N" as its options @opts say, else 4096 for both (*@ours: the data's mkfs needs it too). */
static void ext4_block(const char *opts, char *buf, size_t len, bool *ours)
{
	const char *b = strstr(opts, "-b ");

	*ours = !b;
	snprintf(buf, len, "-b %.*s", b ? (int) strcspn(b + 3, " \t") : 4, b ? b + 3 : "4096");
}

/* The filesystem of a one-device scenario, on its flakey device. */
static int mkfs_one(struct recorder *r, struct bo_err *err)
{
	const struct bo_scenario *sc = r->o->sc;
	struct bo_proc_result mr = {0};
	struct bo_err derr = {0};
	char **opts = NULL;
	int k;

	k = bo_mkfs_options(sc->fs, sc->mkfs_options, NULL, &opts, err);
	if (k >= 0)
		k = bo_mkfs(sc->fs, r->fl_dev, NULL, (const char *const *) opts,
			    sc->workload_timeout * 1000u, &mr, err);
	if (mr.out && bo_results_write_file(r->res, "mkfs.out", mr.out, mr.out_len, &derr) < 0 &&
	    k >= 0)
		k = bo_err_set(err, derr.errnum, "%s", bo_err_str(&derr));
	bo_proc_result_clear(&mr);
	bo_strv_free(opts);
	return k;
}

/* The filesystems of a [device NAME] scenario, each external journal first (made by ext4's
 * mkfs as a journal device, by xfs's as part of the filesystem); a btrfs over several devices
 * made over all of them at once. */
static int mkfs_devices(struct recorder *r, struct bo_err *err)
{
	const struct bo_scenario *sc = r->o->sc;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct bo_err derr = {0};
	int k = f ? 0 : bo_err_set(err, ENOMEM, "out of memory");

	for (size_t i = 0; k >= 0 && i < sc->ndevices; i++) {
		const struct bo_device *d = &sc->devices[i];
		_cleanup_free_ char *extra = NULL;
		char **opts = NULL, bs[32];
		bool ours = false;

		if (d->raw)
			continue;
		if (d->journal >= 0 && d->fs == BO_FS_EXT4) {
			char **jopts = NULL;

			ext4_block(d->mkfs_options, bs, sizeof(bs), &ours);
			k = bo_mkfs_options(BO_FS_EXT4, "-O journal_dev", bs, &jopts, err);
			if (k >= 0)
				k = run_mkfs(r, BO_FS_EXT4, r->dev[d->journal], NULL, jopts, f,
					     err);
			bo_strv_free(jopts);
			if (k >= 0 && asprintf(&extra, "-J device=%s%s%s", r->dev[d->journal],
					       ours ? " " : "", ours ? bs : "") < 0)
				extra = NULL;
		} else if (d->journal >= 0) {
			if (asprintf(&extra, "-l logdev=%s,sectsize=%u", r->dev[d->journal],
				     d->sector_size) < 0)
				extra = NULL;
		}
		if (k >= 0 && d->journal >= 0 && !extra)
			k = bo_err_set(err, ENOMEM, "out of memory");
		if (k >= 0)
			k = bo_mkfs_options(d->fs, d->mkfs_options, extra, &opts, err);
		if (k >= 0) {
			struct bo_fs_devs devs;

			recorder_fs_devs(r, (unsigned) i, &devs);
			k = run_mkfs(r, d->fs, r->dev[i], devs.spans, opts, f, err);
		}
		bo_strv_free(opts);
	}
	if (f && fclose(f) == 0 && out && len &&
	    bo_results_write_file(r->res, "mkfs.out", out, len, &derr) < 0 && k >= 0)
		k = bo_err_set(err, derr.errnum, "%s", bo_err_str(&derr));
	free(out);
	return k;
}

/* Whether a node of @sc's cluster has its power cut during the run. */
static bool cuts_power(const struct bo_scenario *sc)
{
	for (unsigned i = 0; sc->cluster && i < sc->cluster->n; i++)
		if (sc->cluster->v[i].power_cut)
			return true;
	return false;
}

int bo_record(const struct bo_record_opts *o, struct bo_results *res, struct bo_err *err)
{
	static const char *const reserved[] = {"mkfs", "dm-log-writes-end", NULL};
	const struct bo_scenario *sc = o->sc;
	struct recorder r = {.o = o, .res = res, .ss = sc->sector_size};
	struct bo_ctl_server *srv = NULL;
	struct bo_lw_status lws;
	struct bo_err derr = {0};
	uint64_t entry;
	int k;

	/* In place the work directory is this machine's own memory (docs/vm.md): the room the
	 * image and the log are made with is judged before anything is made, and said. */
	if (o->in_place) {
		k = bo_space_check(o->workdir, sc->size + sc->log_size,
				   "recording in place (the device image and its log)", err);
		if (k < 0)
			return k;
	}
	pthread_mutex_init(&r.emit_lock, NULL);
	pthread_mutex_init(&r.cluster_lock, NULL);
	bo_scenario_layout(sc, &r.layout);
	/* A cluster's network namespaces, bridge and names are the VM's to change, not a
	 * machine's checked in place. */
	if (sc->cluster && o->in_place)
		return bo_err_set(err, EINVAL,
				  "a cluster runs in blackout's own VM, not in place: its network "
				  "and /etc/hosts are the VM's to change");
	r.sectors = sc->size / 512;
	snprintf(r.image, sizeof(r.image), "%s/image.img", o->workdir);
	snprintf(r.log, sizeof(r.log), "%s/log.img", o->workdir);
	snprintf(r.pristine, sizeof(r.pristine), "%s/base.img", o->workdir);
	/* Where every crash state will be mounted too (dev/mntarea.h): a path the workload
	 * stores stays true in them. */
	snprintf(r.mnt, sizeof(r.mnt), "%s", BO_MNT_ROOT);
	snprintf(r.sock, sizeof(r.sock), "%s/ctl.sock", o->workdir);
	if (mkdir(r.mnt, 0755) < 0 && errno != EEXIST)
		return bo_err_set(err, errno, "creating '%s': %s", r.mnt, strerror(errno));
	/* Two loops, log-writes, flakey or a device and a mount each. */
	if (bo_teardown_new(8 + 2 * BO_LAYOUT_MAX, down_report, &r, &r.td) < 0)
		return bo_err_set(err, ENOMEM, "recording: out of memory");

	k = stack_up(&r, err);
	if (k < 0)
		goto down;
	k = bo_test_stall("mkfs", err);
	if (k >= 0 && r.layout.n) {
		char mark[BO_LOG_MARK_MAX(512) + 1];

		/* The layout first, before anything is written: the log says how it is carved. */
		k = bo_logtail_open(r.log, r.ss, &r.tail, err);
		if (k >= 0 && bo_layout_format(&r.layout, mark, sizeof(mark)) < 0)
			k = bo_err_set(
				err, ENAMETOOLONG,
				"the layout of %u devices does not fit a mark: shorter names",
				r.layout.n);
		if (k >= 0)
			k = recorder_put_mark(&r, mark, &entry, err);
		if (k >= 0)
			k = mkfs_devices(&r, err);
	} else if (k >= 0) {
		k = mkfs_one(&r, err);
		if (k >= 0)
			k = bo_logtail_open(r.log, r.ss, &r.tail, err);
	}
	if (k >= 0)
		k = insert_mark(&r, "mkfs", &entry, err);
	if (k >= 0 && r.layout.n) {
		k = recorder_mount_devices(&r, r.cwd, sizeof(r.cwd), err);
		/* With a node's power cut, the cluster's client is on no node: it works beside
		 * their mounts, not in one, which the cut takes away. */
		if (cuts_power(sc))
			snprintf(r.cwd, sizeof(r.cwd), "%s", r.mnt);
	} else if (k >= 0) {
		snprintf(r.cwd, sizeof(r.cwd), "%s", r.mnt);
		k = recorder_mount_one(&r, err);
	}
	if (k >= 0)
		k = bo_test_stall("mounted", err);
	if (k < 0)
		goto down;
	{
		struct bo_ctl_server_config cfg = {
			.path = r.sock, .mark = insert_mark, .ctx = &r, .reserved = reserved};

		k = bo_ctl_server_start(&cfg, &srv, err);
	}
	/* ... and may talk to the control channel (connecting needs write permission). */
	if (k >= 0 && o->user && chown(r.sock, o->user->uid, o->user->gid) < 0)
		k = bo_err_set(err, errno, "giving '%s' to user %s: %s", r.sock, o->user->name,
			       strerror(errno));
	if (k >= 0)
		k = run_workload(&r, srv, err);
	/* A node's power cut that failed is the run's failure, not the workload's reply to it. */
	if (r.cut_err.msg[0])
		k = bo_err_set(err, r.cut_err.errnum ? r.cut_err.errnum : EIO, "%s", r.cut_err.msg);
	if (srv) {
		bo_ctl_server_stop(srv);
		/* A plan that did not run in full must not pass for one that did. */
		if (k >= 0)
			k = bo_faultrun_check_fired(r.faults, err);
		if (k >= 0)
			k = recorder_check_nodes_cut(&r, err);
		/* A protocol error (an op id repeated or going back) fails the run even when the
		 * workload carried on. */
		if (k >= 0 && bo_ctl_server_failure(srv, err) < 0)
			k = bo_err_prefix(err, "control channel");
	}
	if (k >= 0)
		k = bo_test_stall("unmount", err);
	if (k < 0)
		goto down;
	for (; r.mounted > 0 && k >= 0; r.mounted--)
		k = bo_teardown_undo_top(r.td, err); /* the mounts */
	if (k < 0)
		goto down;
	/* A full or failing log device turns logging off for good: every later state would
	 * be fiction. */
	k = bo_lw_status(r.lw, &lws, err);
	if (k >= 0)
		k = bo_lw_status_check(r.lw, &lws, err);
down:
	if (stack_down(&r, k < 0 ? &derr : err) < 0 && k >= 0)
		k = -EIO;
	else if (k < 0 && derr.msg[0])
		recorder_emit(&r, "teardown-error", "error", bo_err_str(&derr));
	if (k >= 0 && srv)
		k = check_acks(&r, bo_ctl_server_state(srv), err);
	bo_ctl_server_free(srv);
	bo_faultrun_free(r.faults);
	pthread_mutex_destroy(&r.emit_lock);
	pthread_mutex_destroy(&r.cluster_lock);
	for (unsigned i = 0; i < r.layout.n; i++) {
		free(r.dev_on[i]);
		free(r.dev_off[i]);
	}
	bo_logtail_free(r.tail);
	bo_teardown_free(r.td);
	for (unsigned i = 0; i < r.layout.n; i++)
		if (r.dev_mnt[i][0])
			rmdir(r.dev_mnt[i]);
	unlink(r.image);
	unlink(r.pristine);
	return k;
}
