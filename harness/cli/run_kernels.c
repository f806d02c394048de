// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run --kernels A,B[,C]: one workload recorded and checked on several kernels. A kernel that
 * sends less to the disk for an fsync is in its log, not in its recovery; so each kernel gets
 * a whole run of its own (one VM boot, its log, its states) under one tree,
 * RESULTS/<id>/<release>/<run-id>/, and the runs are compared by the workload's marks
 * (results/markdiff.h): the marks whose verdict or lint differs first, each with what every
 * kernel wrote before it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/cli/cli.h"
#include "harness/cli/guest_side.h"
#include "harness/cli/kerneltree.h"
#include "harness/cli/run_kernels.h"
#include "harness/log/log.h"
#include "harness/results/markdiff.h"
#include "harness/results/report.h"
#include "harness/scenario/scenario.h"

/* Differing marks printed, and entries printed per kernel; all are in differential.json. */
#define PRINT_MAX   50
#define ENTRIES_MAX 24
#define COL	    38

/* Side @c of @row: its verdict and, for an ack the lint judges, its lint. */
static const char *cell(const struct bo_markdiff_row *row, size_t c, char *buf, size_t len)
{
	const char *lint = bo_markdiff_lint_str(row->side[c].lint);
	char v[600];

	snprintf(buf, len, "%s%s%s", bo_markdiff_verdict_str(row, c, v, sizeof(v)),
		 lint ? "; " : "", lint ? lint : "");
	return buf;
}

/* What each kernel wrote from the previous mark to @row's, side by side. */
static void print_entries(const struct bo_markdiff_row *row, struct bo_log *const *logs, size_t n)
{
	uint64_t most = 0;
	char buf[160];

	printf("  %-*s", COL - 2, "entries since the previous mark:");
	for (size_t c = 0; c < n; c++) {
		const struct bo_markdiff_side *s = &row->side[c];
		const char *prev = s->from ? bo_log_mark_name(logs[c], s->from - 1) : NULL;

		if (!s->present)
			snprintf(buf, sizeof(buf), "(no such mark)");
		else
			snprintf(buf, sizeof(buf), "after %s: %" PRIu64,
				 prev ? bo_cli_word(prev) : "the start", s->entry - s->from);
		printf(" %-*s", COL, buf);
		if (s->present && s->entry - s->from > most)
			most = s->entry - s->from;
	}
	putchar('\n');
	for (uint64_t k = 0; k < most && k < ENTRIES_MAX; k++) {
		printf("  %-*s", COL - 2, "");
		for (size_t c = 0; c < n; c++) {
			const struct bo_markdiff_side *s = &row->side[c];
			char e[128];

			buf[0] = '\0';
			if (s->present && s->from + k < s->entry)
				snprintf(buf, sizeof(buf), "%" PRIu64 " %s", s->from + k,
					 bo_cli_word(bo_markdiff_entry_str(logs[c], s->from + k, e,
									   sizeof(e))));
			printf(" %-*s", COL, buf);
		}
		putchar('\n');
	}
	if (most > ENTRIES_MAX)
		printf("  ... %" PRIu64 " more (differential.json)\n", most - ENTRIES_MAX);
}

static void print_marks(const struct bo_markdiff *d, struct bo_log *const *logs,
			char (*rel)[NAME_MAX + 1], size_t n)
{
	size_t shown = 0;
	char buf[700];

	if (!d->ndiffer) {
		printf("no difference: %zu marks, the same verdict and lint on every kernel\n",
		       d->nrow);
		return;
	}
	printf("%-*s", COL, "mark");
	for (size_t c = 0; c < n; c++)
		printf(" %-*s", COL, rel[c]);
	putchar('\n');
	for (size_t i = 0; i < d->nrow && d->rows[i].differs && shown < PRINT_MAX; i++, shown++) {
		const struct bo_markdiff_row *row = &d->rows[i];

		/* A mark's name is its workload's: one word of the line. */
		snprintf(buf, sizeof(buf), "%s%s", bo_cli_word(row->mark),
			 row->lint_differs ? " (lint differs)"
			 : row->missing	   ? " (not in every log)"
					   : "");
		printf("%-*s", COL, buf);
		for (size_t c = 0; c < n; c++)
			printf(" %-*s", COL, cell(row, c, buf, sizeof(buf)));
		putchar('\n');
		if (strcmp(row->mark, BO_MARKDIFF_START))
			print_entries(row, logs, n);
	}
	if (d->ndiffer > shown)
		printf("... and %zu more that differ (differential.json)\n", d->ndiffer - shown);
	printf("%zu marks, %zu differ between the kernels\n", d->nrow, d->ndiffer);
}

int bo_run_kernels(const char *path, const char *kernels, const char *parent_dir,
		   const struct vm_args *v,
		   int (*run_one)(void *ctx, const char *path, const char *release,
				  const char *parent),
		   void *ctx)
{
	char rel[BO_KERNELS_MAX][NAME_MAX + 1], dirs[BO_KERNELS_MAX][PATH_MAX], tree[PATH_MAX];
	char buf[PATH_MAX];
	const char *dirp[BO_KERNELS_MAX], *names[BO_KERNELS_MAX];
	struct bo_log *logs[BO_KERNELS_MAX] = {NULL};
	int status[BO_KERNELS_MAX];
	_cleanup_json_ struct json_object *out = NULL;
	struct bo_scenario *sc = NULL;
	struct bo_markdiff d = {0};
	struct bo_err err = {0};
	size_t n = 0;
	int ret = BO_EXIT_HARNESS;

	if (bo_vm_args_kernel_named(v))
		return bo_cli_usage_error("run", "--kernels chooses the kernels itself: not with "
						 "--kernel, --modules, --kernel-release, "
						 "--kernel-tree or --in-place");
	/* A bad scenario fails before any VM boots, and the tree is named for its seed; its
	 * checker and every --file are judged before the tree exists, as each run judges them. */
	if (bo_scenario_load(path, &sc, &err) < 0 || bo_guest_checker_ok(sc, &err) < 0 ||
	    bo_vm_args_judge_files(v, &err) < 0) {
		bo_cli_error("%s", bo_err_str(&err));
		bo_scenario_free(sc);
		return BO_EXIT_HARNESS;
	}
	if (bo_kerneltree_resolve("run", kernels, rel, &n, &ret) < 0) {
		bo_scenario_free(sc);
		return ret;
	}
	if (bo_kerneltree_create("run", parent_dir, sc->seed, tree) < 0) {
		bo_scenario_free(sc);
		return BO_EXIT_HARNESS;
	}
	for (size_t i = 0; i < n; i++) {
		if (bo_pathf(buf, sizeof(buf), "%s/%s", tree, rel[i]) < 0)
			goto out;
		bo_cli_note("run --kernels: %s (%zu of %zu)", rel[i], i + 1, n);
		status[i] = run_one(ctx, path, rel[i], buf);
		if (bo_kerneltree_only_dir(buf, dirs[i]) < 0) {
			bo_cli_error("run --kernels: %s left no results directory in '%s'", rel[i],
				     buf);
			goto out;
		}
		dirp[i] = dirs[i];
		names[i] = rel[i];
	}
	/* Each kernel's own log: what it wrote. */
	for (size_t i = 0; i < n; i++)
		if (bo_pathf(buf, sizeof(buf), "%s/write.log", dirs[i]) < 0 ||
		    bo_log_open(buf, 0, &logs[i], &err) < 0) {
			bo_cli_error("run --kernels: %s: %s", rel[i], bo_err_str(&err));
			goto out;
		}
	if (bo_markdiff_build(&d, logs, dirp, n, &err) < 0) {
		bo_cli_error("run --kernels: %s", bo_err_str(&err));
		goto out;
	}
	out = bo_json_new_doc();
	if (out) {
		struct json_object *ks = bo_kerneltree_kernels_json(tree, rel, dirs, status, n);
		size_t lint = 0;

		for (size_t i = 0; i < d.nrow; i++)
			lint += d.rows[i].lint_differs;
		json_object_object_add(out, "kind", json_object_new_string("marks"));
		json_object_object_add(out, "scenario", json_object_new_string(sc->name));
		json_object_object_add(out, "kernels", ks);
		json_object_object_add(out, "differing", json_object_new_uint64(d.ndiffer));
		json_object_object_add(out, "lint_differing", json_object_new_uint64(lint));
		json_object_object_add(out, "marks", bo_markdiff_json(&d, logs, names));
	}
	if (!out || bo_pathf(buf, sizeof(buf), "%s/differential.json", tree) < 0 ||
	    bo_json_write_at(AT_FDCWD, buf, out, &err) < 0) {
		bo_cli_error("run --kernels: %s", out ? bo_err_str(&err) : "out of memory");
		goto out;
	}
	if (bo_report_marks(tree, sc->name, dirp, names, n, &d, logs, &err) < 0)
		bo_cli_error("run --kernels: %s", bo_err_str(&err));
	print_marks(&d, logs, rel, n);
	printf("report: %s/report.html\nresults: %s\n", tree, tree);
	ret = bo_kerneltree_exit(status, n, d.ndiffer > 0);
out:
	bo_markdiff_clear(&d);
	for (size_t i = 0; i < n; i++)
		bo_log_free(logs[i]);
	bo_scenario_free(sc);
	return ret;
}
