// SPDX-License-Identifier: GPL-2.0-or-later
/* dm-linear's table. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "dmtargets/linear.h"

static void test_table(void)
{
	struct bo_err err = {0};
	char *t = NULL;

	CU_ASSERT_FATAL(bo_linear_table(2048, "/dev/loop0", 0, &t, &err) == 0);
	CU_ASSERT_STRING_EQUAL(t, "0 2048 linear /dev/loop0 0");
	free(t);
	CU_ASSERT_FATAL(bo_linear_table(100, "/dev/mapper/x", 4096, &t, &err) == 0);
	CU_ASSERT_STRING_EQUAL(t, "0 100 linear /dev/mapper/x 4096");
	free(t);

	t = NULL;
	CU_ASSERT(bo_linear_table(0, "/dev/loop0", 0, &t, &err) == -EINVAL);
	CU_ASSERT(bo_linear_table(8, "/dev/loop0", UINT64_MAX - 4, &t, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "overflows") != NULL);
	CU_ASSERT(bo_linear_table(8, "", 0, &t, &err) == -EINVAL);
	CU_ASSERT(t == NULL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"table", test_table},
		{NULL, NULL},
	};

	return bo_test_run("linear", tests);
}
