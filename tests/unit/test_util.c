// SPDX-License-Identifier: GPL-2.0-or-later
/* Number parsing (harness/base/util.h): whole decimal numbers, numbers within a range, shares
 * "I/N". */
#include <errno.h>
#include <stdint.h>

#include "bo_test.h"
#include "harness/base/util.h"

static void test_u64_in(void)
{
	uint64_t v = 7;

	CU_ASSERT(bo_parse_u64_in("0", 0, 10, &v) == 0 && v == 0);
	CU_ASSERT(bo_parse_u64_in("10", 0, 10, &v) == 0 && v == 10);
	CU_ASSERT(bo_parse_u64_in("4096", 512, 1 << 20, &v) == 0 && v == 4096);
	CU_ASSERT(bo_parse_u64_in("18446744073709551615", 0, UINT64_MAX, &v) == 0 &&
		  v == UINT64_MAX);
	/* Outside the range: -ERANGE, and the value left alone. */
	v = 7;
	CU_ASSERT(bo_parse_u64_in("11", 0, 10, &v) == -ERANGE);
	CU_ASSERT(bo_parse_u64_in("511", 512, 4096, &v) == -ERANGE);
	/* Past 32 bits: never its low bits (4294971392 is 2^32 + 4096). */
	CU_ASSERT(bo_parse_u64_in("4294971392", 0, UINT32_MAX, &v) == -ERANGE);
	CU_ASSERT(bo_parse_u64_in("18446744073709551616", 0, UINT64_MAX, &v) == -ERANGE);
	CU_ASSERT(v == 7);
	/* Not a number at all: -EINVAL. */
	CU_ASSERT(bo_parse_u64_in("", 0, 10, &v) == -EINVAL);
	CU_ASSERT(bo_parse_u64_in("-1", 0, 10, &v) == -EINVAL);
	CU_ASSERT(bo_parse_u64_in("0x10", 0, 100, &v) == -EINVAL);
	CU_ASSERT(bo_parse_u64_in("5 ", 0, 10, &v) == -EINVAL);
	CU_ASSERT(bo_parse_u64_in(NULL, 0, 10, &v) == -EINVAL);
	CU_ASSERT(v == 7);
}

static void test_share(void)
{
	unsigned i = 9, n = 9;

	CU_ASSERT(bo_parse_share("0/1", 4096, &i, &n) == 0 && i == 0 && n == 1);
	CU_ASSERT(bo_parse_share("3/4", 4096, &i, &n) == 0 && i == 3 && n == 4);
	CU_ASSERT(bo_parse_share("4095/4096", 4096, &i, &n) == 0 && i == 4095 && n == 4096);
	i = n = 9;
	CU_ASSERT(bo_parse_share("4/4", 4096, &i, &n) == -ERANGE);
	CU_ASSERT(bo_parse_share("0/0", 4096, &i, &n) == -ERANGE);
	CU_ASSERT(bo_parse_share("0/4097", 4096, &i, &n) == -ERANGE);
	/* 2^32 is not 0, nor 2^32 + 2 two: no low bits taken. */
	CU_ASSERT(bo_parse_share("4294967296/2", UINT64_MAX, &i, &n) == -ERANGE);
	CU_ASSERT(bo_parse_share("1/4294967298", UINT64_MAX, &i, &n) == -ERANGE);
	CU_ASSERT(bo_parse_share("1", 4096, &i, &n) == -EINVAL);
	CU_ASSERT(bo_parse_share("/2", 4096, &i, &n) == -EINVAL);
	CU_ASSERT(bo_parse_share("1/2/3", 4096, &i, &n) == -EINVAL);
	CU_ASSERT(bo_parse_share(" 1/2", 4096, &i, &n) == -EINVAL);
	CU_ASSERT(i == 9 && n == 9);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"a number within a range, never truncated", test_u64_in},
		{"a share I/N, never truncated", test_share},
		{NULL, NULL},
	};

	return bo_test_run("util", tests);
}
