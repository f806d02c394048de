// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every writer of a report shares (report_util.h): the names and colours of the classes,
 * escaping for HTML and XML (bo_report_escape()), state ids safe as paths, by-products read
 * beneath the results directory and capped, config.json's strings.
 */
#include "harness/results/report_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/results/report.h"

const char *report_class_name(unsigned c)
{
	return c < BO_CLASS_COUNT ? bo_class_name((enum bo_class) c) : "unknown";
}

bool report_class_is_error(unsigned c)
{
	return c == BO_CLASS_HARNESS_ERROR || c == BO_CLASS_CHECKER_ERROR || c == UNKNOWN;
}

const char *report_class_color(unsigned c)
{
	static const char *const colors[NCLASS] = {
		[BO_CLASS_CONSISTENT] = "#43a047",
		[BO_CLASS_UNMOUNTABLE] = "#8e0000",
		[BO_CLASS_FSCK_DIRTY] = "#ef6c00",
		[BO_CLASS_LOST_ACK] = "#e53935",
		[BO_CLASS_REPAIR_FAILED] = "#5d4037",
		[BO_CLASS_PHANTOM] = "#8e24aa",
		[BO_CLASS_APP_RECOVERY_FAILED] = "#f9a825",
		[BO_CLASS_RECOVERY_UNSAFE] = "#c2185b",
		[BO_CLASS_CHECKER_ERROR] = "#546e7a",
		[BO_CLASS_HARNESS_ERROR] = "#212121",
		[UNKNOWN] = "#9e9e9e",
	};

	return c < NCLASS ? colors[c] : colors[UNKNOWN];
}

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF, and the XML non-characters. */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || cp == 0xfffe || cp == 0xffff)
		return 0;
	return len;
}

void bo_report_escape(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *) s;

	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		size_t n;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			i++;
			continue;
		case '<':
			fputs("&lt;", f);
			i++;
			continue;
		case '>':
			fputs("&gt;", f);
			i++;
			continue;
		case '"':
			fputs("&quot;", f);
			i++;
			continue;
		case '\'':
			fputs("&#39;", f);
			i++;
			continue;
		case '\t':
		case '\n':
			fputc(c, f);
			i++;
			continue;
		default:
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			fputs("\xef\xbf\xbd", f);
			i++;
			continue;
		}
		n = utf8_len(p + i, len - i);
		if (!n) {
			fputs("\xef\xbf\xbd", f);
			i++;
			continue;
		}
		fwrite(p + i, 1, n, f);
		i += n;
	}
}

void report_esc(FILE *f, const char *s)
{
	if (s)
		bo_report_escape(f, s, strlen(s));
}

bool report_id_ok(const char *id)
{
	return strlen(id) < ID_MAX && bo_name_plain(id);
}

char *report_read_capped(int dirfd, const char *rel, size_t max, uint64_t *ret_total,
			 struct bo_err *err)
{
	_cleanup_close_ int fd = -1;
	uint64_t size;
	char *buf;
	ssize_t n;

	/* Beneath the directory, no symlink on the way (states/ or states/<id> one either), a
	 * regular file of one name and of a by-product's size. */
	fd = bo_input_openat(dirfd, NULL, rel, BO_INPUT_ONELINK, BO_INPUT_MAX_TEXT, &size, err);
	if (fd < 0)
		return NULL;
	buf = malloc(max + 1);
	if (!buf) {
		bo_err_set(err, ENOMEM, "'%s': out of memory", rel);
		return NULL;
	}
	n = bo_pread_full(fd, buf, max, 0);
	if (n < 0) {
		bo_err_set(err, (int) -n, "reading '%s': %s", rel, strerror((int) -n));
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (ret_total)
		*ret_total = size;
	return buf;
}

void report_refused(FILE *f, const struct bo_err *e, bool html)
{
	if (e->errnum == 0 || e->errnum == ENOENT)
		return;
	fputs(html ? "<p class=\"refused\"><b>not shown:</b> " : "not shown: ", f);
	report_esc(f, bo_err_str(e));
	fputs(html ? "</p>\n" : "\n", f);
}

const char *report_cfg_str(struct json_object *o, const char *path)
{
	char key[64];
	const char *p = path;
	struct json_object *v = o;

	while (v && *p) {
		size_t n = strcspn(p, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		if (!json_object_is_type(v, json_type_object) ||
		    !json_object_object_get_ex(v, key, &v))
			return NULL;
		p += n;
		if (*p == '.')
			p++;
	}
	if (!v || json_object_is_type(v, json_type_object) ||
	    json_object_is_type(v, json_type_array))
		return NULL;
	return json_object_get_string(v);
}
