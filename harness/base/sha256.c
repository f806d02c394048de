// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sha256.c — SHA-256 as specified in FIPS 180-4, section 6.2. On x86-64 processors with the
 * SHA extensions the compression runs on them (six times faster: a log of a gigabyte is hashed
 * in about a second instead of six); elsewhere in portable C.
 */

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/sha256.h"
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static inline uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void block_portable(uint32_t *st, const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t) p[4 * i] << 24 | (uint32_t) p[4 * i + 1] << 16 |
		       (uint32_t) p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = st[0], b = st[1], c = st[2], d = st[3];
	e = st[4], f = st[5], g = st[6], h = st[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
			      k[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		h = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	st[0] += a, st[1] += b, st[2] += c, st[3] += d;
	st[4] += e, st[5] += f, st[6] += g, st[7] += h;
}

static void blocks_portable(uint32_t st[8], const uint8_t *p, size_t n)
{
	for (; n; n--, p += 64)
		block_portable(st, p);
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/*
 * @n blocks with the SHA extensions. They keep the state in two registers, ABEF and CDGH
 * (highest lane first); sha256rnds2 does two rounds, and sha256msg1/msg2 extend the message
 * schedule four words at a time.
 */
__attribute__((target("sha,sse4.1,ssse3"))) static void blocks_shani(uint32_t st[8],
								     const uint8_t *p, size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *) &st[0]), 0xB1);
	__m128i s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *) &st[4]), 0x1B);
	__m128i s0 = _mm_alignr_epi8(t, s1, 8); /* ABEF */

	s1 = _mm_blend_epi16(s1, t, 0xF0); /* CDGH */
	for (; n; n--, p += 64) {
		__m128i a0 = s0, c0 = s1, w[16];

		for (int i = 0; i < 4; i++)
			w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *) (p + 16 * i)),
						bswap);
		/* W[t..t+3] from W[t-16..t-13], W[t-12..t-9], W[t-7..t-4] and W[t-4..t-1] */
		for (int i = 4; i < 16; i++)
			w[i] = _mm_sha256msg2_epu32(
				_mm_add_epi32(_mm_sha256msg1_epu32(w[i - 4], w[i - 3]),
					      _mm_alignr_epi8(w[i - 1], w[i - 2], 4)),
				w[i - 1]);
		for (int i = 0; i < 16; i++) {
			__m128i m =
				_mm_add_epi32(w[i], _mm_loadu_si128((const __m128i *) &k[4 * i]));

			s1 = _mm_sha256rnds2_epu32(s1, s0, m);
			s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(m, 0x0E));
		}
		s0 = _mm_add_epi32(s0, a0);
		s1 = _mm_add_epi32(s1, c0);
	}
	t = _mm_shuffle_epi32(s0, 0x1B);
	s1 = _mm_shuffle_epi32(s1, 0xB1);
	_mm_storeu_si128((__m128i *) &st[0], _mm_blend_epi16(t, s1, 0xF0));
	_mm_storeu_si128((__m128i *) &st[4], _mm_alignr_epi8(s1, t, 8));
}

static bool cpu_has_shani(void)
{
	unsigned a, b, c, d;

	/* SSSE3 and SSE4.1 (leaf 1, ECX bits 9 and 19), SHA (leaf 7, EBX bit 29). */
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 9)) || !(c & (1u << 19)))
		return false;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
}
#else
static bool cpu_has_shani(void)
{
	return false;
}
#define blocks_shani blocks_portable
#endif

/* -1: not decided yet; then 0 (portable) or 1 (SHA extensions). */
static int use_shani = -1;

void bo_sha256_set_portable(bool portable)
{
	use_shani = portable ? 0 : cpu_has_shani();
}

static void blocks(struct bo_sha256 *s, const uint8_t *p, size_t n)
{
	if (use_shani < 0)
		use_shani = cpu_has_shani();
	if (use_shani)
		blocks_shani(s->h, p, n);
	else
		blocks_portable(s->h, p, n);
}

void bo_sha256_init(struct bo_sha256 *s)
{
	static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
	s->used = 0;
}

void bo_sha256_update(struct bo_sha256 *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->len += len;
	while (len) {
		size_t n = sizeof(s->buf) - s->used;

		/* Whole blocks straight from the input. */
		if (s->used == 0 && len >= sizeof(s->buf)) {
			n = len / sizeof(s->buf);
			blocks(s, p, n);
			p += n * sizeof(s->buf);
			len -= n * sizeof(s->buf);
			continue;
		}
		if (n > len)
			n = len;
		memcpy(s->buf + s->used, p, n);
		s->used += n;
		p += n;
		len -= n;
		if (s->used == sizeof(s->buf)) {
			blocks(s, s->buf, 1);
			s->used = 0;
		}
	}
}

void bo_sha256_final(struct bo_sha256 *s, uint8_t out[BO_SHA256_LEN])
{
	uint64_t bits = s->len * 8;

	s->buf[s->used++] = 0x80;
	if (s->used > 56) {
		memset(s->buf + s->used, 0, sizeof(s->buf) - s->used);
		blocks(s, s->buf, 1);
		s->used = 0;
	}
	memset(s->buf + s->used, 0, 56 - s->used);
	for (int i = 0; i < 8; i++)
		s->buf[56 + i] = (uint8_t) (bits >> (56 - 8 * i));
	blocks(s, s->buf, 1);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t) (s->h[i] >> 24);
		out[4 * i + 1] = (uint8_t) (s->h[i] >> 16);
		out[4 * i + 2] = (uint8_t) (s->h[i] >> 8);
		out[4 * i + 3] = (uint8_t) s->h[i];
	}
}

void bo_sha256_final_hex(struct bo_sha256 *s, char hex[BO_SHA256_HEX])
{
	uint8_t d[BO_SHA256_LEN];

	bo_sha256_final(s, d);
	for (int i = 0; i < BO_SHA256_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

int bo_sha256_copy_file(const char *path, const char *copy, char hex[BO_SHA256_HEX],
			struct bo_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int out = -1;
	_cleanup_free_ uint8_t *buf = malloc(1 << 20);
	struct bo_sha256 h;
	uint64_t off = 0;

	if (fd < 0 || !buf)
		return bo_err_set(err, fd < 0 ? errno : ENOMEM, "hashing '%s': %s", path,
				  strerror(fd < 0 ? errno : ENOMEM));
	if (copy) {
		out = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (out < 0)
			return bo_err_set(err, errno, "creating '%s': %s", copy, strerror(errno));
	}
	bo_sha256_init(&h);
	for (;;) {
		ssize_t n = bo_pread_full(fd, buf, 1 << 20, off);
		int r;

		if (n < 0)
			return bo_err_set(err, (int) -n, "hashing '%s': %s", path,
					  strerror((int) -n));
		if (n == 0)
			break;
		bo_sha256_update(&h, buf, (size_t) n);
		r = out >= 0 ? bo_pwrite_full(out, buf, (size_t) n, off) : 0;
		if (r < 0)
			return bo_err_set(err, -r, "writing '%s': %s", copy, strerror(-r));
		off += (uint64_t) n;
	}
	bo_sha256_final_hex(&h, hex);
	return 0;
}

int bo_sha256_file(const char *path, char hex[BO_SHA256_HEX], struct bo_err *err)
{
	return bo_sha256_copy_file(path, NULL, hex, err);
}
