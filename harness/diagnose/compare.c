// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare.c — tonight against a baseline, by identity through a hash (compare.h).
 */
#include "harness/diagnose/compare.h"

#include <errno.h>
#include <string.h>

/* Index the identities of @v in @m, marking each named again. */
static int index_side(struct bo_cmp_entry *v, size_t n, struct bo_strmap *m)
{
	for (size_t i = 0; i < n; i++) {
		int r = bo_strmap_put(m, v[i].key, i, NULL);

		if (r < 0)
			return r;
		if (r == 0)
			v[i].status = BO_CMP_AGAIN;
	}
	return 0;
}

int bo_compare(struct bo_cmp_entry *base, size_t nbase, struct bo_cmp_entry *cur, size_t ncur,
	       const struct bo_strmap *ran)
{
	struct bo_strmap in_base = {0}, in_cur = {0};
	int r;

	for (size_t i = 0; i < nbase; i++)
		base[i].status = BO_CMP_NEW;
	for (size_t i = 0; i < ncur; i++)
		cur[i].status = BO_CMP_NEW;
	r = index_side(base, nbase, &in_base);
	if (r >= 0)
		r = index_side(cur, ncur, &in_cur);
	for (size_t i = 0; r >= 0 && i < ncur; i++) {
		struct bo_cmp_entry *c = &cur[i], *b;
		size_t j;

		if (c->status == BO_CMP_AGAIN || !bo_strmap_get(&in_base, c->key, &j))
			continue;
		b = &base[j];
		c->status = (!c->detail && !b->detail) || (c->detail && b->detail &&
							   !strcmp(c->detail, b->detail))
				    ? BO_CMP_UNCHANGED
				    : BO_CMP_CHANGED;
		c->other = j;
		b->status = c->status;
		b->other = i;
	}
	for (size_t j = 0; r >= 0 && j < nbase; j++)
		if (base[j].status == BO_CMP_NEW)
			base[j].status = bo_strmap_get(ran, base[j].cell, NULL) ? BO_CMP_FIXED
										: BO_CMP_NOT_RUN;
	bo_strmap_clear(&in_base);
	bo_strmap_clear(&in_cur);
	return r < 0 ? r : 0;
}

const char *bo_cmp_status_name(enum bo_cmp_status s)
{
	static const char *const names[] = {
		[BO_CMP_NEW] = "new",	      [BO_CMP_UNCHANGED] = "unchanged",
		[BO_CMP_CHANGED] = "changed", [BO_CMP_FIXED] = "fixed",
		[BO_CMP_NOT_RUN] = "not run", [BO_CMP_AGAIN] = "again",
	};

	return (size_t) s < BO_ARRAY_SIZE(names) ? names[s] : "unknown";
}
