/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.h — json-c, the project's only JSON library: a cleanup for its objects, typed getters
 * for input that may be anything (the guest writes most of what the host reads), and reading
 * a file with an error that names it.
 */
#ifndef BO_JSON_H
#define BO_JSON_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/macro.h"
#include "harness/base/util.h"

static inline void bo_json_putp(struct json_object **o)
{
	json_object_put(*o);
}

#define _cleanup_json_ _cleanup_(bo_json_putp)

/*
 * The version of blackout's machine output: the "format" member that starts every document
 * it writes for tools (summary.json, config.json, each stream.jsonl record, every --json).
 * It grows when a member changes meaning or goes away; members are only ever added within
 * one format. docs/results.md says what a reader may rely on.
 */
#define BO_JSON_FORMAT 1

/* A new object holding "format": BO_JSON_FORMAT, the top of a document; NULL without memory. */
struct json_object *bo_json_new_doc(void);

/*
 * Whether @o, read from @what, is in a format this blackout reads: one with no "format" (from
 * before it had one) or a format up to BO_JSON_FORMAT. -EPROTO otherwise, with @err naming
 * @what and both formats.
 */
_must_check_ int bo_json_check_format(struct json_object *o, const char *what, struct bo_err *err);

/* The member @key of @o when it is a string; NULL when @o is not an object, has no such
 * member, or it is of another type. */
const char *bo_json_str(struct json_object *o, const char *key);

/* The member @key of @o when it is a non-negative integer, in *@ret; false when not. */
bool bo_json_u64(struct json_object *o, const char *key, uint64_t *ret);

/*
 * How deep a document may nest: twice the deepest blackout writes (differential.json of run
 * --kernels: a mark's kernel's classes, 6 levels). json-c's tokener refuses what is deeper.
 */
#define BO_JSON_MAX_DEPTH 12

/*
 * The json-c memory a document may need, per byte of it: blackout's densest documents (a
 * stream record with a witness, objects of a few short members) need up to 21 bytes a byte.
 * A document of empty objects would need 264 (an object costs json-c about 800 bytes), so
 * that the size of a document alone does not bound the memory reading it takes: it is
 * counted before json-c reads it.
 */
#define BO_JSON_MEMORY_PER_BYTE 32u

/*
 * The one JSON reader: the @len bytes of @text (a NUL after them), named @what in messages and
 * starting at its line @line (1 for a document, N for the Nth record of stream.jsonl), as one
 * JSON value in *@ret (put by the caller). -EBADMSG with @err naming what:line and what is
 * wrong: not JSON (json-c's reason), nested deeper than BO_JSON_MAX_DEPTH, a NUL byte, text
 * after the value, null, or values taking more than BO_JSON_MEMORY_PER_BYTE allows; -ENOMEM.
 */
_must_check_ int bo_json_parse(const char *text, size_t len, const char *what, unsigned line,
			       struct json_object **ret, struct bo_err *err);

/* The JSON object in the file @path, at most BO_INPUT_MAX_JSON bytes, in *@ret (put by the
 * caller); -errno with @err naming the file (and line) and what is wrong with it. */
_must_check_ int bo_json_read_file(const char *path, struct json_object **ret, struct bo_err *err);

/* @o, pretty-printed with a newline, as the file @name beneath @dirfd (AT_FDCWD: a path):
 * written to a temporary beside it and renamed (bo_write_file_at()), so that a full disk
 * leaves the old file or none, never a torn one, and no temporary. -errno with @err naming
 * the file and why. Every writer of a results or summary document goes through this. */
_must_check_ int bo_json_write_at(int dirfd, const char *name, struct json_object *o,
				  struct bo_err *err);

/* The same of @rel beneath the directory @dir, by bo_input_open() (a results directory's or a
 * published tree's file: never through a symlink). */
_must_check_ int bo_json_read_in(const char *dir, const char *rel, struct json_object **ret,
				 struct bo_err *err);

/* The same, at most @max bytes: the bound of its format (summary.json, config.json). */
_must_check_ int bo_json_read_in_max(const char *dir, const char *rel, size_t max,
				     struct json_object **ret, struct bo_err *err);

#endif
