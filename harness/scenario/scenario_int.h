/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scenario_int.h — what the files of the scenario reader share: the parser of one file and
 * its messages (scenario.c: the lines of the file, and the defaults and cross-key checks once
 * it is read), the key table and its value parsers (keys.c), the device sections (device.c),
 * and the paths and scripts a scenario names (paths.c).
 */
#ifndef BO_SCENARIO_INT_H
#define BO_SCENARIO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/base/util.h"
#include "harness/log/layout.h"
#include "harness/scenario/scenario.h"

#define SCENARIO_NAME_MAX     64	    /* [scenario] name, and one made from a file's */
#define SCENARIO_DEV_SIZE_MAX (64ULL << 30) /* the device, or all devices together */
#define SCENARIO_NKEYS	      40	    /* the rows of the key table */

/* What a key's value is; keys.c says what each kind takes and reads it. */
enum scenario_kind {
	K_NAME,
	K_TEXT,
	K_COMMAND,
	K_FS,
	K_SIZE,
	K_SECTOR,
	K_MKFS_OPTS,
	K_MOUNT_OPTS,
	K_BUILTIN,
	K_U64,
	K_OPS,
	K_BUG,
	K_SECONDS,
	K_CUTS,
	K_CHECKER,
	K_BOOL,
	K_OP_IDS,
	K_PATHS,
	K_ROOT,
	K_USER,
	K_SCRIPT,
	K_KERNEL,
	K_TREE,
	K_PERSONA,
	K_RECOVERY,
	K_COUNT,
	K_FSYNC,
	K_PROMISES,
	K_FAMILIES,
	K_LENGTH,
	K_RANKS,
	K_SAMPLE,
	K_NKINDS /* the number of kinds */
};

/* A row of the key table: a key of a section, the kind of its value, its field. */
struct scenario_key {
	const char *section, *name;
	enum scenario_kind kind;
	size_t off;  /* of its field in struct bo_scenario */
	bool repeat; /* may be given on several lines */
};

/* The reading of one scenario file. */
struct scenario_parser {
	const char *origin;
	const struct bo_scenario_opts *o;
	int lineno;
	int key_line[SCENARIO_NKEYS];	 /* where each key of the table was given, or 0 */
	const struct scenario_key *keys; /* the table (keys.c), for the lines of its keys */
	size_t nkeys;
	bool failed;
	struct bo_err *err;
	struct bo_scenario *sc;
	/* The [device NAME] section being read: its keys go to the scenario's device fields as
	 * those of [device] do, and scenario_device_end() moves them to sc->devices at its end. */
	char dev_name[BO_LAYOUT_NAME_MAX + 1];	/* "" outside one */
	char dev_label[BO_LAYOUT_NAME_MAX + 8]; /* "device NAME", for messages */
	int dev_line;				/* its header's */
	bool dev_raw;				/* fs = raw */
	char *dev_journal;			/* journal = NAME */
	int journal_line;
	char *dev_spans; /* spans = NAME..., as written */
	int spans_line;
	bool unnamed_device; /* a [device] section was seen */
	/* The [node NAME] section being read (node.c), or -1; each node's devices line as
	 * written, judged once every device is known, and its line. */
	int node;
	char *node_devices[BO_CLUSTER_MAX];
	int node_devices_line[BO_CLUSTER_MAX];
	int node_addr_line[BO_CLUSTER_MAX]; /* its address line, or 0 */
	int survivors_line;		    /* [check] survivors, or 0 */
};

/* How @section reads in a message: "device NAME" in a named device section. */
static inline const char *scenario_label(const struct scenario_parser *p, const char *section)
{
	return p->dev_name[0] && !strcmp(section, "device") ? p->dev_label : section;
}

/* parser.c: the messages. Record the first error as "ORIGIN:LINE: ..." and stop the parse;
 * returns 0, what a value parser returns for a bad value. */
int scenario_fail(struct scenario_parser *p, int errnum, const char *fmt, ...) _printf_(3, 4);

/* An error about line @line, whatever line the parser is at: -EINVAL. */
int scenario_fail_at(struct scenario_parser *p, int line, const char *fmt, ...) _printf_(3, 4);

/* An error about key @name found on its line, or about the file when it is absent: -EINVAL. */
int scenario_invalid(struct scenario_parser *p, const char *section, const char *name,
		     const char *fmt, ...) _printf_(4, 5);

/* The line key @name of @section was given on, or 0. */
int scenario_key_line(const struct scenario_parser *p, const char *section, const char *name);

/* The field of key @k set to a copy of @value: 1, or 0 with the parse failed. */
int scenario_set_string(struct scenario_parser *p, const struct scenario_key *k, const char *value);

/* keys.c: the key table (p->keys of every parse), and key line @key = @value of @section, the
 * current line, read by the parser of its kind. 1, or 0 with the parse failed (an unknown key,
 * one given twice, a bad value). */
extern const struct scenario_key *const scenario_keys;
extern const size_t scenario_keys_n;
int scenario_key_read(struct scenario_parser *p, const char *section, const char *key,
		      const char *value);

/* Forget that the keys of @section were given: a [device NAME] section ended. */
void scenario_keys_forget(struct scenario_parser *p, const char *section);

/* device.c: the device sections. The smallest device mkfs of @fs accepts. */
uint64_t scenario_fs_min_size(enum bo_fs fs);

/* A [device] (@name NULL) or [device NAME] section begins at the current line. */
void scenario_device_begin(struct scenario_parser *p, const char *name);

/* [device NAME] journal = @value, the current line. */
void scenario_device_journal(struct scenario_parser *p, const char *value);

/* [device NAME] spans = @value, the current line. */
void scenario_device_spans(struct scenario_parser *p, const char *value);

/* The [device NAME] section being read ends: 0, or -errno with the parse failed. */
int scenario_device_end(struct scenario_parser *p);

/* After the last [device NAME] section: the devices together. 0 or -errno. */
int scenario_devices_finish(struct scenario_parser *p);

/* paths.c: the value parsers of [vm] files and of the scripts (a row of kind K_PATHS or
 * K_SCRIPT): 1, or 0 with the parse failed. */
int scenario_set_files(struct scenario_parser *p, const struct scenario_key *k, const char *v);
int scenario_set_script(struct scenario_parser *p, const struct scenario_key *k, const char *v);

/* A script line FILE [ARGS] of @key in [@label]: its file resolved into *@path, the command
 * line into *@cmd (malloc'd). 1, or 0 with the parse failed. */
int scenario_script(struct scenario_parser *p, const char *label, const char *key, const char *v,
		    char **path, char **cmd);

/* node.c: a [node NAME] section begins at the current line; a key of it; [check] survivors;
 * and, once the file is read, the nodes together with the devices and the checker. 1 (or 0)
 * or 0 (-errno) with the parse failed. */
int scenario_node_begin(struct scenario_parser *p, const char *name);
int scenario_node_key(struct scenario_parser *p, const char *key, const char *value);
int scenario_node_survivors(struct scenario_parser *p, const char *value);
int scenario_nodes_finish(struct scenario_parser *p);
void scenario_nodes_free(struct bo_scenario *sc);

/* On the host, once the file is read: the scenario's user can run its scripts. 0 or -errno. */
int scenario_user_reaches_scripts(struct scenario_parser *p);

/* The directory of @origin, absolute (relative paths in the file are relative to it). */
char *scenario_origin_dir(const char *origin);

#endif
