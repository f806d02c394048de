// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_model.h — what report.c reads of a results directory, for its two renderers
 * (report_html.c, report_junit.c), and what they offer the reports of several kernels. The
 * helpers they all share are report_util.h. Internal to the report.
 */
#ifndef BO_REPORT_MODEL_H
#define BO_REPORT_MODEL_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/states/classify.h"
#include "harness/states/lint.h"
#include "harness/log/log.h"
#include "harness/results/report.h"
#include "harness/results/report_util.h"
#include "harness/results/summary.h"

struct rstate {
	char id[ID_MAX];
	uint64_t cut;
	unsigned cls;
	double seconds;
	bool alias;
	bool path_ok;	/* the id is safe as a directory name */
	bool also;	/* it holds a finding its class does not name (states/findings.h) */
	char *findings; /* its findings in words ("lost-ack: op 2"), or NULL for none */
	struct json_object *rec;
};

struct report {
	const char *dir;
	int dirfd;
	struct bo_report_opts o;
	struct json_object *config;
	struct bo_summary sum;
	bool have_sum;
	char sum_err[512];
	char cfg_err[512]; /* why config.json is not shown, when it is not */
	struct rstate *st;
	size_t n, cap;
	bool torn; /* stream.jsonl ends in a record cut short (stream.h) */
	/* Where summary.json contradicts the states stream.jsonl records (a summary that says
	 * consistent over a lost-ack state): "" when they agree. The page is then not green. */
	char contradiction[512];
	struct bo_log *log;
	char log_err[512];
	struct bo_lint lint; /* of the log, when it has one and its marks read */
	double class_seconds[NCLASS];
	char guest_release[128]; /* the guest kernel's, from diagnostics/pre/versions.txt */
	const char *suite; /* junit.xml's suite name, when a nightly names its cell; else NULL */
	const char *suite_kernel; /* check --kernels: "~<kernel>" after the suite's name */
};

/* What the testsuites of a junit.xml add up to. */
struct report_junit_totals {
	unsigned tests, failures, errors;
	double seconds;
};

/* The <head> of a report page (its CSP lets nothing but inline style and data: images in) and
 * the opening <body>. */
void report_html_head(FILE *f, const char *title);

/* Read the results directory @dir into @R (report.c): 0, or -errno when it cannot be opened
 * or its stream cannot be read; report_close() it either way. */
int report_open(struct report *R, const char *dir, const struct bo_report_opts *o,
		struct bo_err *err);
void report_close(struct report *R);

/* What @fn writes of @ctx, into @name of the directory @dirfd (@dir as the user named it),
 * atomically. */
int report_render(int dirfd, const char *dir, const char *name, void (*fn)(FILE *, void *),
		  void *ctx, struct bo_err *err);

/* The two documents: report.html and junit.xml. */
void report_write_html(struct report *R, FILE *f);
/* The timeline section of report.html (report_timeline.c). */
void report_html_timeline(struct report *R, FILE *f);
void report_write_junit(struct report *R, FILE *f);

/* The suite's name: scenario@fs[+mount options], as a nightly names its cells (@R->suite
 * when it names one); a check without a scenario is "check". */
void report_suite_name(struct report *R, char *buf, size_t len);

/* junit.xml in parts, for a nightly's combined one: the <testsuites> line for @t (the sum
 * of report_junit_count() over the directories), each directory's <testsuite>, the end. */
void report_junit_count(struct report *R, struct report_junit_totals *t);
void report_junit_open(FILE *f, const struct report_junit_totals *t);
void report_junit_suite(struct report *R, FILE *f);
void report_junit_close(FILE *f);

/* The suite of a run that cannot be shown: @name, one error testcase saying @why. */
void report_junit_missing(FILE *f, const char *name, const char *why,
			  struct report_junit_totals *t);

#endif
