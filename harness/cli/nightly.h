/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nightly.h — what the two files of `blackout nightly` share: the command's state from its
 * command line to its tree, and a cell of its matrix. nightly.c parses the command line and
 * the matrix and runs the cells; nightly_tree.c records each cell as it ends and writes the
 * tree's summary.json, index.html and junit.xml, with the comparison with --baseline.
 */
#ifndef BO_NIGHTLY_H
#define BO_NIGHTLY_H

#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>

#include "harness/base/util.h"
#include "harness/cli/opts.h"
#include "harness/diagnose/baseline.h"
#include "harness/scenario/matrix.h"

/* One cell of the matrix. */
struct nightly_cell {
	char name[256];		  /* scenario@fs[+options]: its directory under runs/ */
	char scen_path[PATH_MAX]; /* the scenario file run */
	char scen_name[128];
	char fs[16], mopts[256];
	char kernel[BO_MATRIX_KERNEL_MAX]; /* the kernels axis' value, "" without one */
	char ktree[PATH_MAX];		   /* the build tree that value names, "" for a release */
	char persona[32];		   /* the personas axis' value, "" without one */
	char results[PATH_MAX];		   /* relative to the tree */
	int status;
};

/* One `blackout nightly`, from its command line to its tree. */
struct nightly {
	struct bo_matrix *m;
	struct bo_argv extra;		  /* options every run gets */
	bool kernel_given;		  /* --kernel-release or --kernel-tree */
	const char *baseline;		  /* --baseline, or NULL */
	const char *out_arg;		  /* --out, or NULL */
	char when[32];			  /* the start, UTC */
	char out[PATH_MAX];		  /* the tree, absolute */
	char tree[PATH_MAX];		  /* the tree as made, removed when no cell ran */
	bool made, ran;			  /* the tree was made; a cell was run into it */
	struct bo_failset cur, base;	  /* tonight's failures, the baseline's */
	struct json_object *runs, *diffs; /* summary.json's "runs" and "differentials" */
	size_t differing;		  /* the marks that differ between kernels, every cell's */
	bool failed, errored;		  /* a cell failed; a cell could not be evaluated */
};

/* c->name from its axes: scenario@fs[+options][~kernel][=persona]. */
_must_check_ int nightly_cell_name(struct nightly_cell *c, struct bo_err *err);

/* The failures a previous nightly tree @prev (or its summary.json) recorded, into @ret. */
_must_check_ int nightly_baseline_load(const char *prev, struct bo_failset *ret,
				       struct bo_err *err);

/* Cell @c, which ran, into @n: its runs in summary.json's "runs" (its kernels' under compare =
 * kernels, and their comparison in "differentials"), its failures, its line printed. */
_must_check_ int nightly_cell_done(struct nightly *n, struct nightly_cell *c, struct bo_err *err);

/* The tree's summary.json, index.html and junit.xml, and the comparison with the baseline
 * printed. The exit status (BO_EXIT_HARNESS when the tree could not be written). */
int nightly_write_tree(struct nightly *n);

#endif
