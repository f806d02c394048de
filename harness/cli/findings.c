// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout findings — the failing states of one or more results directories grouped into
 * findings by signature (diagnose/signature.h), printed with their counts, their smallest
 * workload and the state to explain first; with --baseline, each new or unchanged, and the
 * baseline's others fixed or not run.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/cli/cli.h"
#include "harness/cli/export.h"
#include "harness/cli/opts.h"
#include "harness/diagnose/signature.h"

/* A run that could not be read is an error; one whose ops could not be listed, a warning. */
static void report(void *rctx, const char *dir, enum bo_sig_problem p, const struct bo_err *err)
{
	(void) rctx;
	if (p == BO_SIG_UNREADABLE)
		bo_cli_error("findings: %s", bo_err_str(err));
	else
		bo_cli_warning("findings: %s: its ops are not known (%s): grouped as 'op'", dir,
			       bo_err_str(err));
}

/* "lost-ack of fsync-file after [write, fsync-file] — ext4 (- / -) on 6.1.0-57-amd64" */
static void print_signature(const struct bo_sig *x)
{
	bool skel = strcmp(x->skeleton, "-") != 0;

	printf("%s of %s%s%s%s — %s (%s) on %s", x->cls, x->promise, skel ? " after [" : "",
	       skel ? x->skeleton : "", skel ? "]" : "", x->fs, x->opts, x->kernel);
}

static void print_text(const struct bo_sigset *f, const struct bo_sigset *base,
		       const char *baseline)
{
	size_t counts[4] = {0};

	for (size_t i = 0; i < f->n; i++) {
		const struct bo_sig *x = &f->v[i];
		_cleanup_free_ char *dir = bo_shell_quote(x->dir),
				    *state = bo_shell_quote(x->state);

		printf("finding %zu%s%s%s: ", i + 1, x->status ? " (" : "",
		       x->status ? x->status : "", x->status ? ")" : "");
		print_signature(x);
		printf("\n  %" PRIu64 " %s", x->states, BO_PLURAL(x->states, "state", "states"));
		if (x->workloads)
			printf(", %" PRIu64 " %s; smallest %s (%" PRIu64 " ops)", x->workloads,
			       BO_PLURAL(x->workloads, "workload", "workloads"), x->smallest,
			       x->smallest_ops);
		printf("\n  blackout explain %s %s\n", dir ? dir : x->dir,
		       state ? state : x->state);
		counts[!strcmp(x->status ? x->status : "", "new") ? 0 : 1]++;
	}
	if (!f->n && f->read)
		printf("no findings: every state of %" PRIu64 " %s read is consistent\n", f->read,
		       BO_PLURAL(f->read, "run", "runs"));
	if (!baseline)
		return;
	for (size_t j = 0; j < base->n; j++) {
		const struct bo_sig *x = &base->v[j];

		if (!x->status)
			continue;
		printf("%s: ", x->status);
		print_signature(x);
		printf("\n  %" PRIu64 " %s in the baseline\n", x->states,
		       BO_PLURAL(x->states, "state", "states"));
		counts[!strcmp(x->status, "fixed") ? 2 : 3]++;
	}
	printf("against %s: %zu new, %zu unchanged, %zu fixed, %zu not run\n", baseline, counts[0],
	       counts[1], counts[2], counts[3]);
}

static struct json_object *finding_json(const struct bo_sig *x, bool here)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "fs", json_object_new_string(x->fs));
	json_object_object_add(o, "options", json_object_new_string(x->opts));
	json_object_object_add(o, "kernel", json_object_new_string(x->kernel));
	json_object_object_add(o, "class", json_object_new_string(x->cls));
	json_object_object_add(o, "promise", json_object_new_string(x->promise));
	json_object_object_add(o, "skeleton", json_object_new_string(x->skeleton));
	json_object_object_add(o, "states", json_object_new_uint64(x->states));
	if (x->status)
		json_object_object_add(o, "status", json_object_new_string(x->status));
	if (!here)
		return o;
	json_object_object_add(o, "workloads", json_object_new_uint64(x->workloads));
	if (*x->smallest)
		json_object_object_add(o, "smallest", json_object_new_string(x->smallest));
	json_object_object_add(o, "results", json_object_new_string(x->dir));
	json_object_object_add(o, "state", json_object_new_string(x->state));
	return o;
}

static void print_json(const struct bo_sigset *f, const struct bo_sigset *base,
		       const char *baseline)
{
	_cleanup_(bo_json_putp) struct json_object *doc = bo_json_new_doc();
	struct json_object *a = json_object_new_array(), *gone = json_object_new_array();

	for (size_t i = 0; doc && a && i < f->n; i++)
		json_object_array_add(a, finding_json(&f->v[i], true));
	for (size_t j = 0; baseline && doc && gone && j < base->n; j++)
		if (base->v[j].status)
			json_object_array_add(gone, finding_json(&base->v[j], false));
	if (!doc || !a || !gone) {
		json_object_put(a);
		json_object_put(gone);
		return;
	}
	json_object_object_add(doc, "findings", a);
	if (baseline) {
		json_object_object_add(doc, "baseline", json_object_new_string(baseline));
		json_object_object_add(doc, "gone", gone);
	} else {
		json_object_put(gone);
	}
	puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							 JSON_C_TO_STRING_NOSLASHESCAPE));
}

struct findings_args {
	const char *baseline;
	bool json;
	const char *export;
};

/* Both told of in the help's text. */
static const struct bo_opt findings_opts[] = {
	{"json", NULL, offsetof(struct findings_args, json), BO_OPT_HOST, NULL, NULL, NULL},
	{"export", "DIR", offsetof(struct findings_args, export), BO_OPT_HOST, NULL, NULL, NULL},
	{"baseline", "PREVIOUS", offsetof(struct findings_args, baseline), BO_OPT_HOST, NULL, NULL,
	 NULL},
};

static void help(void)
{
	puts("usage: blackout findings [--json] [--baseline PREVIOUS] [--export DIR] RESULTS...\n\n"
	     "Group the failing states of results directories (a run's, or the trees of a run\n"
	     "on several kernels and of nightly, searched for them) into findings by signature:\n"
	     "filesystem, mkfs and mount options, kernel, class, the broken promise (the kind of\n"
	     "op lost or invented) and, for builtin bounded, the workload's ops after its setup.\n"
	     "Each is printed with its count of states and workloads, its smallest workload, and\n"
	     "the state to explain first. With --baseline (a previous tree, or what findings\n"
	     "--json wrote), each is new or unchanged, and the baseline's others fixed (their\n"
	     "cell was run) or not run. With --export, each finding's state to explain first is\n"
	     "exported (blackout export) into DIR/NN-CLASS, where export takes it.\n"
	     "Exit status 0 without findings (with --baseline: without\n"
	     "new ones), 1 with, 3 when a directory could not be read. docs/results.md.");
}

/* Export each finding's state to explain first into @dir/NN-CLASS (made): a finding export
 * does not take (a daemon's workload, a class that lost no ack) is said and left out. -1 when
 * @dir cannot be made. */
static int export_all(const struct bo_sigset *f, const char *dir)
{
	size_t done = 0;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return bo_cli_error("findings: creating '%s': %s", dir, strerror(errno)), -1;
	for (size_t i = 0; i < f->n; i++) {
		const struct bo_sig *x = &f->v[i];
		char out[PATH_MAX], cls[32];

		if (!x->dir || !x->state)
			continue;
		snprintf(cls, sizeof(cls), "%s", x->cls ? x->cls : "finding");
		for (char *p = cls; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
				*p = '_';
		if (snprintf(out, sizeof(out), "%s/%02zu-%s", dir, i + 1, cls) >= (int) sizeof(out))
			continue;
		if (bo_export_state(x->dir, x->state, out) == 0)
			done++;
		else
			bo_cli_note("findings: finding %zu (%s of %s) not exported", i + 1,
				    x->state, x->dir);
	}
	bo_cli_note("findings: %zu of %zu findings exported into %s", done, f->n, dir);
	return 0;
}

static int cmd_findings(int argc, char **argv)
{
	struct findings_args a = {0};
	const struct bo_opt_set sets[] = {{findings_opts, BO_ARRAY_SIZE(findings_opts), &a}};
	struct bo_sigset f = {.report = report}, base = {.report = report};
	const char *baseline;
	struct bo_err err = {0};
	ssize_t added = 0;
	int k, r = 0;

	k = bo_opts_parse("findings", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, help, argc, argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k >= argc)
		return bo_cli_usage_error("findings", "expected RESULTS...");
	baseline = a.baseline;
	if (baseline && bo_sigset_read_baseline(&base, baseline, &err) < 0) {
		bo_cli_error("findings: %s", bo_err_str(&err));
		bo_sigset_clear(&base);
		return BO_EXIT_HARNESS;
	}
	for (int i = k; i < argc && r == 0; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0 || !S_ISDIR(st.st_mode)) {
			bo_cli_error("findings: '%s' is not a results directory", argv[i]);
			f.failed = true;
			continue;
		}
		if ((r = bo_sigset_search(&f, argv[i], &err)) < 0) {
			bo_cli_error("findings: %s", bo_err_str(&err));
			f.failed = true;
			r = r == -ENOENT ? 0 : r;
		}
	}
	bo_sigset_sort(&f);
	bo_sigset_sort(&base);
	if (baseline && (added = bo_sigset_compare(&f, &base)) < 0) {
		bo_cli_error("findings: out of memory");
		bo_sigset_clear(&f);
		bo_sigset_clear(&base);
		return BO_EXIT_HARNESS;
	}
	if (a.json)
		print_json(&f, &base, baseline);
	else
		print_text(&f, &base, baseline);
	if (a.export && export_all(&f, a.export) < 0)
		f.failed = true;
	r = f.failed || base.failed		 ? BO_EXIT_HARNESS
	    : (baseline ? added != 0 : f.n != 0) ? BO_EXIT_FAILURE
						 : BO_EXIT_OK;
	bo_sigset_clear(&f);
	bo_sigset_clear(&base);
	return r;
}

const struct bo_cmd bo_cmd_findings = {"findings", cmd_findings,
				       "group failing states into findings by signature"};
