// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The keys of a scenario file and the parsers of their values. A row of the key table names
 * a key of a section, the kind of its value and its field of struct bo_scenario; each kind
 * has one parser, which checks a value as its line is read and stores it. Numbers and flags
 * share a parser, with the bounds or words of their kind in the kind table; a key that reads
 * unlike any other (a device's fs, which may be raw; the kernel or the kernel tree; the cut
 * policy; the checker) has a kind of its own, read by a function named for its row. The
 * paths and scripts are read by paths.c, whose parsers the kind table names too.
 */
#include <errno.h>
#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/dev/fs.h"
#include "harness/scenario/builtin.h"
#include "harness/scenario/fsops.h"
#include "harness/scenario/scenario_int.h"
#include "harness/states/cutsel.h"
#include "harness/states/persona.h"
#include "scenarios/blackout-ids.h"

#define MAX_TIMEOUT 86400u

/* A key's field, given once or (REPEAT) on as many lines as wanted. */
#define F(field)      offsetof(struct bo_scenario, field), false
#define REPEAT(field) offsetof(struct bo_scenario, field), true

static const struct scenario_key keys[] = {
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
	{"workload", "fresh", K_BOOL, F(fresh)},
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
const struct scenario_key *const scenario_keys = keys;
const size_t scenario_keys_n = BO_ARRAY_SIZE(keys);

_Static_assert(BO_ARRAY_SIZE(keys) == SCENARIO_NKEYS, "SCENARIO_NKEYS counts the key table");

/* How a kind of value is read: its parser, and for a parser several kinds share, what a
 * value of this kind is. */
struct kind {
	int (*set)(struct scenario_parser *p, const struct scenario_key *k, const char *v);
	const char *expect;   /* what a bad value's message says is expected */
	uint64_t min, max;    /* a number's bounds */
	const char *no, *yes; /* a flag's two words */
};

static const struct kind *kind_of(const struct scenario_key *k);

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
	if (bo_parse_u64(digits, &v) < 0 || v > (UINT64_MAX >> shift))
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
	return word_of(spec, SCENARIO_NAME_MAX, "._+~*-");
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

static void *field_of(struct scenario_parser *p, const struct scenario_key *k)
{
	return (char *) p->sc + k->off;
}

/* A bad value @v of key @k: what was expected, and the parse stops. */
static int bad(struct scenario_parser *p, const struct scenario_key *k, const char *v,
	       const char *expect)
{
	return scenario_fail(p, EINVAL, "[%s] %s: bad value '%s' (%s)",
			     scenario_label(p, k->section), k->name, v, expect);
}

/* K_NAME: [A-Za-z0-9._-], at most SCENARIO_NAME_MAX bytes. */
static int set_name(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	if (!word_of(v, SCENARIO_NAME_MAX, "._-"))
		return bad(p, k, v, "1 to 64 of A-Z a-z 0-9 . _ -");
	return scenario_set_string(p, k, v);
}

/* K_COMMAND: a non-empty command line. */
static int set_command(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	if (!v[strspn(v, " \t")])
		return bad(p, k, v, "expected a command line");
	return scenario_set_string(p, k, v);
}

/* K_FS, [device] fs: ext4 | xfs | btrfs | ext2 | vfat, or in a [device NAME] section raw. */
static int set_device_fs(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	/* A raw device: the workload's own block device, no filesystem on it. */
	if (!strcmp(v, "raw") && p->dev_name[0]) {
		p->dev_raw = true;
		return 1;
	}
	if (!strcmp(v, "raw"))
		return bad(p, k, v, "a raw device needs a name: [device NAME]");
	if (bo_fs_from_name(v, field_of(p, k)) < 0)
		return bad(p, k, v,
			   p->dev_name[0] ? "expected " BO_FS_LIST " or raw"
					  : "expected " BO_FS_NAMES);
	return 1;
}

/* K_SIZE: bytes with an optional K/M/G suffix. */
static int set_size(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	uint64_t n;

	if (parse_size(v, &n) < 0 || n == 0)
		return bad(p, k, v, "expected bytes with an optional K, M or G suffix");
	*(uint64_t *) field_of(p, k) = n;
	return 1;
}

/* K_SECTOR: 512 | 4096. */
static int set_sector(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	if (strcmp(v, "512") && strcmp(v, "4096"))
		return bad(p, k, v, "expected 512 or 4096");
	*(uint32_t *) field_of(p, k) = (uint32_t) atoi(v);
	return 1;
}

/* K_MKFS_OPTS: words split on whitespace, no quoting. */
static int set_mkfs_options(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	if (strpbrk(v, "'\"\\`$;|&<>"))
		return bad(p, k, v,
			   "options are split on blanks; quotes and shell characters are not "
			   "supported");
	return scenario_set_string(p, k, v);
}

/* K_MOUNT_OPTS: one mount -o argument, no whitespace (dev/fs.h). */
static int set_mount_options(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	if (bo_mount_options_problem(v))
		return bad(p, k, v, bo_mount_options_problem(v));
	return scenario_set_string(p, k, v);
}

/* K_BUILTIN: a builtin workload's name. */
static int set_builtin(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	if (!bo_builtin_find(v))
		return bad(p, k, v, "known builtins: " BO_BUILTIN_NAMES);
	return scenario_set_string(p, k, v);
}

/* A decimal number within the bounds of its kind, into *@ret: 1, or 0 with the parse
 * failed. */
static int number(struct scenario_parser *p, const struct scenario_key *k, const char *v,
		  uint64_t *ret)
{
	const struct kind *kd = kind_of(k);

	if (bo_parse_u64_in(v, kd->min, kd->max, ret) < 0)
		return bad(p, k, v, kd->expect);
	return 1;
}

/* K_U64, K_OPS, K_COUNT, K_LENGTH: a decimal number within the bounds of the kind. */
static int set_number(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	uint64_t n;

	if (!number(p, k, v, &n))
		return 0;
	*(uint64_t *) field_of(p, k) = n;
	return 1;
}

/* K_SECONDS: whole seconds, 1..MAX_TIMEOUT. */
static int set_seconds(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	uint64_t n;

	if (!number(p, k, v, &n))
		return 0;
	*(unsigned *) field_of(p, k) = (unsigned) n;
	return 1;
}

/* K_BOOL, K_ROOT, K_FSYNC: one of the two words of the kind, the second true. */
static int set_flag(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	const struct kind *kd = kind_of(k);

	if (strcmp(v, kd->yes) && strcmp(v, kd->no))
		return bad(p, k, v, kd->expect);
	*(bool *) field_of(p, k) = !strcmp(v, kd->yes);
	return 1;
}

/* K_RANKS: A-B or A, workload ranks of builtin bounded. */
static int set_ranks(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	uint64_t lo, hi;

	if (bo_parse_range(v, &lo, &hi) < 0)
		return bad(p, k, v, "expected workload ranks A-B, or one rank A");
	return scenario_set_string(p, k, v);
}

/* K_SAMPLE: I/N, the workload ranks of builtin bounded that are I modulo N. */
static int set_sample(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	const char *slash = strchr(v, '/');
	char i[24];
	uint64_t at, every;

	if (!slash || (size_t) (slash - v) >= sizeof(i))
		return bad(p, k, v, "expected I/N: the workloads whose rank is I modulo N");
	memcpy(i, v, (size_t) (slash - v));
	i[slash - v] = '\0';
	if (bo_parse_u64(i, &at) < 0 || bo_parse_u64(slash + 1, &every) < 0 || !every ||
	    at >= every)
		return bad(p, k, v,
			   "expected I/N with 0 <= I < N: the workloads whose rank is I modulo N");
	return scenario_set_string(p, k, v);
}

/* K_OP_IDS: op ids and ranges, 3,17,40-42. */
static int set_op_ids(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	/* The bounds depend on 'ops': checked once the section is complete. */
	if (bo_scenario_op_ids_check(v, UINT64_MAX) < 0)
		return bad(p, k, v, "expected op ids and ranges, e.g. 3,17,40-42");
	return scenario_set_string(p, k, v);
}

/* K_BUG: a planted bug of the builtin. */
static int set_bug(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	/* Which bugs exist depends on the builtin: checked once the section is complete. */
	if (!*v)
		return bad(p, k, v, "expected a bug name or 'none'");
	return scenario_set_string(p, k, v);
}

/* K_FAMILIES: all | none | op families of fsops, comma-separated. */
static int set_families(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	if (!bo_fsops_families_valid(v))
		return bad(p, k, v,
			   "expected all, none, or op families separated by "
			   "commas: " BO_FSOPS_FAMILIES);
	if (!strcmp(v, "none"))
		return 1;
	return scenario_set_string(p, k, v);
}

/* K_USER: a user name, on the host one of this machine. */
static int set_user(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	if (!*v || strlen(v) > 32 ||
	    v[strspn(v, "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")] ||
	    *v == '-')
		return bad(p, k, v, "a user name");
	if (p->o->host && !getpwnam(v))
		return bad(p, k, v, "no such user on this machine");
	return scenario_set_string(p, k, v);
}

/* K_PERSONA: a device persona (crashgen.h). */
static int set_persona(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	if (bo_persona_parse(v, field_of(p, k)) < 0)
		return bad(p, k, v, "expected a device persona: " BO_PERSONA_NAMES);
	return 1;
}

/* K_RECOVERY: auto | mount | fsck (dev/fs.h). */
static int set_recovery(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	if (bo_recovery_from_name(v, field_of(p, k)) < 0)
		return bad(p, k, v, "expected auto, mount or fsck");
	return 1;
}

/* K_PROMISES: auto | linux | posix (fsops). */
static int set_promises(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	enum bo_promises *field = field_of(p, k);

	if (!strcmp(v, "auto"))
		*field = BO_PROMISES_AUTO;
	else if (!strcmp(v, "linux"))
		*field = BO_PROMISES_LINUX;
	else if (!strcmp(v, "posix"))
		*field = BO_PROMISES_POSIX;
	else
		return bad(p, k, v, "expected auto, linux or posix");
	return 1;
}

/* K_CUTS, [check] cuts: a cut policy (cutsel.h). */
static int set_check_cuts(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	struct bo_err e = {0};

	if (bo_cutsel_validate(v, &e) < 0)
		return scenario_fail(p, EINVAL, "[%s] %s: %s", scenario_label(p, k->section),
				     k->name, bo_err_str(&e));
	return scenario_set_string(p, k, v);
}

/* K_CHECKER, [check] checker: none | a builtin | a command line. */
static int set_check_checker(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	struct bo_scenario *sc = p->sc;

	if (!strcmp(v, "none")) {
		sc->checker = BO_CHECKER_NONE;
		return 1;
	}
	if (!strpbrk(v, "/ \t")) {
		/* A bare word is a builtin; a command needs a path or arguments, so that a
		 * misspelt builtin is an error here rather than "command not found" in every
		 * crash state. */
		if (!bo_builtin_find(v))
			return bad(p, k, v,
				   "a bare word must be a builtin (" BO_BUILTIN_NAMES
				   ") or 'none'; a command needs a path, like ./check");
		sc->checker = BO_CHECKER_BUILTIN;
	} else {
		sc->checker = BO_CHECKER_COMMAND;
	}
	free(sc->checker_command);
	sc->checker_command = strdup(v);
	return sc->checker_command ? 1 : scenario_fail(p, ENOMEM, "out of memory");
}

/* K_KERNEL, [vm] kernel: a kernel release or its version prefix (blackout kernel list). */
static int set_vm_kernel(struct scenario_parser *p, const struct scenario_key *k, const char *v)
{
	if (p->sc->kernel_tree)
		return bad(p, k, v, "[vm] kernel_tree names a kernel already: one or the other");
	if (!bo_scenario_kernel_ok(v))
		return bad(p, k, v,
			   "a kernel release or its version prefix, such as 6.12 or "
			   "6.1.0-57-amd64 (blackout kernel list)");
	return scenario_set_string(p, k, v);
}

/* K_TREE, [vm] kernel_tree: a host directory by absolute path, a kernel build tree. */
static int set_vm_kernel_tree(struct scenario_parser *p, const struct scenario_key *k,
			      const char *v)
{
	/* Whether it is a built tree is the boot's to say (vm/ktree.h), with the reason. */
	if (v[0] != '/' || strpbrk(v, " \t"))
		return bad(p, k, v, "the absolute path of a kernel build tree");
	if (p->sc->kernel)
		return bad(p, k, v, "[vm] kernel names a cached kernel already: one or the other");
	return scenario_set_string(p, k, v);
}

static const struct kind kinds[] = {
	[K_NAME] = {.set = set_name},
	[K_TEXT] = {.set = scenario_set_string},
	[K_COMMAND] = {.set = set_command},
	[K_FS] = {.set = set_device_fs},
	[K_SIZE] = {.set = set_size},
	[K_SECTOR] = {.set = set_sector},
	[K_MKFS_OPTS] = {.set = set_mkfs_options},
	[K_MOUNT_OPTS] = {.set = set_mount_options},
	[K_BUILTIN] = {.set = set_builtin},
	[K_U64] = {.set = set_number,
		   .expect = "expected a decimal number below 2^64",
		   .min = 0,
		   .max = UINT64_MAX},
	[K_OPS] = {.set = set_number,
		   .expect = "expected a decimal number from 1 to 1000000",
		   .min = 1,
		   .max = 1000000},
	[K_BUG] = {.set = set_bug},
	[K_SECONDS] = {.set = set_seconds,
		       .expect = "expected whole seconds from 1 to 86400",
		       .min = 1,
		       .max = MAX_TIMEOUT},
	[K_CUTS] = {.set = set_check_cuts},
	[K_CHECKER] = {.set = set_check_checker},
	[K_BOOL] = {.set = set_flag, .expect = "expected yes or no", .no = "no", .yes = "yes"},
	[K_OP_IDS] = {.set = set_op_ids},
	[K_PATHS] = {.set = scenario_set_files},
	[K_ROOT] = {.set = set_flag,
		    .expect = "expected blackout (its own small root, with [vm] files) or host "
			      "(the host's "
			      "root, read-only)",
		    .no = "blackout",
		    .yes = "host"},
	[K_USER] = {.set = set_user},
	[K_SCRIPT] = {.set = scenario_set_script},
	[K_KERNEL] = {.set = set_vm_kernel},
	[K_TREE] = {.set = set_vm_kernel_tree},
	[K_PERSONA] = {.set = set_persona},
	[K_RECOVERY] = {.set = set_recovery},
	[K_COUNT] = {.set = set_number,
		     .expect = "expected a number from 0 to 1000",
		     .min = 0,
		     .max = 1000},
	[K_FSYNC] = {.set = set_flag,
		     .expect = "expected path (fsync F syncs the file, its directory and the root) "
			       "or inode "
			       "(fsync-file and fsync-dir, one inode each)",
		     .no = "path",
		     .yes = "inode"},
	[K_PROMISES] = {.set = set_promises},
	[K_FAMILIES] = {.set = set_families},
	[K_LENGTH] = {.set = set_number,
		      .expect = "expected the length of the bounded workloads, 1, 2 or 3",
		      .min = 1,
		      .max = 3},
	[K_RANKS] = {.set = set_ranks},
	[K_SAMPLE] = {.set = set_sample},
};

_Static_assert(BO_ARRAY_SIZE(kinds) == K_NKINDS, "the kind table reaches the last kind");

static const struct kind *kind_of(const struct scenario_key *k)
{
	return &kinds[k->kind];
}

int scenario_key_read(struct scenario_parser *p, const char *section, const char *key,
		      const char *value)
{
	for (size_t i = 0; i < BO_ARRAY_SIZE(keys); i++) {
		if (strcmp(keys[i].section, section) || strcmp(keys[i].name, key))
			continue;
		if (p->key_line[i] && !keys[i].repeat)
			return scenario_fail(p, EINVAL, "[%s] %s: given twice (first on line %d)",
					     scenario_label(p, section), key, p->key_line[i]);
		if (!p->key_line[i])
			p->key_line[i] = p->lineno;
		return kind_of(&keys[i])->set(p, &keys[i], value);
	}
	return scenario_fail(p, EINVAL, "[%s]: unknown key '%s'", section, key);
}

void scenario_keys_forget(struct scenario_parser *p, const char *section)
{
	for (size_t i = 0; i < BO_ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i].section, section))
			p->key_line[i] = 0;
}
