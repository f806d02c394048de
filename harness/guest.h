/* SPDX-License-Identifier: GPL-2.0-or-later */
/* guest.h — the guest side of `blackout run` and `blackout check`. */
#ifndef BO_GUEST_H
#define BO_GUEST_H

int bo_cmd_guest_run(int argc, char **argv);
int bo_cmd_guest_check(int argc, char **argv);

#endif
