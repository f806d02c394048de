// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * strmap.c — strings to numbers (strmap.h): open addressing with linear probing over FNV-1a,
 * at most half full.
 */
#include "harness/base/strmap.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 0x100000001b3ULL;
	return h;
}

/* The slot of @key in @keys (@cap slots): where it is, or the free one it would take. */
static size_t slot(const char *const *keys, size_t cap, const char *key)
{
	size_t i = (size_t) hash(key) & (cap - 1);

	while (keys[i] && strcmp(keys[i], key))
		i = (i + 1) & (cap - 1);
	return i;
}

static int grow(struct bo_strmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64;
	const char **keys = calloc(cap, sizeof(*keys));
	size_t *values = calloc(cap, sizeof(*values));

	if (!keys || !values) {
		free(keys);
		free(values);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i]) {
			size_t j = slot(keys, cap, m->keys[i]);

			keys[j] = m->keys[i];
			values[j] = m->values[i];
		}
	free(m->keys);
	free(m->values);
	m->keys = keys;
	m->values = values;
	m->cap = cap;
	return 0;
}

int bo_strmap_put(struct bo_strmap *m, const char *key, size_t value, size_t *ret_value)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap && grow(m) < 0)
		return -ENOMEM;
	i = slot(m->keys, m->cap, key);
	if (m->keys[i]) {
		if (ret_value)
			*ret_value = m->values[i];
		return 0;
	}
	m->keys[i] = key;
	m->values[i] = value;
	m->n++;
	return 1;
}

bool bo_strmap_get(const struct bo_strmap *m, const char *key, size_t *ret_value)
{
	size_t i;

	if (!m->cap)
		return false;
	i = slot(m->keys, m->cap, key);
	if (!m->keys[i])
		return false;
	if (ret_value)
		*ret_value = m->values[i];
	return true;
}

void bo_strmap_clear(struct bo_strmap *m)
{
	free(m->keys);
	free(m->values);
	*m = (struct bo_strmap){0};
}
