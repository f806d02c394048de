/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dm.h — one small wrapper over libdevmapper: one function per kernel operation.
 *
 * Every function converts libdm's 1/0 + dm_task_get_errno() into 0 / -errno at the call and
 * fills a struct bo_err that names the device and the operation. libdm's own log lines go to
 * blackout's debug log (BLACKOUT_DEBUG=dm), never to stderr.
 *
 * udev: operations that make or remove nodes always set a udev cookie and always wait on it.
 * When no udev runs (no /run/udev/control, as inside the VM), udev synchronisation is switched
 * off and libdm creates and removes the /dev/mapper nodes itself when the cookie is waited on.
 * DM_UDEV_DISABLE_LIBRARY_FALLBACK is never set: that fallback is what makes nodes appear
 * without udev.
 *
 * Names: a device blackout makes is called blackout-<runid>-<role> and carries the uuid
 * BLACKOUT-<runid>-<role>, so that cleanup removes exactly what one run made.
 */
#ifndef BO_DM_H
#define BO_DM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"

/* DM_NAME_LEN and DM_UUID_LEN of linux/dm-ioctl.h, including the terminating NUL. */
#define BO_DM_NAME_MAX 128
#define BO_DM_UUID_MAX 129

#define BO_DM_NAME_PREFIX "blackout-"
#define BO_DM_UUID_PREFIX "BLACKOUT-"

struct dm_versions;
struct dm_names;

/* A target version as the kernel reports it (struct target_type .version). */
struct bo_dm_version {
	uint32_t major, minor, patch;
};

/* One loaded target type and its version (DM_DEVICE_LIST_VERSIONS). */
struct bo_dm_target_version {
	char name[64];
	struct bo_dm_version version;
};

/* What DM_DEVICE_INFO says about a device. */
struct bo_dm_info {
	bool exists;
	bool suspended;
	bool live_table;
	bool inactive_table;
	int32_t open_count;
	uint32_t major, minor;
	char uuid[BO_DM_UUID_MAX];
};

/* One line of a device's table, with the target's status or table parameters. */
struct bo_dm_target_line {
	uint64_t start;
	uint64_t length;
	char *type;
	char *params;
};

enum bo_dm_suspend_flags {
	/* Do not flush I/O queued in the device: it is left for after resume (noflush). */
	BO_DM_SUSPEND_NOFLUSH = 1u << 0,
	/* Do not freeze the filesystem on top (skip_lockfs): nothing is written back first. */
	BO_DM_SUSPEND_SKIP_LOCKFS = 1u << 1,
	/* A power cut: the filesystem must not get a chance to write anything back, as with
	 * fstests' "dmsetup suspend --nolockfs" before loading a drop_writes table. */
	BO_DM_SUSPEND_POWERCUT = BO_DM_SUSPEND_NOFLUSH | BO_DM_SUSPEND_SKIP_LOCKFS,
};

/*
 * Set up libdm once: route its log into the debug log and switch udev synchronisation off
 * when no udev is running. Every other function calls it; calling it again does nothing.
 */
void bo_dm_init(void);

/* Whether a udev daemon is running (its control socket /run/udev/control exists). */
bool bo_dm_udev_running(void);

/*
 * Build the device name "blackout-@runid-@role" into @name (BO_DM_NAME_MAX bytes) and the uuid
 * "BLACKOUT-@runid-@role" into @uuid (BO_DM_UUID_MAX bytes; NULL to skip). @runid and @role may
 * hold only letters, digits, '.', '_' and '-', and must be non-empty. -EINVAL or
 * -ENAMETOOLONG with @err saying why.
 */
_must_check_ int bo_dm_name(const char *runid, const char *role, char *name, char *uuid,
			    struct bo_err *err);

/* The device node of dm device @name, "/dev/mapper/@name", into @buf; -ENAMETOOLONG. */
_must_check_ int bo_dm_device_path(const char *name, char *buf, size_t len);

/*
 * Create device @name with uuid @uuid (NULL: none) and, when @table is not NULL, load @table
 * and resume it so the device is live when this returns. @table holds one target line per
 * text line, "<start> <length> <type> <params>". Without a table the device exists with no
 * table until bo_dm_load() and bo_dm_resume().
 */
_must_check_ int bo_dm_create(const char *name, const char *uuid, const char *table,
			      struct bo_err *err);

/* Load @table as the inactive table of @name (DM_DEVICE_RELOAD); it goes live at resume. */
_must_check_ int bo_dm_load(const char *name, const char *table, struct bo_err *err);

/* Suspend @name; @flags is a set of enum bo_dm_suspend_flags. */
_must_check_ int bo_dm_suspend(const char *name, unsigned flags, struct bo_err *err);

/* Resume @name, making a loaded inactive table live. */
_must_check_ int bo_dm_resume(const char *name, struct bo_err *err);

/* Send target message @msg to sector 0 of @name (DM_DEVICE_TARGET_MSG). */
_must_check_ int bo_dm_message(const char *name, const char *msg, struct bo_err *err);

/*
 * The status (DM_DEVICE_STATUS) of each target line of @name, in table order. *@ret_lines is
 * an array of *@ret_n lines to free with bo_dm_lines_free(). A device without a live table has
 * zero lines.
 */
_must_check_ int bo_dm_status(const char *name, struct bo_dm_target_line **ret_lines, size_t *ret_n,
			      struct bo_err *err);

/* The live table (DM_DEVICE_TABLE) of @name, as the kernel renders it; like bo_dm_status(). */
_must_check_ int bo_dm_table(const char *name, struct bo_dm_target_line **ret_lines, size_t *ret_n,
			     struct bo_err *err);

/*
 * The status parameters of the single target line of @name, which must be of type @type:
 * -EPROTO otherwise (a device with another table is not the device the caller means). The
 * string is copied into @buf of @len bytes.
 */
_must_check_ int bo_dm_status_one(const char *name, const char *type, char *buf, size_t len,
				  struct bo_err *err);

/* Like bo_dm_status_one(), for the live table's parameters (DM_DEVICE_TABLE). */
_must_check_ int bo_dm_table_one(const char *name, const char *type, char *buf, size_t len,
				 struct bo_err *err);

/* Free what bo_dm_status() or bo_dm_table() returned; NULL is fine. */
void bo_dm_lines_free(struct bo_dm_target_line *lines, size_t n);

/* Info about @name. A device that does not exist is not an error: ret->exists is false. */
_must_check_ int bo_dm_info(const char *name, struct bo_dm_info *ret, struct bo_err *err);

/*
 * Remove device @name. EBUSY is retried a bounded number of times (see dm.c for the race);
 * a device that stays busy is reported with its open count. A device that does not exist is
 * -ENXIO.
 */
_must_check_ int bo_dm_remove(const char *name, struct bo_err *err);

/*
 * Names of all dm devices whose name starts with @prefix (non-empty; end it with '-' so that
 * run "1" does not match run "10"). *@ret is a NULL-terminated array to free with
 * bo_dm_list_free(); it is empty when nothing matches.
 */
_must_check_ int bo_dm_list(const char *prefix, char ***ret, struct bo_err *err);

/* Free a list returned by bo_dm_list(); NULL is fine. */
void bo_dm_list_free(char **list);

/* The loaded target types and their versions (DM_DEVICE_LIST_VERSIONS); free() the array. */
_must_check_ int bo_dm_target_versions(struct bo_dm_target_version **ret, size_t *ret_n,
				       struct bo_err *err);

/*
 * Walk libdm's list of versions starting at @first (as dm_task_get_versions() returns it)
 * into a new array. Exposed so the walk can be tested on canned lists.
 */
_must_check_ int bo_dm_versions_from_list(const struct dm_versions *first,
					  struct bo_dm_target_version **ret, size_t *ret_n);

/*
 * Walk libdm's list of device names starting at @first (as dm_task_get_names() returns it),
 * keeping the names that start with @prefix, into a NULL-terminated array. Exposed so the walk
 * can be tested on canned lists.
 */
_must_check_ int bo_dm_names_from_list(const struct dm_names *first, const char *prefix,
				       char ***ret);

/* The entry named @name in @v, or NULL. */
const struct bo_dm_target_version *bo_dm_find_target(const struct bo_dm_target_version *v, size_t n,
						     const char *name);

/* <0, 0, >0 as @a is older than, the same as, or newer than @b. */
_must_check_ int bo_dm_version_cmp(const struct bo_dm_version *a, const struct bo_dm_version *b);

/* Split one table or status line "<start> <length> <type> <params>"; exposed for tests. */
_must_check_ int bo_dm_parse_line(const char *line, struct bo_dm_target_line *ret,
				  struct bo_err *err);

#endif
