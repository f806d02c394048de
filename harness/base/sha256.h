/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sha256.h — SHA-256 (FIPS 180-4) through OpenSSL's EVP, for cache keys and the identities of
 * logs and scenarios. Not for anything secret.
 */
#ifndef BO_SHA256_H
#define BO_SHA256_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/base/macro.h"
#include "harness/base/util.h"

#define BO_SHA256_LEN 32
#define BO_SHA256_HEX (2 * BO_SHA256_LEN + 1)

struct evp_md_ctx_st;

/* A digest being fed. Zero it before bo_sha256_init(); release it with bo_sha256_done(). */
struct bo_sha256 {
	struct evp_md_ctx_st *ctx;
	bool failed;
};

/* Start a new digest in @s: 0, or -ENOMEM, or -ENOPKG when libcrypto cannot be loaded, said
 * in @err (nothing to release then). */
_must_check_ int bo_sha256_init(struct bo_sha256 *s, struct bo_err *err);

/* Feed @len bytes at @data into the digest; a failure is reported by bo_sha256_final_hex(). */
void bo_sha256_update(struct bo_sha256 *s, const void *data, size_t len);

/* Finish the digest as 64 lowercase hex digits and a NUL at @hex: 0, or -EIO. */
_must_check_ int bo_sha256_final_hex(struct bo_sha256 *s, char hex[BO_SHA256_HEX]);

/* The path of the libcrypto that hashes, for a VM that must hash too; NULL without one. */
const char *bo_sha256_library(void);

/* Release @s, started or not; it may be started again. */
void bo_sha256_done(struct bo_sha256 *s);

/* A digest released when it goes out of scope. */
#define _cleanup_sha256_ _cleanup_(bo_sha256_done)

/* The sha256 of the file at @path, as lowercase hex. */
_must_check_ int bo_sha256_file(const char *path, char hex[BO_SHA256_HEX], struct bo_err *err);

/* The same of the file open as @fd, from its start (@what names it in messages): one the
 * caller opened and checked by the rule of harness/base/input.h. */
_must_check_ int bo_sha256_fd(int fd, const char *what, char hex[BO_SHA256_HEX],
			      struct bo_err *err);

/*
 * The same, and a copy of the file made at @copy (which must not exist) in the same pass: a
 * file of gigabytes is read once rather than once to copy and once more to hash.
 */
_must_check_ int bo_sha256_copy_file(const char *path, const char *copy, char hex[BO_SHA256_HEX],
				     struct bo_err *err);

#endif
