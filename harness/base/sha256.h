/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sha256.h — SHA-256 (FIPS 180-4), for cache keys. Not for anything secret.
 */
#ifndef BO_SHA256_H
#define BO_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"

#define BO_SHA256_LEN 32
#define BO_SHA256_HEX (2 * BO_SHA256_LEN + 1)

struct bo_sha256 {
	uint32_t h[8];
	uint64_t len;
	uint8_t buf[64];
	size_t used;
};

/* Start a new digest in @s. */
void bo_sha256_init(struct bo_sha256 *s);

/* Feed @len bytes at @data into the digest. */
void bo_sha256_update(struct bo_sha256 *s, const void *data, size_t len);

/* Finish the digest and write it to @out (32 bytes); @s must be re-initialised to reuse it. */
void bo_sha256_final(struct bo_sha256 *s, uint8_t out[BO_SHA256_LEN]);

/* Finish the digest and write it as 64 lowercase hex digits and a NUL to @hex. */
void bo_sha256_final_hex(struct bo_sha256 *s, char hex[BO_SHA256_HEX]);

/*
 * Use the portable code even where the processor has SHA extensions (@portable true), or go
 * back to choosing by the processor (false). For tests that compare the two.
 */
void bo_sha256_set_portable(bool portable);

/* The sha256 of the file at @path, as lowercase hex. */
_must_check_ int bo_sha256_file(const char *path, char hex[BO_SHA256_HEX], struct bo_err *err);

/*
 * The same, and a copy of the file made at @copy (which must not exist) in the same pass: a
 * file of gigabytes is read once rather than once to copy and once more to hash.
 */
_must_check_ int bo_sha256_copy_file(const char *path, const char *copy, char hex[BO_SHA256_HEX],
				     struct bo_err *err);

#endif
