// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * save.c — stage 6 of the check loop (stages.h): a checked crash state saved into the results:
 * its record in stream.jsonl and, for a state that is not consistent, its by-products under
 * states/<id>/ (the verdict, fsck and checker output, kernel messages, repro.sh, its minimal
 * witness when one was sought, and for a state cut inside another's recovery that recovery's
 * log); and the record of an alias, a state not checked again.
 */
#include "harness/explore/stages.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <json-c/json.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/dev/fstool.h"
#include "harness/states/classify.h"

static struct json_object *opset_json(const struct bo_opset *set)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < set->n; i++)
		json_object_array_add(a, json_object_new_uint64(set->v[i]));
	return a;
}

/* The checker's reasons ("absent <id> <why>") for the ops of @set, into @rec's "why". */
static void why_json(struct json_object *rec, const struct bo_checker_report *rep,
		     const struct bo_opset *set)
{
	struct json_object *why = NULL;

	for (size_t i = 0; i < set->n; i++) {
		const char *w = bo_checker_why(rep, set->v[i]);
		char key[24];

		if (!w)
			continue;
		if (!why && !json_object_object_get_ex(rec, "why", &why)) {
			if (!(why = json_object_new_object()))
				return;
			json_object_object_add(rec, "why", why);
		}
		snprintf(key, sizeof(key), "%" PRIu64, set->v[i]);
		json_object_object_add(why, key, json_object_new_string(w));
	}
}

/* A state's witness (witness.c): its writes, what they are, and the story told of them. */
static struct json_object *witness_json(const struct witness *w)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();

	if (!o || !a) {
		json_object_put(o);
		json_object_put(a);
		return NULL;
	}
	if (w->none[0])
		json_object_object_add(o, "none", json_object_new_string(w->none));
	else
		json_object_object_add(o, "reference", json_object_new_uint64(w->reference));
	/* The ops the witness decides: those of its own trial, else all of the state's. */
	if (w->n_decided) {
		struct json_object *d = json_object_new_array();

		for (unsigned i = 0; d && i < w->n_decided; i++)
			json_object_array_add(d, json_object_new_uint64(w->decided[i]));
		json_object_object_add(o, "ops", d);
	} else {
		json_object_object_add(o, "ops", opset_json(&w->ops));
	}
	json_object_object_add(o, "size", json_object_new_uint64(w->n));
	for (size_t i = 0; !w->none[0] && i < w->n && i < WITNESS_SHOWN; i++) {
		const struct witness_write *ww = &w->v[i];
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "entry", json_object_new_uint64(ww->entry));
		json_object_object_add(e, "how", json_object_new_string(ww->how));
		json_object_object_add(e, "bytes", json_object_new_uint64(ww->bytes));
		if (ww->op != UINT64_MAX) {
			json_object_object_add(e, "op", json_object_new_uint64(ww->op));
			json_object_object_add(e, "op_state",
					       json_object_new_string(ww->in_flight
									      ? "in-flight"
									      : "acknowledged"));
		}
		if (ww->map.what[0]) {
			json_object_object_add(e, "block", json_object_new_uint64(ww->map.block));
			json_object_object_add(e, "what", json_object_new_string(ww->map.what));
		}
		if (ww->map.inode)
			json_object_object_add(e, "inode", json_object_new_uint64(ww->map.inode));
		if (ww->map.path[0])
			json_object_object_add(e, "path", json_object_new_string(ww->map.path));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "writes", a);
	json_object_object_add(o, "minimal", json_object_new_boolean(w->minimal));
	json_object_object_add(o, "trials", json_object_new_uint64(w->trials));
	json_object_object_add(o, "seconds", json_object_new_double(w->seconds));
	if (w->story)
		json_object_object_add(o, "story", json_object_new_string(w->story));
	return o;
}

int save_state(struct explore *x, struct state_run *s, enum bo_class c, struct bo_err *err)
{
	struct json_object *rec = json_object_new_object();

	if (!rec)
		return bo_err_set(err, ENOMEM, "recording state %s", s->id);
	json_object_object_add(rec, "state", json_object_new_string(s->id));
	json_object_object_add(rec, "cut", json_object_new_uint64(s->applied));
	json_object_object_add(rec, "class", json_object_new_string(bo_class_name(c)));
	json_object_object_add(rec, "seconds", json_object_new_double(s->seconds));
	{
		struct json_object *t = json_object_new_object();

		json_object_object_add(t, "replay", json_object_new_double(s->t_replay));
		json_object_object_add(t, "snapshot", json_object_new_double(s->t_snap));
		if (s->obs.repaired)
			json_object_object_add(t, "repair", json_object_new_double(s->t_repair));
		json_object_object_add(t, "mount", json_object_new_double(s->t_mount));
		json_object_object_add(t, "checker", json_object_new_double(s->t_checker));
		json_object_object_add(t, "umount", json_object_new_double(s->t_umount));
		json_object_object_add(t, "fsck", json_object_new_double(s->t_fsck));
		json_object_object_add(t, "drop", json_object_new_double(s->t_drop));
		json_object_object_add(rec, "timings", t);
	}
	/* How it was recovered, and what the repair said when fsck's was the recovery. */
	json_object_object_add(rec, "recovery",
			       json_object_new_string(s->obs.repaired ? "fsck" : "mount"));
	if (s->obs.repaired)
		json_object_object_add(
			rec, "repair",
			json_object_new_string(bo_repair_verdict_name(s->obs.repair)));
	json_object_object_add(rec, "mounted", json_object_new_boolean(s->obs.mounted));
	if (s->signature[0])
		json_object_object_add(rec, "signature", json_object_new_string(s->signature));
	json_object_object_add(rec, "fsck",
			       json_object_new_string(bo_fsck_verdict_name(s->obs.fsck)));
	if (x->o->checker)
		json_object_object_add(rec, "checker", json_object_new_string(s->checker_how));
	if (s->checker_left)
		json_object_object_add(rec, "checker_left",
				       json_object_new_string(s->checker_left));
	/* A cluster's state: through which nodes it was recovered, and how they stopped. */
	if (s->set) {
		char set[BO_CLUSTER_SET_NAME_MAX];

		json_object_object_add(rec, "survivors",
				       json_object_new_string(bo_cluster_set_name(
					       x->o->cluster, s->set, set, sizeof(set))));
		if (s->nodes_report)
			json_object_object_add(rec, "nodes",
					       json_object_new_string(s->nodes_report));
	}
	if (s->have_report && !s->report.done)
		json_object_object_add(rec, "checker_problem",
				       json_object_new_string(s->report.problem));
	if (s->have_verdict) {
		if (s->verdict.lost.n)
			json_object_object_add(rec, "lost", opset_json(&s->verdict.lost));
		if (s->verdict.wrong.n)
			json_object_object_add(rec, "wrong_content", opset_json(&s->verdict.wrong));
		if (s->verdict.phantom.n)
			json_object_object_add(rec, "phantom", opset_json(&s->verdict.phantom));
		if (s->verdict.unordered.n)
			json_object_object_add(rec, "unordered", opset_json(&s->verdict.unordered));
		why_json(rec, &s->report, &s->verdict.lost);
		why_json(rec, &s->report, &s->verdict.wrong);
	}
	if (s->harness_msg[0])
		json_object_object_add(rec, "error", json_object_new_string(s->harness_msg));
	if (s->sha256[0])
		json_object_object_add(rec, "image_sha256", json_object_new_string(s->sha256));
	if (s->cow_retry)
		json_object_object_add(rec, "cow_retry", json_object_new_boolean(true));
	if (s->recovery_of) {
		char rel[BO_CRASH_ID_MAX + 32];

		json_object_object_add(rec, "recovery_of", json_object_new_string(s->recovery_of));
		json_object_object_add(rec, "recovery_cut",
				       json_object_new_uint64(s->recovery_cut));
		json_object_object_add(rec, "recovery_entries",
				       json_object_new_uint64(s->recovery_entries));
		json_object_object_add(rec, "recovery_class",
				       json_object_new_string(bo_class_name(s->second)));
		/* Kept with the by-products, for repro.sh. */
		if (c != BO_CLASS_CONSISTENT) {
			snprintf(rel, sizeof(rel), "states/%s/recovery.log", s->id);
			json_object_object_add(rec, "recovery_log", json_object_new_string(rel));
		}
	}
	if (s->witness)
		json_object_object_add(rec, "witness", witness_json(s->witness));
	return bo_results_emit(x->res, "state", rec, err);
}

int save_alias(struct explore *x, const struct select_alias *a, struct bo_err *err)
{
	struct json_object *rec = json_object_new_object();

	if (!rec)
		return bo_err_set(err, ENOMEM, "recording state %s", a->id);
	json_object_object_add(rec, "state", json_object_new_string(a->id));
	json_object_object_add(rec, "cut", json_object_new_uint64(a->cut));
	json_object_object_add(rec, "alias_of", json_object_new_string(a->of));
	json_object_object_add(rec, "class", json_object_new_string(bo_class_name(a->cls)));
	x->sum->aliases++;
	return bo_results_emit(x->res, "alias", rec, err);
}

static int write_byproduct_len(struct explore *x, const char *dir, const char *name,
			       const char *data, size_t len, struct bo_err *err)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "%s/%s", dir, name);
	return bo_results_write_file(x->res, rel, data, len, err);
}

static int write_byproduct(struct explore *x, const char *dir, const char *name, const char *text,
			   struct bo_err *err)
{
	return write_byproduct_len(x, dir, name, text ? text : "", text ? strlen(text) : 0, err);
}

/* What a state's filesystem signature says, for verdict.txt. */
static const char *signature_words(const char *sig)
{
	static char buf[160];

	if (!*sig)
		return "";
	if (!strcmp(sig, "none"))
		return "none (the superblock is gone)";
	if (!strcmp(sig, "ambivalent"))
		return "ambivalent (contradicting superblocks)";
	if (!strcmp(sig, "unreadable"))
		return "unreadable (the device could not be probed)";
	snprintf(buf, sizeof(buf), "%s (a superblock is there; the mount refused it)", sig);
	return buf;
}

/* The used part of the recovery log @path into @dir/recovery.log. */
static int copy_recovery_log(struct explore *x, const char *dir, const char *path,
			     struct bo_err *err)
{
	struct bo_log *rl = NULL;
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int fd = -1;
	uint64_t len;
	int r = bo_log_open(path, 0, &rl, err);

	if (r < 0)
		return r;
	len = bo_log_end_offset(rl);
	bo_log_free(rl);
	buf = malloc(len ? len : 1);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (!buf || fd < 0 || bo_pread_full(fd, buf, len, 0) != (ssize_t) len)
		return bo_err_set(err, buf ? EIO : ENOMEM, "reading the recovery log '%s'", path);
	r = write_byproduct_len(x, dir, "recovery.log", buf, len, err);
	if (r < 0)
		return r;
	/* Both logs in the state's directory: the write log too, linked (or pointed at). */
	{
		char src[PATH_MAX], dst[PATH_MAX];

		if (snprintf(src, sizeof(src), "%s/%s", bo_results_dir(x->res), x->o->log_name) >=
			    (int) sizeof(src) ||
		    snprintf(dst, sizeof(dst), "%s/%s/%s", bo_results_dir(x->res), dir,
			     x->o->log_name) >= (int) sizeof(dst))
			return bo_err_set(err, ENAMETOOLONG, "path of '%s'", dir);
		if (link(src, dst) < 0 && errno != EEXIST) {
			char rel[PATH_MAX];

			snprintf(rel, sizeof(rel), "../../%s", x->o->log_name);
			if (symlink(rel, dst) < 0 && errno != EEXIST)
				return bo_err_set(err, errno, "linking '%s': %s", dst,
						  strerror(errno));
		}
	}
	return 0;
}

/* Which devices of the log are node @ni's: its own, and the external journals of those and
 * the devices they span. */
static void node_devices(const struct explore *x, unsigned ni, bool mine[BO_LAYOUT_MAX])
{
	const struct bo_cluster_node *nd = &x->o->cluster->v[ni];
	const struct bo_layout *l = bo_log_layout(x->log);

	memset(mine, 0, BO_LAYOUT_MAX * sizeof(*mine));
	for (unsigned d = 0; d < nd->ndev; d++) {
		int k = bo_layout_find(l, nd->dev[d]);

		if (k >= 0)
			mine[k] = true;
	}
	for (unsigned k = 0; k < l->n && k < BO_LAYOUT_MAX; k++)
		if (bo_layout_owner(l, k) >= 0 && mine[bo_layout_owner(l, k)])
			mine[k] = true;
}

/* Whether log entry @e is a write or a flush of one of @mine's devices (a flush names its
 * device by its sector). */
static bool node_entry(const struct explore *x, const bool *mine, uint64_t e)
{
	const struct bo_log_entry *le = bo_log_entry(x->log, e);
	int d = bo_layout_device(bo_log_layout(x->log), bo_log_sectorsize(x->log), le->sector);

	if (le->flags & BO_LOG_MARK)
		return false;
	/* A flush at no device's sector closes every device's epoch (docs/crash-states.md). */
	return d >= 0 ? mine[d] : (le->flags & BO_LOG_FLUSH) != 0;
}

/* At most this many of a node's writes after its last flush are listed one by one. */
#define NODE_UNFLUSHED_LISTED 64

/*
 * nodes/NAME/writes.txt of a state: what node @ni's disks had received by the state's cut —
 * its writes and flushes, the writes after its last flush (what its own cache could still lose
 * under --reorder or --torn), and its own power cuts (one node at a time).
 */
static void node_writes(const struct explore *x, const struct state_run *s, unsigned ni,
			const bool *mine, FILE *f)
{
	const char *name = x->o->cluster->v[ni].name;
	uint64_t n = s->applied < bo_log_count(x->log) ? s->applied : bo_log_count(x->log);
	uint64_t writes = 0, flushes = 0, last = UINT64_MAX, after = 0;

	for (uint64_t e = 0; e < n; e++) {
		const struct bo_log_entry *le = bo_log_entry(x->log, e);
		const char *m = bo_log_mark_name(x->log, e);

		if (bo_cluster_is_cut_of(m, name))
			fprintf(f, "its power cut at entry %" PRIu64 " (%s)\n", e, m);
		if (!node_entry(x, mine, e))
			continue;
		if (le->flags & BO_LOG_FLUSH) {
			flushes++;
			last = e;
			after = 0;
		} else if (le->nr_sectors && !(le->flags & BO_LOG_DISCARD)) {
			writes++;
			after++;
		}
	}
	fprintf(f, "node %s, up to the cut (%" PRIu64 " entries): %" PRIu64 " %s, %" PRIu64 " %s",
		name, n, writes, BO_PLURAL(writes, "write", "writes"), flushes,
		BO_PLURAL(flushes, "flush", "flushes"));
	if (last != UINT64_MAX)
		fprintf(f, "; its last flush at entry %" PRIu64, last);
	fprintf(f, "\nafter its last flush: %" PRIu64 " %s%s\n", after,
		BO_PLURAL(after, "write", "writes"), after ? " (entry, block, blocks):" : "");
	for (uint64_t e = last == UINT64_MAX ? 0 : last + 1, k = 0; e < n && after; e++) {
		const struct bo_log_entry *le = bo_log_entry(x->log, e);

		if (!node_entry(x, mine, e) || !le->nr_sectors || (le->flags & BO_LOG_DISCARD))
			continue;
		if (k++ == NODE_UNFLUSHED_LISTED) {
			fputs("  ...\n", f);
			break;
		}
		fprintf(f, "  %" PRIu64 " %" PRIu64 " +%" PRIu64 "\n", e, le->sector,
			le->nr_sectors);
	}
}

/* Whether @line names the kernel device @kn ("dm-12"), not another that starts like it. */
static bool names_device(const char *line, size_t len, const char *kn)
{
	size_t kl = strlen(kn);

	for (const char *p = line; (p = memmem(p, len - (size_t) (p - line), kn, kl)); p++)
		if ((p == line || !isalnum((unsigned char) p[-1])) &&
		    (p + kl == line + len || !isdigit((unsigned char) p[kl])))
			return true;
	return false;
}

/* nodes/NAME/dmesg.txt of a state: the lines of its dmesg.txt that name one of node @ni's
 * devices, as the kernel calls them (dm-N of each device the state was mounted from). */
static void node_dmesg(const struct explore *x, const struct state_run *s, unsigned ni,
		       const bool *mine, FILE *f)
{
	char kn[BO_LAYOUT_MAX][24];

	fprintf(f, "# the lines of dmesg.txt naming node %s's devices:", x->o->cluster->v[ni].name);
	for (unsigned d = 0; d < x->n_parts && d < BO_LAYOUT_MAX; d++) {
		struct stat st;

		kn[d][0] = '\0';
		if (mine[d] && stat(x->part_dev[d], &st) == 0 && S_ISBLK(st.st_mode)) {
			snprintf(kn[d], sizeof(kn[d]), "dm-%u", minor(st.st_rdev));
			fprintf(f, " %s (%s)", kn[d], bo_log_layout(x->log)->v[d].name);
		}
	}
	fputc('\n', f);
	for (const char *t = s->dmesg ? s->dmesg : ""; *t;) {
		size_t ll = strcspn(t, "\n");

		for (unsigned d = 0; d < x->n_parts && d < BO_LAYOUT_MAX; d++)
			if (kn[d][0] && names_device(t, ll, kn[d])) {
				fprintf(f, "%.*s\n", (int) ll, t);
				break;
			}
		t += ll + (t[ll] == '\n');
	}
}

/* What @fn writes of node @ni of state @s, with the node's devices, as a string (malloc'd), or
 * NULL when memory runs out. */
static char *node_text(const struct explore *x, const struct state_run *s, unsigned ni,
		       void (*fn)(const struct explore *, const struct state_run *, unsigned,
				  const bool *, FILE *))
{
	bool mine[BO_LAYOUT_MAX];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	node_devices(x, ni, mine);
	fn(x, s, ni, mine, f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* states/<id>/nodes/NAME/ of each node of the state's survivor set: its recovery log, what its
 * disks had received (writes.txt) and its kernel messages (dmesg.txt). */
static int save_node_logs(struct explore *x, struct state_run *s, const char *dir,
			  struct bo_err *err)
{
	const struct bo_cluster *c = x->o->cluster;

	for (unsigned i = 0; i < c->n; i++) {
		char sub[BO_CRASH_ID_MAX + 48];
		_cleanup_free_ char *writes = NULL, *dmesg = NULL;
		int r;

		if (!(s->set & (1u << i)))
			continue;
		snprintf(sub, sizeof(sub), "%s/nodes/%s", dir, c->v[i].name);
		writes = node_text(x, s, i, node_writes);
		dmesg = node_text(x, s, i, node_dmesg);
		if (!writes || !dmesg)
			return bo_err_set(err, ENOMEM, "state %s: node %s's by-products", s->id,
					  c->v[i].name);
		r = bo_results_mkdir(x->res, sub, NULL, err);
		if (r >= 0)
			r = write_byproduct(x, sub, "recovery.log",
					    s->node_log[i] ? s->node_log[i] : "", err);
		if (r >= 0)
			r = write_byproduct(x, sub, "writes.txt", writes, err);
		if (r >= 0)
			r = write_byproduct(x, sub, "dmesg.txt", dmesg, err);
		if (r < 0)
			return r;
	}
	return 0;
}

/* states/<id>/: everything needed to understand and re-run a state that was not consistent. */
int save_byproducts(struct explore *x, struct state_run *s, enum bo_class c, struct bo_err *err)
{
	_cleanup_free_ char *repro = NULL, *checker = NULL, *verdict = NULL;
	char dir[BO_CRASH_ID_MAX + 8], buf[1024];
	int r;

	snprintf(dir, sizeof(dir), "states/%s", s->id);
	r = bo_results_mkdir(x->res, dir, NULL, err);
	if (r < 0)
		return r;
	if (asprintf(&verdict,
		     "state %s (after %" PRIu64 " %s): %s\n%s%s%s"
		     "recovery: %s%s%s\nmounted: %s%s%s\nfsck: %s\nchecker: %s%s%s\n",
		     s->id, s->applied, BO_PLURAL(s->applied, "entry", "entries"), bo_class_name(c),
		     s->harness_msg[0] ? "error: " : "", s->harness_msg,
		     s->harness_msg[0] ? "\n" : "", s->obs.repaired ? "fsck, then mount" : "mount",
		     s->obs.repaired ? "; the repair: " : "",
		     s->obs.repaired ? bo_repair_verdict_name(s->obs.repair) : "",
		     s->obs.mounted ? "yes" : "no", s->signature[0] ? "\nsignature: " : "",
		     signature_words(s->signature), bo_fsck_verdict_name(s->obs.fsck),
		     x->o->checker ? s->checker_how : "none", s->checker_left ? "; it left " : "",
		     s->checker_left ? s->checker_left : "") < 0)
		return bo_err_set(err, ENOMEM, "state %s", s->id);
	if (s->have_verdict) {
		_cleanup_free_ char *more = NULL;

		if (asprintf(&more, "%slost: %s\nwrong content: %s\nphantom: %s\nunordered: %s\n",
			     verdict, bo_opset_str(&s->verdict.lost, buf, sizeof(buf)),
			     bo_opset_str(&s->verdict.wrong, buf + 256, 256),
			     bo_opset_str(&s->verdict.phantom, buf + 512, 256),
			     bo_opset_str(&s->verdict.unordered, buf + 768, 256)) < 0)
			return bo_err_set(err, ENOMEM, "state %s", s->id);
		free(verdict);
		verdict = BO_TAKE_PTR(more);
	}
	if (asprintf(&checker, "%s%s%s%s%s%s", s->checker_out ? s->checker_out : "",
		     s->checker_err && *s->checker_err ? "--- stderr ---\n" : "",
		     s->checker_err ? s->checker_err : "",
		     s->checker_left ? "--- blackout: the checker left " : "",
		     s->checker_left ? s->checker_left : "", s->checker_left ? "\n" : "") < 0)
		return bo_err_set(err, ENOMEM, "state %s", s->id);
	if (s->have_report && !s->report.done) {
		_cleanup_free_ char *more = NULL;

		if (asprintf(&more, "%s--- blackout: %s\n", checker, s->report.problem) < 0)
			return bo_err_set(err, ENOMEM, "state %s", s->id);
		free(checker);
		checker = BO_TAKE_PTR(more);
	}
	if (asprintf(&repro,
		     "#!/bin/sh\n"
		     "# Re-run crash state %s of this run in a fresh VM and compare its class\n"
		     "# with the recorded one (%s). 'blackout reproduce' runs\n"
		     "#   blackout check %s --state %s --expect %s%s%s%s%s\n"
		     "# with the configuration the results record. Its options go to it (--file,\n"
		     "# --host-root: what of the host the VM may have, docs/safety.md).\n"
		     "cd \"$(dirname \"$0\")/../..\" || exit 3\n"
		     "exec blackout reproduce . %s \"$@\"\n",
		     s->id, bo_class_name(c), x->o->log_name, s->id, bo_class_name(c),
		     s->recovery_of ? " --recovery-log " : "", s->recovery_of ? dir : "",
		     s->recovery_of ? "/recovery.log" : "",
		     x->o->repro_args ? x->o->repro_args : "", s->id) < 0)
		return bo_err_set(err, ENOMEM, "state %s", s->id);
	if (s->recovery_of) {
		_cleanup_free_ char *more = NULL;

		if (asprintf(&more,
			     "%srecovery: state %s was consistent after its recovery; this state "
			     "is cut after %" PRIu64 " of the %" PRIu64
			     " entries that recovery wrote (recovery.log), and its own recovery "
			     "gave %s\n",
			     verdict, s->recovery_of, s->recovery_cut, s->recovery_entries,
			     bo_class_name(s->second)) < 0)
			return bo_err_set(err, ENOMEM, "state %s", s->id);
		free(verdict);
		verdict = BO_TAKE_PTR(more);
		r = copy_recovery_log(x, dir, s->recovery_log, err);
		if (r < 0)
			return r;
	}
	if (s->witness) {
		r = write_byproduct(x, dir, "witness.txt", s->witness->story, err);
		if (r < 0)
			return r;
	}
	if (s->set) {
		char set[BO_CLUSTER_SET_NAME_MAX];
		_cleanup_free_ char *more = NULL;

		if (asprintf(&more, "%ssurvivors: %s%s\nnodes:\n%s", verdict,
			     bo_cluster_set_name(x->o->cluster, s->set, set, sizeof(set)),
			     s->set == bo_cluster_all(x->o->cluster)
				     ? " (every node)"
				     : " (the other nodes' disks lost)",
			     s->nodes_report ? s->nodes_report : "") < 0)
			return bo_err_set(err, ENOMEM, "state %s", s->id);
		free(verdict);
		verdict = BO_TAKE_PTR(more);
		r = save_node_logs(x, s, dir, err);
		if (r < 0)
			return r;
	}
	r = write_byproduct(x, dir, "verdict.txt", verdict, err);
	if (r >= 0)
		r = write_byproduct(x, dir, "mount.err", s->mount_msg, err);
	if (r >= 0 && s->obs.repaired)
		r = write_byproduct(x, dir, "repair.out", s->repair_out, err);
	if (r >= 0)
		r = write_byproduct(x, dir, "fsck.out", s->fsck_out, err);
	if (r >= 0)
		r = write_byproduct(x, dir, "checker.out", checker, err);
	if (r >= 0)
		r = write_byproduct(x, dir, "dmesg.txt", s->dmesg, err);
	if (r >= 0)
		r = write_byproduct(x, dir, "repro.sh", repro, err);
	if (r >= 0) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s/repro.sh", bo_results_dir(x->res), dir);
		if (chmod(path, 0755) < 0)
			r = bo_err_set(err, errno, "chmod '%s': %s", path, strerror(errno));
	}
	return r;
}
