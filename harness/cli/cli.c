// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli.c — what every command prints the same way: errors, warnings, usage errors, the lint
 * a run or a check starts with, and the class table a run, a check or a merge ends with.
 */
#include "harness/cli/cli.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/log/log.h"
#include "harness/results/report.h"
#include "harness/results/summary.h"
#include "harness/states/lint.h"

void bo_cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bo_vsay("error: ", fmt, ap);
	va_end(ap);
}

bool bo_cli_quiet;

void bo_cli_note(const char *fmt, ...)
{
	va_list ap;

	if (bo_cli_quiet)
		return;
	va_start(ap, fmt);
	bo_vsay("", fmt, ap);
	va_end(ap);
}

void bo_cli_lint(const struct bo_log *log, const char *name)
{
	enum { SHOWN = 5 };
	struct bo_lint l = {0};
	struct bo_err err = {0};
	char buf[256];

	if (bo_lint_log(log, &l, &err) < 0) {
		/* The oracle meets the same log and says what is wrong with it. */
		bo_debug(BO_DBG_RUN, "no lint: %s", bo_err_str(&err));
		return;
	}
	if (l.acks && !l.n)
		bo_cli_note("lint: each of the %" PRIu64 " %s has a FLUSH or FUA since its issue",
			    l.acks, BO_PLURAL(l.acks, "ack", "acks"));
	else if (l.n)
		bo_cli_note("lint: %zu of %" PRIu64 " %s with no FLUSH or FUA since the issue: "
			    "acknowledged before any barrier (blackout lint %s lists them)",
			    l.n, l.acks, BO_PLURAL(l.acks, "ack", "acks"), name);
	for (size_t i = 0; i < l.n && i < SHOWN; i++)
		bo_cli_note("lint: %s", bo_lint_finding_str(&l.v[i], buf, sizeof(buf)));
	if (l.n > SHOWN)
		bo_cli_note("lint: ... and %zu more", l.n - SHOWN);
	bo_lint_clear(&l);
}

void bo_cli_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bo_vsay("warning: ", fmt, ap);
	va_end(ap);
}

int bo_cli_log_open(const char *cmd, const char *path, unsigned flags, struct bo_log **ret,
		    struct bo_err *err)
{
	int r = bo_log_open(path, flags, ret, err);

	if (r == 0 && bo_log_salvage_note(*ret))
		bo_cli_warning("%s: '%s': %s", cmd, path, bo_log_salvage_note(*ret));
	return r;
}

int bo_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "blackout %s: usage error: ", cmd);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry 'blackout %s --help'.\n", cmd);
	va_end(ap);
	return BO_EXIT_USAGE;
}

int bo_cli_results(const char *dir, const char *what)
{
	struct bo_summary s;
	struct bo_err err = {0};
	enum bo_verdict_kind v;

	/* report.html and junit.xml first: they also describe a run without a valid summary. */
	if (bo_report_write(dir, NULL, &err) < 0)
		bo_cli_warning("%s", bo_err_str(&err));
	err = (struct bo_err){0};
	if (bo_summary_read(dir, &s, NULL, &err) < 0) {
		bo_cli_error("%s: no valid summary in '%s': %s", what, dir, bo_err_str(&err));
		fprintf(stderr, "results: %s\n", dir);
		return BO_EXIT_HARNESS;
	}
	v = bo_summary_verdict(&s);
	printf("%s: %" PRIu64 " states checked, %" PRIu64 " aliased, %.1f s\n", what, s.states,
	       s.aliases, s.seconds_total);
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		char also[512];

		if (!s.counts[c] && c != BO_CLASS_CONSISTENT)
			continue;
		printf("  %-20s %8" PRIu64, bo_class_name((enum bo_class) c), s.counts[c]);
		/* What the class does not say: a fsck-dirty state that also lost an ack. */
		if (*bo_summary_also_str(&s, (enum bo_class) c, also, sizeof(also)))
			printf(" (%s)", also);
		if (c != BO_CLASS_CONSISTENT && s.first[c][0])
			printf("   first: %s (states/%s/)", s.first[c], s.first[c]);
		putchar('\n');
	}
	if (s.error[0])
		printf("error: %s\n", s.error);
	printf("verdict: %s\n", bo_verdict_name(v));
	printf("report: %s/report.html\nresults: %s\n", dir, dir);
	return bo_verdict_exit(v);
}

/* The copies bo_cli_word() made, newest last. */
static char **words;
static size_t n_words;

const char *bo_cli_word(const char *s)
{
	char *w, **nw;

	if (!s)
		return NULL;
	w = bo_sanitize(s, true);
	nw = w ? reallocarray(words, n_words + 1, sizeof(*words)) : NULL;
	if (!nw) {
		free(w);
		return "?";
	}
	words = nw;
	words[n_words++] = w;
	return w;
}

void bo_cli_put_safe(void (*fn)(void *ctx), void *ctx)
{
	_cleanup_free_ char *buf = NULL, *safe = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len), *out = stdout;
	size_t before = n_words;

	if (!mem)
		return;
	/* glibc: stdout is a variable like any other; @fn writes through it to memory. */
	stdout = mem;
	fn(ctx);
	stdout = out;
	/* What @fn made words of is printed: its copies go. */
	while (n_words > before)
		free(words[--n_words]);
	if (fclose(mem) != 0)
		return;
	safe = bo_sanitize_n(buf, len, false);
	if (safe)
		fputs(safe, stdout);
}

void bo_cli_put_json(struct json_object *o)
{
	const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								  JSON_C_TO_STRING_NOSLASHESCAPE);
	_cleanup_free_ char *v = t ? bo_utf8_valid(t, strlen(t)) : NULL;

	if (v)
		puts(v);
}
