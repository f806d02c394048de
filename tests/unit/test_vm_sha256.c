// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SHA-256: the FIPS 180-4 example vectors, feeding in pieces changes nothing, a digest is
 * reused and released, and the copy made while hashing is the file or nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/base/sha256.h"

static void hex_of(const void *data, size_t len, size_t piece, char out[BO_SHA256_HEX])
{
	_cleanup_sha256_ struct bo_sha256 s = {0};

	CU_ASSERT_FATAL(bo_sha256_init(&s, NULL) == 0);
	for (size_t off = 0; off < len; off += piece)
		bo_sha256_update(&s, (const char *) data + off,
				 len - off < piece ? len - off : piece);
	CU_ASSERT_FATAL(bo_sha256_final_hex(&s, out) == 0);
}

static void test_vectors(void)
{
	static const char two_blocks[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[BO_SHA256_HEX];

	hex_of("", 0, 1, hex);
	CU_ASSERT_STRING_EQUAL(hex,
			       "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abc", 3, 3, hex);
	CU_ASSERT_STRING_EQUAL(hex,
			       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hex_of(two_blocks, strlen(two_blocks), 64, hex);
	CU_ASSERT_STRING_EQUAL(hex,
			       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_pieces(void)
{
	static char million[1000000];
	char a[BO_SHA256_HEX], b[BO_SHA256_HEX];

	memset(million, 'a', sizeof(million));
	hex_of(million, sizeof(million), sizeof(million), a);
	CU_ASSERT_STRING_EQUAL(a,
			       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* 55, 56 and 63 bytes straddle the padding boundary; odd pieces cross blocks. */
	hex_of(million, sizeof(million), 997, b);
	CU_ASSERT_STRING_EQUAL(a, b);
	hex_of(million, 56, 56, a);
	hex_of(million, 56, 7, b);
	CU_ASSERT_STRING_EQUAL(a, b);
	hex_of(million, 55, 55, a);
	hex_of(million, 63, 63, b);
	CU_ASSERT_STRING_NOT_EQUAL(a, b);
}

/* One digest started again after it finished gives the same answers; released twice is fine. */
static void test_reuse(void)
{
	_cleanup_sha256_ struct bo_sha256 s = {0};
	char a[BO_SHA256_HEX], b[BO_SHA256_HEX];

	for (int i = 0; i < 2; i++) {
		CU_ASSERT_FATAL(bo_sha256_init(&s, NULL) == 0);
		bo_sha256_update(&s, "abc", 3);
		CU_ASSERT_FATAL(bo_sha256_final_hex(&s, i ? b : a) == 0);
	}
	CU_ASSERT_STRING_EQUAL(a, b);
	CU_ASSERT_STRING_EQUAL(a,
			       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	bo_sha256_done(&s);
	bo_sha256_done(&s);
	/* The library that hashed, for a VM that must hash too (check --hash ships it). */
	CU_ASSERT(bo_sha256_library() != NULL && bo_sha256_library()[0] == '/' &&
		  strstr(bo_sha256_library(), "libcrypto") != NULL);
}

/* A copy made while hashing: the same bytes, the same digest; an existing copy is refused. */
static void test_copy_file(void)
{
	const char *src = bo_test_path("src.bin"), *dst = bo_test_path("copy.bin");
	static uint8_t data[(3 << 20) + 17], back[sizeof(data)];
	char a[BO_SHA256_HEX], b[BO_SHA256_HEX];
	struct bo_err err = {0};
	FILE *f;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t) (i * 131 + (i >> 12));
	f = fopen(src, "wb");
	CU_ASSERT_FATAL(f && fwrite(data, 1, sizeof(data), f) == sizeof(data));
	fclose(f);
	CU_ASSERT_FATAL(bo_sha256_copy_file(src, dst, a, &err) == 0);
	CU_ASSERT_FATAL(bo_sha256_file(src, b, &err) == 0);
	CU_ASSERT_STRING_EQUAL(a, b);
	f = fopen(dst, "rb");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fread(back, 1, sizeof(back), f) == sizeof(back) && fgetc(f) == EOF);
	fclose(f);
	CU_ASSERT(memcmp(data, back, sizeof(data)) == 0);
	CU_ASSERT(bo_sha256_copy_file(src, dst, a, &err) == -EEXIST);
	CU_ASSERT(strstr(err.msg, "copy.bin") != NULL);
	/* The file open as a descriptor: the same digest, whatever its offset. */
	{
		int fd = open(src, O_RDONLY);

		CU_ASSERT_FATAL(fd >= 0);
		CU_ASSERT(lseek(fd, 1000, SEEK_SET) == 1000);
		CU_ASSERT(bo_sha256_fd(fd, "src.bin", b, &err) == 0);
		CU_ASSERT_STRING_EQUAL(a, b);
		close(fd);
		CU_ASSERT(bo_sha256_fd(-1, "nothing", b, &err) == -EBADF);
		CU_ASSERT(strstr(err.msg, "nothing") != NULL);
	}
}

/* A source that cannot be read to its end leaves no half copy behind. */
static void test_copy_fails_clean(void)
{
	const char *dst = bo_test_path("half.bin");
	char hex[BO_SHA256_HEX];
	struct bo_err err = {0};

	CU_ASSERT(bo_sha256_copy_file(bo_test_path(""), dst, hex, &err) == -EISDIR);
	CU_ASSERT(strstr(err.msg, "hashing") != NULL);
	CU_ASSERT(access(dst, F_OK) < 0 && errno == ENOENT);
	CU_ASSERT(bo_sha256_file(bo_test_path("no-such-file"), hex, &err) == -ENOENT);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"FIPS 180-4 vectors", test_vectors},
		{"feeding in pieces", test_pieces},
		{"a digest started again", test_reuse},
		{"a copy made while hashing", test_copy_file},
		{"a failed copy leaves nothing", test_copy_fails_clean},
		{NULL, NULL},
	};

	return bo_test_run("vm_sha256", tests);
}
