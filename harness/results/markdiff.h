/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * markdiff.h — one workload recorded on several kernels (`run --kernels`), compared mark by
 * mark. Each kernel wrote a log of its own, so entry numbers and state ids mean nothing
 * across them; marks do: the workload put the same issue:N, ack:N and named marks in each.
 *
 * A state belongs to the last mark before its cut (the last mark entry among the entries it
 * applied); the states between a mark and the next are that mark's segment. Per mark and per
 * kernel the verdict is the classes of the segment's states and the union of their findings
 * (findings.h), and for an ack:N mark whether the durability lint (lint.h) found no FLUSH or
 * FUA between issue:N and it. A mark differs when any kernel's verdict or lint differs from
 * the first's, or when a kernel's log lacks it. Marks whose lint differs come first (a kernel
 * sent no barrier for an ack that another sent one for), then the other marks that differ,
 * then the rest; each group in log order.
 *
 * Logs are read through the one log reader (harness/log/log.h), streams through the one
 * stream reader (stream.h).
 */
#ifndef BO_MARKDIFF_H
#define BO_MARKDIFF_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"
#include "harness/log/log.h"
#include "harness/states/classify.h"
#include "harness/states/findings.h"

_Static_assert(BO_CLASS_COUNT <= 32, "a segment's classes are a 32-bit mask");

/* The row of the states before the first mark: a name no mark can have (marks have no
 * whitespace). */
#define BO_MARKDIFF_START "(before any mark)"

enum bo_markdiff_lint {
	BO_MARKDIFF_LINT_NONE,	     /* not an ack mark, or an ack the lint does not judge */
	BO_MARKDIFF_LINT_BARRIER,    /* an ack with a FLUSH or FUA after its issue */
	BO_MARKDIFF_LINT_NO_BARRIER, /* an ack with none: a lint finding */
};

/* One kernel's view of one mark. */
struct bo_markdiff_side {
	bool present;	       /* its log has the mark */
	uint64_t entry;	       /* the mark's entry in its log */
	uint64_t from;	       /* the first entry after the previous mark (0 for the first) */
	size_t nstates;	       /* states of its segment (aliases included) */
	uint32_t classes;      /* bit (1u << class) per class among them */
	struct bo_verdict fnd; /* the union of their findings (an alias: its original's) */
	enum bo_markdiff_lint lint;
	char *state; /* the segment's first failing state, else its first state; or NULL */
	bool state_fails;
};

struct bo_markdiff_row {
	char *mark;		       /* BO_MARKDIFF_START for the states before any mark */
	struct bo_markdiff_side *side; /* one per kernel */
	bool differs;		       /* verdict, lint or presence differ */
	bool lint_differs;
	bool missing; /* a kernel's log lacks the mark */
};

struct bo_markdiff {
	size_t ncol, nrow, ndiffer;
	struct bo_markdiff_row *rows; /* lint differences, other differences, the rest */
};

/*
 * Compare the @n kernels' runs: @logs[i] the log of results directory @dirs[i]. Into @d
 * (zeroed first); -errno with @err naming the log or stream that cannot be read.
 */
_must_check_ int bo_markdiff_build(struct bo_markdiff *d, struct bo_log *const *logs,
				   const char *const *dirs, size_t n, struct bo_err *err);

void bo_markdiff_clear(struct bo_markdiff *d);

/* Side @c of @row in words into @buf: "consistent", "consistent, lost-ack (lost-ack: op 2)",
 * "no states", "not in the log". Returns @buf. */
const char *bo_markdiff_verdict_str(const struct bo_markdiff_row *row, size_t c, char *buf,
				    size_t len);

/* "barrier", "no barrier" or NULL (not an ack the lint judges). */
const char *bo_markdiff_lint_str(enum bo_markdiff_lint l);

/* Entry @e of @log in words: "write 2048+8", "FUA write 16+1", "FLUSH", "discard 0+64",
 * "mark ack:2" (sector+length in the log's blocks). Returns @buf. */
const char *bo_markdiff_entry_str(const struct bo_log *log, uint64_t e, char *buf, size_t len);

/* @d as a JSON array "marks": [{"mark", "differs", "lint_differs", "missing", "kernels":
 * {NAME: {"present", "entry", "states", "classes", "findings", "verdict", "lint", "state",
 * and for a mark that differs "entries": the entries from the previous mark to it}}}], with
 * @names naming the kernels; NULL without memory. */
struct json_object *bo_markdiff_json(const struct bo_markdiff *d, struct bo_log *const *logs,
				     const char *const *names);

#endif
