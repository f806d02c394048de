// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops checker's tracks: what a file may hold of an inode as the replay goes. An inode's
 * content is kept in runs of words (struct content); a track judges each word of one file
 * against it, the later issued writes and the smallest later cut, and counts the words
 * nothing explains, so that whether a name holds the inode is O(1) at every sync op
 * (track_acceptable()). A change is judged run by run: the words where one run of the file
 * meets one run of the content are explained alike, but for the few judged byte by byte (an
 * odd or mixed word, the word the cut falls in, a short last word), so a change costs the runs
 * it covers, not its length. docs/checkers.md states the rules.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/fsops/checker.h"
#include "scenarios/fsops/track.h"

/* The words that hold bytes [0, @bytes): ceil(bytes / 8), without overflow. */
static uint64_t words_of(uint64_t bytes)
{
	return bytes / 8 + (bytes % 8 != 0);
}

/*
 * The index of the run that holds word @w, of the @n runs at @v (@size bytes apart, each
 * beginning with a struct word_run; the first at word 0).
 */
static size_t run_find(const void *v, size_t n, size_t size, uint64_t w)
{
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (((const struct word_run *) ((const char *) v + mid * size))->start <= w)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The bits set in [@a, @b) of bit map @m. */
static uint64_t bits_count(const uint64_t *m, uint64_t a, uint64_t b)
{
	uint64_t n = 0;

	for (uint64_t i = a / 64; a < b && i <= (b - 1) / 64; i++) {
		uint64_t x = m[i];

		if (i == a / 64)
			x &= ~0ull << (a % 64);
		if (i == (b - 1) / 64)
			x &= ~0ull >> (63 - (b - 1) % 64);
		n += (uint64_t) __builtin_popcountll(x);
	}
	return n;
}

/* Bits [@a, @b) of bit map @m set to @on. */
static void bits_assign(uint64_t *m, uint64_t a, uint64_t b, bool on)
{
	for (uint64_t i = a / 64; a < b && i <= (b - 1) / 64; i++) {
		uint64_t x = ~0ull;

		if (i == a / 64)
			x &= ~0ull << (a % 64);
		if (i == (b - 1) / 64)
			x &= ~0ull >> (63 - (b - 1) % 64);
		m[i] = on ? m[i] | x : m[i] & ~x;
	}
}

/* Words [@a, @b) of @t's file are bad or not: keep the count true. */
static void mark(struct track *t, uint64_t a, uint64_t b, bool bad)
{
	/* Nothing bad, and nothing to make bad: most calls. */
	if (a >= b || (!bad && t->bad == 0))
		return;
	t->bad = t->bad - bits_count(t->is_bad, a, b) + (bad ? b - a : 0);
	bits_assign(t->is_bad, a, b, bad);
}

/* The bytes of word @w when it is @value (a write's, 0, WORD_MIXED with @mixed), into @out. */
static void value_bytes(const struct checker *c, uint32_t value, const uint8_t *mixed, uint64_t w,
			uint8_t out[8])
{
	if (value == WORD_MIXED)
		memcpy(out, mixed, 8);
	else if (value == 0)
		memset(out, 0, 8);
	else
		fsops_fill(c->p->seed, word_id(value), 8 * word_at(value, w), out, 8);
}

/* The bytes of word @w of file @o, which is @v there (its run's value), into @out. */
static void file_bytes(const struct checker *c, const struct obs_file *o, uint64_t w, uint32_t v,
		       uint8_t out[8])
{
	if (v & WORD_ODD)
		memcpy(out, o->odd[v & ~WORD_ODD].bytes, 8);
	else
		value_bytes(c, v, NULL, w, out);
}

static int content_init(struct content *n, uint64_t words)
{
	n->words = words;
	n->cap = 8;
	n->v = malloc(n->cap * sizeof(*n->v));
	if (!n->v)
		return -ENOMEM;
	n->v[0] = (struct content_run){{0, 0}, {0}};
	n->n = 1;
	return 0;
}

/* Remove run @i of @n. */
static void content_drop(struct content *n, size_t i)
{
	memmove(n->v + i, n->v + i + 1, (n->n - i - 1) * sizeof(*n->v));
	n->n--;
}

/*
 * Words [@a, @b) of @n (a < b <= words) become one run of @value, with @bytes when it is
 * WORD_MIXED (one word); a whole value joins its neighbours of the same. Returns the index of
 * the run that holds them, or -ENOMEM.
 */
static long content_set(struct content *n, uint64_t a, uint64_t b, uint32_t value,
			const uint8_t *bytes)
{
	size_t i = run_find(n->v, n->n, sizeof(*n->v), a);
	size_t k = b < n->words ? run_find(n->v, n->n, sizeof(*n->v), b) : n->n;
	/* The runs before a stay, the one holding a cut short; the one holding b, if it began
	 * before b, goes on from b; those after stay. */
	size_t keep = i + (n->v[i].r.start < a);
	bool tail = k < n->n && n->v[k].r.start < b;
	size_t after = k + tail, len = keep + 1 + tail + (n->n - after);
	struct content_run rest = tail ? n->v[k] : (struct content_run){{0, 0}, {0}};

	if (len > n->cap) {
		struct content_run *v = reallocarray(n->v, 2 * len, sizeof(*v));

		if (!v)
			return -ENOMEM;
		n->v = v;
		n->cap = 2 * len;
	}
	memmove(n->v + keep + 1 + tail, n->v + after, (n->n - after) * sizeof(*n->v));
	n->v[keep] = (struct content_run){{(uint32_t) a, value}, {0}};
	if (bytes)
		memcpy(n->v[keep].bytes, bytes, 8);
	if (tail) {
		rest.r.start = (uint32_t) b;
		n->v[keep + 1] = rest;
	}
	n->n = len;
	if (value == WORD_MIXED)
		return (long) keep;
	if (keep + 1 < n->n && n->v[keep + 1].r.value == value)
		content_drop(n, keep + 1);
	if (keep > 0 && n->v[keep - 1].r.value == value)
		content_drop(n, keep--);
	return (long) keep;
}

/* Word @w of content @n as bytes of its own (a run of one WORD_MIXED word), to be changed in
 * part: the index of its run, or -ENOMEM. */
static long content_mix(const struct checker *c, struct content *n, uint64_t w)
{
	const struct content_run *r = &n->v[run_find(n->v, n->n, sizeof(*n->v), w)];
	uint8_t b[8];

	if (r->r.value == WORD_MIXED)
		return r - n->v;
	value_bytes(c, r->r.value, r->bytes, w, b);
	return content_set(n, w, w + 1, WORD_MIXED, b);
}

/* Bytes [@lo, @hi) of word @w of content @n are write @m's, or zeros when @m is NULL. */
static int content_part(const struct checker *c, struct content *n, const struct fsops_op *m,
			uint64_t w, uint64_t lo, uint64_t hi)
{
	long i = content_mix(c, n, w);

	if (i < 0)
		return (int) i;
	lo = lo > 8 * w ? lo : 8 * w;
	hi = hi < 8 * w + 8 ? hi : 8 * w + 8;
	if (m)
		fsops_fill(c->p->seed, m->id, lo, n->v[i].bytes + lo - 8 * w, hi - lo);
	else
		memset(n->v[i].bytes + lo - 8 * w, 0, hi - lo);
	return 0;
}

/*
 * Bytes [@lo, @hi) of content @n become write @m's (zeros when @m is NULL): a word covered whole
 * is its, a word in part is mixed.
 */
static int content_put(const struct checker *c, struct content *n, const struct fsops_op *m,
		       uint64_t lo, uint64_t hi)
{
	uint64_t end = fsops_min64(hi, 8 * n->words);
	uint64_t first = words_of(lo), last = end / 8; /* the words it covers whole */
	uint64_t head = lo / 8, tail = (end - 1) / 8;
	int r = 0;

	if (end <= lo)
		return 0;
	if (first < last && content_set(n, first, last, m ? (uint32_t) m->id : 0, NULL) < 0)
		return -ENOMEM;
	if (head < first || head >= last)
		r = content_part(c, n, m, head, lo, end);
	if (r == 0 && tail != head && tail >= last)
		r = content_part(c, n, m, tail, lo, end);
	return r;
}

/* Bytes [@lo, @hi) of word @w of content @n become those of content @src there. */
static int content_copy_part(const struct checker *c, struct content *n, const struct content *src,
			     uint64_t w, uint64_t lo, uint64_t hi)
{
	const struct content_run *r = &src->v[run_find(src->v, src->n, sizeof(*src->v), w)];
	long i = content_mix(c, n, w);
	uint8_t b[8];

	if (i < 0)
		return (int) i;
	lo = lo > 8 * w ? lo : 8 * w;
	hi = hi < 8 * w + 8 ? hi : 8 * w + 8;
	value_bytes(c, r->r.value, r->bytes, w, b);
	memcpy(n->v[i].bytes + lo - 8 * w, b + lo - 8 * w, hi - lo);
	return 0;
}

/*
 * Bytes [@lo, @hi) of content @n become those of content @src (another inode's, followed whole)
 * at the same offsets: a copy or a clone. Its runs are copied as they are, a word in part is
 * mixed.
 */
static int content_copy(const struct checker *c, struct content *n, const struct content *src,
			uint64_t lo, uint64_t hi)
{
	uint64_t end = fsops_min64(fsops_min64(hi, 8 * n->words), 8 * src->words);
	uint64_t first = words_of(lo), last = end / 8; /* the words it covers whole */
	uint64_t head = lo / 8, tail = (end - 1) / 8;

	if (end <= lo)
		return 0;
	for (uint64_t w = first; w < last;) {
		size_t i = run_find(src->v, src->n, sizeof(*src->v), w);
		const struct content_run *r = &src->v[i];
		uint64_t b = i + 1 < src->n ? fsops_min64(src->v[i + 1].r.start, last) : last;

		if (content_set(n, w, b, r->r.value, r->r.value == WORD_MIXED ? r->bytes : NULL) <
		    0)
			return -ENOMEM;
		w = b;
	}
	if ((head < first || head >= last) && content_copy_part(c, n, src, head, lo, end) < 0)
		return -ENOMEM;
	if (tail != head && tail >= last && content_copy_part(c, n, src, tail, lo, end) < 0)
		return -ENOMEM;
	return 0;
}

/*
 * Collapse or insert @op on content @n: the words from its offset on move down (collapse) or
 * up (insert) by its length, each still naming where its write put it; what a collapse leaves
 * at the end, and an insert between, reads as zeros. Whole words: the range is in blocks.
 */
static int content_shift(struct content *n, const struct fsops_op *op)
{
	bool collapse = op->type == FSOPS_COLLAPSE;
	uint64_t a = op->off / 8, d = op->len / 8;
	int blocks = (int) (op->len / FSOPS_BLOCK) * (collapse ? 1 : -1);
	struct content out;

	if (content_init(&out, n->words) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < n->n; i++) {
		const struct content_run *r = &n->v[i];
		uint64_t lo = r->r.start, hi = i + 1 < n->n ? n->v[i + 1].r.start : n->words;
		uint32_t v = r->r.value;

		if (v != 0 && v != WORD_MIXED)
			v = word_of(word_id(v), word_moved(v) + blocks);
		/* Before the offset: in place. */
		if (lo < a && content_set(&out, lo, fsops_min64(hi, a), r->r.value, r->bytes) < 0)
			goto fail;
		/* From it on (a collapse: past the range), moved. */
		lo = lo > a + (collapse ? d : 0) ? lo : a + (collapse ? d : 0);
		if (!collapse)
			hi = fsops_min64(hi, n->words - d);
		if (lo < hi && content_set(&out, collapse ? lo - d : lo + d,
					   collapse ? hi - d : hi + d, v, r->bytes) < 0)
			goto fail;
	}
	free(n->v);
	*n = out;
	return 0;
fail:
	free(out.v);
	return -ENOMEM;
}

/* Truncate content @n of size @size to @to < @size: what is cut off reads as zeros, the words
 * from the cut on whole. */
static int content_cut(const struct checker *c, struct content *n, uint64_t to, uint64_t size)
{
	uint64_t end = fsops_min64(size, 8 * n->words);

	if (to % 8 && 8 * (to / 8) < end && content_part(c, n, NULL, to / 8, to, to + 8) < 0)
		return -ENOMEM;
	if (words_of(to) < words_of(end) &&
	    content_set(n, words_of(to), words_of(end), 0, NULL) < 0)
		return -ENOMEM;
	return 0;
}

/*
 * Whether nothing explains word @w of @t's file, which is @v (its run's value) and not
 * explained whole (as the inode's value now, @now, or as a later issued write's), with @cut
 * the smallest later truncate: a byte is explained by the inode's value now, as a zero at or
 * past the cut, or, in an odd word, by a later issued write that put the same value there. A
 * word one write made whole is explained by a later write only as a whole: that a later write
 * explains its bytes one by one is chance.
 */
static bool word_bad(const struct checker *c, const struct track *t, uint64_t w, uint64_t cut,
		     uint32_t v, const struct content_run *now)
{
	const struct obs_file *o = &c->slot[t->slot];
	uint64_t lo = 8 * w, hi = fsops_min64(8 * w + 8, o->size);
	/* A later punch or zero range over the word explains its zeros (at its edges, the
	 * bytes of the word it does not cover too: the reading that invents no failure). */
	bool zeroed = t->zero && t->zero[w] != 0;
	uint8_t d[8], x[8];

	/* Two whole words of different writes (or zeros) differ in some byte. */
	if (!(v & WORD_ODD) && now->r.value != WORD_MIXED && hi == lo + 8 && hi <= cut &&
	    !(v == 0 && zeroed))
		return true;
	value_bytes(c, now->r.value, now->bytes, w, d);
	file_bytes(c, o, w, v, x);
	for (uint64_t i = lo; i < hi; i++) {
		if (x[i - lo] == d[i - lo] || ((i >= cut || zeroed) && x[i - lo] == 0))
			continue;
		if ((v & WORD_ODD) && t->cnt[8 * (v & ~WORD_ODD) + i - lo])
			continue;
		return true;
	}
	return false;
}

/* Where the cut falls for a track's file: the words below @full are whole and end at or
 * before the cut; those from @past on begin at or after it. */
struct cut_words {
	uint64_t cut, full, past;
};

/*
 * Judge again words [@a, @b) of @t's file, where it is @v throughout and the inode's content
 * is @now, with @next the first change of the inode still to be replayed, as if no later
 * issued copy covered them nor a later issued collapse or insert preceded them (judge_run()).
 */
static void judge_words(const struct checker *c, struct track *t, uint64_t a, uint64_t b,
			uint32_t v, const struct content_run *now, uint64_t next,
			const struct cut_words *cw)
{
	/* The write of a whole word of the file where it wrote it, if it was issued to this
	 * inode: another inode's write reaches the file only through a copy, and no later
	 * issued copy covers these words. */
	const struct fsops_op *m =
		v && !(v & WORD_ODD) && word_moved(v) == 0 && c->issued[v] ? c->by_id[v] : NULL;
	uint64_t late = m && m->ino == t->ino ? v : 0, x, y;

	/* The inode's value now, or a later issued write's (still to be replayed). */
	if (v == now->r.value || late >= next) {
		mark(t, a, b, false);
		return;
	}
	if ((v & WORD_ODD) || now->r.value == WORD_MIXED) { /* a run of one word */
		for (uint64_t w = a; w < b; w++)
			mark(t, w, w + 1, word_bad(c, t, w, cw->cut, v, now));
		return;
	}
	/* Two whole words of different writes (or zeros) differ in some byte: below the cut,
	 * a word is explained only as the zeros of a later punch or zero range; past it, only
	 * as zeros (that every byte of a write's word is zero or the other's is chance, 2^-56). */
	x = a > cw->full ? a : fsops_min64(b, cw->full);
	y = x > cw->past ? x : fsops_min64(b, cw->past);
	if (v != 0 || !t->zero)
		mark(t, a, x, true);
	else
		for (uint64_t w = a; w < x; w++)
			mark(t, w, w + 1, t->zero[w] == 0);
	for (uint64_t w = x; w < y; w++)
		mark(t, w, w + 1, word_bad(c, t, w, cw->cut, v, now));
	mark(t, y, b, v != 0);
}

/* Whether byte @b at @pos is the inode's content @n's there or, with @shifts, a whole number
 * of blocks away. */
static bool byte_moved(const struct checker *c, const struct content *n, uint64_t pos, uint8_t b,
		       bool shifts)
{
	for (int64_t at = (int64_t) (shifts ? pos % FSOPS_BLOCK : pos);
	     at < (int64_t) (8 * n->words) && (shifts || at == (int64_t) pos); at += FSOPS_BLOCK) {
		size_t i = run_find(n->v, n->n, sizeof(*n->v), (uint64_t) at / 8);
		uint8_t d[8];

		value_bytes(c, n->v[i].r.value, n->v[i].bytes, (uint64_t) at / 8, d);
		if (d[at % 8] == b)
			return true;
	}
	return false;
}

/*
 * Whether byte @b at @pos could be inode @ino's, by copies issued before @before: one of its
 * writes put it there, it is its content now, or copies into it carried it from another
 * inode's, each at whole blocks away where @shifts or the inode was collapsed or inserted
 * into. @depth bounds the chains followed: past it, a byte is taken to be carried.
 */
static bool byte_carried(const struct checker *c, uint64_t ino, uint64_t pos, uint8_t b,
			 uint64_t before, bool shifts, int depth)
{
	const struct future *f = future_of(c, ino);
	bool sh = shifts || f->shifted;

	if (track_byte_written(c, ino, pos, b, before, sh) ||
	    (f->now.v && byte_moved(c, &f->now, pos, b, sh)))
		return true;
	for (size_t j = 0; j < f->changes.n && f->changes.v[j]->id < before; j++) {
		const struct fsops_op *m = f->changes.v[j];

		if (fsops_is_copy(m->type) &&
		    (depth == 0 || byte_carried(c, m->victim, pos, b, m->id, sh, depth - 1)))
			return true;
	}
	return false;
}

/*
 * Whether word @w of @t's file, @v there, is what later issued ops over it, not replayed, may
 * have put there: zeros; under a copy (@m one), a word of its source's writes issued before
 * it (or of what copies carried into the source); under a collapse or an insert before it, a
 * word of this inode's writes (or of what copies carried into it) moved by whole blocks, or
 * its content now a whole number of blocks away. A word no write made whole is held to it
 * byte by byte.
 */
static bool later_moved(const struct checker *c, const struct track *t, uint64_t w, uint32_t v)
{
	const struct future *f = future_of(c, t->ino);
	const struct obs_file *o = &c->slot[t->slot];
	const struct fsops_op *wr = v && !(v & WORD_ODD) ? c->by_id[word_id(v)] : NULL;
	uint64_t lo = 8 * w, hi = fsops_min64(8 * w + 8, o->size);
	bool shift = false;
	uint8_t x[8];

	if (v == 0)
		return true;
	for (size_t j = f->pos; j < f->changes.n; j++)
		shift |= fsops_is_shift(f->changes.v[j]->type) && f->changes.v[j]->off < hi;
	if (wr && shift && (wr->ino == t->ino || track_copies_carry(c, t->ino, wr, UINT64_MAX, 4)))
		return true;
	for (size_t j = f->pos; j < f->changes.n && wr; j++) {
		const struct fsops_op *m = f->changes.v[j];

		if (fsops_is_copy(m->type) && m->off < hi && lo < m->off + m->len &&
		    wr->id < m->id &&
		    (wr->ino == m->victim || track_copies_carry(c, m->victim, wr, m->id, 4)))
			return true;
	}
	if (wr)
		return false;
	/* An odd word: each byte zero, or of this inode's writes or content, or of a copy's
	 * source's (at whole blocks away under a shift). */
	file_bytes(c, o, w, v, x);
	for (uint64_t i = lo; i < hi; i++) {
		bool ok = x[i - lo] == 0 ||
			  track_byte_written(c, t->ino, i, x[i - lo], UINT64_MAX, shift) ||
			  byte_moved(c, &f->now, i, x[i - lo], shift);

		for (size_t j = 0; j < f->changes.n && !ok; j++) {
			const struct fsops_op *m = f->changes.v[j];

			if (fsops_is_copy(m->type))
				ok = byte_carried(c, m->victim, i, x[i - lo], m->id, shift, 3);
		}
		if (!ok)
			return false;
	}
	return true;
}

/*
 * As judge_words(), where later issued copies may cover words, or later issued collapses and
 * inserts move them: a word judge_words() finds unexplained is explained as what one of them
 * may have put there, which the replay has not reached (later_moved()).
 */
static void judge_run(const struct checker *c, struct track *t, uint64_t a, uint64_t b, uint32_t v,
		      const struct content_run *now, uint64_t next, const struct cut_words *cw)
{
	judge_words(c, t, a, b, v, now, next, cw);
	for (uint64_t w = a; t->copied && t->bad && w < b; w++)
		if (t->copied[w] != 0 && bits_count(t->is_bad, w, w + 1) != 0)
			mark(t, w, w + 1, !later_moved(c, t, w, v));
}

/*
 * Judge again the words of @t's file from the one holding byte @from to the one holding byte
 * @to - 1, after a change to them, to the later writes or to the smallest later cut @cut:
 * run by run of the file and of the content.
 */
static void recount(const struct checker *c, struct track *t, const struct future *f, uint64_t cut,
		    uint64_t from, uint64_t to)
{
	const struct obs_file *o = &c->slot[t->slot];
	/* A write of the inode is still to be replayed when issued and from here on. */
	uint64_t next = f->pos < f->changes.n ? f->changes.v[f->pos]->id : UINT64_MAX;
	uint64_t w = from / 8, stop = words_of(fsops_min64(to, o->size));
	struct cut_words cw = {cut, fsops_min64(cut / 8, o->size / 8), words_of(cut)};
	size_t fi, ci;

	if (w >= stop)
		return;
	fi = run_find(o->runs, o->nruns, sizeof(*o->runs), w);
	ci = run_find(f->now.v, f->now.n, sizeof(*f->now.v), w);
	while (w < stop) {
		uint64_t fend = fi + 1 < o->nruns ? o->runs[fi + 1].start : UINT64_MAX;
		uint64_t cend = ci + 1 < f->now.n ? f->now.v[ci + 1].r.start : UINT64_MAX;
		uint64_t b = fsops_min64(stop, fsops_min64(fend, cend));

		judge_run(c, t, w, b, o->runs[fi].value, &f->now.v[ci], next, &cw);
		w = b;
		fi += w == fend;
		ci += w == cend;
	}
}

/* Add @delta to the count of each byte of an odd word of @t's file that write @m puts there. */
static void odd_count(const struct checker *c, struct track *t, const struct fsops_op *m,
		      uint32_t delta)
{
	const struct obs_file *o = &c->slot[t->slot];
	uint64_t end = fsops_min64(m->off + m->len, o->size);
	size_t lo = 0, hi = o->nodd;

	if (end <= m->off)
		return; /* the file ends before the write begins */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (8 * (uint64_t) o->odd[mid].w + 8 <= m->off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t j = lo; j < o->nodd && 8 * (uint64_t) o->odd[j].w < end; j++) {
		uint64_t w = o->odd[j].w, a = 8 * w > m->off ? 8 * w : m->off;
		uint64_t b = fsops_min64(8 * w + 8, end);
		uint8_t d[8];

		fsops_fill(c->p->seed, m->id, a, d, b - a);
		for (uint64_t i = a; i < b; i++)
			t->cnt[8 * j + i - 8 * w] +=
				(uint32_t) (o->odd[j].bytes[i - 8 * w] == d[i - a]) * delta;
	}
}

/* Add @delta to the count @cnt of each word of @t's file that bytes [@from, @to) cover. */
static void range_count(const struct checker *c, struct track *t, uint32_t *cnt, uint64_t from,
			uint64_t to, uint32_t delta)
{
	uint64_t end = fsops_min64(to, c->slot[t->slot].size);

	for (uint64_t w = from / 8; 8 * w < end; w++)
		cnt[w] += delta;
}

/* Count op @m, issued on @t's inode and not replayed yet, in @t's counts by @delta. */
static void later_count(const struct checker *c, struct track *t, const struct fsops_op *m,
			uint32_t delta)
{
	if (fsops_is_data(m->type))
		odd_count(c, t, m, delta);
	if (fsops_is_zeroing(m->type))
		range_count(c, t, t->zero, m->off, m->off + m->len, delta);
	if (fsops_is_copy(m->type))
		range_count(c, t, t->copied, m->off, m->off + m->len, delta);
	/* A collapse or an insert moves every word from its offset on. */
	if (fsops_is_shift(m->type))
		range_count(c, t, t->copied, m->off, UINT64_MAX, delta);
}

int tracks_start(struct checker *c, const struct fsops_inode *in)
{
	struct future *f = future_of(c, in->ino);
	uint64_t reach = 0; /* the largest file a track looks at */
	bool zeroing = false, copied = false;

	for (size_t j = 0; j < f->changes.n; j++) {
		zeroing |= fsops_is_zeroing(f->changes.v[j]->type);
		copied |= fsops_is_copy(f->changes.v[j]->type) ||
			  fsops_is_shift(f->changes.v[j]->type);
	}
	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		const struct obs_file *o = &c->slot[s];
		size_t ncnt, nbad, nzero;
		struct track *t;

		/* A file larger than the inode ever was cannot be it, nor one that holds another
		 * inode's data (a whole word of it: that its 8 bytes are all explained otherwise
		 * is a chance of 2^-64) that no issued copy could have put there. */
		if (!(f->slots & (1ull << s)) || o->kind != OBS_FILE || o->size > f->max_ever ||
		    !track_foreign_ok(c, in->ino, o))
			continue;
		/* One allocation: the track, its bits, its counts. */
		nbad = (size_t) (o->size / 8) / 64 + 1;
		ncnt = 8 * (size_t) o->nodd;
		nzero = (size_t) (o->size / 8) + 1;
		t = calloc(1, sizeof(*t) + nbad * sizeof(*t->is_bad) +
				      (ncnt + (zeroing + copied) * nzero) * sizeof(*t->cnt));
		if (!t)
			return -ENOMEM;
		t->is_bad = (uint64_t *) (t + 1);
		t->cnt = (uint32_t *) (t->is_bad + nbad);
		t->zero = zeroing ? t->cnt + ncnt : NULL;
		t->copied = copied ? t->cnt + ncnt + zeroing * nzero : NULL;
		t->slot = s;
		t->ino = in->ino;
		t->next = f->tracks;
		f->tracks = t;
		reach = o->size > reach ? o->size : reach;
	}
	if (!f->tracks && !f->source)
		return 0;
	/* A copy's source is followed whole: a copy may take any of its bytes; so is a file
	 * collapsed, which brings bytes from past what a track looks at. */
	if (f->source || f->shifted)
		reach = FSOPS_MAX_SIZE;
	if (content_init(&f->now, words_of(reach)) < 0)
		return -ENOMEM;
	for (size_t j = 0; j < f->changes.n; j++)
		for (struct track *t = f->tracks; t; t = t->next)
			later_count(c, t, f->changes.v[j], 1);
	for (struct track *t = f->tracks; t; t = t->next)
		recount(c, t, f, f->min_cut[0], 0, UINT64_MAX);
	return 0;
}

void tracks_free(struct future *f)
{
	while (f->tracks) {
		struct track *t = f->tracks;

		f->tracks = t->next;
		free(t); /* its counts and bits with it */
	}
	free(f->now.v);
	memset(&f->now, 0, sizeof(f->now));
}

/* Change @op of inode @in (of its size before it) into its content @n. */
static int content_replay(const struct checker *c, struct content *n, const struct fsops_op *op,
			  const struct fsops_inode *in)
{
	if (op->type == FSOPS_TRUNCATE && op->off < in->size)
		return content_cut(c, n, op->off, in->size);
	if (fsops_is_data(op->type))
		return content_put(c, n, op, op->off, op->off + op->len);
	if (fsops_is_zeroing(op->type))
		return content_put(c, n, NULL, op->off, op->off + op->len);
	/* The source is followed from an issued copy on: nothing is judged after one never
	 * issued. */
	if (fsops_is_shift(op->type))
		return content_shift(n, op);
	if (fsops_is_copy(op->type) && future_of(c, op->victim)->now.v)
		return content_copy(c, n, &future_of(c, op->victim)->now, op->off,
				    op->off + op->len);
	return 0;
}

int tracks_replay(struct checker *c, const struct fsops_op *op, const struct fsops_inode *in)
{
	struct future *f = future_of(c, in->ino);
	bool mine = f->pos < f->changes.n && f->changes.v[f->pos] == op;
	uint64_t cut = f->min_cut[f->pos], cut_after = f->min_cut[f->pos + mine];
	uint64_t from = op->off, to = op->type == FSOPS_TRUNCATE ? in->size : op->off + op->len;
	int r = 0;

	if (fsops_is_shift(op->type))
		to = UINT64_MAX; /* every word from its offset on moved */
	if (op->type == FSOPS_TRUNCATE && cut_after != cut) {
		/* cut only grows: [cut, cut_after) changes with the truncated bytes. */
		from = cut < from ? cut : from;
		to = cut_after == UINT64_MAX ? UINT64_MAX : cut_after > to ? cut_after : to;
	}
	/* An allocation changes no byte: what it extends by reads as zeros, as the content
	 * past the size always does. */
	if (op->type == FSOPS_FALLOC || op->type == FSOPS_FALLOC_KEEP)
		to = from;
	if (f->now.v)
		r = content_replay(c, &f->now, op, in);
	if (r < 0)
		return r;
	/* What it wrote (zeroed, copied) is now the inode's value: no longer a later op's. */
	for (struct track *t = f->tracks; t && mine; t = t->next)
		later_count(c, t, op, UINT32_MAX);
	f->pos += mine;
	for (struct track *t = f->tracks; t; t = t->next)
		recount(c, t, f, cut_after, from, to);
	return 0;
}

bool track_range_ok(const struct checker *c, const struct fsops_inode *in, int s, uint64_t from,
		    uint64_t to)
{
	const struct future *f = future_of(c, in->ino);
	const struct obs_file *o = &c->slot[s];
	uint64_t lo = f->min_size[f->pos], hi = f->max_size[f->pos];
	uint64_t need = to < in->size ? to : in->size;
	const struct track *t = f->tracks;

	while (t && t->slot != s)
		t = t->next;
	lo = need < lo ? need : lo;
	hi = in->size > hi ? in->size : hi;
	if (!t || o->size < lo || o->size > hi)
		return false;
	if (t->bad == 0)
		return true;
	if (from == 0 && to >= o->size)
		return false;
	return bits_count(t->is_bad, from / 8, fsops_min64(words_of(to), words_of(o->size))) == 0;
}

bool track_acceptable(const struct checker *c, const struct fsops_inode *in, int s)
{
	return track_range_ok(c, in, s, 0, UINT64_MAX);
}
