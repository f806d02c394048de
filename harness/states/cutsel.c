// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/states/cutsel.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"

enum kind { K_FLUSH, K_FUA, K_MARK, K_ACK, K_EVERY, K_ALL, K_RANGE, K_FLUSH_N, K_END };

struct term {
	enum kind kind;
	uint64_t a, b; /* every:N, flush/N -> a = N; entry:A-B -> [a, b] */
};

/* A number of policy term @term past 2^64-1: said as such, not as a syntax error. */
static int out_of_range(const char *term, struct bo_err *err)
{
	return bo_err_set(err, ERANGE, "cut policy '%s': a number out of range (past 2^64-1)",
			  term);
}

static int parse_term(const char *s, size_t len, struct term *t, struct bo_err *err)
{
	char buf[64];
	int r;

	if (len == 0 || len >= sizeof(buf))
		return bo_err_set(err, EINVAL, "cut policy term '%.*s' is empty or too long",
				  (int) len, s);
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!strcmp(buf, "flush"))
		t->kind = K_FLUSH;
	else if (!strcmp(buf, "fua"))
		t->kind = K_FUA;
	else if (!strcmp(buf, "mark"))
		t->kind = K_MARK;
	else if (!strcmp(buf, "ack"))
		t->kind = K_ACK;
	else if (!strcmp(buf, "all"))
		t->kind = K_ALL;
	else if (!strcmp(buf, "end"))
		t->kind = K_END;
	else if (!strncmp(buf, "flush/", 6)) {
		t->kind = K_FLUSH_N;
		r = bo_parse_u64(buf + 6, &t->a);
		if (r == -ERANGE)
			return out_of_range(buf, err);
		if (r < 0 || t->a == 0)
			return bo_err_set(err, EINVAL,
					  "cut policy '%s': N must be a whole number >= 1", buf);
	} else if (!strncmp(buf, "every:", 6)) {
		t->kind = K_EVERY;
		r = bo_parse_u64(buf + 6, &t->a);
		if (r == -ERANGE)
			return out_of_range(buf, err);
		if (r < 0 || t->a == 0)
			return bo_err_set(err, EINVAL,
					  "cut policy '%s': N must be a whole number >= 1", buf);
	} else if (!strncmp(buf, "entry:", 6)) {
		t->kind = K_RANGE;
		r = bo_parse_range(buf + 6, &t->a, &t->b);
		if (r == -ERANGE)
			return out_of_range(buf, err);
		if (r < 0)
			return bo_err_set(err, EINVAL, "cut policy '%s': expected entry:A-B", buf);
	} else {
		return bo_err_set(
			err, EINVAL,
			"unknown cut policy '%s' (flush, flush/N, fua, mark, ack, every:N, "
			"all, entry:A-B, end)",
			buf);
	}
	return 0;
}

/* Call @fn for each comma-separated term of @policy. */
static int each_term(const char *policy, int (*fn)(const struct term *, void *), void *ctx,
		     struct bo_err *err)
{
	const char *p = policy;

	if (!policy || !*policy)
		return bo_err_set(err, EINVAL, "empty cut policy");
	for (;;) {
		size_t len = strcspn(p, ",");
		struct term t = {0};
		int r = parse_term(p, len, &t, err);

		if (r < 0)
			return r;
		if (fn) {
			r = fn(&t, ctx);
			if (r < 0)
				return bo_err_set(err, -r, "selecting cuts");
		}
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int bo_cutsel_validate(const char *policy, struct bo_err *err)
{
	return each_term(policy, NULL, NULL, err);
}

/* The first entry:A-B term naming an entry past the log's end, for bo_cutsel_judge(). */
struct range_judge {
	uint64_t count;
	bool past;
	uint64_t a, b;
};

static int range_term(const struct term *t, void *ctx)
{
	struct range_judge *j = ctx;

	if (t->kind == K_RANGE && !j->past &&
	    (t->a >= j->count || (t->b != UINT64_MAX && t->b >= j->count))) {
		j->past = true;
		j->a = t->a;
		j->b = t->b;
	}
	return 0;
}

int bo_cutsel_judge(const struct bo_log *log, const char *policy, struct bo_err *err)
{
	struct range_judge j = {.count = bo_log_count(log)};
	char b[32] = "";
	int r = each_term(policy, range_term, &j, err);

	if (r < 0 || !j.past)
		return r;
	if (j.b != UINT64_MAX)
		snprintf(b, sizeof(b), "%" PRIu64, j.b);
	return bo_err_set(err, ERANGE,
			  "entry:%" PRIu64
			  "-%s names entries past the end of '%s', which has %" PRIu64
			  " (0 to %" PRIu64 ")",
			  j.a, b, bo_log_path(log), j.count, j.count ? j.count - 1 : 0);
}

struct sel {
	const struct bo_log *log;
	uint8_t *chosen; /* chosen[k]: cut after k entries */
};

/*
 * flush/N: N of the F flush cuts, evenly spread: the k-th (k = 1..N) is flush number
 * ceil(k * F / N), so the last flush is always one. All of them when F <= N.
 */
static void mark_flush_n(struct sel *s, uint64_t want)
{
	uint64_t count = bo_log_count(s->log), total = 0, seen = 0, k = 1;

	for (uint64_t n = 0; n < count; n++)
		total += !!(bo_log_entry(s->log, n)->flags & BO_LOG_FLUSH);
	for (uint64_t n = 0; n < count && k <= want; n++) {
		if (!(bo_log_entry(s->log, n)->flags & BO_LOG_FLUSH))
			continue;
		seen++;
		/* seen >= ceil(k * total / want), without overflow for any sane log */
		if (total <= want || seen * want >= k * total) {
			s->chosen[n + 1] = 1;
			k++;
		}
	}
}

static int mark_term(const struct term *t, void *ctx)
{
	struct sel *s = ctx;
	uint64_t count = bo_log_count(s->log);

	if (t->kind == K_FLUSH_N) {
		mark_flush_n(s, t->a);
		return 0;
	}
	if (t->kind == K_END)
		return 0; /* the end is always a cut */

	for (uint64_t n = 0; n < count; n++) {
		uint32_t f = bo_log_entry(s->log, n)->flags;
		bool pick;

		switch (t->kind) {
		case K_FLUSH:
			pick = f & BO_LOG_FLUSH;
			break;
		case K_FUA:
			pick = f & BO_LOG_FUA;
			break;
		case K_MARK:
			pick = f & BO_LOG_MARK;
			break;
		case K_ACK:
			pick = (f & BO_LOG_MARK) &&
			       !strncmp(bo_log_mark_name(s->log, n), "ack:", 4);
			break;
		case K_EVERY:
			pick = (n + 1) % t->a == 0;
			break;
		case K_ALL:
			pick = true;
			break;
		case K_RANGE:
			pick = n >= t->a && n <= t->b;
			break;
		default:
			return -EINVAL;
		}
		if (pick)
			s->chosen[n + 1] = 1;
	}
	return 0;
}

int bo_cutsel_select(const struct bo_log *log, const char *policy, uint64_t first,
		     struct bo_cuts *ret, struct bo_err *err)
{
	uint64_t count = bo_log_count(log), n = 0;
	_cleanup_free_ uint8_t *chosen = calloc(count + 1, 1);
	struct sel s = {.log = log, .chosen = chosen};
	struct bo_cuts cuts = {0};
	int r;

	if (!chosen)
		return bo_err_set(err, ENOMEM, "selecting cuts");
	r = each_term(policy, mark_term, &s, err);
	if (r < 0)
		return r;
	if (count > 0 && first <= count)
		chosen[count] = 1;
	for (uint64_t k = first; k <= count; k++)
		n += chosen[k];
	cuts.v = malloc((n ? n : 1) * sizeof(*cuts.v));
	if (!cuts.v)
		return bo_err_set(err, ENOMEM, "selecting cuts");
	for (uint64_t k = first; k <= count; k++)
		if (chosen[k])
			cuts.v[cuts.n++] = k;
	*ret = cuts;
	return 0;
}

void bo_cuts_clear(struct bo_cuts *cuts)
{
	free(cuts->v);
	cuts->v = NULL;
	cuts->n = 0;
}
