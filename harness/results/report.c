// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.html and junit.xml of a results directory (see report.h and docs/results.md): here
 * the directory is read into a struct report (report_model.h); report_html.c and
 * report_junit.c render it.
 */
#include "harness/results/report.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/path.h"
#include "harness/results/config.h"
#include "harness/results/report_model.h"
#include "harness/results/stream.h"

static int add_state(struct report *R, const struct bo_stream_rec *rec)
{
	struct json_object *v;
	struct rstate *s;

	if (R->n == R->cap) {
		size_t cap = R->cap ? 2 * R->cap : 256;
		struct rstate *n = realloc(R->st, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		R->st = n;
		R->cap = cap;
	}
	s = &R->st[R->n];
	memset(s, 0, sizeof(*s));
	snprintf(s->id, sizeof(s->id), "%s", rec->state);
	s->path_ok = report_id_ok(rec->state);
	s->cut = rec->cut;
	s->cls = (unsigned) rec->cls;
	if (json_object_object_get_ex(rec->o, "seconds", &v))
		s->seconds = json_object_get_double(v);
	s->alias = rec->alias_of != NULL;
	if (bo_verdict_any(&rec->findings)) {
		char buf[512];

		s->also = bo_findings_also(&rec->findings, rec->cls);
		s->findings =
			strdup(bo_findings_str(&rec->findings, BO_CLASS_COUNT, buf, sizeof(buf)));
		if (!s->findings)
			return -ENOMEM;
	}
	s->rec = json_object_get(rec->o);
	if (!s->alias)
		R->class_seconds[s->cls] += s->seconds;
	R->n++;
	return 0;
}

/* The state and alias records of stream.jsonl (none when there is no stream yet). */
static int read_stream(struct report *R, struct bo_err *err)
{
	struct bo_stream *st = NULL;
	struct bo_stream_rec rec;
	int r = bo_stream_open(R->dir, &st, err);

	if (r == -ENOENT)
		return 0;
	while (r >= 0 && (r = bo_stream_next(st, &rec, err)) > 0)
		if (bo_stream_is_state(&rec) && add_state(R, &rec) < 0)
			r = bo_err_set(err, ENOMEM, "reading '%s': out of memory",
				       bo_stream_path(st));
	if (r >= 0)
		R->torn = bo_stream_torn(st);
	bo_stream_free(st);
	return r;
}

/*
 * Whether the summary's counts are the states the stream records: a summary is a guest's
 * word, and one that says consistent over a lost-ack state in the stream must not draw a
 * green page, nor one that counts states over a stream that records none. A stream cut
 * short (a run still going, or killed) is not held against it.
 */
static void cross_check(struct report *R)
{
	uint64_t n[BO_CLASS_COUNT] = {0}, states = 0;

	if (!R->have_sum || R->torn)
		return;
	for (size_t i = 0; i < R->n; i++)
		if (!R->st[i].alias && R->st[i].cls < BO_CLASS_COUNT) {
			n[R->st[i].cls]++;
			states++;
		}
	/* The failing classes first: the state the summary hides is the news. */
	for (int k = 1; k <= BO_CLASS_COUNT; k++) {
		int c = k % BO_CLASS_COUNT;

		if (n[c] != R->sum.counts[c]) {
			snprintf(R->contradiction, sizeof(R->contradiction),
				 "summary.json contradicts stream.jsonl: summary.json counts "
				 "%" PRIu64 " %s, stream.jsonl records %" PRIu64,
				 R->sum.counts[c], bo_class_name((enum bo_class) c), n[c]);
			return;
		}
	}
	if (states != R->sum.states)
		snprintf(R->contradiction, sizeof(R->contradiction),
			 "summary.json contradicts stream.jsonl: summary.json says %" PRIu64
			 " states checked, stream.jsonl records %" PRIu64,
			 R->sum.states, states);
}

static int cmp_state(const void *a, const void *b)
{
	const struct rstate *x = a, *y = b;

	if (x->cut != y->cut)
		return x->cut < y->cut ? -1 : 1;
	return strcmp(x->id, y->id);
}

/*
 * Open the log @logfd (at @path) through the index a running check keeps beside it
 * (BO_LOG_INDEX_NAME), when there is one: the headers of 100k entries cost 0.4 s to read,
 * the index a few milliseconds. An index that does not match the log is refused; the caller
 * then reads the headers.
 */
static int open_indexed(struct report *R, int logfd, const char *path)
{
	struct bo_err e = {0};
	struct stat st;
	char ipath[PATH_MAX];
	int fd =
		openat(R->dirfd, BO_LOG_INDEX_NAME, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	int r = -ENOENT;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    snprintf(ipath, sizeof(ipath), "/proc/self/fd/%d", fd) < (int) sizeof(ipath)) {
		r = bo_log_open_indexed_fd(logfd, path, ipath, &R->log, &e);
		if (r < 0)
			bo_debug(BO_DBG_LOG, "'%s': not using %s: %s", R->dir, BO_LOG_INDEX_NAME,
				 bo_err_str(&e));
	}
	close(fd);
	return r;
}

static void load(struct report *R)
{
	struct bo_err e = {0};
	char path[PATH_MAX];
	int fd;

	if (bo_summary_read(R->dir, &R->sum, NULL, &e) < 0)
		snprintf(R->sum_err, sizeof(R->sum_err), "%s",
			 e.errnum == EBADMSG || e.errnum == EPROTO ? bo_err_str(&e)
								   : "no readable summary.json");
	else
		R->have_sum = true;

	e = (struct bo_err){0};
	if (bo_config_read(R->dir, &R->config, &e) < 0) {
		R->config = NULL;
		snprintf(R->cfg_err, sizeof(R->cfg_err), "%s",
			 e.errnum == EPROTO ? bo_err_str(&e) : "missing or not valid JSON");
	}

	/* write.log: only a regular file of the directory (harness/base/input.h), opened once:
	 * the log reader reads the file checked, never the name again. */
	fd = bo_input_open(R->dir, "write.log", 0, 0, NULL, &e);
	if (fd < 0) {
		snprintf(R->log_err, sizeof(R->log_err), "%s",
			 e.errnum == ENOENT ? "no write.log" : bo_err_str(&e));
	} else {
		e = (struct bo_err){0};
		if (bo_pathf(path, sizeof(path), "%s/write.log", R->dir) == 0 &&
		    open_indexed(R, fd, path) < 0 &&
		    bo_log_open_fd(fd, path, BO_LOG_OPEN_SALVAGE, &R->log, &e) < 0)
			snprintf(R->log_err, sizeof(R->log_err), "write.log: %s", bo_err_str(&e));
		close(fd);
	}
	if (R->log && bo_lint_log(R->log, &R->lint, &e) < 0)
		bo_debug(BO_DBG_LOG, "'%s': no lint: %s", R->dir, bo_err_str(&e));
}

int report_render(int dirfd, const char *dir, const char *name, void (*fn)(FILE *, void *),
		  void *ctx, struct bo_err *err)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool bad;
	int k;

	if (!f)
		return bo_err_set(err, ENOMEM, "writing %s: out of memory", name);
	fn(f, ctx);
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return bo_err_set(err, ENOMEM, "writing %s: out of memory", name);
	k = bo_write_file_at(dirfd, name, buf, len);
	if (k < 0)
		return bo_err_set(err, -k, "'%s': writing %s: %s", dir, name, strerror(-k));
	return 0;
}

static void html_of(FILE *f, void *R)
{
	report_write_html(R, f);
}

static void junit_of(FILE *f, void *R)
{
	report_write_junit(R, f);
}

/* The guest kernel's release, from the first line of diagnostics/pre/versions.txt
 * ("kernel: Linux RELEASE ..."). */
static void load_release(struct report *R)
{
	_cleanup_free_ char *v =
		report_read_capped(R->dirfd, "diagnostics/pre/versions.txt", 512, NULL, NULL);
	char rel[128];

	if (v && sscanf(v, "kernel: Linux %127s", rel) == 1)
		snprintf(R->guest_release, sizeof(R->guest_release), "%s", rel);
}

int report_open(struct report *R, const char *dir, const struct bo_report_opts *o,
		struct bo_err *err)
{
	*R = (struct report){.dir = dir};
	if (o)
		R->o = *o;
	if (!R->o.full_states)
		R->o.full_states = 50;
	if (!R->o.listed_states)
		R->o.listed_states = 2000;
	if (!R->o.byproduct_max)
		R->o.byproduct_max = 16384;
	if (!R->o.buckets)
		R->o.buckets = 400;
	R->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (R->dirfd < 0)
		return bo_err_set(err, errno, "results directory '%s': %s", dir, strerror(errno));
	int r;

	load(R);
	load_release(R);
	r = read_stream(R, err);
	if (r >= 0)
		cross_check(R);
	return r;
}

void report_close(struct report *R)
{
	for (size_t i = 0; i < R->n; i++) {
		json_object_put(R->st[i].rec);
		free(R->st[i].findings);
	}
	free(R->st);
	json_object_put(R->config);
	bo_log_free(R->log);
	bo_lint_clear(&R->lint);
	if (R->dirfd >= 0)
		close(R->dirfd);
}

int bo_report_write(const char *dir, const struct bo_report_opts *o, struct bo_err *err)
{
	struct report R;
	int r = report_open(&R, dir, o, err);

	if (r >= 0) {
		if (R.n) /* qsort's base may not be NULL, even for no elements */
			qsort(R.st, R.n, sizeof(*R.st), cmp_state);
		r = report_render(R.dirfd, R.dir, "report.html", html_of, &R, err);
	}
	if (r >= 0)
		r = report_render(R.dirfd, R.dir, "junit.xml", junit_of, &R, err);
	if (r >= 0 && R.contradiction[0]) {
		bo_err_set(err, EBADMSG, "'%s': %s", dir, R.contradiction);
		r = 1;
	}
	report_close(&R);
	return r;
}

int bo_report_junit_combined(const char *out, const struct bo_junit_cell *cells, size_t n,
			     struct bo_err *err)
{
	struct report_junit_totals t = {0};
	_cleanup_free_ char *suites = NULL, *doc = NULL;
	size_t slen = 0, dlen = 0;
	FILE *s = open_memstream(&suites, &slen), *d = NULL;
	_cleanup_close_ int dirfd = -1;
	char dir[PATH_MAX];
	const char *slash;
	bool bad = false;
	int r = 0;

	if (!s)
		return bo_err_set(err, ENOMEM, "'%s': out of memory", out);
	for (size_t i = 0; i < n; i++) {
		struct bo_err e = {0};
		char why[PATH_MAX + 600];
		struct report R;

		if (!cells[i].dir) {
			snprintf(why, sizeof(why), "the run left no results directory; see %s",
				 cells[i].log ? cells[i].log : "its log");
			report_junit_missing(s, cells[i].name, why, &t);
			continue;
		}
		if (report_open(&R, cells[i].dir, NULL, &e) >= 0) {
			R.suite = cells[i].name; /* the cell's identity, kernel and all */
			report_junit_count(&R, &t);
			report_junit_suite(&R, s);
		} else {
			report_junit_missing(s, cells[i].name, bo_err_str(&e), &t);
		}
		report_close(&R);
	}
	bad = ferror(s);
	if (fclose(s) != 0 || bad)
		return bo_err_set(err, ENOMEM, "'%s': out of memory", out);
	d = open_memstream(&doc, &dlen);
	if (!d)
		return bo_err_set(err, ENOMEM, "'%s': out of memory", out);
	report_junit_open(d, &t);
	fwrite(suites, 1, slen, d);
	report_junit_close(d);
	bad = ferror(d);
	if (fclose(d) != 0 || bad)
		return bo_err_set(err, ENOMEM, "'%s': out of memory", out);
	slash = strrchr(out, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int) (slash - out) : 1, slash ? out : ".");
	dirfd = open(*dir ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return bo_err_set(err, errno, "'%s': %s", dir, strerror(errno));
	r = bo_write_file_at(dirfd, slash ? slash + 1 : out, doc, dlen);
	return r < 0 ? bo_err_set(err, -r, "writing '%s': %s", out, strerror(-r)) : 0;
}
