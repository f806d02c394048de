/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * macro.h — the attributes and macros every file of the project may use.
 */
#ifndef BO_MACRO_H
#define BO_MACRO_H

#define _printf_(a, b) __attribute__((format(printf, a, b)))

/* The result says whether it worked (>= 0, or -errno): a caller must look at it. */
#define _must_check_ __attribute__((warn_unused_result))

/* 0, and a compile error when @a is a pointer rather than an array (the kernel's
 * __must_be_array): sizeof of a pointer divided by its element size is a silent bug. */
#define BO_MUST_BE_ARRAY(a)                                                                  \
	((int) sizeof(struct {                                                               \
		int : (-!!__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0]))); \
	}))

#define BO_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + BO_MUST_BE_ARRAY(a))

#endif
