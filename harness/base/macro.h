/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * macro.h — the attributes and macros every file of the project may use, and scope-bound
 * release of memory, file descriptors and library handles.
 *
 * The cleanup attribute is only for resources whose release cannot fail in an interesting
 * way. Kernel objects (dm devices, loop bindings, mounts) never go here: they are torn down
 * explicitly, in reverse, with failures reported.
 */
#ifndef BO_MACRO_H
#define BO_MACRO_H

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

/* "1 entry", "2 entries": @one or @many as @n asks. */
#define BO_PLURAL(n, one, many) ((n) == 1 ? (one) : (many))

#define _cleanup_(fn) __attribute__((cleanup(fn)))

static inline void bo_freep(void *p)
{
	free(*(void **) p);
}

static inline void bo_closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;

		(void) close(*fd);
		errno = saved;
	}
}

static inline void bo_fclosep(FILE **f)
{
	if (*f)
		(void) fclose(*f);
}

static inline void bo_closedirp(DIR **d)
{
	if (*d)
		(void) closedir(*d);
}

#define _cleanup_free_	 _cleanup_(bo_freep)
#define _cleanup_close_	 _cleanup_(bo_closep)
#define _cleanup_fclose_ _cleanup_(bo_fclosep)

/* Hand ownership out of a cleanup-managed variable. */
#define BO_TAKE_PTR(p)              \
	({                          \
		typeof(p) _p = (p); \
		(p) = NULL;         \
		_p;                 \
	})
#define BO_TAKE_FD(fd)          \
	({                      \
		int _fd = (fd); \
		(fd) = -1;      \
		_fd;            \
	})

#endif
