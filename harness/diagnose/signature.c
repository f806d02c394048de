// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings by signature (signature.h): the runs under a path found and read, each failing
 * state counted under the signatures of its class and of each op it lost or invented, the
 * workload of each op as blackout-fsops lists it; a baseline read from a tree or from what
 * `findings --json` wrote, and compared by signature.
 */
#include "harness/diagnose/signature.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/diagnose/compare.h"
#include "harness/diagnose/diary.h"
#include "harness/scenario/fsops.h"
#include "harness/states/findings.h"

/* NIGHTLY/runs/<cell>/<id>/<release>/<run> of nightly over several kernels is 5 deep; the
 * rest for such a tree kept under a few directories of its own. */
#define MAX_DEPTH 8

/* One op of a run's workload, as blackout-fsops lists it. */
struct op {
	char type[24];
	char workload[32]; /* "seq1-00057", or "" */
	bool setup;	   /* of the workload's setup */
};

/* A workload of a bounded run: its name, its size and its skeleton. */
struct workload {
	char name[32];
	uint64_t nops;
	char skeleton[160];
};

/* Run directories: a results directory, or the trees of run --kernels and nightly. */
static int each_run(const char *path, int depth, int (*fn)(void *, const char *), void *ctx)
{
	char sub[PATH_MAX];
	struct dirent *e;
	struct stat st;
	DIR *d;
	int r = 0;

	if (bo_pathf(sub, sizeof(sub), "%s/summary.json", path) == 0 && lstat(sub, &st) == 0 &&
	    bo_pathf(sub, sizeof(sub), "%s/stream.jsonl", path) == 0 && lstat(sub, &st) == 0)
		return fn(ctx, path);
	if (depth == MAX_DEPTH || !(d = opendir(path)))
		return 0;
	while (r == 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.' || bo_pathf(sub, sizeof(sub), "%s/%s", path, e->d_name) < 0)
			continue;
		/* A stranger's tree: its links are not followed. */
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			r = each_run(sub, depth + 1, fn, ctx);
	}
	closedir(d);
	return r;
}

/* Whether the listing's @line (@len bytes) is of a workload's setup: a word "setup". */
static bool setup_op(const char *line, size_t len)
{
	for (const char *p = line; (p = memmem(p, len - (size_t) (p - line), " setup", 6)); p += 6)
		if (p + 6 == line + len || p[6] == ' ')
			return true;
	return false;
}

/* The ops of @sc (run @dir's) as blackout-fsops lists them, by id (index 0 unused), into
 * *@ret; none, after telling @f's report why, when they cannot be listed. */
static size_t list_ops(struct bo_sigset *f, const struct bo_scenario *sc, struct op **ret,
		       const char *dir)
{
	_cleanup_free_ char *text = NULL;
	struct bo_err err = {0};
	struct op *v = NULL;
	size_t n = 0, lines = 1;

	*ret = NULL;
	if (!sc || !(bo_fsops_is(sc) || bo_bounded_is(sc)))
		return 0;
	if (bo_fsops_list(sc, bo_libexec_dir(), NULL, &text, &err) < 0) {
		if (f->report)
			f->report(f->rctx, dir, BO_SIG_NO_OPS, &err);
		return 0;
	}
	/* An op a line: room for all at once (a bounded listing has half a million). */
	for (const char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	if (!(v = calloc(lines + 1, sizeof(*v))))
		return 0;
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		uint64_t id = strtoull(line, NULL, 10);
		const char *w = memmem(line, len, "workload=", 9);

		if (id == n + 1 && n < lines) {
			n++;
			sscanf(line, "%*s %23s", v[n].type);
			if (w)
				sscanf(w + 9, "%31s", v[n].workload);
			v[n].setup = setup_op(line, len);
		}
		line += len + (line[len] == '\n');
	}
	*ret = v;
	return n;
}

/* The workload of op @id: its name, its number of ops (its setup's with them: on fresh
 * filesystems the setup is listed once, with the first workload, and every workload has it in
 * its base), and its ops after its setup (listed as such) as "punch, fsync-file" — or "setup"
 * when op @id is of the setup, whose states are cut before any op after it was issued. */
static void workload_of(const struct op *ops, size_t n, uint64_t id, struct workload *w)
{
	uint64_t first = id, last = id, setup = 0, own = 0;

	memset(w, 0, sizeof(*w));
	if (!*ops[id].workload)
		return;
	while (first > 1 && !strcmp(ops[first - 1].workload, ops[id].workload))
		first--;
	while (last < n && !strcmp(ops[last + 1].workload, ops[id].workload))
		last++;
	snprintf(w->name, sizeof(w->name), "%s", ops[id].workload);
	for (uint64_t i = 1; i <= n && ops[i].setup; i++)
		setup++;
	for (uint64_t i = first; i <= last; i++)
		own += !ops[i].setup;
	w->nops = setup + own;
	if (ops[id].setup) {
		snprintf(w->skeleton, sizeof(w->skeleton), "setup");
		return;
	}
	for (uint64_t i = first; i <= last; i++) {
		if (ops[i].setup)
			continue;
		snprintf(w->skeleton + strlen(w->skeleton),
			 sizeof(w->skeleton) - strlen(w->skeleton), "%s%s",
			 *w->skeleton ? ", " : "", ops[i].type);
	}
}

static char *field(struct json_object *o, const char *a, const char *b)
{
	const char *s = bo_json_str(json_object_object_get(o, a), b);

	return bo_sanitize(s && *s ? s : "-", true);
}

/* The signature of a finding, and its cell: what a baseline is compared by. */
static char *sig_key(const char *fs, const char *opts, const char *kernel, const char *cls,
		     const char *promise, const char *skel)
{
	char *key;

	return asprintf(&key, "%s|%s|%s|%s|%s|%s", fs, opts, kernel, cls, promise, skel) < 0 ? NULL
											     : key;
}

static char *cell_key(const char *fs, const char *opts, const char *kernel)
{
	char *key;

	return asprintf(&key, "%s|%s|%s", fs, opts, kernel) < 0 ? NULL : key;
}

/* Note the cell of a run with @config in @f, which ran to its end (once); -ENOMEM. */
static int see_cell(struct bo_sigset *f, struct json_object *config)
{
	_cleanup_free_ char *fs = field(config, "device", "fs"),
			    *mkfs = field(config, "device", "mkfs_options"),
			    *mount = field(config, "device", "mount_options"),
			    *kernel = field(config, "kernel", "release"), *opts = NULL;
	char *key, **more;

	if (!fs || !mkfs || !mount || !kernel || asprintf(&opts, "%s / %s", mkfs, mount) < 0 ||
	    !(key = cell_key(fs, opts, kernel)))
		return -ENOMEM;
	if (bo_strmap_get(&f->ran, key, NULL)) {
		free(key);
		return 0;
	}
	if (!(more = reallocarray(f->cells, f->ncells + 1, sizeof(*more)))) {
		free(key);
		return -ENOMEM;
	}
	f->cells = more;
	f->cells[f->ncells++] = key;
	return bo_strmap_put(&f->ran, key, f->ncells - 1, NULL) < 0 ? -ENOMEM : 0;
}

/* Note workload @name in @x's set; -ENOMEM. */
static int see_workload(struct bo_sig *x, const char *name)
{
	char **more;

	if (bo_strmap_get(&x->seen_at, name, NULL))
		return 0;
	if (x->workloads == x->seen_cap) {
		more = reallocarray(x->seen, x->seen_cap ? 2 * x->seen_cap : 16, sizeof(*x->seen));
		if (!more)
			return -ENOMEM;
		x->seen = more;
		x->seen_cap = x->seen_cap ? 2 * x->seen_cap : 16;
	}
	if (!(x->seen[x->workloads] = strdup(name)))
		return -ENOMEM;
	x->workloads++;
	return bo_strmap_put(&x->seen_at, x->seen[x->workloads - 1], 0, NULL) < 0 ? -ENOMEM : 0;
}

static void finding_clear(struct bo_sig *x)
{
	free(x->key);
	free(x->cell);
	free(x->fs);
	free(x->opts);
	free(x->kernel);
	free(x->cls);
	free(x->promise);
	free(x->skeleton);
	free(x->dir);
	free(x->state);
	for (uint64_t i = 0; i < x->workloads; i++)
		free(x->seen[i]);
	free(x->seen);
	bo_strmap_clear(&x->seen_at);
}

void bo_sigset_clear(struct bo_sigset *f)
{
	for (size_t i = 0; i < f->n; i++)
		finding_clear(&f->v[i]);
	free(f->v);
	bo_strmap_clear(&f->index);
	for (size_t i = 0; i < f->ncells; i++)
		free(f->cells[i]);
	free(f->cells);
	bo_strmap_clear(&f->ran);
	*f = (struct bo_sigset){0};
}

/* The finding of signature (@fs, @opts, @kernel, @cls, @promise, @skel) in @f, made (with
 * @dir and @state to look at first, the strings copied) when it is new; NULL without memory. */
static struct bo_sig *intern(struct bo_sigset *f, const char *fs, const char *opts,
			     const char *kernel, const char *cls, const char *promise,
			     const char *skel, const char *dir, const char *state)
{
	_cleanup_free_ char *key = sig_key(fs, opts, kernel, cls, promise, skel);
	struct bo_sig *more, nf;
	size_t at;

	if (!key)
		return NULL;
	if (bo_strmap_get(&f->index, key, &at))
		return &f->v[at];
	if (f->n == f->cap) {
		if (!(more = reallocarray(f->v, f->cap ? 2 * f->cap : 64, sizeof(*f->v))))
			return NULL;
		f->v = more;
		f->cap = f->cap ? 2 * f->cap : 64;
	}
	nf = (struct bo_sig){.fs = strdup(fs),
			     .opts = strdup(opts),
			     .kernel = strdup(kernel),
			     .cls = strdup(cls),
			     .promise = strdup(promise),
			     .skeleton = strdup(skel),
			     .dir = strdup(dir),
			     .state = strdup(state),
			     .cell = cell_key(fs, opts, kernel)};
	/* Complete, or not at all: every field is printed. */
	if (!nf.fs || !nf.opts || !nf.kernel || !nf.cls || !nf.promise || !nf.skeleton || !nf.dir ||
	    !nf.state || !nf.cell || bo_strmap_put(&f->index, key, f->n, NULL) < 0) {
		finding_clear(&nf);
		return NULL;
	}
	nf.key = BO_TAKE_PTR(key);
	f->v[f->n] = nf;
	return &f->v[f->n++];
}

/* Count state record @index (named @state) of @dir under the signature of its class,
 * @promise and @w. */
static int add(struct bo_sigset *f, struct json_object *config, const char *dir, size_t index,
	       const char *state, const char *cls, const char *promise, const struct workload *w)
{
	_cleanup_free_ char *fs = field(config, "device", "fs"),
			    *mkfs = field(config, "device", "mkfs_options"),
			    *mount = field(config, "device", "mount_options"),
			    *kernel = field(config, "kernel", "release"), *opts = NULL,
			    *c = bo_sanitize(cls, true), *d = bo_sanitize(dir, true),
			    *st = bo_sanitize(state, true);
	const char *skel = *w->skeleton ? w->skeleton : "-";
	struct bo_sig *x;
	uint64_t before;

	if (!fs || !mkfs || !mount || !kernel || !c || !d || !st ||
	    asprintf(&opts, "%s / %s", mkfs, mount) < 0)
		return -ENOMEM;
	before = f->n;
	if (!(x = intern(f, fs, opts, kernel, c, promise, skel, d, st)))
		return -ENOMEM;
	if (f->n > before) {
		x->smallest_ops = w->nops;
		snprintf(x->smallest, sizeof(x->smallest), "%s", w->name);
	} else if (*w->name && (w->nops < x->smallest_ops ||
				(w->nops == x->smallest_ops && strcmp(w->name, x->smallest) < 0))) {
		free(x->dir);
		free(x->state);
		x->dir = BO_TAKE_PTR(d);
		x->state = BO_TAKE_PTR(st);
		x->smallest_ops = w->nops;
		snprintf(x->smallest, sizeof(x->smallest), "%s", w->name);
	}
	if (x->last_run != f->run || x->last_state != index + 1) {
		x->states++;
		x->last_run = f->run;
		x->last_state = index + 1;
	}
	return *w->name ? see_workload(x, w->name) : 0;
}

/* The failing states of run directory @dir, each under its signatures. */
static int read_run(void *ctx, const char *dir)
{
	struct bo_sigset *f = ctx;
	struct bo_diary d;
	struct bo_err err = {0};
	struct op *ops = NULL;
	const char *verdict;
	size_t nops = 0;
	bool listed = false;
	int r = bo_diary_load(&d, dir, &err);

	f->run++;
	if (r < 0) {
		if (f->report)
			f->report(f->rctx, dir, BO_SIG_UNREADABLE, &err);
		bo_diary_clear(&d);
		f->failed = true;
		return 0;
	}
	/* A run that errored may have stopped before the states a baseline found: its cell did
	 * not run to its end. */
	verdict = bo_json_str(d.summary, "verdict");
	r = verdict && !strcmp(verdict, "error") ? 0 : see_cell(f, d.config);
	for (size_t i = 0; r == 0 && i < json_object_array_length(d.states); i++) {
		struct json_object *s = json_object_array_get_idx(d.states, i);
		const char *cls = bo_json_str(s, "class"), *id = bo_json_str(s, "state");
		struct workload none = {0};
		bool about_ops = false;

		if (!cls || !id || !strcmp(cls, "consistent"))
			continue;
		for (int k = 0; r == 0 && k < BO_FINDING_COUNT; k++) {
			struct json_object *ids = json_object_object_get(s, bo_finding_key(k));

			for (size_t j = 0; r == 0 && json_object_is_type(ids, json_type_array) &&
					   j < json_object_array_length(ids);
			     j++) {
				uint64_t op =
					json_object_get_uint64(json_object_array_get_idx(ids, j));
				struct workload w = {0};

				/* The ops are listed once, and only for a run that lost some. */
				if (!listed) {
					listed = true;
					nops = list_ops(f, d.sc, &ops, dir);
				}

				if (op >= 1 && op <= nops)
					workload_of(ops, nops, op, &w);
				r = add(f, d.config, dir, i, id, bo_finding_name(k),
					op >= 1 && op <= nops ? ops[op].type : "op", &w);
				about_ops = true;
			}
		}
		/* Not about an op: unmountable, fsck-dirty, a checker error. */
		if (r == 0 && !about_ops)
			r = add(f, d.config, dir, i, id, cls, "-", &none);
	}
	free(ops);
	bo_diary_clear(&d);
	f->read += r == 0;
	return r;
}

/* A string member @k of baseline finding @o, sanitized into *@ret; -EINVAL when it is not
 * one, -ENOMEM. */
static int member(struct json_object *o, const char *k, char **ret)
{
	struct json_object *v = json_object_object_get(o, k);

	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	*ret = bo_sanitize(json_object_get_string(v), true);
	return *ret ? 0 : -ENOMEM;
}

/* The findings `findings --json` wrote to @path, into @base. */
static int read_findings_json(const char *path, struct bo_sigset *base, struct bo_err *err)
{
	_cleanup_(bo_json_putp) struct json_object *doc = NULL;
	_cleanup_free_ char *text = NULL;
	struct json_object *a;
	size_t len = 0;
	int r = bo_input_read_path(path, BO_INPUT_FOLLOW, BO_INPUT_MAX_JSON, &text, &len, err);

	if (r < 0)
		return r;
	r = bo_json_parse(text, len, path, 1, &doc, err);
	if (r == -EBADMSG)
		return bo_err_prefix(err, "neither a results directory nor what findings --json "
					  "writes");
	if (r < 0)
		return r;
	if (!json_object_is_type(a = json_object_object_get(doc, "findings"), json_type_array))
		return bo_err_set(err, EINVAL,
				  "'%s' is neither a results directory nor what findings "
				  "--json writes (no \"findings\" array)",
				  path);
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		_cleanup_free_ char *fs = NULL, *opts = NULL, *kernel = NULL, *cls = NULL,
				    *promise = NULL, *skel = NULL;
		struct json_object *n = json_object_object_get(o, "states");
		struct bo_sig *x;

		if ((r = member(o, "fs", &fs)) < 0 || (r = member(o, "options", &opts)) < 0 ||
		    (r = member(o, "kernel", &kernel)) < 0 || (r = member(o, "class", &cls)) < 0 ||
		    (r = member(o, "promise", &promise)) < 0 ||
		    (r = member(o, "skeleton", &skel)) < 0 ||
		    !json_object_is_type(n, json_type_int))
			return r == -ENOMEM
				       ? bo_err_set(err, ENOMEM, "out of memory")
				       : bo_err_set(err, EINVAL,
						    "%s: finding %zu lacks fs, options, kernel, "
						    "class, promise, skeleton or states",
						    path, i + 1);
		if (!(x = intern(base, fs, opts, kernel, cls, promise, skel, "-", "-")))
			return bo_err_set(err, ENOMEM, "out of memory");
		x->states += json_object_get_uint64(n);
	}
	return 0;
}

int bo_sigset_search(struct bo_sigset *f, const char *path, struct bo_err *err)
{
	uint64_t before = f->run;
	int r = each_run(path, 0, read_run, f);

	if (r < 0)
		return bo_err_set(err, -r, "'%s': out of memory", path);
	if (f->run == before)
		return bo_err_set(err, ENOENT,
				  "'%s' holds no results directory (summary.json and stream.jsonl, "
				  "searched %d levels deep, links not followed)",
				  path, MAX_DEPTH);
	return 0;
}

int bo_sigset_read_baseline(struct bo_sigset *base, const char *path, struct bo_err *err)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return bo_sigset_search(base, path, err) < 0 ? bo_err_prefix(err, "baseline") : 0;
	return read_findings_json(path, base, err);
}

ssize_t bo_sigset_compare(struct bo_sigset *cur, struct bo_sigset *base)
{
	_cleanup_free_ struct bo_cmp_entry *c = calloc(cur->n + 1, sizeof(*c));
	_cleanup_free_ struct bo_cmp_entry *b = calloc(base->n + 1, sizeof(*b));
	ssize_t added = 0;

	if (!c || !b)
		return -ENOMEM;
	for (size_t i = 0; i < cur->n; i++)
		c[i] = (struct bo_cmp_entry){.key = cur->v[i].key, .cell = cur->v[i].cell};
	for (size_t j = 0; j < base->n; j++)
		b[j] = (struct bo_cmp_entry){.key = base->v[j].key, .cell = base->v[j].cell};
	if (bo_compare(b, base->n, c, cur->n, &cur->ran) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < cur->n; i++) {
		cur->v[i].status = bo_cmp_status_name(c[i].status);
		added += c[i].status == BO_CMP_NEW;
	}
	for (size_t j = 0; j < base->n; j++)
		base->v[j].status = b[j].status == BO_CMP_FIXED || b[j].status == BO_CMP_NOT_RUN
					    ? bo_cmp_status_name(b[j].status)
					    : NULL;
	return added;
}

static int by_states(const void *a, const void *b)
{
	const struct bo_sig *x = a, *y = b;

	return x->states != y->states ? (x->states < y->states ? 1 : -1) : strcmp(x->key, y->key);
}

void bo_sigset_sort(struct bo_sigset *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), by_states);
}
