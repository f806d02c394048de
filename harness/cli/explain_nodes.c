// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain_nodes.c — which node of a cluster lost what (explain_nodes.h): an op acknowledged
 * while no flush of a node's disks lay between its issue and its acknowledgement rests, on that
 * node, on its cache; a node whose power was cut after the acknowledgement lost that cache.
 */
#include "harness/cli/explain_nodes.h"

#include <inttypes.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "harness/cluster/cluster.h"
#include "harness/log/layout.h"
#include "harness/log/log.h"
#include "harness/states/oracle.h"

/* Whether log entry @e is a flush of one of node @nd's devices (a flush names its device by its
 * sector; an external journal, or a device a filesystem spans, goes with its filesystem). */
static bool node_flush(const struct bo_log *log, const struct bo_cluster_node *nd, uint64_t e)
{
	const struct bo_log_entry *le = bo_log_entry(log, e);
	const struct bo_layout *l = bo_log_layout(log);
	int d;

	if (!(le->flags & BO_LOG_FLUSH) || (le->flags & BO_LOG_MARK))
		return false;
	d = bo_layout_device(l, bo_log_sectorsize(log), le->sector);
	/* A flush at no device's sector (a kernel that leaves empty flushes at sector 0) is every
	 * device's, as it closes every device's epoch (docs/crash-states.md). */
	if (d < 0)
		return true;
	for (unsigned k = 0; k < nd->ndev; k++) {
		int own = bo_layout_find(l, nd->dev[k]);

		if (own == d || (own >= 0 && bo_layout_owner(l, (unsigned) d) == own))
			return true;
	}
	return false;
}

struct json_object *bo_explain_op_nodes(const struct bo_log *log, const struct bo_cluster *c,
					uint64_t issue, uint64_t ack, uint64_t cut)
{
	struct json_object *o, *fl, *no, *pc;
	uint64_t n = bo_log_count(log);

	if (!c || bo_log_layout(log)->n < 2 || issue > ack || ack >= n)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "flushed", fl = json_object_new_array());
	json_object_object_add(o, "not_flushed", no = json_object_new_array());
	json_object_object_add(o, "power_cut", pc = json_object_new_array());
	for (unsigned i = 0; i < c->n; i++) {
		const struct bo_cluster_node *nd = &c->v[i];
		bool flushed = false;

		for (uint64_t e = issue + 1; e < ack && !flushed; e++)
			flushed = node_flush(log, nd, e);
		json_object_array_add(flushed ? fl : no, json_object_new_string(nd->name));
		for (uint64_t e = ack + 1; e < cut && e < n; e++) {
			const char *m = bo_log_mark_name(log, e);
			char at[64];

			if (bo_cluster_is_cut_of(m, nd->name)) {
				snprintf(at, sizeof(at), "%s at entry %" PRIu64, nd->name, e);
				json_object_array_add(pc, json_object_new_string(at));
			}
		}
	}
	return o;
}

/* The names of @a joined by ", ", each one word. */
static void print_names(struct json_object *a)
{
	for (size_t i = 0; i < json_object_array_length(a); i++)
		printf("%s%s", i ? ", " : "",
		       bo_cli_word(json_object_get_string(json_object_array_get_idx(a, i))));
}

void bo_explain_print_op_nodes(struct json_object *nodes)
{
	struct json_object *fl, *no, *pc;

	if (!json_object_object_get_ex(nodes, "flushed", &fl) ||
	    !json_object_object_get_ex(nodes, "not_flushed", &no) ||
	    !json_object_object_get_ex(nodes, "power_cut", &pc))
		return;
	printf("\n      nodes that flushed between its issue and ack: ");
	if (json_object_array_length(fl))
		print_names(fl);
	else
		printf("none: the ack rested on no node's disk");
	if (json_object_array_length(no)) {
		printf("; not: ");
		print_names(no);
	}
	if (json_object_array_length(pc)) {
		printf("\n      power cut after its ack: ");
		print_names(pc);
	}
}

void bo_cli_lint_nodes(const struct bo_log *log, const struct bo_cluster *c)
{
	struct bo_ops ops = {0};
	struct bo_err err = {0};
	uint64_t flushed[BO_CLUSTER_MAX] = {0}, acks = 0;

	if (!c || bo_log_layout(log)->n < 2 || bo_ops_from_log(log, &ops, &err) < 0)
		return;
	for (size_t k = 0; k < ops.n; k++) {
		const struct bo_op *op = &ops.v[k];

		if (op->issue_entry == BO_NO_ENTRY || op->ack_entry == BO_NO_ENTRY ||
		    op->issue_entry > op->ack_entry)
			continue;
		acks++;
		for (unsigned i = 0; i < c->n; i++)
			for (uint64_t e = op->issue_entry + 1; e < op->ack_entry; e++)
				if (node_flush(log, &c->v[i], e)) {
					flushed[i]++;
					break;
				}
	}
	for (unsigned i = 0; acks && i < c->n; i++)
		bo_cli_note("lint: node %s: a flush of its disks between issue and ack for %" PRIu64
			    " of %" PRIu64 " %s",
			    c->v[i].name, flushed[i], acks, BO_PLURAL(acks, "ack", "acks"));
	bo_ops_clear(&ops);
}
