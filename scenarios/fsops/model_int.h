/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model_int.h — what the fsops model's files share: the one 64-bit mix of the generator
 * (model.c) and of the data and attribute values (data.c). Inline: the generator and the
 * decoder call it per word and per draw. Internal to the fsops program.
 */
#ifndef BO_FSOPS_MODEL_INT_H
#define BO_FSOPS_MODEL_INT_H

#include <stdint.h>

/* splitmix64's finaliser: a good 64-bit mix. */
static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

#endif
