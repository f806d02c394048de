/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shipped.h — what of this host a results directory would have blackout put into a VM
 * (docs/safety.md, "Inputs from strangers"). reproduce, shrink and a check of a results
 * directory's write.log re-make the VM of a run or a check from what its directory records,
 * and a results directory may be a stranger's: the host files it names — config.json's
 * "files" (what the run's --file and [vm] files shipped), its scenario's [vm] files and
 * scripts, the host paths its checker and workload command lines name, a check's recorded
 * --recovery-log — and the host's root ([vm] root = host) go into the VM only when the
 * command line names them again: each file with --file (a directory given covers what lies
 * beneath it), the root with --host-root; for check also as the files of the scenario it gives
 * and the host paths of its --checker (bo_shipped_drop()). Anything else is refused, listed with the options
 * that would ship it, before anything is made or booted.
 */
#ifndef BO_CLI_SHIPPED_H
#define BO_CLI_SHIPPED_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "harness/base/util.h"
#include "harness/cli/vmrun.h"
#include "harness/scenario/scenario.h"

struct bo_shipped {
	char **v; /* the host paths named, each once, in the order met */
	size_t n;
	bool host_root; /* the scenario shares the host's root ([vm] root = host) */
	bool oom;
};

/*
 * Every absolute path that the command line @cmd names and that exists on this host as a
 * regular file or a directory, into *@ret (NULL-terminated, bo_strv_free()): a checker or a
 * workload given as a host path runs in the guest at that same path, so the VM gets it.
 * 0, or -ENOMEM.
 */
_must_check_ int bo_cmd_host_files(const char *cmd, char ***ret);

/* Add the host path @path; the files config.json @cfg recorded ("files"); those scenario @sc
 * ships (its [vm] files and scripts) and its root; those command line @cmd names
 * (bo_cmd_host_files()). Out of memory is said by bo_shipped_judge(). */
void bo_shipped_add(struct bo_shipped *s, const char *path);
void bo_shipped_add_config(struct bo_shipped *s, struct json_object *cfg);
void bo_shipped_add_scenario(struct bo_shipped *s, const struct bo_scenario *sc);
void bo_shipped_add_command(struct bo_shipped *s, const char *cmd);

/*
 * Take out of @s what the command line ships of itself, named by @named (NULL-terminated, or
 * NULL): the files of a scenario it gives with --scenario, the host paths of a --checker it
 * gives. A check of a results directory's log with the scenario named again needs no --file
 * for that scenario's own files. Out of memory is said by bo_shipped_judge().
 */
void bo_shipped_drop(struct bo_shipped *s, char *const *named);
void bo_shipped_drop_command(struct bo_shipped *s, const char *cmd);

/*
 * Whether the command line (@v's --file list, and @host_root for --host-root) names all @s
 * holds: 0, or -EPERM with @err saying what the results directory @what names that it does
 * not, and the options that would ship it; -ENOMEM.
 */
_must_check_ int bo_shipped_judge(const struct bo_shipped *s, const struct vm_args *v,
				  bool host_root, const char *what, struct bo_err *err);

void bo_shipped_clear(struct bo_shipped *s);

#endif
