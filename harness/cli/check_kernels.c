// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check --kernels A,B[,C]: one saved log's crash states judged by several kernels. Each
 * kernel gets a whole check of its own (bo_check(), its VMs booted with that kernel) under
 * one tree, RESULTS/<id>/<release>/<run-id>/; then the states are joined by id
 * (results/differ.h): a state whose class or findings differ between kernels is a change in a
 * kernel's recovery, a regression or a fix. They are printed first and listed first in
 * RESULTS/<id>/differential.json.
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
#include "harness/base/safety.h"
#include "harness/cli/check.h"
#include "harness/cli/cli.h"
#include "harness/cli/kerneltree.h"
#include "harness/results/differ.h"
#include "harness/results/report.h"
#include "vm/kernel.h"

/* Differing states printed; all are in differential.json. */
#define PRINT_MAX 50

static void print_table(const struct bo_differ *d, char (*rel)[NAME_MAX + 1], size_t n)
{
	size_t shown = 0;

	printf("%-24s", "state");
	for (size_t c = 0; c < n; c++)
		printf(" %-24s", rel[c]);
	putchar('\n');
	for (size_t i = 0; i < d->nrow && d->rows[i].differs && shown < PRINT_MAX; i++, shown++) {
		char cell[600];

		/* A state id is the guest's: one word of the line. */
		printf("%-24s", bo_cli_word(d->rows[i].state));
		for (size_t c = 0; c < n; c++)
			printf(" %-24s",
			       d->rows[i].cls[c] == BO_DIFFER_NONE
				       ? "-"
				       : bo_differ_cell_str(&d->rows[i], c, cell, sizeof(cell)));
		putchar('\n');
	}
	if (d->ndiffer > shown)
		printf("... and %zu more that differ (differential.json)\n", d->ndiffer - shown);
	printf("%zu states, %zu differ between the kernels\n", d->nrow, d->ndiffer);
}

int bo_check_kernels(const char *log, const struct bo_check_args *a, const struct vm_args *v,
		     bo_check_fn *check)
{
	char rel[BO_KERNELS_MAX][NAME_MAX + 1], dirs[BO_KERNELS_MAX][PATH_MAX], tree[PATH_MAX];
	char path[PATH_MAX];
	const char *dirp[BO_KERNELS_MAX], *names[BO_KERNELS_MAX];
	int status[BO_KERNELS_MAX];
	_cleanup_json_ struct json_object *out = NULL;
	struct bo_differ d = {0};
	struct bo_err err = {0};
	const char *parent = a->parent ? a->parent : "results";
	uint64_t seed = 0;
	size_t n = 0;
	int ret;

	if (bo_vm_args_kernel_named(v) || a->shard || a->expect)
		return bo_cli_usage_error("check",
					  "--kernels chooses the kernels itself: not with "
					  "--kernel, --modules, --kernel-release, --kernel-tree, "
					  "--in-place, --shard or --expect");
	/* The log and the options, judged once before the tree exists (each check judges them
	 * again, and finds them as they were), and the kernels looked for: an option's error
	 * (exit 2) is said before the log's or a kernel's that is not there (exit 3). */
	{
		struct bo_scenario *sc = NULL;
		bool usage = false;
		int judged = a->scen ? bo_scenario_load(a->scen, &sc, &err) : 0;

		if (judged >= 0)
			judged = bo_check_judge(log, a, sc, NULL, 0, &usage, &err);
		bo_scenario_free(sc);
		if (judged < 0 && usage) {
			bo_cli_error("check: %s", bo_err_str(&err));
			return BO_EXIT_USAGE;
		}
		if (bo_kerneltree_resolve("check", a->kernels, rel, &n, &ret) < 0)
			return ret;
		if (judged < 0) {
			bo_cli_error("check: %s", bo_err_str(&err));
			return BO_EXIT_HARNESS;
		}
	}
	if (a->seed)
		(void) !bo_parse_u64(a->seed, &seed);
	if (bo_kerneltree_create("check", parent, seed, tree) < 0)
		return BO_EXIT_HARNESS;
	for (size_t i = 0; i < n; i++) {
		struct bo_check_args ai = *a;
		struct vm_args vi = *v; /* bo_check() changes nothing of it */
		char sub[PATH_MAX];

		vi.kernel_release = rel[i];
		if (bo_pathf(sub, sizeof(sub), "%s/%s", tree, rel[i]) < 0)
			return BO_EXIT_HARNESS;
		ai.parent = sub;
		ai.kernels = NULL;
		bo_cli_note("check --kernels: %s (%zu of %zu)", rel[i], i + 1, n);
		status[i] = check(log, &ai, &vi);
		if (bo_kerneltree_only_dir(sub, dirs[i]) < 0) {
			bo_cli_error("check --kernels: %s left no results directory in '%s'",
				     rel[i], sub);
			return BO_EXIT_HARNESS;
		}
		dirp[i] = dirs[i];
		names[i] = rel[i];
	}
	if (bo_differ_read(&d, dirp, n, &err) < 0) {
		bo_cli_error("check --kernels: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	out = bo_json_new_doc();
	if (out) {
		struct json_object *ks = bo_kerneltree_kernels_json(tree, rel, dirs, status, n);

		json_object_object_add(out, "kind", json_object_new_string("differential"));
		json_object_object_add(out, "log", json_object_new_string(log));
		json_object_object_add(out, "kernels", ks);
		json_object_object_add(out, "differing", json_object_new_uint64(d.ndiffer));
		json_object_object_add(out, "states", bo_differ_json(&d, names));
	}
	if (!out || bo_pathf(path, sizeof(path), "%s/differential.json", tree) < 0 ||
	    bo_json_write_at(AT_FDCWD, path, out, &err) < 0) {
		bo_cli_error("check --kernels: %s", out ? bo_err_str(&err) : "out of memory");
		bo_differ_clear(&d);
		return BO_EXIT_HARNESS;
	}
	if (bo_report_differential(tree, log, dirp, names, n, &d, &err) < 0)
		bo_cli_error("check --kernels: %s", bo_err_str(&err));
	print_table(&d, rel, n);
	printf("report: %s/report.html\nresults: %s\n", tree, tree);
	ret = bo_kerneltree_exit(status, n, d.ndiffer > 0);
	bo_differ_clear(&d);
	return ret;
}
