// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.html and junit.xml of a results directory (see report.h and docs/results.md).
 */
#include "harness/report.h"

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

#include "harness/classify.h"
#include "harness/cleanup.h"
#include "harness/log.h"
#include "harness/summary.h"

#define ID_MAX	  64
#define UNKNOWN	  BO_CLASS_COUNT /* a class name the report does not know */
#define NCLASS	  (BO_CLASS_COUNT + 1)
#define SVG_W	  1000
#define SVG_LEFT  90
#define STATE_MAX 2000 /* states drawn one by one in the timeline; more are aggregated */

struct rstate {
	char id[ID_MAX];
	uint64_t cut;
	unsigned cls;
	double seconds;
	bool alias;
	bool path_ok; /* the id is safe as a directory name */
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
	struct rstate *st;
	size_t n, cap;
	size_t bad_lines;
	struct bo_log *log;
	char log_err[512];
	double class_seconds[NCLASS];
};

/* The classes drawn on top of others, worst first. */
static const enum bo_class severity[] = {
	BO_CLASS_HARNESS_ERROR,	      BO_CLASS_CHECKER_ERROR, BO_CLASS_UNMOUNTABLE,
	BO_CLASS_FSCK_DIRTY,	      BO_CLASS_LOST_ACK,      BO_CLASS_PHANTOM,
	BO_CLASS_APP_RECOVERY_FAILED, BO_CLASS_CONSISTENT,
};

static const char *class_color(unsigned c)
{
	static const char *const colors[NCLASS] = {
		[BO_CLASS_CONSISTENT] = "#43a047",
		[BO_CLASS_UNMOUNTABLE] = "#8e0000",
		[BO_CLASS_FSCK_DIRTY] = "#ef6c00",
		[BO_CLASS_LOST_ACK] = "#e53935",
		[BO_CLASS_PHANTOM] = "#8e24aa",
		[BO_CLASS_APP_RECOVERY_FAILED] = "#f9a825",
		[BO_CLASS_CHECKER_ERROR] = "#546e7a",
		[BO_CLASS_HARNESS_ERROR] = "#212121",
		[UNKNOWN] = "#9e9e9e",
	};

	return c < NCLASS ? colors[c] : colors[UNKNOWN];
}

static const char *class_name(unsigned c)
{
	return c < BO_CLASS_COUNT ? bo_class_name((enum bo_class) c) : "unknown";
}

static bool class_is_error(unsigned c)
{
	return c == BO_CLASS_HARNESS_ERROR || c == BO_CLASS_CHECKER_ERROR || c == UNKNOWN;
}

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF, and the XML non-characters. */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || cp == 0xfffe || cp == 0xffff)
		return 0;
	return len;
}

void bo_report_escape(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *) s;

	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		size_t n;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			i++;
			continue;
		case '<':
			fputs("&lt;", f);
			i++;
			continue;
		case '>':
			fputs("&gt;", f);
			i++;
			continue;
		case '"':
			fputs("&quot;", f);
			i++;
			continue;
		case '\'':
			fputs("&#39;", f);
			i++;
			continue;
		case '\t':
		case '\n':
			fputc(c, f);
			i++;
			continue;
		default:
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			fputs("\xef\xbf\xbd", f);
			i++;
			continue;
		}
		n = utf8_len(p + i, len - i);
		if (!n) {
			fputs("\xef\xbf\xbd", f);
			i++;
			continue;
		}
		fwrite(p + i, 1, n, f);
		i += n;
	}
}

static void esc(FILE *f, const char *s)
{
	if (s)
		bo_report_escape(f, s, strlen(s));
}

/* Is @id safe as a path component and a URL fragment? */
static bool id_ok(const char *id)
{
	if (!*id || *id == '.' || strlen(id) >= ID_MAX)
		return false;
	for (const char *p = id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr(",:._-", *p)))
			return false;
	return true;
}

/* Read at most @max bytes of @rel under the directory, never following a symlink. Sets
 * *@ret_total to the file's size. NULL when it cannot be read. */
static char *read_capped(int dirfd, const char *rel, size_t max, uint64_t *ret_total)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	char *buf;
	ssize_t n;

	fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	buf = malloc(max + 1);
	if (!buf)
		return NULL;
	n = bo_pread_full(fd, buf, max, 0);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (ret_total)
		*ret_total = (uint64_t) st.st_size;
	return buf;
}

static const char *cfg_str(struct json_object *o, const char *path)
{
	char key[64];
	const char *p = path;
	struct json_object *v = o;

	while (v && *p) {
		size_t n = strcspn(p, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		if (!json_object_is_type(v, json_type_object) ||
		    !json_object_object_get_ex(v, key, &v))
			return NULL;
		p += n;
		if (*p == '.')
			p++;
	}
	if (!v || json_object_is_type(v, json_type_object) ||
	    json_object_is_type(v, json_type_array))
		return NULL;
	return json_object_get_string(v);
}

static int add_state(struct report *R, struct json_object *rec, bool alias)
{
	struct json_object *v;
	struct rstate *s;
	enum bo_class c;

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
	if (!json_object_object_get_ex(rec, "state", &v) ||
	    !json_object_is_type(v, json_type_string))
		return -EBADMSG;
	snprintf(s->id, sizeof(s->id), "%s", json_object_get_string(v));
	s->path_ok = id_ok(json_object_get_string(v));
	if (json_object_object_get_ex(rec, "cut", &v) && json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) >= 0)
		s->cut = (uint64_t) json_object_get_int64(v);
	s->cls = UNKNOWN;
	if (json_object_object_get_ex(rec, "class", &v) &&
	    json_object_is_type(v, json_type_string) &&
	    bo_class_from_name(json_object_get_string(v), &c) >= 0)
		s->cls = (unsigned) c;
	if (json_object_object_get_ex(rec, "seconds", &v))
		s->seconds = json_object_get_double(v);
	s->alias = alias;
	s->rec = json_object_get(rec);
	if (!alias)
		R->class_seconds[s->cls] += s->seconds;
	R->n++;
	return 0;
}

static int read_stream(struct report *R, struct bo_err *err)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int fd;

	fd = openat(R->dirfd, "stream.jsonl", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return bo_err_set(err, errno, "reading stream.jsonl: %s", strerror(errno));
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		struct json_object *rec = json_tokener_parse(line), *ev;
		const char *e;
		int r = 0;

		if (!rec || !json_object_is_type(rec, json_type_object) ||
		    !json_object_object_get_ex(rec, "event", &ev)) {
			R->bad_lines++;
			json_object_put(rec);
			continue;
		}
		e = json_object_get_string(ev);
		if (!strcmp(e, "state"))
			r = add_state(R, rec, false);
		else if (!strcmp(e, "alias"))
			r = add_state(R, rec, true);
		json_object_put(rec);
		if (r == -ENOMEM)
			return bo_err_set(err, ENOMEM, "reading stream.jsonl: out of memory");
		if (r < 0)
			R->bad_lines++;
	}
	return 0;
}

static int cmp_state(const void *a, const void *b)
{
	const struct rstate *x = a, *y = b;

	if (x->cut != y->cut)
		return x->cut < y->cut ? -1 : 1;
	return strcmp(x->id, y->id);
}

static void load(struct report *R)
{
	struct json_object *o;
	struct bo_err e = {0};
	char path[PATH_MAX];
	int fd;

	fd = openat(R->dirfd, "summary.json", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	o = fd >= 0 ? json_object_from_fd(fd) : NULL;
	if (fd >= 0)
		close(fd);
	if (!o)
		snprintf(R->sum_err, sizeof(R->sum_err), "no readable summary.json");
	else if (bo_summary_from_json(o, &R->sum, &e) < 0)
		snprintf(R->sum_err, sizeof(R->sum_err), "%s", bo_err_str(&e));
	else
		R->have_sum = true;
	json_object_put(o);

	fd = openat(R->dirfd, "config.json", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	R->config = fd >= 0 ? json_object_from_fd(fd) : NULL;
	if (fd >= 0)
		close(fd);

	/* write.log: opened by path, but only when it is a regular file of the directory. */
	fd = openat(R->dirfd, "write.log", O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		snprintf(R->log_err, sizeof(R->log_err), "no write.log");
	} else {
		struct stat st;

		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
			snprintf(R->log_err, sizeof(R->log_err), "write.log is not a regular file");
		else if (snprintf(path, sizeof(path), "/proc/self/fd/%d", fd) <
				 (int) sizeof(path) &&
			 bo_log_open(path, BO_LOG_OPEN_SALVAGE, &R->log, &e) < 0)
			snprintf(R->log_err, sizeof(R->log_err), "write.log: %s", bo_err_str(&e));
		close(fd);
	}
}

static void html_head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n<title>",
	      f);
	esc(f, title);
	fputs("</title>\n<style>\n"
	      "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1200px;"
	      "padding:0 1em;color:#212121}\n"
	      "h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.2em;margin-top:1.6em;"
	      "border-bottom:1px solid #ddd}h3{font-size:1.05em;margin:1.2em 0 .3em}\n"
	      "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:left;"
	      "vertical-align:top;border-bottom:1px solid #eee}th{background:#f5f5f5}\n"
	      "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	      "pre{background:#f7f7f7;border:1px solid #e0e0e0;padding:6px;overflow:auto;"
	      "max-height:24em;white-space:pre-wrap;word-break:break-all;margin:.2em 0}\n"
	      ".sw{display:inline-block;width:.9em;height:.9em;border-radius:2px;"
	      "vertical-align:-1px;margin-right:4px}\n"
	      ".verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;"
	      "font-weight:600}\n"
	      ".state{border-left:4px solid #ccc;padding-left:10px;margin:1em 0}\n"
	      "details>summary{cursor:pointer;color:#424242}\n"
	      "code{background:#f3f3f3;padding:0 3px}.muted{color:#757575}\n"
	      "svg text{font:11px system-ui,sans-serif;fill:#424242}\n"
	      "</style></head><body>\n",
	      f);
}

static void section_summary(struct report *R, FILE *f)
{
	enum bo_verdict_kind v = R->have_sum ? bo_summary_verdict(&R->sum) : BO_VERDICT_ERROR;
	const char *vc = v == BO_VERDICT_CONSISTENT ? "#2e7d32"
			 : v == BO_VERDICT_FAILED   ? "#c62828"
						    : "#212121";

	fprintf(f,
		"<p>verdict: <span class=\"verdict\" id=\"verdict\" style=\"background:%s\">%s"
		"</span>",
		vc, bo_verdict_name(v));
	if (!R->have_sum) {
		fputs(" <span class=\"muted\">(", f);
		esc(f, R->sum_err);
		fputs(")</span></p>\n", f);
		return;
	}
	fprintf(f,
		" &nbsp; %" PRIu64 " states checked, %" PRIu64 " aliased, %.1f s in all, %.1f s "
		"checking</p>\n",
		R->sum.states, R->sum.aliases, R->sum.seconds_total, R->sum.seconds_check);
	if (R->sum.error[0]) {
		fputs("<p><b>error:</b> <code>", f);
		esc(f, R->sum.error);
		fputs("</code></p>\n", f);
	}
	fputs("<table id=\"summary\"><tr><th>class</th><th>states</th><th>first state</th></tr>\n",
	      f);
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		if (!R->sum.counts[c] && c != BO_CLASS_CONSISTENT)
			continue;
		fprintf(f,
			"<tr><td><span class=\"sw\" style=\"background:%s\"></span>%s</td>"
			"<td class=\"n\">%" PRIu64 "</td><td>",
			class_color((unsigned) c), class_name((unsigned) c), R->sum.counts[c]);
		if (c != BO_CLASS_CONSISTENT && R->sum.first[c][0]) {
			if (id_ok(R->sum.first[c])) {
				fputs("<a href=\"#s-", f);
				esc(f, R->sum.first[c]);
				fputs("\">", f);
				esc(f, R->sum.first[c]);
				fputs("</a>", f);
			} else {
				esc(f, R->sum.first[c]);
			}
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void row(FILE *f, const char *k, const char *v)
{
	if (!v || !*v)
		return;
	fputs("<tr><th>", f);
	esc(f, k);
	fputs("</th><td><code>", f);
	esc(f, v);
	fputs("</code></td></tr>\n", f);
}

static void section_environment(struct report *R, FILE *f)
{
	static const struct {
		const char *label, *path;
	} keys[] = {
		{"run id", "run_id"},
		{"kind", "kind"},
		{"scenario", "scenario.name"},
		{"description", "scenario.description"},
		{"scenario file", "scenario.file"},
		{"filesystem", "device.fs"},
		{"filesystem", "options.fs"},
		{"device size", "device.size"},
		{"sector size", "device.sector_size"},
		{"mkfs options", "device.mkfs_options"},
		{"mount options", "device.mount_options"},
		{"mount options", "options.mount_options"},
		{"workload", "workload.command"},
		{"seed", "run.seed"},
		{"seed", "options.seed"},
		{"cut policy", "check.cuts.policy"},
		{"cut policy", "options.cuts"},
		{"checker", "check.checker"},
		{"checker", "options.checker"},
		{"state", "options.state"},
		{"shard", "shard"},
		{"log sha256", "log_sha256"},
		{"blackout version", "blackout"},
		{"host kernel", "host_kernel"},
	};
	_cleanup_free_ char *versions = NULL;
	uint64_t total = 0;

	fputs("<h2 id=\"environment\">Scenario and environment</h2>\n<table>\n", f);
	if (!R->config)
		row(f, "config.json", "missing or not valid JSON");
	for (size_t i = 0; R->config && i < BO_ARRAY_SIZE(keys); i++)
		row(f, keys[i].label, cfg_str(R->config, keys[i].path));
	versions = read_capped(R->dirfd, "diagnostics/pre/versions.txt", 8192, &total);
	if (versions) {
		char *nl = strchr(versions, '\n');

		if (!strncmp(versions, "kernel: ", 8)) {
			if (nl)
				*nl = '\0';
			row(f, "guest kernel", versions + 8);
			if (nl)
				*nl = '\n';
		}
	}
	fputs("</table>\n", f);
	if (versions) {
		fputs("<details><summary>guest versions (diagnostics/pre/versions.txt)</summary>"
		      "<pre>",
		      f);
		esc(f, versions);
		fputs("</pre></details>\n", f);
	}
	if (R->config) {
		fputs("<details><summary>config.json</summary><pre>", f);
		esc(f,
		    json_object_to_json_string_ext(
			    R->config, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		fputs("</pre></details>\n", f);
	}
}

struct bucket {
	uint32_t writes, flush, fua, discard, named, issue, ack;
	uint32_t states[NCLASS];
	const char *mark; /* the first named mark */
	const char *first_fail;
};

static double bx(size_t b, size_t nb)
{
	return SVG_LEFT + (double) b * SVG_W / (double) nb;
}

static void tick_row(FILE *f, const struct bucket *bk, size_t nb, uint64_t n, size_t field,
		     double y, const char *label, const char *color)
{
	double w = (double) SVG_W / (double) nb;

	fprintf(f, "<text x=\"4\" y=\"%.0f\">%s</text>\n", y + 11, label);
	for (size_t b = 0; b < nb; b++) {
		uint32_t k = *(const uint32_t *) ((const char *) &bk[b] + field);

		if (!k)
			continue;
		fprintf(f,
			"<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"14\" fill=\"%s\">"
			"<title>%s: %" PRIu32 " in entries %" PRIu64 "-%" PRIu64,
			bx(b, nb), y, w < 1.5 ? 1.5 : w, color, label, k, b * n / nb,
			(b + 1) * n / nb - 1);
		if (bk[b].mark && field == offsetof(struct bucket, named)) {
			fputs(" (", f);
			esc(f, bk[b].mark);
			fputs(k > 1 ? ", ...)" : ")", f);
		}
		fputs("</title></rect>\n", f);
	}
}

static void section_timeline(struct report *R, FILE *f)
{
	uint64_t n = R->log ? bo_log_count(R->log) : 0;
	size_t nb, checked = 0;
	_cleanup_free_ struct bucket *bk = NULL;
	uint32_t maxw = 1;
	double y, h;

	for (size_t i = 0; i < R->n; i++)
		if (R->st[i].cut > n && !R->log)
			n = R->st[i].cut;
	fputs("<h2 id=\"timeline-h\">Timeline of the write log</h2>\n", f);
	if (!R->log) {
		fputs("<p class=\"muted\">", f);
		esc(f, R->log_err);
		fputs(": the timeline shows the checked states only.</p>\n", f);
	}
	if (n == 0) {
		fputs("<p id=\"timeline\">Nothing to draw: no log entries and no states.</p>\n", f);
		return;
	}
	nb = n < R->o.buckets ? (size_t) n : R->o.buckets;
	bk = calloc(nb, sizeof(*bk));
	if (!bk) {
		fputs("<p id=\"timeline\">out of memory</p>\n", f);
		return;
	}
	for (uint64_t e = 0; R->log && e < n; e++) {
		const struct bo_log_entry *le = bo_log_entry(R->log, e);
		struct bucket *b = &bk[e * nb / n];

		if (le->flags & BO_LOG_MARK) {
			const char *m = bo_log_mark_name(R->log, e);

			if (m && !strncmp(m, "issue:", 6)) {
				b->issue++;
			} else if (m && !strncmp(m, "ack:", 4)) {
				b->ack++;
			} else {
				b->named++;
				if (!b->mark)
					b->mark = m;
			}
			continue;
		}
		if (le->flags & BO_LOG_FLUSH)
			b->flush++;
		if (le->flags & BO_LOG_FUA)
			b->fua++;
		if (le->flags & BO_LOG_DISCARD)
			b->discard++;
		else if (le->nr_sectors)
			b->writes++;
	}
	for (size_t i = 0; i < R->n; i++) {
		const struct rstate *s = &R->st[i];
		uint64_t at = s->cut ? s->cut - 1 : 0;
		struct bucket *b = &bk[(at < n ? at : n - 1) * nb / n];

		b->states[s->cls]++;
		if (s->cls != BO_CLASS_CONSISTENT && !b->first_fail && s->path_ok)
			b->first_fail = s->id;
		checked += !s->alias;
	}
	for (size_t b = 0; b < nb; b++)
		if (bk[b].writes > maxw)
			maxw = bk[b].writes;
	h = 2 + 46 + 5 * 18 + 24 + 34 + 16;
	fprintf(f,
		"<p class=\"muted\">%" PRIu64 " log entries%s in %zu columns of %.1f entries; "
		"x is the position in the log (entries in the order they became durable). Each "
		"checked state is drawn at its cut, coloured by class; hover for details, click a "
		"failing state to jump to it.</p>\n",
		n, R->log ? "" : " (from the states' cuts)", nb, (double) n / (double) nb);
	fprintf(f,
		"<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%%\" "
		"viewBox=\"0 0 %d %.0f\" role=\"img\" aria-label=\"timeline of the write log\">\n",
		SVG_LEFT + SVG_W + 10, h);
	/* writes, as a bar chart */
	y = 2;
	fprintf(f, "<text x=\"4\" y=\"%.0f\">writes</text>\n", y + 24);
	for (size_t b = 0; b < nb; b++) {
		double bh = bk[b].writes ? 2 + 38.0 * bk[b].writes / maxw : 0;
		double w = (double) SVG_W / (double) nb;

		if (!bh)
			continue;
		fprintf(f,
			"<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
			"fill=\"#90a4ae\">"
			"<title>%" PRIu32 " writes in entries %" PRIu64 "-%" PRIu64
			"</title></rect>\n",
			bx(b, nb), y + 40 - bh, w < 1.5 ? 1.5 : w, bh, bk[b].writes, b * n / nb,
			(b + 1) * n / nb - 1);
	}
	y += 46;
	tick_row(f, bk, nb, n, offsetof(struct bucket, flush), y, "flush", "#1565c0");
	tick_row(f, bk, nb, n, offsetof(struct bucket, fua), y += 18, "FUA", "#6a1b9a");
	tick_row(f, bk, nb, n, offsetof(struct bucket, discard), y += 18, "discard", "#795548");
	tick_row(f, bk, nb, n, offsetof(struct bucket, named), y += 18, "marks", "#37474f");
	tick_row(f, bk, nb, n, offsetof(struct bucket, issue), y += 18, "issue", "#9e9e9e");
	tick_row(f, bk, nb, n, offsetof(struct bucket, ack), y += 18, "ack", "#00897b");
	y += 24;
	fprintf(f, "<text x=\"4\" y=\"%.0f\">states</text>\n", y + 16);
	fprintf(f,
		"<rect x=\"%d\" y=\"%.0f\" width=\"%d\" height=\"24\" fill=\"none\" "
		"stroke=\"#e0e0e0\"/>\n",
		SVG_LEFT, y, SVG_W);
	if (R->n <= STATE_MAX) {
		/* Each state at its own cut: consistent ones first, failing ones on top. */
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < R->n; i++) {
				const struct rstate *s = &R->st[i];
				bool fail = s->cls != BO_CLASS_CONSISTENT;
				double x = SVG_LEFT + (double) SVG_W *
							      (double) (s->cut ? s->cut - 1 : 0) /
							      (double) n;

				if (fail != (pass == 1))
					continue;
				if (fail && s->path_ok) {
					fputs("<a href=\"#s-", f);
					esc(f, s->id);
					fputs("\">", f);
				}
				fprintf(f,
					"<rect class=\"st\" x=\"%.2f\" y=\"%.0f\" width=\"2\" "
					"height=\"%d\" fill=\"%s\"><title>",
					x - 1, fail ? y - 4 : y + 2, fail ? 32 : 20,
					class_color(s->cls));
				esc(f, s->id);
				fprintf(f, ": %s%s, cut %" PRIu64 "</title></rect>",
					class_name(s->cls), s->alias ? " (alias)" : "", s->cut);
				fputs(fail && s->path_ok ? "</a>\n" : "\n", f);
			}
	} else {
		double w = (double) SVG_W / (double) nb;

		for (size_t b = 0; b < nb; b++) {
			unsigned total = 0;
			double yy = y;

			for (unsigned c = 0; c < NCLASS; c++)
				total += bk[b].states[c];
			if (!total)
				continue;
			if (bk[b].first_fail) {
				fputs("<a href=\"#s-", f);
				esc(f, bk[b].first_fail);
				fputs("\">", f);
			}
			fprintf(f, "<g class=\"st\"><title>entries %" PRIu64 "-%" PRIu64 ":",
				b * n / nb, (b + 1) * n / nb - 1);
			for (unsigned c = 0, k = 0; c < NCLASS; c++) {
				if (!bk[b].states[c])
					continue;
				fprintf(f, "%s %" PRIu32 " %s", k++ ? "," : "", bk[b].states[c],
					class_name(c));
			}
			if (bk[b].first_fail) {
				fputs("; first failing: ", f);
				esc(f, bk[b].first_fail);
			}
			fputs("</title>", f);
			/* The column stacked by class, the worst on top, each at least 2 px. */
			for (size_t k = 0; k <= BO_ARRAY_SIZE(severity); k++) {
				unsigned c = k ? (unsigned) severity[k - 1] : UNKNOWN;
				double hh = 24.0 * bk[b].states[c] / total;

				if (!bk[b].states[c])
					continue;
				hh = hh < 2 ? 2 : hh;
				hh = yy + hh > y + 24 ? y + 24 - yy : hh;
				if (hh <= 0)
					break;
				fprintf(f,
					"<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
					"height=\"%.2f\" "
					"fill=\"%s\"/>",
					bx(b, nb), yy, w < 1.5 ? 1.5 : w, hh, class_color(c));
				yy += hh;
			}
			fputs(bk[b].first_fail ? "</g></a>\n" : "</g>\n", f);
		}
	}
	y += 34;
	for (int q = 0; q <= 4; q++) {
		double x = SVG_LEFT + SVG_W * q / 4.0;

		fprintf(f,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"2\" y2=\"%.0f\" stroke=\"#bdbdbd\" "
			"stroke-dasharray=\"2,3\"/><text x=\"%.1f\" y=\"%.0f\" "
			"text-anchor=\"%s\">entry %" PRIu64 "</text>\n",
			x, x, y - 6, x, y + 10,
			q == 0	 ? "start"
			: q == 4 ? "end"
				 : "middle",
			q == 4 ? n - 1 : n * (uint64_t) q / 4);
	}
	fputs("</svg>\n<p>", f);
	for (unsigned c = 0; c < NCLASS; c++)
		fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>%s &nbsp; ",
			class_color(c), class_name(c));
	fprintf(f, "</p>\n<p class=\"muted\">%zu states drawn (%zu checked, %zu aliases).</p>\n",
		R->n, checked, R->n - checked);
	if (R->log && bo_log_mark_count(R->log)) {
		size_t shown = 0, named = 0;

		for (size_t i = 0; i < bo_log_mark_count(R->log); i++) {
			const char *m = bo_log_mark_at(R->log, i)->name;

			named += strncmp(m, "issue:", 6) && strncmp(m, "ack:", 4);
		}
		fprintf(f,
			"<details><summary>%zu named marks (and %zu issue/ack marks)</summary>"
			"<table>",
			named, bo_log_mark_count(R->log) - named);
		for (size_t i = 0; i < bo_log_mark_count(R->log) && shown < 200; i++) {
			const struct bo_log_mark *m = bo_log_mark_at(R->log, i);

			if (!strncmp(m->name, "issue:", 6) || !strncmp(m->name, "ack:", 4))
				continue;
			fprintf(f, "<tr><td class=\"n\">entry %" PRIu64 "</td><td><code>",
				m->entry);
			esc(f, m->name);
			fputs("</code></td></tr>", f);
			shown++;
		}
		fputs(shown < named ? "<tr><td></td><td>...</td></tr></table></details>\n"
				    : "</table></details>\n",
		      f);
	}
}

/* The command in repro.sh: its line starting with "exec ", without it. */
static char *repro_command(const char *repro)
{
	const char *p = repro;

	while (p && *p) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, "exec ", 5))
			return strndup(p + 5, n - 5);
		p += n;
		if (*p)
			p++;
	}
	return NULL;
}

static void byproduct(struct report *R, FILE *f, const struct rstate *s, const char *name,
		      bool open)
{
	char rel[PATH_MAX];
	_cleanup_free_ char *text = NULL;
	uint64_t total = 0;

	if (snprintf(rel, sizeof(rel), "states/%s/%s", s->id, name) >= (int) sizeof(rel))
		return;
	text = read_capped(R->dirfd, rel, R->o.byproduct_max, &total);
	if (!text)
		return;
	fprintf(f, "<details class=\"bp\"%s><summary>%s (%" PRIu64 " bytes)</summary>",
		open && *text ? " open" : "", name, total);
	if (*text) {
		fputs("<pre>", f);
		esc(f, text);
		if (total > R->o.byproduct_max)
			fprintf(f, "\n[... %" PRIu64 " more bytes in ", total - R->o.byproduct_max);
		if (total > R->o.byproduct_max) {
			esc(f, rel);
			fputs("]", f);
		}
		fputs("</pre>", f);
	}
	fputs("</details>\n", f);
}

static void opset_cell(FILE *f, struct json_object *rec, const char *key)
{
	struct json_object *v;
	size_t n;

	if (!json_object_object_get_ex(rec, key, &v) || !json_object_is_type(v, json_type_array))
		return;
	n = json_object_array_length(v);
	fprintf(f, "%s: ", key);
	for (size_t i = 0; i < n && i < 20; i++)
		fprintf(f, "%s%" PRId64, i ? "," : "",
			json_object_get_int64(json_object_array_get_idx(v, i)));
	if (n > 20)
		fprintf(f, ",... (%zu)", n);
	fputs(" ", f);
}

static void section_states(struct report *R, FILE *f)
{
	size_t failing = 0, full = 0, listed = 0;

	for (size_t i = 0; i < R->n; i++)
		failing += !R->st[i].alias && R->st[i].cls != BO_CLASS_CONSISTENT;
	fprintf(f, "<h2 id=\"failing\">Failing states (%zu)</h2>\n", failing);
	if (!failing) {
		fputs("<p>None: every checked state was consistent.</p>\n", f);
		return;
	}
	if (failing > R->o.full_states)
		fprintf(f,
			"<p class=\"muted\">The first %zu are shown with their by-products; the "
			"rest are listed with links to their directories.</p>\n",
			R->o.full_states);
	for (size_t i = 0; i < R->n; i++) {
		const struct rstate *s = &R->st[i];
		struct json_object *v;
		_cleanup_free_ char *repro = NULL, *cmd = NULL;
		char rel[PATH_MAX];

		if (s->alias || s->cls == BO_CLASS_CONSISTENT)
			continue;
		if (full >= R->o.full_states)
			break;
		full++;
		fprintf(f, "<div class=\"state\" style=\"border-color:%s\"", class_color(s->cls));
		if (s->path_ok) {
			fputs(" id=\"s-", f);
			esc(f, s->id);
			fputs("\"", f);
		}
		fputs("><h3>", f);
		esc(f, s->id);
		fprintf(f,
			" &mdash; <span style=\"color:%s\">%s</span> <span class=\"muted\">cut "
			"%" PRIu64 ", %.2f s",
			class_color(s->cls), class_name(s->cls), s->cut, s->seconds);
		if (s->path_ok) {
			fputs(", <a href=\"states/", f);
			esc(f, s->id);
			fputs("/\">states/", f);
			esc(f, s->id);
			fputs("/</a>", f);
		}
		fputs("</span></h3>\n", f);
		if (json_object_object_get_ex(s->rec, "error", &v)) {
			fputs("<p><b>error:</b> <code>", f);
			esc(f, json_object_get_string(v));
			fputs("</code></p>\n", f);
		}
		if (!s->path_ok) {
			fputs("<p class=\"muted\">(state id not usable as a directory "
			      "name)</p></div>\n",
			      f);
			continue;
		}
		if (snprintf(rel, sizeof(rel), "states/%s/repro.sh", s->id) < (int) sizeof(rel))
			repro = read_capped(R->dirfd, rel, 4096, NULL);
		cmd = repro_command(repro);
		if (cmd) {
			fputs("<p>reproduce: <code>sh states/", f);
			esc(f, s->id);
			fputs("/repro.sh</code> &nbsp;runs <code>", f);
			esc(f, cmd);
			fputs("</code></p>\n", f);
		}
		byproduct(R, f, s, "verdict.txt", true);
		byproduct(R, f, s, "mount.err", true);
		byproduct(R, f, s, "fsck.out", true);
		byproduct(R, f, s, "checker.out", true);
		byproduct(R, f, s, "dmesg.txt", false);
		byproduct(R, f, s, "repro.sh", false);
		fputs("</div>\n", f);
	}
	if (full == failing)
		return;
	fputs("<h3>More failing states</h3>\n<table id=\"more\"><tr><th>state</th><th>class</th>"
	      "<th>cut</th><th>details</th></tr>\n",
	      f);
	for (size_t i = 0, k = 0; i < R->n; i++) {
		const struct rstate *s = &R->st[i];
		struct json_object *v;

		if (s->alias || s->cls == BO_CLASS_CONSISTENT || k++ < full)
			continue;
		if (listed >= R->o.listed_states)
			break;
		listed++;
		fputs("<tr><td>", f);
		if (s->path_ok) {
			fputs("<a href=\"states/", f);
			esc(f, s->id);
			fputs("/\">", f);
			esc(f, s->id);
			fputs("</a>", f);
		} else {
			esc(f, s->id);
		}
		fprintf(f,
			"</td><td><span class=\"sw\" style=\"background:%s\"></span>%s</td>"
			"<td class=\"n\">%" PRIu64 "</td><td>",
			class_color(s->cls), class_name(s->cls), s->cut);
		if (json_object_object_get_ex(s->rec, "mounted", &v) && !json_object_get_boolean(v))
			fputs("not mounted ", f);
		if (json_object_object_get_ex(s->rec, "fsck", &v)) {
			fputs("fsck ", f);
			esc(f, json_object_get_string(v));
			fputs(" ", f);
		}
		opset_cell(f, s->rec, "lost");
		opset_cell(f, s->rec, "wrong_content");
		opset_cell(f, s->rec, "phantom");
		opset_cell(f, s->rec, "unordered");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (full + listed < failing)
		fprintf(f,
			"<p class=\"muted\">... and %zu more: see stream.jsonl and states/.</p>\n",
			failing - full - listed);
}

static void write_html(struct report *R, FILE *f)
{
	const char *name = R->config ? cfg_str(R->config, "scenario.name") : NULL;
	const char *runid = R->config ? cfg_str(R->config, "run_id") : NULL;
	char title[256];

	snprintf(title, sizeof(title), "blackout %s%s%s", name ? name : "check", runid ? " " : "",
		 runid ? runid : "");
	html_head(f, title);
	fputs("<h1>", f);
	esc(f, title);
	fputs("</h1>\n", f);
	section_summary(R, f);
	section_environment(R, f);
	section_timeline(R, f);
	section_states(R, f);
	if (R->bad_lines)
		fprintf(f, "<p class=\"muted\">%zu lines of stream.jsonl could not be read.</p>\n",
			R->bad_lines);
	fputs("<p class=\"muted\">Files: <a href=\"summary.json\">summary.json</a> "
	      "<a href=\"stream.jsonl\">stream.jsonl</a> <a href=\"config.json\">config.json</a> "
	      "<a href=\"junit.xml\">junit.xml</a> <a href=\"vm/console.log\">vm/console.log</a> "
	      "<a href=\"states/\">states/</a>. Written by <code>blackout report</code>.</p>\n"
	      "</body></html>\n",
	      f);
}

/* The JUnit name of the scenario: its name, else "check" with the filesystem. */
static void suite_name(struct report *R, char *buf, size_t len)
{
	const char *name = R->config ? cfg_str(R->config, "scenario.name") : NULL;
	const char *fs = R->config ? cfg_str(R->config, "options.fs") : NULL;

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "check%s%s", fs ? "-" : "", fs ? fs : "");
}

static void write_junit(struct report *R, FILE *f)
{
	char suite[128], stamp[32] = "1970-01-01T00:00:00", host[256] = "localhost";
	unsigned failures = 0, errors = 0, tests = BO_CLASS_COUNT;
	bool run_error = !R->have_sum || R->sum.error[0] || R->sum.states == 0;
	struct stat st;

	suite_name(R, suite, sizeof(suite));
	if (fstatat(R->dirfd, "summary.json", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		struct tm tm;

		gmtime_r(&st.st_mtime, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	}
	gethostname(host, sizeof(host) - 1);
	for (int c = 0; R->have_sum && c < BO_CLASS_COUNT; c++) {
		if (!R->sum.counts[c] || c == BO_CLASS_CONSISTENT)
			continue;
		if (class_is_error((unsigned) c))
			errors++;
		else
			failures++;
	}
	tests += run_error;
	errors += run_error;
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"blackout\" "
		"tests=\"%u\" failures=\"%u\" errors=\"%u\" time=\"%.3f\">\n",
		tests, failures, errors, R->sum.seconds_total);
	fputs("  <testsuite name=\"", f);
	esc(f, suite);
	fprintf(f,
		"\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"0\" time=\"%.3f\" "
		"timestamp=\"%s\" hostname=\"",
		tests, failures, errors, R->sum.seconds_total, stamp);
	esc(f, host);
	fputs("\">\n    <properties>\n", f);
	for (int i = 0; i < 5 && R->config; i++) {
		static const char *const k[] = {"run_id", "blackout", "device.fs",
						"device.mount_options", "run.seed"};
		const char *v = cfg_str(R->config, k[i]);

		if (!v)
			continue;
		fprintf(f, "      <property name=\"%s\" value=\"", k[i]);
		esc(f, v);
		fputs("\"/>\n", f);
	}
	fputs("      <property name=\"results\" value=\"", f);
	esc(f, R->dir);
	fputs("\"/>\n    </properties>\n", f);
	if (run_error) {
		fputs("    <testcase classname=\"blackout.", f);
		esc(f, suite);
		fputs("\" name=\"run\" time=\"0\">\n      <error type=\"harness\" message=\"", f);
		esc(f, R->have_sum ? (R->sum.error[0] ? R->sum.error : "no crash state was checked")
				   : R->sum_err);
		fputs("\">results: ", f);
		esc(f, R->dir);
		fputs("</error>\n    </testcase>\n", f);
	}
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		uint64_t k = R->have_sum ? R->sum.counts[c] : 0;
		const char *first = R->have_sum ? R->sum.first[c] : "";
		bool bad = k && c != BO_CLASS_CONSISTENT;
		const char *tag = class_is_error((unsigned) c) ? "error" : "failure";

		fputs("    <testcase classname=\"blackout.", f);
		esc(f, suite);
		fprintf(f, "\" name=\"%s\" time=\"%.3f\">\n", class_name((unsigned) c),
			R->class_seconds[c]);
		if (bad) {
			_cleanup_free_ char *repro = NULL, *cmd = NULL;
			char rel[PATH_MAX];

			if (id_ok(first) && snprintf(rel, sizeof(rel), "states/%s/repro.sh",
						     first) < (int) sizeof(rel))
				repro = read_capped(R->dirfd, rel, 4096, NULL);
			cmd = repro_command(repro);
			fprintf(f,
				"      <%s type=\"%s\" message=\"%" PRIu64 " state%s %s; first: ",
				tag, class_name((unsigned) c), k, k == 1 ? "" : "s",
				class_name((unsigned) c));
			esc(f, first);
			fputs("\">first failing state: ", f);
			esc(f, first);
			fputs("\nstate directory: ", f);
			esc(f, R->dir);
			fputs("/states/", f);
			esc(f, first);
			fputs("/\nrepro: sh ", f);
			esc(f, R->dir);
			fputs("/states/", f);
			esc(f, first);
			fputs("/repro.sh", f);
			if (cmd) {
				fputs("\n  which runs: ", f);
				esc(f, cmd);
			}
			fprintf(f, "\n</%s>\n", tag);
		}
		fprintf(f, "      <system-out>%" PRIu64 " state%s %s</system-out>\n", k,
			k == 1 ? "" : "s", class_name((unsigned) c));
		fputs("    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
}

/* Write the memory buffer @buf to @name in the directory, atomically. */
static int put_file(struct report *R, const char *name, const char *buf, size_t len,
		    struct bo_err *err)
{
	int k = bo_write_file_at(R->dirfd, name, buf, len);

	if (k < 0)
		return bo_err_set(err, -k, "'%s': writing %s: %s", R->dir, name, strerror(-k));
	return 0;
}

static int render(struct report *R, const char *name, void (*fn)(struct report *, FILE *),
		  struct bo_err *err)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool bad;

	if (!f)
		return bo_err_set(err, ENOMEM, "writing %s: out of memory", name);
	fn(R, f);
	bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return bo_err_set(err, ENOMEM, "writing %s: out of memory", name);
	return put_file(R, name, buf, len, err);
}

int bo_report_write(const char *dir, const struct bo_report_opts *o, struct bo_err *err)
{
	struct report R = {.dir = dir};
	int r;

	if (o)
		R.o = *o;
	if (!R.o.full_states)
		R.o.full_states = 50;
	if (!R.o.listed_states)
		R.o.listed_states = 2000;
	if (!R.o.byproduct_max)
		R.o.byproduct_max = 16384;
	if (!R.o.buckets)
		R.o.buckets = 400;
	R.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (R.dirfd < 0)
		return bo_err_set(err, errno, "results directory '%s': %s", dir, strerror(errno));
	load(&R);
	r = read_stream(&R, err);
	if (r >= 0) {
		if (R.n) /* qsort's base may not be NULL, even for no elements */
			qsort(R.st, R.n, sizeof(*R.st), cmp_state);
		r = render(&R, "report.html", write_html, err);
	}
	if (r >= 0)
		r = render(&R, "junit.xml", write_junit, err);
	for (size_t i = 0; i < R.n; i++)
		json_object_put(R.st[i].rec);
	free(R.st);
	json_object_put(R.config);
	bo_log_free(R.log);
	close(R.dirfd);
	return r;
}
