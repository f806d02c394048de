/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stream.h — the one reader of stream.jsonl (docs/results.md), for every consumer: report,
 * merge, explain, reproduce, shrink and the nightly baseline.
 *
 * A record is one line: a JSON object with a string "event". "state" and "alias" records also
 * have a string "state", a non-negative integer "cut" and a known "class"; an alias has a
 * string "alias_of" too; a state's findings, when there, are arrays of non-negative integers
 * (op ids) and its "why" an object of strings. The stream is written by the guest, so all of
 * this is checked here, once, before any consumer looks at a record.
 *
 * The one rule for a bad line: a line that breaks the above, or that is not one JSON object
 * (text after it, a NUL byte, nesting deeper than BO_JSON_MAX_DEPTH), or longer than
 * BO_STREAM_LINE_MAX, is an error naming the file and the line, wherever it is — except the
 * last line of the file when it does not end in a newline. bo_results_emit() writes each
 * record and its newline with one write(2), so such a line is the record a crash of blackout
 * or of its VM cut short: the stream ends before it, and bo_stream_torn() says it was there.
 * Running out of memory or a read error is an error too, never the end of the stream.
 */
#ifndef BO_STREAM_H
#define BO_STREAM_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness/base/util.h"
#include "harness/states/classify.h"
#include "harness/states/findings.h"

/*
 * The longest line of stream.jsonl, a record and its newline. The longest record blackout
 * writes is a state's: its fixed members and witness take a few KiB; "why", "phantom",
 * "unordered" and "wrong_content" come from the checker's report, of which 1 MiB is kept (at
 * most 8 MiB as JSON); "lost" lists acknowledged ops, at most 21 bytes each. 64 MiB holds
 * more than 2.5 million of them, a log of over a GiB of nothing but ack marks. A longer line
 * is an error naming it, never read whole, and bo_results_emit() refuses to write one. (The
 * fuzz build lowers it, to reach it within the fuzzer's inputs.)
 */
#ifndef BO_STREAM_LINE_MAX
#define BO_STREAM_LINE_MAX (64u << 20)
#endif

struct bo_stream;

/* One record, valid until the next call of bo_stream_next() (json_object_get() @o to keep
 * it). */
struct bo_stream_rec {
	struct json_object *o;
	const char *event;
	unsigned line; /* 1-based */
	/* "state" and "alias" records only: */
	const char *state;
	const char *alias_of; /* alias records only, else NULL */
	uint64_t cut;
	enum bo_class cls;
	/* "state" records: its findings (states/findings.h), from "lost", "wrong_content",
	 * "phantom" and "unordered"; empty sets where a member is absent, and for aliases. */
	struct bo_verdict findings;
};

/* Open the stream.jsonl of results directory @dir (never through a symlink). */
_must_check_ int bo_stream_open(const char *dir, struct bo_stream **ret, struct bo_err *err);

/* The next record in *@ret: 1, or 0 at the end of the stream, or -errno (a bad line: @err
 * names the file and the line). */
_must_check_ int bo_stream_next(struct bo_stream *s, struct bo_stream_rec *ret, struct bo_err *err);

/* Whether the stream ended at a last record cut short (after bo_stream_next() returned 0). */
bool bo_stream_torn(const struct bo_stream *s);

/* The file's path, for messages. */
const char *bo_stream_path(const struct bo_stream *s);

/* Close; NULL is fine. */
void bo_stream_free(struct bo_stream *s);

/*
 * Every "state" and "alias" record of results directory @dir's stream, in order, to @fn
 * (which returns >= 0 to go on, -errno to stop, with @err set). 0, or the first error.
 */
_must_check_ int bo_stream_each_state(const char *dir,
				      int (*fn)(const struct bo_stream_rec *rec, void *ctx,
						struct bo_err *err),
				      void *ctx, struct bo_err *err);

/*
 * The findings of state record @o into *@ret (bo_verdict_clear() it): the reader's own check
 * and parse, for a consumer that kept a record's object. -EBADMSG with *@ret_bad the member
 * that is malformed, -ENOMEM.
 */
_must_check_ int bo_stream_rec_findings(struct json_object *o, struct bo_verdict *ret,
					const char **ret_bad);

/* Whether @rec is a "state" or an "alias" record. */
static inline bool bo_stream_is_state(const struct bo_stream_rec *rec)
{
	return rec->state != NULL;
}

#endif
