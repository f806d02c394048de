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

#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/cli/cli.h"
#include "harness/diagnose/diary.h"
#include "harness/scenario/fsops.h"
#include "harness/states/findings.h"

#define MAX_DEPTH 4 /* DIR/<id>/<release>/<run> of run --kernels, and one more */

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
	char *key; /* the signature, as printed */
	char *fs, *opts, *kernel, *cls, *promise, *skeleton;
	uint64_t states;
	uint64_t workloads;	       /* distinct ones seen */
	char (*seen)[32];	       /* their names */
	uint64_t last_run, last_state; /* to count a state once: the run and record counted last */
	char smallest[32];	       /* the workload with fewest ops, or "" */
	uint64_t smallest_ops;
	char *dir, *state; /* where to look first: the smallest's first state */
};

struct findings {
	struct finding *v;
	size_t n;
	bool failed;  /* a directory could not be read */
	uint64_t run; /* the run being read, counted from 1 */
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
	size_t n = 0;

	*ret = NULL;
	if (!sc || !(bo_fsops_is(sc) || bo_bounded_is(sc)))
		return 0;
	if (bo_fsops_list(sc, bo_libexec_dir(), NULL, &text, &err) < 0) {
		fprintf(stderr,
			"blackout findings: %s: its ops are not known (%s): grouped as 'op'\n", dir,
			bo_err_str(&err));
		return 0;
	}
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		uint64_t id = strtoull(line, NULL, 10);
		const char *w = memmem(line, len, "workload=", 9);
		struct op *more;

		if (id == n + 1 && (more = reallocarray(v, n + 2, sizeof(*v)))) {
			v = more;
			memset(&v[++n], 0, sizeof(*v));
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

	return strdup(s && *s ? s : "-");
}

/* Note workload @name in @x's set; -ENOMEM. */
static int see_workload(struct finding *x, const char *name)
{
	char(*more)[32];

	for (uint64_t i = 0; i < x->workloads; i++)
		if (!strcmp(x->seen[i], name))
			return 0;
	more = reallocarray(x->seen, x->workloads + 1, sizeof(*x->seen));
	if (!more)
		return -ENOMEM;
	x->seen = more;
	snprintf(x->seen[x->workloads++], sizeof(*x->seen), "%s", name);
	return 0;
}

/* Count state record @index (named @state) of @dir under the signature of its class,
 * @promise and @w. */
static int add(struct findings *f, struct json_object *config, const char *dir, size_t index,
	       const char *state, const char *cls, const char *promise, const struct workload *w)
{
	_cleanup_free_ char *fs = field(config, "device", "fs"),
			    *mkfs = field(config, "device", "mkfs_options"),
			    *mount = field(config, "device", "mount_options"),
			    *kernel = field(config, "kernel", "release"), *opts = NULL, *key = NULL;
	const char *skel = *w->skeleton ? w->skeleton : "-";
	struct finding *x = NULL;

	if (!fs || !mkfs || !mount || !kernel || asprintf(&opts, "%s / %s", mkfs, mount) < 0 ||
	    asprintf(&key, "%s|%s|%s|%s|%s|%s", fs, opts, kernel, cls, promise, skel) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < f->n && !x; i++)
		if (!strcmp(f->v[i].key, key))
			x = &f->v[i];
	if (!x) {
		struct finding *more = reallocarray(f->v, f->n + 1, sizeof(*f->v));
		struct finding nf = {.key = key,
				     .fs = fs,
				     .opts = opts,
				     .kernel = kernel,
				     .cls = strdup(cls),
				     .promise = strdup(promise),
				     .skeleton = strdup(skel),
				     .dir = strdup(dir),
				     .state = strdup(state),
				     .smallest_ops = w->nops};

		if (more)
			f->v = more;
		/* Complete, or not at all: every field is printed. */
		if (!more || !nf.cls || !nf.promise || !nf.skeleton || !nf.dir || !nf.state) {
			free(nf.cls);
			free(nf.promise);
			free(nf.skeleton);
			free(nf.dir);
			free(nf.state);
			return -ENOMEM;
		}
		x = &f->v[f->n++];
		*x = nf;
		key = fs = opts = kernel = NULL;
		snprintf(x->smallest, sizeof(x->smallest), "%s", w->name);
	} else if (*w->name && (w->nops < x->smallest_ops ||
				(w->nops == x->smallest_ops && strcmp(w->name, x->smallest) < 0))) {
		char *d = strdup(dir), *s = strdup(state);

		if (!d || !s) {
			free(d);
			free(s);
			return -ENOMEM;
		}
		free(x->dir);
		free(x->state);
		x->dir = d;
		x->state = s;
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
	size_t nops = 0;
	bool listed = false;
	int r = bo_diary_load(&d, dir, &err);

	f->run++;
	if (r < 0) {
		fprintf(stderr, "blackout findings: %s\n", bo_err_str(&err));
		bo_diary_clear(&d);
		f->failed = true;
		return 0;
	}
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
	return r;
}

static int by_states(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;

	return x->states != y->states ? (x->states < y->states ? 1 : -1) : strcmp(x->key, y->key);
}

static void print_text(const struct findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct finding *x = &f->v[i];

		printf("finding %zu: %s of %s%s%s%s — %s (%s) on %s\n", i + 1, x->cls, x->promise,
		       strcmp(x->skeleton, "-") ? " after [" : "",
		       strcmp(x->skeleton, "-") ? x->skeleton : "",
		       strcmp(x->skeleton, "-") ? "]" : "", x->fs, x->opts, x->kernel);
		printf("  %" PRIu64 " %s", x->states, BO_PLURAL(x->states, "state", "states"));
		if (x->workloads)
			printf(", %" PRIu64 " %s; smallest %s (%" PRIu64 " ops)", x->workloads,
			       BO_PLURAL(x->workloads, "workload", "workloads"), x->smallest,
			       x->smallest_ops);
		printf("\n  blackout explain %s %s\n", x->dir, x->state);
	}
	if (!f->n)
		puts("no findings: every state checked is consistent");
}

static void print_json(const struct findings *f)
{
	_cleanup_(bo_json_putp) struct json_object *doc = bo_json_new_doc();
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; doc && a && i < f->n; i++) {
		const struct finding *x = &f->v[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "fs", json_object_new_string(x->fs));
		json_object_object_add(o, "options", json_object_new_string(x->opts));
		json_object_object_add(o, "kernel", json_object_new_string(x->kernel));
		json_object_object_add(o, "class", json_object_new_string(x->cls));
		json_object_object_add(o, "promise", json_object_new_string(x->promise));
		json_object_object_add(o, "skeleton", json_object_new_string(x->skeleton));
		json_object_object_add(o, "states", json_object_new_uint64(x->states));
		json_object_object_add(o, "workloads", json_object_new_uint64(x->workloads));
		if (*x->smallest)
			json_object_object_add(o, "smallest", json_object_new_string(x->smallest));
		json_object_object_add(o, "results", json_object_new_string(x->dir));
		json_object_object_add(o, "state", json_object_new_string(x->state));
		json_object_array_add(a, o);
	}
	if (!doc || !a)
		return;
	json_object_object_add(doc, "findings", a);
	puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							 JSON_C_TO_STRING_NOSLASHESCAPE));
}

static void help(void)
{
	puts("usage: blackout findings [--json] RESULTS...\n\n"
	     "Group the failing states of results directories (a run's, or the trees of a run\n"
	     "on several kernels and of nightly, searched for them) into findings by signature:\n"
	     "filesystem, mkfs and mount options, kernel, class, the broken promise (the kind of\n"
	     "op lost or invented) and, for builtin bounded, the workload's ops after its setup.\n"
	     "Each is printed with its count of states and workloads, its smallest workload, and\n"
	     "the state to explain first. Exit status 0 without findings, 1 with, 3 when a\n"
	     "directory could not be read. docs/results.md.");
}

static int cmd_findings(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	struct findings f = {0};
	bool json = false;
	int c, r = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			help();
			return BO_EXIT_OK;
		}
		if (c != 'j')
			return bo_cli_usage_error("findings", "bad option");
		json = true;
	}
	if (optind >= argc)
		return bo_cli_usage_error("findings", "expected RESULTS...");
	for (int i = optind; i < argc && r == 0; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0 || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "blackout findings: '%s' is not a results directory\n",
				argv[i]);
			f.failed = true;
			continue;
		}
		r = each_run(argv[i], 0, read_run, &f);
	}
	if (r < 0) {
		fputs("blackout findings: out of memory\n", stderr);
		f.failed = true;
	}
	if (f.n)
		qsort(f.v, f.n, sizeof(*f.v), by_states);
	if (json)
		print_json(&f);
	else
		print_text(&f);
	r = f.failed ? BO_EXIT_HARNESS : f.n ? BO_EXIT_FAILURE : BO_EXIT_OK;
	for (size_t i = 0; i < f.n; i++) {
		struct finding *x = &f.v[i];

		free(x->key);
		free(x->fs);
		free(x->opts);
		free(x->kernel);
		free(x->cls);
		free(x->promise);
		free(x->skeleton);
		free(x->dir);
		free(x->state);
		free(x->seen);
	}
	free(f.v);
	return r;
}

const struct bo_cmd bo_cmd_findings = {"findings", cmd_findings,
				       "group failing states into findings by signature"};
