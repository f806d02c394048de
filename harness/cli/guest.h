/* SPDX-License-Identifier: GPL-2.0-or-later */
/* guest.h — the guest side of `blackout run`, `blackout check` and `blackout shrink`. */
#ifndef BO_GUEST_H
#define BO_GUEST_H

int bo_cmd_guest_run(int argc, char **argv);
int bo_cmd_guest_check(int argc, char **argv);
int bo_cmd_guest_shrink(int argc, char **argv);

/* Where in a results directory `blackout shrink` writes what it found. */
#define BO_SHRINK_DIR "shrink"

#endif
