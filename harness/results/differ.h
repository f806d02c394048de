/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * differ.h — the same crash states judged in several results directories (one saved log
 * checked under several kernels, `check --kernels`): each state's class and findings (its op
 * sets, findings.h) in each, and which states differ. A state differs when its class or any
 * of its findings does: a state fsck-dirty on both kernels that lost an acknowledged op on
 * one only differs. Read through the one stream reader (stream.h).
 */
#ifndef BO_DIFFER_H
#define BO_DIFFER_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"
#include "harness/states/classify.h"
#include "harness/states/findings.h"

/* A state not checked in a directory (its check failed, or it did not select the state). */
#define BO_DIFFER_NONE BO_CLASS_COUNT

struct bo_differ_row {
	char *state;
	uint64_t cut;
	enum bo_class *cls;	/* one per directory, BO_DIFFER_NONE where it is missing */
	struct bo_verdict *fnd; /* one per directory: its findings (empty where missing) */
	bool differs;		/* not the same class and findings everywhere */
};

struct bo_differ {
	size_t ncol, nrow, ndiffer;
	struct bo_differ_row *rows; /* differing states first, then by cut and id */
};

/* Read the states of the @n results directories @dirs into @d (zeroed first); -errno with
 * @err naming the directory whose stream cannot be read. */
_must_check_ int bo_differ_read(struct bo_differ *d, const char *const *dirs, size_t n,
				struct bo_err *err);

/* @d as JSON: "states": [{"state", "cut", "differs", "classes": {NAME: class}, "findings":
 * {NAME: words}}] (words: bo_findings_str(), "" for none; null where a directory lacks the
 * state), with @names naming the directories' columns; NULL without memory. */
struct json_object *bo_differ_json(const struct bo_differ *d, const char *const *names);

void bo_differ_clear(struct bo_differ *d);

/* Cell @col of @row in words into @buf: "fsck-dirty (lost-ack: op 2)", "consistent", or
 * "not checked". Returns @buf. */
const char *bo_differ_cell_str(const struct bo_differ_row *row, size_t col, char *buf, size_t len);

#endif
