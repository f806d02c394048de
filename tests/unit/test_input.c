// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading what strangers wrote (harness/base/input.h, harness/base/json.h): the bounded line
 * reader, the one JSON reader, and paths a file gives, beneath its directory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bo_test.h"
#include "harness/base/input.h"
#include "harness/base/json.h"

/* The lines of the @len bytes @text, read with a bound of @max, each checked against the next
 * of @want (NULL-terminated); what the reader ended with. */
static ssize_t lines(const char *text, size_t len, size_t max, const char *const *want)
{
	FILE *f = fmemopen((void *) text, len, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	CU_ASSERT_FATAL(f != NULL);
	while ((n = bo_input_read_line(f, max, &buf, &cap)) > 0) {
		CU_ASSERT_FATAL(*want != NULL);
		CU_ASSERT(n == (ssize_t) strlen(*want) && !memcmp(buf, *want, (size_t) n));
		CU_ASSERT(buf[n] == '\0');
		want++;
	}
	CU_ASSERT(n < 0 || *want == NULL);
	free(buf);
	fclose(f);
	return n;
}

static void test_lines(void)
{
	static const char *const three[] = {"a\n", "\n", "bc", NULL};
	static const char *const none[] = {NULL};
	char *big = malloc(10001);
	char *two = malloc(20003);
	const char *want[3] = {big, NULL, NULL};

	/* Lines with their newline, an empty one, the last without: as getline() gives them. */
	CU_ASSERT(lines("a\n\nbc", 5, 100, three) == 0);
	CU_ASSERT(lines("", 0, 100, none) == 0);
	/* A line of exactly the bound is one; a byte more is too long, wherever it is. */
	CU_ASSERT(lines("abcd\n", 5, 4, (const char *const[]){"abcd\n", NULL}) == 0);
	CU_ASSERT(lines("abcd", 4, 4, (const char *const[]){"abcd", NULL}) == 0);
	CU_ASSERT(lines("abcde\nx\n", 8, 4, none) == -E2BIG);
	CU_ASSERT(lines("a\nabcde", 7, 4, (const char *const[]){"a\n", NULL}) == -E2BIG);
	/* Lines over many of the reader's pieces, a newline where a piece ends. */
	CU_ASSERT_FATAL(big && two);
	memset(big, 'x', 10000);
	big[9999] = '\n';
	big[10000] = '\0';
	CU_ASSERT(lines(big, 10000, 10000, want) == 0);
	CU_ASSERT(lines(big, 10000, 9998, none) == -E2BIG);
	for (size_t at = 255; at < 20000; at = at * 2 + 1) {
		memset(two, 'y', 20002);
		two[at] = '\n';
		two[20002] = '\0';
		want[0] = strndup(two, at + 1);
		want[1] = two + at + 1;
		CU_ASSERT(lines(two, 20002, 20002, want) == 0);
		free((char *) want[0]);
	}
	free(big);
	free(two);
}

/* A NUL inside a line is part of it: the line's length says so, not strlen(). */
static void test_line_nul(void)
{
	static const char text[] = "a\0b\nc\0\0\nlast\0";
	FILE *f = fmemopen((void *) text, sizeof(text) - 1, "r");
	char *buf = NULL;
	size_t cap = 0;

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(bo_input_read_line(f, 100, &buf, &cap) == 4 && !memcmp(buf, "a\0b\n", 4));
	CU_ASSERT(bo_input_read_line(f, 100, &buf, &cap) == 4 && !memcmp(buf, "c\0\0\n", 4));
	CU_ASSERT(bo_input_read_line(f, 100, &buf, &cap) == 5 && !memcmp(buf, "last\0", 5));
	CU_ASSERT(bo_input_read_line(f, 100, &buf, &cap) == 0);
	free(buf);
	fclose(f);
}

/* bo_json_parse() of @text: its status, and its message holding @needle. */
static int parse(const char *text, unsigned line, const char *needle)
{
	struct json_object *o = NULL;
	struct bo_err err = {0};
	int r = bo_json_parse(text, strlen(text), "f.json", line, &o, &err);

	if (r == 0)
		CU_ASSERT(o != NULL);
	json_object_put(o);
	if (needle && !strstr(err.msg, needle)) {
		CU_FAIL("message");
		fprintf(stderr, "\n  '%s' lacks '%s'\n", err.msg, needle);
	}
	return r;
}

static void test_json(void)
{
	char deep[2 * BO_JSON_MAX_DEPTH + 3];

	/* One value, blanks around it; a number at the very end too. */
	CU_ASSERT(parse("{\"a\": [1, 2]}\n", 1, NULL) == 0);
	CU_ASSERT(parse("  17  ", 1, NULL) == 0);
	CU_ASSERT(parse("{\"a\": 1}\r\n\n", 1, NULL) == 0);
	/* Text after it, on the line it is on. */
	CU_ASSERT(parse("{\"a\": 1} x", 1, "f.json:1: text after the JSON value") == -EBADMSG);
	CU_ASSERT(parse("{\"a\":\n 1}\n\n{}", 1, "f.json:4: text after") == -EBADMSG);
	CU_ASSERT(parse("{} {}", 7, "f.json:7: text after") == -EBADMSG);
	/* Not JSON, cut short (the end is on its last line), or null. */
	CU_ASSERT(parse("{\"a\":\n", 1, "f.json:1: not JSON") == -EBADMSG);
	CU_ASSERT(parse("\n\n garbage", 1, "f.json:3: not JSON") == -EBADMSG);
	CU_ASSERT(parse("", 1, "f.json:1: not JSON") == -EBADMSG);
	CU_ASSERT(parse("null", 1, "null") == -EBADMSG);
	/* Nested to the bound, and one deeper: said to be too deep. */
	memset(deep, '[', BO_JSON_MAX_DEPTH);
	memset(deep + BO_JSON_MAX_DEPTH, ']', BO_JSON_MAX_DEPTH);
	deep[2 * BO_JSON_MAX_DEPTH] = '\0';
	CU_ASSERT(parse(deep, 1, NULL) == 0);
	memset(deep, '[', BO_JSON_MAX_DEPTH + 1);
	memset(deep + BO_JSON_MAX_DEPTH + 1, ']', BO_JSON_MAX_DEPTH + 1);
	deep[2 * BO_JSON_MAX_DEPTH + 2] = '\0';
	CU_ASSERT(parse(deep, 1, "f.json:1: JSON nested deeper than 12 levels") == -EBADMSG);
}

static void test_json_nul(void)
{
	static const char text[] = "{\"a\":\n\"b\0c\"}";
	struct json_object *o = NULL;
	struct bo_err err = {0};

	CU_ASSERT(bo_json_parse(text, sizeof(text) - 1, "f.json", 1, &o, &err) == -EBADMSG);
	CU_ASSERT(o == NULL && strstr(err.msg, "f.json:2: a NUL byte") != NULL);
}

/* Values dense enough that json-c would take more than BO_JSON_MEMORY_PER_BYTE bytes a byte
 * are refused before json-c reads them; a document as dense as blackout's is read. */
static void test_json_dense(void)
{
	size_t n = 1 << 20;
	char *objs = malloc(3 * n + 2), *ids = malloc(8 * n + 2);
	size_t len = 0;

	CU_ASSERT_FATAL(objs && ids);
	objs[len++] = '[';
	for (size_t i = 0; i < n; i++) {
		memcpy(objs + len, "{},", 3);
		len += 3;
	}
	objs[len - 1] = ']';
	objs[len] = '\0';
	CU_ASSERT(parse(objs, 1, "so many values") == -EBADMSG);
	/* Op ids as a state record lists them: 1 to n. */
	len = 0;
	ids[len++] = '[';
	for (size_t i = 1; i <= n; i++)
		len += (size_t) sprintf(ids + len, "%zu,", i);
	ids[len - 1] = ']';
	ids[len] = '\0';
	CU_ASSERT(parse(ids, 1, NULL) == 0);
	free(objs);
	free(ids);
}

/* A document of a results directory: bounded by the size its format may have. */
static void test_json_read(void)
{
	const char *d = bo_test_dir();
	struct json_object *o = NULL;
	struct bo_err err = {0};

	bo_test_put(d, "a.json", "{\"a\": 1}\n");
	CU_ASSERT(bo_json_read_in_max(d, "a.json", 9, &o, &err) == 0);
	json_object_put(o);
	o = NULL;
	CU_ASSERT(bo_json_read_in_max(d, "a.json", 8, &o, &err) == -EFBIG);
	CU_ASSERT(o == NULL && strstr(err.msg, "more than the 8") != NULL);
	bo_test_put(d, "b.json", "[1]\n");
	CU_ASSERT(bo_json_read_in(d, "b.json", &o, &err) == -EBADMSG);
	CU_ASSERT(strstr(err.msg, "not a JSON object") != NULL);
	bo_test_put(d, "c.json", "{}\n{}\n");
	CU_ASSERT(bo_json_read_in(d, "c.json", &o, &err) == -EBADMSG);
	CU_ASSERT(strstr(err.msg, "c.json:2: text after the JSON value") != NULL);
}

/* A plain name: what may become a path component; a cluster's state id is one. */
static void test_name_plain(void)
{
	CU_ASSERT(bo_name_plain("c57"));
	CU_ASSERT(bo_name_plain("c57-d3,9"));
	CU_ASSERT(bo_name_plain("c57@n1+n3"));
	CU_ASSERT(!bo_name_plain("c57@n1/../x"));
	CU_ASSERT(!bo_name_plain(".."));
	CU_ASSERT(!bo_name_plain("-c57"));
	CU_ASSERT(!bo_name_plain("c57 n1"));
	CU_ASSERT(!bo_name_plain("c57$x"));
	CU_ASSERT(!bo_name_plain(""));
}

static void test_rel_check(void)
{
	static const char *const good[] = {"a", "6.1.0-28-amd64/20260101-000000-1-abc", "a/b/c",
					   "x~y+z,1:2"};
	static const char *const bad[] = {"",	  "/etc",   "../x",   "a/../b",	   "a/./b", "a//b",
					  "a/",	  ".",	    "..",     "a/.hidden", "-x",    "a b",
					  "a\nb", "a/\x1b", "a/b;rm", "é"};
	struct bo_err err = {0};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CU_ASSERT(bo_input_rel_check(good[i], "k", &err) == 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = (struct bo_err){0};
		CU_ASSERT(bo_input_rel_check(bad[i], "f: kernels[0].results", &err) == -EINVAL);
		CU_ASSERT(strstr(err.msg, "f: kernels[0].results: '") != NULL);
	}
	CU_ASSERT(bo_input_rel_check(NULL, "k", &err) == -EINVAL);
	/* The path is quoted in one line, its control characters escaped. */
	CU_ASSERT(bo_input_rel_check("a\nb", "k", &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "'a\\x0ab'") != NULL);
}

static void test_opendir(void)
{
	const char *top = bo_test_path("tree"), *out = bo_test_path("outside");
	char path[4096];
	struct bo_err err = {0};
	int fd;

	CU_ASSERT_FATAL(mkdir(top, 0755) == 0 && mkdir(out, 0755) == 0);
	snprintf(path, sizeof(path), "%s/k", top);
	CU_ASSERT_FATAL(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/k/run", top);
	CU_ASSERT_FATAL(mkdir(path, 0755) == 0);
	bo_test_put(top, "file", "x");
	snprintf(path, sizeof(path), "%s/link", top);
	CU_ASSERT_FATAL(symlink(out, path) == 0);
	snprintf(path, sizeof(path), "%s/k/up", top);
	CU_ASSERT_FATAL(symlink("..", path) == 0);

	/* The positive control: a directory beneath, reached without a symlink. */
	fd = bo_input_opendir(top, "k/run", "w", &err);
	CU_ASSERT(fd >= 0);
	if (fd >= 0)
		close(fd);
	/* A symlink, at the end or on the way, even one that stays inside. */
	CU_ASSERT(bo_input_opendir(top, "link", "w", &err) == -ELOOP);
	CU_ASSERT(strstr(err.msg, "symlink") != NULL);
	CU_ASSERT(bo_input_opendir(top, "k/up/k", "w", &err) == -ELOOP);
	CU_ASSERT(bo_input_opendir(top, "file", "w", &err) == -ENOTDIR);
	CU_ASSERT(strstr(err.msg, "not a directory") != NULL);
	CU_ASSERT(bo_input_opendir(top, "nosuch", "w", &err) == -ENOENT);
	/* What bo_input_rel_check() refuses is not opened. */
	CU_ASSERT(bo_input_opendir(top, "../outside", "w", &err) == -EINVAL);
	CU_ASSERT(bo_input_opendir(top, out, "w", &err) == -EINVAL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"lines bounded, as getline() reads them", test_lines},
		{"a NUL inside a line", test_line_nul},
		{"one JSON value: text after it, cut short, too deep", test_json},
		{"a NUL in JSON", test_json_nul},
		{"JSON too dense for its size", test_json_dense},
		{"documents bounded by their format", test_json_read},
		{"a plain name", test_name_plain},
		{"a path from a file: relative, of plain names", test_rel_check},
		{"a directory beneath, never through a symlink", test_opendir},
		{NULL, NULL},
	};

	return bo_test_run("input", tests);
}
