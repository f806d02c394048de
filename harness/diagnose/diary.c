// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/diagnose/diary.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/json.h"
#include "harness/base/path.h"
#include "harness/results/config.h"
#include "harness/results/stream.h"
#include "harness/results/summary.h"

/* The state and alias records of stream.jsonl, in order. */
static int read_stream(struct bo_diary *d, struct bo_err *err)
{
	struct bo_stream *st = NULL;
	struct bo_stream_rec rec;
	int r;

	d->states = json_object_new_array();
	d->aliases = json_object_new_array();
	if (!d->states || !d->aliases)
		return bo_err_set(err, ENOMEM, "out of memory");
	r = bo_stream_open(d->dir, &st, err);
	while (r >= 0 && (r = bo_stream_next(st, &rec, err)) > 0)
		if (bo_stream_is_state(&rec))
			json_object_array_add(rec.alias_of ? d->aliases : d->states,
					      json_object_get(rec.o));
	bo_stream_free(st);
	return r;
}

int bo_diary_load(struct bo_diary *d, const char *dir, struct bo_err *err)
{
	_cleanup_close_ int fd = -1;
	char path[PATH_MAX];
	struct stat st;
	uint64_t seed;
	int r;

	*d = (struct bo_diary){.dir = dir};
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return bo_err_set(err, ENOTDIR, "'%s' is not a results directory", dir);
	r = bo_summary_read(dir, &d->sum, &d->summary, err);
	if (r < 0)
		return r == -EBADMSG ? bo_err_prefix(err, "'%s'", dir) : r;
	r = read_stream(d, err);
	if (r < 0)
		return r;
	/* Each file opened once, beneath the directory: absent is the only way to lack it. The
	 * log is a regular file here (a device is a LOG named on the command line). */
	if (bo_pathf(path, sizeof(path), "%s/write.log", dir) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/write.log': path too long", dir);
	fd = bo_input_open(dir, "write.log", 0, 0, NULL, err);
	r = fd < 0 ? fd : bo_log_open_fd(fd, path, 0, &d->log, err);
	if (r < 0 && r != -ENOENT)
		return r;
	{
		/* Its paths and account are the recording host's: this one need not have them. */
		const struct bo_scenario_opts o = {.host = false};

		r = bo_scenario_load_in(dir, &o, &d->sc, err);
		if (r < 0 && r != -ENOENT)
			return r;
		if (r >= 0)
			d->seed = d->sc->seed;
	}
	/* Without a config.json there is nothing more to know: a run's seed is its scenario's.
	 * One this blackout cannot read is an error, not a directory without it. */
	r = bo_config_read(dir, &d->config, err);
	if (r < 0 && r != -ENOENT)
		return r;
	if (r == 0 && bo_config_run_seed(d->config, &seed)) {
		d->seed = seed;
		if (d->sc)
			bo_scenario_set_seed(d->sc, seed);
	}
	return 0;
}

void bo_diary_clear(struct bo_diary *d)
{
	json_object_put(d->summary);
	json_object_put(d->states);
	json_object_put(d->aliases);
	json_object_put(d->config);
	bo_log_free(d->log);
	bo_scenario_free(d->sc);
	*d = (struct bo_diary){0};
}

/* The record of @a (an array of records) whose "state" is @id, or NULL. */
static struct json_object *record_of(struct json_object *a, const char *id)
{
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i);

		if (!strcmp(bo_json_str(o, "state"), id))
			return o;
	}
	return NULL;
}

/* The ids of @chain (@n of them, then @last) as "c1 -> c2 -> c1", one line, into @buf. */
static const char *chain_str(const char *const *chain, size_t n, const char *last, char *buf,
			     size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i <= n && used < len; i++) {
		_cleanup_free_ char *id = bo_sanitize(i < n ? chain[i] : last, true);
		int w = snprintf(buf + used, len - used, "%s%s", i ? " -> " : "", id ? id : "?");

		used = w < 0 ? len : used + (size_t) w;
	}
	return buf;
}

int bo_diary_state(const struct bo_diary *d, const char *id, struct json_object **ret,
		   const char **ret_alias_of, struct bo_err *err)
{
	const char *chain[BO_DIARY_ALIAS_MAX], *cur = id;
	char ids[BO_DIARY_ALIAS_MAX * 80];
	struct json_object *o;
	size_t n = 0;

	*ret = NULL;
	if (ret_alias_of)
		*ret_alias_of = NULL;
	for (size_t i = 0; !id && i < json_object_array_length(d->states); i++) {
		o = json_object_array_get_idx(d->states, i);
		if (strcmp(bo_json_str(o, "class"), "consistent")) {
			*ret = o;
			break;
		}
	}
	while (id) {
		if ((o = record_of(d->states, cur))) {
			*ret = o;
			if (ret_alias_of && n)
				*ret_alias_of = cur;
			break;
		}
		if (!(o = record_of(d->aliases, cur))) {
			_cleanup_free_ char *safe = bo_sanitize(id, true);

			if (!n)
				return bo_err_set(err, ENOENT,
						  "'%s/stream.jsonl' has no record of state '%s'",
						  d->dir, safe ? safe : "?");
			return bo_err_set(err, ENOENT,
					  "'%s/stream.jsonl': state '%s' is an alias of a state it "
					  "has no record of (%s)",
					  d->dir, safe ? safe : "?",
					  chain_str(chain, n, cur, ids, sizeof(ids)));
		}
		chain[n++] = cur;
		cur = bo_json_str(o, "alias_of");
		for (size_t i = 0; i < n; i++)
			if (!strcmp(chain[i], cur))
				return bo_err_set(
					err, ELOOP,
					"'%s/stream.jsonl': the alias records of state "
					"'%s' go round in a cycle: %s",
					d->dir, chain_str(chain, 0, chain[0], ids, 80),
					chain_str(chain, n, cur, ids + 80, sizeof(ids) - 80));
		if (n == BO_DIARY_ALIAS_MAX)
			return bo_err_set(
				err, ELOOP,
				"'%s/stream.jsonl': state '%s' is an alias more than %d deep "
				"(%s): refusing to follow it further",
				d->dir, chain_str(chain, 0, chain[0], ids, 80), BO_DIARY_ALIAS_MAX,
				chain_str(chain, n, cur, ids + 80, sizeof(ids) - 80));
	}
	return 0;
}

int bo_diary_byproduct(const struct bo_diary *d, const char *id, const char *name, char **ret,
		       struct bo_err *err)
{
	char rel[PATH_MAX];

	/* Guest-written: a state id that is not a plain name names no directory, and nothing
	 * is read through a symlink, from a FIFO or past BO_INPUT_MAX_TEXT. */
	if (!bo_name_plain(id)) {
		_cleanup_free_ char *safe = bo_sanitize(id ? id : "", true);

		return bo_err_set(err, EINVAL,
				  "state id '%s' is not a plain name: nothing under '%s/states/' "
				  "is read for it",
				  safe ? safe : "?", d->dir);
	}
	if (bo_pathf(rel, sizeof(rel), "states/%s/%s", id, name) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/states/%s/%s': path too long", d->dir, id,
				  name);
	return bo_input_read(d->dir, rel, BO_INPUT_MAX_TEXT, ret, NULL, err);
}
