// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * __modprobe — blackout as its own VM's /sbin/modprobe, which the kernel runs to load a
 * module on demand: main() picks it by the name the binary was started under; vm/guest.h does
 * the work.
 */
#include "harness/cli/cli.h"
#include "vm/guest.h"

static int cmd_modprobe(int argc, char **argv)
{
	return bo_guest_modprobe(argc, argv);
}

const struct bo_cmd bo_cmd_modprobe = {"__modprobe", cmd_modprobe, NULL};
