// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout inspect — describe a dm-log-writes log.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"
#include "harness/log/inspect.h"
#include "harness/log/log.h"

#define MARKS_SHOWN 50

struct inspect_args {
	const char *entries;
	bool json, salvage;
};

/* Whether @s is "A-B" with B before A. */
static bool backwards(const char *s)
{
	uint64_t a, b;
	char tail;

	return sscanf(s, "%" SCNu64 "-%" SCNu64 "%c", &a, &b, &tail) == 2 && b < a;
}

static const char *entries_problem(const char *val)
{
	uint64_t first, last;
	int r = bo_parse_range(val, &first, &last);

	if (r < 0 && backwards(val))
		return "the range is backwards";
	if (r == -ERANGE)
		return "a number out of range (past 2^64-1)";
	return r < 0 ? "expected A-B" : NULL;
}

#define A(field) offsetof(struct inspect_args, field)

static const struct bo_opt inspect_opts[] = {
	{"json", NULL, A(json), BO_OPT_HOST, NULL, NULL, "print one JSON object instead of text"},
	{"entries", "A-B", A(entries), BO_OPT_HOST, NULL, entries_problem,
	 "also list entries A to B (\"A-\" to the end, \"A\" just one)"},
	{"salvage", NULL, A(salvage), BO_OPT_HOST, NULL, NULL,
	 "read past the super block's entry count while headers stay\n"
	 "valid (for logs from a machine that crashed: the kernel\n"
	 "updates the count only after FUA and MARK entries); it stops\n"
	 "quietly at a tail cut short or zeroes past that count, with a\n"
	 "warning naming the entry at any other header, and a damaged\n"
	 "header the count vouches for is an error as without it"},
};

static void help(void)
{
	puts("usage: blackout inspect LOG [--json] [--entries A-B] [--salvage]\n\n"
	     "Describe the dm-log-writes log LOG (a file or a block device): entry counts per\n"
	     "flag, bytes written, marks with their entry numbers, epochs between flushes and\n"
	     "the sector range touched. A corrupt or truncated log is an error naming the entry\n"
	     "and byte offset.\n");
	bo_opts_help(stdout, inspect_opts, BO_ARRAY_SIZE(inspect_opts));
	puts("  -h, --help       this text");
}

static const char *human(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double) bytes;
	size_t u = 0;

	while (v >= 1024 && u + 1 < BO_ARRAY_SIZE(units)) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 " B", bytes);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
	return buf;
}

static void print_entry(const struct bo_log *log, uint64_t n)
{
	const struct bo_log_entry *e = bo_log_entry(log, n);
	char fl[64];

	bo_log_flags_str(e->flags, fl, sizeof(fl));
	if (e->flags & BO_LOG_MARK)
		printf("  %8" PRIu64 "  @%-12" PRIu64 "  %-22s mark '%s'\n", n, e->offset, fl,
		       bo_cli_word(bo_log_mark_name(log, n)));
	else if (e->nr_sectors)
		printf("  %8" PRIu64 "  @%-12" PRIu64 "  %-22s sector %" PRIu64 " +%" PRIu64 "\n",
		       n, e->offset, fl, e->sector, e->nr_sectors);
	else
		printf("  %8" PRIu64 "  @%-12" PRIu64 "  %s\n", n, e->offset, fl);
}

/* A log of several devices (its layout mark): each device, its writes and its flushes, whose
 * epochs are its own (docs/crash-states.md); the epochs below count every device's flushes. */
static void print_devices(const struct bo_log *log)
{
	const struct bo_layout *l = bo_log_layout(log);
	uint64_t writes[BO_LAYOUT_MAX] = {0}, flushes[BO_LAYOUT_MAX] = {0}, other = 0;
	char a[32], b[32];

	if (!l->n)
		return;
	for (uint64_t n = 0; n < bo_log_count(log); n++) {
		const struct bo_log_entry *e = bo_log_entry(log, n);
		int d = l->n > 1 ? bo_layout_device(l, bo_log_sectorsize(log), e->sector) : 0;

		if (!(e->flags & BO_LOG_FLUSH) && (!e->nr_sectors || (e->flags & BO_LOG_MARK)))
			continue;
		if (d < 0)
			other++;
		else if (e->flags & BO_LOG_FLUSH)
			flushes[d]++;
		else if (!(e->flags & BO_LOG_DISCARD))
			writes[d]++;
	}
	printf("devices:   %u in one log (a flush is its own device's)\n", l->n);
	for (unsigned i = 0; i < l->n; i++) {
		printf("  %-16s %-5s %s at %s, %" PRIu64 " writes, %" PRIu64 " flushes%s%s",
		       l->v[i].name, l->v[i].kind, human(l->v[i].sectors * 512, a, sizeof(a)),
		       human(l->v[i].start * 512, b, sizeof(b)), writes[i], flushes[i],
		       l->v[i].journal >= 0 ? ", journal on " : "",
		       l->v[i].journal >= 0 ? l->v[l->v[i].journal].name : "");
		for (unsigned k = 0, n = 0; k < l->n; k++)
			if (l->v[i].spans & (1u << k))
				printf("%s%s", n++ ? " " : ", also on ", l->v[k].name);
		putchar('\n');
	}
	if (other)
		printf("  %" PRIu64 " %s of no device (flushes of them close every epoch)\n", other,
		       BO_PLURAL(other, "entry", "entries"));
}

static void print_text(const struct bo_log *log, const struct bo_log_stats *s, uint64_t first,
		       uint64_t last)
{
	const uint64_t ss = bo_log_sectorsize(log);
	char a[32], b[32];

	printf("log:       %s\n", bo_log_path(log));
	printf("format:    dm-log-writes v%d, %" PRIu64 "-byte blocks\n", BO_LOG_VERSION, ss);
	printf("entries:   %" PRIu64, s->entries);
	if (bo_log_super_entries(log) != s->entries)
		printf(" (the super block says %" PRIu64 ")", bo_log_super_entries(log));
	printf("\nlog used:  %s of %s\n", human(bo_log_end_offset(log), a, sizeof(a)),
	       human(bo_log_size(log), b, sizeof(b)));
	printf("kinds:     %" PRIu64 " writes, %" PRIu64 " flush, %" PRIu64 " fua, %" PRIu64
	       " discard, %" PRIu64 " mark, %" PRIu64 " metadata\n",
	       s->writes, s->flush, s->fua, s->discard, s->mark, s->metadata);
	printf("written:   %s (%" PRIu64 " bytes), discarded %s\n",
	       human(s->bytes_written, a, sizeof(a)), s->bytes_written,
	       human(s->bytes_discarded, b, sizeof(b)));
	if (s->touched)
		printf("sectors:   %" PRIu64 "..%" PRIu64 " (bytes %" PRIu64 "..%" PRIu64 ")\n",
		       s->sector_min, s->sector_end - 1, s->sector_min * ss, s->sector_end * ss);
	else
		printf("sectors:   none touched\n");
	print_devices(log);
	printf("epochs:    %" PRIu64, s->n_epochs);
	if (s->n_epochs) {
		const struct bo_epoch *big = &s->epochs[0];

		for (uint64_t i = 1; i < s->n_epochs; i++)
			if (s->epochs[i].writes > big->writes)
				big = &s->epochs[i];
		printf(" (largest: entries %" PRIu64 "..%" PRIu64 ", %" PRIu64 " writes, %s)",
		       big->first, big->last, big->writes, human(big->bytes, a, sizeof(a)));
	}
	putchar('\n');
	if (s->n_epochs && s->n_epochs <= 20)
		for (uint64_t i = 0; i < s->n_epochs; i++)
			printf("  epoch %-3" PRIu64 " entries %" PRIu64 "..%" PRIu64 ", %" PRIu64
			       " writes, %s%s\n",
			       i, s->epochs[i].first, s->epochs[i].last, s->epochs[i].writes,
			       human(s->epochs[i].bytes, a, sizeof(a)),
			       s->epochs[i].flushed ? "" : " (no closing flush)");
	printf("marks:     %zu\n", bo_log_mark_count(log));
	for (size_t i = 0; i < bo_log_mark_count(log) && i < MARKS_SHOWN; i++) {
		const struct bo_log_mark *m = bo_log_mark_at(log, i);

		printf("  entry %-8" PRIu64 " %s\n", m->entry, bo_cli_word(m->name));
	}
	if (bo_log_mark_count(log) > MARKS_SHOWN)
		printf("  ... %zu more (--json lists them all)\n",
		       bo_log_mark_count(log) - MARKS_SHOWN);
	if (first <= last && first < s->entries) {
		printf("entries %" PRIu64 "..%" PRIu64 ":\n", first,
		       last < s->entries ? last : s->entries - 1);
		for (uint64_t n = first; n <= last && n < s->entries; n++)
			print_entry(log, n);
	}
}

/* print_text()'s arguments, for bo_cli_put_safe(): a log's mark names are its writer's, each
 * printed as one word of its line (bo_cli_word()). */
struct text {
	const struct bo_log *log;
	const struct bo_log_stats *stats;
	uint64_t first, last;
};

static void put_text(void *ctx)
{
	const struct text *t = ctx;

	print_text(t->log, t->stats, t->first, t->last);
}

static int cmd_inspect(int argc, char **argv)
{
	struct inspect_args a = {0};
	const struct bo_opt_set sets[] = {{inspect_opts, BO_ARRAY_SIZE(inspect_opts), &a}};
	struct bo_log_stats stats;
	struct bo_log *log = NULL;
	struct bo_err err = {0};
	uint64_t first = 1, last = 0;
	const char *range;
	unsigned flags;
	int k, ret = BO_EXIT_HARNESS;

	k = bo_opts_parse("inspect", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, help, argc, argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k + 1 != argc)
		return bo_cli_usage_error("inspect", "expected exactly one LOG");
	range = a.entries;
	/* Checked by entries_problem(). */
	if (range && bo_parse_range(range, &first, &last) < 0)
		return BO_EXIT_USAGE;
	flags = a.salvage ? BO_LOG_OPEN_SALVAGE : 0;

	if (bo_cli_log_open("inspect", argv[k], flags, &log, &err) < 0) {
		bo_cli_error("inspect: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	if (bo_log_stats_compute(log, &stats, &err) < 0) {
		bo_cli_error("inspect: %s", bo_err_str(&err));
		goto out;
	}
	/* Entries asked for that are not there: say so, do not print nothing. */
	if (range && (first >= stats.entries || (last != UINT64_MAX && last >= stats.entries))) {
		bo_cli_error("inspect: --entries '%s': '%s' has %" PRIu64 " %s%s", range, argv[k],
			     stats.entries, BO_PLURAL(stats.entries, "entry", "entries"),
			     stats.entries ? " (from 0)" : "");
		ret = BO_EXIT_USAGE;
		goto out_stats;
	}
	if (a.json) {
		struct json_object *o = bo_log_stats_json(log, &stats, first, last);

		if (!o) {
			bo_cli_error("inspect: out of memory building JSON");
			goto out_stats;
		}
		bo_cli_put_json(o);
		json_object_put(o);
	} else {
		struct text t = {log, &stats, first, last};

		bo_cli_put_safe(put_text, &t);
	}
	ret = fflush(stdout) == 0 ? BO_EXIT_OK : BO_EXIT_HARNESS;
out_stats:
	bo_log_stats_clear(&stats);
out:
	bo_log_free(log);
	return ret;
}

const struct bo_cmd bo_cmd_inspect = {"inspect", cmd_inspect,
				      "describe a dm-log-writes log: entries, marks, epochs"};
