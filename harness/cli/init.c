// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * __init — blackout as its own VM's /init (PID 1): main() picks it by the name the binary was
 * started under; vm/guest.h does the work.
 */
#include "harness/cli/cli.h"
#include "vm/guest.h"

static int cmd_init(int argc, char **argv)
{
	return bo_guest_init();
}

const struct bo_cmd bo_cmd_init = {"__init", cmd_init, NULL};
