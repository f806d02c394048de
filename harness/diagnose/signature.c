// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout findings — the failing states of one or more results directories grouped into
 * findings by signature: filesystem, mkfs and mount options, kernel, class, the broken promise
 * (the kind of op whose ack was lost, or that appeared unissued) and the op skeleton (for
 * builtin bounded, the ops of the workload after its setup). Ten thousand failing states of
 * one bug are one finding: each is printed with its count, the number of workloads it is
 * seen in, and its smallest workload first, with the state to explain.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/base/strmap.h"
#include "harness/cli/cli.h"
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
};

/* A workload of a bounded run: its name, its size and its skeleton. */
struct workload {
	char name[32];
	uint64_t nops;
	char skeleton[160];
};

struct finding {
	char *key;  /* the signature, as printed */
	char *cell; /* its cell: filesystem, options and kernel (cell_key()) */
	char *fs, *opts, *kernel, *cls, *promise, *skeleton;
	uint64_t states;
	uint64_t workloads; /* distinct ones seen */
	char **seen;	    /* their names (room for seen_cap), */
	size_t seen_cap;
	struct bo_strmap seen_at;      /* ... found by name */
	uint64_t last_run, last_state; /* to count a state once: the run and record counted last */
	char smallest[32];	       /* the workload with fewest ops, or "" */
	uint64_t smallest_ops;
	char *dir, *state;  /* where to look first: the smallest's first state */
	const char *status; /* against a baseline: "new", "unchanged", "fixed" or "not run" */
};

/* Every string of a finding was written by a guest or a stranger: each is kept sanitized
 * (bo_sanitize()), so that the text and JSON printed hold no control character. */
struct findings {
	struct finding *v;
	size_t n, cap;
	struct bo_strmap index; /* v by signature, until v is sorted */
	/* The cells (cell_key()) of the runs read that ran to their end, failing or not: a
	 * finding of a baseline gone from one is fixed, from any other cell not run. */
	char **cells;
	size_t ncells;
	struct bo_strmap ran;
	bool failed;   /* a directory could not be read */
	uint64_t run;  /* the run being read, counted from 1 */
	uint64_t read; /* the runs read whole */
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

/* The ops of @sc (run @dir's) as blackout-fsops lists them, by id (index 0 unused), into
 * *@ret; none, after saying why, when they cannot be listed. */
static size_t list_ops(const struct bo_scenario *sc, struct op **ret, const char *dir)
{
	_cleanup_free_ char *text = NULL;
	struct bo_err err = {0};
	struct op *v = NULL;
	size_t n = 0, lines = 1;

	*ret = NULL;
	if (!sc || !(bo_fsops_is(sc) || bo_bounded_is(sc)))
		return 0;
	if (bo_fsops_list(sc, bo_libexec_dir(), NULL, &text, &err) < 0) {
		bo_cli_warning("findings: %s: its ops are not known (%s): grouped as 'op'", dir,
			       bo_err_str(&err));
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
		}
		line += len + (line[len] == '\n');
	}
	*ret = v;
	return n;
}

/* The workload of op @id: its name, its number of ops, and its ops after the setup (the
 * first ack) as "punch, fsync-file". */
static void workload_of(const struct op *ops, size_t n, uint64_t id, struct workload *w)
{
	uint64_t first = id, last = id;
	bool setup = true;

	memset(w, 0, sizeof(*w));
	if (!*ops[id].workload)
		return;
	while (first > 1 && !strcmp(ops[first - 1].workload, ops[id].workload))
		first--;
	while (last < n && !strcmp(ops[last + 1].workload, ops[id].workload))
		last++;
	snprintf(w->name, sizeof(w->name), "%s", ops[id].workload);
	w->nops = last - first + 1;
	for (uint64_t i = first; i <= last; i++) {
		if (setup) {
			/* The setup ends with its syncfs: the workload's first acknowledged op. */
			setup = strcmp(ops[i].type, "sync") != 0;
			continue;
		}
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
static int see_cell(struct findings *f, struct json_object *config)
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
static int see_workload(struct finding *x, const char *name)
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

static void finding_clear(struct finding *x)
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

static void findings_clear(struct findings *f)
{
	for (size_t i = 0; i < f->n; i++)
		finding_clear(&f->v[i]);
	free(f->v);
	bo_strmap_clear(&f->index);
	for (size_t i = 0; i < f->ncells; i++)
		free(f->cells[i]);
	free(f->cells);
	bo_strmap_clear(&f->ran);
	*f = (struct findings){0};
}

/* The finding of signature (@fs, @opts, @kernel, @cls, @promise, @skel) in @f, made (with
 * @dir and @state to look at first, the strings copied) when it is new; NULL without memory. */
static struct finding *intern(struct findings *f, const char *fs, const char *opts,
			      const char *kernel, const char *cls, const char *promise,
			      const char *skel, const char *dir, const char *state)
{
	_cleanup_free_ char *key = sig_key(fs, opts, kernel, cls, promise, skel);
	struct finding *more, nf;
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
	nf = (struct finding){.fs = strdup(fs),
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
static int add(struct findings *f, struct json_object *config, const char *dir, size_t index,
	       const char *state, const char *cls, const char *promise, const struct workload *w)
{
	_cleanup_free_ char *fs = field(config, "device", "fs"),
			    *mkfs = field(config, "device", "mkfs_options"),
			    *mount = field(config, "device", "mount_options"),
			    *kernel = field(config, "kernel", "release"), *opts = NULL,
			    *c = bo_sanitize(cls, true), *d = bo_sanitize(dir, true),
			    *st = bo_sanitize(state, true);
	const char *skel = *w->skeleton ? w->skeleton : "-";
	struct finding *x;
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
	struct findings *f = ctx;
	struct bo_diary d;
	struct bo_err err = {0};
	struct op *ops = NULL;
	const char *verdict;
	size_t nops = 0;
	bool listed = false;
	int r = bo_diary_load(&d, dir, &err);

	f->run++;
	if (r < 0) {
		bo_cli_error("findings: %s", bo_err_str(&err));
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
					nops = list_ops(d.sc, &ops, dir);
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
static int read_findings_json(const char *path, struct findings *base, struct bo_err *err)
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
		struct finding *x;

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

/* The runs under @path into @f; -ENOENT (@err says what) when it holds none: a tree in which
 * nothing was read has no findings, but "every state is consistent" would be a lie. */
static int search(const char *path, struct findings *f, struct bo_err *err)
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

/* The findings of baseline @path (a tree of runs, or a file `findings --json` wrote) into
 * @base; a run of a tree that cannot be read marks @base failed. */
static int read_baseline(const char *path, struct findings *base, struct bo_err *err)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return search(path, base, err) < 0 ? bo_err_prefix(err, "baseline") : 0;
	return read_findings_json(path, base, err);
}

/*
 * Mark each finding of @cur "new" or "unchanged" by its signature in @base, and each of
 * @base that @cur lacks "fixed" when @cur ran its cell (filesystem, options, kernel) to its
 * end, else "not run": a cell not checked tonight fixed nothing (harness/diagnose/compare.h).
 * The number of new findings, or -ENOMEM.
 */
static ssize_t compare(struct findings *cur, struct findings *base)
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
	const struct finding *x = a, *y = b;

	return x->states != y->states ? (x->states < y->states ? 1 : -1) : strcmp(x->key, y->key);
}

/* "lost-ack of fsync-file after [write, fsync-file] — ext4 (- / -) on 6.1.0-57-amd64" */
static void print_signature(const struct finding *x)
{
	bool skel = strcmp(x->skeleton, "-") != 0;

	printf("%s of %s%s%s%s — %s (%s) on %s", x->cls, x->promise, skel ? " after [" : "",
	       skel ? x->skeleton : "", skel ? "]" : "", x->fs, x->opts, x->kernel);
}

static void print_text(const struct findings *f, const struct findings *base, const char *baseline)
{
	size_t counts[4] = {0};

	for (size_t i = 0; i < f->n; i++) {
		const struct finding *x = &f->v[i];
		_cleanup_free_ char *dir = bo_shell_quote(x->dir),
				    *state = bo_shell_quote(x->state);

		printf("finding %zu%s%s%s: ", i + 1, x->status ? " (" : "",
		       x->status ? x->status : "", x->status ? ")" : "");
		print_signature(x);
		printf("\n  %" PRIu64 " %s", x->states, BO_PLURAL(x->states, "state", "states"));
		if (x->workloads)
			printf(", %" PRIu64 " %s; smallest %s (%" PRIu64 " ops)", x->workloads,
			       BO_PLURAL(x->workloads, "workload", "workloads"), x->smallest,
			       x->smallest_ops);
		printf("\n  blackout explain %s %s\n", dir ? dir : x->dir,
		       state ? state : x->state);
		counts[!strcmp(x->status ? x->status : "", "new") ? 0 : 1]++;
	}
	if (!f->n && f->read)
		printf("no findings: every state of %" PRIu64 " %s read is consistent\n", f->read,
		       BO_PLURAL(f->read, "run", "runs"));
	if (!baseline)
		return;
	for (size_t j = 0; j < base->n; j++) {
		const struct finding *x = &base->v[j];

		if (!x->status)
			continue;
		printf("%s: ", x->status);
		print_signature(x);
		printf("\n  %" PRIu64 " %s in the baseline\n", x->states,
		       BO_PLURAL(x->states, "state", "states"));
		counts[!strcmp(x->status, "fixed") ? 2 : 3]++;
	}
	printf("against %s: %zu new, %zu unchanged, %zu fixed, %zu not run\n", baseline, counts[0],
	       counts[1], counts[2], counts[3]);
}

static struct json_object *finding_json(const struct finding *x, bool here)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "fs", json_object_new_string(x->fs));
	json_object_object_add(o, "options", json_object_new_string(x->opts));
	json_object_object_add(o, "kernel", json_object_new_string(x->kernel));
	json_object_object_add(o, "class", json_object_new_string(x->cls));
	json_object_object_add(o, "promise", json_object_new_string(x->promise));
	json_object_object_add(o, "skeleton", json_object_new_string(x->skeleton));
	json_object_object_add(o, "states", json_object_new_uint64(x->states));
	if (x->status)
		json_object_object_add(o, "status", json_object_new_string(x->status));
	if (!here)
		return o;
	json_object_object_add(o, "workloads", json_object_new_uint64(x->workloads));
	if (*x->smallest)
		json_object_object_add(o, "smallest", json_object_new_string(x->smallest));
	json_object_object_add(o, "results", json_object_new_string(x->dir));
	json_object_object_add(o, "state", json_object_new_string(x->state));
	return o;
}

static void print_json(const struct findings *f, const struct findings *base, const char *baseline)
{
	_cleanup_(bo_json_putp) struct json_object *doc = bo_json_new_doc();
	struct json_object *a = json_object_new_array(), *gone = json_object_new_array();

	for (size_t i = 0; doc && a && i < f->n; i++)
		json_object_array_add(a, finding_json(&f->v[i], true));
	for (size_t j = 0; baseline && doc && gone && j < base->n; j++)
		if (base->v[j].status)
			json_object_array_add(gone, finding_json(&base->v[j], false));
	if (!doc || !a || !gone) {
		json_object_put(a);
		json_object_put(gone);
		return;
	}
	json_object_object_add(doc, "findings", a);
	if (baseline) {
		json_object_object_add(doc, "baseline", json_object_new_string(baseline));
		json_object_object_add(doc, "gone", gone);
	} else {
		json_object_put(gone);
	}
	puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							 JSON_C_TO_STRING_NOSLASHESCAPE));
}

static void help(void)
{
	puts("usage: blackout findings [--json] [--baseline PREVIOUS] RESULTS...\n\n"
	     "Group the failing states of results directories (a run's, or the trees of a run\n"
	     "on several kernels and of nightly, searched for them) into findings by signature:\n"
	     "filesystem, mkfs and mount options, kernel, class, the broken promise (the kind of\n"
	     "op lost or invented) and, for builtin bounded, the workload's ops after its setup.\n"
	     "Each is printed with its count of states and workloads, its smallest workload, and\n"
	     "the state to explain first. With --baseline (a previous tree, or what findings\n"
	     "--json wrote), each is new or unchanged, and the baseline's others fixed (their\n"
	     "cell was run) or not run. Exit status 0 without findings (with --baseline: without\n"
	     "new ones), 1 with, 3 when a directory could not be read. docs/results.md.");
}

static int cmd_findings(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"baseline", required_argument, NULL, 'b'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	struct findings f = {0}, base = {0};
	const char *baseline = NULL;
	struct bo_err err = {0};
	ssize_t added = 0;
	bool json = false;
	int c, r = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			help();
			return BO_EXIT_OK;
		}
		if (c == 'b')
			baseline = optarg;
		else if (c == 'j')
			json = true;
		else
			return bo_cli_usage_error("findings", "bad option");
	}
	if (optind >= argc)
		return bo_cli_usage_error("findings", "expected RESULTS...");
	if (baseline && read_baseline(baseline, &base, &err) < 0) {
		bo_cli_error("findings: %s", bo_err_str(&err));
		findings_clear(&base);
		return BO_EXIT_HARNESS;
	}
	for (int i = optind; i < argc && r == 0; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0 || !S_ISDIR(st.st_mode)) {
			bo_cli_error("findings: '%s' is not a results directory", argv[i]);
			f.failed = true;
			continue;
		}
		if ((r = search(argv[i], &f, &err)) < 0) {
			bo_cli_error("findings: %s", bo_err_str(&err));
			f.failed = true;
			r = r == -ENOENT ? 0 : r;
		}
	}
	if (f.n)
		qsort(f.v, f.n, sizeof(*f.v), by_states);
	if (base.n)
		qsort(base.v, base.n, sizeof(*base.v), by_states);
	if (baseline && (added = compare(&f, &base)) < 0) {
		bo_cli_error("findings: out of memory");
		findings_clear(&f);
		findings_clear(&base);
		return BO_EXIT_HARNESS;
	}
	if (json)
		print_json(&f, &base, baseline);
	else
		print_text(&f, &base, baseline);
	r = f.failed || base.failed		 ? BO_EXIT_HARNESS
	    : (baseline ? added != 0 : f.n != 0) ? BO_EXIT_FAILURE
						 : BO_EXIT_OK;
	findings_clear(&f);
	findings_clear(&base);
	return r;
}

const struct bo_cmd bo_cmd_findings = {"findings", cmd_findings,
				       "group failing states into findings by signature"};
