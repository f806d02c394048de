// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops data: the bytes a write puts in a file, derived from (seed, op id, file offset),
 * each 8-byte word decoded back to the op that wrote it; and the value a setxattr gives an
 * attribute, and the target a symlink op gives its link, decoded back likewise. The workload
 * writes them, the checker reads them.
 */
#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "scenarios/fsops/fsops.h"
#include "scenarios/fsops/model_int.h"

/*
 * The data a write puts at file word w (bytes [8w, 8w + 8)) names its op and can be read
 * back: the low FSOPS_ID_BITS bits are the op id masked by a value of (seed, w), the other
 * bits a check of (that value, id). So a word found in a file is decoded to the op that wrote
 * it at that offset in O(1) (fsops_decode()), and a word nothing wrote decodes to no op but
 * for a chance of 2^-44. A word of zeros is zeros: a write's word is never all zeros but for a
 * chance of 2^-64.
 */
#define ID_MASK ((1ull << FSOPS_ID_BITS) - 1)

/* The masks of the word indexes 0..n-1, for the seed they were made for. */
static struct {
	uint64_t seed;
	uint64_t n;
	uint64_t v[FSOPS_MAX_SIZE / 8];
} masks;

/* The masks of words 0..@words-1 (at most FSOPS_MAX_SIZE / 8), made as far as asked. */
static const uint64_t *word_masks(uint64_t seed, uint64_t words)
{
	uint64_t key = mix(seed ^ 0x9e3779b97f4a7c15ULL);

	if (masks.seed != seed)
		masks.n = 0;
	masks.seed = seed;
	words = words < FSOPS_MAX_SIZE / 8 ? words : FSOPS_MAX_SIZE / 8;
	for (; masks.n < words; masks.n++)
		masks.v[masks.n] = mix(key ^ (masks.n * 0xd6e8feb86659fd93ULL));
	return masks.v;
}

static uint64_t check_bits(uint64_t mask, uint64_t id)
{
	return ((mask ^ (id * 0x632be59bd9b4e019ULL)) * 0xbf58476d1ce4e5b9ULL) & ~ID_MASK;
}

static uint64_t word(const uint64_t *mask, uint64_t id, uint64_t w)
{
	return ((id ^ mask[w]) & ID_MASK) | check_bits(mask[w], id);
}

/* The 8 bytes at @p, least significant first. */
static inline uint64_t load_word(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

uint64_t fsops_decode(uint64_t seed, const uint8_t *data, uint64_t w, uint64_t at)
{
	const uint64_t *mask = word_masks(seed, at + 1);
	uint64_t v = load_word(data + 8 * w), id = (v ^ mask[at]) & ID_MASK;

	return v && (v & ~ID_MASK) == check_bits(mask[at], id) ? id : 0;
}

uint64_t fsops_decode_span(uint64_t seed, const uint8_t *data, uint64_t w, uint64_t end,
			   uint64_t id, uint64_t at)
{
	const uint64_t *mask;
	uint64_t i = w;

	end = end < FSOPS_MAX_SIZE / 8 ? end : FSOPS_MAX_SIZE / 8;
	if (id == 0) {
		while (i < end && load_word(data + 8 * i) == 0)
			i++;
		return i - w;
	}
	/* Only as many words as it wrote from at on before the largest size. */
	if (end - w > FSOPS_MAX_SIZE / 8 - at)
		end = w + FSOPS_MAX_SIZE / 8 - at;
	mask = word_masks(seed, at + (end - w));
	while (i < end && load_word(data + 8 * i) == word(mask, id, at + (i - w)))
		i++;
	return i - w;
}

void fsops_fill(uint64_t seed, uint64_t id, uint64_t off, uint8_t *buf, size_t len)
{
	const uint64_t *mask = word_masks(seed, (off + len + 7) / 8);
	size_t i = 0;

	while (i < len) {
		uint64_t w = word(mask, id, (off + i) >> 3);
		unsigned b = (unsigned) ((off + i) & 7);

		if (b == 0 && len - i >= 8) {
			/* A whole word, least significant byte first. */
			for (b = 0; b < 8; b++)
				buf[i + b] = (uint8_t) (w >> (b * 8));
			i += 8;
			continue;
		}
		for (; b < 8 && i < len; b++)
			buf[i++] = (uint8_t) (w >> (b * 8));
	}
}

/* The check of setxattr op @id's value of attribute @x. */
static uint64_t xattr_check(uint64_t seed, uint64_t id, int x)
{
	return mix(mix(seed ^ 0x5851f42d4c957f2dULL) ^ (id * 0x9e3779b97f4a7c15ULL) ^ (uint64_t) x);
}

void fsops_xattr_value(uint64_t seed, uint64_t id, int x, char *buf, size_t len)
{
	snprintf(buf, len, "fsops %llu %016llx", (unsigned long long) id,
		 (unsigned long long) xattr_check(seed, id, x));
}

void fsops_symlink_target(uint64_t seed, uint64_t id, char *buf, size_t len)
{
	fsops_xattr_value(seed, id, FSOPS_NXATTRS, buf, len);
}

uint64_t fsops_symlink_decode(uint64_t seed, const char *v, size_t len)
{
	return fsops_xattr_decode(seed, FSOPS_NXATTRS, v, len);
}

uint64_t fsops_xattr_decode(uint64_t seed, int x, const char *v, size_t len)
{
	char want[64];
	uint64_t id = 0;
	size_t i = 6;

	if (len < 8 || len > 40 || memcmp(v, "fsops ", 6))
		return 0;
	for (; i < len && v[i] >= '0' && v[i] <= '9' && id <= FSOPS_MAX_OPS; i++)
		id = 10 * id + (uint64_t) (v[i] - '0');
	if (id == 0 || id > FSOPS_MAX_OPS)
		return 0;
	fsops_xattr_value(seed, id, x, want, sizeof(want));
	return strlen(want) == len && !memcmp(want, v, len) ? id : 0;
}
