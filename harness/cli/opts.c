// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/cli/opts.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/base/exit.h"
#include "harness/cli/cli.h"

/* getopt_long's value for option @i of all the sets: above every short option. */
#define OPT_BASE 0x1000

static const char **str_at(const struct bo_opt *o, void *args)
{
	return (const char **) ((char *) args + o->off);
}

static bool *flag_at(const struct bo_opt *o, void *args)
{
	return (bool *) ((char *) args + o->off);
}

static struct bo_opt_list *list_at(const struct bo_opt *o, void *args)
{
	return (struct bo_opt_list *) ((char *) args + o->off);
}

int bo_opt_list_add(struct bo_opt_list *l, const char *val)
{
	const char **v = reallocarray(l->v, l->n + 2, sizeof(*v));

	if (!v)
		return -ENOMEM;
	v[l->n++] = val;
	v[l->n] = NULL;
	l->v = v;
	return 0;
}

void bo_opt_list_clear(struct bo_opt_list *l)
{
	free(l->v);
	*l = (struct bo_opt_list){0};
}

int bo_opts_parse(const char *cmd, const struct bo_opt_set *sets, size_t nsets, unsigned who,
		  void (*help)(void), int argc, char **argv)
{
	size_t total = 0, k = 0;
	_cleanup_free_ struct option *lo = NULL;
	int c;

	for (size_t s = 0; s < nsets; s++)
		total += sets[s].n;
	lo = calloc(total + 2, sizeof(*lo));
	if (!lo) {
		bo_cli_error("%s: out of memory", cmd);
		return -BO_EXIT_HARNESS;
	}
	for (size_t s = 0, i = 0; s < nsets; s++)
		for (size_t j = 0; j < sets[s].n; j++, i++)
			if (sets[s].v[j].who & who & BO_OPT_BOTH)
				lo[k++] = (struct option){sets[s].v[j].name,
							  sets[s].v[j].arg ? required_argument
									   : no_argument,
							  NULL, OPT_BASE + (int) i};
	lo[k] = (struct option){"help", no_argument, NULL, 'h'};
	/* '+': getopt_long's own way to stop at the first operand. */
	while ((c = getopt_long(argc, argv, who & BO_OPT_STOP ? "+h" : "h", lo, NULL)) != -1) {
		size_t i = (size_t) (c - OPT_BASE), s = 0;
		const struct bo_opt *o;
		const char *problem;

		if (c == 'h') {
			help();
			return 0;
		}
		if (c < OPT_BASE || i >= total)
			return -bo_cli_usage_error(cmd, "bad option");
		while (i >= sets[s].n)
			i -= sets[s++].n;
		o = &sets[s].v[i];
		if (!o->arg) {
			*flag_at(o, sets[s].args) = true;
			continue;
		}
		problem = o->check ? o->check(optarg) : NULL;
		if (problem)
			return -bo_cli_usage_error(cmd, "--%s '%s': %s", o->name, optarg, problem);
		if (o->who & BO_OPT_LIST) {
			if (bo_opt_list_add(list_at(o, sets[s].args), optarg) < 0) {
				bo_cli_error("%s: out of memory", cmd);
				return -BO_EXIT_HARNESS;
			}
			continue;
		}
		*str_at(o, sets[s].args) = optarg;
	}
	return optind;
}

void bo_opts_help(FILE *f, const struct bo_opt *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *h = t[i].help;
		int w;

		if (!h || !(t[i].who & BO_OPT_HOST))
			continue;
		w = fprintf(f, "  --%s%s%s", t[i].name, t[i].arg ? " " : "",
			    t[i].arg ? t[i].arg : "");
		/* The text at column 19, its continuation lines too; under a long option. */
		if (w < 18)
			fprintf(f, "%*s", 19 - w, "");
		else
			fprintf(f, "\n%19s", "");
		for (size_t len; *h; h += len + (h[len] == '\n')) {
			len = strcspn(h, "\n");
			fprintf(f, "%.*s\n", (int) len, h);
			if (h[len] == '\n' && h[len + 1])
				fprintf(f, "%19s", "");
		}
	}
}

void bo_argv_add(struct bo_argv *a, const char *s)
{
	char *copy;

	if (a->oom)
		return;
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 32;
		char **v = reallocarray(a->v, cap, sizeof(*v));

		if (!v) {
			a->oom = true;
			return;
		}
		a->v = v;
		a->cap = cap;
	}
	copy = strdup(s);
	if (!copy) {
		a->oom = true;
		return;
	}
	a->v[a->n++] = copy;
	a->v[a->n] = NULL;
}

void bo_argv_addf(struct bo_argv *a, const char *fmt, ...)
{
	_cleanup_free_ char *s = NULL;
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (k < 0) {
		s = NULL;
		a->oom = true;
		return;
	}
	bo_argv_add(a, s);
}

void bo_argv_free(struct bo_argv *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	*a = (struct bo_argv){0};
}

void bo_opts_pass(const struct bo_opt *t, size_t n, const void *args, struct bo_argv *a)
{
	for (size_t i = 0; i < n; i++) {
		const char *val;

		if ((t[i].who & BO_OPT_BOTH) != BO_OPT_BOTH)
			continue;
		if (!t[i].arg) {
			if (*flag_at(&t[i], (void *) args))
				bo_argv_addf(a, "--%s", t[i].name);
			continue;
		}
		if (t[i].who & BO_OPT_LIST) {
			const struct bo_opt_list *l = list_at(&t[i], (void *) args);

			for (size_t k = 0; k < l->n; k++) {
				bo_argv_addf(a, "--%s", t[i].name);
				bo_argv_add(a, l->v[k]);
			}
			continue;
		}
		val = *str_at(&t[i], (void *) args);
		if (val) {
			bo_argv_addf(a, "--%s", t[i].name);
			bo_argv_add(a, val);
		}
	}
}

void bo_opts_to_config(const struct bo_opt *t, size_t n, const void *args, struct json_object *o)
{
	for (size_t i = 0; i < n; i++) {
		const char *val;

		if (!t[i].key)
			continue;
		if (!t[i].arg) {
			json_object_object_add(
				o, t[i].key,
				json_object_new_boolean(*flag_at(&t[i], (void *) args)));
			continue;
		}
		val = *str_at(&t[i], (void *) args);
		json_object_object_add(o, t[i].key, val ? json_object_new_string(val) : NULL);
	}
}

void bo_opts_from_config(const struct bo_opt *t, size_t n, struct json_object *o, void *args)
{
	for (size_t i = 0; i < n; i++) {
		struct json_object *v;

		if (!t[i].key || !json_object_object_get_ex(o, t[i].key, &v))
			continue;
		if (!t[i].arg && json_object_is_type(v, json_type_boolean))
			*flag_at(&t[i], args) = json_object_get_boolean(v);
		else if ((t[i].who & BO_OPT_LIST) && json_object_is_type(v, json_type_array))
			for (size_t k = 0; k < json_object_array_length(v); k++) {
				struct json_object *e = json_object_array_get_idx(v, k);

				if (json_object_is_type(e, json_type_string) &&
				    bo_opt_list_add(list_at(&t[i], args),
						    json_object_get_string(e)) < 0)
					break;
			}
		else if (t[i].arg && json_object_is_type(v, json_type_string))
			*str_at(&t[i], args) = json_object_get_string(v);
	}
}

const char *bo_opt_check_u64(const char *val)
{
	uint64_t n;

	return bo_parse_u64(val, &n) < 0 ? "not a number" : NULL;
}

const char *bo_opt_check_jobs(const char *val)
{
	uint64_t n;

	return bo_parse_u64(val, &n) < 0 || n == 0 || n > 64 ? "1 to 64" : NULL;
}
