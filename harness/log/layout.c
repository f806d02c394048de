// SPDX-License-Identifier: GPL-2.0-or-later
/* The layout mark of a log of several devices: its one writer and its one reader. */
#include "harness/log/layout.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"

bool bo_layout_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n >= 1 && n <= BO_LAYOUT_NAME_MAX && name[0] >= 'a' && name[0] <= 'z' &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

int bo_layout_format(const struct bo_layout *l, char *buf, size_t len)
{
	size_t off = 0;
	int n = snprintf(buf, len, "%s", BO_LAYOUT_MARK_PREFIX);

	for (unsigned i = 0; n >= 0 && (size_t) n < len - off && i < l->n; i++) {
		const struct bo_layout_dev *d = &l->v[i];

		off += (size_t) n;
		n = snprintf(buf + off, len - off, "%s%s=%s@%" PRIu64 "+%" PRIu64 "%s%s",
			     i ? "," : "", d->name, d->kind, d->start, d->sectors,
			     d->journal >= 0 ? "/" : "",
			     d->journal >= 0 ? l->v[d->journal].name : "");
		for (unsigned k = 0; k < l->n && n >= 0 && (size_t) n < len - off; k++)
			if (d->spans & (1u << k)) {
				off += (size_t) n;
				n = snprintf(buf + off, len - off, "&%s", l->v[k].name);
			}
	}
	return n < 0 || (size_t) n >= len - off ? -ENAMETOOLONG : 0;
}

/* Copy the run of @p's characters from @set, at most @max of them, into @out; the end. */
static const char *word(const char *p, const char *set, char *out, size_t max)
{
	size_t n = strspn(p, set);

	if (n == 0 || n > max)
		return NULL;
	memcpy(out, p, n);
	out[n] = '\0';
	return p + n;
}

static const char *number(const char *p, uint64_t *ret)
{
	uint64_t v = 0;

	if (*p < '0' || *p > '9')
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return NULL;
		v = v * 10 + (uint64_t) (*p - '0');
	}
	*ret = v;
	return p;
}

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_"

int bo_layout_parse(const char *mark, struct bo_layout *ret, struct bo_err *err)
{
	static const char syntax[] =
		"expected layout:NAME=KIND@START+SECTORS[/JOURNAL][&SPANNED...],...";
	char journals[BO_LAYOUT_MAX][BO_LAYOUT_NAME_MAX + 1] = {{0}};
	char spans[BO_LAYOUT_MAX][BO_LAYOUT_MAX][BO_LAYOUT_NAME_MAX + 1] = {{{0}}};
	struct bo_layout l = {0};
	/* The mark is the log's, quoted in one line: it may hold anything. */
	_cleanup_free_ char *safe = bo_sanitize(mark, true);
	const char *shown = safe ? safe : "?";
	const char *p;

	if (strncmp(mark, BO_LAYOUT_MARK_PREFIX, strlen(BO_LAYOUT_MARK_PREFIX)))
		return bo_err_set(err, EINVAL, "layout mark '%s': %s", shown, syntax);
	p = mark + strlen(BO_LAYOUT_MARK_PREFIX);
	do {
		struct bo_layout_dev *d = &l.v[l.n];

		if (l.n == BO_LAYOUT_MAX)
			return bo_err_set(err, EINVAL, "layout mark '%s': more than %d devices",
					  shown, BO_LAYOUT_MAX);
		if (l.n)
			p++;
		d->journal = -1;
		p = word(p, NAME_CHARS, d->name, BO_LAYOUT_NAME_MAX);
		if (p && *p == '=')
			p = word(p + 1, NAME_CHARS, d->kind, BO_LAYOUT_KIND_MAX);
		else
			p = NULL;
		if (p && *p == '@')
			p = number(p + 1, &d->start);
		else
			p = NULL;
		if (p && *p == '+')
			p = number(p + 1, &d->sectors);
		else
			p = NULL;
		if (p && *p == '/')
			p = word(p + 1, NAME_CHARS, journals[l.n], BO_LAYOUT_NAME_MAX);
		for (unsigned k = 0; p && *p == '&'; k++)
			p = k < BO_LAYOUT_MAX - 1
				    ? word(p + 1, NAME_CHARS, spans[l.n][k], BO_LAYOUT_NAME_MAX)
				    : NULL;
		if (!p || !bo_layout_name_ok(d->name))
			return bo_err_set(err, EINVAL, "layout mark '%s': %s", shown, syntax);
		if (bo_layout_find(&l, d->name) >= 0)
			return bo_err_set(err, EINVAL, "layout mark '%s': device '%s' named twice",
					  shown, d->name);
		if (d->sectors == 0 || d->start == 0 || d->start > UINT64_MAX - d->sectors ||
		    (l.n && d->start < l.v[l.n - 1].start + l.v[l.n - 1].sectors))
			return bo_err_set(
				err, EINVAL,
				"layout mark '%s': device '%s' must follow the one before "
				"it, after sector 0, and not be empty",
				shown, d->name);
		l.n++;
	} while (*p == ',');
	if (*p)
		return bo_err_set(err, EINVAL, "layout mark '%s': %s", shown, syntax);
	for (unsigned i = 0; i < l.n; i++) {
		if (!journals[i][0])
			continue;
		l.v[i].journal = bo_layout_find(&l, journals[i]);
		if (l.v[i].journal < 0 || l.v[i].journal == (int) i)
			return bo_err_set(err, EINVAL,
					  "layout mark '%s': the journal of '%s' must be another "
					  "device of the log",
					  shown, l.v[i].name);
	}
	for (unsigned i = 0; i < l.n; i++)
		for (unsigned k = 0; spans[i][k][0]; k++) {
			int s = bo_layout_find(&l, spans[i][k]);

			if (s < 0 || s == (int) i || strcmp(l.v[s].kind, "raw") ||
			    bo_layout_owner(&l, (unsigned) s) >= 0 || !strcmp(l.v[i].kind, "raw"))
				return bo_err_set(
					err, EINVAL,
					"layout mark '%s': '%s' spans '%s', which must be "
					"a raw device of the log no other filesystem holds",
					shown, l.v[i].name, spans[i][k]);
			l.v[i].spans |= 1u << s;
		}
	*ret = l;
	return 0;
}

int bo_layout_owner(const struct bo_layout *l, unsigned k)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i].journal == (int) k || (l->v[i].spans & (1u << k)))
			return (int) i;
	return -1;
}

int bo_layout_device(const struct bo_layout *l, uint32_t ss, uint64_t sector)
{
	uint64_t s512;

	if (l->n < 2 || sector > UINT64_MAX / ss)
		return -1;
	s512 = sector * ss / 512;
	for (unsigned i = 0; i < l->n; i++)
		if (s512 >= l->v[i].start && s512 - l->v[i].start < l->v[i].sectors)
			return (int) i;
	return -1;
}

void bo_layout_env_name(const char *name, char out[BO_LAYOUT_NAME_MAX + 1])
{
	size_t i = 0;

	for (; name[i] && i < BO_LAYOUT_NAME_MAX; i++)
		out[i] = name[i] >= 'a' && name[i] <= 'z' ? (char) (name[i] - 'a' + 'A') : name[i];
	out[i] = '\0';
}

int bo_layout_find(const struct bo_layout *l, const char *name)
{
	for (unsigned i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return (int) i;
	return -1;
}

uint64_t bo_layout_sectors(const struct bo_layout *l)
{
	return l->n ? l->v[l->n - 1].start + l->v[l->n - 1].sectors : 0;
}
