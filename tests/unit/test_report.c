// SPDX-License-Identifier: GPL-2.0-or-later
/* Escaping for report.html and junit.xml: markup, quotes, control characters and every kind
 * of invalid UTF-8 the guest could write; the log read through a check's saved index. */
#include <fcntl.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/log/log.h"
#include "harness/results/report.h"
#include "harness/log/synth.h"
#include "harness/base/file.h"

#define BAD "\xef\xbf\xbd"

static char *escaped(const char *s, size_t len)
{
	static char *buf;
	size_t n = 0;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &n);
	bo_report_escape(f, s, len);
	fclose(f);
	return buf;
}

#define ESC(lit) escaped(lit, sizeof(lit) - 1)

static void test_markup(void)
{
	CU_ASSERT_STRING_EQUAL(ESC("<a href='x'>&\"</a>"),
			       "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
	CU_ASSERT_STRING_EQUAL(ESC("tab\tnl\n"), "tab\tnl\n");
	CU_ASSERT_STRING_EQUAL(ESC("cr\r esc\x1b del\x7f"), "cr" BAD " esc" BAD " del" BAD);
	CU_ASSERT_STRING_EQUAL(escaped("a\0b", 3), "a" BAD "b");
}

static void test_utf8(void)
{
	/* Valid: 2, 3 and 4 bytes. */
	CU_ASSERT_STRING_EQUAL(ESC("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
			       "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	/* A lone continuation byte, a truncated sequence, 0xff. */
	CU_ASSERT_STRING_EQUAL(ESC("\x80x"), BAD "x");
	CU_ASSERT_STRING_EQUAL(ESC("\xe2\x82"), BAD BAD);
	CU_ASSERT_STRING_EQUAL(ESC("\xff"), BAD);
	/* Overlong '<' must not become markup; surrogates, beyond U+10FFFF, U+FFFE. */
	CU_ASSERT_STRING_EQUAL(ESC("\xc0\xbc"), BAD BAD);
	CU_ASSERT_STRING_EQUAL(ESC("\xe0\x80\xbc"), BAD BAD BAD);
	CU_ASSERT_STRING_EQUAL(ESC("\xed\xa0\x80"), BAD BAD BAD);
	CU_ASSERT_STRING_EQUAL(ESC("\xf4\x90\x80\x80"), BAD BAD BAD BAD);
	CU_ASSERT_STRING_EQUAL(ESC("\xef\xbf\xbe"), BAD BAD BAD);
	/* A sequence cut by the end of the buffer. */
	CU_ASSERT_STRING_EQUAL(escaped("\xc3\xa9", 1), BAD);
}

/* report.html of results directory @dir, written anew. */
static char *report_of(const char *dir)
{
	char path[4096], *html = NULL;
	struct bo_err err = {0};

	snprintf(path, sizeof(path), "%s/report.html", dir);
	unlink(path);
	if (bo_report_write(dir, NULL, &err) < 0) {
		fprintf(stderr, "\n  report: %s\n", err.msg);
		return NULL;
	}
	return bo_read_file(path, 64u << 20, &html, NULL) == 0 ? html : NULL;
}

/*
 * With a check's saved index beside write.log, the report reads the log through it and comes
 * out the same; an index of another log is not used. The positive control: a header damaged
 * after the index was made is not read through the index, while without the index the
 * salvaged log stops there and the timeline changes.
 */
static void test_index(void)
{
	const char *dir = bo_test_path("res");
	char log[4096], idx[4096], other[4096], cmd[3 * 4096];
	struct bo_synth_params sp = {.seed = 3,
				     .entries = 600,
				     .sectorsize = 4096,
				     .dev_blocks = 1u << 12,
				     .max_blocks = 8,
				     .flush_every = 10,
				     .mark_every = 12};
	struct bo_log *l = NULL;
	struct bo_err err = {0};
	char *plain, *indexed, *damaged, *salvaged;
	uint64_t hdr;
	FILE *f;
	int fd;

	snprintf(log, sizeof(log), "%s/write.log", dir);
	snprintf(idx, sizeof(idx), "%s/%s", dir, BO_LOG_INDEX_NAME);
	snprintf(other, sizeof(other), "%s/other.log", dir);
	CU_ASSERT_FATAL(mkdir(dir, 0755) == 0);
	CU_ASSERT_FATAL(bo_synth_log(log, &sp, &err) == 0);
	f = fopen(bo_test_path("res/stream.jsonl"), "we");
	CU_ASSERT_FATAL(f != NULL);
	for (unsigned c = 50; c <= 550; c += 50)
		fprintf(f,
			"{\"seq\":%u,\"time\":\"t\",\"event\":\"state\",\"state\":\"c%u\","
			"\"cut\":%u,\"class\":\"consistent\",\"seconds\":0.5}\n",
			c, c - 1, c);
	fclose(f);

	plain = report_of(dir);
	CU_ASSERT_FATAL(plain != NULL);
	CU_ASSERT(strstr(plain, "timeline of the write log") != NULL);

	/* Another log's index: refused, the headers are read. */
	sp.seed = 4;
	CU_ASSERT_FATAL(bo_synth_log(other, &sp, &err) == 0);
	CU_ASSERT_FATAL(bo_log_open(other, 0, &l, &err) == 0);
	CU_ASSERT_FATAL(bo_log_save_index(l, idx, &err) == 0);
	bo_log_free(l);
	l = NULL;
	indexed = report_of(dir);
	CU_ASSERT(indexed && strcmp(indexed, plain) == 0);
	free(indexed);
	unlink(idx);

	/* Its own index: the same report. */
	CU_ASSERT_FATAL(bo_log_open(log, 0, &l, &err) == 0);
	CU_ASSERT_FATAL(bo_log_save_index(l, idx, &err) == 0);
	hdr = bo_log_entry(l, 300)->offset;
	bo_log_free(l);
	indexed = report_of(dir);
	CU_ASSERT(indexed && strcmp(indexed, plain) == 0);

	/* Entry 300's header zeroed: read through the index, nothing changes ... */
	fd = open(log, O_WRONLY);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(pwrite(fd, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16, (off_t) hdr) == 16);
	close(fd);
	damaged = report_of(dir);
	CU_ASSERT(damaged && strcmp(damaged, plain) == 0);
	/* ... while the headers alone give a log salvaged up to entry 300. */
	unlink(idx);
	salvaged = report_of(dir);
	CU_ASSERT(salvaged && strcmp(salvaged, plain) != 0);
	free(plain);
	free(indexed);
	free(damaged);
	free(salvaged);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

/*
 * A nightly's index.html from a hostile summary (what its guests wrote): markup in every string
 * field, an unknown verdict, an unknown class among the counts. Nothing of it reaches the page
 * as markup, and the page runs no script.
 */
static void test_nightly_index(void)
{
	static const char hostile[] =
		"{\"verdict\":\"<script>alert(1)</script>\",\"started\":\"<b>now</b>\","
		"\"runs\":[{\"name\":\"<img src=x onerror=a()>\",\"scenario\":\"s<i>\","
		"\"fs\":\"\\\"><svg>\",\"mount_options\":\"'><a\",\"verdict\":\"x\\\" "
		"onmouseover=y\","
		"\"counts\":{\"<h1>evil</h1>\":3,\"lost-ack\":2,\"consistent\":\"<u>\"},"
		"\"failing\":[{\"state\":\"<c1>\"}],\"results\":\"javascript:<x>\","
		"\"report\":\"\\\"><script>\",\"log\":\"<log>\"}],"
		"\"baseline\":{\"path\":\"<p>\",\"new\":[{\"scenario\":\"<n>\",\"state\":\"<s>\","
		"\"class\":\"<k>\"}]}}";
	struct json_object *sum = json_tokener_parse(hostile);
	const char *path = bo_test_path("index.html");
	struct bo_err err = {0};
	char *html = NULL;
	size_t len = 0;

	CU_ASSERT_FATAL(sum != NULL);
	CU_ASSERT_FATAL(bo_nightly_index(path, sum, &err) == 0);
	CU_ASSERT_FATAL(bo_read_file(path, 1 << 20, &html, &len) == 0);
	CU_ASSERT(strstr(html, "Content-Security-Policy") != NULL);
	/* No tag but the page's own: every '<' is followed by one of them. */
	for (const char *p = html; (p = strchr(p, '<')); p++) {
		static const char *const own[] = {
			"!DOCTYPE", "html",   "/html", "head",	 "/head",  "meta",
			"title",    "/title", "style", "/style", "body",   "/body",
			"h1",	    "/h1",    "h2",    "/h2",	 "p>",	   "/p>",
			"b>",	    "/b>",    "table", "/table", "tr",	   "/tr",
			"th>",	    "/th>",   "td>",   "/td>",	 "a href", "/a>"};
		bool ok = false;

		for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
			ok |= !strncmp(p + 1, own[i], strlen(own[i]));
		CU_ASSERT(ok || (fprintf(stderr, "\nmarkup: %.30s\n", p), 0));
	}
	CU_ASSERT(strstr(html, "onerror") == NULL || strstr(html, "&lt;img src=x onerror") != NULL);
	CU_ASSERT(strstr(html, "<tr class=\"error\">") != NULL); /* the unknown verdict */
	CU_ASSERT(strstr(html, "evil") == NULL);		 /* the unknown class */
	CU_ASSERT(strstr(html, "lost-ack: 2") != NULL);
	free(html);
	json_object_put(sum);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"markup", test_markup},
		{"utf-8", test_utf8},
		{"a check's saved index", test_index},
		{"a nightly's index.html from a hostile summary", test_nightly_index},
		{},
	};

	return bo_test_run("report", tests);
}
