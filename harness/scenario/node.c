// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The [node NAME] sections of a scenario file: the nodes of a cluster (harness/cluster/
 * cluster.h, docs/clusters.md), each with its devices (of the [device NAME] sections), its
 * address and the start and stop lines of its daemon; and [check] survivors, through which
 * nodes a crash state's acknowledged writes are looked for. What one line says is judged on
 * its line; the nodes together (every device a node's, no address twice, a survivors value the
 * node count can have, a checker to ask the cluster) once the file is read.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/util.h"
#include "harness/scenario/faultplan.h"
#include "harness/scenario/scenario_int.h"

/* The default address of node @i: 10.88.0.<i + 1>. */
#define DEFAULT_NET "10.88.0."

/* Seconds a node is given to stop before it is killed. */
#define NODE_STOP_TIMEOUT 30

static struct bo_cluster *cluster(struct scenario_parser *p)
{
	struct bo_scenario *sc = p->sc;

	if (!sc->cluster) {
		sc->cluster = calloc(1, sizeof(*sc->cluster));
		if (!sc->cluster) {
			scenario_fail(p, ENOMEM, "out of memory");
			return NULL;
		}
		sc->cluster->survivors = BO_SURVIVORS_ALL;
		sc->cluster->stop_timeout = NODE_STOP_TIMEOUT;
	}
	return sc->cluster;
}

int scenario_node_begin(struct scenario_parser *p, const char *name)
{
	struct bo_cluster *c = cluster(p);
	struct bo_cluster_node *nd;

	p->node = -1;
	if (!c)
		return 0;
	if (!name)
		return scenario_fail(p, EINVAL, "[node]: a node has a name: [node NAME]");
	if (!bo_cluster_name_ok(name))
		return scenario_fail(p, EINVAL,
				     "[node %.40s]: a node's name is 1 to %d of a-z, 0-9 and _, "
				     "starting with a letter",
				     name, BO_CLUSTER_NAME_MAX);
	for (unsigned i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return scenario_fail(p, EINVAL,
					     "[node %s]: node '%s' is named twice (first on line "
					     "%d)",
					     name, name, c->v[i].line);
	if (c->n == BO_CLUSTER_MAX)
		return scenario_fail(p, EINVAL, "[node %s]: more than %d nodes", name,
				     BO_CLUSTER_MAX);
	nd = &c->v[c->n];
	snprintf(nd->name, sizeof(nd->name), "%s", name);
	snprintf(nd->addr, sizeof(nd->addr), DEFAULT_NET "%u", c->n + 1);
	nd->line = p->lineno;
	p->node = (int) c->n++;
	return 1;
}

/* An address a node may have: IPv4, dotted, neither the network's nor its broadcast nor the
 * client's (.0, .255, .254 of its /24). */
static bool node_addr_ok(const char *v)
{
	struct in_addr a;
	unsigned last;

	if (inet_pton(AF_INET, v, &a) != 1)
		return false;
	last = ntohl(a.s_addr) & 0xffu;
	return last != 0 && last < 254;
}

/*
 * "power-cut = WHEN...": the marks at which node @nd's power is cut during the run, each
 * ack:<opid>, issue:<opid>, mark:<name> (as [faults] triggers are written), or ack:* and
 * issue:* for every one.
 */
static int power_cut(struct scenario_parser *p, struct bo_cluster_node *nd, const char *label,
		     const char *value)
{
	char **words = bo_strv_split(value);
	char why[160];
	int r = 1;

	if (nd->power_cut) {
		bo_strv_free(words);
		return scenario_fail(p, EINVAL, "[%s] power-cut: given twice", label);
	}
	if (!words)
		return scenario_fail(p, ENOMEM, "out of memory");
	if (!words[0])
		r = scenario_fail(p, EINVAL,
				  "[%s] power-cut: which marks (ack:3, mark:NAME, ack:*)", label);
	/* Each word becomes the name of its mark, in place. */
	for (size_t w = 0; r > 0 && words[w]; w++) {
		char *name = NULL;
		int k = 0;

		if (strcmp(words[w], "ack:*") && strcmp(words[w], "issue:*"))
			k = bo_trigger_parse(words[w], &name, why, sizeof(why));
		if (k == -ENOMEM)
			r = scenario_fail(p, ENOMEM, "out of memory");
		else if (k < 0)
			r = scenario_fail(p, EINVAL,
					  "[%s] power-cut: '%.40s': %s (or ack:*, issue:*)", label,
					  words[w], why);
		else if (name) {
			free(words[w]);
			words[w] = name;
		}
	}
	if (r <= 0) {
		bo_strv_free(words);
		return r;
	}
	nd->power_cut = words;
	return 1;
}

int scenario_node_key(struct scenario_parser *p, const char *key, const char *value)
{
	struct bo_scenario *sc = p->sc;
	struct bo_cluster_node *nd;
	char label[BO_CLUSTER_NAME_MAX + 8];
	_cleanup_free_ char *path = NULL, *cmd = NULL;
	char **slot, **v;
	size_t n = 0;

	if (p->node < 0)
		return 0;
	nd = &sc->cluster->v[p->node];
	snprintf(label, sizeof(label), "node %s", nd->name);
	if (!strcmp(key, "devices")) {
		if (p->node_devices[p->node])
			return scenario_fail(p, EINVAL,
					     "[%s] devices: given twice (first on line %d)", label,
					     p->node_devices_line[p->node]);
		if (!(p->node_devices[p->node] = strdup(value)))
			return scenario_fail(p, ENOMEM, "out of memory");
		p->node_devices_line[p->node] = p->lineno;
		return 1;
	}
	if (!strcmp(key, "address")) {
		if (!node_addr_ok(value))
			return scenario_fail(p, EINVAL,
					     "[%s] address: bad value '%s' (an IPv4 address, not "
					     ".0, .254 or .255 of its /24)",
					     label, value);
		snprintf(nd->addr, sizeof(nd->addr), "%s", value);
		p->node_addr_line[p->node] = p->lineno;
		return 1;
	}
	if (!strcmp(key, "power-cut"))
		return power_cut(p, nd, label, value);
	if (strcmp(key, "start") && strcmp(key, "stop"))
		return scenario_fail(p, EINVAL,
				     "[%s]: unknown key '%s' (expected devices, address, start, "
				     "stop or power-cut)",
				     label, key);
	slot = !strcmp(key, "start") ? &nd->start : &nd->stop;
	if (*slot)
		return scenario_fail(p, EINVAL, "[%s] %s: given twice", label, key);
	if (scenario_script(p, label, key, value, &path, &cmd) <= 0)
		return 0;
	*slot = BO_TAKE_PTR(cmd);
	/* Each script shipped once, however many nodes run it. */
	for (; sc->node_scripts && sc->node_scripts[n]; n++)
		if (!strcmp(sc->node_scripts[n], path))
			return 1;
	v = reallocarray(sc->node_scripts, n + 2, sizeof(*v));
	if (!v)
		return scenario_fail(p, ENOMEM, "out of memory");
	sc->node_scripts = v;
	v[n] = BO_TAKE_PTR(path);
	v[n + 1] = NULL;
	return 1;
}

int scenario_node_survivors(struct scenario_parser *p, const char *value)
{
	struct bo_cluster *c;
	unsigned v;

	if (p->survivors_line)
		return scenario_fail(p, EINVAL, "[check] survivors: given twice (first on line %d)",
				     p->survivors_line);
	if (bo_cluster_survivors_parse(value, &v) < 0)
		return scenario_fail(p, EINVAL,
				     "[check] survivors: bad value '%s' (all, quorum, each, or "
				     "several of them)",
				     value);
	p->survivors_line = p->lineno;
	c = cluster(p);
	if (!c)
		return 0;
	c->survivors = v;
	return 1;
}

/* Node @i's devices: the names of its devices line, or the device named like it. */
static int node_devices(struct scenario_parser *p, unsigned i)
{
	struct bo_scenario *sc = p->sc;
	struct bo_cluster_node *nd = &sc->cluster->v[i];
	const char *line = p->node_devices[i] ? p->node_devices[i] : nd->name;
	int at = p->node_devices[i] ? p->node_devices_line[i] : nd->line;
	char **words = bo_strv_split(line);
	int r = 0;

	if (!words)
		return bo_err_set(p->err, ENOMEM, "out of memory");
	for (size_t w = 0; r == 0 && words[w]; w++) {
		size_t d;
		int other;

		for (d = 0; d < sc->ndevices; d++)
			if (!strcmp(sc->devices[d].name, words[w]))
				break;
		other = bo_cluster_node_of(sc->cluster, words[w]);
		if (d == sc->ndevices)
			r = scenario_fail_at(p, at,
					     "[node %s] devices: no [device %.40s] section%s",
					     nd->name, words[w],
					     p->node_devices[i] ? ""
								: " (a node's devices are those "
								  "its devices line names, or "
								  "the device named like it)");
		else if (other >= 0)
			r = scenario_fail_at(
				p, at,
				"[node %s] devices: device '%s' is node '%s''s already: "
				"a node's disks are its own",
				nd->name, words[w], sc->cluster->v[other].name);
		else if (nd->ndev == BO_CLUSTER_MAX)
			r = scenario_fail_at(p, at, "[node %s] devices: more than %d", nd->name,
					     BO_CLUSTER_MAX);
		else
			snprintf(nd->dev[nd->ndev++], sizeof(nd->dev[0]), "%s", words[w]);
	}
	bo_strv_free(words);
	if (r == 0 && !nd->ndev)
		r = scenario_fail_at(p, at, "[node %s] devices: a node has a device", nd->name);
	return r;
}

/* Whether node @nd has a filesystem: the directory its daemon works in. */
static bool node_has_fs(const struct bo_scenario *sc, const struct bo_cluster_node *nd)
{
	for (unsigned d = 0; d < nd->ndev; d++)
		for (size_t i = 0; i < sc->ndevices; i++)
			if (!strcmp(sc->devices[i].name, nd->dev[d]) && !sc->devices[i].raw)
				return true;
	return false;
}

int scenario_nodes_finish(struct scenario_parser *p)
{
	struct bo_scenario *sc = p->sc;
	struct bo_cluster *c = sc->cluster;
	struct in_addr net = {0};

	if (!c)
		return 0;
	if (!c->n)
		return scenario_fail_at(p, p->survivors_line,
					"[check] survivors: only for a cluster ([node NAME] "
					"sections)");
	if (!sc->ndevices)
		return scenario_fail_at(p, c->v[0].line,
					"[node %s]: a node's disks are [device NAME] sections",
					c->v[0].name);
	for (unsigned i = 0; i < c->n; i++) {
		struct bo_cluster_node *nd = &c->v[i];
		int at = p->node_addr_line[i] ? p->node_addr_line[i] : nd->line;
		struct in_addr a;

		if (node_devices(p, i) < 0)
			return -EINVAL;
		if (!node_has_fs(sc, nd))
			return scenario_fail_at(p, nd->line,
						"[node %s]: none of its devices has a filesystem, "
						"the directory its daemon works in",
						nd->name);
		if (!nd->start)
			return scenario_fail_at(
				p, nd->line,
				"[node %s] start: required (the script that runs its "
				"daemon in the foreground)",
				nd->name);
		(void) !inet_pton(AF_INET, nd->addr, &a);
		if (i == 0)
			net.s_addr = htonl(ntohl(a.s_addr) & 0xffffff00u);
		else if ((ntohl(a.s_addr) & 0xffffff00u) != ntohl(net.s_addr))
			return scenario_fail_at(p, at,
						"[node %s] address: %s is not in node '%s''s /24 "
						"(%s): the nodes share one network",
						nd->name, nd->addr, c->v[0].name, c->v[0].addr);
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(c->v[j].addr, nd->addr))
				return scenario_fail_at(p, at,
							"[node %s] address: %s is node '%s''s "
							"already",
							nd->name, nd->addr, c->v[j].name);
	}
	for (size_t d = 0; d < sc->ndevices; d++) {
		const char *dn = sc->devices[d].name;
		bool journal = false;

		/* An external journal, or a device a filesystem spans, goes with its
		 * filesystem's node. */
		for (size_t j = 0; j < sc->ndevices; j++) {
			bool spanned = sc->devices[j].spans & (1u << d);

			if (sc->devices[j].journal != (int) d && !spanned)
				continue;
			journal = true;
			if (bo_cluster_node_of(c, dn) < 0 ||
			    bo_cluster_node_of(c, dn) != bo_cluster_node_of(c, sc->devices[j].name))
				return scenario_fail_at(p,
							spanned ? sc->devices[j].spans_line
								: sc->devices[j].journal_line,
							"[device %s] %s: device '%s' is not on the "
							"same node as '%s'",
							sc->devices[j].name,
							spanned ? "spans" : "journal", dn,
							sc->devices[j].name);
		}
		if (!journal && bo_cluster_node_of(c, dn) < 0)
			return scenario_fail_at(p, sc->devices[d].line,
						"[device %s]: no node has it: in a cluster, every "
						"device is a node's (its devices line)",
						dn);
	}
	if ((c->survivors & BO_SURVIVORS_QUORUM) && c->n < 3)
		return scenario_fail_at(p, p->survivors_line,
					"[check] survivors: quorum of %u node%s is all of them: a "
					"majority short of the whole needs 3 nodes or more",
					c->n, c->n == 1 ? "" : "s");
	if ((c->survivors & BO_SURVIVORS_EACH) && c->n < 2)
		return scenario_fail_at(p, p->survivors_line,
					"[check] survivors: each of 1 node is all of them");
	if (sc->checker != BO_CHECKER_COMMAND)
		return scenario_invalid(p, "check", sc->checker_script ? "script" : "checker",
					"a cluster's checker asks its nodes: a script or command "
					"that names them (BLACKOUT_NODES), not %s",
					sc->checker == BO_CHECKER_NONE ? "none" : "a builtin");
	if (sc->builtin)
		return scenario_invalid(p, "workload", "builtin",
					"a cluster's workload is a client of its nodes: a script "
					"or command, not a builtin");
	return 0;
}

void scenario_nodes_free(struct bo_scenario *sc)
{
	if (sc->cluster)
		for (unsigned i = 0; i < sc->cluster->n; i++) {
			free(sc->cluster->v[i].start);
			free(sc->cluster->v[i].stop);
			bo_strv_free(sc->cluster->v[i].power_cut);
		}
	free(sc->cluster);
	bo_strv_free(sc->node_scripts);
	sc->cluster = NULL;
	sc->node_scripts = NULL;
}
