// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sha256.c — SHA-256 by OpenSSL's EVP interface, which runs on the processor's SHA extensions
 * where it has them (x86-64 SHA-NI, the arm64 crypto extensions), and the one-pass copy that
 * hashes a log while it puts it in the results.
 */

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/sha256.h"
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bo_sha256_init(struct bo_sha256 *s)
{
	s->failed = false;
	if (!s->ctx)
		s->ctx = EVP_MD_CTX_new();
	if (!s->ctx)
		return -ENOMEM;
	if (EVP_DigestInit_ex(s->ctx, EVP_sha256(), NULL) != 1)
		s->failed = true;
	return 0;
}

void bo_sha256_update(struct bo_sha256 *s, const void *data, size_t len)
{
	if (!s->failed && EVP_DigestUpdate(s->ctx, data, len) != 1)
		s->failed = true;
}

int bo_sha256_final_hex(struct bo_sha256 *s, char hex[BO_SHA256_HEX])
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (s->failed || EVP_DigestFinal_ex(s->ctx, d, &n) != 1 || n != BO_SHA256_LEN) {
		s->failed = true;
		return -EIO;
	}
	for (unsigned int i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	return 0;
}

void bo_sha256_done(struct bo_sha256 *s)
{
	EVP_MD_CTX_free(s->ctx);
	s->ctx = NULL;
}

/* Feed @fd into @h, writing each piece to @out as well (when >= 0). */
static int hash_fd(int fd, int out, struct bo_sha256 *h, const char *path, const char *copy,
		   struct bo_err *err)
{
	_cleanup_free_ uint8_t *buf = malloc(1 << 20);
	uint64_t off = 0;

	if (!buf)
		return bo_err_set(err, ENOMEM, "hashing '%s': %s", path, strerror(ENOMEM));
	for (;;) {
		ssize_t n = bo_pread_full(fd, buf, 1 << 20, off);
		int r;

		if (n < 0)
			return bo_err_set(err, (int) -n, "hashing '%s': %s", path,
					  strerror((int) -n));
		if (n == 0)
			return 0;
		bo_sha256_update(h, buf, (size_t) n);
		r = out >= 0 ? bo_pwrite_full(out, buf, (size_t) n, off) : 0;
		if (r < 0)
			return bo_err_set(err, -r, "writing '%s': %s", copy, strerror(-r));
		off += (uint64_t) n;
	}
}

int bo_sha256_copy_file(const char *path, const char *copy, char hex[BO_SHA256_HEX],
			struct bo_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int out = -1;
	_cleanup_sha256_ struct bo_sha256 h = {0};
	int r;

	if (fd < 0)
		return bo_err_set(err, errno, "hashing '%s': %s", path, strerror(errno));
	if (bo_sha256_init(&h) < 0)
		return bo_err_set(err, ENOMEM, "hashing '%s': %s", path, strerror(ENOMEM));
	if (copy) {
		out = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (out < 0)
			return bo_err_set(err, errno, "creating '%s': %s", copy, strerror(errno));
	}
	r = hash_fd(fd, out, &h, path, copy, err);
	if (r >= 0 && bo_sha256_final_hex(&h, hex) < 0)
		r = bo_err_set(err, EIO, "hashing '%s': the digest failed", path);
	if (r < 0 && copy)
		unlink(copy); /* no half copy left behind */
	return r;
}

int bo_sha256_file(const char *path, char hex[BO_SHA256_HEX], struct bo_err *err)
{
	return bo_sha256_copy_file(path, NULL, hex, err);
}
