/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results.h — one results directory per run, laid out as docs/results.md describes:
 * config.json, stream.jsonl (one JSON record per event, written as it happens), summary.json,
 * write.log, vm/, diagnostics/pre|post, states/<state-id>/. All JSON goes through json-c.
 */
#ifndef BO_RESULTS_H
#define BO_RESULTS_H

#include <json-c/json.h>
#include <stddef.h>

#include "harness/base/util.h"

struct bo_results;

/*
 * Create the results directory @dir and its skeleton. @dir must not exist yet: a results
 * directory is never reused.
 */
_must_check_ int bo_results_create(const char *dir, struct bo_results **ret, struct bo_err *err);

/* Open a results directory that exists (the guest writes into the one the host created). */
_must_check_ int bo_results_open(const char *dir, struct bo_results **ret, struct bo_err *err);

/* Close; NULL is fine. */
void bo_results_free(struct bo_results *r);

/* The directory's path. */
const char *bo_results_dir(const struct bo_results *r);

/*
 * Append a record {"seq": n, "time": "...", "event": @event, ...@fields} to stream.jsonl with
 * one write(2), so that a crash of blackout or of the VM loses at most the record being
 * written. Takes ownership of @fields (which may be NULL). A record longer than
 * BO_STREAM_LINE_MAX is refused (-E2BIG): no reader would take it.
 */
_must_check_ int bo_results_emit(struct bo_results *r, const char *event,
				 struct json_object *fields, struct bo_err *err);

/* Write @o as pretty JSON to @rel (a path relative to the directory), atomically. */
_must_check_ int bo_results_write_json(struct bo_results *r, const char *rel, struct json_object *o,
				       struct bo_err *err);

/* Write @len bytes to @rel, atomically. */
_must_check_ int bo_results_write_file(struct bo_results *r, const char *rel, const void *buf,
				       size_t len, struct bo_err *err);

/* Create the directory @rel (and its parents) inside the results directory; the absolute path
 * is returned in *@ret_path (malloc'd) when @ret_path is not NULL. */
_must_check_ int bo_results_mkdir(struct bo_results *r, const char *rel, char **ret_path,
				  struct bo_err *err);

/* Is @rel a plain relative path that stays inside the directory (no "..", not absolute)? */
bool bo_results_rel_ok(const char *rel);

#endif
