// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/dev/fstool.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/base/file.h"
#include "harness/base/proc.h"
#include "harness/dev/fstab.h"

/* Version queries are quick; this only guards against a hanging tool. */
#define VERSION_TIMEOUT_MS 10000
/* Bytes of a failed tool's output quoted in an error message. */
#define TAIL_BYTES 200

/* Tool output in a stable language, for reports and for the version line. */
static char *const c_locale[] = {"LC_ALL=C", NULL};

/* Run @argv with the merged output kept (up to @max bytes, 0: the default), seeing only the
 * block devices @only (NULL: all). */
static int run(const char *const *argv, unsigned timeout_ms, size_t max, const char *const *only,
	       struct bo_proc_result *ret, struct bo_err *err)
{
	struct bo_proc_opts o = {
		/* exec does not write to its arguments */
		.argv = (char *const *) argv, .env_add = c_locale,
		.timeout_ms = timeout_ms,     .max_output = max,
		.merge_stderr = true,	      .only_devs = only,
	};

	if (timeout_ms == 0)
		return bo_err_set(err, EINVAL, "running '%s': a timeout is required", argv[0]);
	return bo_proc_run(&o, ret, err);
}

/* Append @extra (NULL-terminated, may be NULL) to @argv at *@n, keeping room for two more. */
static int append(const char **argv, size_t *n, const char *const *extra)
{
	for (; extra && *extra; extra++) {
		if (*n + 2 >= BO_TOOL_ARGV_MAX)
			return -E2BIG;
		argv[(*n)++] = *extra;
	}
	return 0;
}

int bo_mkfs_argv(enum bo_fs fs, const char *dev, const char *const *spans, const char *const *opts,
		 const char **argv, struct bo_err *err)
{
	const struct bo_fs_desc *d = bo_fs_desc(fs);
	size_t n = 0;

	if (!d)
		return bo_err_set(err, EINVAL, "mkfs: unknown filesystem %d", (int) fs);
	if (spans && spans[0] && !d->spans_mount)
		return bo_err_set(err, EINVAL, "mkfs: %s is made on one device", d->name);
	argv[n++] = d->mkfs;
	if (append(argv, &n, d->mkfs_args) < 0 || append(argv, &n, opts) < 0)
		return bo_err_set(err, E2BIG, "mkfs.%s '%s': more than %d arguments",
				  bo_fs_name(fs), dev, BO_TOOL_ARGV_MAX);
	argv[n++] = dev;
	if (append(argv, &n, spans) < 0)
		return bo_err_set(err, E2BIG, "mkfs.%s '%s': more than %d arguments",
				  bo_fs_name(fs), dev, BO_TOOL_ARGV_MAX);
	argv[n] = NULL;
	return 0;
}

int bo_mkfs_options(enum bo_fs fs, const char *given, const char *extra, char ***ret,
		    struct bo_err *err)
{
	_cleanup_free_ char *all = NULL;
	const char *unless_e = "";

	if (bo_fs_desc(fs)->unless_e && !strstr(given, "-E"))
		unless_e = bo_fs_desc(fs)->unless_e;
	if (asprintf(&all, "%s %s %s", given, unless_e, extra ? extra : "") < 0 ||
	    !(*ret = bo_strv_split(all)))
		return bo_err_set(err, ENOMEM, "mkfs options");
	return 0;
}

/* @d's fsck: its static build when this machine has one (looked up once), else its own. */
static const char *fsck_program(enum bo_fs fs, const struct bo_fs_desc *d)
{
	static int have_static[BO_FS_COUNT]; /* 0 not looked up, 1 yes, -1 no */
	char buf[PATH_MAX];
	int i = (int) fs;

	if (!d->fsck_static || i < 0 || i >= BO_FS_COUNT)
		return d->fsck;
	if (!have_static[i])
		have_static[i] = bo_path_find(d->fsck_static, NULL, buf, sizeof(buf)) ? 1 : -1;
	return have_static[i] > 0 ? d->fsck_static : d->fsck;
}

int bo_fsck_argv(enum bo_fs fs, const char *dev, const struct bo_fs_devs *devs, const char **argv,
		 struct bo_err *err)
{
	const struct bo_fs_desc *d = bo_fs_desc(fs);
	const char *journal = devs ? devs->journal : NULL;
	size_t n = 0;

	if (!d)
		return bo_err_set(err, EINVAL, "fsck: unknown filesystem %d", (int) fs);
	if (!d->fsck)
		return bo_err_set(err, ENOENT, "fsck: %s has no fsck", d->name);
	if (journal && !d->journal_fsck)
		return bo_err_set(err, EINVAL, "fsck: %s has no external journal", d->name);
	argv[n++] = fsck_program(fs, d);
	(void) append(argv, &n, d->check_args);
	/* e2fsck -j JOURNAL, xfs_repair -l LOGDEV */
	if (journal) {
		argv[n++] = d->journal_fsck;
		argv[n++] = journal;
	}
	argv[n++] = dev;
	argv[n] = NULL;
	return 0;
}

/* The end of @r's output (at most TAIL_BYTES) on one line, into @buf, for error messages. */
static const char *tail(const struct bo_proc_result *r, char *buf, size_t len)
{
	const char *s = r->out ? r->out : "";
	size_t n = 0;

	if (r->out_len > TAIL_BYTES)
		s = r->out + r->out_len - TAIL_BYTES;
	for (; *s && n + 3 < len; s++) {
		if (*s != '\n') {
			buf[n++] = *s;
		} else if (n && s[1]) {
			buf[n++] = ';';
			buf[n++] = ' ';
		}
	}
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == ';'))
		n--;
	buf[n] = '\0';
	return n ? buf : "(no output)";
}

int bo_mkfs(enum bo_fs fs, const char *dev, const char *const *spans, const char *const *opts,
	    unsigned timeout_ms, struct bo_proc_result *ret, struct bo_err *err)
{
	const char *argv[BO_TOOL_ARGV_MAX];
	struct bo_proc_result res = {0};
	char how[64], out[TAIL_BYTES + 8];
	int r;

	r = bo_mkfs_argv(fs, dev, spans, opts, argv, err);
	if (r < 0)
		return r;
	r = run(argv, timeout_ms, 0, NULL, &res, err);
	if (r < 0)
		return bo_err_prefix(err, "mkfs %s on '%s'", bo_fs_name(fs), dev);
	if (res.end == BO_PROC_EXITED && res.status == 0) {
		bo_debug(BO_DBG_MOUNT, "mkfs %s on '%s': done in %.2f s", bo_fs_name(fs), dev,
			 res.seconds);
		r = 0;
	} else {
		struct bo_proc_opts o = {.timeout_ms = timeout_ms};

		r = bo_err_set(err, res.end == BO_PROC_TIMEOUT ? ETIMEDOUT : EIO,
			       "mkfs %s on '%s': %s %s: %s", bo_fs_name(fs), dev, argv[0],
			       bo_proc_describe(&res, &o, how, sizeof(how)),
			       tail(&res, out, sizeof(out)));
	}
	if (ret)
		*ret = res;
	else
		bo_proc_result_clear(&res);
	return r;
}

enum bo_fsck_verdict bo_fsck_interpret(enum bo_fs fs, const struct bo_proc_result *r,
				       const char **why)
{
	const char *dummy;
	int c = r->status;

	if (!why)
		why = &dummy;
	if (r->end == BO_PROC_TIMEOUT) {
		*why = "timed out";
		return BO_FSCK_TOOL_ERROR;
	}
	if (r->end != BO_PROC_EXITED) {
		*why = "killed by a signal";
		return BO_FSCK_TOOL_ERROR;
	}
	if (c == 0) {
		*why = "no errors";
		return BO_FSCK_CLEAN;
	}
	if (bo_fs_desc(fs) && bo_fs_desc(fs)->check_code)
		return bo_fs_desc(fs)->check_code(c, why);
	*why = "unknown filesystem";
	return BO_FSCK_TOOL_ERROR;
}

const char *bo_fsck_verdict_name(enum bo_fsck_verdict v)
{
	switch (v) {
	case BO_FSCK_CLEAN:
		return "clean";
	case BO_FSCK_DIRTY:
		return "dirty";
	case BO_FSCK_TOOL_ERROR:
		break;
	}
	return "tool-error";
}

/* Write @r's output to @path (atomically), with a last line saying so if it was cut. */
static int save_output(const struct bo_proc_result *r, const char *path, struct bo_err *err)
{
	struct bo_tmpfile t;
	char note[96];
	int n = 0, k = bo_tmpfile_open(&t, AT_FDCWD, path);

	if (k < 0)
		return bo_err_set(err, -k, "saving output to '%s': %s", path, strerror(-k));
	if (r->truncated)
		n = snprintf(note, sizeof(note), "\nblackout: output cut after %zu bytes\n",
			     r->out_len);
	k = bo_pwrite_full(t.fd, r->out, r->out_len, 0);
	if (k >= 0 && n > 0)
		k = bo_pwrite_full(t.fd, note, (size_t) n, r->out_len);
	if (k < 0)
		bo_tmpfile_abort(&t);
	else
		k = bo_tmpfile_commit(&t);
	return k < 0 ? bo_err_set(err, -k, "saving output to '%s': %s", path, strerror(-k)) : 0;
}

/* Whether @dev opens read-only and exclusively, as a check of @fs (@what: "fsck", "repair")
 * needs: the tools report "cannot open" and "mounted" through the same exit codes as damage.
 * O_EXCL on a block device fails with EBUSY while it is mounted or otherwise claimed. */
static int open_exclusive(enum bo_fs fs, const char *what, const char *dev, struct bo_err *err)
{
	int fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return bo_err_set(err, errno, "%s %s on '%s': cannot open it exclusively: %s", what,
				  bo_fs_name(fs), dev, strerror(errno));
	(void) close(fd);
	return 0;
}

/* Run @argv (the fsck or the repair of @fs) on @dev, once it opens exclusively; seeing @dev
 * and its other devices @devs alone when it spans several (bo_fsck()). */
static int run_on_dev(enum bo_fs fs, const char *what, const char *dev,
		      const struct bo_fs_devs *devs, const char *const *argv, unsigned timeout_ms,
		      struct bo_proc_result *res, struct bo_err *err)
{
	const char *only[BO_PROC_DEVS_MAX + 1] = {dev};
	size_t n = 1;
	int r = open_exclusive(fs, what, dev, err);

	for (size_t i = 0; r >= 0 && devs && devs->spans[i]; i++)
		r = n + 1 < BO_ARRAY_SIZE(only)
			    ? open_exclusive(fs, what, only[n++] = devs->spans[i], err)
			    : bo_err_set(err, E2BIG, "%s %s on '%s': more than %d devices", what,
					 bo_fs_name(fs), dev, BO_PROC_DEVS_MAX);
	if (r >= 0 && n > 1 && devs->journal)
		only[n++] = devs->journal;
	if (r < 0)
		return r;
	r = run(argv, timeout_ms, BO_FSCK_OUTPUT_MAX, n > 1 ? only : NULL, res, err);
	if (r < 0)
		return bo_err_prefix(err, "%s %s on '%s'", what, bo_fs_name(fs), dev);
	return 0;
}

/*
 * The end of fsck or repair run @res of @tool (@what: "fsck" or "repair") on @dev: its tool
 * error into @err when @tool_error (it gave no verdict, @why), the verdict @name said at debug
 * level, and @res handed to @ret or released. 0, or -errno of the tool error.
 */
static int tool_end(const char *what, enum bo_fs fs, const char *dev, const char *tool,
		    unsigned timeout_ms, bool tool_error, const char *name, const char *why,
		    struct bo_proc_result *res, struct bo_proc_result *ret, struct bo_err *err)
{
	char how[64], out[TAIL_BYTES + 8];
	int r = 0;

	if (tool_error) {
		struct bo_proc_opts o = {.timeout_ms = timeout_ms};

		r = bo_err_set(err, res->end == BO_PROC_TIMEOUT ? ETIMEDOUT : EIO,
			       "%s %s on '%s': %s %s (%s), so there is no verdict: %s", what,
			       bo_fs_name(fs), dev, tool,
			       bo_proc_describe(res, &o, how, sizeof(how)), why,
			       tail(res, out, sizeof(out)));
	}
	bo_debug(BO_DBG_MOUNT, "%s %s '%s': %s (%s) in %.2f s", what, bo_fs_name(fs), dev, name,
		 why, res->seconds);
	if (ret)
		*ret = *res;
	else
		bo_proc_result_clear(res);
	return r;
}

/* The fsck of a filesystem that has none (its row's) on @dev: clean, since nothing can say
 * otherwise, and @out_path says so; but @dev must open as a check's would. */
static int no_fsck(enum bo_fs fs, const char *dev, const char *out_path,
		   enum bo_fsck_verdict *verdict, struct bo_proc_result *ret, struct bo_err *err)
{
	struct bo_proc_result res = {0};
	char line[160];
	int r = open_exclusive(fs, "fsck", dev, err);

	if (r < 0)
		return r;
	snprintf(line, sizeof(line), "blackout: %s has no fsck; %s stands in\n", bo_fs_name(fs),
		 bo_fs_desc(fs)->recovered_by);
	res.out = line;
	res.out_len = strlen(line);
	if (out_path && save_output(&res, out_path, err) < 0)
		return bo_err_prefix(err, "fsck %s", bo_fs_name(fs));
	*verdict = BO_FSCK_CLEAN;
	if (ret) {
		*ret = (struct bo_proc_result){.end = BO_PROC_EXITED, .out = strdup(line)};
		if (!ret->out)
			return bo_err_set(err, ENOMEM, "out of memory");
		ret->out_len = strlen(line);
	}
	return 0;
}

int bo_fsck(enum bo_fs fs, const char *dev, const struct bo_fs_devs *devs, unsigned timeout_ms,
	    const char *out_path, enum bo_fsck_verdict *verdict, struct bo_proc_result *ret,
	    struct bo_err *err)
{
	const char *argv[BO_TOOL_ARGV_MAX], *why;
	struct bo_proc_result res = {0};
	int r;

	*verdict = BO_FSCK_TOOL_ERROR;
	if (bo_fs_desc(fs) && !bo_fs_desc(fs)->fsck)
		return no_fsck(fs, dev, out_path, verdict, ret, err);
	r = bo_fsck_argv(fs, dev, devs, argv, err);
	if (r < 0)
		return r;
	r = run_on_dev(fs, "fsck", dev, devs, argv, timeout_ms, &res, err);
	if (r < 0)
		return r;
	if (out_path) {
		r = save_output(&res, out_path, err);
		if (r < 0) {
			bo_proc_result_clear(&res);
			return bo_err_prefix(err, "fsck %s on '%s'", bo_fs_name(fs), dev);
		}
	}
	*verdict = bo_fsck_interpret(fs, &res, &why);
	return tool_end("fsck", fs, dev, argv[0], timeout_ms, *verdict == BO_FSCK_TOOL_ERROR,
			bo_fsck_verdict_name(*verdict), why, &res, ret, err);
}

bool bo_fs_can_repair(enum bo_fs fs)
{
	return bo_fs_desc(fs) && bo_fs_desc(fs)->repair_args[0];
}

int bo_repair_argv(enum bo_fs fs, const char *dev, const struct bo_fs_devs *devs, const char **argv,
		   struct bo_err *err)
{
	const struct bo_fs_desc *d = bo_fs_desc(fs);
	const char *journal = devs ? devs->journal : NULL;
	size_t n = 0;

	if (!bo_fs_can_repair(fs))
		return bo_err_set(err, EINVAL,
				  "repair: %s is recovered by mounting it, not by fsck",
				  bo_fs_name(fs));
	if (journal && !d->journal_fsck)
		return bo_err_set(err, EINVAL, "repair: %s has no external journal",
				  bo_fs_name(fs));
	argv[n++] = fsck_program(fs, d);
	(void) append(argv, &n, d->repair_args);
	if (journal) {
		argv[n++] = d->journal_fsck;
		argv[n++] = journal;
	}
	argv[n++] = dev;
	argv[n] = NULL;
	return 0;
}

enum bo_repair_verdict bo_repair_interpret(enum bo_fs fs, const struct bo_proc_result *r,
					   const char **why)
{
	const char *dummy;
	int c = r->status;

	if (!why)
		why = &dummy;
	if (r->end != BO_PROC_EXITED) {
		*why = r->end == BO_PROC_TIMEOUT ? "timed out" : "killed by a signal";
		return BO_REPAIR_TOOL_ERROR;
	}
	if (c == 0) {
		*why = "nothing to repair";
		return BO_REPAIR_CLEAN;
	}
	if (bo_fs_can_repair(fs))
		return bo_fs_desc(fs)->repair_code(c, why);
	*why = "no repair for this filesystem";
	return BO_REPAIR_TOOL_ERROR;
}

const char *bo_repair_verdict_name(enum bo_repair_verdict v)
{
	switch (v) {
	case BO_REPAIR_CLEAN:
		return "clean";
	case BO_REPAIR_FIXED:
		return "fixed";
	case BO_REPAIR_FAILED:
		return "failed";
	case BO_REPAIR_TOOL_ERROR:
		return "tool-error";
	}
	return "?";
}

int bo_repair(enum bo_fs fs, const char *dev, const struct bo_fs_devs *devs, unsigned timeout_ms,
	      enum bo_repair_verdict *verdict, struct bo_proc_result *ret, struct bo_err *err)
{
	const char *argv[BO_TOOL_ARGV_MAX], *why;
	struct bo_proc_result res = {0};
	int r;

	*verdict = BO_REPAIR_TOOL_ERROR;
	r = bo_repair_argv(fs, dev, devs, argv, err);
	if (r < 0)
		return r;
	r = run_on_dev(fs, "repair", dev, devs, argv, timeout_ms, &res, err);
	if (r < 0)
		return r;
	*verdict = bo_repair_interpret(fs, &res, &why);
	return tool_end("repair", fs, dev, argv[0], timeout_ms, *verdict == BO_REPAIR_TOOL_ERROR,
			bo_repair_verdict_name(*verdict), why, &res, ret, err);
}

/* The first line of @out that holds @mark ("" when none does). */
static const char *version_line(const char *out, const char *mark)
{
	for (const char *l = out; *l; l += strcspn(l, "\n") + !!l[strcspn(l, "\n")]) {
		const char *m = strstr(l, mark);

		if (m && m < l + strcspn(l, "\n"))
			return l;
	}
	return "";
}

int bo_fs_tool_version(enum bo_fs fs, enum bo_fs_tool tool, char *buf, size_t len,
		       struct bo_err *err)
{
	const struct bo_fs_desc *d = bo_fs_desc(fs);
	const char *const *argv;
	struct bo_proc_result res = {0};
	const char *line;
	size_t n;
	int r;

	if (!d)
		return bo_err_set(err, EINVAL, "tool version: unknown filesystem %d", (int) fs);
	if (tool == BO_TOOL_FSCK && !d->fsck) {
		snprintf(buf, len, "none: %s has no fsck", d->name);
		return 0;
	}
	argv = tool == BO_TOOL_MKFS ? d->mkfs_version : d->fsck_version;
	r = run(argv, VERSION_TIMEOUT_MS, 0, NULL, &res, err);
	if (r < 0)
		return bo_err_prefix(err, "version of %s", argv[0]);
	if (res.end != BO_PROC_EXITED || (res.status != 0 && !d->version_line) || !res.out) {
		struct bo_proc_opts o = {.timeout_ms = VERSION_TIMEOUT_MS};
		char how[64];

		r = bo_err_set(err, EIO, "version of %s: '%s %s' %s", argv[0], argv[0], argv[1],
			       bo_proc_describe(&res, &o, how, sizeof(how)));
		bo_proc_result_clear(&res);
		return r;
	}
	line = res.out + strspn(res.out, " \t\n");
	if (d->version_line)
		line = version_line(res.out, d->version_line);
	n = strcspn(line, "\n");
	if (n == 0)
		r = bo_err_set(err, EIO, "version of %s: no output", argv[0]);
	else
		snprintf(buf, len, "%.*s", (int) n, line);
	bo_proc_result_clear(&res);
	return r;
}
