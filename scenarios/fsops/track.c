// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops checker's tracks: what a file may hold of an inode as the replay goes. An inode's
 * content is kept one id per word (struct content); a track judges each word of one file
 * against it, the later issued writes and the smallest later cut, and counts the words
 * nothing explains, so that whether a name holds the inode is O(1) at every sync op
 * (track_acceptable()). docs/checkers.md states the rules.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/fsops/check.h"

/* The bytes of word @w of content @n, into @out. */
static void content_bytes(const struct checker *c, const struct content *n, uint64_t w,
			  uint8_t out[8])
{
	if (n->word[w] == WORD_MIXED)
		memcpy(out, n->bytes + 8 * w, 8);
	else if (n->word[w] == 0)
		memset(out, 0, 8);
	else
		fsops_fill(c->p->seed, n->word[w], 8 * w, out, 8);
}

/* Word @w of content @n as bytes of its own, to be changed in part. */
static void content_mix(const struct checker *c, struct content *n, uint64_t w)
{
	if (n->word[w] != WORD_MIXED)
		content_bytes(c, n, w, n->bytes + 8 * w);
	n->word[w] = WORD_MIXED;
}

/* Bytes [@lo, @hi) of word @w of content @n are write @m's. */
static void content_part(const struct checker *c, struct content *n, const struct fsops_op *m,
			 uint64_t w, uint64_t lo, uint64_t hi)
{
	lo = lo > 8 * w ? lo : 8 * w;
	hi = hi < 8 * w + 8 ? hi : 8 * w + 8;
	content_mix(c, n, w);
	fsops_fill(c->p->seed, m->id, lo, n->bytes + lo, hi - lo);
}

/* Write @m on content @n: a word it covers whole is its, a word in part is mixed. */
static void content_write(const struct checker *c, struct content *n, const struct fsops_op *m)
{
	uint64_t end = m->off + m->len < 8 * n->words ? m->off + m->len : 8 * n->words;
	uint64_t first = (m->off + 7) / 8, last = end / 8; /* the words it covers whole */
	uint64_t head = m->off / 8, tail = (end - 1) / 8;

	if (end <= m->off)
		return;
	for (uint64_t w = first; w < last; w++)
		n->word[w] = (uint32_t) m->id;
	if (head < first || head >= last)
		content_part(c, n, m, head, m->off, end);
	if (tail != head && tail >= last)
		content_part(c, n, m, tail, m->off, end);
}

/* Truncate content @n of size @size to @to < @size: what is cut off reads as zeros. */
static void content_cut(const struct checker *c, struct content *n, uint64_t to, uint64_t size)
{
	uint64_t end = size < 8 * n->words ? size : 8 * n->words;

	for (uint64_t w = to / 8; 8 * w < end; w++) {
		if (8 * w >= to) {
			n->word[w] = 0;
			continue;
		}
		content_mix(c, n, w);
		memset(n->bytes + to, 0, 8 * w + 8 - to);
	}
}

/* Bytes [@lo, @hi) of content @n read as zeros (a punch or a zero range). */
static void content_zero(const struct checker *c, struct content *n, uint64_t lo, uint64_t hi)
{
	hi = hi < 8 * n->words ? hi : 8 * n->words;
	for (uint64_t w = lo / 8; 8 * w < hi; w++) {
		if (8 * w >= lo && 8 * w + 8 <= hi) {
			n->word[w] = 0;
			continue;
		}
		content_mix(c, n, w);
		memset(n->bytes + (8 * w > lo ? 8 * w : lo), 0,
		       (8 * w + 8 < hi ? 8 * w + 8 : hi) - (8 * w > lo ? 8 * w : lo));
	}
}

/*
 * Whether nothing explains word @w of @t's file, which is not explained whole (as the inode's
 * value now, or as a later issued write's), with @cut the smallest later truncate: a byte is
 * explained by the inode's value now, as a zero at or past the cut, or, in an odd word, by a
 * later issued write that put the same value there. A word one write made whole is explained
 * by a later write only as a whole: that a later write explains its bytes one by one is chance.
 * Not inlined: recount() calls it for few of its words, and its loop is the hot one.
 */
static __attribute__((noinline)) bool word_bad(const struct checker *c, const struct track *t,
					       const struct future *f, uint64_t w, uint64_t cut)
{
	const struct obs_file *o = &c->slot[t->slot];
	uint32_t v = o->word[w], now = f->now.word[w];
	uint64_t lo = 8 * w, hi = 8 * w + 8 < o->size ? 8 * w + 8 : o->size;
	/* A later punch or zero range over the word explains its zeros (at its edges, the
	 * bytes of the word it does not cover too: the reading that invents no failure). */
	bool zeroed = t->zero[w] != 0;
	uint8_t d[8];

	/* Two whole words of different writes (or zeros) differ in some byte. */
	if (!(v & WORD_ODD) && now != WORD_MIXED && hi == lo + 8 && hi <= cut &&
	    !(v == 0 && zeroed))
		return true;
	content_bytes(c, &f->now, w, d);
	for (uint64_t i = lo; i < hi; i++) {
		uint8_t x = o->data[i];

		if (x == d[i - lo] || ((i >= cut || zeroed) && x == 0))
			continue;
		if ((v & WORD_ODD) && t->cnt[8 * (v & ~WORD_ODD) + i - lo])
			continue;
		return true;
	}
	return false;
}

/*
 * Judge again the words of @t's file from the one holding byte @from to the one holding byte
 * @to - 1, after a change to them, to the later writes or to the smallest later cut @cut.
 */
static void recount(const struct checker *c, struct track *t, const struct future *f, uint64_t cut,
		    uint64_t from, uint64_t to)
{
	const struct obs_file *o = &c->slot[t->slot];
	const uint32_t *file = o->word, *late = o->late, *now = f->now.word;
	bool *is_bad = t->is_bad;
	/* A write of the inode is still to be replayed when issued and from here on. */
	uint64_t next = f->pos < f->changes.n ? f->changes.v[f->pos]->id : UINT64_MAX;
	uint64_t end = to < o->size ? to : o->size, n = t->bad;

	for (uint64_t w = from / 8; 8 * w < end; w++) {
		bool bad = file[w] != now[w] && late[w] < next && word_bad(c, t, f, w, cut);

		n += (uint64_t) bad - is_bad[w];
		is_bad[w] = bad;
	}
	t->bad = n;
}

/* Add @delta to the count of each byte of an odd word of @t's file that write @m puts there. */
static void odd_count(const struct checker *c, struct track *t, const struct fsops_op *m,
		      uint32_t delta)
{
	const struct obs_file *o = &c->slot[t->slot];
	uint64_t end = m->off + m->len < o->size ? m->off + m->len : o->size;
	size_t lo = 0, hi = o->nodd;

	if (end <= m->off)
		return; /* the file ends before the write begins */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (8 * (uint64_t) o->odd[mid] + 8 <= m->off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t j = lo; j < o->nodd && 8 * (uint64_t) o->odd[j] < end; j++) {
		uint64_t w = o->odd[j], a = 8 * w > m->off ? 8 * w : m->off;
		uint64_t b = 8 * w + 8 < end ? 8 * w + 8 : end;
		uint8_t d[8];

		fsops_fill(c->p->seed, m->id, a, d, b - a);
		for (uint64_t i = a; i < b; i++)
			t->cnt[8 * j + i - 8 * w] += (uint32_t) (o->data[i] == d[i - a]) * delta;
	}
}

/* Add @delta to the zeroing count of each word of @t's file that zeroing op @m covers. */
static void zero_count(const struct checker *c, struct track *t, const struct fsops_op *m,
		       uint32_t delta)
{
	uint64_t size = c->slot[t->slot].size;
	uint64_t end = m->off + m->len < size ? m->off + m->len : size;

	for (uint64_t w = m->off / 8; 8 * w < end; w++)
		t->zero[w] += delta;
}

int tracks_start(struct checker *c, const struct fsops_inode *in)
{
	struct future *f = &c->fut[in->ino];
	uint64_t reach = 0; /* the largest file a track looks at */

	for (int s = 0; s < FSOPS_NSLOTS; s++) {
		const struct obs_file *o = &c->slot[s];
		struct track *t;
		size_t ncnt;

		/* A file larger than the inode ever was cannot be it, nor one that holds another
		 * inode's data (a whole word of it: that its 8 bytes are all explained otherwise
		 * is a chance of 2^-64). */
		if (!(f->slots & (1ull << s)) || o->kind != OBS_FILE || o->size > f->max_ever ||
		    (o->owner && o->owner != in->ino))
			continue;
		/* One allocation: the track, its counts, its bits (most files are small). */
		ncnt = 8 * (size_t) o->nodd + 1;
		t = calloc(1, sizeof(*t) + (ncnt + o->size / 8 + 1) * sizeof(*t->cnt) +
				      (o->size / 8 + 1) * sizeof(*t->is_bad));
		if (!t)
			return -ENOMEM;
		t->cnt = (uint32_t *) (t + 1);
		t->zero = t->cnt + ncnt;
		t->is_bad = (bool *) (t->zero + o->size / 8 + 1);
		t->slot = s;
		t->next = f->tracks;
		f->tracks = t;
		reach = o->size > reach ? o->size : reach;
	}
	if (!f->tracks)
		return 0;
	f->now.words = (reach + 7) / 8;
	f->now.word = calloc(f->now.words + 1, sizeof(*f->now.word));
	f->now.bytes = malloc(8 * f->now.words + 1);
	if (!f->now.word || !f->now.bytes)
		return -ENOMEM;
	for (size_t j = 0; j < f->changes.n; j++)
		for (struct track *t = f->tracks; t; t = t->next) {
			if (fsops_is_data(f->changes.v[j]->type))
				odd_count(c, t, f->changes.v[j], 1);
			if (fsops_is_zeroing(f->changes.v[j]->type))
				zero_count(c, t, f->changes.v[j], 1);
		}
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
	free(f->now.word);
	free(f->now.bytes);
	memset(&f->now, 0, sizeof(f->now));
}

void tracks_replay(struct checker *c, const struct fsops_op *op, const struct fsops_inode *in)
{
	struct future *f = &c->fut[in->ino];
	bool mine = f->pos < f->changes.n && f->changes.v[f->pos] == op;
	uint64_t cut = f->min_cut[f->pos], cut_after = f->min_cut[f->pos + mine];
	uint64_t from = op->off, to = op->type == FSOPS_TRUNCATE ? in->size : op->off + op->len;

	if (op->type == FSOPS_TRUNCATE && cut_after != cut) {
		/* cut only grows: [cut, cut_after) changes with the truncated bytes. */
		from = cut < from ? cut : from;
		to = cut_after == UINT64_MAX ? UINT64_MAX : cut_after > to ? cut_after : to;
	}
	/* An allocation changes no byte: what it extends by reads as zeros, as the content
	 * past the size always does. */
	if (op->type == FSOPS_FALLOC || op->type == FSOPS_FALLOC_KEEP)
		to = from;
	if (f->tracks && op->type == FSOPS_TRUNCATE && op->off < in->size)
		content_cut(c, &f->now, op->off, in->size);
	else if (f->tracks && fsops_is_data(op->type))
		content_write(c, &f->now, op);
	else if (f->tracks && fsops_is_zeroing(op->type))
		content_zero(c, &f->now, op->off, op->off + op->len);
	/* What it wrote (or zeroed) is now the inode's value: no longer a later op's. */
	for (struct track *t = f->tracks; t && mine; t = t->next) {
		if (fsops_is_data(op->type))
			odd_count(c, t, op, UINT32_MAX);
		if (fsops_is_zeroing(op->type))
			zero_count(c, t, op, UINT32_MAX);
	}
	f->pos += mine;
	for (struct track *t = f->tracks; t; t = t->next)
		recount(c, t, f, cut_after, from, to);
}

bool track_range_ok(const struct checker *c, const struct fsops_inode *in, int s, uint64_t from,
		    uint64_t to)
{
	const struct future *f = &c->fut[in->ino];
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
	for (uint64_t w = from / 8; 8 * w < to && 8 * w < o->size; w++)
		if (t->is_bad[w])
			return false;
	return true;
}

bool track_acceptable(const struct checker *c, const struct fsops_inode *in, int s)
{
	return track_range_ok(c, in, s, 0, UINT64_MAX);
}
