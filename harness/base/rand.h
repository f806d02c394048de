/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rand.h — the one pseudo-random generator of the harness: splitmix64 (Steele, Lea and Flood,
 * "Fast splittable pseudorandom number generators", OOPSLA 2014). Everything random in a run
 * is drawn from it, from the run's seed, so that the same seed gives the same run.
 */
#ifndef BO_RAND_H
#define BO_RAND_H

#include <stdint.h>

/* The next value of the generator whose state is *@state. */
static inline uint64_t bo_rand_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif
