/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cluster.h — the nodes of a replicated system in one guest (docs/clusters.md): what a
 * scenario's [node NAME] sections say (struct bo_cluster), which nodes a crash state is
 * recovered through (the survivor sets), and the nodes running: each in a network namespace of
 * its own on one bridge, at its own address, its daemon started by the node's start command
 * and ended by its stop command or SIGTERM, in a cgroup of its own, so that nothing a node
 * started outlives its stop.
 *
 * The devices of every node are recorded through the one write log of the run, so that a cut
 * is one instant for the whole cluster while each device keeps its own flush epochs
 * (docs/crash-states.md, "Several devices"): the correlated power cut.
 */
#ifndef BO_CLUSTER_H
#define BO_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/proc.h"
#include "harness/base/util.h"

/* Nodes in a cluster (each has a device of the log's at most 8). */
#define BO_CLUSTER_MAX	    8
#define BO_CLUSTER_NAME_MAX 16
/* Survivor sets of a check: all, every majority (at most C(8,5) = 56) and each node. */
#define BO_CLUSTER_SETS_MAX 72
/* "n1+n2+..." of every node's name. */
#define BO_CLUSTER_SET_NAME_MAX (BO_CLUSTER_MAX * (BO_CLUSTER_NAME_MAX + 1))

/* Through which nodes a crash state's acknowledged writes are looked for (a bit each). */
enum {
	BO_SURVIVORS_ALL = 1u << 0,    /* every node restarted */
	BO_SURVIVORS_QUORUM = 1u << 1, /* each majority alone: the others' disks lost */
	BO_SURVIVORS_EACH = 1u << 2,   /* each node alone */
};

struct bo_cluster_node {
	char name[BO_CLUSTER_NAME_MAX + 1];
	char addr[16]; /* IPv4, dotted; every node's in one /24 */
	char *start;   /* the command line that runs its daemon, in the foreground */
	char *stop;    /* a command line that stops it, or NULL: SIGTERM */
	unsigned ndev; /* its devices, by the names of [device NAME] */
	char dev[BO_CLUSTER_MAX][BO_CLUSTER_NAME_MAX + 1];
	/* The marks at which its power is cut during the run (one node at a time), each a
	 * mark's name or a prefix of names ending in '*' ("ack:*"); NULL: none. */
	char **power_cut;
	int line; /* of its section */
};

struct bo_cluster {
	struct bo_cluster_node v[BO_CLUSTER_MAX];
	unsigned n;
	unsigned survivors;    /* BO_SURVIVORS_* */
	unsigned stop_timeout; /* seconds a node is given to stop */
};

/* Whether @s is a node's name: 1 to 16 of a-z 0-9 _, starting with a letter. */
bool bo_cluster_name_ok(const char *s);

/* Parse "all", "quorum", "each" or a blank-separated list of them into *@ret; -EINVAL. */
_must_check_ int bo_cluster_survivors_parse(const char *s, unsigned *ret);
/* @survivors in words: "all quorum" (into @buf). */
const char *bo_cluster_survivors_str(unsigned survivors, char *buf, size_t len);

/*
 * The survivor sets of @c (bit i: node i), into @sets (at most BO_CLUSTER_SETS_MAX): all nodes
 * first, then every set of floor(n/2)+1 nodes, then each node alone, as @c->survivors asks,
 * none twice (a one-node cluster has one). Returns how many.
 */
size_t bo_cluster_sets(const struct bo_cluster *c, uint32_t *sets);
/* The set of all of @c's nodes. */
uint32_t bo_cluster_all(const struct bo_cluster *c);
/* Set @set by its nodes' names, "n1+n3", into @buf. */
const char *bo_cluster_set_name(const struct bo_cluster *c, uint32_t set, char *buf, size_t len);
/* The set named @name ("n1+n3"): 0, or -EINVAL when a name is none of @c's. */
_must_check_ int bo_cluster_set_parse(const struct bo_cluster *c, const char *name, uint32_t *ret);
/* The node owning device @dev, or -1. */
int bo_cluster_node_of(const struct bo_cluster *c, const char *dev);

/* The address the harness's own commands (workload, checker) have on the bridge: .254 of
 * the nodes' /24, into @buf. */
void bo_cluster_client_addr(const struct bo_cluster *c, char *buf, size_t len);

/*
 * What every command of a cluster run is told of it (the workload, the checker, the nodes):
 * BLACKOUT_NODES ("n1 n2 n3"), BLACKOUT_NODE_<NAME>_ADDR for each (NAME upper case) and
 * BLACKOUT_CLIENT_ADDR; NULL-terminated KEY=VALUE strings in *@ret (bo_strv_free() it).
 */
_must_check_ int bo_cluster_env_vars(const struct bo_cluster *c, char ***ret);

/* How a node runs: its working directory and environment, what the caller's commands have. */
struct bo_cluster_env {
	const char *cwd[BO_CLUSTER_MAX]; /* each node's: its first filesystem's mount */
	char *const *env;		 /* KEY=VALUE for every node, NULL-terminated */
	const struct bo_proc_user *user; /* the account nodes run as, or NULL */
	const char *root;		 /* the root they run in, or NULL */
	const char *logdir;		 /* each node's output into LOGDIR/NAME.log */
};

struct bo_cluster_run;

/*
 * The cluster's network in this machine: a bridge, and per node a network namespace with a
 * veth on the bridge at its address and loopback up; the names of the nodes in /etc/hosts
 * (under @root too when given), so that nodes reach each other by name. Made with ip(8) from
 * iproute2. The harness's own commands stay in this namespace, at the client address.
 */
_must_check_ int bo_cluster_up(const struct bo_cluster *c, const char *root,
			       struct bo_cluster_run **ret, struct bo_err *err);

/*
 * Start the nodes of @set, each as @e says, in the order of the scenario, with BLACKOUT_NODE
 * (its name), BLACKOUT_NODE_ADDR and BLACKOUT_MNT (its working directory) besides @e->env.
 * Nothing waits for a daemon to be ready: the caller's command asks the cluster, as a client
 * would. -errno when one could not be started (those started are stopped).
 */
_must_check_ int bo_cluster_start(struct bo_cluster_run *cr, uint32_t set,
				  const struct bo_cluster_env *e, struct bo_err *err);

/*
 * Stop the nodes running: each by its stop command, or SIGTERM, then killed with all it
 * started after stop_timeout. What each did, a line per node ("n1: exited with status 0",
 * "n2: had ended before the stop: exited with status 1"), into *@report (malloc'd). -EINTR
 * on a stop request, after every node is ended.
 */
_must_check_ int bo_cluster_stop(struct bo_cluster_run *cr, char **report, struct bo_err *err);

/*
 * One node at a time (docs/clusters.md): kill node @i's daemon with all it started at once,
 * as its power cut does (no stop command, no SIGTERM); what it was into @report, a line.
 * bo_cluster_restart() starts it again as bo_cluster_start() did, its log appended to.
 */
_must_check_ int bo_cluster_kill(struct bo_cluster_run *cr, unsigned i, char *report, size_t len,
				 struct bo_err *err);
/* Node @i's processes stopped where they stand (bo_proc_freeze()): nothing of it runs on after
 * its power cut. Nothing to do for a node not running. */
_must_check_ int bo_cluster_freeze(struct bo_cluster_run *cr, unsigned i, struct bo_err *err);
_must_check_ int bo_cluster_restart(struct bo_cluster_run *cr, unsigned i, struct bo_err *err);
/* The prefix of the mark a node's power cut leaves in the log: "node-cut:NODE:TRIGGER". */
#define BO_NODE_CUT_PREFIX "node-cut:"

/* Whether node @nd's power is cut at the mark @mark (its power-cut line). */
bool bo_cluster_cuts_at(const struct bo_cluster_node *nd, const char *mark);
/* Whether the mark @mark is the one a power cut of the node named @node left in the log. */
bool bo_cluster_is_cut_of(const char *mark, const char *node);

/* Stop what runs (killed), and take the network down. NULL is fine. */
void bo_cluster_down(struct bo_cluster_run *cr);

#endif
