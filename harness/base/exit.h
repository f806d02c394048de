/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exit.h — the exit statuses of blackout (docs/blackout.1), which summary.json records too.
 */
#ifndef BO_EXIT_H
#define BO_EXIT_H

enum bo_exit {
	BO_EXIT_OK = 0,	     /* everything checked and consistent */
	BO_EXIT_FAILURE = 1, /* a crash state failed a check */
	BO_EXIT_USAGE = 2,   /* bad command line */
	BO_EXIT_HARNESS = 3, /* blackout could not do its job: bad input, I/O error, ... */
};

#endif
