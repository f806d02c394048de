// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/states/oracle.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/input.h"

int bo_opset_add(struct bo_opset *s, uint64_t id)
{
	size_t lo = 0, hi = s->n;

	/* Ids mostly arrive in order: appending is the common case. */
	if (s->n && s->v[s->n - 1] < id) {
		lo = s->n;
	} else {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (s->v[mid] < id)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < s->n && s->v[lo] == id)
			return 0;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		uint64_t *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	memmove(s->v + lo + 1, s->v + lo, (s->n - lo) * sizeof(*s->v));
	s->v[lo] = id;
	s->n++;
	return 1;
}

static ssize_t opset_index(const struct bo_opset *s, uint64_t id)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->v[lo] == id ? (ssize_t) lo : -1;
}

bool bo_opset_has(const struct bo_opset *s, uint64_t id)
{
	return opset_index(s, id) >= 0;
}

void bo_opset_clear(struct bo_opset *s)
{
	free(s->v);
	*s = (struct bo_opset){0};
}

const char *bo_opset_str(const struct bo_opset *s, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < s->n; i++) {
		int w = snprintf(buf + used, len - used, "%s%" PRIu64, i ? "," : "", s->v[i]);

		if (w < 0 || (size_t) w >= len - used) {
			if (len > 4)
				snprintf(buf + (used < len - 4 ? used : len - 4), 4, "...");
			break;
		}
		used += (size_t) w;
	}
	return buf;
}

static int cmp_op(const void *a, const void *b)
{
	const struct bo_op *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

const struct bo_op *bo_ops_find(const struct bo_ops *ops, uint64_t id)
{
	struct bo_op key = {.id = id};

	return ops->n ? bsearch(&key, ops->v, ops->n, sizeof(key), cmp_op) : NULL;
}

/* Parse "<id>" or "<id>:<digest>" after a mark's prefix. */
static int parse_op_mark(const char *s, uint64_t *ret_id, const char **ret_digest)
{
	char num[24];
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t) (colon - s) : strlen(s);

	if (n == 0 || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char) num[i]))
			return -EINVAL;
	if (bo_parse_u64(num, ret_id) < 0)
		return -EINVAL;
	*ret_digest = colon && colon[1] ? colon + 1 : NULL;
	return colon && !colon[1] ? -EINVAL : 0;
}

bool bo_fault_mark_drops_writes(const char *name)
{
	const char *what;

	if (strncmp(name, "fault:", 6) || !(what = strchr(name + 6, ':')))
		return false;
	for (what++; *what; what += strcspn(what, ","), what += !!*what)
		if (!strncmp(what, "drop_writes", 11) && (what[11] == ',' || !what[11]))
			return true;
	return false;
}

/*
 * A fresh filesystem's mark (recorder's fresh.c): `base`, then pairs `reset:L`, `fresh:L`.
 * reset: is reserved (docs/ctl.md), out of order it is an error; `base` and `fresh:` were free
 * names before, and a log without reset: marks (one made elsewhere) may hold them as its own:
 * they count only with a reset: mark to close or to follow.
 */
static int fresh_mark(struct bo_ops *ops, const struct bo_log_mark *m, struct bo_err *err)
{
	bool open = ops->n_fresh && ops->fresh[ops->n_fresh - 1].fresh == BO_NO_ENTRY;
	struct bo_fresh *v;

	if (!strcmp(m->name, "base")) {
		if (ops->base_entry == BO_NO_ENTRY)
			ops->base_entry = m->entry;
		return 0;
	}
	if (!strncmp(m->name, "fresh:", 6)) {
		if (open)
			ops->fresh[ops->n_fresh - 1].fresh = m->entry;
		return 0;
	}
	if (ops->base_entry == BO_NO_ENTRY || open) {
		_cleanup_free_ char *name = bo_sanitize(m->name, true);

		return bo_err_set(err, EBADMSG,
				  "entry %" PRIu64 ": mark '%s' out of order (a fresh filesystem's "
				  "marks are 'base', then 'reset:L' and 'fresh:L' in pairs)",
				  m->entry, name ? name : "?");
	}
	v = reallocarray(ops->fresh, ops->n_fresh + 1, sizeof(*v));
	if (!v)
		return bo_err_set(err, ENOMEM, "reading op marks");
	ops->fresh = v;
	v[ops->n_fresh++] = (struct bo_fresh){.reset = m->entry, .fresh = BO_NO_ENTRY};
	return 0;
}

int bo_ops_from_log(const struct bo_log *log, struct bo_ops *ret, struct bo_err *err)
{
	struct bo_ops ops = {.base_entry = BO_NO_ENTRY};
	size_t cap = 0;
	uint64_t last_issue = 0, last_ack = 0;
	bool any_issue = false, any_ack = false, power_off = false;
	int r = 0;

	for (size_t i = 0; i < bo_log_mark_count(log); i++) {
		const struct bo_log_mark *m = bo_log_mark_at(log, i);
		bool is_ack = !strncmp(m->name, "ack:", 4);
		const char *digest = NULL;
		struct bo_op *op = NULL;
		uint64_t id;

		if (!strncmp(m->name, "fault:", 6)) {
			power_off = bo_fault_mark_drops_writes(m->name);
			continue;
		}
		if (!strcmp(m->name, "base") || !strncmp(m->name, "reset:", 6) ||
		    !strncmp(m->name, "fresh:", 6)) {
			r = fresh_mark(&ops, m, err);
			if (r < 0)
				goto fail;
			continue;
		}
		if (!is_ack && strncmp(m->name, "issue:", 6))
			continue;
		if (parse_op_mark(m->name + (is_ack ? 4 : 6), &id, &digest) < 0 ||
		    (!is_ack && digest)) {
			/* The name is the log's: quoted in one line. */
			_cleanup_free_ char *name = bo_sanitize(m->name, true);

			r = bo_err_set(err, EBADMSG, "entry %" PRIu64 ": malformed op mark '%s'",
				       m->entry, name ? name : "?");
			goto fail;
		}
		if (is_ack ? (any_ack && id <= last_ack) : (any_issue && id <= last_issue)) {
			_cleanup_free_ char *name = bo_sanitize(m->name, true);

			r = bo_err_set(err, EBADMSG,
				       "entry %" PRIu64 ": mark '%s' repeats or goes back (last %s "
				       "was %" PRIu64 "): op ids must increase",
				       m->entry, name ? name : "?", is_ack ? "ack" : "issue",
				       is_ack ? last_ack : last_issue);
			goto fail;
		}
		if (is_ack) {
			any_ack = true;
			last_ack = id;
			ops.n_acks++;
		} else {
			any_issue = true;
			last_issue = id;
		}
		/* ops.v stays sorted by id; ids mostly arrive in order, so the new one goes last
		 * and the one an ack closes is found by bisection, never by a scan. */
		size_t lo = 0, hi = ops.n;

		if (ops.n && ops.v[ops.n - 1].id < id)
			lo = ops.n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (ops.v[mid].id < id)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < ops.n && ops.v[lo].id == id)
			op = &ops.v[lo];
		if (!op) {
			if (ops.n == cap) {
				size_t c = cap ? cap * 2 : 64;
				struct bo_op *v = realloc(ops.v, c * sizeof(*v));

				if (!v) {
					r = bo_err_set(err, ENOMEM, "reading op marks");
					goto fail;
				}
				ops.v = v;
				cap = c;
			}
			memmove(ops.v + lo + 1, ops.v + lo, (ops.n - lo) * sizeof(*ops.v));
			ops.n++;
			op = &ops.v[lo];
			*op = (struct bo_op){.id = id,
					     .issue_entry = BO_NO_ENTRY,
					     .ack_entry = BO_NO_ENTRY,
					     .powercut_ack_entry = BO_NO_ENTRY};
		}
		if (is_ack && power_off) {
			op->powercut_ack_entry = m->entry;
			ops.n_powercut_acks++;
		} else if (is_ack) {
			op->ack_entry = m->entry;
			if (digest && !(op->digest = strdup(digest))) {
				r = bo_err_set(err, ENOMEM, "reading op marks");
				goto fail;
			}
		} else {
			op->issue_entry = m->entry;
		}
	}
	*ret = ops;
	return 0;
fail:
	bo_ops_clear(&ops);
	return r;
}

void bo_ops_clear(struct bo_ops *ops)
{
	for (size_t i = 0; i < ops->n; i++)
		free(ops->v[i].digest);
	free(ops->v);
	free(ops->fresh);
	*ops = (struct bo_ops){0};
}

/* The number of fresh filesystems whose mark @which (reset: or fresh:) lies before @cut. */
static size_t fresh_before(const struct bo_ops *ops, uint64_t cut, bool fresh)
{
	size_t lo = 0, hi = ops->n_fresh;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((fresh ? ops->fresh[mid].fresh : ops->fresh[mid].reset) < cut)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct bo_fresh *bo_ops_fresh_at(const struct bo_ops *ops, uint64_t cut)
{
	size_t n = fresh_before(ops, cut, true);

	return n ? &ops->fresh[n - 1] : NULL;
}

bool bo_ops_resetting(const struct bo_ops *ops, uint64_t cut)
{
	size_t n = fresh_before(ops, cut, false);
	const struct bo_fresh *f = n ? &ops->fresh[n - 1] : NULL;

	/* Past the reset mark and its first write, the fresh: mark not yet applied. */
	return f && cut > f->reset + 1 && (f->fresh == BO_NO_ENTRY || cut <= f->fresh);
}

/* The ops that count for the state after @cut entries: issued before it, on its filesystem
 * (the base's, or those since the last fresh: mark before it). */
struct window {
	uint64_t cut, from, base;
};

static struct window window_of(const struct bo_ops *ops, uint64_t cut)
{
	const struct bo_fresh *f = bo_ops_fresh_at(ops, cut);

	return (struct window){.cut = cut, .from = f ? f->fresh : 0, .base = ops->base_entry};
}

/* An op counts as issued before the cut if its issue mark, or failing that its ack mark (a
 * workload that only acknowledges), lies before it. */
static bool issued_before(const struct bo_op *op, const struct window *w)
{
	uint64_t e = op->issue_entry != BO_NO_ENTRY ? op->issue_entry : op->ack_entry;

	return e != BO_NO_ENTRY && e < w->cut && (e >= w->from || e < w->base);
}

static bool acked_before(const struct bo_op *op, const struct window *w)
{
	return op->ack_entry != BO_NO_ENTRY && op->ack_entry < w->cut && issued_before(op, w);
}

int bo_ops_check_acked(const struct bo_ops *ops, const uint64_t *acked, size_t n,
		       struct bo_err *err)
{
	for (size_t i = 0; i < n; i++) {
		const struct bo_op *op = bo_ops_find(ops, acked[i]);

		if (!op || (op->ack_entry == BO_NO_ENTRY && op->powercut_ack_entry == BO_NO_ENTRY))
			return bo_err_set(err, EBADMSG,
					  "the workload acknowledged op %" PRIu64
					  " but the log has "
					  "no 'ack:%" PRIu64 "' mark (%zu acks reported, %" PRIu64
					  " in the log)",
					  acked[i], acked[i], n, ops->n_acks);
	}
	return 0;
}

int bo_ops_write_before(const struct bo_ops *ops, uint64_t cut, bool acked, int fd)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct window w = window_of(ops, cut);
	int r;

	if (!f)
		return -errno;
	for (size_t i = 0; i < ops->n; i++)
		if (acked ? acked_before(&ops->v[i], &w) : issued_before(&ops->v[i], &w))
			fprintf(f, "%" PRIu64 "\n", ops->v[i].id);
	if (fclose(f) != 0)
		return -ENOMEM;
	r = bo_pwrite_full(fd, buf ? buf : "", len, 0);
	if (r < 0)
		return r;
	return ftruncate(fd, (off_t) len) < 0 ? -errno : 0;
}

/*
 * Add @id to @set with @val (may be NULL) at its place in @vals, the array kept parallel to the
 * sorted ids, @cap the slots it has. 1 when added, 0 when @id was there already, -ENOMEM.
 */
static int add_keyed(struct bo_opset *set, char ***vals, size_t *cap, uint64_t id, const char *val)
{
	ssize_t at;
	int r = bo_opset_add(set, id);

	if (r <= 0)
		return r;
	if (set->n > *cap) {
		size_t c = set->cap;
		char **d = realloc(*vals, c * sizeof(*d));

		if (!d)
			return -ENOMEM;
		memset(d + *cap, 0, (c - *cap) * sizeof(*d));
		*vals = d;
		*cap = c;
	}
	at = opset_index(set, id);
	memmove(*vals + at + 1, *vals + at, (set->n - 1 - (size_t) at) * sizeof(**vals));
	(*vals)[at] = val ? strdup(val) : NULL;
	return val && !(*vals)[at] ? -ENOMEM : 1;
}

/* Parse one line of checker output; the cursors are the slots of the parallel arrays. */
static int parse_line(struct bo_checker_report *rep, const char *line, size_t len, size_t *cap,
		      size_t *why_cap)
{
	char buf[512], *id_s, *rest, *save = NULL;
	bool absent;
	uint64_t id;
	int r;

	if (len >= sizeof(buf)) {
		snprintf(rep->problem, sizeof(rep->problem), "line of %zu bytes is too long", len);
		return 0;
	}
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (rep->done) {
		snprintf(rep->problem, sizeof(rep->problem),
			 "output continues after 'done': '%.64s'", buf);
		rep->done = false;
		return 0;
	}
	if (strspn(buf, " \t\r") == len || buf[0] == '#')
		return 1;
	if (!strcmp(buf, "done")) {
		rep->done = true;
		return 1;
	}
	absent = !strncmp(buf, "absent ", 7);
	if (!absent && strncmp(buf, "present ", 8)) {
		snprintf(rep->problem, sizeof(rep->problem), "unexpected line '%.64s'", buf);
		return 0;
	}
	id_s = strtok_r(buf + (absent ? 7 : 8), " \t", &save);
	/* present ID [DIGEST]; absent ID [WHY...], the reason the rest of the line. */
	rest = absent ? save + strspn(save, " \t") : strtok_r(NULL, " \t", &save);
	if (!id_s || bo_parse_u64(id_s, &id) < 0 || (!absent && strtok_r(NULL, " \t", &save))) {
		snprintf(rep->problem, sizeof(rep->problem), "malformed line '%.64s'", line);
		return 0;
	}
	if (rest) {
		rest[strcspn(rest, "\r")] = '\0';
		if (!*rest)
			rest = NULL;
	}
	if (absent ? bo_opset_has(&rep->present, id) : bo_opset_has(&rep->absent, id)) {
		snprintf(rep->problem, sizeof(rep->problem),
			 "op %" PRIu64 " reported both present and absent", id);
		return 0;
	}
	r = absent ? add_keyed(&rep->absent, &rep->why, why_cap, id, rest)
		   : add_keyed(&rep->present, &rep->digests, cap, id, rest);
	if (r == 0)
		snprintf(rep->problem, sizeof(rep->problem), "op %" PRIu64 " reported twice", id);
	return r;
}

int bo_checker_parse(const char *out, size_t len, struct bo_checker_report *ret)
{
	struct bo_checker_report rep = {0};
	size_t cap = 0, why_cap = 0, pos = 0;

	while (pos < len) {
		const char *nl = memchr(out + pos, '\n', len - pos);
		size_t n = nl ? (size_t) (nl - (out + pos)) : len - pos;
		int r;

		if (memchr(out + pos, '\0', n)) {
			snprintf(rep.problem, sizeof(rep.problem), "output holds a NUL byte");
			rep.done = false;
			break;
		}
		r = parse_line(&rep, out + pos, n, &cap, &why_cap);
		if (r < 0) {
			bo_checker_report_clear(&rep);
			return r;
		}
		if (r == 0) {
			rep.done = false;
			break;
		}
		pos += n + 1;
	}
	if (!rep.done && !rep.problem[0])
		snprintf(rep.problem, sizeof(rep.problem), "%s",
			 len ? "output ends without a final line 'done'" : "no output at all");
	*ret = rep;
	return 0;
}

void bo_checker_report_clear(struct bo_checker_report *rep)
{
	for (size_t i = 0; rep->digests && i < rep->present.n; i++)
		free(rep->digests[i]);
	free(rep->digests);
	for (size_t i = 0; rep->why && i < rep->absent.n; i++)
		free(rep->why[i]);
	free(rep->why);
	bo_opset_clear(&rep->present);
	bo_opset_clear(&rep->absent);
	*rep = (struct bo_checker_report){0};
}

const char *bo_checker_why(const struct bo_checker_report *rep, uint64_t id)
{
	ssize_t at = opset_index(&rep->absent, id);

	return at >= 0 && rep->why ? rep->why[at] : NULL;
}

int bo_oracle_judge(const struct bo_ops *ops, uint64_t cut, const struct bo_checker_report *rep,
		    bool ordered, struct bo_verdict *ret)
{
	struct bo_verdict v = {0};
	uint64_t first_missing_issue = BO_NO_ENTRY;
	struct window w = window_of(ops, cut);
	int r = 0;

	for (size_t i = 0; i < ops->n && r >= 0; i++) {
		const struct bo_op *op = &ops->v[i];
		ssize_t at = opset_index(&rep->present, op->id);

		if (acked_before(op, &w)) {
			if (at < 0)
				r = bo_opset_add(&v.lost, op->id);
			else if (op->digest && rep->digests && rep->digests[at] &&
				 strcmp(op->digest, rep->digests[at]))
				r = bo_opset_add(&v.wrong, op->id);
		}
		if (at < 0 && issued_before(op, &w) && op->issue_entry < first_missing_issue)
			first_missing_issue = op->issue_entry;
	}
	for (size_t i = 0; i < rep->present.n && r >= 0; i++) {
		const struct bo_op *op = bo_ops_find(ops, rep->present.v[i]);

		if (!op || !issued_before(op, &w))
			r = bo_opset_add(&v.phantom, rep->present.v[i]);
	}
	/* Ordered: every op issued before a present one is present. The ops missing "behind" a
	 * present op are the violations. */
	if (ordered && first_missing_issue != BO_NO_ENTRY) {
		uint64_t last_present_issue = 0;
		bool any = false;

		for (size_t i = 0; i < rep->present.n; i++) {
			const struct bo_op *op = bo_ops_find(ops, rep->present.v[i]);

			if (op && issued_before(op, &w) && op->issue_entry != BO_NO_ENTRY &&
			    (!any || op->issue_entry > last_present_issue)) {
				last_present_issue = op->issue_entry;
				any = true;
			}
		}
		for (size_t i = 0; any && i < ops->n && r >= 0; i++) {
			const struct bo_op *op = &ops->v[i];

			if (issued_before(op, &w) && op->issue_entry < last_present_issue &&
			    !bo_opset_has(&rep->present, op->id))
				r = bo_opset_add(&v.unordered, op->id);
		}
	}
	if (r < 0) {
		bo_verdict_clear(&v);
		return r;
	}
	*ret = v;
	return 0;
}

void bo_verdict_clear(struct bo_verdict *v)
{
	bo_opset_clear(&v->lost);
	bo_opset_clear(&v->wrong);
	bo_opset_clear(&v->phantom);
	bo_opset_clear(&v->unordered);
}
