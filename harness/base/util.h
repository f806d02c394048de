/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h — error reports, number parsing, word lists, the monotonic clock and debug categories.
 */
#ifndef BO_UTIL_H
#define BO_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/base/macro.h"

/*
 * An error report. Library code fills one in and returns -errno; the caller decides whether
 * and where to print it. A NULL report is allowed everywhere and simply drops the text.
 */
struct bo_err {
	int errnum;
	char msg[512];
};

/* Fill @err with a formatted message and return -@errnum (@errnum is a positive errno). */
int bo_err_set(struct bo_err *err, int errnum, const char *fmt, ...) _printf_(3, 4);

/* Prefix the message already in @err with a formatted context; returns -err->errnum. */
int bo_err_prefix(struct bo_err *err, const char *fmt, ...) _printf_(2, 3);

/* The text of @err, or strerror of its errno when no text was set. */
const char *bo_err_str(const struct bo_err *err);

/* Parse a whole string of decimal digits (no sign, no hex, no octal); -EINVAL or -ERANGE. */
_must_check_ int bo_parse_u64(const char *s, uint64_t *ret);

/* bo_parse_u64() of a number that must lie in [@min, @max]: -EINVAL when @s is not a number,
 * -ERANGE when it is one outside (or past 2^64-1). For a value stored in a narrower type, or
 * with a bound of its own: never truncated, never taken as another. */
_must_check_ int bo_parse_u64_in(const char *s, uint64_t min, uint64_t max, uint64_t *ret);

/* Parse a share "I/N" of N shares, 0 <= I < N <= @max_n: -EINVAL when it is not one, -ERANGE
 * when a number is out of range (never its low bits taken). */
_must_check_ int bo_parse_share(const char *s, uint64_t max_n, unsigned *ret_i, unsigned *ret_n);

/* Parse "A-B" (both inclusive; "A-" means to the end, "A" means just A); -EINVAL, -ERANGE
 * for a number past 2^64-1. */
_must_check_ int bo_parse_range(const char *s, uint64_t *ret_a, uint64_t *ret_b);

/* Split @s on blanks into a NULL-terminated array (no quoting); NULL when memory runs out.
 * Free with bo_strv_free(). */
char **bo_strv_split(const char *s);
void bo_strv_free(char **v);

/* Seconds on the monotonic clock: for durations, never for dates. */
double bo_now(void);

/* Debug categories, set from BLACKOUT_DEBUG=dm,loop,mount,replay,log,vm or "all". */
enum bo_debug_cat {
	BO_DBG_LOG = 1u << 0,
	BO_DBG_REPLAY = 1u << 1,
	BO_DBG_DM = 1u << 2,
	BO_DBG_LOOP = 1u << 3,
	BO_DBG_MOUNT = 1u << 4,
	BO_DBG_VM = 1u << 5,
	BO_DBG_RUN = 1u << 6,
};

bool bo_debug_on(enum bo_debug_cat cat);
void bo_debug(enum bo_debug_cat cat, const char *fmt, ...) _printf_(2, 3);

/* One line on stderr: "blackout: ", @kind ("error: ", "" for a note, ...), the message. */
void bo_vsay(const char *kind, const char *fmt, va_list ap) _printf_(2, 0);

#endif
