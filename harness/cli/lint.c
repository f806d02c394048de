// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout lint — the durability lint of a log (states/lint.h): every ack with no FLUSH or FUA
 * between its issue and itself, from the log's entries and marks alone, with no replay.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>

#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"
#include "harness/log/log.h"
#include "harness/states/lint.h"

struct lint_args {
	bool json, salvage;
};

static const struct bo_opt lint_opts[] = {
	{"json", NULL, offsetof(struct lint_args, json), BO_OPT_HOST, NULL, NULL,
	 "print one JSON object instead of text"},
	{"salvage", NULL, offsetof(struct lint_args, salvage), BO_OPT_HOST, NULL, NULL,
	 "read a log whose tail was cut short (as inspect --salvage)"},
};

static void help(void)
{
	puts("usage: blackout lint LOG [--json] [--salvage]\n\n"
	     "Report every acknowledged op of the log LOG whose ack:N mark has no FLUSH or\n"
	     "FUA entry between it and its issue:N mark: an acknowledgement no barrier could\n"
	     "have made durable. A finding to look at, not a verdict: an op that wrote\n"
	     "nothing needs no barrier. Reads only the log's index and marks; no VM.\n");
	bo_opts_help(stdout, lint_opts, BO_ARRAY_SIZE(lint_opts));
	puts("  -h, --help       this text\n\n"
	     "Exit status: 0 no finding, 1 findings, 2 usage error, 3 the log cannot be read.");
}

static void add_u64(struct json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

static struct json_object *lint_json(const struct bo_log *log, const struct bo_lint *l)
{
	struct json_object *o = bo_json_new_doc(), *a = json_object_new_array();

	for (size_t i = 0; o && a && i < l->n; i++) {
		const struct bo_lint_finding *f = &l->v[i];
		struct json_object *j = json_object_new_object();

		if (!j) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}

		add_u64(j, "op", f->op);
		add_u64(j, "issue_entry", f->issue_entry);
		add_u64(j, "ack_entry", f->ack_entry);
		add_u64(j, "writes_between", f->writes);
		if (f->next_barrier == BO_NO_ENTRY)
			json_object_object_add(j, "next_barrier", NULL);
		else
			add_u64(j, "next_barrier", f->next_barrier);
		json_object_array_add(a, j);
	}
	json_object_object_add(o, "log", json_object_new_string(bo_log_path(log)));
	add_u64(o, "entries", bo_log_count(log));
	add_u64(o, "barriers", l->barriers);
	add_u64(o, "acks", l->acks);
	add_u64(o, "unpaired_acks", l->unpaired);
	if (!o || !a) {
		json_object_put(o);
		json_object_put(a);
		return NULL;
	}
	json_object_object_add(o, "findings", a);
	return o;
}

static int cmd_lint(int argc, char **argv)
{
	struct lint_args a = {0};
	const struct bo_opt_set sets[] = {{lint_opts, BO_ARRAY_SIZE(lint_opts), &a}};
	struct bo_log *log = NULL;
	struct bo_lint l = {0};
	struct bo_err err = {0};
	char buf[256];
	int k, c;

	k = bo_opts_parse("lint", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, help, argc, argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k + 1 != argc)
		return bo_cli_usage_error("lint", "one LOG is required");
	if (bo_cli_log_open("lint", argv[k], a.salvage ? BO_LOG_OPEN_SALVAGE : 0, &log, &err) < 0 ||
	    bo_lint_log(log, &l, &err) < 0) {
		bo_cli_error("lint: %s", bo_err_str(&err));
		bo_log_free(log);
		return BO_EXIT_HARNESS;
	}
	if (a.json) {
		struct json_object *o = lint_json(log, &l);

		if (!o) {
			bo_cli_error("lint: out of memory");
			c = BO_EXIT_HARNESS;
			goto out;
		}
		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		printf("%s: %" PRIu64 " %s, %" PRIu64 " FLUSH or FUA, %" PRIu64
		       " %s linted: %zu %s\n",
		       bo_log_path(log), bo_log_count(log),
		       BO_PLURAL(bo_log_count(log), "entry", "entries"), l.barriers, l.acks,
		       BO_PLURAL(l.acks, "ack", "acks"), l.n,
		       BO_PLURAL(l.n, "finding", "findings"));
		if (l.unpaired)
			printf("%" PRIu64 " %s without an issue mark, not linted\n", l.unpaired,
			       BO_PLURAL(l.unpaired, "ack", "acks"));
		for (size_t i = 0; i < l.n; i++)
			printf("  %s\n", bo_lint_finding_str(&l.v[i], buf, sizeof(buf)));
	}
	c = l.n ? BO_EXIT_FAILURE : BO_EXIT_OK;
out:
	bo_lint_clear(&l);
	bo_log_free(log);
	return c;
}

const struct bo_cmd bo_cmd_lint = {"lint", cmd_lint,
				   "list the acks no FLUSH or FUA could have made durable"};
