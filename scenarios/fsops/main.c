// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout-fsops — the builtin fsops workload, its checker, and a listing of its ops.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/blackout-ids.h"
#include "scenarios/fsops/fsops.h"

static void help(void)
{
	puts("usage: blackout-fsops [run]   [--seed N] [--ops N] [--fsync=M] [--families=F]\n"
	     "                              [--no-links] [--keep IDS] [--bug=BUG]\n"
	     "       blackout-fsops check   [--seed N] [--ops N] [--fsync=M] [--families=F]\n"
	     "                              [--no-links] [--keep IDS] [--promises=P] [--bug=BUG]\n"
	     "       blackout-fsops list    [--seed N] [--ops N] [--fsync=M] [--families=F]\n"
	     "                              [--no-links] [--keep IDS]\n"
	     "       blackout-fsops [run | check | list] --bounded L [--workloads A-B]\n"
	     "                              [--sample I/N] [--fresh] [--seed N]\n"
	     "       blackout-fsops repro   --upto N [the options of run] [--promises=P]\n"
	     "       blackout-fsops fstests --upto N [the options of run] [--promises=P]\n"
	     "       blackout-fsops count   --bounded L\n\n"
	     "run    perform a seeded random sequence of file and directory operations in the\n"
	     "       current (empty) directory, announcing each through $BLACKOUT_CTL: 'issue'\n"
	     "       before it starts, 'ack' once a fsync, fdatasync or syncfs returned.\n"
	     "check  the checker for a crash state of that run: look at the tree in\n"
	     "       $BLACKOUT_MNT (or the current directory), given the op ids listed in the\n"
	     "       files $BLACKOUT_ISSUED and $BLACKOUT_ACKED; print 'present <id>' for every\n"
	     "       op whose effect is there, then 'done'.\n"
	     "list   print the op sequence.\n"
	     "repro  print a C program of the ops up to acknowledged op N as plain system\n"
	     "       calls, which checks what op N promised (blackout export's repro.c).\n"
	     "fstests  print the same as a test in fstests' form (blackout export's fstests/).\n"
	     "count  print how many workloads the bounded space of length L has (those the\n"
	     "       filesystem of --families and --no-links can perform).\n\n"
	     "  --seed N    seed of the sequence (default 1)\n"
	     "  --ops N     number of operations, 1..1000000 (default 200)\n"
	     "  --fsync=M   what the fsync ops sync: path (default: 'fsync F' syncs the file,\n"
	     "              its directory and the root) or inode ('fsync-file F' and\n"
	     "              'fsync-dir D', one inode each); part of the sequence, like the seed\n"
	     "  --families=F  op families drawn beside the base ops, comma-separated, or all\n"
	     "              or none (default): " FSOPS_FAMILY_NAMES "\n"
	     "              (docs/checkers.md lists their ops); part of the sequence. With\n"
	     "              --bounded: the families the filesystem has (default all); the\n"
	     "              workloads needing another are left out, their ranks kept\n"
	     "  --no-links  draw no link op: a filesystem without hard links (vfat, exfat);\n"
	     "              part of the sequence. With --bounded: no workload with a link\n"
	     "  --promises=P  check: what fsync of one inode is held to promise: linux (default;\n"
	     "              what ext4, xfs and btrfs promise: a file's names too) or posix\n"
	     "              (its data and size only)\n"
	     "  --bounded L  instead of the seeded sequence, the workloads of the bounded space\n"
	     "              of length L (1..3): every sequence of L core ops over a tiny "
	     "namespace,\n"
	     "              each followed by a persistence op, each workload in a directory\n"
	     "              w<rank> of its own (w with --fresh), named seqL-<rank> (list\n"
	     "              shows them)\n"
	     "  --workloads A-B  with --bounded: only the workloads ranked A to B (A-: from A\n"
	     "              on; A: just A)\n"
	     "  --sample I/N  with --bounded: only the workloads whose rank is I modulo N (of\n"
	     "              those of --workloads): a tenth of the space is --sample 0/10\n"
	     "  --fresh     with --bounded: a fresh filesystem per workload (run: the setup\n"
	     "              once, then the filesystem marked 'base', each workload after a\n"
	     "              mark 'fresh:<name>/<first id>/<code>'; check: the setup and the\n"
	     "              one workload BLACKOUT_FRESH names; docs/checkers.md)\n"
	     "  --keep IDS  perform only these ops of the sequence, e.g. 3,17,40-42 (ops that\n"
	     "              need a dropped one, like a write to a file never created, are\n"
	     "              dropped too; kept ops keep their ids and data)\n"
	     "  --upto N    repro: the acknowledged op the program's power cut comes after\n"
	     "  --bug=BUG   plant a bug: none (default), ack-without-fsync (acknowledge\n"
	     "              without syncing: a sync write is written without its flag, an\n"
	     "              mmap store is not msync'd) or ignore-fsync-error (acknowledge even\n"
	     "              when the sync failed); positive controls the harness\n"
	     "              must catch\n\n"
	     "Exit status: 0 done, 1 the workload failed, 2 usage error, 3 the checker could\n"
	     "not check (bad BLACKOUT_* input or mount point). See docs/checkers.md.");
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "blackout-fsops: %s '%s'\nTry 'blackout-fsops --help'.\n", msg, arg);
	return 2;
}

static int parse_u64(const char *s, uint64_t *ret)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*ret = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* "A-B", "A-" (to the end) or "A" into *@lo, *@hi (A <= B). */
static int parse_range(const char *s, uint64_t *lo, uint64_t *hi)
{
	const char *dash = strchr(s, '-');
	char a[24];

	if (!dash)
		return parse_u64(s, lo) < 0 ? -1 : (*hi = *lo, 0);
	if (!dash[1]) /* "A-": to the end */
		*hi = UINT64_MAX;
	if ((size_t) (dash - s) >= sizeof(a))
		return -1;
	memcpy(a, s, (size_t) (dash - s));
	a[dash - s] = '\0';
	if (parse_u64(a, lo) < 0 || (dash[1] && parse_u64(dash + 1, hi) < 0) || *lo > *hi)
		return -1;
	return 0;
}

/* "I/N", I < N: the ranks that are I modulo N. */
static int parse_sample(const char *s, uint64_t *at, uint64_t *every)
{
	const char *slash = strchr(s, '/');
	char a[24];

	if (!slash || (size_t) (slash - s) >= sizeof(a))
		return -1;
	memcpy(a, s, (size_t) (slash - s));
	a[slash - s] = '\0';
	if (parse_u64(a, at) < 0 || parse_u64(slash + 1, every) < 0 || *every < 1 || *at >= *every)
		return -1;
	return 0;
}

/* The names of an option's values, in the order of their enum. */
static const char *const fsync_names[] = {
	[FSOPS_FSYNC_PATH] = "path", [FSOPS_FSYNC_INODE] = "inode", NULL};
static const char *const promises_names[] = {
	[FSOPS_PROMISES_LINUX] = "linux", [FSOPS_PROMISES_POSIX] = "posix", NULL};
static const char *const bug_names[] = {[FSOPS_BUG_NONE] = "none",
					[FSOPS_BUG_ACK_WITHOUT_FSYNC] = "ack-without-fsync",
					[FSOPS_BUG_IGNORE_SYNC_ERROR] = "ignore-fsync-error",
					NULL};

/* The index of @arg in @names, or -1. */
static int choice(const char *arg, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	return -1;
}

/* Print @n ops, their ids offset by @base, each with @workload when there is one; the first
 * @setup of them are a bounded workload's setup, and say so. */
static void list(const struct fsops_op *ops, uint64_t n, uint64_t base, const char *workload,
		 uint64_t setup)
{
	for (uint64_t i = 0; i < n; i++) {
		const struct fsops_op *op = &ops[i];
		char a[16], b[16];

		fsops_op_paths(op, a, b, sizeof(a));
		printf("%llu %s %s %s ino=%llu off=%llu len=%llu size=%llu%s%s%s%s\n",
		       (unsigned long long) (base + op->id), fsops_type_name(op->type), a, b,
		       (unsigned long long) op->ino, (unsigned long long) op->off,
		       (unsigned long long) op->len, (unsigned long long) op->size_after,
		       workload ? " workload=" : "", workload ? workload : "",
		       i < setup ? " setup" : "", fsops_is_sync(op->type) ? " ack" : "");
	}
}

/* List what fsops_bounded_lay() lays out for @ctx's parameters: a workload's ops (its setup's
 * among them on one filesystem), or the setup laid out once. */
static int list_laid(void *ctx, uint64_t rank, const char *code, const struct fsops_op *ops,
		     uint64_t n, uint64_t base, const char *dir, bool setup)
{
	const struct fsops_params *p = ctx;
	char name[32];

	fsops_bounded_name(p->bounded, rank, name, sizeof(name));
	list(ops, n, base, name, setup ? n : p->fresh ? 0 : fsops_bounded_setup(p));
	return 0;
}

/* What the command line asks for beside the parameters of the sequence. */
struct cmdline {
	const char *mode;
	/* Parsed once every option is: --keep against the final --ops, the ranks only with
	 * --bounded. */
	const char *keep, *workloads, *sample;
	uint64_t upto; /* repro --upto */
	bool seq_opts; /* an option of the seeded sequence only */
	bool families; /* --families given */
};

/* What the parsers return when there is no exit status yet: the command goes on. */
#define GO_ON (-1)

static int no_memory(void)
{
	fputs("blackout-fsops: out of memory\n", stderr);
	return 1;
}

/* Option @c (of getopt_long(), its argument @arg) into @p and @cl: GO_ON, or an exit status. */
static int parse_option(int c, const char *arg, struct fsops_params *p, struct cmdline *cl)
{
	uint64_t length = 0;
	int v;

	switch (c) {
	case 'h':
		help();
		return 0;
	case 's':
		if (parse_u64(arg, &p->seed) < 0)
			return usage_error("bad --seed", arg);
		break;
	case 'n':
		if (parse_u64(arg, &p->ops) < 0 || p->ops == 0 || p->ops > FSOPS_MAX_OPS)
			return usage_error("bad --ops (1..1000000)", arg);
		cl->seq_opts = true;
		break;
	case 'u':
		if (parse_u64(arg, &cl->upto) < 0 || cl->upto == 0)
			return usage_error("bad --upto (an op id)", arg);
		break;
	case 'k':
		cl->keep = arg;
		cl->seq_opts = true;
		break;
	case 'B':
		if (parse_u64(arg, &length) < 0 || length < 1 || length > FSOPS_BOUNDED_MAX)
			return usage_error("bad --bounded (a length, 1..3)", arg);
		p->bounded = (unsigned) length;
		break;
	case 'W':
		cl->workloads = arg;
		break;
	case 'S':
		cl->sample = arg;
		break;
	case 'R':
		p->fresh = true;
		break;
	case 'f':
		cl->seq_opts = true;
		if ((v = choice(arg, fsync_names)) < 0)
			return usage_error("unknown --fsync (path or inode)", arg);
		p->fsync = (enum fsops_fsync_mode) v;
		break;
	case 'F':
		cl->families = true;
		if (fsops_families_parse(arg, &p->families) < 0)
			return usage_error("unknown --families (all, none or a list "
					   "of " FSOPS_FAMILY_NAMES ")",
					   arg);
		break;
	case 'L':
		p->no_links = true;
		break;
	case 'p':
		if ((v = choice(arg, promises_names)) < 0)
			return usage_error("unknown --promises (linux or posix)", arg);
		p->promises = (enum fsops_promises) v;
		break;
	case 'b':
		if ((v = choice(arg, bug_names)) < 0)
			return usage_error("unknown --bug", arg);
		p->bug = (enum fsops_bug) v;
		break;
	default:
		return 2;
	}
	return GO_ON;
}

/* What the options say together (--bounded and the rest): GO_ON, or an exit status. */
static int check_options(struct fsops_params *p, const struct cmdline *cl)
{
	if (p->bounded && cl->seq_opts)
		return usage_error("--bounded draws its own ops: no --ops, --fsync or --keep with",
				   "--bounded");
	if (p->bounded && !cl->families)
		p->families = FSOPS_FAMILY_ALL; /* its ops are of every family */
	if (cl->workloads && !p->bounded)
		return usage_error("--workloads needs", "--bounded");
	if (cl->workloads && parse_range(cl->workloads, &p->ranks.first, &p->ranks.last) < 0)
		return usage_error("bad --workloads (ranks A-B, or A)", cl->workloads);
	if (cl->sample && !p->bounded)
		return usage_error("--sample needs", "--bounded");
	if (p->fresh && !p->bounded)
		return usage_error("--fresh needs", "--bounded");
	if (cl->sample && parse_sample(cl->sample, &p->ranks.at, &p->ranks.every) < 0)
		return usage_error("bad --sample (I/N: the ranks that are I modulo N, I < N)",
				   cl->sample);
	return GO_ON;
}

/* The command line into @p and @cl: GO_ON, or an exit status (--help, a usage error). */
static int parse_args(int argc, char **argv, struct fsops_params *p, struct cmdline *cl)
{
	/* One option per line, as clang-format would not keep it. */
	/* clang-format off */
	static const struct option opts[] = {
		{"seed", required_argument, NULL, 's'},
		{"ops", required_argument, NULL, 'n'},
		{"bug", required_argument, NULL, 'b'},
		{"keep", required_argument, NULL, 'k'},
		{"upto", required_argument, NULL, 'u'},
		{"fsync", required_argument, NULL, 'f'},
		{"families", required_argument, NULL, 'F'},
		{"no-links", no_argument, NULL, 'L'},
		{"bounded", required_argument, NULL, 'B'},
		{"workloads", required_argument, NULL, 'W'},
		{"sample", required_argument, NULL, 'S'},
		{"fresh", no_argument, NULL, 'R'},
		{"promises", required_argument, NULL, 'p'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	/* clang-format on */
	int c, r;

	if (argc > 1 && argv[1][0] != '-') {
		cl->mode = argv[1];
		argv++;
		argc--;
	}
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1)
		if ((r = parse_option(c, optarg, p, cl)) != GO_ON)
			return r;
	if (optind != argc)
		return usage_error("unexpected argument", argv[optind]);
	return check_options(p, cl);
}

/* count: how many workloads the bounded space of @p's length has. */
static int count(const struct fsops_params *p)
{
	uint64_t n;

	if (!p->bounded)
		return usage_error("count needs", "--bounded");
	if (fsops_bounded_count(p, &n) < 0)
		return no_memory();
	printf("%llu\n", (unsigned long long) n);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* list with --bounded: the workloads @p's ranks select, one after the other. */
static int list_bounded(const struct fsops_params *p)
{
	if (fsops_bounded_lay(p, list_laid, (void *) p) < 0)
		return no_memory();
	return fflush(stdout) == 0 ? 0 : 1;
}

/* list: the ops @p performs. */
static int list_sequence(const struct fsops_params *p)
{
	struct fsops_op *ops;
	uint64_t n;

	if (fsops_sequence(p, &ops, &n) < 0)
		return no_memory();
	list(ops, n, 0, NULL, 0);
	free(ops);
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct fsops_params p = {.seed = 1,
				 .ops = 200,
				 .bug = FSOPS_BUG_NONE,
				 .ranks = {.last = UINT64_MAX, .every = 1}};
	struct cmdline cl = {.mode = "run"};
	uint64_t *keep_ids = NULL;
	int rc;

	rc = parse_args(argc, argv, &p, &cl);
	if (rc != GO_ON)
		return rc;
	if (!strcmp(cl.mode, "count"))
		return count(&p);
	if (p.bounded && !strcmp(cl.mode, "list"))
		return list_bounded(&p);
	/* After the options: the ids are checked against the final --ops. */
	if (cl.keep) {
		int r = bo_ids_parse(cl.keep, p.ops, &keep_ids, &p.nkeep);

		if (r == -ENOMEM)
			return no_memory();
		if (r < 0)
			return usage_error("bad --keep (op ids 1..--ops, e.g. 3,17,40-42)",
					   cl.keep);
		p.keep = keep_ids;
	}
	if (!strcmp(cl.mode, "run"))
		rc = fsops_run(&p);
	else if (!strcmp(cl.mode, "check"))
		rc = fsops_check(&p);
	else if (!strcmp(cl.mode, "list"))
		rc = list_sequence(&p);
	else if (!strcmp(cl.mode, "repro"))
		rc = cl.upto ? fsops_repro(&p, cl.upto) : usage_error("repro needs", "--upto");
	else if (!strcmp(cl.mode, "fstests"))
		rc = cl.upto ? fsops_fstests(&p, cl.upto) : usage_error("fstests needs", "--upto");
	else
		rc = usage_error("unknown mode", cl.mode);
	free(keep_ids);
	return rc;
}
