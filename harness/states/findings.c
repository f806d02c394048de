// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/states/findings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[BO_FINDING_COUNT] = {
	[BO_FINDING_LOST] = "lost-ack",
	[BO_FINDING_WRONG] = "wrong-content",
	[BO_FINDING_PHANTOM] = "phantom",
	[BO_FINDING_UNORDERED] = "unordered",
};

static const char *const keys[BO_FINDING_COUNT] = {
	[BO_FINDING_LOST] = "lost",
	[BO_FINDING_WRONG] = "wrong_content",
	[BO_FINDING_PHANTOM] = "phantom",
	[BO_FINDING_UNORDERED] = "unordered",
};

const char *bo_finding_name(enum bo_finding f)
{
	return f < BO_FINDING_COUNT ? names[f] : "unknown";
}

const char *bo_finding_key(enum bo_finding f)
{
	return f < BO_FINDING_COUNT ? keys[f] : "unknown";
}

struct bo_opset *bo_verdict_set_mut(struct bo_verdict *v, enum bo_finding f)
{
	switch (f) {
	case BO_FINDING_LOST:
		return &v->lost;
	case BO_FINDING_WRONG:
		return &v->wrong;
	case BO_FINDING_PHANTOM:
		return &v->phantom;
	default:
		return &v->unordered;
	}
}

const struct bo_opset *bo_verdict_set(const struct bo_verdict *v, enum bo_finding f)
{
	return bo_verdict_set_mut((struct bo_verdict *) v, f);
}

bool bo_class_names_finding(enum bo_class c, enum bo_finding f)
{
	if (c == BO_CLASS_LOST_ACK)
		return f == BO_FINDING_LOST || f == BO_FINDING_WRONG;
	if (c == BO_CLASS_PHANTOM)
		return f == BO_FINDING_PHANTOM || f == BO_FINDING_UNORDERED;
	return false;
}

bool bo_verdict_any(const struct bo_verdict *v)
{
	for (int f = 0; f < BO_FINDING_COUNT; f++)
		if (bo_verdict_set(v, (enum bo_finding) f)->n)
			return true;
	return false;
}

bool bo_findings_also(const struct bo_verdict *v, enum bo_class c)
{
	for (int f = 0; f < BO_FINDING_COUNT; f++)
		if (bo_verdict_set(v, (enum bo_finding) f)->n &&
		    !bo_class_names_finding(c, (enum bo_finding) f))
			return true;
	return false;
}

bool bo_verdict_equal(const struct bo_verdict *a, const struct bo_verdict *b)
{
	static const struct bo_verdict none;

	a = a ? a : &none;
	b = b ? b : &none;
	for (int f = 0; f < BO_FINDING_COUNT; f++) {
		const struct bo_opset *x = bo_verdict_set(a, (enum bo_finding) f);
		const struct bo_opset *y = bo_verdict_set(b, (enum bo_finding) f);

		if (x->n != y->n || (x->n && memcmp(x->v, y->v, x->n * sizeof(*x->v))))
			return false;
	}
	return true;
}

int bo_verdict_copy(const struct bo_verdict *v, struct bo_verdict *ret)
{
	struct bo_verdict c = {0};

	for (int f = 0; f < BO_FINDING_COUNT; f++) {
		const struct bo_opset *s = bo_verdict_set(v, (enum bo_finding) f);

		for (size_t i = 0; i < s->n; i++)
			if (bo_opset_add(bo_verdict_set_mut(&c, (enum bo_finding) f), s->v[i]) <
			    0) {
				bo_verdict_clear(&c);
				return -ENOMEM;
			}
	}
	*ret = c;
	return 0;
}

const char *bo_findings_str(const struct bo_verdict *v, enum bo_class c, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (int f = 0; f < BO_FINDING_COUNT && used < len; f++) {
		const struct bo_opset *s = bo_verdict_set(v, (enum bo_finding) f);
		char ids[160];
		int w;

		if (!s->n ||
		    (c != BO_CLASS_COUNT && bo_class_names_finding(c, (enum bo_finding) f)))
			continue;
		w = snprintf(buf + used, len - used, "%s%s: op%s %s", used ? "; " : "", names[f],
			     s->n > 1 ? "s" : "", bo_opset_str(s, ids, sizeof(ids)));
		used = w < 0 ? len : used + (size_t) w;
	}
	return buf;
}
