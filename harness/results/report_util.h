// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_util.h — what every writer of a report shares (report_util.c): class names and
 * colours, escaping, state ids safe as paths, by-products read capped, config.json's strings.
 * They use nothing else of the report, so that report.c calls its writers (report_html.c,
 * report_junit.c, ...) and they call these, never the other way round. Internal to the report.
 */
#ifndef BO_REPORT_UTIL_H
#define BO_REPORT_UTIL_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/base/util.h"
#include "harness/states/classify.h"

#define ID_MAX	64
#define UNKNOWN BO_CLASS_COUNT /* a class name the report does not know */
#define NCLASS	(BO_CLASS_COUNT + 1)

/* The name of class @c, "unknown" for UNKNOWN. */
const char *report_class_name(unsigned c);

/* Whether class @c means the harness or the checker could not judge (JUnit errors). */
bool report_class_is_error(unsigned c);

/* The colour of class @c in the HTML pages. */
const char *report_class_color(unsigned c);

/* @s escaped for HTML and XML (bo_report_escape()); NULL writes nothing. */
void report_esc(FILE *f, const char *s);

/* Is @id safe as a path component and a URL fragment? */
bool report_id_ok(const char *id);

/* Read at most @max bytes of the by-product @rel under the directory by the rule of
 * harness/base/input.h: never through a symlink, a regular file of one name (not a hard link),
 * at most BO_INPUT_MAX_TEXT. Sets *@ret_total to the file's size. NULL when it cannot be read,
 * @err saying why (ENOENT: it is not there). */
char *report_read_capped(int dirfd, const char *rel, size_t max, uint64_t *ret_total,
			 struct bo_err *err);

/* Say in @f (HTML, or text for junit.xml) that a by-product was refused and why (@e, from
 * report_read_capped()): nothing when it is simply not there. */
void report_refused(FILE *f, const struct bo_err *e, bool html);

/* The string at the dotted @path ("options.fs") of @o, or NULL. */
const char *report_cfg_str(struct json_object *o, const char *path);

#endif
