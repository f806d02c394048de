// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/log/inspect.h"
#include "harness/base/json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int push_epoch(struct bo_log_stats *s, uint64_t *cap, const struct bo_epoch *ep)
{
	if (s->n_epochs == *cap) {
		uint64_t c = *cap ? *cap * 2 : 64;
		struct bo_epoch *v = realloc(s->epochs, c * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->epochs = v;
		*cap = c;
	}
	s->epochs[s->n_epochs++] = *ep;
	return 0;
}

int bo_log_stats_compute(const struct bo_log *log, struct bo_log_stats *s, struct bo_err *err)
{
	const uint64_t ss = bo_log_sectorsize(log);
	struct bo_epoch cur = {0};
	uint64_t cap = 0;

	memset(s, 0, sizeof(*s));
	s->entries = bo_log_count(log);
	for (uint64_t n = 0; n < s->entries; n++) {
		const struct bo_log_entry *e = bo_log_entry(log, n);

		s->flush += !!(e->flags & BO_LOG_FLUSH);
		s->fua += !!(e->flags & BO_LOG_FUA);
		s->discard += !!(e->flags & BO_LOG_DISCARD);
		s->mark += !!(e->flags & BO_LOG_MARK);
		s->metadata += !!(e->flags & BO_LOG_METADATA);
		if (e->nr_sectors && !(e->flags & BO_LOG_MARK)) {
			uint64_t end = e->sector + e->nr_sectors;

			if (!s->touched || e->sector < s->sector_min)
				s->sector_min = e->sector;
			if (!s->touched || end > s->sector_end)
				s->sector_end = end;
			s->touched = true;
			if (e->flags & BO_LOG_DISCARD) {
				s->bytes_discarded += e->nr_sectors * ss;
			} else {
				s->writes++;
				s->bytes_written += e->nr_sectors * ss;
				cur.writes++;
				cur.bytes += e->nr_sectors * ss;
			}
		}
		if (e->flags & BO_LOG_FLUSH) {
			cur.last = n;
			cur.flushed = true;
			if (push_epoch(s, &cap, &cur) < 0)
				goto oom;
			cur = (struct bo_epoch){.first = n + 1};
		}
	}
	if (cur.first < s->entries) {
		cur.last = s->entries - 1;
		if (push_epoch(s, &cap, &cur) < 0)
			goto oom;
	}
	return 0;
oom:
	bo_log_stats_clear(s);
	return bo_err_set(err, ENOMEM, "computing log statistics");
}

void bo_log_stats_clear(struct bo_log_stats *s)
{
	free(s->epochs);
	s->epochs = NULL;
	s->n_epochs = 0;
}

/* json_object_object_add that reports failure through a flag, to keep builders flat. */
static void add(struct json_object *o, const char *k, struct json_object *v, bool *ok)
{
	if (!v || json_object_object_add(o, k, v) < 0) {
		json_object_put(v);
		*ok = false;
	}
}

static struct json_object *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

struct json_object *bo_log_entry_json(const struct bo_log *log, uint64_t n)
{
	const struct bo_log_entry *e = bo_log_entry(log, n);
	static const char *const names[] = {"flush", "fua", "discard", "mark", "metadata"};
	struct json_object *o = json_object_new_object(), *fl = json_object_new_array();
	bool ok = o && fl;

	for (size_t i = 0; ok && i < BO_ARRAY_SIZE(names); i++)
		if (e->flags & (1u << i))
			ok = json_object_array_add(fl, json_object_new_string(names[i])) == 0;
	add(o, "entry", u64(n), &ok);
	add(o, "offset", u64(e->offset), &ok);
	add(o, "flags", fl, &ok);
	fl = NULL;
	if (e->flags & BO_LOG_MARK) {
		add(o, "mark", json_object_new_string(bo_log_mark_name(log, n)), &ok);
	} else {
		add(o, "sector", u64(e->sector), &ok);
		add(o, "nr_sectors", u64(e->nr_sectors), &ok);
	}
	if (!ok) {
		json_object_put(fl);
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *bo_log_stats_json(const struct bo_log *log, const struct bo_log_stats *s,
				      uint64_t first, uint64_t last)
{
	struct json_object *o = bo_json_new_doc();
	struct json_object *counts = json_object_new_object();
	struct json_object *marks = json_object_new_array();
	struct json_object *epochs = json_object_new_array();
	struct json_object *range = s->touched ? json_object_new_object() : NULL;
	bool ok = o && counts && marks && epochs && (range || !s->touched);

	if (!ok) {
		json_object_put(o);
		json_object_put(counts);
		json_object_put(marks);
		json_object_put(epochs);
		json_object_put(range);
		return NULL;
	}
	add(o, "log", json_object_new_string(bo_log_path(log)), &ok);
	add(o, "sectorsize", u64(bo_log_sectorsize(log)), &ok);
	add(o, "entries", u64(s->entries), &ok);
	add(o, "super_entries", u64(bo_log_super_entries(log)), &ok);
	add(o, "log_bytes", u64(bo_log_end_offset(log)), &ok);
	add(counts, "write", u64(s->writes), &ok);
	add(counts, "flush", u64(s->flush), &ok);
	add(counts, "fua", u64(s->fua), &ok);
	add(counts, "discard", u64(s->discard), &ok);
	add(counts, "mark", u64(s->mark), &ok);
	add(counts, "metadata", u64(s->metadata), &ok);
	add(o, "counts", counts, &ok);
	add(o, "bytes_written", u64(s->bytes_written), &ok);
	add(o, "bytes_discarded", u64(s->bytes_discarded), &ok);
	if (range) {
		add(range, "first", u64(s->sector_min), &ok);
		add(range, "end", u64(s->sector_end), &ok);
		add(o, "sectors", range, &ok);
	} else if (json_object_object_add(o, "sectors", NULL) < 0) {
		ok = false;
	}
	for (size_t i = 0; ok && i < bo_log_mark_count(log); i++) {
		const struct bo_log_mark *m = bo_log_mark_at(log, i);
		struct json_object *jm = json_object_new_object();

		add(jm, "entry", u64(m->entry), &ok);
		add(jm, "name", json_object_new_string(m->name), &ok);
		if (json_object_array_add(marks, jm) < 0) {
			json_object_put(jm);
			ok = false;
		}
	}
	add(o, "marks", marks, &ok);
	for (uint64_t i = 0; ok && i < s->n_epochs; i++) {
		const struct bo_epoch *ep = &s->epochs[i];
		struct json_object *je = json_object_new_object();

		add(je, "first", u64(ep->first), &ok);
		add(je, "last", u64(ep->last), &ok);
		add(je, "writes", u64(ep->writes), &ok);
		add(je, "bytes", u64(ep->bytes), &ok);
		add(je, "flushed", json_object_new_boolean(ep->flushed), &ok);
		if (json_object_array_add(epochs, je) < 0) {
			json_object_put(je);
			ok = false;
		}
	}
	add(o, "epochs", epochs, &ok);
	if (first <= last && first < s->entries) {
		struct json_object *list = json_object_new_array();

		if (last >= s->entries)
			last = s->entries - 1;
		for (uint64_t n = first; ok && list && n <= last; n++) {
			struct json_object *je = bo_log_entry_json(log, n);

			if (!je || json_object_array_add(list, je) < 0) {
				json_object_put(je);
				ok = false;
			}
		}
		add(o, "entry_list", list, &ok);
	}
	if (!ok) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
