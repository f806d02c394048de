// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel messages are read from a nonce on: a message logged before the nonce must not show,
 * one logged after must. Needs root (writing /dev/kmsg): exits 77 otherwise.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bo_test.h"
#include "harness/dev/kmsg.h"

static void say(const char *msg)
{
	int fd = open("/dev/kmsg", O_WRONLY);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(write(fd, msg, strlen(msg)) == (ssize_t) strlen(msg));
	close(fd);
}

static void test_nonce_anchored(void)
{
	struct bo_kmsg *k;
	struct bo_err err = {0};
	char *text = NULL, before[64], after[64];

	snprintf(before, sizeof(before), "bo-test before %d\n", getpid());
	snprintf(after, sizeof(after), "bo-test after %d\n", getpid());
	say(before);
	CU_ASSERT_FATAL(bo_kmsg_begin("unit test", &k, &err) == 0);
	say(after);
	CU_ASSERT_FATAL(bo_kmsg_collect(k, &text, &err) == 0);
	CU_ASSERT(strstr(text, after) != NULL);
	CU_ASSERT(strstr(text, before) == NULL);
	CU_ASSERT(strstr(text, "nonce") == NULL);
	free(text);
	bo_kmsg_free(k);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"messages are read from the nonce on", test_nonce_anchored},
		{NULL, NULL},
	};

	if (geteuid() != 0 || access("/dev/kmsg", W_OK) != 0) {
		fprintf(stderr, "SKIP: test_kmsg needs root and a writable /dev/kmsg\n");
		return 77;
	}
	return bo_test_run("kmsg", tests);
}
