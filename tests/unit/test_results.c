// SPDX-License-Identifier: GPL-2.0-or-later
/* The results directory: never reused, paths stay inside, stream records are whole JSON. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/json.h"
#include "harness/results/merge.h"
#include "harness/results/results.h"
#include "harness/results/stream.h"
#include "harness/results/summary.h"

static void test_rel_ok(void)
{
	CU_ASSERT(bo_results_rel_ok("summary.json"));
	CU_ASSERT(bo_results_rel_ok("states/c12/fsck.out"));
	CU_ASSERT(bo_results_rel_ok("states/..x/y"));
	CU_ASSERT(!bo_results_rel_ok(""));
	CU_ASSERT(!bo_results_rel_ok("/etc/passwd"));
	CU_ASSERT(!bo_results_rel_ok(".."));
	CU_ASSERT(!bo_results_rel_ok("states/../../x"));
	CU_ASSERT(!bo_results_rel_ok("states//x"));
	CU_ASSERT(!bo_results_rel_ok("./x"));
	CU_ASSERT(!bo_results_rel_ok("x/"));
}

static void test_create_once(void)
{
	const char *d = bo_test_path("res1");
	struct bo_results *r;
	struct bo_err err = {0};
	struct stat st;

	CU_ASSERT_FATAL(bo_results_create(d, &r, &err) == 0);
	CU_ASSERT(stat(bo_test_path("res1/states"), &st) == 0 && S_ISDIR(st.st_mode));
	CU_ASSERT(stat(bo_test_path("res1/diagnostics/pre"), &st) == 0);
	CU_ASSERT(stat(bo_test_path("res1/stream.jsonl"), &st) == 0);
	bo_results_free(r);
	CU_ASSERT(bo_results_create(d, &r, &err) == -EEXIST);
	CU_ASSERT(strstr(err.msg, "never reused") != NULL);
	CU_ASSERT_FATAL(bo_results_open(d, &r, &err) == 0);
	bo_results_free(r);
}

static void test_stream_and_files(void)
{
	const char *d = bo_test_path("res2");
	struct bo_results *r;
	struct bo_err err = {0};
	struct json_object *o, *line;
	char buf[4096], *path = NULL, *save = NULL, *l;
	int fd, n, lines = 0;

	CU_ASSERT_FATAL(bo_results_create(d, &r, &err) == 0);
	for (int i = 0; i < 3; i++) {
		o = json_object_new_object();
		json_object_object_add(o, "state", json_object_new_string("c1\"2\n"));
		CU_ASSERT(bo_results_emit(r, "state", o, &err) == 0);
	}
	CU_ASSERT(bo_results_emit(r, "end", NULL, &err) == 0);
	fd = open(bo_test_path("res2/stream.jsonl"), O_RDONLY);
	n = (int) read(fd, buf, sizeof(buf) - 1);
	close(fd);
	CU_ASSERT_FATAL(n > 0);
	buf[n] = '\0';
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save), lines++) {
		line = json_tokener_parse(l);
		CU_ASSERT_FATAL(line != NULL);
		CU_ASSERT(json_object_get_int(json_object_object_get(line, "seq")) == lines);
		CU_ASSERT(json_object_object_get(line, "time") != NULL);
		json_object_put(line);
	}
	CU_ASSERT(lines == 4);

	o = json_object_new_object();
	json_object_object_add(o, "verdict", json_object_new_string("consistent"));
	CU_ASSERT(bo_results_write_json(r, "summary.json", o, &err) == 0);
	json_object_put(o);
	o = json_object_from_file(bo_test_path("res2/summary.json"));
	CU_ASSERT(o && !strcmp(json_object_get_string(json_object_object_get(o, "verdict")),
			       "consistent"));
	json_object_put(o);
	CU_ASSERT(bo_results_mkdir(r, "states/c7", &path, &err) == 0);
	CU_ASSERT(path && strstr(path, "res2/states/c7"));
	free(path);
	CU_ASSERT(bo_results_write_file(r, "states/c7/fsck.out", "x\n", 2, &err) == 0);
	CU_ASSERT(bo_results_write_file(r, "../escape", "x", 1, &err) == -EINVAL);
	CU_ASSERT(bo_results_mkdir(r, "/tmp/x", NULL, &err) == -EINVAL);
	/* A symlink planted where a file goes is not followed. */
	CU_ASSERT(symlink("/etc/hostname", bo_test_path("res2/stream.jsonl.tmp")) == 0);
	bo_results_free(r);
	CU_ASSERT(unlink(bo_test_path("res2/stream.jsonl")) == 0);
	CU_ASSERT(symlink(bo_test_path("elsewhere"), bo_test_path("res2/stream.jsonl")) == 0);
	CU_ASSERT(bo_results_open(d, &r, &err) == -ELOOP);
}

static void test_summary(void)
{
	struct bo_summary s = {0}, back;
	struct bo_err err = {0};
	struct json_object *o;

	/* Nothing checked is an error, never a pass. */
	CU_ASSERT(bo_summary_verdict(&s) == BO_VERDICT_ERROR);
	CU_ASSERT(bo_verdict_exit(bo_summary_verdict(&s)) == 3);
	bo_summary_add(&s, BO_CLASS_CONSISTENT, "c10", 0.5, NULL);
	bo_summary_add(&s, BO_CLASS_CONSISTENT, "c11", 0.5, NULL);
	CU_ASSERT(bo_summary_verdict(&s) == BO_VERDICT_CONSISTENT);
	CU_ASSERT(bo_verdict_exit(bo_summary_verdict(&s)) == 0);
	bo_summary_add(&s, BO_CLASS_LOST_ACK, "c12", 0.5, NULL);
	bo_summary_add(&s, BO_CLASS_LOST_ACK, "c13", 0.5, NULL);
	CU_ASSERT(bo_summary_verdict(&s) == BO_VERDICT_FAILED);
	CU_ASSERT(bo_verdict_exit(bo_summary_verdict(&s)) == 1);
	CU_ASSERT(!strcmp(s.first[BO_CLASS_LOST_ACK], "c12"));
	/* A checker-error is never counted as a pass, nor hidden behind a failure. */
	bo_summary_add(&s, BO_CLASS_CHECKER_ERROR, "c14", 0.5, NULL);
	CU_ASSERT(bo_summary_verdict(&s) == BO_VERDICT_ERROR);
	o = bo_summary_json(&s);
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT(bo_summary_from_json(o, &back, &err) == 0);
	CU_ASSERT(back.states == 5 && back.counts[BO_CLASS_LOST_ACK] == 2);
	CU_ASSERT(!strcmp(back.first[BO_CLASS_CHECKER_ERROR], "c14"));
	CU_ASSERT(bo_summary_verdict(&back) == BO_VERDICT_ERROR);
	json_object_put(o);
	/* The parts of a run summed: counts and states added, the first state and error kept. */
	{
		struct bo_summary sum = {0}, part = {0};

		bo_summary_add(&part, BO_CLASS_LOST_ACK, "c7", 0.1, NULL);
		bo_summary_error(&part, "part 1 broke");
		bo_summary_sum(&sum, &s);
		bo_summary_sum(&sum, &part);
		CU_ASSERT(sum.states == 6 && sum.counts[BO_CLASS_LOST_ACK] == 3);
		CU_ASSERT(!strcmp(sum.first[BO_CLASS_LOST_ACK], "c12"));
		CU_ASSERT(!strcmp(sum.error, "part 1 broke"));
		CU_ASSERT(bo_summary_verdict(&sum) == BO_VERDICT_ERROR);
	}
	/* Findings whatever the class: a fsck-dirty state that lost op 2 counts as lost-ack
	 * too, and the class table says so; a lost-ack state's loss is its class. */
	{
		struct bo_summary f = {0}, fb;
		struct bo_verdict v = {0}, w = {0};
		char buf[256];

		CU_ASSERT_FATAL(bo_opset_add(&v.lost, 2) == 1);
		CU_ASSERT_FATAL(bo_opset_add(&w.lost, 9) == 1 && bo_opset_add(&w.phantom, 11) == 1);
		bo_summary_add(&f, BO_CLASS_FSCK_DIRTY, "c3", 0.1, NULL);
		bo_summary_add(&f, BO_CLASS_FSCK_DIRTY, "c4", 0.1, &v);
		bo_summary_add(&f, BO_CLASS_FSCK_DIRTY, "c5", 0.1, &v);
		bo_summary_add(&f, BO_CLASS_LOST_ACK, "c6", 0.1, &w);
		CU_ASSERT(f.findings[BO_FINDING_LOST].states == 3);
		CU_ASSERT(!strcmp(f.findings[BO_FINDING_LOST].first, "c4"));
		CU_ASSERT(f.findings[BO_FINDING_LOST].n_ops == 2);
		CU_ASSERT(!strcmp(bo_summary_also_str(&f, BO_CLASS_FSCK_DIRTY, buf, sizeof(buf)),
				  "2 also lost-ack: op 2"));
		CU_ASSERT(!strcmp(bo_summary_also_str(&f, BO_CLASS_LOST_ACK, buf, sizeof(buf)),
				  "1 also phantom: op 11"));
		CU_ASSERT(!strcmp(bo_summary_also_str(&f, BO_CLASS_CONSISTENT, buf, sizeof(buf)),
				  ""));
		o = bo_summary_json(&f);
		CU_ASSERT_FATAL(o != NULL);
		CU_ASSERT(bo_summary_from_json(o, &fb, &err) == 0);
		CU_ASSERT(fb.also[BO_CLASS_FSCK_DIRTY][BO_FINDING_LOST].states == 2);
		CU_ASSERT(fb.also[BO_CLASS_FSCK_DIRTY][BO_FINDING_LOST].ops[0] == 2);
		CU_ASSERT(fb.findings[BO_FINDING_PHANTOM].states == 1);
		json_object_put(o);
		/* Many ops: the smallest shown, the rest said to be there. */
		for (uint64_t id = 100; id > 80; id--)
			CU_ASSERT(bo_opset_add(&v.lost, id) == 1);
		bo_summary_add(&f, BO_CLASS_FSCK_DIRTY, "c7", 0.1, &v);
		CU_ASSERT(f.also[BO_CLASS_FSCK_DIRTY][BO_FINDING_LOST].more);
		CU_ASSERT(!!strstr(bo_summary_also_str(&f, BO_CLASS_FSCK_DIRTY, buf, sizeof(buf)),
				   "3 also lost-ack: ops 2,81,82,83,84,85,86,87,..."));
		o = json_tokener_parse("{\"counts\": {}, \"also\": {\"fsck-dirty\": []}}");
		CU_ASSERT(bo_summary_from_json(o, &fb, &err) == -EBADMSG);
		json_object_put(o);
		bo_verdict_clear(&v);
		bo_verdict_clear(&w);
	}
	/* Untrusted summaries: missing or negative counts are refused. */
	o = json_tokener_parse("{\"counts\": {\"consistent\": -1}}");
	CU_ASSERT(bo_summary_from_json(o, &back, &err) == -EBADMSG);
	json_object_put(o);
	o = json_tokener_parse("[]");
	CU_ASSERT(bo_summary_from_json(o, &back, &err) == -EBADMSG);
	json_object_put(o);
	memset(&s, 0, sizeof(s));
	bo_summary_error(&s, "log has no entries");
	bo_summary_error(&s, "second");
	o = bo_summary_json(&s);
	CU_ASSERT(bo_summary_from_json(o, &back, &err) == 0);
	CU_ASSERT(!strcmp(back.error, "log has no entries"));
	json_object_put(o);
}

/*
 * What a guest writes is untrusted. Regression (found by tests/fuzz/fuzz_results.c): a state
 * record without a cut was reported through a string freed just before (use after free).
 * Records whose event, cut or state have the wrong type are errors naming file and line, and
 * a symlink the guest left in a state directory is not copied (nor followed): the merge is
 * refused. Its write.log is the empty log its config.json names.
 */
#define EMPTY_LOG_SHARD                      \
	"{\"shard\":\"0/1\",\"log_sha256\":" \
	"\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"}"
#define FULL_SUMMARY                                                                       \
	"{\"counts\":{\"consistent\":1,\"unmountable\":0,\"fsck-dirty\":0,\"lost-ack\":0," \
	"\"phantom\":0,\"app-recovery-failed\":0,\"checker-error\":0,\"harness-error\":0}}"

static void test_merge_hostile(void)
{
	static const char *const bad[] = {
		"{\"event\":\"state\",\"state\":\"c1\"}\n",
		"{\"event\":null}\n",
		"{\"event\":\"state\",\"cut\":-4,\"state\":\"c1\"}\n",
		"{\"event\":\"alias\",\"cut\":3,\"state\":7}\n",
		"[1,2]\n",
	};
	char shard[1024], out[1024], link[4096], copied[4096];
	char *dirs[1] = {shard};
	struct bo_err err = {0};
	struct stat st;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(shard, sizeof(shard), "%s/hostile%zu", bo_test_dir(), i);
		snprintf(out, sizeof(out), "%s/hostile%zu.out", bo_test_dir(), i);
		CU_ASSERT_FATAL(mkdir(shard, 0755) == 0);
		bo_test_put(shard, "config.json", "{\"shard\":\"0/1\"}");
		bo_test_put(shard, "summary.json", "{\"counts\":{}}");
		bo_test_put(shard, "stream.jsonl", bad[i]);
		CU_ASSERT(bo_merge(out, dirs, 1, &err) == -EBADMSG);
		CU_ASSERT(strstr(err.msg, "stream.jsonl:1:") != NULL);
	}

	/* Regression (fuzz_results, UBSan): a shard with no state record at all. */
	snprintf(shard, sizeof(shard), "%s/hostile-empty", bo_test_dir());
	snprintf(out, sizeof(out), "%s/hostile-empty.out", bo_test_dir());
	CU_ASSERT_FATAL(mkdir(shard, 0755) == 0);
	bo_test_put(shard, "config.json", EMPTY_LOG_SHARD);
	bo_test_put(shard, "summary.json", FULL_SUMMARY);
	bo_test_put(shard, "stream.jsonl", "");
	bo_test_put(shard, "write.log", "");
	CU_ASSERT(bo_merge(out, dirs, 1, &err) == 0);
	/* A shard count nobody runs sizes nothing. */
	snprintf(out, sizeof(out), "%s/hostile-empty.out2", bo_test_dir());
	bo_test_put(shard, "config.json", "{\"shard\":\"0/4294967295\"}");
	CU_ASSERT(bo_merge(out, dirs, 1, &err) == -EINVAL);

	/* Strings the report prints carry no terminal escape sequences. */
	{
		struct json_object *o = json_tokener_parse(
			"{\"counts\":{\"consistent\":0,\"unmountable\":1,\"fsck-dirty\":0,"
			"\"lost-ack\":0,\"phantom\":0,\"app-recovery-failed\":0,"
			"\"checker-error\":0,\"harness-error\":0},"
			"\"first_state\":{\"unmountable\":\"c1\\u001b[2J\"},"
			"\"error\":\"a\\nb\\u001b]0;x\\u0007\"}");
		struct bo_summary sum;

		CU_ASSERT_FATAL(o != NULL);
		CU_ASSERT(bo_summary_from_json(o, &sum, &err) == 0);
		CU_ASSERT(!strcmp(sum.first[BO_CLASS_UNMOUNTABLE], "c1?[2J"));
		CU_ASSERT(!strcmp(sum.error, "a\nb?]0;x?"));
		json_object_put(o);
	}

	/* A well-formed shard whose state directory holds a symlink to a host file. */
	snprintf(shard, sizeof(shard), "%s/hostile-link", bo_test_dir());
	snprintf(out, sizeof(out), "%s/hostile-link.out", bo_test_dir());
	CU_ASSERT_FATAL(mkdir(shard, 0755) == 0);
	bo_test_put(shard, "config.json", EMPTY_LOG_SHARD);
	bo_test_put(shard, "summary.json", FULL_SUMMARY);
	bo_test_put(shard, "stream.jsonl",
		    "{\"event\":\"state\",\"cut\":1,\"state\":\"c1\",\"class\":\"consistent\"}\n");
	bo_test_put(shard, "write.log", "");
	snprintf(link, sizeof(link), "%s/states", shard);
	CU_ASSERT_FATAL(mkdir(link, 0755) == 0);
	snprintf(link, sizeof(link), "%s/states/c1", shard);
	CU_ASSERT_FATAL(mkdir(link, 0755) == 0);
	snprintf(link, sizeof(link), "%s/states/c1/passwd", shard);
	CU_ASSERT_FATAL(symlink("/etc/passwd", link) == 0);
	CU_ASSERT(bo_merge(out, dirs, 1, &err) == -ELOOP);
	CU_ASSERT(strstr(err.msg, "states/c1/passwd") != NULL);
	snprintf(copied, sizeof(copied), "%s/states/c1/passwd", out);
	CU_ASSERT(lstat(copied, &st) < 0 && errno == ENOENT);
	CU_ASSERT(lstat(out, &st) < 0 && errno == ENOENT);
	/* The positive control: without it, the shard merges. */
	CU_ASSERT_FATAL(unlink(link) == 0);
	CU_ASSERT(bo_merge(out, dirs, 1, &err) == 0);
	/* Its write.log another log than its config.json names: refused, naming the shard. */
	snprintf(out, sizeof(out), "%s/hostile-link.out2", bo_test_dir());
	bo_test_put(shard, "write.log", "x");
	CU_ASSERT(bo_merge(out, dirs, 1, &err) == -EBADMSG);
	CU_ASSERT(strstr(err.msg, "hostile-link") && strstr(err.msg, "log_sha256"));
}

/* The text of @dir/@name (static; "" when unreadable). */
static const char *slurp(const char *dir, const char *name)
{
	static char buf[8192];
	char path[4096];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* A summary written on a full disk (RLIMIT_FSIZE: EFBIG, as ENOSPC would be): an error
 * saying why, the old summary kept whole, no temporary left (issue 28: 24). */
static void test_full_disk(void)
{
	const char *d = bo_test_path("res-full");
	struct json_object *o = json_object_new_object();
	struct rlimit old, lim;
	struct bo_results *r;
	struct bo_err err = {0};
	struct dirent *de;
	char big[4096];
	DIR *dir;
	int k, n = 0;

	CU_ASSERT_FATAL(bo_results_create(d, &r, &err) == 0);
	bo_test_put(d, "summary.json", "{\"old\": 1}\n");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	json_object_object_add(o, "verdict", json_object_new_string(big));
	CU_ASSERT_FATAL(getrlimit(RLIMIT_FSIZE, &old) == 0);
	lim = (struct rlimit){.rlim_cur = 1024, .rlim_max = old.rlim_max};
	signal(SIGXFSZ, SIG_IGN);
	CU_ASSERT_FATAL(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	k = bo_results_write_json(r, "summary.json", o, &err);
	CU_ASSERT_FATAL(setrlimit(RLIMIT_FSIZE, &old) == 0);
	signal(SIGXFSZ, SIG_DFL);
	CU_ASSERT(k == -EFBIG);
	CU_ASSERT(strstr(err.msg, "summary.json") && strstr(err.msg, strerror(EFBIG)));
	CU_ASSERT(strstr(slurp(d, "summary.json"), "\"old\"") != NULL);
	dir = opendir(d);
	while (dir && (de = readdir(dir)))
		n += strstr(de->d_name, ".tmp") != NULL;
	if (dir)
		closedir(dir);
	CU_ASSERT(n == 0);
	/* The positive control: without the limit it is written. */
	CU_ASSERT(bo_results_write_json(r, "summary.json", o, &err) == 0);
	CU_ASSERT(strstr(slurp(d, "summary.json"), "xxxx") != NULL);
	json_object_put(o);
	bo_results_free(r);
}

/*
 * What the writers write is within what the readers take: the fullest summary.json (every
 * count, id and op, the longest error) is far under BO_SUMMARY_MAX and no denser than
 * BO_JSON_MEMORY_PER_BYTE allows; a stream record of BO_STREAM_LINE_MAX bytes is read, and a
 * longer one is never written.
 */
static void test_bounds(void)
{
	const char *d = bo_test_path("res-bounds");
	struct bo_summary s;
	struct bo_results *r;
	struct bo_err err = {0};
	struct bo_stream *st = NULL;
	struct bo_stream_rec rec;
	struct json_object *o, *back = NULL;
	const char *text;
	char *pad;
	size_t fixed;

	memset(&s, 0, sizeof(s));
	for (int c = 0; c < BO_CLASS_COUNT; c++) {
		s.counts[c] = UINT64_MAX;
		memset(s.first[c], 0x1b, sizeof(s.first[c]) - 1);
		for (int f = 0; f < BO_FINDING_COUNT; f++) {
			struct bo_summary_finding *x = &s.also[c][f];

			x->states = UINT64_MAX;
			memset(x->first, 0x1b, sizeof(x->first) - 1);
			for (x->n_ops = 0; x->n_ops < BO_SUMMARY_OPS; x->n_ops++)
				x->ops[x->n_ops] = UINT64_MAX - BO_SUMMARY_OPS + x->n_ops;
			x->more = true;
			s.findings[f] = *x;
		}
	}
	memset(s.error, 0x1b, sizeof(s.error) - 1);
	o = bo_summary_json(&s);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
	CU_ASSERT_FATAL(text != NULL);
	CU_ASSERT(strlen(text) < BO_SUMMARY_MAX / 16);
	CU_ASSERT(bo_json_parse(text, strlen(text), "summary.json", 1, &back, &err) == 0);
	json_object_put(back);
	json_object_put(o);

	/* A record of exactly BO_STREAM_LINE_MAX bytes is written and read back; one byte more
	 * is refused, and leaves the stream whole. */
	CU_ASSERT_FATAL(bo_results_create(d, &r, &err) == 0);
	o = json_object_new_object();
	json_object_object_add(o, "pad", json_object_new_string(""));
	CU_ASSERT_FATAL(bo_results_emit(r, "note", o, &err) == 0);
	CU_ASSERT_FATAL(bo_stream_open(d, &st, &err) == 0);
	CU_ASSERT_FATAL(bo_stream_next(st, &rec, &err) == 1);
	fixed = strlen(json_object_to_json_string_ext(rec.o, JSON_C_TO_STRING_PLAIN));
	bo_stream_free(st);
	pad = malloc(BO_STREAM_LINE_MAX + 1);
	CU_ASSERT_FATAL(pad != NULL);
	memset(pad, 'x', BO_STREAM_LINE_MAX - fixed);
	pad[BO_STREAM_LINE_MAX - fixed] = '\0';
	o = json_object_new_object();
	json_object_object_add(o, "pad", json_object_new_string(pad));
	CU_ASSERT(bo_results_emit(r, "note", o, &err) == 0);
	pad[BO_STREAM_LINE_MAX - fixed] = 'x';
	pad[BO_STREAM_LINE_MAX - fixed + 1] = '\0';
	o = json_object_new_object();
	json_object_object_add(o, "pad", json_object_new_string(pad));
	CU_ASSERT(bo_results_emit(r, "note", o, &err) == -E2BIG);
	free(pad);
	CU_ASSERT(bo_results_emit(r, "end", NULL, &err) == 0);
	bo_results_free(r);
	CU_ASSERT_FATAL(bo_stream_open(d, &st, &err) == 0);
	CU_ASSERT(bo_stream_next(st, &rec, &err) == 1);
	CU_ASSERT(bo_stream_next(st, &rec, &err) == 1 && !strcmp(rec.event, "note"));
	CU_ASSERT(bo_stream_next(st, &rec, &err) == 1 && !strcmp(rec.event, "end"));
	CU_ASSERT(bo_stream_next(st, &rec, &err) == 0 && !bo_stream_torn(st));
	bo_stream_free(st);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"relative paths stay inside", test_rel_ok},
		{"a results directory is never reused", test_create_once},
		{"stream records, atomic files, no symlinks followed", test_stream_and_files},
		{"summary verdicts and the vacuous-pass rule", test_summary},
		{"merging hostile shard results", test_merge_hostile},
		{"a summary on a full disk: said, the old one kept, no temporary", test_full_disk},
		{"what is written is within what is read", test_bounds},
		{NULL, NULL},
	};

	return bo_test_run("results", tests);
}
