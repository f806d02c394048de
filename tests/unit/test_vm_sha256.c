// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SHA-256: the FIPS 180-4 example vectors, and feeding in pieces changes nothing; both with the
 * processor's SHA extensions (where it has them) and with the portable code, which agree on
 * every length.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bo_test.h"
#include "harness/base/sha256.h"

static void hex_of(const void *data, size_t len, size_t piece, char out[BO_SHA256_HEX])
{
	struct bo_sha256 s;

	bo_sha256_init(&s);
	for (size_t off = 0; off < len; off += piece)
		bo_sha256_update(&s, (const char *) data + off,
				 len - off < piece ? len - off : piece);
	bo_sha256_final_hex(&s, out);
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

static void test_vectors_portable(void)
{
	bo_sha256_set_portable(true);
	test_vectors();
	test_pieces();
	bo_sha256_set_portable(false);
}

/* Every length from 0 to 1000 bytes and a few big ones, of seeded bytes, fed in odd pieces. */
static void test_portable_agrees(void)
{
	static uint8_t data[1 << 20];
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char a[BO_SHA256_HEX], b[BO_SHA256_HEX];
	unsigned bad = 0;

	for (size_t i = 0; i < sizeof(data); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		data[i] = (uint8_t) x;
	}
	for (size_t len = 0; len <= 1000 + 3; len++) {
		size_t n = len <= 1000 ? len : (size_t) 1 << (17 + len - 1000);

		bo_sha256_set_portable(true);
		hex_of(data, n, 61, a);
		bo_sha256_set_portable(false);
		hex_of(data, n, n ? n : 1, b);
		bad += strcmp(a, b) != 0;
	}
	CU_ASSERT_EQUAL(bad, 0);
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
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"FIPS 180-4 vectors", test_vectors},
		{"feeding in pieces", test_pieces},
		{"the same with the portable code", test_vectors_portable},
		{"portable and processor agree on every length", test_portable_agrees},
		{"a copy made while hashing", test_copy_file},
		{NULL, NULL},
	};

	return bo_test_run("vm_sha256", tests);
}
