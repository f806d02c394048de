// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct json_object *bo_json_new_doc(void)
{
	struct json_object *o = json_object_new_object(), *f = json_object_new_int(BO_JSON_FORMAT);

	if (!o || !f || json_object_object_add(o, "format", f) < 0) {
		json_object_put(o);
		json_object_put(f);
		return NULL;
	}
	return o;
}

int bo_json_check_format(struct json_object *o, const char *what, struct bo_err *err)
{
	struct json_object *f;
	int64_t v;

	if (!json_object_object_get_ex(o, "format", &f))
		return 0;
	if (!json_object_is_type(f, json_type_int) || (v = json_object_get_int64(f)) < 0)
		return bo_err_set(err, EPROTO, "%s: \"format\" is not a version number", what);
	if (v > BO_JSON_FORMAT)
		return bo_err_set(
			err, EPROTO,
			"%s: format %lld, newer than this blackout reads (%d): use a newer "
			"blackout",
			what, (long long) v, BO_JSON_FORMAT);
	return 0;
}

const char *bo_json_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

bool bo_json_u64(struct json_object *o, const char *key, uint64_t *ret)
{
	struct json_object *v;

	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return false;
	*ret = json_object_get_uint64(v);
	return true;
}

/* The line of @text (line @line at its start) that byte @off is on; past the last byte that
 * is not blank, the line of that byte (an end of data is on the last line, not after it). */
static unsigned line_at(const char *text, size_t len, size_t off, unsigned line)
{
	unsigned n = line;

	while (len && strchr(" \t\r\n", text[len - 1]))
		len--;
	if (off > len)
		off = len;
	for (const char *p = text; (p = memchr(p, '\n', off - (size_t) (p - text))); p++)
		n++;
	return n;
}

/* "WHAT:LINE" into @buf. */
static const char *where(char *buf, size_t len, const char *what, unsigned line)
{
	snprintf(buf, len, "%s:%u", what, line);
	return buf;
}

/*
 * The memory json-c would take for @text, estimated from what it holds (json-c 0.16 on 64-bit:
 * an object about 800 bytes, an array 160, any other value or a member's name 96), or the
 * offset of a NUL byte in *@ret_nul (SIZE_MAX: none).
 */
static uint64_t census(const char *text, size_t len, size_t *ret_nul)
{
	uint64_t objects = 0, arrays = 0, values = 0;
	bool in_str = false, esc = false, in_word = false;

	*ret_nul = SIZE_MAX;
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		bool word = false;

		if (c == '\0') {
			*ret_nul = i;
			return 0;
		}
		if (in_str) {
			if (esc)
				esc = false;
			else if (c == '\\')
				esc = true;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"') {
			in_str = true;
			values++;
		} else if (c == '{') {
			objects++;
		} else if (c == '[') {
			arrays++;
		} else if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',' &&
			   c != ':' && c != '}' && c != ']') {
			/* A number, true, false or null: one value per run of such bytes. */
			word = true;
			values += !in_word;
		}
		in_word = word;
	}
	return objects * 800 + arrays * 160 + values * 96 + len;
}

int bo_json_parse(const char *text, size_t len, const char *what, unsigned line,
		  struct json_object **ret, struct bo_err *err)
{
	struct json_tokener *tok;
	struct json_object *o;
	enum json_tokener_error e;
	char at[PATH_MAX + 16];
	size_t nul, end;
	uint64_t need = census(text, len, &nul);

	if (nul != SIZE_MAX)
		return bo_err_set(err, EBADMSG, "%s: a NUL byte in JSON",
				  where(at, sizeof(at), what, line_at(text, len, nul, line)));
	if (need > (uint64_t) len * BO_JSON_MEMORY_PER_BYTE + (1u << 20))
		return bo_err_set(err, EBADMSG,
				  "%s: JSON of %zu bytes with so many values that reading it "
				  "would take about %" PRIu64
				  " MiB (more than %u times its size): no document blackout "
				  "writes is like that",
				  where(at, sizeof(at), what, line), len, need >> 20,
				  BO_JSON_MEMORY_PER_BYTE);
	if (len >= INT_MAX)
		return bo_err_set(err, EFBIG, "%s: JSON of %zu bytes: too big to read", what, len);
	tok = json_tokener_new_ex(BO_JSON_MAX_DEPTH);
	if (!tok)
		return bo_err_set(err, ENOMEM, "%s: out of memory", what);
	errno = 0;
	/* With its NUL: json-c ends a number at the end of the text only at a byte after it. */
	o = json_tokener_parse_ex(tok, text, (int) len + 1);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o && errno == ENOMEM)
		return bo_err_set(err, ENOMEM, "%s: out of memory",
				  where(at, sizeof(at), what, line_at(text, len, end, line)));
	if (!o && e == json_tokener_success)
		return bo_err_set(err, EBADMSG, "%s: null, where a JSON object belongs",
				  where(at, sizeof(at), what, line));
	if (e == json_tokener_error_depth)
		return bo_err_set(err, EBADMSG, "%s: JSON nested deeper than %d levels",
				  where(at, sizeof(at), what, line_at(text, len, end, line)),
				  BO_JSON_MAX_DEPTH);
	if (!o || e != json_tokener_success) {
		json_object_put(o);
		return bo_err_set(err, EBADMSG, "%s: not JSON: %s",
				  where(at, sizeof(at), what, line_at(text, len, end, line)),
				  json_tokener_error_desc(e));
	}
	if (end < len)
		end += strspn(text + end, " \t\r\n");
	if (end < len) {
		json_object_put(o);
		return bo_err_set(err, EBADMSG, "%s: text after the JSON value",
				  where(at, sizeof(at), what, line_at(text, len, end, line)));
	}
	*ret = o;
	return 0;
}

/* The JSON object in @fd (closed here) of @size bytes said, at most @max, @what in messages. */
static int read_fd(int fd, uint64_t size, size_t max, const char *what, struct json_object **ret,
		   struct bo_err *err)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	struct json_object *o;
	int r = bo_input_read_fd(fd, size, what, max, &text, &len, err);

	close(fd);
	if (r < 0)
		return r;
	r = bo_json_parse(text, len, what, 1, &o, err);
	if (r < 0)
		return r;
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return bo_err_set(err, EBADMSG, "'%s' is not a JSON object", what);
	}
	*ret = o;
	return 0;
}

int bo_json_write_at(int dirfd, const char *name, struct json_object *o, struct bo_err *err)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								  JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = s ? strlen(s) : 0;
	char *buf = s ? malloc(len + 1) : NULL;
	int k;

	if (!buf)
		return bo_err_set(err, ENOMEM, "writing '%s': out of memory", name);
	memcpy(buf, s, len);
	buf[len++] = '\n';
	k = bo_write_file_at(dirfd, name, buf, len);
	free(buf);
	if (k < 0)
		return bo_err_set(err, -k, "writing '%s': %s", name, strerror(-k));
	return 0;
}

int bo_json_read_file(const char *path, struct json_object **ret, struct bo_err *err)
{
	uint64_t size;
	int fd = bo_input_open_path(path, 0, BO_INPUT_MAX_JSON, &size, err);

	return fd < 0 ? fd : read_fd(fd, size, BO_INPUT_MAX_JSON, path, ret, err);
}

int bo_json_read_in_max(const char *dir, const char *rel, size_t max, struct json_object **ret,
			struct bo_err *err)
{
	char what[PATH_MAX];
	uint64_t size;
	int fd = bo_input_open(dir, rel, 0, max, &size, err);

	if (fd < 0)
		return fd;
	snprintf(what, sizeof(what), "%s/%s", dir, rel);
	return read_fd(fd, size, max, what, ret, err);
}

int bo_json_read_in(const char *dir, const char *rel, struct json_object **ret, struct bo_err *err)
{
	return bo_json_read_in_max(dir, rel, BO_INPUT_MAX_JSON, ret, err);
}
