// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the host-side reader of what a guest wrote back: the input is
 * config.json, stream.jsonl and summary.json of one shard results directory, separated by NUL
 * bytes (summary.json may hold more of them). The shard is merged (bo_merge(), as `check
 * --jobs` and `merge` do) and its summary read (bo_summary_from_json(), as the report after
 * `run`/`check` does).
 *
 * The shard is then read as explain reads a results directory (bo_diary_load(), every alias
 * followed, every by-product read).
 *
 * The last byte of the input makes the directory hostile as well (docs/safety.md, "Inputs
 * from strangers"), one bit a trap: states/ or states/c1 a symlink out of the directory, a
 * by-product of c1 a symlink to a secret or a FIFO or a device, write.log a symlink or a
 * FIFO, the temporaries' names of report.html and junit.xml hard links to write.log. It is
 * not part of summary.json. The report (bo_report_write()) is then written of the shard too.
 *
 * The build lowers the bound of a line of stream.jsonl (BO_STREAM_LINE_MAX) to 4096 bytes, so
 * that a line past it is within the inputs; the seeds (corpus-results/) hold such lines, and
 * JSON with text after it, nested too deep or with a NUL, alias cycles, members that are not
 * the objects or arrays a reader walks, and paths to the secret in the fields of config.json
 * and stream.jsonl.
 *
 * Oracles besides the sanitizers and libFuzzer's timeout (a FIFO that hangs a reader): nothing
 * appears next to the directories but the secret's (no write outside the results
 * directory); a merge succeeds only of a config.json and a summary.json that are one JSON
 * object each and a stream.jsonl whose lines are one JSON object each and no longer than the
 * bound (the last one may be cut short: a torn record), and a report only of such a stream;
 * every line of the merged stream.jsonl is one JSON object; the shard's write.log is what it
 * was; the secret is in nothing merged or reported; report.html and junit.xml hold no control
 * character but tab, newline and carriage return (no raw escape; junit.xml stays XML).
 */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "harness/base/json.h"
#include "harness/diagnose/diary.h"
#include "harness/results/merge.h"
#include "harness/results/report.h"
#include "harness/results/stream.h"
#include "harness/results/summary.h"

#define SECRET "TOPSECRET-fuzz-results"
#define LOG    "the shard's write.log\n"

enum trap {
	TRAP_STATES_LINK = 1 << 0,    /* states -> the secret's directory */
	TRAP_STATE_LINK = 1 << 1,     /* states/c1 -> the secret's directory's c1 */
	TRAP_BYPRODUCT_LINK = 1 << 2, /* states/c1/{dmesg.txt,mount.err} -> the secret */
	TRAP_BYPRODUCT_FIFO = 1 << 3, /* states/c1/checker.out a FIFO */
	TRAP_LOG_LINK = 1 << 4,	      /* write.log -> the secret */
	TRAP_LOG_FIFO = 1 << 5,	      /* write.log a FIFO */
	TRAP_DEVICE = 1 << 6,	      /* states/c1/fsck.out a character device (/dev/zero's) */
	TRAP_TMP_LINK =
		1 << 7, /* report.html.tmp<pid>, junit.xml.tmp<pid>: hard links to write.log */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[PATH_MAX];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void) st;
	(void) flag;
	(void) ftw;
	return remove(path);
}

static void write_part(const char *dir, const char *name, const uint8_t *p, size_t n)
{
	char path[PATH_MAX];
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int) sizeof(path))
		__builtin_trap();
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || (n && write(fd, p, n) != (ssize_t) n))
		__builtin_trap();
	close(fd);
}

/* Only "shard", "out" and the secret's may exist in the scratch root. */
static void check_root(void)
{
	DIR *d = opendir(root);
	struct dirent *de;

	if (!d)
		__builtin_trap();
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "shard") && strcmp(de->d_name, "out") &&
		    strcmp(de->d_name, "secret") && strcmp(de->d_name, "secrets"))
			__builtin_trap();
	closedir(d);
}

/* Every line of the merged stream parses as a JSON object. */
static void check_stream(const char *out)
{
	char path[PATH_MAX], *line = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/stream.jsonl", out);
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &len, f) > 0) {
		struct json_object *o = json_tokener_parse(line);

		if (!o || !json_object_is_type(o, json_type_object))
			__builtin_trap();
		json_object_put(o);
	}
	free(line);
	fclose(f);
}

/* Whether the @n bytes at @p are one JSON object, blanks around it, by the readers' rule: no
 * NUL, no text after it, nested no deeper than BO_JSON_MAX_DEPTH. */
static bool one_object(const uint8_t *p, size_t n)
{
	char *s = memchr(p, 0, n) ? NULL : strndup((const char *) p, n);
	struct json_tokener *tok = s ? json_tokener_new_ex(BO_JSON_MAX_DEPTH) : NULL;
	struct json_object *o = tok ? json_tokener_parse_ex(tok, s, (int) n + 1) : NULL;
	size_t end = o ? json_tokener_get_parse_end(tok) : 0;
	bool ok = json_object_is_type(o, json_type_object) &&
		  (end >= n || end + strspn(s + end, " \t\r\n") >= n);

	json_object_put(o);
	if (tok)
		json_tokener_free(tok);
	free(s);
	return ok;
}

/* Whether the stream @p of @n bytes can be read: each line one JSON object (the last one,
 * without its newline, may be anything: a torn record), none longer than the bound. */
static bool stream_readable(const uint8_t *p, size_t n)
{
	while (n) {
		const uint8_t *nl = memchr(p, '\n', n);
		size_t len = nl ? (size_t) (nl - p) : n;

		if (len > BO_STREAM_LINE_MAX || (nl && !one_object(p, len)))
			return false;
		len += !!nl;
		p += len;
		n -= len;
	}
	return true;
}

/* write.log as written: whatever a command writes, it is not the log it read. */
static void check_log(const char *shard)
{
	char path[PATH_MAX], buf[sizeof(LOG)];
	struct stat st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/write.log", shard);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n != sizeof(LOG) - 1 || memcmp(buf, LOG, sizeof(LOG) - 1))
		__builtin_trap();
}

/* Whether the input names the secret itself: then a copy of it proves nothing. */
static bool input_has_secret;

/* The file @dir/@name holds the secret, or a control character when @text (a document). */
static void check_file(const char *dir, const char *name, bool text)
{
	char path[PATH_MAX], buf[65536];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		if (!input_has_secret && memmem(buf, (size_t) n, SECRET, strlen(SECRET)))
			__builtin_trap();
		for (ssize_t i = 0; text && i < n; i++)
			if ((unsigned char) buf[i] < 0x20 && buf[i] != '\t' && buf[i] != '\n' &&
			    buf[i] != '\r')
				__builtin_trap();
	}
	close(fd);
}

/* No file the merge wrote, nor what the report wrote, holds the secret. */
static void check_out(const char *out, const char *shard)
{
	DIR *d = opendir(out);
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (de->d_type == DT_REG)
			check_file(out, de->d_name, false);
	if (d)
		closedir(d);
	check_file(shard, "report.html", true);
	check_file(shard, "junit.xml", true);
}

static void link_or_trap(const char *target, const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (symlink(target, path) < 0)
		__builtin_trap();
}

/* The traps of @t in the shard @shard, state c1's by-products beside them. */
static void set_traps(const char *shard, unsigned t)
{
	char states[PATH_MAX], c1[PATH_MAX], secret[PATH_MAX], secrets[PATH_MAX];

	snprintf(states, sizeof(states), "%s/states", shard);
	snprintf(c1, sizeof(c1), "%s/c1", states);
	snprintf(secret, sizeof(secret), "%s/secret", root);
	snprintf(secrets, sizeof(secrets), "%s/secrets", root);
	/* The names a writer that truncates its temporary would write through (the report is
	 * written by this process): the log must come out as it went in (check_log()). */
	if (t & TRAP_TMP_LINK) {
		static const char *const names[] = {"report.html", "junit.xml"};
		char log[PATH_MAX + 16], tmp[PATH_MAX + 64];

		snprintf(log, sizeof(log), "%s/write.log", shard);
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(tmp, sizeof(tmp), "%s/%s.tmp%d", shard, names[i], (int) getpid());
			(void) !link(log,
				     tmp); /* write.log may be a trap of its own: no link then */
		}
	}
	if (t & TRAP_STATES_LINK) {
		link_or_trap(secrets, shard, "states");
		return;
	}
	if (mkdir(states, 0755) < 0)
		__builtin_trap();
	if (t & TRAP_STATE_LINK) {
		char target[PATH_MAX + 8];

		snprintf(target, sizeof(target), "%s/c1", secrets);
		link_or_trap(target, states, "c1");
		return;
	}
	if (mkdir(c1, 0755) < 0)
		__builtin_trap();
	write_part(c1, "verdict.txt", (const uint8_t *) "state c1\n", 9);
	if (t & TRAP_BYPRODUCT_LINK) {
		link_or_trap(secret, c1, "dmesg.txt");
		link_or_trap(secret, c1, "mount.err");
	}
	if (t & TRAP_BYPRODUCT_FIFO) {
		char fifo[PATH_MAX + 16];

		snprintf(fifo, sizeof(fifo), "%s/checker.out", c1);
		if (mkfifo(fifo, 0644) < 0)
			__builtin_trap();
	}
	if (t & TRAP_DEVICE) {
		char dev[PATH_MAX + 16];

		snprintf(dev, sizeof(dev), "%s/fsck.out", c1);
		(void) !mknod(dev, S_IFCHR | 0644, makedev(1, 5)); /* only as root */
	}
}

/*
 * The shard read as explain and reproduce read a results directory (diagnose/diary.h): every
 * alias followed to the state it stands for (a cycle among them is an error, not a recursion
 * without end), every by-product of every state read beneath the directory (never the
 * secret).
 */
static void read_diary(const char *shard)
{
	static const char *const names[] = {"dmesg.txt", "mount.err", "checker.out", "fsck.out",
					    "verdict.txt"};
	struct bo_diary d;
	struct bo_err err = {0};
	struct json_object *rec = NULL, *lists[2];
	char log[PATH_MAX + 16], kept[PATH_MAX + 16];
	int r;

	/* Without its write.log, which is no log here (the diary would stop at it). */
	snprintf(log, sizeof(log), "%s/write.log", shard);
	snprintf(kept, sizeof(kept), "%s.kept", root);
	if (rename(log, kept) < 0)
		return;
	r = bo_diary_load(&d, shard, &err);
	if (rename(kept, log) < 0)
		__builtin_trap();
	if (r < 0) {
		bo_diary_clear(&d);
		return;
	}
	lists[0] = d.states;
	lists[1] = d.aliases;
	(void) !bo_diary_state(&d, NULL, &rec, NULL, &err);
	for (int l = 0; l < 2; l++)
		for (size_t i = 0; lists[l] && i < json_object_array_length(lists[l]); i++) {
			const char *id =
				bo_json_str(json_object_array_get_idx(lists[l], i), "state");
			const char *of = NULL;

			if (!id || bo_diary_state(&d, id, &rec, &of, &err) < 0)
				continue;
			for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
				char *text = NULL;

				if (bo_diary_byproduct(&d, of ? of : id, names[k], &text, &err) ==
					    0 &&
				    !input_has_secret && strstr(text, SECRET))
					__builtin_trap();
				free(text);
			}
		}
	bo_diary_clear(&d);
}

/* The secret, outside every results directory: a file, and a directory with a c1 of it. */
static void make_secrets(void)
{
	static const uint8_t text[] = SECRET "\n";
	char path[PATH_MAX];

	write_part(root, "secret", text, sizeof(text) - 1);
	snprintf(path, sizeof(path), "%s/secrets", root);
	if (mkdir(path, 0755) < 0)
		__builtin_trap();
	snprintf(path, sizeof(path), "%s/secrets/c1", root);
	if (mkdir(path, 0755) < 0)
		__builtin_trap();
	write_part(path, "dmesg.txt", text, sizeof(text) - 1);
	write_part(path, "verdict.txt", text, sizeof(text) - 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *part[3] = {data, NULL, NULL};
	size_t len[3] = {size, 0, 0};
	char shard[PATH_MAX], out[PATH_MAX];
	char *dirs[1] = {shard};
	struct bo_err err = {0};
	struct json_object *o;
	struct bo_summary s;
	unsigned traps;
	bool readable;
	int r;

	if (!root[0]) {
		const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		int null = open("/dev/null", O_WRONLY);

		snprintf(root, sizeof(root), "%s/fuzz-results-XXXXXX", tmp);
		if (!mkdtemp(root))
			__builtin_trap();
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		make_secrets();
	}
	traps = size ? data[size - 1] : 0;
	input_has_secret = memmem(data, size, SECRET, strlen(SECRET)) != NULL;
	for (int i = 0; i < 2; i++) {
		const uint8_t *nul = memchr(part[i], 0, len[i]);

		if (!nul)
			break;
		part[i + 1] = nul + 1;
		len[i + 1] = len[i] - (size_t) (nul + 1 - part[i]);
		len[i] = (size_t) (nul - part[i]);
	}
	/* The trap byte is summary.json's no more (the separator before an empty one). */
	if (part[2] && len[2])
		len[2]--;
	readable = part[1] && part[2] && one_object(part[0], len[0]) &&
		   stream_readable(part[1], len[1]) && one_object(part[2], len[2]);
	snprintf(shard, sizeof(shard), "%s/shard", root);
	snprintf(out, sizeof(out), "%s/out", root);
	nftw(shard, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	nftw(out, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (mkdir(shard, 0755) < 0)
		__builtin_trap();
	write_part(shard, "config.json", part[0], len[0]);
	if (part[1])
		write_part(shard, "stream.jsonl", part[1], len[1]);
	if (part[2])
		write_part(shard, "summary.json", part[2], len[2]);
	if (traps & TRAP_LOG_LINK) {
		char secret[PATH_MAX];

		snprintf(secret, sizeof(secret), "%s/secret", root);
		link_or_trap(secret, shard, "write.log");
	} else if (traps & TRAP_LOG_FIFO) {
		char fifo[PATH_MAX + 16];

		snprintf(fifo, sizeof(fifo), "%s/write.log", shard);
		if (mkfifo(fifo, 0644) < 0)
			__builtin_trap();
	} else {
		write_part(shard, "write.log", (const uint8_t *) LOG, sizeof(LOG) - 1);
	}
	set_traps(shard, traps);

	/* A merge of what its readers must refuse is a reader that took a bad line or document
	 * for a good one, or for the end of the file. */
	r = bo_merge(out, dirs, 1, &err);
	if (r >= 0 && !readable)
		__builtin_trap();
	check_root();
	check_stream(out);
	check_log(shard);
	r = bo_report_write(shard, NULL, &err);
	if (r >= 0 && part[1] && !stream_readable(part[1], len[1]))
		__builtin_trap();
	check_root();
	check_log(shard);
	check_out(out, shard);
	read_diary(shard);

	/* The report's reading of summary.json. */
	o = NULL;
	if (part[2]) {
		char *txt = strndup((const char *) part[2], len[2]);

		o = txt ? json_tokener_parse(txt) : NULL;
		free(txt);
	}
	if (o && bo_summary_from_json(o, &s, &err) == 0) {
		for (int c = 0; c < BO_CLASS_COUNT; c++)
			if (memchr(s.first[c], 0, sizeof(s.first[c])) == NULL)
				__builtin_trap();
		if (memchr(s.error, 0, sizeof(s.error)) == NULL)
			__builtin_trap();
		(void) bo_summary_verdict(&s);
	}
	json_object_put(o);
	return 0;
}
