// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/states/persona.h"

#include <errno.h>
#include <string.h>

static const char *const persona_names[BO_PERSONA_COUNT] = {
	[BO_PERSONA_HONEST] = "honest",		  [BO_PERSONA_IGNORES_FLUSH] = "ignores-flush",
	[BO_PERSONA_IGNORES_FUA] = "ignores-fua", [BO_PERSONA_ATOMIC_4K] = "atomic-4k",
	[BO_PERSONA_ATOMIC_512] = "atomic-512",	  [BO_PERSONA_LOST_FLUSH] = "lost-flush",
};

const char *bo_persona_name(enum bo_persona p)
{
	return (unsigned) p < BO_PERSONA_COUNT ? persona_names[p] : NULL;
}

int bo_persona_parse(const char *name, enum bo_persona *ret)
{
	for (unsigned p = 0; p < BO_PERSONA_COUNT; p++)
		if (!strcmp(name, persona_names[p])) {
			*ret = (enum bo_persona) p;
			return 0;
		}
	return -EINVAL;
}

void bo_persona_defaults(enum bo_persona p, bool chosen, unsigned *reorder_k, bool *torn,
			 uint64_t *budget)
{
	if (p == BO_PERSONA_HONEST)
		return;
	if (p == BO_PERSONA_ATOMIC_4K || p == BO_PERSONA_ATOMIC_512) {
		*torn = *torn || !chosen;
		return;
	}
	if (!chosen && !*reorder_k)
		*reorder_k = 1;
	if (!*budget)
		*budget = 16;
}

unsigned bo_persona_flush_depth(enum bo_persona p)
{
	return p == BO_PERSONA_IGNORES_FLUSH ? 0 : p == BO_PERSONA_LOST_FLUSH ? 2 : 1;
}

bool bo_persona_droppable(enum bo_persona p, const struct bo_log_entry *e)
{
	if (e->nr_sectors == 0 || (e->flags & BO_LOG_MARK))
		return false;
	if (p == BO_PERSONA_IGNORES_FUA && (e->flags & BO_LOG_FUA))
		return true;
	return !(e->flags & (BO_LOG_FUA | BO_LOG_FLUSH));
}

uint64_t bo_persona_tear_point(enum bo_persona p, uint64_t ss, const struct bo_log_entry *e,
			       uint64_t i, uint64_t *ret_keep, bool *ret_bytes)
{
	const uint64_t nr = e->nr_sectors;
	uint64_t n;

	*ret_bytes = false;
	if (p == BO_PERSONA_ATOMIC_512 && ss > 512) {
		n = nr * (ss / 512) - 1;
		*ret_bytes = true;
		*ret_keep = 512 * (i + 1);
	} else if (p == BO_PERSONA_ATOMIC_4K && ss < 4096) {
		const uint64_t m = 4096 / ss; /* blocks per 4 KiB */
		const uint64_t first = (e->sector / m + 1) * m;

		n = first < e->sector + nr ? (e->sector + nr - 1 - first) / m + 1 : 0;
		*ret_keep = first + i * m - e->sector;
	} else {
		n = nr >= 2 ? nr - 1 : 0;
		*ret_keep = i + 1;
	}
	return n;
}
