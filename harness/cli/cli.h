/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h — the blackout command line: one struct per command, each in a file of its own and
 * listed by main.c; the one place errors are printed; the class table of a results directory.
 */
#ifndef BO_CLI_H
#define BO_CLI_H

#include <json-c/json.h>

#include "harness/base/exit.h"
#include "harness/base/util.h"

struct bo_log;

struct bo_cmd {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the command's name; an exit status */
	const char *summary;		   /* NULL: internal, left out of the usage text */
};

/* The commands a user types, in the order of the usage text. */
extern const struct bo_cmd bo_cmd_run, bo_cmd_check, bo_cmd_merge, bo_cmd_report, bo_cmd_explain,
	bo_cmd_findings, bo_cmd_reproduce, bo_cmd_export, bo_cmd_shrink, bo_cmd_nightly,
	bo_cmd_inspect, bo_cmd_lint, bo_cmd_replay, bo_cmd_synth, bo_cmd_vm, bo_cmd_ctl,
	bo_cmd_cleanup, bo_cmd_cache, bo_cmd_kernel;

/* Internal: the guest sides of run, check, shrink and vm info, blackout as the guest's /init
 * and /sbin/modprobe, and the self-test of the dm layer. */
extern const struct bo_cmd bo_cmd_guest_run, bo_cmd_guest_check, bo_cmd_guest_shrink,
	bo_cmd_guest_vm_info, bo_cmd_init, bo_cmd_modprobe, bo_cmd_dmtest;

/* Print "blackout: error: ..." to stderr. */
void bo_cli_error(const char *fmt, ...) _printf_(1, 2);

/* Print "blackout: warning: ..." to stderr. */
void bo_cli_warning(const char *fmt, ...) _printf_(1, 2);

/* Print "blackout: ..." to stderr, something worth knowing but not a problem (booting a VM,
 * what a log was found to hold), unless -q. */
void bo_cli_note(const char *fmt, ...) _printf_(1, 2);

/*
 * Print the durability lint of @log (states/lint.h) as notes: the acks no FLUSH or FUA could
 * have made durable, the first few of them; @name is the log as the user knows it. check
 * and run say it before their states.
 */
void bo_cli_lint(const struct bo_log *log, const char *name);

/*
 * Open the log at @path for command @cmd as bo_log_open() does, warning where a salvage
 * (BO_LOG_OPEN_SALVAGE) stopped before the end of what was written: the entry, its offset
 * and why. The log or -errno with @err set.
 */
int bo_cli_log_open(const char *cmd, const char *path, unsigned flags, struct bo_log **ret,
		    struct bo_err *err);

/* -q, --quiet: no notes and no progress lines; errors and warnings still. */
extern bool bo_cli_quiet;

/* Print "blackout CMD: usage error: ...", a hint to --help, and return BO_EXIT_USAGE. */
int bo_cli_usage_error(const char *cmd, const char *fmt, ...) _printf_(2, 3);

/*
 * Write report.html and junit.xml of results directory @dir, print its class table (@what
 * names the run) and where its results are, and return the exit status its summary implies.
 */
int bo_cli_results(const char *dir, const char *what);

/*
 * Print what @fn writes to stdout, sanitized (harness/base/input.h): written to memory first,
 * then every control character and invalid UTF-8 byte in it shown as \x1b, newlines and tabs
 * kept. For text whose strings come from a results directory or a log (marks, fields, ids,
 * by-products): no terminal escape sequence reaches the terminal.
 */
void bo_cli_put_safe(void (*fn)(void *ctx), void *ctx);

/*
 * @s made one word of a line of text: every control character (newline and tab too) and
 * every byte of invalid UTF-8 shown as \x0a (bo_sanitize(@s, true)), so that an id or a name
 * from a stranger's file can neither move the cursor nor forge a line of its own ("next:").
 * The copy is the CLI's: made while bo_cli_put_safe() prints, it lives until that call
 * returns; made outside one, until the process ends. NULL for NULL, "?" without memory.
 */
const char *bo_cli_word(const char *s);

/* Print @o as pretty JSON in valid UTF-8 (json-c escapes control characters, not invalid
 * bytes: those become U+FFFD). */
void bo_cli_put_json(struct json_object *o);

#endif
