// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fault plan entries: "TRIGGER FAULT [FAULT...]", words separated by blanks. The features and
 * their arguments are flakey's own (drivers/md/dm-flakey.c, parse_features()), and so are the
 * conflicts refused here: drop_writes with error_writes, either of them with corrupting
 * writes, error_reads with corrupting reads, a feature given twice.
 */
#include "harness/scenario/faultplan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/util.h"
#include "harness/cluster/cluster.h"

#define MAX_WORDS 16
/* dm-log-writes keeps 479 bytes of a mark name with 512-byte blocks (docs/ctl.md). */
#define MAX_MARK 479
/* random_*_corrupt: 1e9 is 100 % (flakey's PROBABILITY_BASE). */
#define PROBABILITY_BASE 1000000000u

static int why_set(char *why, size_t len, const char *fmt, ...) _printf_(3, 4);
static int why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Decimal digits only, at most @max. */
static int parse_num(const char *s, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned d = (unsigned) (*s - '0');

		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}

static bool printable_name(const char *s)
{
	for (; *s; s++)
		if (*s < 0x21 || *s > 0x7e)
			return false;
	return true;
}

int bo_trigger_parse(const char *w, char **ret, char *why, size_t whylen)
{
	static const char *const reserved[] = {"mkfs", "dm-log-writes-end", NULL};
	const char *kind = !strncmp(w, "ack:", 4)     ? "ack"
			   : !strncmp(w, "issue:", 6) ? "issue"
						      : NULL;
	uint64_t id;

	if (kind) {
		if (parse_num(w + strlen(kind) + 1, UINT64_MAX, &id) < 0)
			return why_set(why, whylen, "%s: needs a decimal op id, like %s:40", kind,
				       kind);
		return asprintf(ret, "%s:%" PRIu64, kind, id) < 0 ? -ENOMEM : 0;
	}
	if (strncmp(w, "mark:", 5))
		return why_set(why, whylen,
			       "the trigger must be ack:<opid>, issue:<opid> or mark:<name>");
	w += 5;
	if (!*w || strlen(w) > MAX_MARK || !printable_name(w))
		return why_set(why, whylen, "mark: needs a name of 1 to %d printable characters",
			       MAX_MARK);
	if (!strncmp(w, "ack:", 4) || !strncmp(w, "issue:", 6) ||
	    !strncmp(w, BO_FAULT_MARK_PREFIX, strlen(BO_FAULT_MARK_PREFIX)) ||
	    !strncmp(w, BO_NODE_CUT_PREFIX, strlen(BO_NODE_CUT_PREFIX)))
		return why_set(
			why, whylen,
			"mark:%.40s: names starting with ack:, issue:, fault: or node-cut: are "
			"not user marks (write ack:<opid> or issue:<opid>)",
			w);
	for (const char *const *r = reserved; *r; r++)
		if (!strcmp(w, *r))
			return why_set(why, whylen, "mark:%s: the harness's own mark is no trigger",
				       w);
	*ret = strdup(w);
	return *ret ? 0 : -ENOMEM;
}

/* Append @s to the fault's `what`, comma-separated. */
static int what_add(struct bo_fault *f, const char *s)
{
	size_t old = f->what ? strlen(f->what) : 0, add = strlen(s);
	char *n = realloc(f->what, old + add + 2);

	if (!n)
		return -ENOMEM;
	if (old)
		n[old++] = ',';
	memcpy(n + old, s, add + 1);
	f->what = n;
	return 0;
}

/* Parse the features in @w[0..n) into @f. */
static int parse_features(char **w, size_t n, struct bo_fault *f, char *why, size_t whylen)
{
	bool corrupt_w, corrupt_r;

	for (size_t i = 0; i < n; i++) {
		const char *word = w[i];
		bool *flag = !strcmp(word, "drop_writes")    ? &f->drop_writes
			     : !strcmp(word, "error_writes") ? &f->error_writes
			     : !strcmp(word, "error_reads")  ? &f->error_reads
							     : NULL;
		uint64_t v;

		if (!strcmp(word, "up")) {
			if (n != 1)
				return why_set(why, whylen,
					       "'up' stands alone: it ends every fault");
			f->up = true;
		} else if (flag) {
			if (*flag)
				return why_set(why, whylen, "'%s' given twice", word);
			*flag = true;
		} else if (!strcmp(word, "corrupt_bio_byte")) {
			uint64_t nth, val, flags;

			if (f->corrupt_bio_byte)
				return why_set(why, whylen, "'%s' given twice", word);
			if (i + 4 >= n)
				return why_set(
					why, whylen,
					"corrupt_bio_byte takes 4 arguments: <nth byte, from "
					"1> <r|w> <value 0..255> <bio flags>");
			if (parse_num(w[i + 1], UINT32_MAX, &nth) < 0 || nth == 0)
				return why_set(
					why, whylen,
					"corrupt_bio_byte: the byte to corrupt counts from 1");
			if (strcmp(w[i + 2], "r") && strcmp(w[i + 2], "w"))
				return why_set(why, whylen,
					       "corrupt_bio_byte: the direction is r or w");
			if (parse_num(w[i + 3], 255, &val) < 0)
				return why_set(why, whylen,
					       "corrupt_bio_byte: the value is 0 to 255");
			if (parse_num(w[i + 4], UINT32_MAX, &flags) < 0)
				return why_set(why, whylen,
					       "corrupt_bio_byte: the bio flags are a decimal "
					       "number (0: every bio)");
			f->corrupt_bio_byte = true;
			f->corrupt_nth_byte = (uint32_t) nth;
			f->corrupt_direction = w[i + 2][0];
			f->corrupt_value = (uint8_t) val;
			f->corrupt_flags = (uint32_t) flags;
			for (int k = 0; k <= 4; k++)
				if (what_add(f, w[i + k]) < 0)
					return -ENOMEM;
			i += 4;
			continue;
		} else if (!strcmp(word, "random_read_corrupt") ||
			   !strcmp(word, "random_write_corrupt")) {
			uint32_t *p =
				word[7] == 'r' ? &f->random_read_corrupt : &f->random_write_corrupt;

			if (*p)
				return why_set(why, whylen, "'%s' given twice", word);
			if (i + 1 >= n || parse_num(w[i + 1], PROBABILITY_BASE, &v) < 0 || v == 0)
				return why_set(why, whylen,
					       "%s takes a probability in units of 1e-9, 1 to "
					       "1000000000 (100 %%)",
					       word);
			*p = (uint32_t) v;
			if (what_add(f, word) < 0 || what_add(f, w[i + 1]) < 0)
				return -ENOMEM;
			i++;
			continue;
		} else {
			return why_set(why, whylen,
				       "unknown fault '%.40s' (expected drop_writes, error_writes, "
				       "error_reads, corrupt_bio_byte, random_read_corrupt, "
				       "random_write_corrupt or up)",
				       word);
		}
		if (what_add(f, word) < 0)
			return -ENOMEM;
	}
	corrupt_w = (f->corrupt_bio_byte && f->corrupt_direction == 'w') || f->random_write_corrupt;
	corrupt_r = (f->corrupt_bio_byte && f->corrupt_direction == 'r') || f->random_read_corrupt;
	if (f->drop_writes && f->error_writes)
		return why_set(why, whylen, "drop_writes and error_writes exclude each other");
	if ((f->drop_writes || f->error_writes) && corrupt_w)
		return why_set(why, whylen, "%s excludes corrupting writes",
			       f->drop_writes ? "drop_writes" : "error_writes");
	if (f->error_reads && corrupt_r)
		return why_set(why, whylen, "error_reads excludes corrupting reads");
	return 0;
}

int bo_fault_parse(const char *value, struct bo_fault *ret, char *why, size_t whylen)
{
	char *copy = strdup(value), *w[MAX_WORDS], *save = NULL;
	struct bo_fault f = {0};
	size_t n = 0;
	int r;

	bo_fault_clear(ret);
	if (!copy)
		return -ENOMEM;
	for (char *t = strtok_r(copy, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (n == MAX_WORDS) {
			free(copy);
			return why_set(why, whylen, "more than %d words", MAX_WORDS);
		}
		w[n++] = t;
	}
	if (n < 2) {
		free(copy);
		return why_set(why, whylen,
			       "expected 'TRIGGER FAULT...', like 'ack:40 drop_writes' or "
			       "'mark:phase2 up'");
	}
	r = bo_trigger_parse(w[0], &f.trigger, why, whylen);
	if (r >= 0)
		r = parse_features(w + 1, n - 1, &f, why, whylen);
	free(copy);
	if (r < 0) {
		bo_fault_clear(&f);
		return r == -ENOMEM ? why_set(why, whylen, "out of memory"), -ENOMEM : r;
	}
	*ret = f;
	return 0;
}

void bo_fault_clear(struct bo_fault *f)
{
	if (!f)
		return;
	free(f->trigger);
	free(f->what);
	*f = (struct bo_fault){0};
}

int bo_fault_mark_name(const struct bo_fault *f, unsigned n, char **ret)
{
	return asprintf(ret, BO_FAULT_MARK_PREFIX "%u:%s", n, f->what) < 0 ? -ENOMEM : 0;
}
