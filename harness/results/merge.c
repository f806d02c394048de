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
#include "harness/base/sha256.h"
#include "harness/log/log.h"
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

/* What a merge gathers from its shards. */
struct merging {
	struct json_object *base; /* config.json of the first, without run id, shard, origin */
	unsigned count;		  /* N of the shards' I/N */
	uint8_t *seen;		  /* which of 0..N-1 came */
	struct rec *v;		  /* their state and alias records */
	size_t n, cap;
	struct bo_summary sum;
	/* The logs hashed, by device and inode: one file shared by several shards (check
	 * --jobs links one into each) is read once. */
	dev_t *log_dev;
	ino_t *log_ino;
	size_t n_logs;
	int log_fd; /* the first shard's, as hashed: what the merged directory gets */
	uint64_t log_size;
};

/*
 * config.json without its run id and shard: what every shard must agree on. Its log_sha256
 * (the identity of the log the shard checked, as check records it) into @sha, "" without one.
 */
static int shard_config(const char *dir, struct json_object **ret_cfg, char sha[BO_SHA256_HEX],
			unsigned *ret_i, unsigned *ret_n, struct bo_err *err)
{
	struct json_object *cfg, *shard;
	struct bo_err e = {0};
	const char *log;
	unsigned i, n;

	if (bo_config_read(dir, &cfg, &e) < 0)
		return bo_err_set(err, EBADMSG,
				  "'%s': no valid config.json (%s): not a results directory "
				  "of blackout check",
				  dir, bo_err_str(&e));
	if (!json_object_object_get_ex(cfg, "shard", &shard) ||
	    !json_object_is_type(shard, json_type_string) ||
	    bo_parse_share(json_object_get_string(shard), BO_MERGE_MAX_SHARDS, &i, &n) < 0) {
		json_object_put(cfg);
		return bo_err_set(err, EINVAL,
				  "'%s' is not a shard (config.json has no \"shard\": "
				  "\"I/N\"); run check with --shard I/N",
				  dir);
	}
	log = bo_json_str(cfg, "log_sha256");
	snprintf(sha, BO_SHA256_HEX, "%s",
		 log && strlen(log) == BO_SHA256_HEX - 1 &&
				 strspn(log, "0123456789abcdef") == BO_SHA256_HEX - 1
			 ? log
			 : "");
	json_object_object_del(cfg, "shard");
	json_object_object_del(cfg, "run_id");
	for (const char *const *k = (const char *const[]){BO_CONFIG_ORIGIN_KEYS, NULL}; *k; k++)
		json_object_object_del(cfg, *k);
	*ret_cfg = cfg;
	*ret_i = i;
	*ret_n = n;
	return 0;
}

static int add_record(const struct bo_stream_rec *rec, void *ctx, struct bo_err *err)
{
	struct merging *m = ctx;

	if (m->n == m->cap) {
		size_t c = m->cap ? m->cap * 2 : 256;
		struct rec *nv = realloc(m->v, c * sizeof(*nv));

		if (!nv)
			return bo_err_set(err, ENOMEM, "merging");
		m->v = nv;
		m->cap = c;
	}
	m->v[m->n] = (struct rec){.cut = rec->cut, .alias = rec->alias_of != NULL, .cls = rec->cls};
	if (bo_verdict_copy(&rec->findings, &m->v[m->n].findings) < 0)
		return bo_err_set(err, ENOMEM, "merging");
	m->v[m->n++].o = json_object_get(rec->o);
	return 0;
}

/*
 * Whether the write.log of shard @dir is the log its config.json names (@sha, its
 * log_sha256): a shard's records and its log travel together from another machine or a
 * guest, and states merged under a log they were not checked on would be reproduced, and
 * reported, on the wrong one.
 */
static int shard_log(struct merging *m, const char *dir, const char *sha, struct bo_err *err)
{
	char what[PATH_MAX], hex[BO_SHA256_HEX];
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	if (!*sha)
		return bo_err_set(err, EINVAL,
				  "'%s': config.json has no \"log_sha256\" (the sha256 of the log, "
				  "which check records): not a shard of blackout check",
				  dir);
	fd = bo_input_open(dir, "write.log", 0, 0, NULL, err);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		return bo_err_set(err, errno, "'%s/write.log': %s", dir, strerror(errno));
	for (size_t i = 0; i < m->n_logs; i++)
		if (m->log_dev[i] == st.st_dev && m->log_ino[i] == st.st_ino)
			return 0;
	if (bo_pathf(what, sizeof(what), "%s/write.log", dir) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", dir);
	r = bo_sha256_fd(fd, what, hex, err);
	if (r < 0)
		return r;
	if (strcmp(hex, sha))
		return bo_err_set(err, EBADMSG,
				  "shard '%s': its write.log is not the log its config.json names "
				  "(sha256 %s, log_sha256 %s): refusing to merge it",
				  dir, hex, sha);
	m->log_dev[m->n_logs] = st.st_dev;
	m->log_ino[m->n_logs++] = st.st_ino;
	if (m->log_fd < 0) {
		m->log_fd = BO_TAKE_FD(fd);
		m->log_size = (uint64_t) st.st_size;
	}
	return 0;
}

/* Shard @dir read into @m: its configuration (the first's, or equal to it), its records,
 * its summary's error and time, its log. */
static int read_shard(struct merging *m, const char *dir, const char *first, struct bo_err *err)
{
	char sha[BO_SHA256_HEX];
	struct json_object *cfg = NULL;
	unsigned i = 0, k = 0;
	struct bo_summary ss;
	int r = shard_config(dir, &cfg, sha, &i, &k, err);

	if (r < 0)
		return r;
	if (!m->base) {
		m->base = cfg;
		m->count = k;
		m->seen = calloc(k, 1);
		if (!m->seen)
			return bo_err_set(err, ENOMEM, "merging");
	} else {
		bool same = json_object_equal(m->base, cfg) && k == m->count;

		json_object_put(cfg);
		if (!same)
			return bo_err_set(err, EINVAL,
					  "'%s' is a shard of a different check (another log, "
					  "seed or configuration) than '%s': refusing to merge",
					  dir, first);
	}
	if (m->seen[i]++)
		return bo_err_set(err, EINVAL, "shard %u/%u is given twice ('%s')", i, m->count,
				  dir);
	r = bo_stream_each_state(dir, add_record, m, err);
	if (r >= 0 && bo_summary_read(dir, &ss, NULL, err) < 0)
		r = bo_err_prefix(err, "'%s'", dir);
	if (r < 0)
		return r;
	/* A shard of check --jobs may find every state claimed by the others: that it checked
	 * none is no error of the merge (which has its own when no shard checked any). */
	if (ss.error[0] && !(ss.states == 0 && !strcmp(ss.error, BO_SUMMARY_NOTHING_CHECKED)))
		bo_summary_error(&m->sum, ss.error);
	if (ss.seconds_total > m->sum.seconds_total)
		m->sum.seconds_total = ss.seconds_total;
	return shard_log(m, dir, sha, err);
}

/* The records of every shard into @res's stream, in cut order, and counted. */
static int emit_records(struct merging *m, struct bo_results *res, struct bo_err *err)
{
	int r = 0;

	if (m->n)
		qsort(m->v, m->n, sizeof(*m->v), cmp_rec);
	for (size_t i = 0; i < m->n && r >= 0; i++) {
		struct rec *v = &m->v[i];
		struct json_object *sec = NULL;

		if (v->alias) {
			m->sum.aliases++;
		} else {
			json_object_object_get_ex(v->o, "seconds", &sec);
			bo_summary_add(&m->sum, v->cls, bo_json_str(v->o, "state"),
				       json_object_get_double(sec), &v->findings);
		}
		json_object_object_del(v->o, "seq");
		json_object_object_del(v->o, "time");
		json_object_object_del(v->o, "event");
		r = bo_results_emit(res, v->alias ? "alias" : "state", json_object_get(v->o), err);
	}
	return r;
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

/*
 * A state's write.log, the link to the run's log a state cut inside a recovery keeps
 * (explore/save.c): made again in the merged directory @res to its own write.log, linked
 * or else pointed at. What the shard has under that name is never read.
 */
static int link_log(struct bo_results *res, const char *to, struct bo_err *err)
{
	char log[PATH_MAX];

	if (bo_pathf(log, sizeof(log), "%s/write.log", bo_results_dir(res)) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", to);
	if (link(log, to) < 0 && symlink("../../write.log", to) < 0)
		return bo_err_set(err, errno, "linking '%s': %s", to, strerror(errno));
	return 0;
}

/*
 * Copy the by-product @name of the state directory @sfd (@src) to @to, by the rule of
 * harness/base/input.h for by-products: a regular file of one name (never a symlink, a FIFO,
 * a device or a hard link, which may be any file of the shard's filesystem), at most
 * BO_INPUT_MAX_TEXT; anything else refuses the merge. recovery.log is a log (a state cut
 * inside a recovery): as long as the log it holds, which must read as one, like write.log.
 */
static int copy_byproduct(int sfd, const char *src, const char *name, const char *to,
			  struct bo_err *err)
{
	bool log = !strcmp(name, "recovery.log");
	uint64_t size;
	_cleanup_close_ int in = bo_input_openat(sfd, src, name, BO_INPUT_ONELINK,
						 log ? 0 : BO_INPUT_MAX_TEXT, &size, err);
	int r;

	if (in < 0)
		return in;
	if (log) {
		struct bo_log *l = NULL;
		char path[PATH_MAX];

		if (bo_pathf(path, sizeof(path), "%s/%s", src, name) < 0)
			return bo_err_set(err, ENAMETOOLONG, "'%s/%s': path too long", src, name);
		r = bo_log_open_fd(in, path, 0, &l, err);
		if (r < 0)
			return r;
		size = bo_log_end_offset(l);
		bo_log_free(l);
	}
	r = bo_copy_fd(in, size, name, to, err);
	if (r >= 0 && !strcmp(name, "repro.sh") && chmod(to, 0755) < 0)
		r = bo_err_set(err, errno, "chmod '%s': %s", to, strerror(errno));
	return r;
}

/* The files of the state directory @sfd (@src, closed here) into the new directory @dst of
 * @res. */
static int copy_dir(struct bo_results *res, int sfd, const char *src, const char *dst,
		    struct bo_err *err)
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

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (bo_pathf(to, sizeof(to), "%s/%s", dst, de->d_name) < 0)
			return bo_err_set(err, ENAMETOOLONG, "'%s/%s': path too long", src,
					  de->d_name);
		r = !strcmp(de->d_name, "write.log")
			    ? link_log(res, to, err)
			    : copy_byproduct(dirfd(d), src, de->d_name, to, err);
	}
	return r;
}

/* The states/<id>/ directories of shard @dir into @res, never through a symlink. */
static int copy_states(struct bo_results *res, const char *dir, struct bo_err *err)
{
	char src[PATH_MAX], dst[PATH_MAX];
	_cleanup_(bo_closedirp) DIR *sd = NULL;
	_cleanup_close_ int top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	int r = 0;

	sd = top < 0 ? NULL : open_subdir(top, "states");
	if (!sd && errno == ENOTDIR)
		return bo_err_set(err, ENOTDIR,
				  "'%s/states' is not a directory (a symlink?): refusing to "
				  "follow it",
				  dir);
	while (sd && (de = readdir(sd)) && r >= 0) {
		struct stat st;
		int sfd;

		if (de->d_name[0] == '.' ||
		    fstatat(dirfd(sd), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		if (bo_pathf(src, sizeof(src), "%s/states/%s", dir, de->d_name) < 0 ||
		    bo_pathf(dst, sizeof(dst), "%s/states/%s", bo_results_dir(res), de->d_name) < 0)
			return bo_err_set(err, ENAMETOOLONG, "state '%s': path too long",
					  de->d_name);
		sfd = openat(dirfd(sd), de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		r = sfd < 0 ? bo_err_set(err, errno, "reading '%s': %s", src, strerror(errno))
			    : copy_dir(res, sfd, src, dst, err);
	}
	return r < 0 ? bo_err_prefix(err, "shard '%s'", dir) : 0;
}

/* The log is the artifact: the merged directory @res carries it like a single run's, the
 * first shard's (@dir) read from the descriptor its hash was taken from. */
static int copy_log(struct merging *m, struct bo_results *res, const char *dir, struct bo_err *err)
{
	char src[PATH_MAX], dst[PATH_MAX];

	if (bo_pathf(src, sizeof(src), "%s/write.log", dir) < 0 ||
	    bo_pathf(dst, sizeof(dst), "%s/write.log", bo_results_dir(res)) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", bo_results_dir(res));
	return bo_copy_fd(m->log_fd, m->log_size, src, dst, err);
}

/* config.json (with @write_config: the shards' own, where and when the first's) and the
 * summary of @m into @res. */
static int write_docs(struct merging *m, struct bo_results *res, const char *first,
		      bool write_config, struct bo_err *err)
{
	_cleanup_json_ struct json_object *o = NULL;
	int r = 0;

	if (write_config) {
		struct json_object *origin = NULL, *val;

		if (bo_config_read(first, &origin, NULL) == 0)
			for (const char *const *k =
				     (const char *const[]){BO_CONFIG_ORIGIN_KEYS, NULL};
			     *k; k++)
				if (json_object_object_get_ex(origin, *k, &val))
					json_object_object_add(m->base, *k, json_object_get(val));
		json_object_put(origin);
		json_object_object_add(m->base, "merged_from", json_object_new_int((int) m->count));
		r = bo_results_write_json(res, "config.json", m->base, err);
	}
	if (r < 0)
		return r;
	o = bo_summary_json(&m->sum);
	return o ? bo_results_write_json(res, "summary.json", o, err)
		 : bo_err_set(err, ENOMEM, "merging");
}

/* Merge @dirs into @res; @fresh: @res is new, and gets the log and config.json too. */
static int merge(struct bo_results *res, char *const *dirs, size_t n, bool fresh,
		 struct bo_err *err)
{
	struct merging m = {.log_dev = calloc(n, sizeof(dev_t)),
			    .log_ino = calloc(n, sizeof(ino_t)),
			    .log_fd = -1};
	int r = m.log_dev && m.log_ino ? 0 : bo_err_set(err, ENOMEM, "merging");

	for (size_t d = 0; d < n && r >= 0; d++)
		r = read_shard(&m, dirs[d], dirs[0], err);
	for (unsigned i = 0; r >= 0 && i < m.count; i++)
		if (!m.seen[i])
			r = bo_err_set(err, EINVAL, "shard %u/%u is missing", i, m.count);
	if (r >= 0)
		r = emit_records(&m, res, err);
	if (r >= 0 && fresh)
		r = copy_log(&m, res, dirs[0], err);
	for (size_t d = 0; d < n && r >= 0; d++)
		r = copy_states(res, dirs[d], err);
	if (r >= 0)
		r = write_docs(&m, res, dirs[0], fresh, err);
	for (size_t i = 0; i < m.n; i++) {
		json_object_put(m.v[i].o);
		bo_verdict_clear(&m.v[i].findings);
	}
	free(m.v);
	free(m.seen);
	free(m.log_dev);
	free(m.log_ino);
	if (m.log_fd >= 0)
		close(m.log_fd);
	json_object_put(m.base);
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
	int r;

	if (n == 0)
		return bo_err_set(err, EINVAL, "nothing to merge");
	r = bo_results_create(out, &res, err);
	if (r < 0)
		return r;
	r = merge(res, dirs, n, true, err);
	bo_results_free(res);
	/* A refused merge leaves nothing that blocks its retry. */
	if (r < 0)
		(void) !bo_remove_tree(out);
	return r;
}
