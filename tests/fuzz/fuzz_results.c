// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the host-side reader of what a guest wrote back: the input is
 * config.json, stream.jsonl and summary.json of one shard results directory, separated by NUL
 * bytes. The shard is merged (bo_merge(), as `check --jobs` and `merge` do) and its summary read
 * (bo_summary_from_json(), as the report after `run`/`check` does).
 *
 * Oracles besides the sanitizers: nothing appears next to the two directories (no write
 * outside the results directory), and every line of the merged stream.jsonl is one JSON
 * object.
 */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "harness/results/merge.h"
#include "harness/results/summary.h"

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

/* Only "shard" and "out" may exist in the scratch root. */
static void check_root(void)
{
	DIR *d = opendir(root);
	struct dirent *de;

	if (!d)
		__builtin_trap();
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "shard") && strcmp(de->d_name, "out"))
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *part[3] = {data, NULL, NULL};
	size_t len[3] = {size, 0, 0};
	char shard[PATH_MAX], out[PATH_MAX];
	char *dirs[1] = {shard};
	struct bo_err err = {0};
	struct json_object *o;
	struct bo_summary s;

	if (!root[0]) {
		const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		int null = open("/dev/null", O_WRONLY);

		snprintf(root, sizeof(root), "%s/fuzz-results-XXXXXX", tmp);
		if (!mkdtemp(root))
			__builtin_trap();
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
	}
	for (int i = 0; i < 2; i++) {
		const uint8_t *nul = memchr(part[i], 0, len[i]);

		if (!nul)
			break;
		part[i + 1] = nul + 1;
		len[i + 1] = len[i] - (size_t) (nul + 1 - part[i]);
		len[i] = (size_t) (nul - part[i]);
	}
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
	write_part(shard, "write.log", (const uint8_t *) "", 0);

	(void) bo_merge(out, dirs, 1, &err);
	check_root();
	check_stream(out);

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
