// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/results/merge.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/states/classify.h"
#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/path.h"
#include "harness/results/config.h"
#include "harness/results/results.h"
#include "harness/results/stream.h"
#include "harness/results/summary.h"

/* A state or alias record of a shard. */
struct rec {
	uint64_t cut;
	bool alias;
	enum bo_class cls;
	struct bo_verdict findings;
	struct json_object *o; /* the record as read, owned */
};

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return (x->cut > y->cut) - (x->cut < y->cut);
}

/* A shard count is read from guest-written config.json: bounded before it sizes anything. */
#define BO_MERGE_MAX_SHARDS 65536

/* config.json without its run id and shard: what every shard must agree on. */
static int shard_config(const char *dir, struct json_object **ret_cfg, unsigned *ret_i,
			unsigned *ret_n, struct bo_err *err)
{
	struct json_object *cfg, *shard;
	struct bo_err e = {0};
	unsigned i, n;

	if (bo_config_read(dir, &cfg, &e) < 0)
		return bo_err_set(err, EBADMSG,
				  "'%s': no valid config.json (%s): not a results directory "
				  "of blackout check",
				  dir, bo_err_str(&e));
	if (!json_object_object_get_ex(cfg, "shard", &shard) ||
	    !json_object_is_type(shard, json_type_string) ||
	    sscanf(json_object_get_string(shard), "%u/%u", &i, &n) != 2 || n == 0 || i >= n ||
	    n > BO_MERGE_MAX_SHARDS) {
		json_object_put(cfg);
		return bo_err_set(err, EINVAL,
				  "'%s' is not a shard (config.json has no \"shard\": "
				  "\"I/N\"); run check with --shard I/N",
				  dir);
	}
	json_object_object_del(cfg, "shard");
	json_object_object_del(cfg, "run_id");
	for (const char *const *k = (const char *const[]){BO_CONFIG_ORIGIN_KEYS, NULL}; *k; k++)
		json_object_object_del(cfg, *k);
	*ret_cfg = cfg;
	*ret_i = i;
	*ret_n = n;
	return 0;
}

/* The records being gathered from the shards. */
struct gathered {
	struct rec *v;
	size_t n, cap;
};

static int add_record(const struct bo_stream_rec *rec, void *ctx, struct bo_err *err)
{
	struct gathered *g = ctx;

	if (g->n == g->cap) {
		size_t c = g->cap ? g->cap * 2 : 256;
		struct rec *nv = realloc(g->v, c * sizeof(*nv));

		if (!nv)
			return bo_err_set(err, ENOMEM, "merging");
		g->v = nv;
		g->cap = c;
	}
	g->v[g->n] = (struct rec){.cut = rec->cut, .alias = rec->alias_of != NULL, .cls = rec->cls};
	if (bo_verdict_copy(&rec->findings, &g->v[g->n].findings) < 0)
		return bo_err_set(err, ENOMEM, "merging");
	g->v[g->n++].o = json_object_get(rec->o);
	return 0;
}

/* A directory beneath @dirfd, never through a symlink, for reading; NULL (errno set) when it
 * is not one. */
static DIR *open_subdir(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (fd >= 0 && !d)
		close(fd);
	return d;
}

/* Copy the regular files of @src (one level, the directory @sfd) into the new directory
 * @dst. */
static int copy_dir(int sfd, const char *src, const char *dst, struct bo_err *err)
{
	_cleanup_(bo_closedirp) DIR *d = fdopendir(sfd);
	struct dirent *de;
	int r = 0;

	if (!d) {
		close(sfd);
		return bo_err_set(err, errno, "reading '%s': %s", src, strerror(errno));
	}
	if (mkdir(dst, 0755) < 0 && errno != EEXIST)
		return bo_err_set(err, errno, "creating '%s': %s", dst, strerror(errno));
	while (r >= 0 && (de = readdir(d))) {
		char to[PATH_MAX];
		_cleanup_close_ int in = -1;
		struct stat st;
		uint64_t size;

		/* Guest-written: the type from lstat, never d_type alone, and never a symlink;
		 * then opened by the rule of harness/base/input.h, which checks it again. */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (bo_pathf(to, sizeof(to), "%s/%s", dst, de->d_name) < 0) {
			r = bo_err_set(err, ENAMETOOLONG, "'%s/%s': path too long", src,
				       de->d_name);
			break;
		}
		in = bo_input_openat(dirfd(d), src, de->d_name, 0, 0, &size, err);
		if (in < 0) {
			r = in;
			break;
		}
		r = bo_copy_fd(in, size, de->d_name, to, err);
		if (r >= 0 && !strcmp(de->d_name, "repro.sh") && chmod(to, 0755) < 0)
			r = bo_err_set(err, errno, "chmod '%s': %s", to, strerror(errno));
	}
	return r;
}

static int merge(struct bo_results *res, char *const *dirs, size_t n, bool write_config,
		 struct bo_err *err)
{
	struct json_object *base = NULL;
	struct bo_summary sum = {0};
	struct gathered g = {0};
	uint8_t *seen = NULL;
	unsigned count = 0;
	int r = 0;

	for (size_t d = 0; d < n && r >= 0; d++) {
		struct json_object *cfg = NULL;
		unsigned i = 0, k = 0;
		struct bo_summary ss;

		r = shard_config(dirs[d], &cfg, &i, &k, err);
		if (r < 0)
			break;
		if (!base) {
			base = cfg;
			count = k;
			seen = calloc(k, 1);
			if (!seen)
				r = bo_err_set(err, ENOMEM, "merging");
		} else {
			if (!json_object_equal(base, cfg) || k != count)
				r = bo_err_set(
					err, EINVAL,
					"'%s' is a shard of a different check (another log, "
					"seed or configuration) than '%s': refusing to merge",
					dirs[d], dirs[0]);
			json_object_put(cfg);
		}
		if (r >= 0 && seen[i]++)
			r = bo_err_set(err, EINVAL, "shard %u/%u is given twice ('%s')", i, count,
				       dirs[d]);
		if (r >= 0)
			r = bo_stream_each_state(dirs[d], add_record, &g, err);
		if (r >= 0 && bo_summary_read(dirs[d], &ss, NULL, err) < 0)
			r = bo_err_prefix(err, "'%s'", dirs[d]);
		if (r >= 0) {
			/* A shard of check --jobs may find every state claimed by the others:
			 * that it checked none is no error of the merge (which has its own when
			 * no shard checked any). */
			if (ss.error[0] &&
			    !(ss.states == 0 && !strcmp(ss.error, BO_SUMMARY_NOTHING_CHECKED)))
				bo_summary_error(&sum, ss.error);
			if (ss.seconds_total > sum.seconds_total)
				sum.seconds_total = ss.seconds_total;
		}
	}
	for (unsigned i = 0; r >= 0 && i < count; i++)
		if (!seen[i])
			r = bo_err_set(err, EINVAL, "shard %u/%u is missing", i, count);
	if (r >= 0) {
		struct rec *v = g.v;

		if (g.n)
			qsort(v, g.n, sizeof(*v), cmp_rec);
		for (size_t i = 0; i < g.n && r >= 0; i++) {
			struct json_object *sec;

			if (v[i].alias) {
				sum.aliases++;
			} else {
				json_object_object_get_ex(v[i].o, "seconds", &sec);
				bo_summary_add(&sum, v[i].cls, bo_json_str(v[i].o, "state"),
					       json_object_get_double(sec), &v[i].findings);
			}
			json_object_object_del(v[i].o, "seq");
			json_object_object_del(v[i].o, "time");
			json_object_object_del(v[i].o, "event");
			r = bo_results_emit(res, v[i].alias ? "alias" : "state",
					    json_object_get(v[i].o), err);
		}
	}
	for (size_t d = 0; d < n && r >= 0; d++) {
		char src[PATH_MAX], dst[PATH_MAX];
		_cleanup_(bo_closedirp) DIR *sd = NULL;
		_cleanup_close_ int top = open(dirs[d], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		struct dirent *de;

		/* states/ and each state's directory: never through a symlink. */
		sd = top < 0 ? NULL : open_subdir(top, "states");
		if (!sd && errno == ENOTDIR)
			r = bo_err_set(err, ENOTDIR,
				       "'%s/states' is not a directory (a symlink?): "
				       "refusing to follow it",
				       dirs[d]);
		while (sd && (de = readdir(sd)) && r >= 0) {
			struct stat st;
			int sfd;

			if (de->d_name[0] == '.' ||
			    fstatat(dirfd(sd), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			    !S_ISDIR(st.st_mode))
				continue;
			if (bo_pathf(src, sizeof(src), "%s/states/%s", dirs[d], de->d_name) < 0 ||
			    bo_pathf(dst, sizeof(dst), "%s/states/%s", bo_results_dir(res),
				     de->d_name) < 0) {
				r = bo_err_set(err, ENAMETOOLONG, "state '%s': path too long",
					       de->d_name);
				break;
			}
			sfd = openat(dirfd(sd), de->d_name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			r = sfd < 0 ? bo_err_set(err, errno, "reading '%s': %s", src,
						 strerror(errno))
				    : copy_dir(sfd, src, dst, err);
		}
	}
	if (r >= 0 && write_config) {
		struct json_object *first = NULL, *val;

		/* Where and when: the first shard's. */
		if (bo_config_read(dirs[0], &first, NULL) == 0)
			for (const char *const *k =
				     (const char *const[]){BO_CONFIG_ORIGIN_KEYS, NULL};
			     *k; k++)
				if (json_object_object_get_ex(first, *k, &val))
					json_object_object_add(base, *k, json_object_get(val));
		json_object_put(first);
		json_object_object_add(base, "merged_from", json_object_new_int((int) count));
		r = bo_results_write_json(res, "config.json", base, err);
	}
	if (r >= 0) {
		_cleanup_json_ struct json_object *o = bo_summary_json(&sum);

		r = o ? bo_results_write_json(res, "summary.json", o, err)
		      : bo_err_set(err, ENOMEM, "merging");
	}
	for (size_t i = 0; i < g.n; i++) {
		json_object_put(g.v[i].o);
		bo_verdict_clear(&g.v[i].findings);
	}
	free(g.v);
	free(seen);
	json_object_put(base);
	return r;
}

int bo_merge_into(const char *out, char *const *dirs, size_t n, struct bo_err *err)
{
	struct bo_results *res = NULL;
	int r = bo_results_open(out, &res, err);

	if (r >= 0)
		r = merge(res, dirs, n, false, err);
	bo_results_free(res);
	return r;
}

int bo_merge(const char *out, char *const *dirs, size_t n, struct bo_err *err)
{
	struct bo_results *res = NULL;
	char src[PATH_MAX], dst[PATH_MAX];
	int r;

	if (n == 0)
		return bo_err_set(err, EINVAL, "nothing to merge");
	r = bo_results_create(out, &res, err);
	if (r < 0)
		return r;
	r = merge(res, dirs, n, true, err);
	/* The log is the artifact: the merged directory carries it like a single run's. */
	if (r >= 0) {
		uint64_t size;
		_cleanup_close_ int in = bo_input_open(dirs[0], "write.log", 0, 0, &size, err);

		if (in < 0)
			r = in;
		else if (bo_pathf(src, sizeof(src), "%s/write.log", dirs[0]) < 0 ||
			 bo_pathf(dst, sizeof(dst), "%s/write.log", out) < 0)
			r = bo_err_set(err, ENAMETOOLONG, "'%s': path too long", out);
		else
			r = bo_copy_fd(in, size, src, dst, err);
	}
	bo_results_free(res);
	/* A refused merge leaves nothing that blocks its retry. */
	if (r < 0)
		(void) !bo_remove_tree(out);
	return r;
}
