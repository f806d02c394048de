// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout nightly — run a matrix of scenarios x filesystems x mount options (x kernels x device
 * personas), one results tree with every run's results directory and a combined summary.json
 * and index.html, and, against a previous tree, the failures that are new, fixed or unchanged.
 * docs/nightly.md. The matrix is read by harness/scenario/matrix.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "harness/diagnose/baseline.h"
#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/dev/fs.h"
#include "harness/base/json.h"
#include "harness/base/path.h"
#include "harness/base/proc.h"
#include "harness/base/safety.h"
#include "harness/cli/cli.h"
#include "harness/cli/guest.h"
#include "harness/cli/vmrun.h"
#include "harness/results/differential.h"
#include "harness/results/report.h"
#include "harness/results/summary.h"
#include "harness/scenario/ini.h"
#include "harness/scenario/matrix.h"
#include "harness/scenario/scenario.h"

/* One cell of the matrix. */
struct cell {
	char name[256];		  /* scenario@fs[+options]: its directory under runs/ */
	char scen_path[PATH_MAX]; /* the scenario file run */
	char scen_name[128];
	char fs[16], mopts[256];
	char kernel[BO_MATRIX_KERNEL_MAX]; /* the kernels axis' value, "" without one */
	char persona[32];		   /* the personas axis' value, "" without one */
	char results[PATH_MAX];		   /* relative to the tree */
	int status;
};

/* Letters, digits and ._-@+=,~ stay; anything else becomes '_'. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._-@+=,~", *s)))
			*s = '_';
}

/* Write the text of @sc, with fs, mount_options and persona of @c, to c->scen_path. */
static int write_override(const struct cell *c, const struct bo_scenario *sc, struct bo_err *err)
{
	const char *const sets[][3] = {
		{"scenario", "name", c->scen_name},
		{"device", "fs", c->fs},
		{"device", "mount_options", c->mopts[0] ? c->mopts : NULL},
		{"check", "persona", c->persona[0] ? c->persona : NULL},
		{NULL, NULL, NULL},
	};
	_cleanup_free_ char *text = NULL;
	_cleanup_fclose_ FILE *in = NULL, *o = NULL;
	size_t len;
	int r;

	if (bo_scenario_text(sc, &text, &len) < 0 || !(in = fmemopen(text, len, "r")))
		return bo_err_set(err, ENOMEM, "out of memory");
	if (!(o = fopen(c->scen_path, "wxe")))
		return bo_err_set(err, errno, "writing '%s': %s", c->scen_path, strerror(errno));
	r = bo_ini_override(in, o, sets);
	if (r < 0)
		return bo_err_set(err, -r, "writing '%s'", c->scen_path);
	return 0;
}

/* c->name from its axes: scenario@fs[+options][~kernel][=persona]. */
static int cell_name(struct cell *c, struct bo_err *err)
{
	int n = snprintf(c->name, sizeof(c->name), "%s@%s%s%s%s%s%s%s", c->scen_name, c->fs,
			 c->mopts[0] ? "+" : "", c->mopts, c->kernel[0] ? "~" : "", c->kernel,
			 c->persona[0] ? "=" : "", c->persona);

	sanitize(c->name);
	return n < 0 || (size_t) n >= sizeof(c->name)
		       ? bo_err_set(err, ENAMETOOLONG, "cell name too long")
		       : 0;
}

/* The scenario of cell @at (its scenario a path relative to @matrix_dir; NULL axes: the
 * scenario's own) into @c: the file itself, or a copy with fs, mount_options and persona
 * overridden (its relative paths made absolute, for the copy lives elsewhere). */
static int prepare(struct cell *c, const char *matrix_dir, const struct bo_matrix_cell *at,
		   const char *out, struct bo_err *err)
{
	const char *scen = at->scenario, *fs = at->fs, *mopt = at->options;
	struct bo_scenario *sc = NULL;
	char src[PATH_MAX];
	int n, r;

	n = scen[0] == '/' ? snprintf(src, sizeof(src), "%s", scen)
			   : snprintf(src, sizeof(src), "%s/%s", matrix_dir, scen);
	if (n < 0 || (size_t) n >= sizeof(src))
		return bo_err_set(err, ENAMETOOLONG, "scenario path too long");
	if (bo_scenario_load(src, &sc, err) < 0)
		return -EINVAL;
	snprintf(c->scen_name, sizeof(c->scen_name), "%s", sc->name);
	snprintf(c->fs, sizeof(c->fs), "%s", fs ? fs : bo_fs_name(sc->fs));
	snprintf(c->mopts, sizeof(c->mopts), "%s", mopt ? mopt : sc->mount_options);
	snprintf(c->kernel, sizeof(c->kernel), "%s", at->kernel ? at->kernel : "");
	snprintf(c->persona, sizeof(c->persona), "%s", at->persona ? at->persona : "");
	r = cell_name(c, err);
	if (r >= 0 && !fs && !mopt && !at->persona)
		snprintf(c->scen_path, sizeof(c->scen_path), "%s", src);
	else if (r >= 0 && bo_pathf(c->scen_path, sizeof(c->scen_path), "%s/scenarios/%s.ini", out,
				    c->name) < 0)
		r = bo_err_set(err, ENAMETOOLONG, "path too long");
	else if (r >= 0)
		r = write_override(c, sc, err);
	bo_scenario_free(sc);
	return r;
}

/* Every kernel the cells of @m are told to boot with the options @extra (the kernel axis or
 * --kernel-release; without either, each scenario may name its own, which each run judges)
 * can be found, and every --file exists: judged before the tree exists. */
static int judge_kernels(const struct bo_matrix *m, const struct bo_argv *extra, struct bo_err *err)
{
	struct vm_args v = {0};
	int r = 0;

	for (size_t i = 0; i + 1 < extra->n && r >= 0; i++)
		if (!strcmp(extra->v[i], "--kernel-release"))
			v.kernel_release = extra->v[++i];
		else if (!strcmp(extra->v[i], "--kernel-tree"))
			v.kernel_tree = extra->v[++i];
		else if (!strcmp(extra->v[i], "--file"))
			r = bo_opt_list_add(&v.files, extra->v[++i]) < 0
				    ? bo_err_set(err, ENOMEM, "out of memory")
				    : 0;
	for (size_t i = 0; i < extra->n; i++)
		v.in_place |= !strcmp(extra->v[i], "--in-place");
	/* Every --file, once, whatever the kernels: judged here, not by each cell's run. */
	if (r >= 0)
		r = bo_vm_args_judge_files(&v, err);
	bo_opt_list_clear(&v.files);
	for (size_t k = 0; r >= 0 && k < (m->nk ? m->nk : 1); k++) {
		if (m->nk)
			v.kernel_release = m->kernels[k];
		if (v.kernel_release || v.kernel_tree || v.in_place)
			r = bo_vm_args_judge(&v, err);
	}
	bo_vm_args_clear(&v);
	return r;
}

/* Run `blackout run` for @c into OUT/runs/NAME/, with the options @extra; its output goes
 * to run.log there. */
static int run_cell(struct cell *c, const char *out, const char *seed, const char *kernels,
		    const struct bo_argv *extra, struct bo_err *err)
{
	char parent[PATH_MAX], logp[PATH_MAX + 16];
	struct bo_argv argv = {0};
	/* A stop reaches the run as SIGTERM: it stops its VM and keeps its results. */
	struct bo_proc_opts po = {.output_path = logp, .stop_signal = SIGTERM};
	struct bo_proc_result pr = {0};
	DIR *d;
	struct dirent *de;
	int r;

	if (bo_pathf(parent, sizeof(parent), "%s/runs/%s", out, c->name) < 0)
		return bo_err_set(err, ENAMETOOLONG, "path too long");
	if (mkdir(parent, 0755) < 0)
		return bo_err_set(err, errno, "creating '%s': %s", parent, strerror(errno));
	snprintf(logp, sizeof(logp), "%s/run.log", parent);
	bo_argv_add(&argv, bo_self_exe());
	bo_argv_add(&argv, "run");
	bo_argv_add(&argv, c->scen_path);
	bo_argv_add(&argv, "--results");
	bo_argv_add(&argv, parent);
	if (seed) {
		bo_argv_add(&argv, "--seed");
		bo_argv_add(&argv, seed);
	}
	if (c->kernel[0]) {
		bo_argv_add(&argv, "--kernel-release");
		bo_argv_add(&argv, c->kernel);
	}
	if (kernels) {
		bo_argv_add(&argv, "--kernels");
		bo_argv_add(&argv, kernels);
	}
	for (size_t i = 0; i < extra->n; i++)
		bo_argv_add(&argv, extra->v[i]);
	if (argv.oom) {
		bo_argv_free(&argv);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	po.argv = argv.v;
	bo_cli_note("nightly: %s", c->name);
	fflush(stderr);
	r = bo_proc_run(&po, &pr, err);
	bo_argv_free(&argv);
	if (r < 0)
		return r;
	c->status = pr.end == BO_PROC_EXITED ? pr.status : BO_EXIT_HARNESS;
	bo_proc_result_clear(&pr);
	/* The run made exactly one directory in its own parent. */
	d = opendir(parent);
	if (!d)
		return bo_err_set(err, errno, "'%s': %s", parent, strerror(errno));
	while ((de = readdir(d)))
		if (de->d_type == DT_DIR && de->d_name[0] != '.')
			snprintf(c->results, sizeof(c->results), "runs/%s/%s", c->name, de->d_name);
	closedir(d);
	return 0;
}

/* The JSON of cell @c; its failures go to @fails too. */
static struct json_object *cell_json(struct cell *c, const char *out, struct bo_failset *fails,
				     struct bo_err *err)
{
	struct json_object *o = json_object_new_object(), *failing = json_object_new_array();
	const struct bo_cell at = {c->scen_name, c->fs, c->mopts, c->kernel, c->persona};
	char path[PATH_MAX * 2];
	size_t before = fails->n;

	json_object_object_add(o, "name", json_object_new_string(c->name));
	json_object_object_add(o, "scenario", json_object_new_string(c->scen_name));
	json_object_object_add(o, "scenario_file", json_object_new_string(c->scen_path));
	json_object_object_add(o, "fs", json_object_new_string(c->fs));
	json_object_object_add(o, "mount_options", json_object_new_string(c->mopts));
	if (c->kernel[0])
		json_object_object_add(o, "kernel", json_object_new_string(c->kernel));
	if (c->persona[0])
		json_object_object_add(o, "persona", json_object_new_string(c->persona));
	json_object_object_add(o, "exit_status", json_object_new_int(c->status));
	snprintf(path, sizeof(path), "runs/%s/run.log", c->name);
	json_object_object_add(o, "log", json_object_new_string(path));
	if (c->results[0]) {
		struct bo_summary sm;
		struct bo_err e = {0};

		json_object_object_add(o, "results", json_object_new_string(c->results));
		snprintf(path, sizeof(path), "%s/report.html", c->results);
		json_object_object_add(o, "report", json_object_new_string(path));
		/* The verdict, counts and error as the summary reader validated them: the guest
		 * wrote summary.json. */
		if (bo_pathf(path, sizeof(path), "%s/%s", out, c->results) == 0 &&
		    bo_summary_read(path, &sm, NULL, &e) == 0) {
			_cleanup_json_ struct json_object *s = bo_summary_json(&sm);
			struct json_object *v;

			if (json_object_object_get_ex(s, "verdict", &v))
				json_object_object_add(o, "verdict", json_object_get(v));
			if (json_object_object_get_ex(s, "counts", &v))
				json_object_object_add(o, "counts", json_object_get(v));
			if (json_object_object_get_ex(s, "error", &v))
				json_object_object_add(o, "error", json_object_get(v));
		}
		if (bo_pathf(path, sizeof(path), "%s/%s", out, c->results) < 0 ||
		    bo_failset_from_stream(fails, path, &at, err) < 0)
			json_object_object_add(o, "error", json_object_new_string(bo_err_str(err)));
		/* Its failures are known only of a run that ended (0 or 1) and was read: a
		 * failure of the baseline gone from another cell is not fixed, but not run. */
		else if ((c->status == BO_EXIT_OK || c->status == BO_EXIT_FAILURE) &&
			 bo_failset_ran(fails, &at) < 0)
			json_object_object_add(o, "error", json_object_new_string("out of memory"));
	}
	if (!bo_json_str(o, "verdict"))
		json_object_object_add(o, "verdict", json_object_new_string("error"));
	for (size_t i = before; i < fails->n; i++) {
		struct json_object *f = json_object_new_object();

		json_object_object_add(f, "state", json_object_new_string(fails->v[i].state));
		json_object_object_add(f, "class", json_object_new_string(fails->v[i].cls));
		if (*fails->v[i].findings)
			json_object_object_add(f, "findings",
					       json_object_new_string(fails->v[i].findings));
		json_object_array_add(failing, f);
	}
	json_object_object_add(o, "failing", failing);
	return o;
}

/*
 * compare = kernels: cell @c ran `run --kernels` (its results are the tree); each kernel's
 * run becomes a cell of its own, named and identified as a kernel axis names it, into @runs
 * (its failures into @fails), and the comparison into @diffs. *@ret_differing: the marks that
 * differ (0 when the tree has no differential.json: then @c is one cell, an error).
 */
static int compare_cell(struct cell *c, const char *out, const struct bo_matrix *m,
			struct bo_failset *fails, struct json_object *runs,
			struct json_object *diffs, size_t *ret_differing, struct bo_err *err)
{
	_cleanup_json_ struct json_object *d = NULL;
	struct json_object *ks, *marks, *o, *names;
	char path[PATH_MAX * 2];
	struct bo_err e = {0};

	*ret_differing = 0;
	/* Through its one reader: every kernel's "results" a path beneath the tree. */
	if (!c->results[0] || bo_pathf(path, sizeof(path), "%s/%s", out, c->results) < 0 ||
	    bo_differential_read(path, &d, &e) < 0 ||
	    !json_object_object_get_ex(d, "kernels", &ks)) {
		o = cell_json(c, out, fails, err);
		if (!o)
			return -ENOMEM;
		json_object_array_add(runs, o);
		return 0;
	}
	for (size_t i = 0; i < json_object_array_length(ks) && i < m->nk; i++) {
		struct json_object *k = json_object_array_get_idx(ks, i), *st;
		const char *res = bo_json_str(k, "results");
		struct cell sub = *c;

		/* The kernels ran in the axis' order. */
		snprintf(sub.kernel, sizeof(sub.kernel), "%s", m->kernels[i]);
		if (cell_name(&sub, err) < 0)
			return -ENAMETOOLONG;
		if (!res ||
		    bo_pathf(sub.results, sizeof(sub.results), "%s/%s", c->results, res) < 0)
			sub.results[0] = '\0';
		sub.status = json_object_object_get_ex(k, "exit_status", &st)
				     ? json_object_get_int(st)
				     : BO_EXIT_HARNESS;
		o = cell_json(&sub, out, fails, err);
		if (!o)
			return -ENOMEM;
		snprintf(path, sizeof(path), "%s/differential.json", c->results);
		json_object_object_add(o, "differential", json_object_new_string(path));
		json_object_array_add(runs, o);
	}
	o = json_object_new_object();
	names = json_object_new_array();
	if (!o || !names) {
		json_object_put(o);
		json_object_put(names);
		return -ENOMEM;
	}
	if (json_object_object_get_ex(d, "marks", &marks) &&
	    json_object_is_type(marks, json_type_array))
		for (size_t i = 0; i < json_object_array_length(marks); i++) {
			struct json_object *mk = json_object_array_get_idx(marks, i), *dv;

			if (json_object_object_get_ex(mk, "differs", &dv) &&
			    json_object_get_boolean(dv) && bo_json_str(mk, "mark")) {
				json_object_array_add(
					names, json_object_new_string(bo_json_str(mk, "mark")));
				(*ret_differing)++;
			}
		}
	json_object_object_add(o, "cell", json_object_new_string(c->name));
	snprintf(path, sizeof(path), "%s/differential.json", c->results);
	json_object_object_add(o, "differential", json_object_new_string(path));
	snprintf(path, sizeof(path), "%s/report.html", c->results);
	json_object_object_add(o, "report", json_object_new_string(path));
	json_object_object_add(o, "differing", json_object_new_uint64(*ret_differing));
	json_object_object_add(o, "marks", names);
	json_object_array_add(diffs, o);
	return 0;
}

/* index.html: every run with its counts and links, and the baseline comparison. */
static int write_index(const char *out, struct json_object *sum, struct bo_err *err)
{
	char path[PATH_MAX];

	if (bo_pathf(path, sizeof(path), "%s/index.html", out) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/index.html': path too long", out);
	return bo_nightly_index(path, sum, err);
}

/* junit.xml: one testsuite per run of @runs (cell_json()), for CI. */
static int write_junit(const char *out, struct json_object *runs, struct bo_err *err)
{
	size_t n = json_object_array_length(runs);
	_cleanup_free_ struct bo_junit_cell *cells = calloc(n ? n : 1, sizeof(*cells));
	_cleanup_free_ char *paths = malloc(2 * (n ? n : 1) * PATH_MAX);
	char path[PATH_MAX], abs[PATH_MAX];

	if (!cells || !paths)
		return bo_err_set(err, ENOMEM, "junit.xml: out of memory");
	/* Absolute, so that the paths in junit.xml lead there from a CI job's directory. */
	if (realpath(out, abs))
		out = abs;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(runs, i);
		const char *res = bo_json_str(o, "results"), *log = bo_json_str(o, "log");
		char *dir = paths + 2 * i * PATH_MAX, *logp = dir + PATH_MAX;

		cells[i].name = bo_json_str(o, "name");
		if (res && bo_pathf(dir, PATH_MAX, "%s/%s", out, res) == 0)
			cells[i].dir = dir;
		if (log && bo_pathf(logp, PATH_MAX, "%s/%s", out, log) == 0)
			cells[i].log = logp;
	}
	if (bo_pathf(path, sizeof(path), "%s/junit.xml", out) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/junit.xml': path too long", out);
	return bo_report_junit_combined(path, cells, n, err);
}

/* The failures a previous nightly tree (or its summary.json) recorded. */
static int load_baseline(const char *prev, struct bo_failset *ret, struct bo_err *err)
{
	char path[PATH_MAX];
	struct stat st;
	struct json_object *o = NULL;
	int r;

	if (stat(prev, &st) < 0)
		return bo_err_set(err, errno, "baseline '%s': %s", prev, strerror(errno));
	/* A published tree is a stranger's: its summary.json is read by the rule of
	 * harness/base/input.h (never a symlink, a FIFO or a device, bounded). */
	if (S_ISDIR(st.st_mode)) {
		if (bo_pathf(path, sizeof(path), "%s/summary.json", prev) < 0)
			return bo_err_set(err, ENAMETOOLONG, "path too long");
		r = bo_json_read_in(prev, "summary.json", &o, err);
	} else {
		snprintf(path, sizeof(path), "%s", prev);
		r = bo_json_read_file(path, &o, err);
	}
	if (r < 0)
		return bo_err_prefix(err, "baseline");
	r = bo_json_check_format(o, path, err);
	if (r >= 0)
		r = bo_failset_from_summary(o, path, ret, err);
	json_object_put(o);
	return r;
}

static void print_set(const char *title, const struct bo_failset *s)
{
	printf("%s: %zu\n", title, s->n);
	for (size_t i = 0; i < s->n; i++) {
		const struct bo_failure *f = &s->v[i];

		printf("  %s %s %s %s (%s%s%s", f->scenario, f->fs,
		       f->options[0] ? f->options : "-", f->state, f->cls, *f->findings ? "; " : "",
		       f->findings);
		if (f->was_cls)
			printf("; was %s%s%s", f->was_cls, *f->was_findings ? "; " : "",
			       f->was_findings);
		puts(")");
	}
}

static void nightly_help(void)
{
	puts("usage: blackout nightly MATRIX.ini [--baseline PREVIOUS] [--out DIR] [--file "
	     "PATH]\n"
	     "                       [--kernel-release R | --kernel-tree DIR] [--in-place]\n\n"
	     "Run every scenario x filesystem x mount options of the matrix (blackout run, one\n"
	     "after the other) into one tree: DIR/runs/<scenario@fs+options>/<run-id>/, with a\n"
	     "combined DIR/summary.json and DIR/index.html. With --baseline (a previous nightly\n"
	     "tree or its summary.json) failures are compared by (scenario, filesystem, mount\n"
	     "options, kernel, persona, state id), then by class and findings: new, fixed,\n"
	     "not run (its cell did not run to its end), changed, unchanged. With 'compare =\n"
	     "kernels' in the matrix, each cell is one run on every kernel of its kernel axis,\n"
	     "compared mark by mark: each kernel's run is a cell as the axis names it, and the\n"
	     "marks that differ between the kernels fail the nightly (summary.json\n"
	     "\"differentials\"; docs/nightly.md).\n\n"
	     "  --out DIR          the tree (default: nightly/<UTC time>); must not exist\n"
	     "  --baseline PREV    compare with a previous tree\n"
	     "  --file PATH        a host file every run's guest needs too (repeatable;\n"
	     "                     blackout run --file)\n"
	     "  --kernel-release R every run's kernel (blackout run --kernel-release)\n"
	     "  --kernel-tree DIR  every run's kernel: a build tree as it is (blackout run\n"
	     "                     --kernel-tree; docs/vm.md)\n"
	     "  --in-place         every run here, with no VM (blackout run --in-place)\n\n"
	     "Exit status: with --baseline 0 no new or changed failure (and no mark that differs\n"
	     "between kernels), 1 some; without, 0 all consistent, 1 some run failed or a mark\n"
	     "differs; 2 usage; 3 a run could not be evaluated.");
}

static int cmd_nightly(int argc, char **argv)
{
	static const struct option opts[] = {
		{"baseline", required_argument, NULL, 'b'},
		{"out", required_argument, NULL, 'o'},
		{"file", required_argument, NULL, 'f'},
		{"kernel-release", required_argument, NULL, 'k'},
		{"kernel-tree", required_argument, NULL, 't'},
		{"in-place", no_argument, NULL, 'i'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	struct bo_matrix *m = NULL;
	struct bo_err err = {0};
	struct bo_failset cur = {0}, base = {0};
	struct bo_baseline_diff diff = {0};
	struct bo_argv extra = {0}; /* options every run gets */
	const char *baseline = NULL, *out_arg = NULL;
	char out[PATH_MAX], when[32], path[PATH_MAX], tree[PATH_MAX] = "";
	struct json_object *sum = NULL, *runs = NULL, *diffs = NULL;
	char kernels[BO_MATRIX_AXIS_MAX * BO_MATRIX_KERNEL_MAX] = "";
	size_t differing = 0;
	bool failed = false, errored = false, kernel_given = false, made = false, ran = false;
	time_t t = time(NULL);
	struct tm tm;
	int c, ret = BO_EXIT_HARNESS;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			nightly_help();
			return BO_EXIT_OK;
		} else if (c == 'b') {
			baseline = optarg;
		} else if (c == 'o') {
			out_arg = optarg;
		} else if (c == 'i') {
			bo_argv_add(&extra, "--in-place");
		} else if (c == 'f' || c == 'k' || c == 't') {
			kernel_given |= c != 'f';
			bo_argv_add(&extra, c == 'f'   ? "--file"
					    : c == 'k' ? "--kernel-release"
						       : "--kernel-tree");
			bo_argv_add(&extra, optarg);
		} else {
			return bo_cli_usage_error("nightly", "bad option");
		}
	}
	if (optind + 1 != argc) {
		bo_argv_free(&extra);
		return bo_cli_usage_error("nightly", "expected one MATRIX.ini");
	}
	if (extra.oom) {
		bo_cli_error("nightly: out of memory");
		goto out;
	}
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	/* Each scenario's checker as run judges it, at its line of the matrix. */
	if (bo_matrix_load(argv[optind], bo_guest_checker_ok, &m, &err) < 0 ||
	    (baseline && load_baseline(baseline, &base, &err) < 0)) {
		bo_cli_error("nightly: %s", bo_err_str(&err));
		goto out;
	}
	if (m->nk && kernel_given) {
		ret = bo_cli_usage_error("nightly", "the matrix has a kernel axis: not with "
						    "--kernel-release or --kernel-tree");
		goto out;
	}
	if (judge_kernels(m, &extra, &err) < 0) {
		bo_cli_error("nightly: %s", bo_err_str(&err));
		goto out;
	}
	if (!out_arg) {
		snprintf(path, sizeof(path), "nightly/%s", when);
		if (mkdir("nightly", 0755) < 0 && errno != EEXIST) {
			bo_cli_error("nightly: creating 'nightly': %s", strerror(errno));
			goto out;
		}
		out_arg = path;
	}
	if (mkdir(out_arg, 0755) < 0) {
		bo_cli_error("nightly: creating '%s': %s (the tree must be new)", out_arg,
			     strerror(errno));
		goto out;
	}
	made = true;
	snprintf(tree, sizeof(tree), "%s", out_arg);
	if (!realpath(out_arg, out)) {
		bo_cli_error("nightly: '%s': %s", out_arg, strerror(errno));
		goto out;
	}
	if (bo_pathf(path, sizeof(path), "%s/runs", out) < 0 || mkdir(path, 0755) < 0 ||
	    bo_pathf(path, sizeof(path), "%s/scenarios", out) < 0 || mkdir(path, 0755) < 0) {
		bo_cli_error("nightly: creating '%s': %s", path, strerror(errno));
		goto out;
	}
	sum = bo_json_new_doc();
	runs = json_object_new_array();
	diffs = json_object_new_array();
	if (!sum || !runs || !diffs)
		goto out;
	/* compare = kernels: every cell runs on all the kernels at once (run --kernels). */
	for (size_t k = 0; m->compare_kernels && k < m->nk; k++)
		snprintf(kernels + strlen(kernels), sizeof(kernels) - strlen(kernels), "%s%s",
			 k ? "," : "", m->kernels[k]);
	json_object_object_add(sum, "kind", json_object_new_string("nightly"));
	json_object_object_add(sum, "matrix", json_object_new_string(argv[optind]));
	json_object_object_add(sum, "started", json_object_new_string(when));
	json_object_object_add(sum, "runs", json_object_get(runs));
	bo_stop_install(); /* SIGINT, SIGTERM, SIGHUP stop the run of the cell, then nightly */
	for (size_t x = 0; x < bo_matrix_ncells(m); x++) {
		struct bo_matrix_cell at;
		const char *verdict;
		struct cell cl = {0};
		struct json_object *o;
		int r;

		bo_matrix_cell(m, x, &at);
		r = prepare(&cl, m->dir, &at, out, &err);
		if (r >= 0) {
			ran = true;
			r = run_cell(&cl, out, m->seed, m->compare_kernels ? kernels : NULL, &extra,
				     &err);
		}
		if (r < 0) {
			bo_cli_error("nightly: %s", bo_err_str(&err));
			goto out;
		}
		if (m->compare_kernels) {
			size_t nd;

			if (compare_cell(&cl, out, m, &cur, runs, diffs, &nd, &err) < 0) {
				bo_cli_error("nightly: %s", bo_err_str(&err));
				goto out;
			}
			differing += nd;
			/* A cell whose kernels differ fails, as a failing state does. */
			failed |= cl.status == BO_EXIT_FAILURE;
			errored |= cl.status != BO_EXIT_FAILURE && cl.status != BO_EXIT_OK;
			printf("%-40s %zu %s between the kernels\n", cl.name, nd,
			       nd == 1 ? "mark differs" : "marks differ");
			continue;
		}
		o = cell_json(&cl, out, &cur, &err);
		if (!o)
			goto out;
		failed |= cl.status == BO_EXIT_FAILURE;
		errored |= cl.status != BO_EXIT_FAILURE && cl.status != BO_EXIT_OK;
		verdict = bo_json_str(o, "verdict");
		printf("%-40s %s\n", cl.name, verdict ? verdict : "?");
		json_object_array_add(runs, o);
	}
	if (m->compare_kernels)
		json_object_object_add(sum, "differentials", json_object_get(diffs));
	json_object_object_add(sum, "verdict",
			       json_object_new_string(errored  ? "error"
						      : failed ? "failed"
							       : "consistent"));
	if (baseline) {
		struct json_object *d;

		if (bo_baseline_diff(&base, &cur, &diff) < 0 || !(d = bo_baseline_diff_json(&diff)))
			goto out;
		json_object_object_add(d, "path", json_object_new_string(baseline));
		json_object_object_add(sum, "baseline", d);
	}
	if (bo_pathf(path, sizeof(path), "%s/summary.json", out) == 0 &&
	    bo_json_write_at(AT_FDCWD, path, sum, &err) < 0) {
		bo_cli_error("nightly: %s", bo_err_str(&err));
		goto out;
	}
	if (write_index(out, sum, &err) < 0 || write_junit(out, runs, &err) < 0) {
		bo_cli_error("nightly: %s", bo_err_str(&err));
		goto out;
	}
	if (baseline) {
		print_set("new failures", &diff.added);
		print_set("fixed", &diff.fixed);
		print_set("not run (the cell did not run to its end)", &diff.not_run);
		print_set("changed (class or findings)", &diff.changed);
		printf("unchanged failures: %zu\n", diff.same.n);
	}
	printf("results: %s\n", out);
	if (errored)
		ret = BO_EXIT_HARNESS;
	else if (baseline)
		ret = diff.added.n || diff.changed.n || differing ? BO_EXIT_FAILURE : BO_EXIT_OK;
	else
		ret = failed ? BO_EXIT_FAILURE : BO_EXIT_OK;
out:
	/* Refused before any cell ran: the tree this nightly made goes, so that the retry does
	 * not find it. A tree with runs in it is kept. */
	if (made && !ran && ret == BO_EXIT_HARNESS)
		(void) !bo_remove_tree(tree);
	json_object_put(diffs);
	json_object_put(runs);
	json_object_put(sum);
	bo_baseline_diff_clear(&diff);
	bo_failset_clear(&cur);
	bo_failset_clear(&base);
	bo_matrix_free(m);
	bo_argv_free(&extra);
	return ret;
}

const struct bo_cmd bo_cmd_nightly = {"nightly", cmd_nightly,
				      "run a matrix of scenarios and compare with a baseline"};
