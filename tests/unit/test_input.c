// SPDX-License-Identifier: GPL-2.0-or-later
/* Readers of what strangers wrote: the bounded line reader. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "harness/base/input.h"

/* The lines of the @len bytes @text, read with a bound of @max, each checked against the next
 * of @want (NULL-terminated); what the reader ended with. */
static ssize_t lines(const char *text, size_t len, size_t max, const char *const *want)
{
	FILE *f = fmemopen((void *) text, len, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	CU_ASSERT_FATAL(f != NULL);
	while ((n = bo_input_read_line(f, max, &buf, &cap)) > 0) {
		CU_ASSERT_FATAL(*want != NULL);
		CU_ASSERT(n == (ssize_t) strlen(*want) && !memcmp(buf, *want, (size_t) n));
		CU_ASSERT(buf[n] == '\0');
		want++;
	}
	CU_ASSERT(n < 0 || *want == NULL);
	free(buf);
	fclose(f);
	return n;
}

static void test_lines(void)
{
	static const char *const three[] = {"a\n", "\n", "bc", NULL};
	static const char *const none[] = {NULL};
	char *big = malloc(10001);
	char *two = malloc(20003);
	const char *want[3] = {big, NULL, NULL};

	/* Lines with their newline, an empty one, the last without: as getline() gives them. */
	CU_ASSERT(lines("a\n\nbc", 5, 100, three) == 0);
	CU_ASSERT(lines("", 0, 100, none) == 0);
	/* A line of exactly the bound is one; a byte more is too long, wherever it is. */
	CU_ASSERT(lines("abcd\n", 5, 4, (const char *const[]){"abcd\n", NULL}) == 0);
	CU_ASSERT(lines("abcd", 4, 4, (const char *const[]){"abcd", NULL}) == 0);
	CU_ASSERT(lines("abcde\nx\n", 8, 4, none) == -E2BIG);
	CU_ASSERT(lines("a\nabcde", 7, 4, (const char *const[]){"a\n", NULL}) == -E2BIG);
	/* Lines over many of the reader's pieces, a newline where a piece ends. */
	CU_ASSERT_FATAL(big && two);
	memset(big, 'x', 10000);
	big[9999] = '\n';
	big[10000] = '\0';
	CU_ASSERT(lines(big, 10000, 10000, want) == 0);
	CU_ASSERT(lines(big, 10000, 9998, none) == -E2BIG);
	for (size_t at = 255; at < 20000; at = at * 2 + 1) {
		memset(two, 'y', 20002);
		two[at] = '\n';
		two[20002] = '\0';
		want[0] = strndup(two, at + 1);
		want[1] = two + at + 1;
		CU_ASSERT(lines(two, 20002, 20002, want) == 0);
		free((char *) want[0]);
	}
	free(big);
	free(two);
}

/* A NUL inside a line is part of it: the line's length says so, not strlen(). */
static void test_line_nul(void)
{
	static const char text[] = "a\0b\nc\0\0\nlast\0";
	FILE *f = fmemopen((void *) text, sizeof(text) - 1, "r");
	char *buf = NULL;
	size_t cap = 0;

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(bo_input_read_line(f, 100, &buf, &cap) == 4 && !memcmp(buf, "a\0b\n", 4));
	CU_ASSERT(bo_input_read_line(f, 100, &buf, &cap) == 4 && !memcmp(buf, "c\0\0\n", 4));
	CU_ASSERT(bo_input_read_line(f, 100, &buf, &cap) == 5 && !memcmp(buf, "last\0", 5));
	CU_ASSERT(bo_input_read_line(f, 100, &buf, &cap) == 0);
	free(buf);
	fclose(f);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"lines bounded, as getline() reads them", test_lines},
		{"a NUL inside a line", test_line_nul},
		{NULL, NULL},
	};

	return bo_test_run("input", tests);
}
