// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/results/results.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/file.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/results/stream.h"

struct bo_results {
	char *dir;
	int dirfd;
	int stream_fd;
	uint64_t seq;
};

bool bo_results_rel_ok(const char *rel)
{
	const char *p = rel;

	if (!rel || !*rel || *rel == '/')
		return false;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 2 && !strncmp(p, "..", 2)) || (n == 1 && *p == '.'))
			return false;
		p += n;
		if (*p == '/' && !*++p)
			return false;
	}
	return true;
}

static int mkdir_at(int dirfd, const char *rel)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", rel) >= (int) sizeof(buf))
		return -ENAMETOOLONG;
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdirat(dirfd, buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdirat(dirfd, buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int open_dir(const char *dir, struct bo_results **ret, struct bo_err *err)
{
	static const char *const skeleton[] = {"states", "vm", "diagnostics/pre",
					       "diagnostics/post"};
	struct bo_results *r;
	int e;

	r = calloc(1, sizeof(*r));
	if (!r)
		return bo_err_set(err, ENOMEM, "allocating results");
	r->stream_fd = -1;
	r->dir = strdup(dir);
	r->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!r->dir || r->dirfd < 0) {
		e = r->dir ? errno : ENOMEM;
		bo_results_free(r);
		return bo_err_set(err, e, "opening results directory '%s': %s", dir, strerror(e));
	}
	for (size_t i = 0; i < BO_ARRAY_SIZE(skeleton); i++) {
		int k = mkdir_at(r->dirfd, skeleton[i]);

		if (k < 0) {
			bo_results_free(r);
			return bo_err_set(err, -k, "results '%s': creating %s: %s", dir,
					  skeleton[i], strerror(-k));
		}
	}
	r->stream_fd = openat(r->dirfd, "stream.jsonl",
			      O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (r->stream_fd < 0) {
		e = errno;
		bo_results_free(r);
		return bo_err_set(err, e, "results '%s': opening stream.jsonl: %s", dir,
				  strerror(e));
	}
	*ret = r;
	return 0;
}

int bo_results_create(const char *dir, struct bo_results **ret, struct bo_err *err)
{
	int r;

	if (mkdir(dir, 0755) < 0)
		return bo_err_set(err, errno,
				  errno == EEXIST ? "results directory '%s' already exists: a "
						    "results directory is never reused"
						  : "creating results directory '%s': %s",
				  dir, strerror(errno));
	r = open_dir(dir, ret, err);
	/* Made here and not finished: removed, so that the retry does not find it. */
	if (r < 0)
		(void) !bo_remove_tree(dir);
	return r;
}

int bo_results_open(const char *dir, struct bo_results **ret, struct bo_err *err)
{
	return open_dir(dir, ret, err);
}

void bo_results_free(struct bo_results *r)
{
	if (!r)
		return;
	if (r->stream_fd >= 0)
		close(r->stream_fd);
	if (r->dirfd >= 0)
		close(r->dirfd);
	free(r->dir);
	free(r);
}

const char *bo_results_dir(const struct bo_results *r)
{
	return r->dir;
}

int bo_results_emit(struct bo_results *r, const char *event, struct json_object *fields,
		    struct bo_err *err)
{
	_cleanup_json_ struct json_object *rec = bo_json_new_doc(), *own = fields;
	struct timespec ts;
	struct tm tm;
	char when[40];
	const char *line;
	_cleanup_free_ char *buf = NULL;
	size_t len;
	off_t end;
	int k;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(when + strlen(when), sizeof(when) - strlen(when), ".%03ldZ", ts.tv_nsec / 1000000);
	if (!rec || json_object_object_add(rec, "seq", json_object_new_uint64(r->seq)) < 0 ||
	    json_object_object_add(rec, "time", json_object_new_string(when)) < 0 ||
	    json_object_object_add(rec, "event", json_object_new_string(event)) < 0)
		return bo_err_set(err, ENOMEM, "building stream record");
	/* The record takes the fields' values; @fields itself goes with own. */
	if (own) {
		json_object_object_foreach(own, k2, v)
		{
			if (json_object_object_add(rec, k2, json_object_get(v)) < 0)
				return bo_err_set(err, ENOMEM, "building stream record");
		}
	}
	line = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
							   JSON_C_TO_STRING_NOSLASHESCAPE);
	len = strlen(line);
	/* No reader takes a longer line (stream.h): refused here, not written unreadable. */
	if (len > BO_STREAM_LINE_MAX)
		return bo_err_set(
			err, E2BIG,
			"results '%s': a %s record of %zu bytes, longer than the %u a line of "
			"stream.jsonl may be",
			r->dir, event, len, BO_STREAM_LINE_MAX);
	buf = malloc(len + 1);
	if (!buf)
		return bo_err_set(err, ENOMEM, "building stream record");
	memcpy(buf, line, len);
	buf[len++] = '\n';
	/* One write per record. A full filesystem can still take part of it: cut that part
	 * off again, so that the stream stays whole records, however short. */
	end = lseek(r->stream_fd, 0, SEEK_END);
	k = (int) write(r->stream_fd, buf, len);
	if (k < 0 || (size_t) k != len) {
		int e = k < 0 ? errno : ENOSPC;

		if (k > 0 && end >= 0)
			(void) !ftruncate(r->stream_fd, end);
		return bo_err_set(err, e, "results '%s': appending to stream.jsonl: %s", r->dir,
				  strerror(e));
	}
	r->seq++;
	return 0;
}

int bo_results_write_file(struct bo_results *r, const char *rel, const void *buf, size_t len,
			  struct bo_err *err)
{
	int k;

	if (!bo_results_rel_ok(rel))
		return bo_err_set(err, EINVAL, "results: refusing path '%s'", rel);
	k = bo_write_file_at(r->dirfd, rel, buf, len);
	if (k < 0)
		return bo_err_set(err, -k, "results '%s': writing %s: %s", r->dir, rel,
				  strerror(-k));
	return 0;
}

int bo_results_write_json(struct bo_results *r, const char *rel, struct json_object *o,
			  struct bo_err *err)
{
	if (!bo_results_rel_ok(rel))
		return bo_err_set(err, EINVAL, "results: refusing path '%s'", rel);
	if (bo_json_write_at(r->dirfd, rel, o, err) < 0)
		return bo_err_prefix(err, "results '%s'", r->dir);
	return 0;
}

int bo_results_mkdir(struct bo_results *r, const char *rel, char **ret_path, struct bo_err *err)
{
	int k;

	if (!bo_results_rel_ok(rel))
		return bo_err_set(err, EINVAL, "results: refusing path '%s'", rel);
	k = mkdir_at(r->dirfd, rel);
	if (k < 0)
		return bo_err_set(err, -k, "results '%s': creating %s: %s", r->dir, rel,
				  strerror(-k));
	if (ret_path && asprintf(ret_path, "%s/%s", r->dir, rel) < 0)
		return bo_err_set(err, ENOMEM, "results: creating %s", rel);
	return 0;
}
