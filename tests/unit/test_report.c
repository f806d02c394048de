// SPDX-License-Identifier: GPL-2.0-or-later
/* Escaping for report.html and junit.xml: markup, quotes, control characters and every kind
 * of invalid UTF-8 the guest could write. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "harness/report.h"

#define BAD "\xef\xbf\xbd"

static char *escaped(const char *s, size_t len)
{
	static char *buf;
	size_t n = 0;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &n);
	bo_report_escape(f, s, len);
	fclose(f);
	return buf;
}

#define ESC(lit) escaped(lit, sizeof(lit) - 1)

static void test_markup(void)
{
	CU_ASSERT_STRING_EQUAL(ESC("<a href='x'>&\"</a>"),
			       "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
	CU_ASSERT_STRING_EQUAL(ESC("tab\tnl\n"), "tab\tnl\n");
	CU_ASSERT_STRING_EQUAL(ESC("cr\r esc\x1b del\x7f"), "cr" BAD " esc" BAD " del" BAD);
	CU_ASSERT_STRING_EQUAL(escaped("a\0b", 3), "a" BAD "b");
}

static void test_utf8(void)
{
	/* Valid: 2, 3 and 4 bytes. */
	CU_ASSERT_STRING_EQUAL(ESC("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
			       "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	/* A lone continuation byte, a truncated sequence, 0xff. */
	CU_ASSERT_STRING_EQUAL(ESC("\x80x"), BAD "x");
	CU_ASSERT_STRING_EQUAL(ESC("\xe2\x82"), BAD BAD);
	CU_ASSERT_STRING_EQUAL(ESC("\xff"), BAD);
	/* Overlong '<' must not become markup; surrogates, beyond U+10FFFF, U+FFFE. */
	CU_ASSERT_STRING_EQUAL(ESC("\xc0\xbc"), BAD BAD);
	CU_ASSERT_STRING_EQUAL(ESC("\xe0\x80\xbc"), BAD BAD BAD);
	CU_ASSERT_STRING_EQUAL(ESC("\xed\xa0\x80"), BAD BAD BAD);
	CU_ASSERT_STRING_EQUAL(ESC("\xf4\x90\x80\x80"), BAD BAD BAD BAD);
	CU_ASSERT_STRING_EQUAL(ESC("\xef\xbf\xbe"), BAD BAD BAD);
	/* A sequence cut by the end of the buffer. */
	CU_ASSERT_STRING_EQUAL(escaped("\xc3\xa9", 1), BAD);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"markup", test_markup},
		{"utf-8", test_utf8},
		{},
	};

	return bo_test_run("report", tests);
}
