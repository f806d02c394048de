// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario files, read with the strict INI reader of ini.h, one line at a time: every key is
 * checked as it comes and its line kept for later messages; what depends on several keys is
 * checked once the file is read (finish()). Paths (scripts, files to ship) are resolved
 * against the scenario's directory; on the host they must exist, and a user must exist.
 */
#include "harness/scenario/scenario.h"
#include "harness/scenario/builtin.h"
#include "harness/scenario/fsops.h"

#include "harness/states/cutsel.h"
#include "scenarios/blackout-ids.h"
#include "harness/scenario/faultplan.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/base/macro.h"
#include "harness/base/file.h"
#include "harness/base/input.h"
#include "harness/dev/fs.h"
#include "harness/dev/fstool.h"
#include "harness/base/path.h"
#include "harness/base/proc.h"
#include "harness/log/layout.h"
#include "harness/scenario/ini.h"

#define MAX_FILE     (1u << 20)
#define MAX_NAME     64
#define MAX_DEV_SIZE (64ULL << 30)
#define MAX_TIMEOUT  86400u

enum key_type {
	K_NAME,	      /* [A-Za-z0-9._-], at most MAX_NAME bytes */
	K_TEXT,	      /* anything */
	K_COMMAND,    /* a non-empty command line */
	K_FS,	      /* ext4 | xfs | btrfs | ext2 | vfat */
	K_SIZE,	      /* bytes with optional K/M/G suffix */
	K_SECTOR,     /* 512 | 4096 */
	K_MKFS_OPTS,  /* words split on whitespace, no quoting */
	K_MOUNT_OPTS, /* one mount -o argument: no whitespace */
	K_BUILTIN,    /* a builtin workload's name */
	K_U64,	      /* decimal */
	K_OPS,	      /* decimal, 1..1000000 */
	K_BUG,	      /* a planted bug of the builtin */
	K_SECONDS,    /* 1..MAX_TIMEOUT */
	K_CUTS,	      /* a cut policy */
	K_CHECKER,    /* none | a builtin | a command line */
	K_BOOL,	      /* yes | no */
	K_OP_IDS,     /* op ids and ranges: 3,17,40-42 */
	K_PATHS,      /* host paths, blank-separated; repeatable */
	K_ROOT,	      /* blackout | host */
	K_USER,	      /* a user name of the host */
	K_SCRIPT,     /* a program file, relative to the scenario */
	K_KERNEL,     /* a kernel release or its version prefix (blackout kernel list) */
	K_TREE,	      /* a host directory by absolute path: a kernel build tree */
	K_PERSONA,    /* a device persona (crashgen.h) */
	K_RECOVERY,   /* auto | mount | fsck (dev/fs.h) */
	K_COUNT,      /* a number from 0 to 1000 */
	K_FSYNC,      /* path | inode (fsops) */
	K_PROMISES,   /* auto | linux | posix (fsops) */
	K_FAMILIES,   /* all | none | op families, comma-separated (fsops) */
	K_LENGTH,     /* 1..3 (bounded) */
	K_RANKS,      /* A-B or A: workload ranks (bounded) */
	K_SAMPLE,     /* I/N: the workload ranks that are I modulo N (bounded) */
};

struct key {
	const char *section, *name;
	enum key_type type;
	size_t off;
	bool repeat; /* may be given on several lines */
};

/* A key's field, given once or (REPEAT) on as many lines as wanted. */
#define F(field)      offsetof(struct bo_scenario, field), false
#define REPEAT(field) offsetof(struct bo_scenario, field), true

static const struct key keys[] = {
	{"scenario", "name", K_NAME, F(name)},
	{"scenario", "description", K_TEXT, F(description)},
	{"device", "fs", K_FS, F(fs)},
	{"device", "size", K_SIZE, F(size)},
	{"device", "sector_size", K_SECTOR, F(sector_size)},
	{"device", "mkfs_options", K_MKFS_OPTS, F(mkfs_options)},
	{"device", "mount_options", K_MOUNT_OPTS, F(mount_options)},
	{"workload", "builtin", K_BUILTIN, F(builtin)},
	{"workload", "command", K_COMMAND, F(command)},
	{"workload", "script", K_SCRIPT, F(workload_script)},
	{"workload", "user", K_USER, F(user)},
	{"workload", "ops", K_OPS, F(ops)},
	{"workload", "bug", K_BUG, F(bug)},
	{"workload", "keep_ops", K_OP_IDS, F(keep_ops)},
	{"workload", "fsync", K_FSYNC, F(fsync_inode)},
	{"workload", "families", K_FAMILIES, F(families)},
	{"workload", "length", K_LENGTH, F(length)},
	{"workload", "workloads", K_RANKS, F(workloads)},
	{"workload", "sample", K_SAMPLE, F(sample)},
	{"workload", "seed", K_U64, F(workload_seed)},
	{"workload", "timeout", K_SECONDS, F(workload_timeout)},
	{"check", "cuts", K_CUTS, F(cuts_spec)},
	{"check", "checker", K_CHECKER, F(checker)},
	{"check", "script", K_SCRIPT, F(checker_script)},
	{"check", "ordered", K_BOOL, F(ordered)},
	{"check", "persona", K_PERSONA, F(persona)},
	{"check", "recovery", K_RECOVERY, F(recovery)},
	{"check", "promises", K_PROMISES, F(promises)},
	{"check", "recovery_crashes", K_COUNT, F(recovery_crashes)},
	{"check", "witness", K_COUNT, F(witness)},
	{"check", "mount_timeout", K_SECONDS, F(mount_timeout)},
	{"check", "fsck_timeout", K_SECONDS, F(fsck_timeout)},
	{"check", "checker_timeout", K_SECONDS, F(checker_timeout)},
	{"run", "seed", K_U64, F(seed)},
	{"run", "log_size", K_SIZE, F(log_size)},
	{"vm", "files", K_PATHS, REPEAT(files)},
	{"vm", "root", K_ROOT, F(root_host)},
	{"vm", "kernel", K_KERNEL, F(kernel)},
	{"vm", "kernel_tree", K_TREE, F(kernel_tree)},
};

static const char *const sections[] = {"scenario", "device", "workload", "check",
				       "run",	   "faults", "vm"};

const char *bo_scenario_recovery_problem(const struct bo_scenario *sc, enum bo_recovery r)
{
	for (size_t i = 0; r == BO_RECOVERY_FSCK && i < (sc->ndevices ? sc->ndevices : 1); i++) {
		enum bo_fs fs = sc->ndevices ? sc->devices[i].fs : sc->fs;

		if ((!sc->ndevices || !sc->devices[i].raw) && !bo_fs_can_repair(fs))
			return fs == BO_FS_XFS ? "xfs is recovered by its mount (its log); "
						 "fsck recovery is for ext2, ext4 and vfat"
					       : "btrfs is recovered by its mount (copy-on-"
						 "write); fsck recovery is for ext2, ext4 and vfat";
	}
	return NULL;
}

/* Smallest device each mkfs accepts (measured: e2fsprogs 1.47, xfsprogs 6.1, btrfs-progs 6.2),
 * floored at 16M so that there is room for a workload. */
static const uint64_t fs_min_size[] = {
	[BO_FS_EXT4] = 16ULL << 20, [BO_FS_XFS] = 300ULL << 20, [BO_FS_BTRFS] = 110ULL << 20,
	[BO_FS_EXT2] = 16ULL << 20, [BO_FS_VFAT] = 16ULL << 20,
};

struct parser {
	const char *origin;
	const struct bo_scenario_opts *o;
	int lineno;
	int key_line[BO_ARRAY_SIZE(keys)];
	bool failed;
	struct bo_err *err;
	struct bo_scenario *sc;
	/* The [device NAME] section being read: its keys go to the scenario's device fields as
	 * those of [device] do, and commit_device() moves them to sc->devices at its end. */
	char dev_name[BO_LAYOUT_NAME_MAX + 1];	/* "" outside one */
	char dev_label[BO_LAYOUT_NAME_MAX + 8]; /* "device NAME", for messages */
	int dev_line;				/* its header's */
	bool dev_raw;				/* fs = raw */
	char *dev_journal;			/* journal = NAME */
	int journal_line;
	bool unnamed_device; /* a [device] section was seen */
};

/* How @section reads in a message: "device NAME" in a named device section. */
static const char *label(const struct parser *p, const char *section)
{
	return p->dev_name[0] && !strcmp(section, "device") ? p->dev_label : section;
}

static int fail(struct parser *p, int errnum, const char *fmt, ...) _printf_(3, 4);

/* Record the first error as "ORIGIN:LINE: ..." and stop the parse. */
static int fail(struct parser *p, int errnum, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (p->failed)
		return 0;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->failed = true;
	bo_err_set(p->err, errnum, "%s:%d: %s", p->origin, p->lineno, msg);
	return 0;
}

/* A whole string of decimal digits; no sign, no hex, no octal surprises. */
static int parse_dec(const char *s, uint64_t *ret)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned d;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		d = (unsigned) (*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}

/* "123", "64K", "256M", "2G" (binary multiples). */
static int parse_size(const char *s, uint64_t *ret)
{
	size_t n = strspn(s, "0123456789");
	char digits[24];
	unsigned shift;
	uint64_t v;

	if (n == 0 || n >= sizeof(digits))
		return -EINVAL;
	switch (s[n]) {
	case '\0':
		shift = 0;
		break;
	case 'K':
	case 'k':
		shift = 10;
		break;
	case 'M':
	case 'm':
		shift = 20;
		break;
	case 'G':
	case 'g':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	if (shift && s[n + 1])
		return -EINVAL;
	memcpy(digits, s, n);
	digits[n] = '\0';
	if (parse_dec(digits, &v) < 0 || v > (UINT64_MAX >> shift))
		return -ERANGE;
	*ret = v << shift;
	return 0;
}

/* Whether @v is 1 to @max ASCII letters, digits and characters of @extra. */
static bool word_of(const char *v, size_t max, const char *extra)
{
	size_t n = strlen(v);

	if (!n || n > max)
		return false;
	for (; *v; v++)
		if (!((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') ||
		      (*v >= '0' && *v <= '9') || strchr(extra, *v)))
			return false;
	return true;
}

bool bo_scenario_kernel_ok(const char *spec)
{
	return word_of(spec, MAX_NAME, "._+~*-");
}

static char **str_field(struct bo_scenario *sc, const struct key *k)
{
	return (char **) ((char *) sc + k->off);
}

/* The [workload] keys only builtin fsops takes, and only builtin bounded. */
static const char *const fsops_keys[] = {"keep_ops", "fsync", "families"};
static const char *const bounded_keys[] = {"length", "workloads", "sample"};

static int set_string(struct parser *p, const struct key *k, const char *value)
{
	char **field = str_field(p->sc, k);

	free(*field);
	*field = strdup(value);
	if (!*field)
		return fail(p, ENOMEM, "out of memory");
	return 1;
}

/* @v resolved against the scenario's directory into @buf: absolute as it is, else joined. */
static int resolve(struct parser *p, const char *v, char *buf, size_t len)
{
	if (*v == '/')
		return bo_pathf(buf, len, "%s", v);
	return bo_pathf(buf, len, "%s/%s", p->sc->dir, v);
}

/* Remember that the value of the current line, @key, reads @value with its paths absolute. */
static int keep_path_line(struct parser *p, const char *key, const char *value)
{
	struct bo_scenario *sc = p->sc;
	struct bo_scenario_path *v = reallocarray(sc->paths, sc->npaths + 1, sizeof(*v));

	if (!v)
		return fail(p, ENOMEM, "out of memory");
	sc->paths = v;
	v[sc->npaths] = (struct bo_scenario_path){
		.line = p->lineno, .key = strdup(key), .value = strdup(value)};
	if (!v[sc->npaths].key || !v[sc->npaths].value) {
		free(v[sc->npaths].key);
		free(v[sc->npaths].value);
		return fail(p, ENOMEM, "out of memory");
	}
	sc->npaths++;
	return 1;
}

/* [vm] files = PATH...: each path resolved, and on the host, there. */
static int add_paths(struct parser *p, const struct key *k, const char *v)
{
	struct bo_scenario *sc = p->sc;
	char **words = bo_strv_split(v);
	_cleanup_free_ char *line = NULL;
	size_t n = 0;
	int r = 1;

	if (!words)
		return fail(p, ENOMEM, "out of memory");
	if (!words[0]) {
		bo_strv_free(words);
		return fail(p, EINVAL, "[%s] %s: expected one or more paths", label(p, k->section),
			    k->name);
	}
	while (sc->files && sc->files[n])
		n++;
	for (size_t i = 0; r > 0 && words[i]; i++) {
		char path[PATH_MAX], **nv, *longer;
		struct bo_err e = {0};

		if (resolve(p, words[i], path, sizeof(path)) < 0) {
			r = fail(p, ENAMETOOLONG, "[%s] %s: '%s': path too long", k->section,
				 k->name, words[i]);
			break;
		}
		/* What the host can judge: a file that is not there, or that its copy into the
		 * VM would hang on (a FIFO) or never finish (/dev/zero), fails here. */
		if (p->o->host && bo_input_shippable(path, &e) < 0) {
			r = fail(p, e.errnum, "[%s] %s: %s", label(p, k->section), k->name,
				 bo_err_str(&e));
			break;
		}
		nv = reallocarray(sc->files, n + 2, sizeof(*nv));
		if (!nv || !(nv[n] = strdup(path))) {
			if (nv)
				sc->files = nv;
			r = fail(p, ENOMEM, "out of memory");
			break;
		}
		sc->files = nv;
		sc->files[++n] = NULL;
		if (asprintf(&longer, "%s%s%s", line ? line : "", line ? " " : "", path) < 0) {
			r = fail(p, ENOMEM, "out of memory");
			break;
		}
		free(line);
		line = longer;
	}
	bo_strv_free(words);
	return r > 0 ? keep_path_line(p, k->name, line) : r;
}

static void swap_str(char **a, char **b)
{
	char *t = *a;

	*a = *b;
	*b = t;
}

/* [workload] script, [check] script = FILE [ARGS]: a program file, resolved (on the host: an
 * executable regular file), and the rest of the line, shell words added to its command line. */
static int set_script(struct parser *p, const struct key *k, const char *v)
{
	size_t flen = strcspn(v, " \t");
	const char *args = v + flen + strspn(v + flen, " \t");
	char file[PATH_MAX], path[PATH_MAX];
	_cleanup_free_ char *q = NULL, *cmd = NULL, *line = NULL;
	struct stat st;

	if (!flen)
		return fail(p, EINVAL, "[%s] %s: expected a file", label(p, k->section), k->name);
	if (flen >= sizeof(file))
		return fail(p, ENAMETOOLONG, "[%s] %s: path too long", label(p, k->section),
			    k->name);
	memcpy(file, v, flen);
	file[flen] = '\0';
	if (resolve(p, file, path, sizeof(path)) < 0)
		return fail(p, ENAMETOOLONG, "[%s] %s: '%s': path too long", label(p, k->section),
			    k->name, file);
	if (p->o->host) {
		if (stat(path, &st) < 0)
			return fail(p, errno, "[%s] %s: '%s': %s", label(p, k->section), k->name,
				    path, strerror(errno));
		if (!S_ISREG(st.st_mode))
			return fail(p, EINVAL, "[%s] %s: '%s' is not a regular file", k->section,
				    k->name, path);
		if (access(path, X_OK) < 0)
			return fail(p, EACCES, "[%s] %s: '%s' is not executable (chmod +x it)",
				    k->section, k->name, path);
	}
	/* The script is shipped (bo_scenario_files()); its command line runs it by path. */
	q = bo_shell_quote(path);
	if (!q || asprintf(&cmd, "%s%s%s", q, *args ? " " : "", args) < 0) {
		cmd = NULL;
		return fail(p, ENOMEM, "out of memory");
	}
	if (asprintf(&line, "%s%s%s", path, *args ? " " : "", args) < 0) {
		line = NULL;
		return fail(p, ENOMEM, "out of memory");
	}
	if (set_string(p, k, path) <= 0)
		return 0;
	if (!strcmp(k->section, "workload"))
		swap_str(&p->sc->command, &cmd);
	else
		swap_str(&p->sc->checker_command, &cmd);
	return keep_path_line(p, k->name, line);
}

static int set_key(struct parser *p, const struct key *k, const char *v)
{
	struct bo_scenario *sc = p->sc;
	void *field = (char *) sc + k->off;
	struct bo_err e = {0};
	uint64_t n;

#define BAD(expect) \
	fail(p, EINVAL, "[%s] %s: bad value '%s' (%s)", label(p, k->section), k->name, v, expect)
	switch (k->type) {
	case K_NAME:
		if (!word_of(v, MAX_NAME, "._-"))
			return BAD("1 to 64 of A-Z a-z 0-9 . _ -");
		return set_string(p, k, v);
	case K_TEXT:
		return set_string(p, k, v);
	case K_KERNEL:
		if (p->sc->kernel_tree)
			return BAD("[vm] kernel_tree names a kernel already: one or the other");
		if (!bo_scenario_kernel_ok(v))
			return BAD("a kernel release or its version prefix, such as 6.12 or "
				   "6.1.0-57-amd64 (blackout kernel list)");
		return set_string(p, k, v);
	case K_TREE:
		/* Whether it is a built tree is the boot's to say (vm/ktree.h), with the reason. */
		if (v[0] != '/' || strpbrk(v, " \t"))
			return BAD("the absolute path of a kernel build tree");
		if (p->sc->kernel)
			return BAD("[vm] kernel names a cached kernel already: one or the other");
		return set_string(p, k, v);
	case K_COMMAND:
		if (!v[strspn(v, " \t")])
			return BAD("expected a command line");
		return set_string(p, k, v);
	case K_FS:
		/* A raw device: the workload's own block device, no filesystem on it. */
		if (!strcmp(v, "raw") && p->dev_name[0]) {
			p->dev_raw = true;
			return 1;
		}
		if (!strcmp(v, "raw"))
			return BAD("a raw device needs a name: [device NAME]");
		if (bo_fs_from_name(v, (enum bo_fs *) field) < 0)
			return BAD(p->dev_name[0] ? "expected " BO_FS_LIST " or raw"
						  : "expected " BO_FS_NAMES);
		return 1;
	case K_SIZE:
		if (parse_size(v, &n) < 0 || n == 0)
			return BAD("expected bytes with an optional K, M or G suffix");
		*(uint64_t *) field = n;
		return 1;
	case K_SECTOR:
		if (strcmp(v, "512") && strcmp(v, "4096"))
			return BAD("expected 512 or 4096");
		*(uint32_t *) field = (uint32_t) atoi(v);
		return 1;
	case K_MKFS_OPTS:
		if (strpbrk(v, "'\"\\`$;|&<>"))
			return BAD("options are split on blanks; quotes and shell characters are "
				   "not supported");
		return set_string(p, k, v);
	case K_MOUNT_OPTS:
		if (bo_mount_options_problem(v))
			return BAD(bo_mount_options_problem(v));
		return set_string(p, k, v);
	case K_BUILTIN:
		if (!bo_builtin_find(v))
			return BAD("known builtins: " BO_BUILTIN_NAMES);
		return set_string(p, k, v);
	case K_U64:
		if (parse_dec(v, &n) < 0)
			return BAD("expected a decimal number below 2^64");
		*(uint64_t *) field = n;
		return 1;
	case K_OPS:
		if (parse_dec(v, &n) < 0 || n == 0 || n > 1000000)
			return BAD("expected a decimal number from 1 to 1000000");
		*(uint64_t *) field = n;
		return 1;
	case K_LENGTH:
		if (parse_dec(v, &n) < 0 || n < 1 || n > 3)
			return BAD("expected the length of the bounded workloads, 1, 2 or 3");
		*(uint64_t *) field = n;
		return 1;
	case K_RANKS: {
		uint64_t lo, hi;

		if (bo_parse_range(v, &lo, &hi) < 0)
			return BAD("expected workload ranks A-B, or one rank A");
		return set_string(p, k, v);
	}
	case K_SAMPLE: {
		const char *slash = strchr(v, '/');
		char i[24];
		uint64_t at, every;

		if (!slash || (size_t) (slash - v) >= sizeof(i))
			return BAD("expected I/N: the workloads whose rank is I modulo N");
		memcpy(i, v, (size_t) (slash - v));
		i[slash - v] = '\0';
		if (bo_parse_u64(i, &at) < 0 || bo_parse_u64(slash + 1, &every) < 0 || !every ||
		    at >= every)
			return BAD("expected I/N with 0 <= I < N: the workloads whose rank is I "
				   "modulo N");
		return set_string(p, k, v);
	}
	case K_OP_IDS:
		/* The bounds depend on 'ops': checked once the section is complete. */
		if (bo_scenario_op_ids_check(v, UINT64_MAX) < 0)
			return BAD("expected op ids and ranges, e.g. 3,17,40-42");
		return set_string(p, k, v);
	case K_BUG:
		/* Which bugs exist depends on the builtin: checked once the section is complete. */
		if (!*v)
			return BAD("expected a bug name or 'none'");
		return set_string(p, k, v);
	case K_SECONDS:
		if (parse_dec(v, &n) < 0 || n == 0 || n > MAX_TIMEOUT)
			return BAD("expected whole seconds from 1 to 86400");
		*(unsigned *) field = (unsigned) n;
		return 1;
	case K_CUTS:
		if (bo_cutsel_validate(v, &e) < 0)
			return fail(p, EINVAL, "[%s] %s: %s", label(p, k->section), k->name,
				    bo_err_str(&e));
		free(sc->cuts_spec);
		sc->cuts_spec = strdup(v);
		return sc->cuts_spec ? 1 : fail(p, ENOMEM, "out of memory");
	case K_COUNT:
		if (parse_dec(v, &n) < 0 || n > 1000)
			return BAD("expected a number from 0 to 1000");
		*(uint64_t *) field = n;
		return 1;
	case K_PERSONA:
		if (bo_persona_parse(v, (enum bo_persona *) field) < 0)
			return BAD("expected a device persona: " BO_PERSONA_NAMES);
		return 1;
	case K_RECOVERY:
		if (bo_recovery_from_name(v, (enum bo_recovery *) field) < 0)
			return BAD("expected auto, mount or fsck");
		return 1;
	case K_FSYNC:
		if (strcmp(v, "path") && strcmp(v, "inode"))
			return BAD("expected path (fsync F syncs the file, its directory and the "
				   "root) or inode (fsync-file and fsync-dir, one inode each)");
		*(bool *) field = !strcmp(v, "inode");
		return 1;
	case K_FAMILIES:
		if (!bo_fsops_families_valid(v))
			return BAD("expected all, none, or op families separated by "
				   "commas: " BO_FSOPS_FAMILIES);
		if (!strcmp(v, "none"))
			return 1;
		return set_string(p, k, v);
	case K_PROMISES:
		if (!strcmp(v, "auto"))
			*(enum bo_promises *) field = BO_PROMISES_AUTO;
		else if (!strcmp(v, "linux"))
			*(enum bo_promises *) field = BO_PROMISES_LINUX;
		else if (!strcmp(v, "posix"))
			*(enum bo_promises *) field = BO_PROMISES_POSIX;
		else
			return BAD("expected auto, linux or posix");
		return 1;
	case K_BOOL:
		if (strcmp(v, "yes") && strcmp(v, "no"))
			return BAD("expected yes or no");
		*(bool *) field = !strcmp(v, "yes");
		return 1;
	case K_CHECKER:
		if (!strcmp(v, "none")) {
			sc->checker = BO_CHECKER_NONE;
			return 1;
		}
		if (!strpbrk(v, "/ \t")) {
			/* A bare word is a builtin; a command needs a path or arguments, so that a
			 * misspelt builtin is an error here rather than "command not found" in every
			 * crash state. */
			if (!bo_builtin_find(v))
				return BAD("a bare word must be a builtin (" BO_BUILTIN_NAMES
					   ") or 'none'; a command needs a path, like ./check");
			sc->checker = BO_CHECKER_BUILTIN;
		} else {
			sc->checker = BO_CHECKER_COMMAND;
		}
		free(sc->checker_command);
		sc->checker_command = strdup(v);
		return sc->checker_command ? 1 : fail(p, ENOMEM, "out of memory");

	case K_PATHS:
		return add_paths(p, k, v);
	case K_ROOT:
		if (strcmp(v, "blackout") && strcmp(v, "host"))
			return BAD(
				"expected blackout (its own small root, with [vm] files) or host "
				"(the host's root, read-only)");
		*(bool *) field = !strcmp(v, "host");
		return 1;
	case K_USER:
		if (!*v || strlen(v) > 32 ||
		    v[strspn(v, "abcdefghijklmnopqrstuvwxyz"
				"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")] ||
		    *v == '-')
			return BAD("a user name");
		if (p->o->host && !getpwnam(v))
			return BAD("no such user on this machine");
		return set_string(p, k, v);
	case K_SCRIPT:
		return set_script(p, k, v);
	}
#undef BAD
	return fail(p, EINVAL, "[%s] %s: unhandled key type", label(p, k->section), k->name);
}

/* [faults] at = TRIGGER FAULT...: the one key that may repeat, one line per switch. */
static int add_fault(struct parser *p, const char *name, const char *value)
{
	struct bo_scenario *sc = p->sc;
	struct bo_fault f = {0}, *v;
	char why[300];
	int r;

	if (strcmp(name, "at"))
		return fail(p, EINVAL,
			    "[faults]: unknown key '%s' (each line is 'at = TRIGGER "
			    "FAULT...')",
			    name);
	if (sc->nfaults == BO_FAULT_MAX)
		return fail(p, EINVAL, "[faults] at: more than %d faults", BO_FAULT_MAX);
	r = bo_fault_parse(value, &f, why, sizeof(why));
	if (r < 0)
		return fail(p, -r, "[faults] at: bad value '%s' (%s)", value, why);
	for (size_t i = 0; i < sc->nfaults; i++)
		if (!strcmp(sc->faults[i].trigger, f.trigger)) {
			bo_fault_clear(&f);
			return fail(p, EINVAL,
				    "[faults] at: bad value '%s' (trigger already used on line %d: "
				    "one switch per mark)",
				    value, sc->faults[i].line);
		}
	v = realloc(sc->faults, (sc->nfaults + 1) * sizeof(*v));
	if (!v) {
		bo_fault_clear(&f);
		return fail(p, ENOMEM, "out of memory");
	}
	f.line = p->lineno;
	sc->faults = v;
	sc->faults[sc->nfaults++] = f;
	return 1;
}

static int key_line(const struct parser *p, const char *section, const char *name);
static int device_line(const struct parser *p, const char *name);
static int fail_at(struct parser *p, int line, const char *fmt, ...) _printf_(3, 4);
static int invalid(struct parser *p, const char *section, const char *name, const char *fmt, ...)
	_printf_(4, 5);

/* A [device] or [device NAME] section begins at the current line. */
static void begin_device(struct parser *p, const char *name)
{
	struct bo_scenario *sc = p->sc;

	if (!name) {
		if (sc->ndevices)
			fail(p, EINVAL,
			     "[device]: not with [device NAME] sections: name every "
			     "device, or use one [device]");
		p->unnamed_device = true;
		return;
	}
	if (p->unnamed_device) {
		fail(p, EINVAL, "[device %.40s]: not with a [device] section: name every device",
		     name);
		return;
	}
	if (!bo_layout_name_ok(name)) {
		fail(p, EINVAL,
		     "[device %.40s]: a device's name is 1 to %d of a-z, 0-9 and _, starting "
		     "with a letter",
		     name, BO_LAYOUT_NAME_MAX);
		return;
	}
	for (size_t i = 0; i < sc->ndevices; i++)
		if (!strcmp(sc->devices[i].name, name)) {
			fail(p, EINVAL,
			     "[device %s]: device '%s' is named twice (first on line %d)", name,
			     name, sc->devices[i].line);
			return;
		}
	if (sc->ndevices == BO_LAYOUT_MAX) {
		fail(p, EINVAL, "[device %s]: more than %d devices", name, BO_LAYOUT_MAX);
		return;
	}
	snprintf(p->dev_name, sizeof(p->dev_name), "%s", name);
	snprintf(p->dev_label, sizeof(p->dev_label), "device %s", name);
	p->dev_line = p->lineno;
}

/* The [device NAME] section being read ends: check it and keep it in sc->devices; the
 * device fields go back to their defaults for the next. */
static int commit_device(struct parser *p)
{
	struct bo_scenario *sc = p->sc;
	struct bo_device *v, d = {
				     .raw = p->dev_raw,
				     .fs = sc->fs,
				     .size = sc->size,
				     .sector_size = sc->sector_size,
				     .journal = -1,
				     .line = p->dev_line,
			     };
	int r = 0;

	if (!device_line(p, "fs"))
		r = fail_at(p, p->dev_line, "[%s] fs: required (" BO_FS_LIST " or raw)",
			    p->dev_label);
	else if (d.size % d.sector_size)
		r = invalid(p, "device", "size", "%" PRIu64 " is not a multiple of sector_size %u",
			    d.size, d.sector_size);
	else if (d.size < (d.raw ? 1u << 20 : fs_min_size[d.fs]) || d.size > MAX_DEV_SIZE)
		r = invalid(p, "device", "size",
			    "%" PRIu64 " bytes is outside %" PRIu64 "M..64G for %s", d.size,
			    (d.raw ? 1u << 20 : fs_min_size[d.fs]) >> 20,
			    d.raw ? "a raw device" : bo_fs_name(d.fs));
	else if (d.raw && (device_line(p, "mkfs_options") || device_line(p, "mount_options")))
		r = invalid(p, "device",
			    device_line(p, "mkfs_options") ? "mkfs_options" : "mount_options",
			    "a raw device has no filesystem to make or mount");
	else if (sc->ndevices && d.sector_size != sc->devices[0].sector_size)
		r = invalid(p, "device", "sector_size",
			    "%u, but device '%s' has %u: the devices share one log, of one block "
			    "size",
			    d.sector_size, sc->devices[0].name, sc->devices[0].sector_size);
	if (r < 0 || p->failed)
		return -EINVAL;
	v = reallocarray(sc->devices, sc->ndevices + 1, sizeof(*v));
	if (!v)
		return fail(p, ENOMEM, "out of memory"), -ENOMEM;
	sc->devices = v;
	d.name = strdup(p->dev_name);
	d.mkfs_options = sc->mkfs_options;
	d.mount_options = sc->mount_options;
	d.journal_name = p->dev_journal;
	d.journal_line = p->journal_line;
	sc->mkfs_options = strdup("");
	sc->mount_options = strdup("");
	p->dev_journal = NULL;
	sc->devices[sc->ndevices++] = d;
	if (!d.name || !sc->mkfs_options || !sc->mount_options)
		return fail(p, ENOMEM, "out of memory"), -ENOMEM;
	/* The next device starts from the defaults. */
	sc->fs = 0;
	sc->size = 256ULL << 20;
	sc->sector_size = 4096;
	p->dev_raw = false;
	for (size_t i = 0; i < BO_ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i].section, "device"))
			p->key_line[i] = 0;
	p->dev_name[0] = '\0';
	return 0;
}

/* One line of the file (ini.h): a section line, or a key of the current section. */
static int item(void *ctx, const struct bo_ini_item *it, struct bo_err *err)
{
	struct parser *p = ctx;
	bool known = false;

	p->lineno = (int) it->line;
	if (!it->key) {
		for (size_t i = 0; i < BO_ARRAY_SIZE(sections); i++)
			known |= !strcmp(sections[i], it->section);
		/* A section that ends a [device NAME] section ends its device. */
		if (p->dev_name[0] && commit_device(p) < 0)
			return -EINVAL;
		if (!known)
			fail(p, EINVAL,
			     "unknown section '[%.80s]' (expected scenario, device, workload, "
			     "check, "
			     "run, faults or vm)",
			     it->section);
		else if (!strcmp(it->section, "device"))
			begin_device(p, it->name);
		else if (it->name)
			fail(p, EINVAL, "[%s %.80s]: section [%s] takes no name", it->section,
			     it->name, it->section);
		return p->failed ? -EINVAL : 0;
	}
	if (!strcmp(it->section, "device") && !strcmp(it->key, "journal")) {
		if (!p->dev_name[0])
			fail(p, EINVAL,
			     "[device] journal: an external journal is a device of its "
			     "own: name them, [device NAME]");
		else if (p->dev_journal)
			fail(p, EINVAL, "[%s] journal: given twice (first on line %d)",
			     p->dev_label, p->journal_line);
		else if (!bo_layout_name_ok(it->value))
			fail(p, EINVAL, "[%s] journal: bad value '%s' (a device's name)",
			     p->dev_label, it->value);
		else if (!(p->dev_journal = strdup(it->value)))
			fail(p, ENOMEM, "out of memory");
		p->journal_line = p->lineno;
		return p->failed ? -EINVAL : 0;
	}
	if (!*it->section) {
		fail(p, EINVAL, "key '%s' outside of a section", it->key);
		return -EINVAL;
	}
	if (!strcmp(it->section, "faults")) {
		add_fault(p, it->key, it->value);
		return p->failed ? -EINVAL : 0;
	}
	for (size_t i = 0; i < BO_ARRAY_SIZE(keys); i++) {
		if (strcmp(keys[i].section, it->section) || strcmp(keys[i].name, it->key))
			continue;
		if (p->key_line[i] && !keys[i].repeat) {
			fail(p, EINVAL, "[%s] %s: given twice (first on line %d)",
			     label(p, it->section), it->key, p->key_line[i]);
			return -EINVAL;
		}
		if (!p->key_line[i])
			p->key_line[i] = p->lineno;
		set_key(p, &keys[i], it->value);
		return p->failed ? -EINVAL : 0;
	}
	fail(p, EINVAL, "[%s]: unknown key '%s'", it->section, it->key);
	return -EINVAL;
}

static int device_line(const struct parser *p, const char *name)
{
	return key_line(p, "device", name);
}

static int key_line(const struct parser *p, const char *section, const char *name)
{
	for (size_t i = 0; i < BO_ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, name))
			return p->key_line[i];
	return 0;
}

/* An error about key @name found on its line, or about the file when it is absent. */
static int invalid(struct parser *p, const char *section, const char *name, const char *fmt, ...)
	_printf_(4, 5);
static int invalid(struct parser *p, const char *section, const char *name, const char *fmt, ...)
{
	int line = key_line(p, section, name);
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		return bo_err_set(p->err, EINVAL, "%s:%d: [%s] %s: %s", p->origin, line,
				  label(p, section), name, msg);
	return bo_err_set(p->err, EINVAL, "%s: [%s] %s: %s", p->origin, label(p, section), name,
			  msg);
}

static char *default_name(const char *origin)
{
	const char *base = strrchr(origin, '/');
	size_t n;
	char *name;

	base = base ? base + 1 : origin;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".ini"))
		n -= 4;
	if (n > MAX_NAME)
		n = MAX_NAME;
	name = n ? strndup(base, n) : strdup("scenario");
	/* Keep the name usable in run ids and paths whatever the file is called. */
	for (char *c = name; c && *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			    *c))
			*c = '_';
	return name;
}

/* On the host: the scenario's user can run its scripts. The guest keeps the host's modes and
 * owners, in its own root and in the host's, so what fails here would fail there. */
static int user_reaches_scripts(struct parser *p)
{
	const struct bo_scenario *sc = p->sc;
	const char *const scripts[][2] = {
		{"workload", sc->workload_script},
		{"check", sc->checker_script},
	};
	struct bo_proc_user u;
	struct bo_err e = {0};

	if (bo_proc_user_lookup(sc->user, &u, &e) < 0)
		return invalid(p, "workload", "user", "%s", bo_err_str(&e));
	for (size_t i = 0; i < BO_ARRAY_SIZE(scripts); i++)
		if (scripts[i][1] && bo_proc_user_access(&u, scripts[i][1], R_OK | X_OK, &e) < 0) {
			(void) !invalid(p, scripts[i][0], "script", "%s", bo_err_str(&e));
			if (p->err)
				p->err->errnum = e.errnum;
			return -e.errnum;
		}
	return 0;
}

/* An error about line @line, whatever line the parser is at. */
static int fail_at(struct parser *p, int line, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return bo_err_set(p->err, EINVAL, "%s:%d: %s", p->origin, line, msg);
}

/* Every 1 MiB: where devices start in the log's device, the first MiB no device's. */
#define DEVICE_ALIGN 2048u

/*
 * After the last [device NAME] section: the journals, where each device lies in the one log
 * device (layout.h), and the scenario's own device fields: the log device's size, the first
 * filesystem's fs and options.
 */
static int finish_devices(struct parser *p)
{
	struct bo_scenario *sc = p->sc;
	uint64_t at = DEVICE_ALIGN;

	sc->primary = -1;
	for (size_t i = 0; i < sc->ndevices; i++) {
		struct bo_device *d = &sc->devices[i];
		int j = -1;

		for (size_t k = 0; d->journal_name && k < sc->ndevices; k++)
			if (!strcmp(sc->devices[k].name, d->journal_name))
				j = (int) k;
		if (d->journal_name && (d->raw || (d->fs != BO_FS_EXT4 && d->fs != BO_FS_XFS)))
			return fail_at(p, d->journal_line,
				       "[device %s] journal: %s has no external journal (ext4 and "
				       "xfs have)",
				       d->name, d->raw ? "a raw device" : bo_fs_name(d->fs));
		if (d->journal_name && (j < 0 || j == (int) i))
			return fail_at(p, d->journal_line,
				       "[device %s] journal: bad value '%s' (another device of the "
				       "scenario)",
				       d->name, d->journal_name);
		if (j >= 0 && !sc->devices[j].raw)
			return fail_at(p, d->journal_line,
				       "[device %s] journal: device '%s' must be 'fs = raw': the "
				       "journal is made there by mkfs",
				       d->name, d->journal_name);
		/* xfsprogs 6.1: "Log size must be at least 64MB". */
		if (j >= 0 && d->fs == BO_FS_XFS && sc->devices[j].size < (64ull << 20))
			return fail_at(p, d->journal_line,
				       "[device %s] journal: device '%s' has %" PRIu64
				       " bytes; mkfs.xfs wants an external log of at least 64M",
				       d->name, d->journal_name, sc->devices[j].size);
		for (size_t k = 0; j >= 0 && k < i; k++)
			if (sc->devices[k].journal == j)
				return fail_at(p, d->journal_line,
					       "[device %s] journal: device '%s' is the journal of "
					       "'%s' already",
					       d->name, d->journal_name, sc->devices[k].name);
		d->journal = j;
		d->start = at;
		at += (d->size / 512 + DEVICE_ALIGN - 1) / DEVICE_ALIGN * DEVICE_ALIGN;
		if (sc->primary < 0 && !d->raw)
			sc->primary = (int) i;
	}
	if (sc->nfaults)
		return fail_at(p, sc->faults[0].line,
			       "[faults]: a fault plan acts on one device: not with [device NAME] "
			       "sections");
	if (at * 512 > MAX_DEV_SIZE)
		return fail_at(p, sc->devices[sc->ndevices - 1].line,
			       "[device %s]: the devices take %" PRIu64
			       " bytes in all, more than 64G",
			       sc->devices[sc->ndevices - 1].name, at * 512);
	sc->size = at * 512;
	sc->sector_size = sc->devices[0].sector_size;
	if (sc->primary >= 0) {
		const struct bo_device *d = &sc->devices[sc->primary];

		sc->fs = d->fs;
		free(sc->mkfs_options);
		free(sc->mount_options);
		sc->mkfs_options = strdup(d->mkfs_options);
		sc->mount_options = strdup(d->mount_options);
		if (!sc->mkfs_options || !sc->mount_options)
			return bo_err_set(p->err, ENOMEM, "out of memory");
	}
	return 0;
}

/* Cross-key checks and defaults that depend on other keys. */
static int finish(struct parser *p)
{
	struct bo_scenario *sc = p->sc;
	const struct bo_builtin *b = NULL;

	if (p->dev_name[0] && commit_device(p) < 0)
		return -EINVAL;
	if (sc->ndevices && finish_devices(p) < 0)
		return -EINVAL;
	if (!sc->ndevices && !key_line(p, "device", "fs"))
		return invalid(p, "device", "fs", "required (" BO_FS_NAMES ")");
	if (!!sc->builtin + !!key_line(p, "workload", "command") + !!sc->workload_script != 1)
		return invalid(p, "workload",
			       sc->workload_script ? "script"
			       : sc->builtin	   ? "command"
						   : "builtin",
			       "exactly one of 'builtin', 'command' and 'script' is required");
	if (sc->checker_script && key_line(p, "check", "checker"))
		return invalid(p, "check", "script", "not with 'checker': one of the two");
	if (sc->checker_script)
		sc->checker = BO_CHECKER_COMMAND;
	if (p->o->host && sc->user) {
		int r = user_reaches_scripts(p);

		if (r < 0)
			return r;
	}
	if (!sc->ndevices && sc->size % sc->sector_size)
		return invalid(p, "device", "size",
			       "%" PRIu64 " is not a multiple of sector_size %u", sc->size,
			       sc->sector_size);
	if (!sc->ndevices && (sc->size < fs_min_size[sc->fs] || sc->size > MAX_DEV_SIZE))
		return invalid(p, "device", "size",
			       "%" PRIu64 " bytes is outside %" PRIu64 "M..64G for %s", sc->size,
			       fs_min_size[sc->fs] >> 20, bo_fs_name(sc->fs));
	if (bo_scenario_recovery_problem(sc, sc->recovery))
		return invalid(p, "check", "recovery", "%s",
			       bo_scenario_recovery_problem(sc, sc->recovery));
	if (!key_line(p, "run", "log_size"))
		sc->log_size = 2 * sc->size;
	if (sc->log_size % sc->sector_size || sc->log_size < (1u << 20))
		return invalid(p, "run", "log_size",
			       "%" PRIu64 " must be at least 1M and a multiple of sector_size %u",
			       sc->log_size, sc->sector_size);
	sc->workload_seed_set = key_line(p, "workload", "seed");
	if (!sc->workload_seed_set)
		sc->workload_seed = sc->seed;

	if (sc->builtin) {
		sc->workload = BO_WORKLOAD_BUILTIN;
		b = bo_builtin_find(sc->builtin);
		if (sc->bug && !strcmp(sc->bug, "none")) {
			free(sc->bug);
			sc->bug = NULL;
		}
		if (sc->bug && !bo_builtin_has_bug(b, sc->bug)) {
			char known[200] = "none";

			for (const char *const *q = b->bugs; *q; q++)
				snprintf(known + strlen(known), sizeof(known) - strlen(known),
					 ", %s", *q);
			return invalid(p, "workload", "bug",
				       "bad value '%s' (builtin %s plants: %s)", sc->bug, b->name,
				       known);
		}
		if (!key_line(p, "check", "checker") && !sc->checker_script) {
			sc->checker = BO_CHECKER_BUILTIN;
			sc->checker_command = strdup(b->name);
			if (!sc->checker_command)
				return bo_err_set(p->err, ENOMEM, "out of memory");
		}
		if (sc->keep_ops && bo_scenario_op_ids_check(sc->keep_ops, sc->ops) < 0)
			return invalid(p, "workload", "keep_ops",
				       "'%s': every op id must be from 1 to ops (%" PRIu64 ")",
				       sc->keep_ops, sc->ops);
	} else {
		sc->workload = BO_WORKLOAD_COMMAND;
		if (key_line(p, "workload", "ops"))
			return invalid(p, "workload", "ops", "only builtin workloads take 'ops'");
		if (key_line(p, "workload", "bug"))
			return invalid(p, "workload", "bug", "only builtin workloads take 'bug'");
		if (!key_line(p, "check", "checker") && !sc->checker_script)
			return invalid(p, "check", "checker",
				       "required with a command or script workload (a command "
				       "line, a script, a builtin, or 'none' for mount and fsck "
				       "checks only)");
	}
	for (size_t i = 0; !bo_fsops_is(sc) && i < BO_ARRAY_SIZE(fsops_keys); i++)
		if (key_line(p, "workload", fsops_keys[i]))
			return invalid(p, "workload", fsops_keys[i],
				       "only builtin fsops takes '%s'", fsops_keys[i]);
	for (size_t i = 0; !bo_bounded_is(sc) && i < BO_ARRAY_SIZE(bounded_keys); i++)
		if (key_line(p, "workload", bounded_keys[i]))
			return invalid(p, "workload", bounded_keys[i],
				       "only builtin bounded takes '%s'", bounded_keys[i]);
	if (bo_bounded_is(sc) && !sc->length)
		return invalid(p, "workload", "length",
			       "builtin bounded needs the length of its workloads (1, 2 or 3)");
	if (bo_bounded_is(sc) && key_line(p, "workload", "ops"))
		return invalid(p, "workload", "ops",
			       "builtin bounded enumerates its workloads: it takes 'length', not "
			       "'ops'");
	if (key_line(p, "check", "promises") &&
	    (sc->checker != BO_CHECKER_BUILTIN ||
	     (strcmp(sc->checker_command, "fsops") && strcmp(sc->checker_command, "bounded"))))
		return invalid(p, "check", "promises",
			       "only the fsops and bounded checkers take 'promises'");
	if (sc->checker == BO_CHECKER_BUILTIN && (!b || strcmp(b->name, sc->checker_command)))
		return invalid(p, "check", "checker",
			       "builtin checker '%s' needs the builtin workload of that name (it "
			       "re-derives the workload's operations)",
			       sc->checker_command);
	if (!sc->name) {
		sc->name = default_name(sc->origin);
		if (!sc->name)
			return bo_err_set(p->err, ENOMEM, "out of memory");
	}
	return 0;
}

static int set_defaults(struct bo_scenario *sc, const char *origin)
{
	sc->primary = -1;
	sc->size = 256ULL << 20;
	sc->sector_size = 4096;
	sc->ops = 200;
	sc->seed = 1;
	sc->workload_timeout = 600;
	sc->mount_timeout = 60;
	sc->fsck_timeout = 300;
	sc->checker_timeout = 120;
	sc->origin = strdup(origin);
	sc->description = strdup("");
	sc->mkfs_options = strdup("");
	sc->mount_options = strdup("");
	sc->cuts_spec = strdup("mark");
	if (!sc->origin || !sc->description || !sc->mkfs_options || !sc->mount_options ||
	    !sc->cuts_spec)
		return -ENOMEM;
	return 0;
}

/* The directory of @origin, absolute (relative paths in the file are relative to it). */
static char *origin_dir(const char *origin)
{
	char abs[PATH_MAX];
	const char *slash;

	if (realpath(origin, abs)) {
		slash = strrchr(abs, '/');
		return strndup(abs, slash == abs ? 1 : (size_t) (slash - abs));
	}
	/* Text that is no file (tests, fuzzing): its name's directory as it stands. */
	slash = strrchr(origin, '/');
	return slash ? strndup(origin, (size_t) (slash - origin)) : strdup(".");
}

int bo_scenario_parse(const char *text, size_t len, const char *origin,
		      const struct bo_scenario_opts *o, struct bo_scenario **ret,
		      struct bo_err *err)
{
	static const struct bo_scenario_opts defaults = {.host = true};
	struct bo_scenario *sc = calloc(1, sizeof(*sc));
	struct parser p = {.origin = origin, .o = o ? o : &defaults, .err = err, .sc = sc};
	int r;

	if (!sc || set_defaults(sc, origin) < 0 ||
	    !(sc->dir = p.o->dir ? strdup(p.o->dir) : origin_dir(origin)) ||
	    !(sc->text = malloc(len + 1))) {
		bo_scenario_free(sc);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	memcpy(sc->text, text, len);
	sc->text[len] = '\0';
	sc->text_len = len;
	r = bo_ini_parse(text, len, origin, item, &p, err);
	if (r < 0 || p.failed || finish(&p) < 0) {
		bo_scenario_free(sc);
		return -(err && err->errnum ? err->errnum : EINVAL);
	}
	*ret = sc;
	return 0;
}

int bo_scenario_load_opts(const char *path, const struct bo_scenario_opts *o,
			  struct bo_scenario **ret, struct bo_err *err)
{
	_cleanup_free_ char *buf = NULL;
	size_t n;
	/* The user's own file, through a symlink too; a FIFO, a socket or a device is refused
	 * with what it is, never read (docs/safety.md). */
	int r = bo_input_read_path(path, BO_INPUT_FOLLOW, MAX_FILE, &buf, &n, err);

	if (r < 0) {
		(void) bo_err_prefix(err, "scenario");
		return r;
	}
	return bo_scenario_parse(buf, n, path, o, ret, err);
}

int bo_scenario_load_in(const char *dir, const struct bo_scenario_opts *o, struct bo_scenario **ret,
			struct bo_err *err)
{
	_cleanup_free_ char *buf = NULL;
	char path[PATH_MAX];
	size_t n;
	int r;

	if (bo_pathf(path, sizeof(path), "%s/scenario.ini", dir) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s': path too long", dir);
	r = bo_input_read(dir, "scenario.ini", MAX_FILE, &buf, &n, err);
	if (r < 0) {
		(void) bo_err_prefix(err, "scenario");
		return r;
	}
	return bo_scenario_parse(buf, n, path, o, ret, err);
}

int bo_scenario_load(const char *path, struct bo_scenario **ret, struct bo_err *err)
{
	return bo_scenario_load_opts(path, NULL, ret, err);
}

int bo_scenario_text(const struct bo_scenario *sc, char **ret, size_t *ret_len)
{
	const char *text = sc->text;
	size_t len = sc->text_len, pos = 0;
	char *out = NULL;
	size_t olen = 0;
	FILE *f = open_memstream(&out, &olen);
	int line = 0;

	if (!f)
		return -ENOMEM;
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t) (nl - l) + 1 : len - pos;
		const struct bo_scenario_path *sp = NULL;

		line++;
		for (size_t i = 0; i < sc->npaths; i++)
			if (sc->paths[i].line == line)
				sp = &sc->paths[i];
		if (sp)
			fprintf(f, "%s = %s\n", sp->key, sp->value);
		else
			fwrite(l, 1, n, f);
		pos += n;
	}
	if (fclose(f) != 0) {
		free(out);
		return -ENOMEM;
	}
	*ret = out;
	*ret_len = olen;
	return 0;
}

int bo_scenario_save(const struct bo_scenario *sc, const char *dst, struct bo_err *err)
{
	_cleanup_free_ char *out = NULL;
	_cleanup_close_ int fd = -1;
	size_t olen = 0;
	int r;

	if (bo_scenario_text(sc, &out, &olen) < 0)
		return bo_err_set(err, ENOMEM, "out of memory");
	fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return bo_err_set(err, errno, "creating '%s': %s", dst, strerror(errno));
	r = bo_pwrite_full(fd, out, olen, 0);
	if (r < 0)
		return bo_err_set(err, -r, "writing '%s': %s", dst, strerror(-r));
	return 0;
}

void bo_scenario_layout(const struct bo_scenario *sc, struct bo_layout *ret)
{
	*ret = (struct bo_layout){.n = (unsigned) sc->ndevices};
	for (size_t i = 0; i < sc->ndevices; i++) {
		const struct bo_device *d = &sc->devices[i];
		struct bo_layout_dev *l = &ret->v[i];

		snprintf(l->name, sizeof(l->name), "%s", d->name);
		snprintf(l->kind, sizeof(l->kind), "%s", d->raw ? "raw" : bo_fs_name(d->fs));
		l->start = d->start;
		l->sectors = d->size / 512;
		l->journal = d->journal;
	}
}

int bo_scenario_files(const struct bo_scenario *sc, char ***ret)
{
	size_t n = 0, k = 0;
	char **v;

	while (sc->files && sc->files[n])
		n++;
	v = calloc(n + 3, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!(v[k++] = strdup(sc->files[i])))
			goto fail;
	if (sc->workload_script && !(v[k++] = strdup(sc->workload_script)))
		goto fail;
	if (sc->checker_script && !(v[k++] = strdup(sc->checker_script)))
		goto fail;
	*ret = v;
	return 0;
fail:
	bo_strv_free(v);
	return -ENOMEM;
}

void bo_scenario_set_seed(struct bo_scenario *sc, uint64_t seed)
{
	sc->seed = seed;
	if (!sc->workload_seed_set)
		sc->workload_seed = seed;
}

void bo_scenario_free(struct bo_scenario *sc)
{
	if (!sc)
		return;
	for (size_t i = 0; i < sc->ndevices; i++) {
		free(sc->devices[i].name);
		free(sc->devices[i].mkfs_options);
		free(sc->devices[i].mount_options);
		free(sc->devices[i].journal_name);
	}
	free(sc->devices);
	free(sc->origin);
	free(sc->text);
	free(sc->name);
	free(sc->description);
	free(sc->mkfs_options);
	free(sc->mount_options);
	free(sc->builtin);
	free(sc->command);
	free(sc->bug);
	free(sc->keep_ops);
	free(sc->families);
	free(sc->workloads);
	free(sc->sample);
	free(sc->cuts_spec);
	free(sc->checker_command);
	for (size_t i = 0; i < sc->nfaults; i++)
		bo_fault_clear(&sc->faults[i]);
	free(sc->faults);
	free(sc->workload_script);
	free(sc->checker_script);
	free(sc->user);
	free(sc->kernel);
	free(sc->kernel_tree);
	bo_strv_free(sc->files);
	for (size_t i = 0; i < sc->npaths; i++) {
		free(sc->paths[i].key);
		free(sc->paths[i].value);
	}
	free(sc->paths);
	free(sc->dir);
	free(sc);
}

int bo_scenario_op_ids_check(const char *s, uint64_t max)
{
	uint64_t lo, hi;
	int k;

	if (!*s)
		return -EINVAL;
	while ((k = bo_ids_next(&s, max, &lo, &hi)) > 0)
		;
	return k;
}

int bo_scenario_set_keep_ops(struct bo_scenario *sc, const char *ids)
{
	char *v = NULL;

	if (ids && (bo_scenario_op_ids_check(ids, sc->ops) < 0 || !sc->builtin ||
		    strcmp(sc->builtin, "fsops")))
		return -EINVAL;
	if (ids && !(v = strdup(ids)))
		return -ENOMEM;
	free(sc->keep_ops);
	sc->keep_ops = v;
	return 0;
}
