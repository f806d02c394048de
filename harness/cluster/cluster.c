// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cluster.c — the nodes of a cluster: survivor sets, the network of namespaces on a bridge,
 * and each node's daemon started and stopped (cluster.h).
 */
#include "harness/cluster/cluster.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/path.h"
#include "harness/base/macro.h"

/* The names this machine's network gets: the bridge, each node's namespace (a bind mount
 * under /run/netns, as ip-netns(8) makes them) and the bridge's end of each node's veth. */
#define BRIDGE	     "bo-br0"
#define NETNS_PREFIX "blackout-"
#define NETNS_DIR    "/run/netns/"

struct bo_cluster_run {
	const struct bo_cluster *c;
	struct bo_proc_bg *bg[BO_CLUSTER_MAX];
	struct bo_cluster_env env; /* of the nodes running (bo_cluster_start()): its strings are
				    * the caller's, alive until bo_cluster_stop() */
	bool bridge, ns[BO_CLUSTER_MAX];
};

/* How node @i runs a command line @cmd of its own (start or stop): in its namespace, its
 * directory, as the account, with BLACKOUT_NODE, BLACKOUT_NODE_ADDR and BLACKOUT_MNT besides
 * the caller's environment (its own last, so that it wins). The buffers are the caller's. */
struct node_cmd {
	char *argv[4];
	char ns[PATH_MAX], e_node[64], e_addr[48], e_mnt[PATH_MAX + 16];
	char **env;
	struct bo_proc_opts o;
};

static int node_cmd(struct bo_cluster_run *cr, unsigned i, char *cmd, struct node_cmd *nc)
{
	const struct bo_cluster_node *nd = &cr->c->v[i];
	const struct bo_cluster_env *e = &cr->env;
	size_t n = 0;

	while (e->env && e->env[n])
		n++;
	nc->env = calloc(n + 4, sizeof(*nc->env));
	if (!nc->env)
		return -ENOMEM;
	snprintf(nc->ns, sizeof(nc->ns), NETNS_DIR NETNS_PREFIX "%s", nd->name);
	snprintf(nc->e_node, sizeof(nc->e_node), "BLACKOUT_NODE=%s", nd->name);
	snprintf(nc->e_addr, sizeof(nc->e_addr), "BLACKOUT_NODE_ADDR=%s", nd->addr);
	snprintf(nc->e_mnt, sizeof(nc->e_mnt), "BLACKOUT_MNT=%s", e->cwd[i] ? e->cwd[i] : "/");
	if (n)
		memcpy(nc->env, e->env, n * sizeof(*nc->env));
	nc->env[n] = nc->e_node;
	nc->env[n + 1] = nc->e_addr;
	nc->env[n + 2] = nc->e_mnt;
	nc->argv[0] = "/bin/sh";
	nc->argv[1] = "-c";
	nc->argv[2] = cmd;
	nc->argv[3] = NULL;
	nc->o = (struct bo_proc_opts){.argv = nc->argv,
				      .env_add = nc->env,
				      .cwd = e->cwd[i],
				      .user = e->user,
				      .root = e->root,
				      .netns = nc->ns};
	return 0;
}

bool bo_cluster_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n < 1 || n > BO_CLUSTER_NAME_MAX || !islower((unsigned char) s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char) s[i]) && !isdigit((unsigned char) s[i]) && s[i] != '_')
			return false;
	return true;
}

static const char *const survivor_words[] = {"all", "quorum", "each"};

int bo_cluster_survivors_parse(const char *s, unsigned *ret)
{
	unsigned v = 0;

	while (*s) {
		size_t n = strcspn(s, " \t");
		size_t i;

		for (i = 0; i < BO_ARRAY_SIZE(survivor_words); i++)
			if (n == strlen(survivor_words[i]) && !strncmp(s, survivor_words[i], n))
				break;
		if (n && i == BO_ARRAY_SIZE(survivor_words))
			return -EINVAL;
		if (n)
			v |= 1u << i;
		s += n;
		s += strspn(s, " \t");
	}
	if (!v)
		return -EINVAL;
	*ret = v;
	return 0;
}

const char *bo_cluster_survivors_str(unsigned survivors, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < BO_ARRAY_SIZE(survivor_words); i++)
		if (survivors & (1u << i))
			at += (size_t) snprintf(buf + at, at < len ? len - at : 0, "%s%s",
						at ? " " : "", survivor_words[i]);
	return buf;
}

static bool have_set(const uint32_t *sets, size_t n, uint32_t set)
{
	for (size_t i = 0; i < n; i++)
		if (sets[i] == set)
			return true;
	return false;
}

uint32_t bo_cluster_all(const struct bo_cluster *c)
{
	return c->n >= 32 ? UINT32_MAX : (1u << c->n) - 1;
}

size_t bo_cluster_sets(const struct bo_cluster *c, uint32_t *sets)
{
	uint32_t all = bo_cluster_all(c);
	unsigned majority = c->n / 2 + 1;
	size_t n = 0;

	if (c->survivors & BO_SURVIVORS_ALL)
		sets[n++] = all;
	/* Every set of exactly a majority, in increasing order of the bits: the smallest sets
	 * a promise of a quorum covers (a larger one holds one of them). */
	if (c->survivors & BO_SURVIVORS_QUORUM)
		for (uint32_t s = 1; s <= all && n < BO_CLUSTER_SETS_MAX; s++)
			if ((unsigned) __builtin_popcount(s) == majority && !have_set(sets, n, s))
				sets[n++] = s;
	if (c->survivors & BO_SURVIVORS_EACH)
		for (unsigned i = 0; i < c->n && n < BO_CLUSTER_SETS_MAX; i++)
			if (!have_set(sets, n, 1u << i))
				sets[n++] = 1u << i;
	return n;
}

const char *bo_cluster_set_name(const struct bo_cluster *c, uint32_t set, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < c->n; i++)
		if (set & (1u << i))
			at += (size_t) snprintf(buf + at, at < len ? len - at : 0, "%s%s",
						at ? "+" : "", c->v[i].name);
	return buf;
}

int bo_cluster_set_parse(const struct bo_cluster *c, const char *name, uint32_t *ret)
{
	uint32_t set = 0;

	while (*name) {
		size_t n = strcspn(name, "+");
		unsigned i;

		for (i = 0; i < c->n; i++)
			if (strlen(c->v[i].name) == n && !strncmp(c->v[i].name, name, n))
				break;
		if (i == c->n || (set & (1u << i)))
			return -EINVAL;
		set |= 1u << i;
		name += n;
		if (*name == '+' && !*++name)
			return -EINVAL;
	}
	if (!set)
		return -EINVAL;
	*ret = set;
	return 0;
}

int bo_cluster_node_of(const struct bo_cluster *c, const char *dev)
{
	for (unsigned i = 0; i < c->n; i++)
		for (unsigned d = 0; d < c->v[i].ndev; d++)
			if (!strcmp(c->v[i].dev[d], dev))
				return (int) i;
	return -1;
}

void bo_cluster_client_addr(const struct bo_cluster *c, char *buf, size_t len)
{
	struct in_addr a = {0};

	if (c->n && inet_pton(AF_INET, c->v[0].addr, &a) == 1)
		a.s_addr = htonl((ntohl(a.s_addr) & 0xffffff00u) | 254u);
	snprintf(buf, len, "%s", inet_ntoa(a));
}

/* @name as an environment variable spells it: upper case. */
static void env_name(const char *name, char *out)
{
	size_t i;

	for (i = 0; name[i] && i < BO_CLUSTER_NAME_MAX; i++)
		out[i] = (char) toupper((unsigned char) name[i]);
	out[i] = '\0';
}

int bo_cluster_env_vars(const struct bo_cluster *c, char ***ret)
{
	char **v = calloc(c->n + 3, sizeof(*v));
	char names[BO_CLUSTER_SET_NAME_MAX] = "", client[16];
	size_t at = 0, n = 0;

	if (!v)
		return -ENOMEM;
	for (unsigned i = 0; i < c->n; i++) {
		char up[BO_CLUSTER_NAME_MAX + 1];

		at += (size_t) snprintf(names + at, sizeof(names) - at, "%s%s", i ? " " : "",
					c->v[i].name);
		env_name(c->v[i].name, up);
		if (asprintf(&v[n++], "BLACKOUT_NODE_%s_ADDR=%s", up, c->v[i].addr) < 0)
			goto fail;
	}
	bo_cluster_client_addr(c, client, sizeof(client));
	if (asprintf(&v[n++], "BLACKOUT_NODES=%s", names) < 0 ||
	    asprintf(&v[n++], "BLACKOUT_CLIENT_ADDR=%s", client) < 0)
		goto fail;
	*ret = v;
	return 0;
fail:
	v[n - 1] = NULL;
	bo_strv_free(v);
	return -ENOMEM;
}

/* Run ip(8) with @args (at most 15), its output kept for the error. */
static int ip(struct bo_err *err, const char *what, ...)
{
	char *argv[16] = {"ip"};
	struct bo_proc_opts o = {.argv = argv, .merge_stderr = true, .timeout_ms = 30000};
	struct bo_proc_result r = {0};
	va_list ap;
	size_t n = 1;
	int k;

	va_start(ap, what);
	while (n + 1 < BO_ARRAY_SIZE(argv) && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	k = bo_proc_run(&o, &r, err);
	if (k < 0)
		return bo_err_prefix(err, "the cluster's network: %s", what);
	if (r.end != BO_PROC_EXITED || r.status != 0) {
		char how[64];

		k = bo_err_set(err, EIO, "the cluster's network: %s: 'ip %s %s' %s: %.*s", what,
			       argv[1], argv[2] ? argv[2] : "",
			       bo_proc_describe(&r, &o, how, sizeof(how)),
			       (int) strcspn(r.out ? r.out : "", "\n"), r.out ? r.out : "");
	}
	bo_proc_result_clear(&r);
	return k;
}

/* The names of the nodes, after what /etc/hosts under @root (or /) holds already. */
static int write_hosts(const struct bo_cluster *c, const char *root, struct bo_err *err)
{
	char path[PATH_MAX];
	FILE *f;

	if (bo_pathf(path, sizeof(path), "%s/etc/hosts", root ? root : "") < 0)
		return bo_err_set(err, ENAMETOOLONG, "the root '%s' is too long", root);
	f = fopen(path, "ae");
	if (!f)
		return bo_err_set(err, errno, "the cluster's names: '%s': %s", path,
				  strerror(errno));
	fprintf(f, "127.0.0.1 localhost\n");
	for (unsigned i = 0; i < c->n; i++)
		fprintf(f, "%s %s\n", c->v[i].addr, c->v[i].name);
	if (fclose(f) != 0)
		return bo_err_set(err, EIO, "the cluster's names: writing '%s'", path);
	return 0;
}

int bo_cluster_up(const struct bo_cluster *c, const char *root, struct bo_cluster_run **ret,
		  struct bo_err *err)
{
	struct bo_cluster_run *cr = calloc(1, sizeof(*cr));
	char client[24];
	int k;

	if (!cr)
		return bo_err_set(err, ENOMEM, "the cluster's network");
	cr->c = c;
	bo_cluster_client_addr(c, client, sizeof(client) - 3);
	strcat(client, "/24");
	k = ip(err, "the bridge", "link", "add", BRIDGE, "type", "bridge", NULL);
	cr->bridge = k >= 0;
	if (k >= 0)
		k = ip(err, "the bridge", "addr", "add", client, "dev", BRIDGE, NULL);
	if (k >= 0)
		k = ip(err, "the bridge", "link", "set", BRIDGE, "up", NULL);
	for (unsigned i = 0; k >= 0 && i < c->n; i++) {
		const struct bo_cluster_node *nd = &c->v[i];
		char ns[64], veth[16], addr[24], what[64];

		snprintf(ns, sizeof(ns), NETNS_PREFIX "%s", nd->name);
		snprintf(veth, sizeof(veth), "bo-v%u", i);
		snprintf(addr, sizeof(addr), "%s/24", nd->addr);
		snprintf(what, sizeof(what), "node '%s'", nd->name);
		k = ip(err, what, "netns", "add", ns, NULL);
		cr->ns[i] = k >= 0;
		if (k >= 0)
			k = ip(err, what, "link", "add", veth, "type", "veth", "peer", "name",
			       "eth0", "netns", ns, NULL);
		if (k >= 0)
			k = ip(err, what, "link", "set", veth, "master", BRIDGE, "up", NULL);
		if (k >= 0)
			k = ip(err, what, "-n", ns, "addr", "add", addr, "dev", "eth0", NULL);
		if (k >= 0)
			k = ip(err, what, "-n", ns, "link", "set", "eth0", "up", NULL);
		if (k >= 0)
			k = ip(err, what, "-n", ns, "link", "set", "lo", "up", NULL);
	}
	if (k >= 0)
		k = write_hosts(c, NULL, err);
	if (k >= 0 && root)
		k = write_hosts(c, root, err);
	if (k < 0) {
		bo_cluster_down(cr);
		return k;
	}
	*ret = cr;
	return 0;
}

/* Start node @i's daemon, its output into its log (@append: after what it wrote before). */
static int start_node(struct bo_cluster_run *cr, unsigned i, bool append, struct bo_err *err)
{
	const struct bo_cluster_node *nd = &cr->c->v[i];
	struct node_cmd nc = {0};
	char log[PATH_MAX];
	int k;

	if (bo_pathf(log, sizeof(log), "%s/%s.log", cr->env.logdir, nd->name) < 0)
		return bo_err_set(err, ENAMETOOLONG, "node '%s': its log", nd->name);
	if (node_cmd(cr, i, nd->start, &nc) < 0)
		return bo_err_set(err, ENOMEM, "starting node '%s'", nd->name);
	nc.o.output_path = log;
	nc.o.output_append = append;
	nc.o.stop_signal = SIGTERM;
	k = bo_proc_start(&nc.o, &cr->bg[i], err);
	free(nc.env);
	return k < 0 ? bo_err_prefix(err, "starting node '%s'", nd->name) : 0;
}

int bo_cluster_start(struct bo_cluster_run *cr, uint32_t set, const struct bo_cluster_env *e,
		     struct bo_err *err)
{
	int k = 0;

	cr->env = *e;
	for (unsigned i = 0; k >= 0 && i < cr->c->n; i++)
		if (set & (1u << i))
			k = start_node(cr, i, false, err);
	if (k < 0) {
		_cleanup_free_ char *report = NULL;
		struct bo_err e2;

		(void) !bo_cluster_stop(cr, &report, &e2);
	}
	return k;
}

int bo_cluster_kill(struct bo_cluster_run *cr, unsigned i, char *report, size_t len,
		    struct bo_err *err)
{
	const char *name = cr->c->v[i].name;
	struct bo_proc_opts po = {0};
	struct bo_proc_result r = {0};
	bool ended;
	char how[96];
	int k;

	if (!cr->bg[i]) {
		snprintf(report, len, "%s: was not running", name);
		return 0;
	}
	ended = !bo_proc_alive(cr->bg[i]);
	k = bo_proc_stop(cr->bg[i], SIGKILL, 10000, &r, err);
	cr->bg[i] = NULL;
	if (k < 0)
		return bo_err_prefix(err, "node '%s': killing it", name);
	bo_proc_describe(&r, &po, how, sizeof(how));
	snprintf(report, len, "%s: %s%s%s%s", name, ended ? "had ended before its cut: " : "", how,
		 r.left_n ? ", with all it started: " : "", r.left_n && r.left ? r.left : "");
	bo_proc_result_clear(&r);
	return 0;
}

int bo_cluster_restart(struct bo_cluster_run *cr, unsigned i, struct bo_err *err)
{
	if (cr->bg[i])
		return bo_err_set(err, EBUSY, "node '%s': restarted while it runs",
				  cr->c->v[i].name);
	return start_node(cr, i, true, err);
}

int bo_cluster_freeze(struct bo_cluster_run *cr, unsigned i, struct bo_err *err)
{
	if (!cr->bg[i])
		return 0;
	return bo_proc_freeze(cr->bg[i], err) < 0
		       ? bo_err_prefix(err, "node '%s': stopping it", cr->c->v[i].name)
		       : 0;
}

bool bo_cluster_cuts_at(const struct bo_cluster_node *nd, const char *mark)
{
	for (size_t w = 0; nd->power_cut && nd->power_cut[w]; w++) {
		const char *pat = nd->power_cut[w];

		/* ack:* and issue:* are every ack and issue; any other word one mark. */
		if (!strcmp(pat, "ack:*") || !strcmp(pat, "issue:*")
			    ? !strncmp(pat, mark, strlen(pat) - 1)
			    : !strcmp(pat, mark))
			return true;
	}
	return false;
}

bool bo_cluster_is_cut_of(const char *mark, const char *node)
{
	size_t p = strlen(BO_NODE_CUT_PREFIX), n = strlen(node);

	return mark && !strncmp(mark, BO_NODE_CUT_PREFIX, p) && !strncmp(mark + p, node, n) &&
	       mark[p + n] == ':';
}

/* Stop node @i: its stop command, then SIGTERM unless that command did its work, and all of it
 * killed once stop_timeout has passed since the stop began; what it did into @f. */
static int stop_node(struct bo_cluster_run *cr, unsigned i, FILE *f, struct bo_err *err)
{
	const struct bo_cluster_node *nd = &cr->c->v[i];
	double until = bo_now() + cr->c->stop_timeout;
	bool ended = !bo_proc_alive(cr->bg[i]);
	struct bo_proc_opts po = {0};
	struct bo_proc_result r = {0};
	double left;
	char how[96];
	int k, sig = SIGTERM;

	if (!ended && nd->stop) {
		struct node_cmd nc = {0};

		if (node_cmd(cr, i, nd->stop, &nc) < 0) {
			fprintf(f, "%s: its stop command could not run: out of memory\n", nd->name);
		} else {
			nc.o.merge_stderr = true;
			nc.o.timeout_ms = cr->c->stop_timeout * 1000u;
			if (bo_proc_run(&nc.o, &r, err) < 0)
				fprintf(f, "%s: its stop command could not run: %s\n", nd->name,
					bo_err_str(err));
			else if (r.end != BO_PROC_EXITED || r.status)
				fprintf(f, "%s: its stop command %s\n", nd->name,
					bo_proc_describe(&r, &nc.o, how, sizeof(how)));
			else
				sig = 0; /* it asked the daemon to stop: now it is waited for */
			bo_proc_result_clear(&r);
			free(nc.env);
		}
	}
	left = until - bo_now();
	k = bo_proc_stop(cr->bg[i], ended ? 0 : sig, left > 0 ? (unsigned) (left * 1000) : 0, &r,
			 err);
	cr->bg[i] = NULL;
	if (k < 0)
		return k;
	bo_proc_describe(&r, &po, how, sizeof(how));
	if (r.end == BO_PROC_TIMEOUT)
		fprintf(f, "%s: did not stop within %u s: killed\n", nd->name, cr->c->stop_timeout);
	else
		fprintf(f, "%s: %s%s\n", nd->name, ended ? "had ended before the stop: " : "", how);
	if (r.left_n)
		fprintf(f, "%s: left %u processes, killed: %s\n", nd->name, r.left_n,
			r.left ? r.left : "?");
	bo_proc_result_clear(&r);
	return 0;
}

int bo_cluster_stop(struct bo_cluster_run *cr, char **report, struct bo_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r = 0;

	if (!f) {
		/* Ended all the same: nothing may outlive the stop. */
		for (unsigned i = 0; i < cr->c->n; i++)
			if (cr->bg[i]) {
				struct bo_proc_result pr = {0};
				struct bo_err e2;

				if (bo_proc_stop(cr->bg[i], SIGKILL, 10000, &pr, &e2) >= 0)
					bo_proc_result_clear(&pr);
				cr->bg[i] = NULL;
			}
		return bo_err_set(err, ENOMEM, "stopping the cluster");
	}
	/* In the reverse order of their start. */
	for (unsigned i = cr->c->n; i-- > 0;) {
		struct bo_err e2 = {0};

		if (cr->bg[i] && stop_node(cr, i, f, &e2) < 0 && r == 0)
			r = bo_err_set(err, e2.errnum, "%s", bo_err_str(&e2));
	}
	if (fclose(f) != 0) {
		free(buf);
		return r < 0 ? r : bo_err_set(err, ENOMEM, "stopping the cluster");
	}
	*report = buf;
	return r;
}

void bo_cluster_down(struct bo_cluster_run *cr)
{
	struct bo_err err = {0};

	if (!cr)
		return;
	for (unsigned i = 0; i < cr->c->n; i++)
		if (cr->bg[i]) {
			struct bo_proc_result r = {0};

			if (bo_proc_stop(cr->bg[i], SIGKILL, 10000, &r, &err) >= 0)
				bo_proc_result_clear(&r);
			cr->bg[i] = NULL;
		}
	for (unsigned i = 0; i < cr->c->n; i++)
		if (cr->ns[i]) {
			char ns[64];

			snprintf(ns, sizeof(ns), NETNS_PREFIX "%s", cr->c->v[i].name);
			(void) !ip(&err, "taking it down", "netns", "delete", ns, NULL);
		}
	if (cr->bridge)
		(void) !ip(&err, "taking it down", "link", "delete", BRIDGE, NULL);
	free(cr);
}
