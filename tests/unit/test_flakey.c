// SPDX-License-Identifier: GPL-2.0-or-later
/* dm-flakey: tables for every feature, refusal by version and probe, live table read-back. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "dmtargets/flakey.h"

#define DEV "/dev/mapper/blackout-r1-lw"

/* Capabilities as derived from a canned version list with flakey at @maj.@min.@pat. */
static struct bo_flakey_caps caps_at(uint32_t maj, uint32_t min, uint32_t pat)
{
	struct bo_dm_target_version v[2] = {
		{"linear", {1, 4, 0}},
		{"flakey", {maj, min, pat}},
	};
	struct bo_flakey_caps caps;
	struct bo_err err = {0};

	CU_ASSERT_FATAL(bo_flakey_caps_from_versions(v, 2, &caps, &err) == 0);
	return caps;
}

/* Debian 12's 6.1 kernel: flakey 1.5.0, probed, without the Linux 6.5 features. */
static struct bo_flakey_caps caps_61(void)
{
	struct bo_flakey_caps c = caps_at(1, 5, 0);

	c.probed = true;
	return c;
}

/* A 6.5+ kernel: also flakey 1.5.0, probed, with them. */
static struct bo_flakey_caps caps_65(void)
{
	struct bo_flakey_caps c = caps_61();

	c.has[BO_FLAKEY_ERROR_READS] = true;
	c.has[BO_FLAKEY_RANDOM_READ_CORRUPT] = true;
	c.has[BO_FLAKEY_RANDOM_WRITE_CORRUPT] = true;
	return c;
}

static void expect_table(const struct bo_flakey *f, const struct bo_flakey_caps *caps,
			 const char *want)
{
	struct bo_err err = {0};
	char *t = NULL;

	CU_ASSERT(bo_flakey_table(f, 2048, caps, &t, &err) == 0);
	if (!t || strcmp(t, want) != 0)
		fprintf(stderr, "\n  got  '%s' (%s)\n  want '%s'\n", t ? t : "(null)", err.msg,
			want);
	CU_ASSERT(t && !strcmp(t, want));
	free(t);
}

static void test_tables(void)
{
	struct bo_flakey_caps c61 = caps_61(), c65 = caps_65();
	struct bo_flakey up = {.dev = DEV, .up_interval = 1};
	struct bo_flakey drop = {.dev = DEV, .down_interval = 1, .drop_writes = true};
	struct bo_flakey errw = {.dev = DEV, .down_interval = 1, .error_writes = true};
	struct bo_flakey cycle = {.dev = DEV, .offset = 64, .up_interval = 5, .down_interval = 3};
	struct bo_flakey corrupt = {
		.dev = DEV,
		.down_interval = 1,
		.corrupt_bio_byte = true,
		.corrupt_nth_byte = 224,
		.corrupt_direction = 'w',
		.corrupt_value = 0,
		.corrupt_flags = 32,
	};
	struct bo_flakey drop_corrupt_r = {
		.dev = DEV,
		.down_interval = 1,
		.drop_writes = true,
		.corrupt_bio_byte = true,
		.corrupt_nth_byte = 32,
		.corrupt_direction = 'r',
		.corrupt_value = 1,
	};
	struct bo_flakey errr = {.dev = DEV, .down_interval = 1, .error_reads = true};
	struct bo_flakey rnd = {.dev = DEV, .down_interval = 1, .random_read_corrupt = 100000000};
	struct bo_flakey all = {
		.dev = DEV,
		.down_interval = 1,
		.error_reads = true,
		.corrupt_bio_byte = true,
		.corrupt_nth_byte = 1,
		.corrupt_direction = 'w',
		.corrupt_value = 255,
		.random_write_corrupt = 5,
	};

	/* The tables of VM-NOTES.md and fstests' common/dmflakey. */
	expect_table(&up, &c61, "0 2048 flakey " DEV " 0 1 0");
	expect_table(&drop, &c61, "0 2048 flakey " DEV " 0 0 1 1 drop_writes");
	expect_table(&errw, &c61, "0 2048 flakey " DEV " 0 0 1 1 error_writes");
	expect_table(&cycle, &c61, "0 2048 flakey " DEV " 64 5 3");
	/* Documentation/admin-guide/device-mapper/dm-flakey.rst's examples. */
	expect_table(&corrupt, &c61, "0 2048 flakey " DEV " 0 0 1 5 corrupt_bio_byte 224 w 0 32");
	expect_table(&drop_corrupt_r, &c61,
		     "0 2048 flakey " DEV " 0 0 1 6 drop_writes corrupt_bio_byte 32 r 1 0");
	/* The Linux 6.5 features, once a probe has shown them. */
	expect_table(&errr, &c65, "0 2048 flakey " DEV " 0 0 1 1 error_reads");
	expect_table(&rnd, &c65, "0 2048 flakey " DEV " 0 0 1 2 random_read_corrupt 100000000");
	expect_table(&all, &c65,
		     "0 2048 flakey " DEV
		     " 0 0 1 8 error_reads corrupt_bio_byte 1 w 255 0 random_write_corrupt 5");
}

static void expect_refused(const struct bo_flakey *f, const struct bo_flakey_caps *caps, int errnum,
			   const char *msg)
{
	struct bo_err err = {0};
	char *t = NULL;

	CU_ASSERT(bo_flakey_table(f, 2048, caps, &t, &err) == -errnum);
	CU_ASSERT(t == NULL);
	if (!strstr(err.msg, msg))
		fprintf(stderr, "\n  message '%s'\n  lacks   '%s'\n", err.msg, msg);
	CU_ASSERT(strstr(err.msg, msg) != NULL);
}

static void test_refused_by_version(void)
{
	struct bo_flakey_caps c61 = caps_61(), c131 = caps_at(1, 3, 1), c110 = caps_at(1, 1, 0);
	struct bo_flakey_caps unprobed = caps_at(1, 5, 0);
	struct bo_flakey errw = {.dev = DEV, .down_interval = 1, .error_writes = true};
	struct bo_flakey drop = {.dev = DEV, .down_interval = 1, .drop_writes = true};
	struct bo_flakey errr = {.dev = DEV, .down_interval = 1, .error_reads = true};
	struct bo_flakey rndw = {.dev = DEV, .down_interval = 1, .random_write_corrupt = 1};
	struct bo_flakey rndr = {.dev = DEV, .down_interval = 1, .random_read_corrupt = 1};

	/* Linux 4.9's flakey 1.3.1 has drop_writes but not error_writes. */
	expect_refused(&errw, &c131, EOPNOTSUPP,
		       "flakey 1.3.1 does not support feature 'error_writes' (it needs flakey "
		       "1.5.0 or later)");
	expect_refused(&drop, &c110, EOPNOTSUPP,
		       "flakey 1.1.0 does not support feature 'drop_writes'");
	CU_ASSERT(c131.has[BO_FLAKEY_DROP_WRITES] && c131.has[BO_FLAKEY_CORRUPT_BIO_BYTE]);

	/* 1.5.0 cannot say whether it has the 6.5 features: refused unless probed. */
	expect_refused(&errr, &unprobed, EOPNOTSUPP,
		       "flakey 1.5.0 may or may not support feature 'error_reads'");
	expect_refused(&rndw, &unprobed, EOPNOTSUPP, "not probed");
	/* Probed on 6.1: they are really absent; the message names the kernel and the way out. */
	expect_refused(&errr, &c61, EOPNOTSUPP,
		       "flakey 1.5.0 does not support feature 'error_reads' (a trial table");
	expect_refused(&errr, &c61, EOPNOTSUPP, "Linux ");
	expect_refused(&errr, &c61, EOPNOTSUPP, "--kernel-release 6.12");
	expect_refused(&rndr, &c61, EOPNOTSUPP, "'random_read_corrupt'");
	expect_refused(&rndw, &c61, EOPNOTSUPP, "'random_write_corrupt'");
	/* Even a probe cannot make a feature appear in a version older than its own. */
	c131.probed = true;
	expect_refused(&errr, &c131, EOPNOTSUPP, "needs flakey 1.5.0 or later");
	/* Without capabilities nothing is guessed. */
	expect_refused(&drop, NULL, EINVAL, "do not guess");
}

static void test_caps(void)
{
	struct bo_dm_target_version none[1] = {{"linear", {1, 4, 0}}};
	struct bo_flakey_caps c = caps_at(1, 5, 0), c120 = caps_at(1, 2, 0);
	struct bo_err err = {0};

	CU_ASSERT(c.has[BO_FLAKEY_DROP_WRITES] && c.has[BO_FLAKEY_ERROR_WRITES] &&
		  c.has[BO_FLAKEY_CORRUPT_BIO_BYTE]);
	CU_ASSERT(!c.has[BO_FLAKEY_ERROR_READS] && !c.has[BO_FLAKEY_RANDOM_READ_CORRUPT] &&
		  !c.has[BO_FLAKEY_RANDOM_WRITE_CORRUPT]);
	CU_ASSERT(!c.probed);
	CU_ASSERT(c120.has[BO_FLAKEY_DROP_WRITES] && !c120.has[BO_FLAKEY_ERROR_WRITES]);
	CU_ASSERT(bo_flakey_caps_from_versions(none, 1, &c, &err) == -ENOENT);
	CU_ASSERT(strstr(err.msg, "no flakey target") != NULL);
	CU_ASSERT_STRING_EQUAL(bo_flakey_feature_name(BO_FLAKEY_RANDOM_READ_CORRUPT),
			       "random_read_corrupt");
}

static void test_kernel_rules(void)
{
	struct bo_flakey_caps c65 = caps_65();
	struct bo_flakey f;

	f = (struct bo_flakey){.dev = DEV};
	expect_refused(&f, &c65, EINVAL, "up + down interval is zero");
	f = (struct bo_flakey){.dev = DEV, .up_interval = UINT32_MAX, .down_interval = 1};
	expect_refused(&f, &c65, EINVAL, "overflows");
	f = (struct bo_flakey){
		.dev = DEV, .down_interval = 1, .drop_writes = true, .error_writes = true};
	expect_refused(&f, &c65, EINVAL, "drop_writes conflicts with error_writes");
	f = (struct bo_flakey){.dev = DEV,
			       .down_interval = 1,
			       .drop_writes = true,
			       .corrupt_bio_byte = true,
			       .corrupt_nth_byte = 1,
			       .corrupt_direction = 'w'};
	expect_refused(&f, &c65, EINVAL, "drop_writes conflicts with corrupting writes");
	f = (struct bo_flakey){
		.dev = DEV, .down_interval = 1, .error_writes = true, .random_write_corrupt = 7};
	expect_refused(&f, &c65, EINVAL, "error_writes conflicts with corrupting writes");
	f = (struct bo_flakey){
		.dev = DEV, .down_interval = 1, .error_reads = true, .random_read_corrupt = 7};
	expect_refused(&f, &c65, EINVAL, "error_reads conflicts with corrupting reads");
	f = (struct bo_flakey){.dev = DEV,
			       .down_interval = 1,
			       .error_reads = true,
			       .corrupt_bio_byte = true,
			       .corrupt_nth_byte = 3,
			       .corrupt_direction = 'r'};
	expect_refused(&f, &c65, EINVAL, "error_reads conflicts with corrupting reads");
	f = (struct bo_flakey){
		.dev = DEV, .down_interval = 1, .corrupt_bio_byte = true, .corrupt_direction = 'r'};
	expect_refused(&f, &c65, EINVAL, "counts bytes from 1");
	f = (struct bo_flakey){.dev = DEV,
			       .down_interval = 1,
			       .corrupt_bio_byte = true,
			       .corrupt_nth_byte = 1,
			       .corrupt_direction = 'x'};
	expect_refused(&f, &c65, EINVAL, "direction must be 'r' or 'w'");
	f = (struct bo_flakey){.dev = DEV,
			       .down_interval = 1,
			       .random_read_corrupt = BO_FLAKEY_PROBABILITY_BASE + 1};
	expect_refused(&f, &c65, EINVAL, "probability above");
	f = (struct bo_flakey){.dev = "/dev/my disk", .up_interval = 1};
	expect_refused(&f, &c65, EINVAL, "contains whitespace");
	f = (struct bo_flakey){.up_interval = 1};
	expect_refused(&f, &c65, EINVAL, "no device");

	/* Exactly 100 % is allowed, and read and write corruption can be combined. */
	f = (struct bo_flakey){.dev = DEV,
			       .down_interval = 1,
			       .random_read_corrupt = BO_FLAKEY_PROBABILITY_BASE,
			       .random_write_corrupt = BO_FLAKEY_PROBABILITY_BASE};
	expect_table(&f, &c65,
		     "0 2048 flakey " DEV " 0 0 1 4 random_read_corrupt 1000000000 "
		     "random_write_corrupt 1000000000");
}

static void test_live_table(void)
{
	struct bo_flakey f;
	struct bo_err err = {0};
	char dev[32];

	/* Linux 6.1 renders a trailing blank and always the feature count. */
	CU_ASSERT_FATAL(bo_flakey_table_parse("253:0 0 0 1 1 drop_writes ", &f, dev, sizeof(dev),
					      &err) == 0);
	CU_ASSERT_STRING_EQUAL(f.dev, "253:0");
	CU_ASSERT(f.up_interval == 0 && f.down_interval == 1 && f.drop_writes);
	CU_ASSERT(!f.error_writes && !f.error_reads && !f.corrupt_bio_byte);

	CU_ASSERT_FATAL(bo_flakey_table_parse("7:0 0 1 0 0 ", &f, dev, sizeof(dev), &err) == 0);
	CU_ASSERT(f.up_interval == 1 && f.down_interval == 0 && !f.drop_writes);

	/* Linux 6.5+ without features shows what "fail all I/O" became. */
	CU_ASSERT_FATAL(bo_flakey_table_parse("7:0 0 0 1 2 error_reads error_writes", &f, dev,
					      sizeof(dev), &err) == 0);
	CU_ASSERT(f.error_reads && f.error_writes && !f.drop_writes);

	CU_ASSERT_FATAL(
		bo_flakey_table_parse("7:16 64 5 3 6 drop_writes corrupt_bio_byte 32 r 1 0 ", &f,
				      dev, sizeof(dev), &err) == 0);
	CU_ASSERT(f.offset == 64 && f.up_interval == 5 && f.down_interval == 3);
	CU_ASSERT(f.drop_writes && f.corrupt_bio_byte && f.corrupt_nth_byte == 32);
	CU_ASSERT(f.corrupt_direction == 'r' && f.corrupt_value == 1 && f.corrupt_flags == 0);

	CU_ASSERT_FATAL(bo_flakey_table_parse("7:0 0 0 1 4 random_read_corrupt 10 "
					      "random_write_corrupt 20",
					      &f, dev, sizeof(dev), &err) == 0);
	CU_ASSERT(f.random_read_corrupt == 10 && f.random_write_corrupt == 20);

	CU_ASSERT(bo_flakey_table_parse("7:0 0 1", &f, dev, sizeof(dev), &err) == -EPROTO);
	CU_ASSERT(bo_flakey_table_parse("7:0 0 1 0 1 bogus", &f, dev, sizeof(dev), &err) ==
		  -EPROTO);
	CU_ASSERT(strstr(err.msg, "cannot read feature 'bogus'") != NULL);
	CU_ASSERT(bo_flakey_table_parse("7:0 0 1 0 3 drop_writes", &f, dev, sizeof(dev), &err) ==
		  -EPROTO);
	CU_ASSERT(bo_flakey_table_parse("7:0 0 1 0 5 corrupt_bio_byte 1 x 0 0", &f, dev,
					sizeof(dev), &err) == -EPROTO);
	CU_ASSERT(bo_flakey_table_parse("7:0 0 1 0 5 corrupt_bio_byte 1 r 256 0", &f, dev,
					sizeof(dev), &err) == -EPROTO);
	CU_ASSERT(bo_flakey_table_parse("7:0 0 1 0 1 drop_writes junk", &f, dev, sizeof(dev),
					&err) == -EPROTO);
	CU_ASSERT(strstr(err.msg, "unexpected 'junk'") != NULL);
	CU_ASSERT(bo_flakey_table_parse("7:0 0 1 0 1 drop_writes", &f, dev, 3, &err) == -EPROTO);
}

static void test_round_trip(void)
{
	struct bo_flakey_caps c65 = caps_65();
	struct bo_flakey in = {
		.dev = "7:0",
		.offset = 8,
		.up_interval = 2,
		.down_interval = 9,
		.error_reads = true,
		.drop_writes = true,
		.random_read_corrupt = 0,
	};
	struct bo_flakey out;
	struct bo_err err = {0};
	char *t = NULL, dev[16];

	CU_ASSERT_FATAL(bo_flakey_table(&in, 100, &c65, &t, &err) == 0);
	/* The kernel renders the parameters after "<start> <length> flakey ". */
	CU_ASSERT_FATAL(bo_flakey_table_parse(t + strlen("0 100 flakey "), &out, dev, sizeof(dev),
					      &err) == 0);
	CU_ASSERT_STRING_EQUAL(out.dev, "7:0");
	CU_ASSERT(out.offset == 8 && out.up_interval == 2 && out.down_interval == 9);
	CU_ASSERT(out.error_reads && out.drop_writes && !out.error_writes);
	free(t);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"tables for every feature", test_tables},
		{"features refused by version, with the reason", test_refused_by_version},
		{"capabilities from the kernel's version list", test_caps},
		{"the kernel's own argument rules", test_kernel_rules},
		{"live table read-back", test_live_table},
		{"built table reads back the same", test_round_trip},
		{NULL, NULL},
	};

	return bo_test_run("flakey", tests);
}
