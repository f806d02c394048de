/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guestfs.h — a filesystem as the guest needs it: the programs that make, check and map it
 * and the Debian package that has them, its kernel modules, and the kernel options that build
 * it. vm/ knows no filesystem of its own: its caller hands it the row of every filesystem a
 * guest may make (harness/dev/fstab.h, as harness/cli gives them), and the names of those a
 * command tests.
 */
#ifndef BO_GUESTFS_H
#define BO_GUESTFS_H

/* Most programs, modules and options of one filesystem. */
#define BO_GUESTFS_TOOLS   8
#define BO_GUESTFS_MODULES 5
#define BO_GUESTFS_KCONFIG 3

struct bo_guest_fs {
	const char *name;			 /* "xfs"; NULL ends an array of them */
	const char *package;			 /* the Debian package of its tools */
	const char *tools[BO_GUESTFS_TOOLS];	 /* programs, NULL-terminated */
	const char *modules[BO_GUESTFS_MODULES]; /* modules, when the kernel has them */
	const char *kconfig[BO_GUESTFS_KCONFIG]; /* "CONFIG_A", or "CONFIG_A|CONFIG_B": either */
};

#endif
