// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/states/lint.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/base/macro.h"

static bool is_write(const struct bo_log_entry *e)
{
	return !(e->flags & (BO_LOG_MARK | BO_LOG_DISCARD)) && e->nr_sectors;
}

static int lint_ops(const struct bo_log *log, const struct bo_ops *ops, struct bo_lint *ret,
		    struct bo_err *err)
{
	const uint64_t n = bo_log_count(log);
	/* Barriers and writes before each entry: prefix counts, one pass over the index. */
	_cleanup_free_ uint32_t *barriers = calloc(n + 1, sizeof(*barriers));
	_cleanup_free_ uint32_t *writes = calloc(n + 1, sizeof(*writes));
	struct bo_lint l = {0};

	if (!barriers || !writes)
		return bo_err_set(err, ENOMEM, "lint: %" PRIu64 " entries", n);
	if (n > UINT32_MAX)
		return bo_err_set(err, EOVERFLOW, "lint: %" PRIu64 " entries is too many", n);
	for (uint64_t i = 0; i < n; i++) {
		const struct bo_log_entry *e = bo_log_entry(log, i);

		barriers[i + 1] = barriers[i] + bo_log_entry_barrier(e);
		writes[i + 1] = writes[i] + is_write(e);
	}
	l.barriers = barriers[n];
	for (size_t i = 0; i < ops->n; i++) {
		const struct bo_op *op = &ops->v[i];
		struct bo_lint_finding *f;

		if (op->ack_entry == BO_NO_ENTRY)
			continue;
		if (op->issue_entry == BO_NO_ENTRY || op->issue_entry > op->ack_entry) {
			l.unpaired++;
			continue;
		}
		l.acks++;
		if (barriers[op->ack_entry] != barriers[op->issue_entry + 1])
			continue;
		if (l.n % 64 == 0) {
			void *v = realloc(l.v, (l.n + 64) * sizeof(*l.v));

			if (!v) {
				bo_lint_clear(&l);
				return bo_err_set(err, ENOMEM, "lint");
			}
			l.v = v;
		}
		f = &l.v[l.n++];
		*f = (struct bo_lint_finding){
			.op = op->id,
			.issue_entry = op->issue_entry,
			.ack_entry = op->ack_entry,
			.writes = writes[op->ack_entry] - writes[op->issue_entry + 1],
			.next_barrier = BO_NO_ENTRY,
		};
		/* The first barrier after the ack: where the prefix count steps up. */
		if (barriers[n] > barriers[op->ack_entry + 1]) {
			uint64_t lo = op->ack_entry + 1, hi = n;

			while (lo < hi) {
				uint64_t mid = lo + (hi - lo) / 2;

				if (barriers[mid + 1] > barriers[op->ack_entry + 1])
					hi = mid;
				else
					lo = mid + 1;
			}
			f->next_barrier = lo;
		}
	}
	*ret = l;
	return 0;
}

int bo_lint_log(const struct bo_log *log, struct bo_lint *ret, struct bo_err *err)
{
	struct bo_ops ops = {0};
	int r = bo_ops_from_log(log, &ops, err);

	if (r >= 0)
		r = lint_ops(log, &ops, ret, err);
	bo_ops_clear(&ops);
	return r;
}

void bo_lint_clear(struct bo_lint *l)
{
	free(l->v);
	*l = (struct bo_lint){0};
}

const char *bo_lint_finding_str(const struct bo_lint_finding *f, char *buf, size_t len)
{
	char next[48] = "no barrier follows it";

	if (f->next_barrier != BO_NO_ENTRY)
		snprintf(next, sizeof(next), "the next barrier is entry %" PRIu64, f->next_barrier);
	snprintf(buf, len,
		 "op %" PRIu64 ": acked at entry %" PRIu64 ", issued at entry %" PRIu64
		 ", with no FLUSH or FUA between (%" PRIu64 " %s between; %s)",
		 f->op, f->ack_entry, f->issue_entry, f->writes,
		 f->writes == 1 ? "write" : "writes", next);
	return buf;
}
