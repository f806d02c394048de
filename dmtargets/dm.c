// SPDX-License-Identifier: GPL-2.0-or-later
#include "dmtargets/dm.h"

#include <ctype.h>
#include <errno.h>
#include <libdevmapper.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/macro.h"

static inline void bo_dm_task_destroyp(struct dm_task **dmt)
{
	if (*dmt)
		dm_task_destroy(*dmt);
}
#define _cleanup_dm_task_ _cleanup_(bo_dm_task_destroyp)

#define UDEV_CONTROL "/run/udev/control"

/* libdm's log levels (_LOG_* in libdm/misc/dm-logging.h) are the low bits; the rest are flags. */
#define LIBDM_LEVEL_MASK 0x0f
#define LIBDM_LEVEL_WARN 4

_printf_(5, 6) static void dm_log_cb(int level, const char *file, int line, int dm_errno_or_class,
				     const char *f, ...)
{
	char msg[512];
	va_list ap;

	if (!bo_debug_on(BO_DBG_DM))
		return;
	va_start(ap, f);
	vsnprintf(msg, sizeof(msg), f, ap);
	va_end(ap);
	/* For errors and warnings the fourth argument is an errno, for debug lines a class. */
	level &= LIBDM_LEVEL_MASK;
	if (level <= LIBDM_LEVEL_WARN && dm_errno_or_class > 0)
		bo_debug(BO_DBG_DM, "libdm[%d] %s:%d: %s: %s", level, file, line, msg,
			 strerror(dm_errno_or_class));
	else
		bo_debug(BO_DBG_DM, "libdm[%d] %s:%d: %s", level, file, line, msg);
}

bool bo_dm_udev_running(void)
{
	return access(UDEV_CONTROL, F_OK) == 0;
}

void bo_dm_init(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	dm_log_with_errno_init(dm_log_cb);
	if (!bo_dm_udev_running()) {
		/* Nobody would ever complete the cookie: wait on nothing and let libdm make and
		 * remove the /dev/mapper nodes itself, without warning that udev did not. */
		bo_debug(BO_DBG_DM, "no udev (%s missing): udev sync off, libdm makes nodes",
			 UDEV_CONTROL);
		dm_udev_set_sync_support(0);
		dm_udev_set_checking(0);
	}
}

static bool name_chars_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char) *s) && *s != '.' && *s != '_' && *s != '-')
			return false;
	return true;
}

int bo_dm_name(const char *runid, const char *role, char *name, char *uuid, struct bo_err *err)
{
	char n[BO_DM_NAME_MAX], u[BO_DM_UUID_MAX];
	int ln, lu;

	if (!name_chars_ok(runid))
		return bo_err_set(
			err, EINVAL,
			"dm name: run id '%s' must be non-empty letters, digits, '.', '_' "
			"or '-'",
			runid);
	if (!name_chars_ok(role))
		return bo_err_set(err, EINVAL,
				  "dm name: role '%s' must be non-empty letters, digits, '.', '_' "
				  "or '-'",
				  role);
	ln = snprintf(n, sizeof(n), BO_DM_NAME_PREFIX "%s-%s", runid, role);
	lu = snprintf(u, sizeof(u), BO_DM_UUID_PREFIX "%s-%s", runid, role);
	if (ln < 0 || lu < 0 || (size_t) ln >= sizeof(n) || (size_t) lu >= sizeof(u))
		return bo_err_set(err, ENAMETOOLONG,
				  "dm name: run id '%s' with role '%s' is longer than the %d "
				  "bytes device-mapper allows",
				  runid, role, BO_DM_NAME_MAX - 1);
	memcpy(name, n, (size_t) ln + 1);
	if (uuid)
		memcpy(uuid, u, (size_t) lu + 1);
	return 0;
}

int bo_dm_device_path(const char *name, char *buf, size_t len)
{
	int n;

	bo_dm_init();
	n = snprintf(buf, len, "%s/%s", dm_dir(), name);
	return n < 0 || (size_t) n >= len ? -ENAMETOOLONG : 0;
}

/*
 * Why libdm could not even talk to the kernel: it has no errno for that, so look at the
 * control node. Missing (or no driver behind it): -ENODEV; not ours to open: -EACCES.
 */
static int no_dm_errno(void)
{
	if (access("/dev/mapper/control", R_OK | W_OK) < 0 && errno == EACCES)
		return -EACCES;
	return -ENODEV;
}

/* The error of a failed dm_task_run(), as -errno. */
static int task_errno(struct dm_task *dmt)
{
	int e = dm_task_get_errno(dmt);

	/* Without an ioctl errno libdm failed before any ioctl was made. */
	return e > 0 ? -e : no_dm_errno();
}

/* Fill @err for operation @op on @name that failed with @r. */
static int task_fail(int r, struct bo_err *err, const char *op, const char *name)
{
	if (r == -ENODEV)
		return bo_err_set(err, -r,
				  "dm %s '%s': no device-mapper here (no /dev/mapper/control, or "
				  "the dm-mod module is not loaded)",
				  op, name);
	return bo_err_set(err, -r, "dm %s '%s': %s", op, name, strerror(-r));
}

/*
 * Run a task that makes, changes or removes device nodes. The cookie is always set and always
 * waited on, also after a failure (libdm completed it then): waiting is what runs libdm's
 * queued node operations, and what releases the cookie's semaphore when udev sync is on.
 */
static int run_with_cookie(struct dm_task *dmt)
{
	uint32_t cookie = 0;
	int r = 0;

	/* Fails only when the udev semaphore cannot be made (see dm_task_set_cookie()). */
	if (!dm_task_set_cookie(dmt, &cookie, 0))
		return -EIO;
	if (!dm_task_run(dmt))
		r = task_errno(dmt);
	if (!dm_udev_wait(cookie) && r == 0)
		r = -EIO;
	return r;
}

static int run_plain(struct dm_task *dmt)
{
	return dm_task_run(dmt) ? 0 : task_errno(dmt);
}

static int check_name(const char *name, const char *op, struct bo_err *err)
{
	if (!name || !*name || strlen(name) >= BO_DM_NAME_MAX || strchr(name, '/'))
		return bo_err_set(err, EINVAL,
				  "dm %s: '%s' is not a device-mapper name (1..%d bytes, no '/')",
				  op, name ? name : "", BO_DM_NAME_MAX - 1);
	return 0;
}

/*
 * A task of @type for device @name (NULL: none) into *@ret, or -errno with @err filled for
 * operation @op. dm_task_create() also fails when libdm cannot talk to the kernel's driver.
 */
static int task_new(int type, const char *name, const char *op, struct dm_task **ret,
		    struct bo_err *err)
{
	struct dm_task *dmt;

	if (name) {
		int r = check_name(name, op, err);

		if (r < 0)
			return r;
	}
	bo_dm_init();
	errno = 0;
	dmt = dm_task_create(type);
	if (!dmt)
		return task_fail(errno == ENOMEM ? -ENOMEM : no_dm_errno(), err, op,
				 name ? name : "(all)");
	if (name && !dm_task_set_name(dmt, name)) {
		dm_task_destroy(dmt);
		return task_fail(-ENOMEM, err, op, name);
	}
	*ret = dmt;
	return 0;
}

int bo_dm_parse_line(const char *line, struct bo_dm_target_line *ret, struct bo_err *err)
{
	char start[32], length[32], type[64];
	uint64_t s, l;
	int used = 0;

	if (sscanf(line, " %31s %31s %63s %n", start, length, type, &used) != 3)
		return bo_err_set(err, EINVAL,
				  "table line '%s': expected '<start> <length> <type> [<params>]'",
				  line);
	if (bo_parse_u64(start, &s) < 0 || bo_parse_u64(length, &l) < 0 || l == 0)
		return bo_err_set(err, EINVAL,
				  "table line '%s': start and length must be numbers, length > 0",
				  line);
	ret->start = s;
	ret->length = l;
	ret->type = strdup(type);
	ret->params = strdup(line + used);
	if (!ret->type || !ret->params) {
		free(ret->type);
		free(ret->params);
		ret->type = ret->params = NULL;
		return bo_err_set(err, ENOMEM, "table line '%s': out of memory", line);
	}
	/* Trailing blanks are not part of the parameters. */
	for (size_t n = strlen(ret->params); n && isspace((unsigned char) ret->params[n - 1]);)
		ret->params[--n] = '\0';
	return 0;
}

/*
 * Add every line of @table to @dmt; with @dmt NULL only check them, so that a malformed table
 * is reported as such even where libdm could not be reached.
 */
static int add_table(struct dm_task *dmt, const char *name, const char *table, struct bo_err *err)
{
	_cleanup_free_ char *copy = strdup(table);
	char *save = NULL;
	size_t lines = 0;

	if (!copy)
		return bo_err_set(err, ENOMEM, "dm table for '%s': out of memory", name);
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct bo_dm_target_line t;
		int r;

		if (l[strspn(l, " \t")] == '\0')
			continue;
		r = bo_dm_parse_line(l, &t, err);
		if (r < 0)
			return bo_err_prefix(err, "dm table for '%s'", name);
		r = !dmt || dm_task_add_target(dmt, t.start, t.length, t.type, t.params);
		free(t.type);
		free(t.params);
		if (!r)
			return bo_err_set(err, ENOMEM, "dm table for '%s': out of memory", name);
		lines++;
	}
	if (lines == 0)
		return bo_err_set(err, EINVAL, "dm table for '%s': empty table", name);
	return 0;
}

int bo_dm_create(const char *name, const char *uuid, const char *table, struct bo_err *err)
{
	_cleanup_dm_task_ struct dm_task *dmt = NULL;
	struct bo_err undo = {0};
	int r;

	if (table) {
		r = add_table(NULL, name, table, err);
		if (r < 0)
			return r;
	}
	r = task_new(DM_DEVICE_CREATE, name, "create", &dmt, err);
	if (r < 0)
		return r;
	if (uuid && !dm_task_set_uuid(dmt, uuid))
		return bo_err_set(err, ENOMEM, "dm create '%s': out of memory", name);
	/*
	 * Create, load and resume as three tasks, not as libdm's create-with-table: that one
	 * loses the kernel's errno (the load runs in an inner task whose error is not copied
	 * back, and the removal that reverts the creation resets it to 0), so a refused table
	 * could not be told from a missing device-mapper. A bare create sends no dm uevent and
	 * makes no node (that happens at resume), so it takes no udev cookie.
	 */
	r = run_plain(dmt);
	if (r == -EBUSY || r == -EEXIST)
		return bo_err_set(err, -r, "dm create '%s': a device with this name or uuid exists",
				  name);
	if (r < 0)
		return task_fail(r, err, "create", name);
	if (table) {
		r = bo_dm_load(name, table, err);
		if (r == 0)
			r = bo_dm_resume(name, err);
		if (r < 0) {
			char first[sizeof(err->msg)];

			snprintf(first, sizeof(first), "%s", bo_err_str(err));
			if (bo_dm_remove(name, &undo) < 0)
				bo_err_set(err, -r,
					   "%s; removing the half-made device failed too, so it is "
					   "left behind: %s",
					   first, bo_err_str(&undo));
			return r;
		}
	}
	bo_debug(BO_DBG_DM, "created '%s' uuid '%s'%s%s", name, uuid ? uuid : "",
		 table ? " table " : "", table ? table : "");
	return 0;
}

int bo_dm_load(const char *name, const char *table, struct bo_err *err)
{
	_cleanup_dm_task_ struct dm_task *dmt = NULL;
	int r;

	r = add_table(NULL, name, table, err);
	if (r < 0)
		return r;
	r = task_new(DM_DEVICE_RELOAD, name, "load", &dmt, err);
	if (r < 0)
		return r;
	r = add_table(dmt, name, table, err);
	if (r < 0)
		return r;
	r = run_plain(dmt);
	if (r == -EINVAL)
		return bo_err_set(
			err, EINVAL,
			"dm load '%s': table '%s' refused (the kernel's reason is in dmesg)", name,
			table);
	if (r < 0)
		return task_fail(r, err, "load", name);
	bo_debug(BO_DBG_DM, "loaded '%s': %s", name, table);
	return 0;
}

int bo_dm_suspend(const char *name, unsigned flags, struct bo_err *err)
{
	_cleanup_dm_task_ struct dm_task *dmt = NULL;
	int r;

	r = task_new(DM_DEVICE_SUSPEND, name, "suspend", &dmt, err);
	if (r < 0)
		return r;
	if ((flags & BO_DM_SUSPEND_NOFLUSH) && !dm_task_no_flush(dmt))
		return bo_err_set(err, ENOMEM, "dm suspend '%s': out of memory", name);
	if ((flags & BO_DM_SUSPEND_SKIP_LOCKFS) && !dm_task_skip_lockfs(dmt))
		return bo_err_set(err, ENOMEM, "dm suspend '%s': out of memory", name);
	r = run_plain(dmt);
	if (r < 0)
		return task_fail(r, err, "suspend", name);
	bo_debug(BO_DBG_DM, "suspended '%s'%s%s", name,
		 flags & BO_DM_SUSPEND_NOFLUSH ? " noflush" : "",
		 flags & BO_DM_SUSPEND_SKIP_LOCKFS ? " skip_lockfs" : "");
	return 0;
}

int bo_dm_resume(const char *name, struct bo_err *err)
{
	_cleanup_dm_task_ struct dm_task *dmt = NULL;
	int r;

	r = task_new(DM_DEVICE_RESUME, name, "resume", &dmt, err);
	if (r < 0)
		return r;
	r = run_with_cookie(dmt);
	if (r < 0)
		return task_fail(r, err, "resume", name);
	bo_debug(BO_DBG_DM, "resumed '%s'", name);
	return 0;
}

int bo_dm_message(const char *name, const char *msg, struct bo_err *err)
{
	_cleanup_dm_task_ struct dm_task *dmt = NULL;
	int r;

	r = task_new(DM_DEVICE_TARGET_MSG, name, "message", &dmt, err);
	if (r < 0)
		return r;
	if (!dm_task_set_sector(dmt, 0) || !dm_task_set_message(dmt, msg))
		return bo_err_set(err, ENOMEM, "dm message '%s' to '%s': out of memory", msg, name);
	r = run_plain(dmt);
	if (r < 0)
		return bo_err_set(err, -r, "dm message '%s' to '%s': %s", msg, name,
				  r == -ENODEV ? "no device-mapper here" : strerror(-r));
	bo_debug(BO_DBG_DM, "message '%s' to '%s'", msg, name);
	return 0;
}

void bo_dm_lines_free(struct bo_dm_target_line *lines, size_t n)
{
	if (!lines)
		return;
	for (size_t i = 0; i < n; i++) {
		free(lines[i].type);
		free(lines[i].params);
	}
	free(lines);
}

static int get_lines(int type, const char *op, const char *name,
		     struct bo_dm_target_line **ret_lines, size_t *ret_n, struct bo_err *err)
{
	_cleanup_dm_task_ struct dm_task *dmt = NULL;
	struct bo_dm_target_line *lines = NULL;
	struct dm_info info;
	void *next = NULL;
	size_t n = 0;
	int r;

	r = task_new(type, name, op, &dmt, err);
	if (r < 0)
		return r;
	r = run_plain(dmt);
	if (r < 0)
		return task_fail(r, err, op, name);
	/* DM_DEVICE_STATUS of a missing device "succeeds" with the exists flag clear. */
	if (!dm_task_get_info(dmt, &info) || !info.exists)
		return bo_err_set(err, ENXIO, "dm %s '%s': no such device", op, name);
	do {
		uint64_t start, length;
		char *ttype = NULL, *params = NULL;
		struct bo_dm_target_line *grown;

		next = dm_get_next_target(dmt, next, &start, &length, &ttype, &params);
		if (!ttype)
			break;
		grown = realloc(lines, (n + 1) * sizeof(*lines));
		if (!grown)
			goto oom;
		lines = grown;
		lines[n].start = start;
		lines[n].length = length;
		lines[n].type = strdup(ttype);
		lines[n].params = strdup(params ? params : "");
		n++;
		if (!lines[n - 1].type || !lines[n - 1].params)
			goto oom;
	} while (next);
	*ret_lines = lines;
	*ret_n = n;
	return 0;
oom:
	bo_dm_lines_free(lines, n);
	return bo_err_set(err, ENOMEM, "dm %s '%s': out of memory", op, name);
}

int bo_dm_status(const char *name, struct bo_dm_target_line **ret_lines, size_t *ret_n,
		 struct bo_err *err)
{
	return get_lines(DM_DEVICE_STATUS, "status", name, ret_lines, ret_n, err);
}

int bo_dm_table(const char *name, struct bo_dm_target_line **ret_lines, size_t *ret_n,
		struct bo_err *err)
{
	return get_lines(DM_DEVICE_TABLE, "table", name, ret_lines, ret_n, err);
}

static int get_one(int type, const char *op, const char *name, const char *ttype, char *buf,
		   size_t len, struct bo_err *err)
{
	struct bo_dm_target_line *lines = NULL;
	size_t n = 0;
	int r;

	r = get_lines(type, op, name, &lines, &n, err);
	if (r < 0)
		return r;
	if (n != 1 || strcmp(lines[0].type, ttype) != 0)
		r = bo_err_set(err, EPROTO,
			       "dm %s '%s': expected one '%s' target, found %zu line(s)%s%s", op,
			       name, ttype, n, n ? ", the first of type " : "",
			       n ? lines[0].type : "");
	else if (strlen(lines[0].params) >= len)
		r = bo_err_set(err, ENOSPC, "dm %s '%s': '%s' is longer than %zu bytes", op, name,
			       lines[0].params, len);
	else
		memcpy(buf, lines[0].params, strlen(lines[0].params) + 1);
	bo_dm_lines_free(lines, n);
	return r;
}

int bo_dm_status_one(const char *name, const char *type, char *buf, size_t len, struct bo_err *err)
{
	return get_one(DM_DEVICE_STATUS, "status", name, type, buf, len, err);
}

int bo_dm_table_one(const char *name, const char *type, char *buf, size_t len, struct bo_err *err)
{
	return get_one(DM_DEVICE_TABLE, "table", name, type, buf, len, err);
}

int bo_dm_info(const char *name, struct bo_dm_info *ret, struct bo_err *err)
{
	_cleanup_dm_task_ struct dm_task *dmt = NULL;
	struct bo_dm_info out = {0};
	struct dm_info info;
	const char *uuid;
	int r;

	r = task_new(DM_DEVICE_INFO, name, "info", &dmt, err);
	if (r < 0)
		return r;
	r = run_plain(dmt);
	if (r < 0)
		return task_fail(r, err, "info", name);
	if (!dm_task_get_info(dmt, &info))
		return bo_err_set(err, EIO, "dm info '%s': no info in the kernel's answer", name);
	if (info.exists) {
		out.exists = true;
		out.suspended = info.suspended;
		out.live_table = info.live_table;
		out.inactive_table = info.inactive_table;
		out.open_count = info.open_count;
		out.major = info.major;
		out.minor = info.minor;
		uuid = dm_task_get_uuid(dmt);
		snprintf(out.uuid, sizeof(out.uuid), "%s", uuid ? uuid : "");
	}
	*ret = out;
	return 0;
}

int bo_dm_remove(const char *name, struct bo_err *err)
{
	_cleanup_dm_task_ struct dm_task *dmt = NULL;
	struct bo_dm_info info;
	int r;

	r = task_new(DM_DEVICE_REMOVE, name, "remove", &dmt, err);
	if (r < 0)
		return r;
	/*
	 * The kernel refuses to remove an open device (EBUSY). Right after the last holder
	 * closed it, an asynchronous opener may still hold it for a moment: udev's blkid scan
	 * of the change event, or another process probing the new device. So the removal is
	 * retried a bounded number of times: dm_task_retry_remove() makes libdm repeat the
	 * ioctl on EBUSY, 25 times 200 ms apart (DM_IOCTL_RETRIES in libdm-iface.c). The
	 * backoff is not synchronisation: a device still busy after it is reported, with its
	 * open count, as a failure.
	 */
	if (!dm_task_retry_remove(dmt))
		return bo_err_set(err, ENOMEM, "dm remove '%s': out of memory", name);
	r = run_with_cookie(dmt);
	if (r == -ENXIO)
		return bo_err_set(err, ENXIO, "dm remove '%s': no such device", name);
	if (r == -EBUSY && bo_dm_info(name, &info, NULL) == 0 && info.exists)
		return bo_err_set(err, EBUSY,
				  "dm remove '%s': still busy after retries (open count %d: "
				  "mounted, or a device stacked on it?)",
				  name, info.open_count);
	if (r < 0)
		return task_fail(r, err, "remove", name);
	bo_debug(BO_DBG_DM, "removed '%s'", name);
	return 0;
}

void bo_dm_list_free(char **list)
{
	if (!list)
		return;
	for (char **p = list; *p; p++)
		free(*p);
	free(list);
}

int bo_dm_names_from_list(const struct dm_names *first, const char *prefix, char ***ret)
{
	const struct dm_names *nm = first;
	char **list = calloc(1, sizeof(*list));
	size_t n = 0, plen = strlen(prefix);

	if (!list)
		return -ENOMEM;
	/* An empty list is one entry with dev 0 (see dmsetup's _display_names). */
	while (nm && nm->dev) {
		if (!strncmp(nm->name, prefix, plen)) {
			char **grown = realloc(list, (n + 2) * sizeof(*list));

			if (!grown)
				goto oom;
			list = grown;
			list[n] = strdup(nm->name);
			list[n + 1] = NULL;
			if (!list[n])
				goto oom;
			n++;
		}
		if (!nm->next)
			break;
		nm = (const struct dm_names *) ((const char *) nm + nm->next);
	}
	*ret = list;
	return 0;
oom:
	bo_dm_list_free(list);
	return -ENOMEM;
}

int bo_dm_list(const char *prefix, char ***ret, struct bo_err *err)
{
	_cleanup_dm_task_ struct dm_task *dmt = NULL;
	int r;

	if (!prefix || !*prefix)
		return bo_err_set(err, EINVAL,
				  "dm list: refusing an empty prefix (it matches "
				  "devices blackout did not make)");
	r = task_new(DM_DEVICE_LIST, NULL, "list", &dmt, err);
	if (r < 0)
		return r;
	r = run_plain(dmt);
	if (r < 0)
		return task_fail(r, err, "list", prefix);
	r = bo_dm_names_from_list(dm_task_get_names(dmt), prefix, ret);
	if (r < 0)
		return bo_err_set(err, -r, "dm list '%s': out of memory", prefix);
	return 0;
}

int bo_dm_versions_from_list(const struct dm_versions *first, struct bo_dm_target_version **ret,
			     size_t *ret_n)
{
	const struct dm_versions *v = first;
	struct bo_dm_target_version *out = NULL;
	size_t n = 0;

	while (v) {
		struct bo_dm_target_version *grown = realloc(out, (n + 1) * sizeof(*out));

		if (!grown) {
			free(out);
			return -ENOMEM;
		}
		out = grown;
		snprintf(out[n].name, sizeof(out[n].name), "%s", v->name);
		out[n].version.major = v->version[0];
		out[n].version.minor = v->version[1];
		out[n].version.patch = v->version[2];
		n++;
		/* The last entry has next == 0 (see dmsetup's _display_versions). */
		if (!v->next)
			break;
		v = (const struct dm_versions *) ((const char *) v + v->next);
	}
	*ret = out;
	*ret_n = n;
	return 0;
}

int bo_dm_target_versions(struct bo_dm_target_version **ret, size_t *ret_n, struct bo_err *err)
{
	_cleanup_dm_task_ struct dm_task *dmt = NULL;
	int r;

	r = task_new(DM_DEVICE_LIST_VERSIONS, NULL, "list versions", &dmt, err);
	if (r < 0)
		return r;
	r = run_plain(dmt);
	if (r < 0)
		return task_fail(r, err, "list versions", "(all targets)");
	r = bo_dm_versions_from_list(dm_task_get_versions(dmt), ret, ret_n);
	if (r < 0)
		return bo_err_set(err, -r, "dm target versions: out of memory");
	return 0;
}

const struct bo_dm_target_version *bo_dm_find_target(const struct bo_dm_target_version *v, size_t n,
						     const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

int bo_dm_version_cmp(const struct bo_dm_version *a, const struct bo_dm_version *b)
{
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	if (a->patch != b->patch)
		return a->patch < b->patch ? -1 : 1;
	return 0;
}
