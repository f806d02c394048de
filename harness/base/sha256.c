// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sha256.c — SHA-256 by OpenSSL's EVP interface (libcrypto, loaded on first use), which runs on the processor's SHA extensions
 * where it has them (x86-64 SHA-NI, the arm64 crypto extensions), and the one-pass copy that
 * hashes a log while it puts it in the results.
 */

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/sha256.h"
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * libcrypto, loaded when a digest is first asked for rather than linked: the binary that
 * boots in every VM then does not carry 4.7 MB of it into each initramfs (0.25 s a boot under
 * TCG) for the one guest-side use, check --hash, which ships it (bo_sha256_library()).
 */
static struct {
	bool tried;
	void *lib;
	EVP_MD_CTX *(*ctx_new)(void);
	void (*ctx_free)(EVP_MD_CTX *);
	const EVP_MD *(*sha256)(void);
	int (*init)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
	int (*update)(EVP_MD_CTX *, const void *, size_t);
	int (*final)(EVP_MD_CTX *, unsigned char *, unsigned int *);
} evp;

#define LIBCRYPTO "libcrypto.so.3"

static bool evp_load(void)
{
	if (evp.tried)
		return evp.lib != NULL;
	evp.tried = true;
	evp.lib = dlopen(LIBCRYPTO, RTLD_NOW | RTLD_LOCAL);
	if (!evp.lib)
		return false;
	*(void **) &evp.ctx_new = dlsym(evp.lib, "EVP_MD_CTX_new");
	*(void **) &evp.ctx_free = dlsym(evp.lib, "EVP_MD_CTX_free");
	*(void **) &evp.sha256 = dlsym(evp.lib, "EVP_sha256");
	*(void **) &evp.init = dlsym(evp.lib, "EVP_DigestInit_ex");
	*(void **) &evp.update = dlsym(evp.lib, "EVP_DigestUpdate");
	*(void **) &evp.final = dlsym(evp.lib, "EVP_DigestFinal_ex");
	if (!evp.ctx_new || !evp.ctx_free || !evp.sha256 || !evp.init || !evp.update ||
	    !evp.final) {
		dlclose(evp.lib);
		evp.lib = NULL;
	}
	return evp.lib != NULL;
}

const char *bo_sha256_library(void)
{
	static char path[PATH_MAX];
	Dl_info info;

	if (!evp_load() || !dladdr(*(void **) &evp.sha256, &info) || !info.dli_fname)
		return NULL;
	return realpath(info.dli_fname, path) ? path : NULL;
}

int bo_sha256_init(struct bo_sha256 *s, struct bo_err *err)
{
	s->failed = false;
	if (!evp_load())
		return bo_err_set(err, ENOPKG, "cannot load " LIBCRYPTO " (package libssl3)");
	if (!s->ctx)
		s->ctx = evp.ctx_new();
	if (!s->ctx)
		return bo_err_set(err, ENOMEM, "out of memory");
	if (evp.init(s->ctx, evp.sha256(), NULL) != 1)
		s->failed = true;
	return 0;
}

void bo_sha256_update(struct bo_sha256 *s, const void *data, size_t len)
{
	if (!s->failed && evp.update(s->ctx, data, len) != 1)
		s->failed = true;
}

int bo_sha256_final_hex(struct bo_sha256 *s, char hex[BO_SHA256_HEX])
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (s->failed || evp.final(s->ctx, d, &n) != 1 || n != BO_SHA256_LEN) {
		s->failed = true;
		return -EIO;
	}
	for (unsigned int i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	return 0;
}

void bo_sha256_done(struct bo_sha256 *s)
{
	if (s->ctx)
		evp.ctx_free(s->ctx);
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
	uint64_t size = 0;
	_cleanup_close_ int fd = -1;
	_cleanup_close_ int out = -1;
	_cleanup_sha256_ struct bo_sha256 h = {0};
	int r;

	/* A copy is of an input (a log from a bug report): by the rule of input.h. */
	if (copy) {
		fd = bo_input_open_path(path, BO_INPUT_BLOCKDEV, 0, &size, err);
		if (fd < 0)
			return err ? bo_err_prefix(err, "hashing") : fd;
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return bo_err_set(err, errno, "hashing '%s': %s", path, strerror(errno));
	}
	r = bo_sha256_init(&h, err);
	if (r < 0)
		return err ? bo_err_prefix(err, "hashing '%s'", path) : r;
	if (copy) {
		r = bo_space_check(copy, size, "copying the log", err);
		if (r < 0)
			return r;
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

int bo_sha256_fd(int fd, const char *what, char hex[BO_SHA256_HEX], struct bo_err *err)
{
	_cleanup_sha256_ struct bo_sha256 h = {0};
	int r = bo_sha256_init(&h, err);

	if (r < 0)
		return err ? bo_err_prefix(err, "hashing '%s'", what) : r;
	r = hash_fd(fd, -1, &h, what, NULL, err);
	if (r >= 0 && bo_sha256_final_hex(&h, hex) < 0)
		r = bo_err_set(err, EIO, "hashing '%s': the digest failed", what);
	return r;
}
