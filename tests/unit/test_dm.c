// SPDX-License-Identifier: GPL-2.0-or-later
/* The libdm wrapper's pure parts: names, table lines, and walks of canned kernel lists. */
#include <errno.h>
#include <libdevmapper.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "dmtargets/dm.h"

static void test_names(void)
{
	char name[BO_DM_NAME_MAX], uuid[BO_DM_UUID_MAX], longid[200];
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_dm_name("20250101-120000-7-ab12", "lw", name, uuid, &err) == 0);
	CU_ASSERT_STRING_EQUAL(name, "blackout-20250101-120000-7-ab12-lw");
	CU_ASSERT_STRING_EQUAL(uuid, "BLACKOUT-20250101-120000-7-ab12-lw");
	CU_ASSERT(bo_dm_name("r1", "flakey", name, NULL, &err) == 0);
	CU_ASSERT_STRING_EQUAL(name, "blackout-r1-flakey");

	CU_ASSERT(bo_dm_name("a b", "lw", name, uuid, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "run id 'a b'") != NULL);
	CU_ASSERT(bo_dm_name("r1", "../x", name, uuid, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "role '../x'") != NULL);
	CU_ASSERT(bo_dm_name("", "lw", name, uuid, &err) == -EINVAL);
	CU_ASSERT(bo_dm_name("r1", "", name, uuid, &err) == -EINVAL);

	/* blackout- + 115 + -lw = 127 bytes fits; one more byte of run id does not. */
	memset(longid, 'x', 115);
	longid[115] = '\0';
	CU_ASSERT(bo_dm_name(longid, "lw", name, uuid, &err) == 0);
	CU_ASSERT(strlen(name) == 127);
	memset(longid, 'x', 116);
	longid[116] = '\0';
	strcpy(name, "untouched");
	CU_ASSERT(bo_dm_name(longid, "lw", name, uuid, &err) == -ENAMETOOLONG);
	CU_ASSERT_STRING_EQUAL(name, "untouched");
}

static void test_device_path(void)
{
	char buf[64];

	CU_ASSERT(bo_dm_device_path("blackout-r1-lw", buf, sizeof(buf)) == 0);
	CU_ASSERT_STRING_EQUAL(buf, "/dev/mapper/blackout-r1-lw");
	CU_ASSERT(bo_dm_device_path("blackout-r1-lw", buf, 10) == -ENAMETOOLONG);
}

static void test_parse_line(void)
{
	struct bo_dm_target_line l;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_dm_parse_line("0 2048 log-writes /dev/loop0 /dev/loop1", &l, &err) == 0);
	CU_ASSERT(l.start == 0 && l.length == 2048);
	CU_ASSERT_STRING_EQUAL(l.type, "log-writes");
	CU_ASSERT_STRING_EQUAL(l.params, "/dev/loop0 /dev/loop1");
	free(l.type);
	free(l.params);

	/* A target without parameters, and the trailing blank old kernels emit. */
	CU_ASSERT_FATAL(bo_dm_parse_line("  8 16 zero", &l, &err) == 0);
	CU_ASSERT(l.start == 8 && l.length == 16);
	CU_ASSERT_STRING_EQUAL(l.params, "");
	free(l.type);
	free(l.params);
	CU_ASSERT_FATAL(bo_dm_parse_line("0 8 flakey 7:0 0 1 0 0 ", &l, &err) == 0);
	CU_ASSERT_STRING_EQUAL(l.params, "7:0 0 1 0 0");
	free(l.type);
	free(l.params);

	CU_ASSERT(bo_dm_parse_line("0 2048", &l, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "'0 2048'") != NULL);
	CU_ASSERT(bo_dm_parse_line("x 2048 linear /dev/loop0 0", &l, &err) == -EINVAL);
	CU_ASSERT(bo_dm_parse_line("0 0 linear /dev/loop0 0", &l, &err) == -EINVAL);
	CU_ASSERT(bo_dm_parse_line("0 -5 linear /dev/loop0 0", &l, &err) == -EINVAL);
}

/* Lay out @n entries the way the DM_LIST_VERSIONS ioctl does: 8-byte aligned, next offsets. */
static struct dm_versions *canned_versions(const char *const *names, const uint32_t (*v)[3],
					   size_t n)
{
	char *buf = calloc(1, 4096);
	size_t off = 0, prev = 0;

	for (size_t i = 0; i < n; i++) {
		struct dm_versions *e = (struct dm_versions *) (buf + off);

		e->version[0] = v[i][0];
		e->version[1] = v[i][1];
		e->version[2] = v[i][2];
		strcpy(e->name, names[i]);
		if (i)
			((struct dm_versions *) (buf + prev))->next = (uint32_t) (off - prev);
		prev = off;
		off += (sizeof(*e) + strlen(names[i]) + 1 + 7) & ~(size_t) 7;
	}
	return (struct dm_versions *) buf;
}

static void test_versions(void)
{
	static const char *const names[] = {"log-writes", "flakey", "snapshot", "linear"};
	static const uint32_t v[][3] = {{1, 1, 0}, {1, 5, 0}, {1, 16, 0}, {1, 4, 0}};
	struct dm_versions *list = canned_versions(names, v, 4);
	struct bo_dm_target_version *out = NULL;
	const struct bo_dm_target_version *fl;
	struct bo_dm_version a = {1, 5, 0}, b = {1, 4, 9}, c = {2, 0, 0}, d = {1, 5, 1};
	size_t n = 0;

	CU_ASSERT_FATAL(bo_dm_versions_from_list(list, &out, &n) == 0);
	CU_ASSERT(n == 4);
	CU_ASSERT_STRING_EQUAL(out[0].name, "log-writes");
	CU_ASSERT_STRING_EQUAL(out[3].name, "linear");
	fl = bo_dm_find_target(out, n, "flakey");
	CU_ASSERT_FATAL(fl != NULL);
	CU_ASSERT(fl->version.major == 1 && fl->version.minor == 5 && fl->version.patch == 0);
	CU_ASSERT(bo_dm_find_target(out, n, "thin") == NULL);
	CU_ASSERT(bo_dm_find_target(out, n, "flake") == NULL);
	free(out);
	free(list);

	CU_ASSERT(bo_dm_version_cmp(&a, &a) == 0);
	CU_ASSERT(bo_dm_version_cmp(&a, &b) > 0);
	CU_ASSERT(bo_dm_version_cmp(&b, &a) < 0);
	CU_ASSERT(bo_dm_version_cmp(&a, &c) < 0);
	CU_ASSERT(bo_dm_version_cmp(&a, &d) < 0);
}

/* Lay out device names the way DM_LIST_DEVICES does (dev 0 alone means "no devices"). */
static struct dm_names *canned_names(const char *const *names, size_t n)
{
	char *buf = calloc(1, 4096);
	size_t off = 0, prev = 0;

	for (size_t i = 0; i < n; i++) {
		struct dm_names *e = (struct dm_names *) (buf + off);

		e->dev = 0xfd00 + i;
		strcpy(e->name, names[i]);
		if (i)
			((struct dm_names *) (buf + prev))->next = (uint32_t) (off - prev);
		prev = off;
		off += (sizeof(*e) + strlen(names[i]) + 1 + 7) & ~(size_t) 7;
	}
	return (struct dm_names *) buf;
}

static void test_names_list(void)
{
	static const char *const names[] = {"blackout-r1-lw", "vg0-root", "blackout-r10-lw",
					    "blackout-r1-flakey"};
	struct dm_names *list = canned_names(names, 4), *empty = canned_names(NULL, 0);
	char **out = NULL;
	struct bo_err err = {0};

	/* The trailing '-' keeps run r10's devices out of run r1's list. */
	CU_ASSERT_FATAL(bo_dm_names_from_list(list, "blackout-r1-", &out) == 0);
	CU_ASSERT_FATAL(out[0] != NULL && out[1] != NULL);
	CU_ASSERT_STRING_EQUAL(out[0], "blackout-r1-lw");
	CU_ASSERT_STRING_EQUAL(out[1], "blackout-r1-flakey");
	CU_ASSERT(out[2] == NULL);
	bo_dm_list_free(out);

	CU_ASSERT_FATAL(bo_dm_names_from_list(empty, "blackout-", &out) == 0);
	CU_ASSERT(out[0] == NULL);
	bo_dm_list_free(out);
	free(list);
	free(empty);

	CU_ASSERT(bo_dm_list("", &out, &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "empty prefix") != NULL);
}

static void test_refused_before_libdm(void)
{
	struct bo_dm_info info;
	struct bo_err err = {0};
	char longname[200];

	/* Bad names and malformed tables are errors of their own, device-mapper or not. */
	CU_ASSERT(bo_dm_remove("a/b", &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "dm remove: 'a/b' is not a device-mapper name") != NULL);
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CU_ASSERT(bo_dm_info(longname, &info, &err) == -EINVAL);
	CU_ASSERT(bo_dm_suspend("", 0, &err) == -EINVAL);
	CU_ASSERT(bo_dm_create("blackout-r1-lw", NULL, "0 2048", &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "dm table for 'blackout-r1-lw': table line '0 2048'") != NULL);
	CU_ASSERT(bo_dm_create("blackout-r1-lw", NULL, "\n  \n", &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "empty table") != NULL);
	CU_ASSERT(bo_dm_load("blackout-r1-lw", "0 8 zero\nx 8 zero", &err) == -EINVAL);
	CU_ASSERT(strstr(err.msg, "table line 'x 8 zero'") != NULL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"device names and uuids carry the run id", test_names},
		{"device node path", test_device_path},
		{"table lines split into start, length, type, params", test_parse_line},
		{"target version list walk and compare", test_versions},
		{"device name list walk filters by prefix", test_names_list},
		{"bad names and tables are refused before libdm is asked",
		 test_refused_before_libdm},
		{NULL, NULL},
	};

	return bo_test_run("dm", tests);
}
