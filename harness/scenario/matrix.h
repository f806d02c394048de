/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * matrix.h — nightly matrices (docs/nightly.md, "The matrix"): which cells `blackout nightly`
 * runs. A matrix is one [matrix] section read by the strict INI reader of scenario files
 * (ini.h):
 *
 *   [matrix]
 *   scenario = ext4-fsops.ini      ; repeatable; relative to the matrix file
 *   fs = ext4                      ; repeatable; default: each scenario's own
 *   mount_options = default        ; repeatable; "default": the scenario's own
 *   kernel = 6.12                  ; repeatable; default: blackout's default kernel
 *   kernel_tree = fix /src/linux   ; repeatable: a kernel build tree on the kernel axis,
 *                                  ; by its name (the path relative to the matrix file)
 *   persona = ignores-flush        ; repeatable; default: each scenario's own
 *   seed = 1                       ; optional: the seed of every run
 *   compare = kernels              ; optional: each cell one run --kernels over the kernel
 *                                  ; axis, its runs compared by mark
 *
 * A cell is one value of every axis the matrix has; an axis it does not have is each
 * scenario's own. Reading is strict: a bad value, a value an axis names twice or a second
 * scenario of one [scenario] name (both would name the same cells) is an error naming the file
 * and the line, and each scenario is read as its line is, so that a matrix that loads names
 * only scenarios that load.
 */
#ifndef BO_MATRIX_H
#define BO_MATRIX_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "harness/base/macro.h"
#include "harness/base/util.h"

struct bo_scenario;

/* At most this many values on one axis. */
#define BO_MATRIX_AXIS_MAX 64
/* The longest value of the kernel axis, NUL included. */
#define BO_MATRIX_KERNEL_MAX 64

struct bo_matrix {
	char *path;	    /* the matrix file */
	char dir[PATH_MAX]; /* its folder ("." for none), which relative scenarios are in */
	char *scenarios[BO_MATRIX_AXIS_MAX], *fs[BO_MATRIX_AXIS_MAX], *mopts[BO_MATRIX_AXIS_MAX],
		*kernels[BO_MATRIX_AXIS_MAX], *personas[BO_MATRIX_AXIS_MAX];
	/* The kernel axis' build trees: ktrees[k] the absolute path of kernels[k] when it is a
	 * kernel_tree's name, NULL when it is a release. */
	char *ktrees[BO_MATRIX_AXIS_MAX];
	size_t nsc, nfs, nmo, nk, np;
	/* Each scenario's [scenario] name, which names its cells, and the line of each value
	 * of each axis: a value given twice would name a cell twice. */
	char *scen_names[BO_MATRIX_AXIS_MAX];
	unsigned sc_line[BO_MATRIX_AXIS_MAX], fs_line[BO_MATRIX_AXIS_MAX],
		mo_line[BO_MATRIX_AXIS_MAX], k_line[BO_MATRIX_AXIS_MAX], p_line[BO_MATRIX_AXIS_MAX];
	char *seed; /* NULL: each scenario's own */
	/* length = L: the length of every (builtin bounded) scenario's workloads, or NULL;
	 * fresh = yes|no: whether each of them runs on a fresh filesystem, or NULL; and the line
	 * of the first scenario that is not bounded (0: none), refused with either. */
	char *length, *fresh;
	unsigned not_bounded_line;
	bool compare_kernels; /* compare = kernels: one run --kernels per cell */
};

/* One cell of a matrix: the value of each axis, NULL for the scenario's own (an axis the
 * matrix does not have, mount options "default", and the kernel of a compare = kernels matrix,
 * whose cell runs on every kernel of the axis). */
struct bo_matrix_cell {
	const char *scenario; /* as the matrix names it: absolute, or relative to its dir */
	const char *fs, *options, *kernel, *persona;
	const char *kernel_tree; /* the build tree the kernel axis' value names, or NULL */
	const char *length;	 /* the bounded workloads' length, or NULL: the scenario's */
	const char *fresh;	 /* "yes", "no", or NULL: the scenario's */
};

/*
 * Read the matrix file @path, each scenario it names with it; @scenario_ok (may be NULL)
 * judges each scenario loaded, and its error is the matrix's at that line. On failure returns
 * -errno with a message "FILE:LINE: [matrix] KEY: ..." quoting the bad value (or "FILE: ..."
 * for what has no line) in @err. *@ret (bo_matrix_free() it) is written only on success.
 */
_must_check_ int bo_matrix_load(const char *path,
				int (*scenario_ok)(const struct bo_scenario *sc,
						   struct bo_err *err),
				struct bo_matrix **ret, struct bo_err *err);

/* Release a matrix; NULL and a half-read one are fine. */
void bo_matrix_free(struct bo_matrix *m);

/* How many cells @m has. */
size_t bo_matrix_ncells(const struct bo_matrix *m);

/* Cell @x (below bo_matrix_ncells()) of @m into *@ret, its strings @m's: scenario x filesystem
 * x mount options x kernel x persona, the last varying fastest. */
void bo_matrix_cell(const struct bo_matrix *m, size_t x, struct bo_matrix_cell *ret);

#endif
