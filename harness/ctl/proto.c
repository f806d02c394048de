// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/ctl/proto.h"

#include <errno.h>
#include <inttypes.h>
#include <search.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"

#define ISSUE_PREFIX "issue:"
#define ACK_PREFIX   "ack:"
#define RESET_PREFIX "reset:"
/* The marks of fault switches (harness/faultplan.h): the oracle reads them back. */
#define FAULT_PREFIX "fault:"
/* harness/log/layout.h's BO_LAYOUT_MARK_PREFIX: the recorder's account of several devices. */
#define LAYOUT_PREFIX "layout:"
/* The marks of a node's power cut (harness/cluster/cluster.h). */
#define NODE_CUT_PREFIX "node-cut:"

/* An append-only set of op ids: strictly increasing ids keep the array sorted. */
struct idset {
	uint64_t *v;
	size_t n, cap;
};

struct bo_ctl_state {
	struct idset issued, acked;
	void *names; /* tsearch tree of user mark names (char *) */
};

/* Render at most 64 bytes of @s for a message: printable ASCII as is, the rest as \xNN. */
static const char *quote(const char *s, size_t len, char *buf, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 8 < size; i++) {
		unsigned char c = (unsigned char) s[i];

		if (i == 64) {
			o += (size_t) snprintf(buf + o, size - o, "...");
			break;
		}
		if (c >= 0x20 && c < 0x7f && c != '\\')
			buf[o++] = (char) c;
		else
			o += (size_t) snprintf(buf + o, size - o, "\\x%02x", c);
	}
	buf[o] = '\0';
	return buf;
}

/* A canonical decimal op id: 1..20 digits that fit in 64 bits. */
static int parse_opid(const char *s, size_t len, uint64_t *ret)
{
	uint64_t v = 0;

	if (len == 0 || len > 20)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		d = (unsigned) (s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}

int bo_ctl_check_mark_name(const char *name, size_t len, struct bo_err *err)
{
	char q[300];

	if (len == 0)
		return bo_err_set(err, EINVAL, "empty mark name");
	if (len > BO_CTL_NAME_MAX)
		return bo_err_set(err, E2BIG, "mark name '%s' is longer than %d bytes",
				  quote(name, len, q, sizeof(q)), BO_CTL_NAME_MAX);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char) name[i];

		if (c <= 0x20 || c >= 0x7f)
			return bo_err_set(err, EINVAL,
					  "mark name '%s': byte %zu (0x%02x) is not printable "
					  "non-space ASCII",
					  quote(name, len, q, sizeof(q)), i, c);
	}
	if ((len >= strlen(ISSUE_PREFIX) && !memcmp(name, ISSUE_PREFIX, strlen(ISSUE_PREFIX))) ||
	    (len >= strlen(ACK_PREFIX) && !memcmp(name, ACK_PREFIX, strlen(ACK_PREFIX))) ||
	    (len >= strlen(FAULT_PREFIX) && !memcmp(name, FAULT_PREFIX, strlen(FAULT_PREFIX))) ||
	    (len >= strlen(LAYOUT_PREFIX) && !memcmp(name, LAYOUT_PREFIX, strlen(LAYOUT_PREFIX))) ||
	    (len >= strlen(NODE_CUT_PREFIX) &&
	     !memcmp(name, NODE_CUT_PREFIX, strlen(NODE_CUT_PREFIX))) ||
	    (len >= strlen(RESET_PREFIX) && !memcmp(name, RESET_PREFIX, strlen(RESET_PREFIX))))
		return bo_err_set(
			err, EINVAL,
			"mark name '%s' uses a reserved prefix ('issue:' and 'ack:' "
			"belong to the issue and ack requests, 'fault:' to fault switches, "
			"'layout:' to the devices of the log, 'node-cut:' to a node's power "
			"cut, 'reset:' to a fresh filesystem's way back to its base)",
			quote(name, len, q, sizeof(q)));
	return 0;
}

int bo_ctl_parse(const char *line, size_t len, struct bo_ctl_req *ret, struct bo_err *err)
{
	const char *sp, *arg;
	size_t vlen, alen;
	char q[300];
	int r;

	if (len > BO_CTL_LINE_MAX)
		return bo_err_set(err, E2BIG, "request '%s' is longer than %d bytes",
				  quote(line, len, q, sizeof(q)), BO_CTL_LINE_MAX);
	if (memchr(line, '\0', len))
		return bo_err_set(err, EINVAL, "request '%s' contains a NUL byte",
				  quote(line, len, q, sizeof(q)));
	sp = memchr(line, ' ', len);
	if (!sp)
		return bo_err_set(err, EINVAL, "request '%s': expected 'VERB ARGUMENT'",
				  quote(line, len, q, sizeof(q)));
	vlen = (size_t) (sp - line);
	arg = sp + 1;
	alen = len - vlen - 1;

	if (vlen == 4 && !memcmp(line, "mark", 4)) {
		r = bo_ctl_check_mark_name(arg, alen, err);
		if (r < 0)
			return bo_err_prefix(err, "request 'mark'");
		ret->verb = BO_CTL_MARK;
		ret->opid = 0;
		memcpy(ret->name, arg, alen);
		ret->name[alen] = '\0';
		return 0;
	}
	if ((vlen == 5 && !memcmp(line, "issue", 5)) || (vlen == 3 && !memcmp(line, "ack", 3))) {
		bool issue = vlen == 5;

		r = parse_opid(arg, alen, &ret->opid);
		if (r < 0)
			return bo_err_set(err, EINVAL,
					  "request '%s': op id '%s' is not a decimal number below "
					  "2^64",
					  issue ? "issue" : "ack", quote(arg, alen, q, sizeof(q)));
		ret->verb = issue ? BO_CTL_ISSUE : BO_CTL_ACK;
		snprintf(ret->name, sizeof(ret->name), "%s%" PRIu64,
			 issue ? ISSUE_PREFIX : ACK_PREFIX, ret->opid);
		return 0;
	}
	return bo_err_set(err, EINVAL, "unknown request '%s' (expected issue, ack or mark)",
			  quote(line, vlen, q, sizeof(q)));
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static bool idset_has(const struct idset *s, uint64_t id)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid] == id)
			return true;
		if (s->v[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int idset_push(struct idset *s, uint64_t id)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		uint64_t *v = reallocarray(s->v, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = id;
	return 0;
}

int bo_ctl_state_new(struct bo_ctl_state **ret)
{
	struct bo_ctl_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	*ret = st;
	return 0;
}

void bo_ctl_state_free(struct bo_ctl_state *st)
{
	if (!st)
		return;
	tdestroy(st->names, free);
	free(st->issued.v);
	free(st->acked.v);
	free(st);
}

static int add_name(struct bo_ctl_state *st, const char *name)
{
	_cleanup_free_ char *copy = strdup(name);
	char **slot;

	if (!copy)
		return -ENOMEM;
	slot = tsearch(copy, &st->names, name_cmp);
	if (!slot)
		return -ENOMEM;
	if (*slot != copy)
		return -EEXIST;
	copy = NULL;
	return 0;
}

int bo_ctl_state_reserve(struct bo_ctl_state *st, const char *name)
{
	return add_name(st, name);
}

int bo_ctl_state_check(const struct bo_ctl_state *st, const struct bo_ctl_req *req,
		       struct bo_err *err)
{
	const struct idset *is = &st->issued, *ac = &st->acked;

	switch (req->verb) {
	case BO_CTL_ISSUE:
		if (is->n && req->opid <= is->v[is->n - 1])
			return bo_err_set(err, EPROTO,
					  "issue %" PRIu64 ": op ids must strictly increase (last "
					  "issued %" PRIu64 ")",
					  req->opid, is->v[is->n - 1]);
		return 0;
	case BO_CTL_ACK:
		if (!idset_has(is, req->opid))
			return bo_err_set(err, EPROTO, "ack %" PRIu64 ": op was never issued",
					  req->opid);
		if (ac->n && req->opid <= ac->v[ac->n - 1])
			return bo_err_set(err, EPROTO,
					  "ack %" PRIu64 ": ack ids must strictly increase (last "
					  "acked %" PRIu64 ")",
					  req->opid, ac->v[ac->n - 1]);
		return 0;
	case BO_CTL_MARK:
		if (tfind(req->name, &st->names, name_cmp))
			return bo_err_set(err, EPROTO, "mark '%s': name already used in this run",
					  req->name);
		return 0;
	}
	return bo_err_set(err, EINVAL, "unknown request");
}

int bo_ctl_state_commit(struct bo_ctl_state *st, const struct bo_ctl_req *req)
{
	int r = bo_ctl_state_check(st, req, NULL);

	if (r < 0)
		return r;
	switch (req->verb) {
	case BO_CTL_ISSUE:
		return idset_push(&st->issued, req->opid);
	case BO_CTL_ACK:
		return idset_push(&st->acked, req->opid);
	case BO_CTL_MARK:
		return add_name(st, req->name);
	}
	return -EINVAL;
}

int bo_ctl_state_apply(struct bo_ctl_state *st, const struct bo_ctl_req *req, struct bo_err *err)
{
	int r = bo_ctl_state_check(st, req, err);

	if (r < 0)
		return r;
	r = bo_ctl_state_commit(st, req);
	if (r < 0)
		return bo_err_set(err, -r, "recording request: %s", strerror(-r));
	return 0;
}

const uint64_t *bo_ctl_state_issued(const struct bo_ctl_state *st, size_t *ret_n)
{
	*ret_n = st->issued.n;
	return st->issued.v;
}

const uint64_t *bo_ctl_state_acked(const struct bo_ctl_state *st, size_t *ret_n)
{
	*ret_n = st->acked.n;
	return st->acked.v;
}

bool bo_ctl_state_was_issued(const struct bo_ctl_state *st, uint64_t opid)
{
	return idset_has(&st->issued, opid);
}

bool bo_ctl_state_was_acked(const struct bo_ctl_state *st, uint64_t opid)
{
	return idset_has(&st->acked, opid);
}

size_t bo_ctl_format_ok(char *buf, size_t len, uint64_t entry)
{
	int n = snprintf(buf, len, "ok %" PRIu64 "\n", entry);

	return n < 0 ? 0 : (size_t) n < len ? (size_t) n : len - 1;
}

size_t bo_ctl_format_err(char *buf, size_t len, const char *msg)
{
	size_t o = 0;

	if (len < 6)
		return 0;
	memcpy(buf, "err ", 4);
	o = 4;
	/* One line, whatever the message holds: control bytes become '?'. */
	for (const char *p = msg; *p && o + 2 < len; p++)
		buf[o++] = ((unsigned char) *p < 0x20 || *p == 0x7f) ? '?' : *p;
	buf[o++] = '\n';
	buf[o] = '\0';
	return o;
}
