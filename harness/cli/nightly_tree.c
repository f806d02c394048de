// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tree of `blackout nightly` (docs/nightly.md, "The tree"): each cell recorded as its run
 * ends (its entry in summary.json's "runs", its failures, its line), then summary.json,
 * index.html and junit.xml, and the failures compared with a baseline's (a previous tree's,
 * read here too).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/exit.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/cli/cli.h"
#include "harness/cli/nightly.h"
#include "harness/results/differential.h"
#include "harness/results/report.h"
#include "harness/results/summary.h"

/* Letters, digits and ._-@+=,~ stay; anything else becomes '_'. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._-@+=,~", *s)))
			*s = '_';
}

int nightly_cell_name(struct nightly_cell *c, struct bo_err *err)
{
	int n = snprintf(c->name, sizeof(c->name), "%s@%s%s%s%s%s%s%s", c->scen_name, c->fs,
			 c->mopts[0] ? "+" : "", c->mopts, c->kernel[0] ? "~" : "", c->kernel,
			 c->persona[0] ? "=" : "", c->persona);

	sanitize(c->name);
	return n < 0 || (size_t) n >= sizeof(c->name)
		       ? bo_err_set(err, ENAMETOOLONG, "cell name too long")
		       : 0;
}

/* Add the summary of run @dir to @sum; one that cannot be read is its error. */
static void read_summary(const char *dir, struct bo_summary *sum, struct bo_err *err)
{
	struct bo_summary one;

	if (bo_summary_read(dir, &one, NULL, err) == 0)
		bo_summary_sum(sum, &one);
	else
		bo_summary_error(sum, bo_err_str(err));
}

/*
 * The runs of a cell under @dir: its results directory, or, a bounded run in parts
 * (`run --jobs`: *@parts), each part's (part-J/<run-id>/). Their summaries summed into @sum
 * (*@read: at least one was), their failing states into @fails, a part's ids as "part-J/<id>".
 * -errno with @err naming what could not be read.
 */
static int read_runs(const char *dir, struct bo_failset *fails, const struct bo_cell *at,
		     struct bo_summary *sum, bool *parts, bool *read, struct bo_err *err)
{
	char path[PATH_MAX], sub[PATH_MAX], prefix[NAME_MAX + 2];
	struct dirent *e, *r;
	DIR *d, *p;
	int k = 0;

	if (bo_pathf(path, sizeof(path), "%s/summary.json", dir) == 0 && access(path, F_OK) == 0) {
		read_summary(dir, sum, err);
		*read = true;
		return bo_failset_from_stream(fails, dir, NULL, at, err);
	}
	if (!(d = opendir(dir)))
		return bo_err_set(err, errno, "'%s': %s", dir, strerror(errno));
	while (k >= 0 && (e = readdir(d))) {
		if (strncmp(e->d_name, "part-", 5) || e->d_type != DT_DIR ||
		    bo_pathf(sub, sizeof(sub), "%s/%s", dir, e->d_name) < 0 || !(p = opendir(sub)))
			continue;
		*parts = true;
		snprintf(prefix, sizeof(prefix), "%s/", e->d_name);
		while (k >= 0 && (r = readdir(p)))
			if (r->d_name[0] != '.' && r->d_type == DT_DIR &&
			    bo_pathf(path, sizeof(path), "%s/%s", sub, r->d_name) == 0) {
				read_summary(path, sum, err);
				*read = true;
				k = bo_failset_from_stream(fails, path, prefix, at, err);
			}
		closedir(p);
	}
	closedir(d);
	return k < 0 ? k : *parts ? 0 : bo_err_set(err, ENOENT, "'%s': no run in it", dir);
}

/* The JSON of cell @c; its failures go to @fails too. */
static struct json_object *cell_json(struct nightly_cell *c, const char *out,
				     struct bo_failset *fails, struct bo_err *err)
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
	if (c->ktree[0])
		json_object_object_add(o, "kernel_tree", json_object_new_string(c->ktree));
	if (c->persona[0])
		json_object_object_add(o, "persona", json_object_new_string(c->persona));
	json_object_object_add(o, "exit_status", json_object_new_int(c->status));
	snprintf(path, sizeof(path), "runs/%s/run.log", c->name);
	json_object_object_add(o, "log", json_object_new_string(path));
	if (c->results[0]) {
		struct bo_summary sm = {0};
		bool parts = false, read = false;
		int r;

		json_object_object_add(o, "results", json_object_new_string(c->results));
		r = bo_pathf(path, sizeof(path), "%s/%s", out, c->results) < 0
			    ? bo_err_set(err, ENAMETOOLONG, "path too long")
			    : read_runs(path, fails, &at, &sm, &parts, &read, err);
		if (!parts) {
			snprintf(path, sizeof(path), "%s/report.html", c->results);
			json_object_object_add(o, "report", json_object_new_string(path));
		}
		/* The verdict, counts and error as the summary reader validated them: the guest
		 * wrote summary.json (each part's, summed). */
		if (read) {
			_cleanup_json_ struct json_object *s = bo_summary_json(&sm);
			struct json_object *v;

			if (json_object_object_get_ex(s, "verdict", &v))
				json_object_object_add(o, "verdict", json_object_get(v));
			if (json_object_object_get_ex(s, "counts", &v))
				json_object_object_add(o, "counts", json_object_get(v));
			if (json_object_object_get_ex(s, "error", &v))
				json_object_object_add(o, "error", json_object_get(v));
		}
		if (r < 0)
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
static int compare_cell(struct nightly_cell *c, const char *out, const struct bo_matrix *m,
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
		struct nightly_cell sub = *c;

		/* The kernels ran in the axis' order. */
		snprintf(sub.kernel, sizeof(sub.kernel), "%s", m->kernels[i]);
		if (nightly_cell_name(&sub, err) < 0)
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
	if (bo_report_junit_combined(path, cells, n, err) < 0)
		return -1;
	/* ... and the same for KernelCI (KCIDB) */
	if (bo_pathf(path, sizeof(path), "%s/kcidb.json", out) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/kcidb.json': path too long", out);
	return bo_report_kcidb(path, cells, n, err);
}

int nightly_baseline_load(const char *prev, struct bo_failset *ret, struct bo_err *err)
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

int nightly_cell_done(struct nightly *n, struct nightly_cell *c, struct bo_err *err)
{
	struct json_object *o;
	const char *verdict;

	/* Under compare = kernels, a cell whose kernels differ fails, as a failing state does. */
	n->failed |= c->status == BO_EXIT_FAILURE;
	n->errored |= c->status != BO_EXIT_FAILURE && c->status != BO_EXIT_OK;
	if (n->m->compare_kernels) {
		size_t nd;

		if (compare_cell(c, n->out, n->m, &n->cur, n->runs, n->diffs, &nd, err) < 0)
			return -ENOMEM;
		n->differing += nd;
		printf("%-40s %zu %s between the kernels\n", c->name, nd,
		       nd == 1 ? "mark differs" : "marks differ");
		return 0;
	}
	o = cell_json(c, n->out, &n->cur, err);
	if (!o)
		return bo_err_set(err, ENOMEM, "out of memory");
	verdict = bo_json_str(o, "verdict");
	printf("%-40s %s\n", c->name, verdict ? verdict : "?");
	json_object_array_add(n->runs, o);
	return 0;
}

/* summary.json of @n, with the comparison @diff (filled here) with its baseline; NULL when out
 * of memory. */
static struct json_object *summary_json(const struct nightly *n, struct bo_baseline_diff *diff)
{
	_cleanup_json_ struct json_object *sum = bo_json_new_doc();
	struct json_object *d;

	if (!sum)
		return NULL;
	json_object_object_add(sum, "kind", json_object_new_string("nightly"));
	json_object_object_add(sum, "matrix", json_object_new_string(n->m->path));
	json_object_object_add(sum, "started", json_object_new_string(n->when));
	json_object_object_add(sum, "runs", json_object_get(n->runs));
	if (n->m->compare_kernels)
		json_object_object_add(sum, "differentials", json_object_get(n->diffs));
	json_object_object_add(sum, "verdict",
			       json_object_new_string(n->errored  ? "error"
						      : n->failed ? "failed"
								  : "consistent"));
	if (n->baseline) {
		if (bo_baseline_diff(&n->base, &n->cur, diff) < 0 ||
		    !(d = bo_baseline_diff_json(diff)))
			return NULL;
		json_object_object_add(d, "path", json_object_new_string(n->baseline));
		json_object_object_add(sum, "baseline", d);
	}
	return BO_TAKE_PTR(sum);
}

int nightly_write_tree(struct nightly *n)
{
	struct bo_baseline_diff diff = {0};
	struct bo_err err = {0};
	struct json_object *sum = summary_json(n, &diff);
	char path[PATH_MAX];
	int ret = BO_EXIT_HARNESS;

	if (!sum)
		goto out;
	if (bo_pathf(path, sizeof(path), "%s/summary.json", n->out) == 0 &&
	    bo_json_write_at(AT_FDCWD, path, sum, &err) < 0) {
		bo_cli_error("nightly: %s", bo_err_str(&err));
		goto out;
	}
	if (write_index(n->out, sum, &err) < 0 || write_junit(n->out, n->runs, &err) < 0) {
		bo_cli_error("nightly: %s", bo_err_str(&err));
		goto out;
	}
	if (n->baseline) {
		print_set("new failures", &diff.added);
		print_set("fixed", &diff.fixed);
		print_set("not run (the cell did not run to its end)", &diff.not_run);
		print_set("changed (class or findings)", &diff.changed);
		printf("unchanged failures: %zu\n", diff.same.n);
	}
	printf("results: %s\n", n->out);
	if (n->errored)
		ret = BO_EXIT_HARNESS;
	else if (n->baseline)
		ret = diff.added.n || diff.changed.n || n->differing ? BO_EXIT_FAILURE : BO_EXIT_OK;
	else
		ret = n->failed ? BO_EXIT_FAILURE : BO_EXIT_OK;
out:
	json_object_put(sum);
	bo_baseline_diff_clear(&diff);
	return ret;
}
