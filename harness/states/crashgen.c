// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/states/crashgen.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/base/rand.h"

/*
 * Subset counts and ranks are 128-bit: C(n, 8) passes 2^64 for an epoch of a few thousand
 * droppable entries, and sampling needs the exact count to draw ranks uniformly.
 */
#define U128_MAX (~(unsigned __int128) 0)

/* Keep the per-cut and per-entry random streams apart (odd 64-bit constants). */
#define CUT_STREAM   0x9e3779b97f4a7c15ULL
#define ENTRY_STREAM 0xd1b54a32d192ed03ULL

enum phase { PH_CUT, PH_PREFIX, PH_ALL, PH_SAMPLED, PH_TORN };

struct bo_crashgen {
	const struct bo_log *log;
	const struct bo_cuts *cuts;
	struct bo_crashgen_opts o;
	uint64_t count;

	size_t ci;	      /* current cut, index into cuts->v */
	uint64_t scanned;     /* entries folded into the epoch so far */
	uint64_t epoch_start; /* first entry of the current epoch */
	uint64_t flushed[2];  /* the entries after the last and the second last FLUSH of any
			       * device, or 0 */
	uint64_t *drop;	      /* droppable entries of [epoch_start, scanned) */
	uint8_t *aged;	      /* for each, the FLUSHes of its device since (lost-flush) */
	size_t n_drop, cap_drop;

	enum phase phase;
	unsigned kmax;			/* largest dropped set at this cut */
	unsigned k;			/* PH_ALL: size of the current set */
	size_t comb[BO_CRASH_MAX_DROP]; /* PH_ALL: indices into drop, ascending */
	unsigned __int128 *ranks;	/* PH_SAMPLED: sampled ranks, ascending */
	size_t n_ranks, rank_pos, cap_ranks;
	size_t torn_pos; /* PH_TORN: next index into drop to look at */
};

static enum bo_persona persona(const struct bo_crashgen_opts *o)
{
	return o ? o->persona : BO_PERSONA_HONEST;
}

/* How many FLUSHes of its device make an entry durable; 0: none ever does. */
static unsigned depth(const struct bo_crashgen_opts *o)
{
	return bo_persona_flush_depth(persona(o));
}

/* The entries before this one are durable whatever comes after them. */
static uint64_t floor_of(const struct bo_crashgen_opts *o)
{
	return depth(o) == 0 ? o->floor : 0;
}

bool bo_crash_droppable(const struct bo_crashgen_opts *o, const struct bo_log_entry *e)
{
	return bo_persona_droppable(persona(o), e);
}

/* The tear points of entry @e under the persona of @o: persona.h. */
static uint64_t tear_point(const struct bo_log *log, const struct bo_crashgen_opts *o,
			   const struct bo_log_entry *e, uint64_t i, uint64_t *ret_keep,
			   bool *ret_bytes)
{
	return bo_persona_tear_point(persona(o), bo_log_sectorsize(log), e, i, ret_keep, ret_bytes);
}

static uint64_t tear_points(const struct bo_log *log, const struct bo_crashgen_opts *o,
			    const struct bo_log_entry *e)
{
	uint64_t keep;
	bool bytes;

	return tear_point(log, o, e, 0, &keep, &bytes);
}

uint64_t bo_crash_torn_bytes(const struct bo_log *log, const struct bo_crash_state *s)
{
	return s->torn_bytes ? s->torn_keep : s->torn_keep * bo_log_sectorsize(log);
}

/*
 * The epochs of a log of several devices (layout.h) are each device's own: a FLUSH makes the
 * writes before it durable on the device it went to, not on the others. An entry's bucket is
 * its device; entries of a one-device log, and those outside every device, share bucket 0 of
 * a one-device log or bucket n of several. A FLUSH of no device closes every bucket's epoch.
 */
#define N_BUCKETS (BO_LAYOUT_MAX + 1)

static unsigned bucket(const struct bo_log *log, const struct bo_log_entry *e)
{
	const struct bo_layout *l = bo_log_layout(log);
	int d = bo_layout_device(l, bo_log_sectorsize(log), e->sector);

	return l->n < 2 ? 0 : d < 0 ? l->n : (unsigned) d;
}

/* The buckets FLUSH entry @e closes: one device's, or all. */
static bool closes(const struct bo_log *log, const struct bo_log_entry *flush, unsigned b)
{
	const struct bo_layout *l = bo_log_layout(log);
	int d = bo_layout_device(l, bo_log_sectorsize(log), flush->sector);

	return l->n < 2 || d < 0 || (unsigned) d == b;
}

/* The number of buckets of @log. */
static unsigned n_buckets(const struct bo_log *log)
{
	const struct bo_layout *l = bo_log_layout(log);

	return l->n < 2 ? 1 : l->n + 1;
}

uint64_t bo_crash_epoch_start(const struct bo_log *log, const struct bo_crashgen_opts *o,
			      uint64_t cut)
{
	const unsigned d = depth(o), nb = n_buckets(log);
	const uint64_t n = bo_log_count(log), top = cut < n ? cut : n, bottom = floor_of(o);
	uint64_t first_drop = UINT64_MAX, close = d ? 0 : bottom < top ? bottom : top;
	unsigned open = nb, flushes = 0, seen[N_BUCKETS] = {0};

	/* Back from the cut until every bucket met its d-th FLUSH: the first entry still
	 * droppable, or the entry after the d-th last FLUSH, whichever comes first (on one
	 * device: the latter). Its own FLUSH does not cover a FLUSH-flagged entry's data. */
	for (uint64_t e = top; e > bottom && open > 0; e--) {
		const struct bo_log_entry *le = bo_log_entry(log, e - 1);

		if (bo_crash_droppable(o, le) && (!d || seen[bucket(log, le)] < d))
			first_drop = e - 1;
		if (!d || !(le->flags & BO_LOG_FLUSH))
			continue;
		if (++flushes == d)
			close = e;
		for (unsigned b = 0; b < nb; b++)
			if (seen[b] < d && closes(log, le, b) && ++seen[b] == d)
				open--;
	}
	return first_drop < close ? first_drop : close;
}

/* C(n, k), or U128_MAX when it does not fit. */
static unsigned __int128 binom(uint64_t n, unsigned k)
{
	unsigned __int128 c = 1;

	if (k > n)
		return 0;
	for (unsigned i = 0; i < k; i++) {
		/* C(n, i + 1) = C(n, i) * (n - i) / (i + 1), exact at every step. */
		if (c > U128_MAX / (n - i))
			return U128_MAX;
		c = c * (n - i) / (i + 1);
	}
	return c;
}

/* The number of non-empty subsets of at most @k of @n entries, or U128_MAX. */
static unsigned __int128 subsets(uint64_t n, unsigned k)
{
	unsigned __int128 sum = 0;

	for (unsigned i = 1; i <= k && i <= n; i++) {
		unsigned __int128 c = binom(n, i);

		if (c == U128_MAX || sum > U128_MAX - 1 - c)
			return U128_MAX;
		sum += c;
	}
	return sum;
}

/* A uniform number in [0, @bound), @bound >= 1: reject the 2^128 mod bound lowest draws. */
static unsigned __int128 uniform(uint64_t *st, unsigned __int128 bound)
{
	unsigned __int128 skip = (0 - bound) % bound;

	for (;;) {
		unsigned __int128 x = (unsigned __int128) bo_rand_next(st) << 64 | bo_rand_next(st);

		if (x >= skip)
			return x % bound;
	}
}

/* The tear point of entry @e (@n of them) a torn state takes: seeded, per entry. */
static uint64_t torn_pick(uint64_t seed, uint64_t e, uint64_t n)
{
	uint64_t st = seed ^ (e * ENTRY_STREAM);

	return (uint64_t) uniform(&st, n);
}

/* States of one cut whose epoch has @n droppable entries, @nm of them multi-block. */
static int cut_states(const struct bo_crashgen_opts *o, uint64_t n, uint64_t nm, uint64_t *ret)
{
	unsigned __int128 m = subsets(n, o->reorder_k);

	if (m == U128_MAX)
		return -EOVERFLOW;
	if (o->budget && m > o->budget)
		m = o->budget;
	if (!o->torn)
		nm = 0;
	if (m > UINT64_MAX - 1 - nm)
		return -EOVERFLOW;
	*ret = 1 + (uint64_t) m + nm;
	return 0;
}

static int advance_to(struct bo_crashgen *g, uint64_t cut);

/* Walk the cuts once, as bo_crashgen_next() will, and count their states; then rewind. */
static int count_states(struct bo_crashgen *g, struct bo_err *err)
{
	uint64_t total = 0;

	for (size_t i = 0; i < g->cuts->n; i++) {
		uint64_t cut = g->cuts->v[i], c, tearable = 0;

		if (advance_to(g, cut) < 0)
			return bo_err_set(err, ENOMEM, "crash states of '%s'", bo_log_path(g->log));
		for (size_t j = 0; g->o.torn && j < g->n_drop; j++)
			tearable +=
				tear_points(g->log, &g->o, bo_log_entry(g->log, g->drop[j])) > 0;
		if (cut_states(&g->o, g->n_drop, tearable, &c) < 0 || c > UINT64_MAX - total)
			return bo_err_set(
				err, EOVERFLOW,
				"crash states of '%s': cut after %" PRIu64 " entries has %zu"
				" droppable entries, too many subsets of up to %u to count;"
				" set a budget or a smaller K",
				bo_log_path(g->log), cut, g->n_drop, g->o.reorder_k);
		total += c;
	}
	g->count = total;
	g->scanned = g->epoch_start = 0;
	g->flushed[0] = g->flushed[1] = 0;
	g->n_drop = 0;
	return 0;
}

int bo_crashgen_new(const struct bo_log *log, const struct bo_cuts *cuts,
		    const struct bo_crashgen_opts *o, struct bo_crashgen **ret, struct bo_err *err)
{
	struct bo_crashgen *g;
	int r;

	if (o->reorder_k > BO_CRASH_MAX_DROP)
		return bo_err_set(err, EINVAL, "reorder:%u: at most %d dropped entries per state",
				  o->reorder_k, BO_CRASH_MAX_DROP);
	for (size_t i = 0; i < cuts->n; i++) {
		if (cuts->v[i] > bo_log_count(log) || (i > 0 && cuts->v[i] <= cuts->v[i - 1]))
			return bo_err_set(err, EINVAL,
					  "crash states of '%s': cut %zu (%" PRIu64
					  " entries) is past the log or out of order",
					  bo_log_path(log), i, cuts->v[i]);
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return bo_err_set(err, ENOMEM, "crash state generator");
	g->log = log;
	g->cuts = cuts;
	g->o = *o;
	g->phase = PH_CUT;
	r = count_states(g, err);
	if (r < 0) {
		bo_crashgen_free(g);
		return r;
	}
	*ret = g;
	return 0;
}

void bo_crashgen_free(struct bo_crashgen *g)
{
	if (!g)
		return;
	free(g->drop);
	free(g->aged);
	free(g->ranks);
	free(g);
}

uint64_t bo_crashgen_count(const struct bo_crashgen *g)
{
	return g->count;
}

/* Fold the entries up to @cut into the current epoch. */
static int advance_to(struct bo_crashgen *g, uint64_t cut)
{
	const unsigned d = depth(&g->o);
	const uint64_t bottom = floor_of(&g->o);

	for (; g->scanned < cut; g->scanned++) {
		const struct bo_log_entry *e = bo_log_entry(g->log, g->scanned);

		if (d && (e->flags & BO_LOG_FLUSH)) {
			size_t k = 0;

			g->flushed[1] = g->flushed[0];
			g->flushed[0] = g->scanned + 1;
			/* What stays droppable: the other devices' entries, and under lost-flush
			 * those that met only one FLUSH of their own. */
			for (size_t i = 0; i < g->n_drop; i++) {
				const struct bo_log_entry *de = bo_log_entry(g->log, g->drop[i]);

				if (closes(g->log, e, bucket(g->log, de)) && ++g->aged[i] >= d)
					continue;
				g->aged[k] = g->aged[i];
				g->drop[k++] = g->drop[i];
			}
			g->n_drop = k;
		}
		if (g->scanned >= bottom && bo_crash_droppable(&g->o, e)) {
			if (g->n_drop == g->cap_drop) {
				size_t cap = g->cap_drop ? 2 * g->cap_drop : 64;
				uint64_t *v = realloc(g->drop, cap * sizeof(*v));
				uint8_t *a;

				if (!v)
					return -ENOMEM;
				g->drop = v;
				a = realloc(g->aged, cap * sizeof(*a));
				if (!a)
					return -ENOMEM;
				g->aged = a;
				g->cap_drop = cap;
			}
			g->aged[g->n_drop] = 0;
			g->drop[g->n_drop++] = g->scanned;
		}
	}
	/* As bo_crash_epoch_start() has it. */
	{
		uint64_t close = d ? g->flushed[d - 1] : bottom < cut ? bottom : cut;

		g->epoch_start = g->n_drop && g->drop[0] < close ? g->drop[0] : close;
	}
	return 0;
}

static int rank_cmp(const void *a, const void *b)
{
	unsigned __int128 x = *(const unsigned __int128 *) a, y = *(const unsigned __int128 *) b;

	return x < y ? -1 : x > y;
}

/*
 * Insert @t into the open-addressing set @slots (@mask + 1 of them, each 0 or 1 + an index into
 * @ranks) unless it is there; true when inserted.
 */
static bool rank_insert(size_t *slots, size_t mask, unsigned __int128 *ranks, size_t *n,
			unsigned __int128 t)
{
	uint64_t h = ((uint64_t) t ^ (uint64_t) (t >> 64)) * CUT_STREAM;

	for (size_t i = (size_t) (h >> 32) & mask;; i = (i + 1) & mask) {
		if (!slots[i]) {
			ranks[*n] = t;
			slots[i] = ++*n;
			return true;
		}
		if (ranks[slots[i] - 1] == t)
			return false;
	}
}

/*
 * Draw @b distinct ranks of [0, @m) into g->ranks, ascending: Floyd's algorithm (exactly @b
 * draws, a uniform @b-subset) with a hash set, then a sort. The stream depends on the seed and
 * the cut only, so a state's presence does not depend on which other cuts were selected.
 */
static int sample_ranks(struct bo_crashgen *g, unsigned __int128 m, size_t b, uint64_t cut)
{
	uint64_t st = g->o.seed ^ (cut * CUT_STREAM);
	_cleanup_free_ size_t *slots = NULL;
	size_t nslots = 16;

	while (nslots < 2 * b)
		nslots *= 2;
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	if (b > g->cap_ranks) {
		unsigned __int128 *v = realloc(g->ranks, b * sizeof(*v));

		if (!v)
			return -ENOMEM;
		g->ranks = v;
		g->cap_ranks = b;
	}
	g->n_ranks = 0;
	for (unsigned __int128 j = m - b; j < m; j++) {
		unsigned __int128 t = uniform(&st, j + 1);

		if (!rank_insert(slots, nslots - 1, g->ranks, &g->n_ranks, t))
			rank_insert(slots, nslots - 1, g->ranks, &g->n_ranks, j);
	}
	qsort(g->ranks, g->n_ranks, sizeof(*g->ranks), rank_cmp);
	g->rank_pos = 0;
	return 0;
}

/*
 * The subset of rank @r in the order by size, then lexicographically, among the non-empty
 * subsets of at most g->kmax of g->n_drop entries; writes its indices into @comb.
 */
static unsigned unrank(const struct bo_crashgen *g, unsigned __int128 r, size_t *comb)
{
	uint64_t n = g->n_drop;
	unsigned k = 1;
	uint64_t lo = 0;

	for (; k < g->kmax && r >= binom(n, k); k++)
		r -= binom(n, k);
	for (unsigned i = 0; i < k; i++) {
		unsigned kk = k - i;
		unsigned __int128 total = binom(n - lo, kk);
		uint64_t a = lo, b = n - kk;

		/* Sets whose first index is at least x: C(n - x, kk); find the first index. */
		while (a < b) {
			uint64_t mid = a + (b - a + 1) / 2;

			if (total - binom(n - mid, kk) <= r)
				a = mid;
			else
				b = mid - 1;
		}
		r -= total - binom(n - a, kk);
		comb[i] = a;
		lo = a + 1;
	}
	return k;
}

/* Step @comb, @k indices into @n, to the next set in lexicographic order; false at the end. */
static bool comb_next(size_t *comb, unsigned k, size_t n)
{
	for (unsigned i = k; i-- > 0;) {
		if (comb[i] < n - k + i) {
			comb[i]++;
			for (unsigned j = i + 1; j < k; j++)
				comb[j] = comb[j - 1] + 1;
			return true;
		}
	}
	return false;
}

static void emit(const struct bo_crashgen *g, const size_t *comb, unsigned k,
		 struct bo_crash_state *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->cut = g->cuts->v[g->ci];
	ret->epoch_start = g->epoch_start;
	for (unsigned i = 0; i < k; i++)
		ret->dropped[i] = g->drop[comb[i]];
	ret->n_dropped = k;
}

/* After the prefix state: choose how the cut's dropped sets are produced. */
static int start_reorder(struct bo_crashgen *g)
{
	unsigned __int128 m;
	int r;

	g->kmax = g->o.reorder_k < g->n_drop ? g->o.reorder_k : (unsigned) g->n_drop;
	g->torn_pos = 0;
	if (g->kmax == 0) {
		g->phase = PH_TORN;
		return 0;
	}
	/* count_states() made sure this fits. */
	m = subsets(g->n_drop, g->kmax);
	if (g->o.budget && m > g->o.budget) {
		r = sample_ranks(g, m, (size_t) g->o.budget, g->cuts->v[g->ci]);
		if (r < 0)
			return r;
		g->phase = PH_SAMPLED;
		return 0;
	}
	g->k = 1;
	g->comb[0] = 0;
	g->phase = PH_ALL;
	return 0;
}

int bo_crashgen_next(struct bo_crashgen *g, struct bo_crash_state *ret)
{
	size_t comb[BO_CRASH_MAX_DROP];
	int r;

	for (;;) {
		switch (g->phase) {
		case PH_CUT:
			if (g->ci == g->cuts->n)
				return 0;
			r = advance_to(g, g->cuts->v[g->ci]);
			if (r < 0)
				return r;
			g->phase = PH_PREFIX;
			break;
		case PH_PREFIX:
			r = start_reorder(g);
			if (r < 0)
				return r;
			emit(g, NULL, 0, ret);
			return 1;
		case PH_ALL:
			emit(g, g->comb, g->k, ret);
			if (!comb_next(g->comb, g->k, g->n_drop)) {
				if (++g->k > g->kmax) {
					g->phase = PH_TORN;
				} else {
					for (unsigned i = 0; i < g->k; i++)
						g->comb[i] = i;
				}
			}
			return 1;
		case PH_SAMPLED:
			if (g->rank_pos == g->n_ranks) {
				g->phase = PH_TORN;
				break;
			}
			emit(g, comb, unrank(g, g->ranks[g->rank_pos++], comb), ret);
			return 1;
		case PH_TORN:
			while (g->o.torn && g->torn_pos < g->n_drop) {
				uint64_t e = g->drop[g->torn_pos++];
				const struct bo_log_entry *le = bo_log_entry(g->log, e);
				uint64_t n = tear_points(g->log, &g->o, le);

				if (!n)
					continue;
				emit(g, NULL, 0, ret);
				ret->torn = true;
				ret->torn_entry = e;
				tear_point(g->log, &g->o, le, torn_pick(g->o.seed, e, n),
					   &ret->torn_keep, &ret->torn_bytes);
				return 1;
			}
			g->ci++;
			g->phase = PH_CUT;
			break;
		}
	}
}

void bo_crash_state_id(const struct bo_crash_state *s, char *buf, size_t len)
{
	size_t off;

	if (s->cut == 0)
		off = (size_t) snprintf(buf, len, "c-start");
	else
		off = (size_t) snprintf(buf, len, "c%" PRIu64, s->cut - 1);
	for (unsigned i = 0; i < s->n_dropped && off < len; i++)
		off += (size_t) snprintf(buf + off, len - off, "%s%" PRIu64, i ? "," : "-d",
					 s->dropped[i]);
	if (s->torn && off < len)
		snprintf(buf + off, len - off, "-t%" PRIu64 ":%" PRIu64 "%s", s->torn_entry,
			 s->torn_keep, s->torn_bytes ? "B" : "");
}

/* A canonical decimal number (no sign, no leading zero); the end of it, or NULL. */
static const char *parse_num(const char *p, uint64_t *ret)
{
	uint64_t v = 0;

	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned) (*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return NULL;
		v = v * 10 + d;
	}
	*ret = v;
	return p;
}

/* Check that entry @e may be dropped or torn in state @s of @log; @what is "dropped"/"torn". */
static int check_droppable(const struct bo_log *log, const struct bo_crashgen_opts *o,
			   const char *id, const struct bo_crash_state *s, uint64_t e,
			   const char *what, struct bo_err *err)
{
	const unsigned d = depth(o);
	const struct bo_log_entry *le;
	unsigned seen = 0;

	if (e >= s->cut)
		return bo_err_set(err, EINVAL,
				  "state id '%s': %s entry %" PRIu64 " is not before the cut", id,
				  what, e);
	if (e < s->epoch_start)
		return bo_err_set(err, EINVAL,
				  "state id '%s': %s entry %" PRIu64
				  " is durable: the cut's epoch starts at entry %" PRIu64
				  " after a flush",
				  id, what, e, s->epoch_start);
	le = bo_log_entry(log, e);
	if (!bo_crash_droppable(o, le)) {
		char flags[64];

		return bo_err_set(
			err, EINVAL,
			"state id '%s': %s entry %" PRIu64 " (%s, %" PRIu64
			" blocks) is never lost on a disk that is %s: only plain writes and"
			" discards are%s",
			id, what, e, bo_log_flags_str(le->flags, flags, sizeof(flags)),
			le->nr_sectors, bo_persona_name(persona(o)),
			persona(o) == BO_PERSONA_IGNORES_FUA ? ", and FUA writes" : "");
	}
	/* The FLUSHes of its own device after it (on one device, every FLUSH). */
	for (uint64_t f = e + 1; d && f < s->cut; f++) {
		const struct bo_log_entry *fe = bo_log_entry(log, f);

		if ((fe->flags & BO_LOG_FLUSH) && closes(log, fe, bucket(log, le)) && ++seen == d)
			return bo_err_set(
				err, EINVAL,
				"state id '%s': %s entry %" PRIu64
				" is durable: a flush of its device follows at entry %" PRIu64,
				id, what, e, f);
	}
	return 0;
}

int bo_crash_state_parse(const struct bo_log *log, const struct bo_crashgen_opts *o, const char *id,
			 struct bo_crash_state *ret, struct bo_err *err)
{
	static const char syntax[] = "expected c<entry>, c<entry>-d<entry>,<entry>... or "
				     "c<entry>-t<entry>:<blocks> (or :<bytes>B), e.g. c1234-d5,9";
	struct bo_crash_state s = {0};
	const char *p;
	uint64_t n;
	int r;

	if (!strncmp(id, "c-start", 7)) {
		p = id + 7;
	} else {
		p = id[0] == 'c' ? parse_num(id + 1, &n) : NULL;
		if (!p || n == UINT64_MAX)
			return bo_err_set(err, EINVAL, "state id '%s': %s", id, syntax);
		s.cut = n + 1;
	}
	if (s.cut > bo_log_count(log))
		return bo_err_set(err, ERANGE,
				  "state id '%s': past the end of '%s' (%" PRIu64 " entries)", id,
				  bo_log_path(log), bo_log_count(log));
	s.epoch_start = bo_crash_epoch_start(log, o, s.cut);
	if (!strncmp(p, "-d", 2)) {
		p += 2;
		do {
			if (s.n_dropped > 0)
				p++;
			p = parse_num(p, &n);
			if (!p)
				return bo_err_set(err, EINVAL, "state id '%s': %s", id, syntax);
			if (s.n_dropped == BO_CRASH_MAX_DROP)
				return bo_err_set(err, EINVAL,
						  "state id '%s': more than %d dropped entries", id,
						  BO_CRASH_MAX_DROP);
			if (s.n_dropped > 0 && n <= s.dropped[s.n_dropped - 1])
				return bo_err_set(
					err, EINVAL,
					"state id '%s': dropped entries must be ascending "
					"without repeats (%" PRIu64 " after %" PRIu64 ")",
					id, n, s.dropped[s.n_dropped - 1]);
			s.dropped[s.n_dropped++] = n;
		} while (*p == ',');
		for (unsigned i = 0; i < s.n_dropped; i++) {
			r = check_droppable(log, o, id, &s, s.dropped[i], "dropped", err);
			if (r < 0)
				return r;
		}
	} else if (!strncmp(p, "-t", 2)) {
		uint64_t points, lo, keep;
		bool bytes;

		p = parse_num(p + 2, &s.torn_entry);
		if (p && *p == ':')
			p = parse_num(p + 1, &s.torn_keep);
		else
			p = NULL;
		if (!p)
			return bo_err_set(err, EINVAL, "state id '%s': %s", id, syntax);
		s.torn_bytes = *p == 'B';
		p += s.torn_bytes;
		r = check_droppable(log, o, id, &s, s.torn_entry, "torn", err);
		if (r < 0)
			return r;
		/* One of the entry's tear points: they ascend, so bisect. */
		points = tear_point(log, o, bo_log_entry(log, s.torn_entry), 0, &keep, &bytes);
		if (!points)
			return bo_err_set(
				err, EINVAL,
				"state id '%s': torn entry %" PRIu64
				" cannot tear on a disk that is %s (too small, or no boundary"
				" inside it)",
				id, s.torn_entry, bo_persona_name(persona(o)));
		for (lo = 0; lo + 1 < points;) {
			uint64_t mid = lo + (points - lo) / 2;

			tear_point(log, o, bo_log_entry(log, s.torn_entry), mid, &keep, &bytes);
			if (keep <= s.torn_keep)
				lo = mid;
			else
				points = mid;
		}
		tear_point(log, o, bo_log_entry(log, s.torn_entry), lo, &keep, &bytes);
		if (keep != s.torn_keep || bytes != s.torn_bytes) {
			uint64_t first, last;

			points = tear_point(log, o, bo_log_entry(log, s.torn_entry), 0, &first,
					    &bytes);
			tear_point(log, o, bo_log_entry(log, s.torn_entry), points - 1, &last,
				   &bytes);
			return bo_err_set(
				err, EINVAL,
				"state id '%s': torn entry %" PRIu64 " (%" PRIu64
				" blocks) cannot keep %" PRIu64 "%s on a disk that is %s: it"
				" tears after %" PRIu64 "..%" PRIu64 " %s",
				id, s.torn_entry, bo_log_entry(log, s.torn_entry)->nr_sectors,
				s.torn_keep, s.torn_bytes ? " bytes" : " blocks",
				bo_persona_name(persona(o)), first, last,
				bytes ? "bytes (B)" : "blocks");
		}
		s.torn = true;
	}
	if (*p)
		return bo_err_set(err, EINVAL, "state id '%s': unexpected '%s'; %s", id, p, syntax);
	*ret = s;
	return 0;
}
