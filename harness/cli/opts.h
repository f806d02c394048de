/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opts.h — a command's options as one table: every command parses its command line with its
 * table (bo_opts_parse(), the one caller of getopt_long) and prints its option lines in --help
 * from it. A command that runs in a VM reads the same table on both sides: the host parses
 * what the user typed with it, passes the options the guest takes on as they are, records them
 * in config.json; the guest parses its command line with the same table. An option is added
 * once, in the table, and reaches every place.
 */
#ifndef BO_CLI_OPTS_H
#define BO_CLI_OPTS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "harness/base/macro.h"

/* Who takes an option. */
enum {
	BO_OPT_HOST = 1u << 0,	/* the user, on `blackout CMD` */
	BO_OPT_GUEST = 1u << 1, /* the guest side; with BO_OPT_HOST: passed on as given */
	BO_OPT_BOTH = BO_OPT_HOST | BO_OPT_GUEST,
	BO_OPT_LIST = 1u << 2, /* repeatable: every value is kept, in a struct bo_opt_list */
	/* To bo_opts_parse(), not a row's: the options end at the first operand, and what
	 * follows is the operand's own (`blackout vm run -- CMD ARGS`, `blackout ctl mark
	 * NAME`). Without it, options and operands may come in any order. */
	BO_OPT_STOP = 1u << 3,
};

/* The values of a repeatable option, in order (pointing into argv or config.json). */
struct bo_opt_list {
	const char **v; /* NULL-terminated once it has one */
	size_t n;
};

struct bo_opt {
	const char *name; /* --name */
	const char *arg;  /* the argument's name in the help; NULL: a flag */
	size_t off;	  /* of its const char * (a flag: its bool; a list: its struct
			   * bo_opt_list) in the arguments struct */
	unsigned who;	  /* BO_OPT_HOST, BO_OPT_GUEST or both, and BO_OPT_LIST */
	const char *key;  /* its key in config.json, or NULL */
	/* What the value must be, 0 or a description of the problem; NULL: anything. */
	const char *(*check)(const char *val);
	/* NULL: no line in the help (internal, for scripts/bench, or told of in the text) */
	const char *help;
};

/* Add @val to @l; -ENOMEM. */
_must_check_ int bo_opt_list_add(struct bo_opt_list *l, const char *val);
void bo_opt_list_clear(struct bo_opt_list *l);

/* A table and the struct its offsets point into. */
struct bo_opt_set {
	const struct bo_opt *v;
	size_t n;
	void *args;
};

/*
 * Parse @argv of command @cmd with the options of @sets (@nsets of them) that @who takes, plus
 * --help (-h); with BO_OPT_STOP in @who, up to the first operand. Every command parses its
 * options here. Returns optind (>= 1) when the options were read, 0 when --help was asked for
 * (@help printed it), or -BO_EXIT_USAGE after printing the usage error.
 */
_must_check_ int bo_opts_parse(const char *cmd, const struct bo_opt_set *sets, size_t nsets,
			       unsigned who, void (*help)(void), int argc, char **argv);

/* The option lines of @t that the user sees, for --help. */
void bo_opts_help(FILE *f, const struct bo_opt *t, size_t n);

/* A command line being built: a NULL-terminated array of copies. */
struct bo_argv {
	char **v;
	size_t n, cap;
	bool oom; /* an add failed: the line is incomplete */
};

void bo_argv_add(struct bo_argv *a, const char *s);
void bo_argv_addf(struct bo_argv *a, const char *fmt, ...) _printf_(2, 3);
void bo_argv_free(struct bo_argv *a);

/* Add the options of @args that both sides take, as they were given, to @a. */
void bo_opts_pass(const struct bo_opt *t, size_t n, const void *args, struct bo_argv *a);

/* The options of @args that have a config.json key, into @o (null where not given). */
void bo_opts_to_config(const struct bo_opt *t, size_t n, const void *args, struct json_object *o);

/* The options recorded in @o (config.json) back into @args: strings stay owned by @o. */
void bo_opts_from_config(const struct bo_opt *t, size_t n, struct json_object *o, void *args);

/* Checks for bo_opt.check. */
const char *bo_opt_check_u64(const char *val);
/* --jobs N of check and run: how many VMs at once, 1 to 64. */
const char *bo_opt_check_jobs(const char *val);

#endif
