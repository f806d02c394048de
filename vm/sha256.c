// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sha256.c — SHA-256 as specified in FIPS 180-4, section 6.2.
 */
#include "vm/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cleanup.h"

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

static void block(struct bo_sha256 *s, const uint8_t *p)
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
	a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
			      k[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		h = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
	s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
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

		if (n > len)
			n = len;
		memcpy(s->buf + s->used, p, n);
		s->used += n;
		p += n;
		len -= n;
		if (s->used == sizeof(s->buf)) {
			block(s, s->buf);
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
		block(s, s->buf);
		s->used = 0;
	}
	memset(s->buf + s->used, 0, 56 - s->used);
	for (int i = 0; i < 8; i++)
		s->buf[56 + i] = (uint8_t) (bits >> (56 - 8 * i));
	block(s, s->buf);
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

int bo_sha256_file(const char *path, char hex[BO_SHA256_HEX], struct bo_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ uint8_t *buf = malloc(1 << 20);
	struct bo_sha256 h;
	uint64_t off = 0;

	if (fd < 0 || !buf)
		return bo_err_set(err, fd < 0 ? errno : ENOMEM, "hashing '%s': %s", path,
				  strerror(fd < 0 ? errno : ENOMEM));
	bo_sha256_init(&h);
	for (;;) {
		ssize_t n = bo_pread_full(fd, buf, 1 << 20, off);

		if (n < 0)
			return bo_err_set(err, (int) -n, "hashing '%s': %s", path,
					  strerror((int) -n));
		if (n == 0)
			break;
		bo_sha256_update(&h, buf, (size_t) n);
		off += (uint64_t) n;
	}
	bo_sha256_final_hex(&h, hex);
	return 0;
}
