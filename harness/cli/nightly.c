// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout nightly — run a matrix of scenarios x filesystems x mount options (x kernels x device
 * personas), one results tree with every run's results directory and a combined summary.json
 * and index.html, and, against a previous tree, the failures that are new, fixed or unchanged.
 * docs/nightly.md. Three steps: the command line and the matrix (harness/scenario/matrix.h)
 * are read and judged, the cells run one after the other, and the tree is written
 * (nightly_tree.c).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/dev/fs.h"
#include "harness/base/path.h"
#include "harness/base/proc.h"
#include "harness/base/safety.h"
#include "harness/cli/cli.h"
#include "harness/cli/guest_side.h"
#include "harness/cli/nightly.h"
#include "harness/cli/opts.h"
#include "harness/cli/vmrun.h"
#include "harness/scenario/ini.h"
#include "harness/scenario/scenario.h"

/* Write the text of @sc, with fs, mount_options and persona of @c and the length and fresh of
 * @at, to c->scen_path. */
static int write_override(const struct nightly_cell *c, const struct bo_scenario *sc,
			  const struct bo_matrix_cell *at, struct bo_err *err)
{
	const char *const sets[][3] = {
		{"scenario", "name", c->scen_name},
		{"device", "fs", c->fs},
		{"device", "mount_options", c->mopts[0] ? c->mopts : NULL},
		{"check", "persona", c->persona[0] ? c->persona : NULL},
		{"workload", "length", at->length},
		{"workload", "fresh", at->fresh},
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

/* The scenario of cell @at (its scenario a path relative to @matrix_dir; NULL axes: the
 * scenario's own) into @c: the file itself, or a copy with fs, mount_options, persona and
 * length and fresh overridden (its relative paths made absolute, for the copy lives elsewhere). */
static int prepare(struct nightly_cell *c, const char *matrix_dir, const struct bo_matrix_cell *at,
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
	snprintf(c->ktree, sizeof(c->ktree), "%s", at->kernel_tree ? at->kernel_tree : "");
	snprintf(c->persona, sizeof(c->persona), "%s", at->persona ? at->persona : "");
	r = nightly_cell_name(c, err);
	if (r >= 0 && !fs && !mopt && !at->persona && !at->length && !at->fresh)
		snprintf(c->scen_path, sizeof(c->scen_path), "%s", src);
	else if (r >= 0 && bo_pathf(c->scen_path, sizeof(c->scen_path), "%s/scenarios/%s.ini", out,
				    c->name) < 0)
		r = bo_err_set(err, ENAMETOOLONG, "path too long");
	else if (r >= 0)
		r = write_override(c, sc, at, err);
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
		if (m->nk) {
			v.kernel_release = m->ktrees[k] ? NULL : m->kernels[k];
			v.kernel_tree = m->ktrees[k];
		}
		if (v.kernel_release || v.kernel_tree || v.in_place)
			r = bo_vm_args_judge(&v, err);
	}
	bo_vm_args_clear(&v);
	return r;
}

/* Run `blackout run` for @c into OUT/runs/NAME/, with the options @extra; its output goes
 * to run.log there. */
static int run_cell(struct nightly_cell *c, const char *out, const char *seed, const char *kernels,
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
		bo_argv_add(&argv, c->ktree[0] ? "--kernel-tree" : "--kernel-release");
		bo_argv_add(&argv, c->ktree[0] ? c->ktree : c->kernel);
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
	/* The run made exactly one directory in its own parent: its results, or the tree of a
	 * bounded run in parts (nightly_tree.c reads each part). */
	d = opendir(parent);
	if (!d)
		return bo_err_set(err, errno, "'%s': %s", parent, strerror(errno));
	while ((de = readdir(d)))
		if (de->d_type == DT_DIR && de->d_name[0] != '.')
			snprintf(c->results, sizeof(c->results), "runs/%s/%s", c->name, de->d_name);
	closedir(d);
	return 0;
}

/* The command line's options. */
struct nightly_args {
	const char *baseline, *out;
	/* What every run gets. */
	struct bo_opt_list files;
	const char *kernel_release, *kernel_tree;
	bool in_place;
};

#define A(field) offsetof(struct nightly_args, field)

/* BO_OPT_BOTH: passed on to every run as given (bo_opts_pass()). */
static const struct bo_opt nightly_opts[] = {
	{"out", "DIR", A(out), BO_OPT_HOST, NULL, NULL,
	 "the tree (default: nightly/<UTC time>); must not exist"},
	{"baseline", "PREV", A(baseline), BO_OPT_HOST, NULL, NULL, "compare with a previous tree"},
	{"file", "PATH", A(files), BO_OPT_BOTH | BO_OPT_LIST, NULL, NULL,
	 "a host file every run's guest needs too (repeatable;\n"
	 "blackout run --file)"},
	{"kernel-release", "R", A(kernel_release), BO_OPT_BOTH, NULL, NULL,
	 "every run's kernel (blackout run --kernel-release)"},
	{"kernel-tree", "DIR", A(kernel_tree), BO_OPT_BOTH, NULL, NULL,
	 "every run's kernel: a build tree as it is (blackout run\n"
	 "--kernel-tree; docs/vm.md)"},
	{"in-place", NULL, A(in_place), BO_OPT_BOTH, NULL, NULL,
	 "every run here, with no VM (blackout run --in-place)"},
};

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
	     "not run (its cell did not run to its end), changed, unchanged. The kernel axis\n"
	     "takes cached kernels ('kernel = 6.12') and build trees by name ('kernel_tree =\n"
	     "fix ../linux'), so a fix runs across the matrix its bug was found in. With\n"
	     "'compare = kernels' in the matrix, each cell is one run on every kernel of its\n"
	     "kernel axis, compared mark by mark: each kernel's run is a cell as the axis names\n"
	     "it, and the marks that differ between the kernels fail the nightly (summary.json\n"
	     "\"differentials\"; docs/nightly.md).\n");
	bo_opts_help(stdout, nightly_opts, BO_ARRAY_SIZE(nightly_opts));
	puts("\n"
	     "Exit status: with --baseline 0 no new or changed failure (and no mark that differs\n"
	     "between kernels), 1 some; without, 0 all consistent, 1 some run failed or a mark\n"
	     "differs; 2 usage; 3 a run could not be evaluated.");
}

/* The options of @argv into @n: -1 to go on, with MATRIX.ini the last of @argv, else the exit
 * status to return (--help, a usage error). */
static int parse_options(struct nightly *n, int argc, char **argv)
{
	struct nightly_args a = {0};
	const struct bo_opt_set sets[] = {{nightly_opts, BO_ARRAY_SIZE(nightly_opts), &a}};
	int k = bo_opts_parse("nightly", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, nightly_help, argc,
			      argv);

	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	n->baseline = a.baseline;
	n->out_arg = a.out;
	n->kernel_given = a.kernel_release || a.kernel_tree;
	bo_opts_pass(nightly_opts, BO_ARRAY_SIZE(nightly_opts), &a, &n->extra);
	bo_opt_list_clear(&a.files);
	if (k + 1 != argc)
		return bo_cli_usage_error("nightly", "expected one MATRIX.ini");
	if (n->extra.oom) {
		bo_cli_error("nightly: out of memory");
		return BO_EXIT_HARNESS;
	}
	return -1;
}

/* Step 1: the command line, the matrix (each scenario with it) and the baseline into @n, and
 * the kernels the cells boot judged, all before the tree exists: -1 to go on, else the exit
 * status to return. */
static int parse(struct nightly *n, int argc, char **argv)
{
	struct bo_err err = {0};
	time_t t = time(NULL);
	struct tm tm;
	int r = parse_options(n, argc, argv);

	if (r >= 0)
		return r;
	gmtime_r(&t, &tm);
	strftime(n->when, sizeof(n->when), "%Y%m%d-%H%M%S", &tm);
	/* Each scenario's checker as run judges it, at its line of the matrix. */
	if (bo_matrix_load(argv[argc - 1], bo_guest_checker_ok, &n->m, &err) < 0 ||
	    (n->baseline && nightly_baseline_load(n->baseline, &n->base, &err) < 0)) {
		bo_cli_error("nightly: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	if (n->m->nk && n->kernel_given)
		return bo_cli_usage_error("nightly", "the matrix has a kernel axis: not with "
						     "--kernel-release or --kernel-tree");
	if (judge_kernels(n->m, &n->extra, &err) < 0) {
		bo_cli_error("nightly: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	return -1;
}

/* The tree (--out, or nightly/<UTC time>), which must be new, with its runs/ and scenarios/;
 * its absolute path in @n->out. */
static int make_tree(struct nightly *n)
{
	const char *out_arg = n->out_arg;
	char path[PATH_MAX];
	int r;

	if (!out_arg) {
		snprintf(path, sizeof(path), "nightly/%s", n->when);
		if (mkdir("nightly", 0755) < 0 && errno != EEXIST) {
			r = -errno;
			bo_cli_error("nightly: creating 'nightly': %s", strerror(-r));
			return r;
		}
		out_arg = path;
	}
	if (mkdir(out_arg, 0755) < 0) {
		r = -errno;
		bo_cli_error("nightly: creating '%s': %s (the tree must be new)", out_arg,
			     strerror(-r));
		return r;
	}
	n->made = true;
	snprintf(n->tree, sizeof(n->tree), "%s", out_arg);
	if (!realpath(out_arg, n->out)) {
		r = -errno;
		bo_cli_error("nightly: '%s': %s", out_arg, strerror(-r));
		return r;
	}
	if (bo_pathf(path, sizeof(path), "%s/runs", n->out) < 0 || mkdir(path, 0755) < 0 ||
	    bo_pathf(path, sizeof(path), "%s/scenarios", n->out) < 0 || mkdir(path, 0755) < 0) {
		r = -errno;
		bo_cli_error("nightly: creating '%s': %s", path, strerror(-r));
		return r ? r : -ENAMETOOLONG;
	}
	return 0;
}

/* Step 2: every cell of the matrix run into the tree, one after the other, and recorded as it
 * ends (nightly_cell_done()). */
static int run_cells(struct nightly *n)
{
	const struct bo_matrix *m = n->m;
	char kernels[BO_MATRIX_AXIS_MAX * BO_MATRIX_KERNEL_MAX] = "";
	struct bo_err err = {0};
	int r;

	r = make_tree(n);
	if (r < 0)
		return r;
	n->runs = json_object_new_array();
	n->diffs = json_object_new_array();
	if (!n->runs || !n->diffs)
		return -ENOMEM;
	/* compare = kernels: every cell runs on all the kernels at once (run --kernels). */
	for (size_t k = 0; m->compare_kernels && k < m->nk; k++)
		snprintf(kernels + strlen(kernels), sizeof(kernels) - strlen(kernels), "%s%s",
			 k ? "," : "", m->kernels[k]);
	bo_stop_install(); /* SIGINT, SIGTERM, SIGHUP stop the run of the cell, then nightly */
	for (size_t x = 0; x < bo_matrix_ncells(m); x++) {
		struct bo_matrix_cell at;
		struct nightly_cell cl = {0};

		bo_matrix_cell(m, x, &at);
		r = prepare(&cl, m->dir, &at, n->out, &err);
		if (r >= 0) {
			n->ran = true;
			r = run_cell(&cl, n->out, m->seed, m->compare_kernels ? kernels : NULL,
				     &n->extra, &err);
		}
		if (r >= 0)
			r = nightly_cell_done(n, &cl, &err);
		if (r < 0) {
			bo_cli_error("nightly: %s", bo_err_str(&err));
			return r;
		}
	}
	return 0;
}

static int cmd_nightly(int argc, char **argv)
{
	struct nightly n = {0};
	int ret = parse(&n, argc, argv);

	/* Step 3 (nightly_tree.c) writes the tree of the cells that ran. */
	if (ret < 0)
		ret = run_cells(&n) < 0 ? BO_EXIT_HARNESS : nightly_write_tree(&n);
	/* Refused before any cell ran: the tree this nightly made goes, so that the retry does
	 * not find it. A tree with runs in it is kept. */
	if (n.made && !n.ran && ret == BO_EXIT_HARNESS)
		(void) !bo_remove_tree(n.tree);
	json_object_put(n.diffs);
	json_object_put(n.runs);
	bo_failset_clear(&n.cur);
	bo_failset_clear(&n.base);
	bo_matrix_free(n.m);
	bo_argv_free(&n.extra);
	return ret;
}

const struct bo_cmd bo_cmd_nightly = {"nightly", cmd_nightly,
				      "run a matrix of scenarios and compare with a baseline"};
