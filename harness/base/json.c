// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/base/json.h"

#include <errno.h>
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

/* The JSON object in @fd (closed here), @what in messages. */
static int read_fd(int fd, const char *what, struct json_object **ret, struct bo_err *err)
{
	struct json_object *o = json_object_from_fd(fd);
	const char *why;
	size_t len;

	close(fd);
	if (!o) {
		/* json-c's message ends with a newline of its own. */
		why = json_util_get_last_err();
		len = why ? strcspn(why, "\n") : 0;
		return bo_err_set(err, EBADMSG, "'%s' is not JSON%s%.*s", what, len ? ": " : "",
				  (int) len, why ? why : "");
	}
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
	int fd = bo_input_open_path(path, 0, BO_INPUT_MAX_JSON, NULL, err);

	return fd < 0 ? fd : read_fd(fd, path, ret, err);
}

int bo_json_read_in(const char *dir, const char *rel, struct json_object **ret, struct bo_err *err)
{
	char what[PATH_MAX];
	int fd = bo_input_open(dir, rel, 0, BO_INPUT_MAX_JSON, NULL, err);

	if (fd < 0)
		return fd;
	snprintf(what, sizeof(what), "%s/%s", dir, rel);
	return read_fd(fd, what, ret, err);
}
