/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain_nodes.h — which node of a cluster did what for an acknowledgement (docs/clusters.md):
 * for each op a state lost (`blackout explain`), which nodes flushed their disks between its
 * issue and its acknowledgement, which did not, and whose power was cut after it; for a run
 * (the lint, per node), how many acknowledgements each node flushed for.
 */
#ifndef BO_EXPLAIN_NODES_H
#define BO_EXPLAIN_NODES_H

#include <stdint.h>

struct bo_cluster;
struct bo_log;
struct json_object;

/*
 * What the nodes of @c did around one op of @log issued at entry @issue and acknowledged at
 * @ack, up to the state's cut @cut: {"flushed": [names], "not_flushed": [names], "power_cut":
 * ["n1 at entry 132", ...]}, or NULL when the log is not carved into several devices.
 */
struct json_object *bo_explain_op_nodes(const struct bo_log *log, const struct bo_cluster *c,
					uint64_t issue, uint64_t ack, uint64_t cut);

/* The lines of one op's "nodes" (bo_explain_op_nodes()), each string from the directory one
 * word of its line. */
void bo_explain_print_op_nodes(struct json_object *nodes);

/*
 * The lint per node, for `run` and `check` beside bo_cli_lint(): a line per node of @c, "lint:
 * node n3: a flush of its disks between issue and ack for 0 of 4 acks". Nothing when @log is
 * not carved into several devices or has no paired acks.
 */
void bo_cli_lint_nodes(const struct bo_log *log, const struct bo_cluster *c);

#endif
