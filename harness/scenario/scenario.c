// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario files, parsed with inih (Debian's libinih). Debian builds inih without
 * INI_HANDLER_LINENO, so the handler gets no line number: a custom reader feeds inih one
 * physical line at a time and counts them. The reader also refuses what inih would silently
 * mangle — over-long lines (inih splits them), NUL bytes (they end the line early) — strips
 * leading blanks so that no line becomes an inih multi-line continuation, and checks section
 * names itself, because inih does not call the handler for a section without keys.
 */
#include "harness/scenario/scenario.h"

#include "harness/states/cutsel.h"
#include "scenarios/blackout-ids.h"
#include "harness/scenario/faultplan.h"

#include <errno.h>
#include <fcntl.h>
#include <ini.h>
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

#define MAX_FILE     (1u << 20)
#define MAX_NAME     64
#define MAX_DEV_SIZE (64ULL << 30)
#define MAX_TIMEOUT  86400u

enum key_type {
	K_NAME,	      /* [A-Za-z0-9._-], at most MAX_NAME bytes */
	K_TEXT,	      /* anything */
	K_COMMAND,    /* a non-empty command line */
	K_FS,	      /* ext4 | xfs | btrfs */
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
};

struct key {
	const char *section, *name;
	enum key_type type;
	size_t off;
};

#define F(field) offsetof(struct bo_scenario, field)

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
	{"workload", "ops", K_OPS, F(ops)},
	{"workload", "bug", K_BUG, F(bug)},
	{"workload", "keep_ops", K_OP_IDS, F(keep_ops)},
	{"workload", "seed", K_U64, F(workload_seed)},
	{"workload", "timeout", K_SECONDS, F(workload_timeout)},
	{"check", "cuts", K_CUTS, F(cuts_spec)},
	{"check", "checker", K_CHECKER, F(checker)},
	{"check", "ordered", K_BOOL, F(ordered)},
	{"check", "mount_timeout", K_SECONDS, F(mount_timeout)},
	{"check", "fsck_timeout", K_SECONDS, F(fsck_timeout)},
	{"check", "checker_timeout", K_SECONDS, F(checker_timeout)},
	{"run", "seed", K_U64, F(seed)},
	{"run", "log_size", K_SIZE, F(log_size)},
};

static const char *const sections[] = {"scenario", "device", "workload", "check", "run", "faults"};

/*
 * Builtin workloads: scenarios/<family>/, executable blackout-<family> with its checker mode;
 * @args (may be "") selects a variant of the family, e.g. SQLite's journal mode.
 */
static const struct builtin {
	const char *name, *exe, *args;
	const char *const *bugs;
} builtins[] = {
	{"fsops", "blackout-fsops", "",
	 (const char *const[]){"ack-without-fsync", "ignore-fsync-error", NULL}},
	{"applog", "blackout-applog", "", (const char *const[]){"ack-before-fsync", NULL}},
	{"replace", "blackout-replace", "",
	 (const char *const[]){"no-fsync-before-rename", "no-dir-fsync", NULL}},
	{"sqlite-wal", "blackout-sqlite", " --journal=wal",
	 (const char *const[]){"synchronous-off", NULL}},
	{"sqlite-rollback", "blackout-sqlite", " --journal=delete",
	 (const char *const[]){"synchronous-off", "synchronous-full", NULL}},
	{"kvd", "blackout-kvd", "", (const char *const[]){"skip-fsync", NULL}},
};

/* The builtins' names, for messages. */
#define BUILTIN_NAMES "fsops, applog, replace, sqlite-wal, sqlite-rollback, kvd"

/* Smallest device each mkfs accepts (measured: e2fsprogs 1.47, xfsprogs 6.1, btrfs-progs 6.2),
 * floored at 16M so that there is room for a workload. */
static const uint64_t fs_min_size[] = {
	[BO_FS_EXT4] = 16ULL << 20,
	[BO_FS_XFS] = 300ULL << 20,
	[BO_FS_BTRFS] = 110ULL << 20,
};

struct parser {
	const char *origin;
	const char *text;
	size_t len, pos;
	int lineno;
	int key_line[BO_ARRAY_SIZE(keys)];
	bool failed;
	struct bo_err *err;
	struct bo_scenario *sc;
};

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

static const struct builtin *find_builtin(const char *name)
{
	for (size_t i = 0; i < BO_ARRAY_SIZE(builtins); i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

static bool builtin_has_bug(const struct builtin *b, const char *bug)
{
	for (const char *const *p = b->bugs; *p; p++)
		if (!strcmp(*p, bug))
			return true;
	return false;
}

static char **str_field(struct bo_scenario *sc, const struct key *k)
{
	return (char **) ((char *) sc + k->off);
}

static int set_string(struct parser *p, const struct key *k, const char *value)
{
	char **field = str_field(p->sc, k);

	free(*field);
	*field = strdup(value);
	if (!*field)
		return fail(p, ENOMEM, "out of memory");
	return 1;
}

static int set_key(struct parser *p, const struct key *k, const char *v)
{
	struct bo_scenario *sc = p->sc;
	void *field = (char *) sc + k->off;
	struct bo_err e = {0};
	uint64_t n;

#define BAD(expect) fail(p, EINVAL, "[%s] %s: bad value '%s' (%s)", k->section, k->name, v, expect)
	switch (k->type) {
	case K_NAME:
		if (!*v || strlen(v) > MAX_NAME ||
		    v[strspn(v,
			     "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")])
			return BAD("1 to 64 of A-Z a-z 0-9 . _ -");
		return set_string(p, k, v);
	case K_TEXT:
		return set_string(p, k, v);
	case K_COMMAND:
		if (!v[strspn(v, " \t")])
			return BAD("expected a command line");
		return set_string(p, k, v);
	case K_FS:
		if (bo_fs_from_name(v, (enum bo_fs *) field) < 0)
			return BAD("expected ext4, xfs or btrfs");
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
		if (strpbrk(v, " \t'\"\\`$;|&<>"))
			return BAD("one comma-separated list, no blanks or shell characters");
		return set_string(p, k, v);
	case K_BUILTIN:
		if (!find_builtin(v))
			return BAD("known builtins: " BUILTIN_NAMES);
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
			return fail(p, EINVAL, "[%s] %s: %s", k->section, k->name, bo_err_str(&e));
		free(sc->cuts_spec);
		sc->cuts_spec = strdup(v);
		return sc->cuts_spec ? 1 : fail(p, ENOMEM, "out of memory");
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
			if (!find_builtin(v))
				return BAD("a bare word must be a builtin (" BUILTIN_NAMES
					   ") or 'none'; a command needs a path, like ./check");
			sc->checker = BO_CHECKER_BUILTIN;
		} else {
			sc->checker = BO_CHECKER_COMMAND;
		}
		free(sc->checker_command);
		sc->checker_command = strdup(v);
		return sc->checker_command ? 1 : fail(p, ENOMEM, "out of memory");
	}
#undef BAD
	return fail(p, EINVAL, "[%s] %s: unhandled key type", k->section, k->name);
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

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parser *p = user;

	if (p->failed)
		return 0;
	if (!*section)
		return fail(p, EINVAL, "key '%s' outside of a section", name);
	if (!strcmp(section, "faults"))
		return add_fault(p, name, value);
	for (size_t i = 0; i < BO_ARRAY_SIZE(keys); i++) {
		if (strcmp(keys[i].section, section) || strcmp(keys[i].name, name))
			continue;
		if (p->key_line[i])
			return fail(p, EINVAL, "[%s] %s: given twice (first on line %d)", section,
				    name, p->key_line[i]);
		p->key_line[i] = p->lineno;
		return set_key(p, &keys[i], value);
	}
	return fail(p, EINVAL, "[%s]: unknown key '%s'", section, name);
}

/* inih's reader: one physical line per call, checked, leading blanks stripped. */
static char *reader(char *buf, int num, void *stream)
{
	struct parser *p = stream;
	const char *line, *nl, *s;
	size_t len, skip;

	if (p->failed || p->pos >= p->len || num < 2)
		return NULL;
	line = p->text + p->pos;
	nl = memchr(line, '\n', p->len - p->pos);
	len = nl ? (size_t) (nl - line) + 1 : p->len - p->pos;
	p->pos += len;
	p->lineno++;
	if (memchr(line, '\0', len)) {
		fail(p, EINVAL, "NUL byte in the file");
		return NULL;
	}
	/* The text need not be NUL-terminated: stay within the line. */
	for (skip = 0; skip < len && (line[skip] == ' ' || line[skip] == '\t'); skip++)
		;
	s = line + skip;
	len -= skip;
	if (len > (size_t) num - 1 || (!nl && len == (size_t) num - 1)) {
		fail(p, E2BIG, "line longer than %d bytes", num - 2);
		return NULL;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	/* inih reports a malformed line only at the end, after calling the handler for the
	 * lines below it; catch it here so that the first error is the one reported. */
	if (len && !strchr(";#[\r\n", *s) && !memchr(s, '=', len) && !memchr(s, ':', len)) {
		fail(p, EINVAL, "syntax error: expected '[section]' or 'key = value'");
		return NULL;
	}
	if (len && *s == '[') {
		const char *end = memchr(s, ']', len);
		bool known = false;

		if (!end) {
			fail(p, EINVAL, "syntax error: '[' without ']'");
			return NULL;
		}

		for (size_t i = 0; i < BO_ARRAY_SIZE(sections); i++)
			known |= strlen(sections[i]) == (size_t) (end - s - 1) &&
				 !memcmp(sections[i], s + 1, (size_t) (end - s - 1));
		if (!known) {
			fail(p, EINVAL,
			     "unknown section '%.*s' (expected scenario, device, workload, "
			     "check, run or faults)",
			     (int) (end - s + 1 > 80 ? 80 : end - s + 1), s);
			return NULL;
		}
	}
	return buf;
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
		return bo_err_set(p->err, EINVAL, "%s:%d: [%s] %s: %s", p->origin, line, section,
				  name, msg);
	return bo_err_set(p->err, EINVAL, "%s: [%s] %s: %s", p->origin, section, name, msg);
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

/* Cross-key checks and defaults that depend on other keys. */
static int finish(struct parser *p)
{
	struct bo_scenario *sc = p->sc;
	const struct builtin *b = NULL;

	if (!key_line(p, "device", "fs"))
		return invalid(p, "device", "fs", "required (ext4, xfs or btrfs)");
	if (!!sc->builtin == !!sc->command)
		return invalid(p, "workload", sc->builtin ? "command" : "builtin",
			       "exactly one of 'builtin' and 'command' is required");
	if (sc->size % sc->sector_size)
		return invalid(p, "device", "size",
			       "%" PRIu64 " is not a multiple of sector_size %u", sc->size,
			       sc->sector_size);
	if (sc->size < fs_min_size[sc->fs] || sc->size > MAX_DEV_SIZE)
		return invalid(p, "device", "size",
			       "%" PRIu64 " bytes is outside %" PRIu64 "M..64G for %s", sc->size,
			       fs_min_size[sc->fs] >> 20, bo_fs_name(sc->fs));
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
		b = find_builtin(sc->builtin);
		if (sc->bug && !strcmp(sc->bug, "none")) {
			free(sc->bug);
			sc->bug = NULL;
		}
		if (sc->bug && !builtin_has_bug(b, sc->bug)) {
			char known[200] = "none";

			for (const char *const *q = b->bugs; *q; q++)
				snprintf(known + strlen(known), sizeof(known) - strlen(known),
					 ", %s", *q);
			return invalid(p, "workload", "bug",
				       "bad value '%s' (builtin %s plants: %s)", sc->bug, b->name,
				       known);
		}
		if (!key_line(p, "check", "checker")) {
			sc->checker = BO_CHECKER_BUILTIN;
			sc->checker_command = strdup(b->name);
			if (!sc->checker_command)
				return bo_err_set(p->err, ENOMEM, "out of memory");
		}
		if (sc->keep_ops && strcmp(b->name, "fsops"))
			return invalid(p, "workload", "keep_ops",
				       "only builtin fsops takes 'keep_ops'");
		if (sc->keep_ops && bo_scenario_op_ids_check(sc->keep_ops, sc->ops) < 0)
			return invalid(p, "workload", "keep_ops",
				       "'%s': every op id must be from 1 to ops (%" PRIu64 ")",
				       sc->keep_ops, sc->ops);
	} else {
		sc->workload = BO_WORKLOAD_COMMAND;
		if (key_line(p, "workload", "keep_ops"))
			return invalid(p, "workload", "keep_ops",
				       "only builtin fsops takes 'keep_ops'");
		if (key_line(p, "workload", "ops"))
			return invalid(p, "workload", "ops", "only builtin workloads take 'ops'");
		if (key_line(p, "workload", "bug"))
			return invalid(p, "workload", "bug", "only builtin workloads take 'bug'");
		if (!key_line(p, "check", "checker"))
			return invalid(p, "check", "checker",
				       "required with a command workload (a command line, a "
				       "builtin, or 'none' for mount and fsck checks only)");
	}
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

int bo_scenario_parse(const char *text, size_t len, const char *origin, struct bo_scenario **ret,
		      struct bo_err *err)
{
	struct bo_scenario *sc = calloc(1, sizeof(*sc));
	struct parser p = {.origin = origin, .text = text, .len = len, .err = err, .sc = sc};
	int r;

	if (!sc || set_defaults(sc, origin) < 0) {
		bo_scenario_free(sc);
		return bo_err_set(err, ENOMEM, "out of memory");
	}
	r = ini_parse_stream(reader, &p, handler, &p);
	if (!p.failed && r != 0) {
		/* inih found a line that is neither "[section]" nor "key = value". */
		p.lineno = r > 0 ? r : p.lineno;
		fail(&p, EINVAL, "syntax error: expected '[section]' or 'key = value'");
	}
	if (p.failed || finish(&p) < 0) {
		bo_scenario_free(sc);
		return -(err && err->errnum ? err->errnum : EINVAL);
	}
	*ret = sc;
	return 0;
}

int bo_scenario_load(const char *path, struct bo_scenario **ret, struct bo_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return bo_err_set(err, errno, "scenario '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0)
		return bo_err_set(err, errno, "scenario '%s': %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return bo_err_set(err, EINVAL, "scenario '%s': not a regular file", path);
	if (st.st_size > MAX_FILE)
		return bo_err_set(err, EFBIG, "scenario '%s': larger than %u bytes", path,
				  MAX_FILE);
	buf = malloc((size_t) st.st_size + 1);
	if (!buf)
		return bo_err_set(err, ENOMEM, "out of memory");
	n = bo_pread_full(fd, buf, (size_t) st.st_size, 0);
	if (n < 0)
		return bo_err_set(err, (int) -n, "scenario '%s': %s", path, strerror((int) -n));
	return bo_scenario_parse(buf, (size_t) n, path, ret, err);
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
	free(sc->origin);
	free(sc->name);
	free(sc->description);
	free(sc->mkfs_options);
	free(sc->mount_options);
	free(sc->builtin);
	free(sc->command);
	free(sc->bug);
	free(sc->keep_ops);
	free(sc->cuts_spec);
	free(sc->checker_command);
	for (size_t i = 0; i < sc->nfaults; i++)
		bo_fault_clear(&sc->faults[i]);
	free(sc->faults);
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

/* The builtin's command line: "blackout-fsops [check] --seed S --ops N [--keep IDS]
 * [--bug=B]". */
static int builtin_command(const struct bo_scenario *sc, const char *mode, char **ret)
{
	const struct builtin *b = find_builtin(sc->builtin);
	int n;

	n = asprintf(ret, "%s%s%s --seed %" PRIu64 " --ops %" PRIu64 "%s%s%s%s", b->exe, mode,
		     b->args, sc->workload_seed, sc->ops, sc->keep_ops ? " --keep " : "",
		     sc->keep_ops ? sc->keep_ops : "", sc->bug ? " --bug=" : "",
		     sc->bug ? sc->bug : "");
	return n < 0 ? -ENOMEM : 0;
}

int bo_scenario_workload_command(const struct bo_scenario *sc, char **ret)
{
	if (sc->workload == BO_WORKLOAD_BUILTIN)
		return builtin_command(sc, "", ret);
	*ret = strdup(sc->command);
	return *ret ? 0 : -ENOMEM;
}

int bo_scenario_checker_command(const struct bo_scenario *sc, char **ret)
{
	switch (sc->checker) {
	case BO_CHECKER_NONE:
		*ret = NULL;
		return 0;
	case BO_CHECKER_BUILTIN:
		return builtin_command(sc, " check", ret);
	case BO_CHECKER_COMMAND:
		break;
	}
	*ret = strdup(sc->checker_command);
	return *ret ? 0 : -ENOMEM;
}
