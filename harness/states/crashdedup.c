// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/states/crashdedup.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"

/* Bytes read from the log at once while hashing an entry's blocks. */
#define READ_CHUNK (64u * 1024)

struct hash128 {
	uint64_t a, b;
};

struct rep {
	struct hash128 key;
	char id[BO_CRASH_ID_MAX];
	int tag;
};

/* One block a state's kept entries write: its address, the entry's order, its contents. */
struct blk {
	uint64_t sector, seq;
	struct hash128 h;
};

struct bo_crashdedup {
	const struct bo_log *log;
	uint32_t ss;
	struct hash128 zero; /* a discarded block */

	uint64_t epoch; /* epoch_start of the states in reps */
	bool have_epoch;
	struct rep *reps;
	size_t n_reps, cap_reps;
	size_t *slots; /* open addressing: 0 or 1 + an index into reps */
	size_t n_slots;

	/* Block hashes of the epoch's entries, by entry - epoch; NULL until needed. */
	struct hash128 **ent;
	size_t cap_ent;

	struct blk *blks;
	size_t cap_blks;
	uint8_t *buf;
};

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t rotl(uint64_t x, unsigned r)
{
	return x << r | x >> (64 - r);
}

/* Two independent 64-bit hashes of one block (@len a multiple of 8). */
static struct hash128 hash_block(const uint8_t *p, size_t len)
{
	uint64_t a = 0x243f6a8885a308d3ULL, b = 0x13198a2e03707344ULL;

	for (size_t i = 0; i < len; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		a = mix64(a ^ w);
		b = rotl(b + w * 0x9e3779b97f4a7c15ULL, 29) * 0xff51afd7ed558ccdULL;
	}
	return (struct hash128){mix64(a ^ len), mix64(b ^ rotl(len, 17))};
}

static void fold(struct hash128 *h, uint64_t v)
{
	h->a = mix64(h->a ^ v);
	h->b = rotl(h->b ^ v, 23) * 0xc4ceb9fe1a85ec53ULL + 0x165667b19e3779f9ULL;
}

int bo_crashdedup_new(const struct bo_log *log, struct bo_crashdedup **ret, struct bo_err *err)
{
	struct bo_crashdedup *d = calloc(1, sizeof(*d));

	if (!d)
		return bo_err_set(err, ENOMEM, "state de-duplication");
	d->log = log;
	d->ss = bo_log_sectorsize(log);
	d->buf = calloc(1, READ_CHUNK > d->ss ? READ_CHUNK : d->ss);
	if (!d->buf) {
		free(d);
		return bo_err_set(err, ENOMEM, "state de-duplication");
	}
	d->zero = hash_block(d->buf, d->ss);
	*ret = d;
	return 0;
}

static void forget_epoch(struct bo_crashdedup *d, uint64_t epoch)
{
	for (size_t i = 0; i < d->cap_ent; i++) {
		free(d->ent[i]);
		d->ent[i] = NULL;
	}
	d->n_reps = 0;
	if (d->slots)
		memset(d->slots, 0, d->n_slots * sizeof(*d->slots));
	d->epoch = epoch;
	d->have_epoch = true;
}

void bo_crashdedup_free(struct bo_crashdedup *d)
{
	if (!d)
		return;
	forget_epoch(d, 0);
	free(d->ent);
	free(d->reps);
	free(d->slots);
	free(d->blks);
	free(d->buf);
	free(d);
}

/* The block hashes of entry @n of the current epoch, computed once. */
static int entry_hashes(struct bo_crashdedup *d, uint64_t n, const struct hash128 **ret,
			struct bo_err *err)
{
	const struct bo_log_entry *e = bo_log_entry(d->log, n);
	size_t i = (size_t) (n - d->epoch), per = READ_CHUNK / d->ss ? READ_CHUNK / d->ss : 1;
	struct hash128 *h;

	if (i >= d->cap_ent) {
		size_t cap = d->cap_ent ? d->cap_ent : 64;
		struct hash128 **v;

		while (cap <= i)
			cap *= 2;
		v = realloc(d->ent, cap * sizeof(*v));
		if (!v)
			return bo_err_set(err, ENOMEM, "state de-duplication");
		memset(v + d->cap_ent, 0, (cap - d->cap_ent) * sizeof(*v));
		d->ent = v;
		d->cap_ent = cap;
	}
	if (d->ent[i]) {
		*ret = d->ent[i];
		return 0;
	}
	h = calloc(e->nr_sectors ? e->nr_sectors : 1, sizeof(*h));
	if (!h)
		return bo_err_set(err, ENOMEM, "state de-duplication");
	for (uint64_t k = 0; k < e->nr_sectors;) {
		uint64_t m = e->nr_sectors - k < per ? e->nr_sectors - k : per;
		int r;

		if (e->flags & BO_LOG_DISCARD) {
			h[k++] = d->zero;
			continue;
		}
		r = bo_log_read_data(d->log, n, k * d->ss, d->buf, (size_t) (m * d->ss), err);
		if (r < 0) {
			free(h);
			return r;
		}
		for (uint64_t j = 0; j < m; j++)
			h[k + j] = hash_block(d->buf + j * d->ss, d->ss);
		k += m;
	}
	d->ent[i] = h;
	*ret = h;
	return 0;
}

static int blk_cmp(const void *x, const void *y)
{
	const struct blk *a = x, *b = y;

	if (a->sector != b->sector)
		return a->sector < b->sector ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

static bool op_mark(const struct bo_log *log, uint64_t n)
{
	const char *m = bo_log_mark_name(log, n);

	return m && (!strncmp(m, "issue:", 6) || !strncmp(m, "ack:", 4));
}

/*
 * The key of state @s: the blocks its kept entries leave, with their contents, and the
 * application operations marked in its epoch before its cut.
 */
static int state_key(struct bo_crashdedup *d, const struct bo_crash_state *s, struct hash128 *ret,
		     struct bo_err *err)
{
	struct hash128 key = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL};
	size_t nb = 0;
	unsigned di = 0;
	uint64_t ops = 0;

	for (uint64_t n = s->epoch_start; n < s->cut; n++) {
		const struct bo_log_entry *e = bo_log_entry(d->log, n);
		const struct hash128 *h = NULL;
		uint64_t keep = e->nr_sectors, part = 0;
		int r;

		if (op_mark(d->log, n)) {
			/* Which marks, not how many: the op sets are the marks before the cut. */
			fold(&key, n);
			ops++;
		}
		if (di < s->n_dropped && s->dropped[di] == n) {
			di++;
			continue;
		}
		if ((e->flags & BO_LOG_MARK) || e->nr_sectors == 0)
			continue;
		if (s->torn && s->torn_entry == n) {
			uint64_t bytes = bo_crash_torn_bytes(d->log, s);
			uint64_t ss = bo_log_sectorsize(d->log);

			keep = bytes / ss < keep ? bytes / ss : keep;
			/* A block torn inside: its own content, told apart by the bytes kept. */
			part = keep < e->nr_sectors ? bytes % ss : 0;
		}
		r = entry_hashes(d, n, &h, err);
		if (r < 0)
			return r;
		if (nb + keep + 1 > d->cap_blks) {
			size_t cap = d->cap_blks ? d->cap_blks : 256;
			struct blk *v;

			while (cap < nb + keep + 1)
				cap *= 2;
			v = realloc(d->blks, cap * sizeof(*v));
			if (!v)
				return bo_err_set(err, ENOMEM, "state de-duplication");
			d->blks = v;
			d->cap_blks = cap;
		}
		for (uint64_t k = 0; k < keep; k++)
			d->blks[nb++] = (struct blk){e->sector + k, n, h[k]};
		if (part) {
			struct hash128 ph = h[keep];

			ph.a ^= part * 0x9e3779b97f4a7c15ULL;
			ph.b ^= ~part;
			d->blks[nb++] = (struct blk){e->sector + keep, n, ph};
		}
	}
	if (nb > 1)
		qsort(d->blks, nb, sizeof(*d->blks), blk_cmp);
	fold(&key, ops);
	for (size_t i = 0; i < nb; i++) {
		/* The last write of a block is what the state holds. */
		if (i + 1 < nb && d->blks[i + 1].sector == d->blks[i].sector)
			continue;
		fold(&key, d->blks[i].sector);
		fold(&key, d->blks[i].h.a);
		fold(&key, d->blks[i].h.b);
	}
	*ret = key;
	return 0;
}

static int grow_slots(struct bo_crashdedup *d, struct bo_err *err)
{
	size_t n = d->n_slots ? 2 * d->n_slots : 64;
	size_t *v = calloc(n, sizeof(*v));

	if (!v)
		return bo_err_set(err, ENOMEM, "state de-duplication");
	free(d->slots);
	d->slots = v;
	d->n_slots = n;
	for (size_t i = 0; i < d->n_reps; i++) {
		size_t j = (size_t) d->reps[i].key.a & (n - 1);

		while (v[j])
			j = (j + 1) & (n - 1);
		v[j] = i + 1;
	}
	return 0;
}

int bo_crashdedup_add(struct bo_crashdedup *d, const struct bo_crash_state *s, const char *id,
		      size_t *ret_rep, struct bo_err *err)
{
	struct hash128 key;
	size_t j;
	int r;

	if (!d->have_epoch || s->epoch_start != d->epoch)
		forget_epoch(d, s->epoch_start);
	r = state_key(d, s, &key, err);
	if (r < 0)
		return r;
	if (2 * (d->n_reps + 1) > d->n_slots) {
		r = grow_slots(d, err);
		if (r < 0)
			return r;
	}
	for (j = (size_t) key.a & (d->n_slots - 1); d->slots[j]; j = (j + 1) & (d->n_slots - 1)) {
		const struct rep *p = &d->reps[d->slots[j] - 1];

		if (p->key.a == key.a && p->key.b == key.b) {
			*ret_rep = d->slots[j] - 1;
			return 1;
		}
	}
	if (d->n_reps == d->cap_reps) {
		size_t cap = d->cap_reps ? 2 * d->cap_reps : 64;
		struct rep *v = realloc(d->reps, cap * sizeof(*v));

		if (!v)
			return bo_err_set(err, ENOMEM, "state de-duplication");
		d->reps = v;
		d->cap_reps = cap;
	}
	d->reps[d->n_reps].key = key;
	d->reps[d->n_reps].tag = 0;
	snprintf(d->reps[d->n_reps].id, sizeof(d->reps[d->n_reps].id), "%s", id);
	d->slots[j] = ++d->n_reps;
	*ret_rep = d->n_reps - 1;
	return 0;
}

const char *bo_crashdedup_id(const struct bo_crashdedup *d, size_t rep)
{
	return d->reps[rep].id;
}

void bo_crashdedup_set_tag(struct bo_crashdedup *d, size_t rep, int tag)
{
	d->reps[rep].tag = tag;
}

int bo_crashdedup_tag(const struct bo_crashdedup *d, size_t rep)
{
	return d->reps[rep].tag;
}
