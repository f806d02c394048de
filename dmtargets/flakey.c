// SPDX-License-Identifier: GPL-2.0-or-later
#include "dmtargets/flakey.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "dmtargets/target.h"
#include "harness/base/macro.h"

#define TARGET "flakey"

/*
 * Per feature: the first flakey version that has it, and for the features Linux 6.5 added
 * without bumping the version (commits "dm flakey: add an "error_reads" option" and
 * "dm flakey: introduce random_read_corrupt and random_write_corrupt options"), the feature
 * arguments of a trial table that only loads where the feature exists.
 */
static const struct {
	const char *name;
	struct bo_dm_version min;
	const char *probe_args;
} features[BO_FLAKEY_NR_FEATURES] = {
	[BO_FLAKEY_DROP_WRITES] = {"drop_writes", {1, 2, 0}, NULL},
	[BO_FLAKEY_ERROR_WRITES] = {"error_writes", {1, 5, 0}, NULL},
	[BO_FLAKEY_ERROR_READS] = {"error_reads", {1, 5, 0}, "1 error_reads"},
	[BO_FLAKEY_CORRUPT_BIO_BYTE] = {"corrupt_bio_byte", {1, 2, 0}, NULL},
	[BO_FLAKEY_RANDOM_READ_CORRUPT] = {"random_read_corrupt",
					   {1, 5, 0},
					   "2 random_read_corrupt 0"},
	[BO_FLAKEY_RANDOM_WRITE_CORRUPT] = {"random_write_corrupt",
					    {1, 5, 0},
					    "2 random_write_corrupt 0"},
};

const char *bo_flakey_feature_name(enum bo_flakey_feature f)
{
	return (unsigned) f < BO_FLAKEY_NR_FEATURES ? features[f].name : "?";
}

int bo_flakey_caps_from_versions(const struct bo_dm_target_version *v, size_t n,
				 struct bo_flakey_caps *ret, struct bo_err *err)
{
	const struct bo_dm_target_version *fl = bo_dm_find_target(v, n, TARGET);
	struct bo_flakey_caps caps = {0};

	if (!fl)
		return bo_err_set(
			err, ENOENT,
			"the kernel has no flakey target loaded (dm-flakey module missing?)");
	caps.version = fl->version;
	for (int f = 0; f < BO_FLAKEY_NR_FEATURES; f++)
		caps.has[f] = !features[f].probe_args &&
			      bo_dm_version_cmp(&caps.version, &features[f].min) >= 0;
	*ret = caps;
	return 0;
}

int bo_flakey_probe(const char *runid, const char *dev, struct bo_flakey_caps *ret,
		    struct bo_err *err)
{
	struct bo_dm_target_version *versions = NULL;
	char name[BO_DM_NAME_MAX], uuid[BO_DM_UUID_MAX];
	_cleanup_free_ char *base = NULL;
	struct bo_flakey_caps caps;
	struct bo_err rm_err = {0};
	size_t nv = 0;
	int r;

	r = bo_target_check_dev(TARGET, "device", dev, err);
	if (r < 0)
		return r;
	r = bo_dm_name(runid, "flakeyprobe", name, uuid, err);
	if (r < 0)
		return r;
	/* 8 sectors: aligned to any logical block size up to 4 KiB. */
	r = bo_target_format(&base, err, TARGET, "0 8 " TARGET " %s 0 1 0", dev);
	if (r < 0)
		return r;
	r = bo_dm_create(name, uuid, NULL, err);
	if (r < 0)
		return bo_err_prefix(err, "flakey probe");
	r = bo_dm_load(name, base, err);
	if (r < 0) {
		bo_err_prefix(err, "flakey probe: the baseline table without features failed, so "
				   "no feature can be probed");
		goto out;
	}
	/* Only now is the version known for sure: loading a flakey table is what makes the
	 * kernel load dm-flakey (dm_get_target_type() -> request_module()). */
	r = bo_dm_target_versions(&versions, &nv, err);
	if (r >= 0)
		r = bo_flakey_caps_from_versions(versions, nv, &caps, err);
	free(versions);
	if (r < 0)
		goto out;
	for (int f = 0; f < BO_FLAKEY_NR_FEATURES; f++) {
		_cleanup_free_ char *trial = NULL;
		struct bo_err trial_err = {0};

		if (!features[f].probe_args ||
		    bo_dm_version_cmp(&caps.version, &features[f].min) < 0)
			continue;
		r = bo_target_format(&trial, err, TARGET, "%s %s", base, features[f].probe_args);
		if (r < 0)
			goto out;
		r = bo_dm_load(name, trial, &trial_err);
		if (r < 0 && r != -EINVAL) {
			bo_err_set(err, -r, "flakey probe of '%s': %s", features[f].name,
				   bo_err_str(&trial_err));
			goto out;
		}
		caps.has[f] = r == 0;
		bo_debug(BO_DBG_DM, "flakey %u.%u.%u: %s %s", caps.version.major,
			 caps.version.minor, caps.version.patch, features[f].name,
			 r == 0 ? "supported" : "refused");
		r = 0;
	}
	caps.probed = true;
out:
	if (bo_dm_remove(name, &rm_err) < 0 && r == 0)
		r = bo_err_set(err, rm_err.errnum, "flakey probe: removing the scratch device: %s",
			       bo_err_str(&rm_err));
	if (r == 0)
		*ret = caps;
	return r;
}

/* -EOPNOTSUPP unless @caps has feature @f; the message says why not, naming the kernel. */
static int need(const struct bo_flakey_caps *caps, enum bo_flakey_feature f, struct bo_err *err)
{
	const struct bo_dm_version *v = &caps->version;
	struct utsname u;
	char kernel[sizeof(u.release) + 8] = "this kernel";

	if (caps->has[f])
		return 0;
	if (uname(&u) == 0)
		snprintf(kernel, sizeof(kernel), "Linux %s", u.release);
	if (bo_dm_version_cmp(v, &features[f].min) < 0)
		return bo_err_set(err, EOPNOTSUPP,
				  "%s: flakey %" PRIu32 ".%" PRIu32 ".%" PRIu32 " does not support "
				  "feature '%s' (it needs flakey %" PRIu32 ".%" PRIu32 ".%" PRIu32
				  " or later)",
				  kernel, v->major, v->minor, v->patch, features[f].name,
				  features[f].min.major, features[f].min.minor,
				  features[f].min.patch);
	if (!caps->probed)
		return bo_err_set(err, EOPNOTSUPP,
				  "%s: flakey %" PRIu32 ".%" PRIu32 ".%" PRIu32
				  " may or may not support "
				  "feature '%s' (Linux 6.5 added it without changing the version); "
				  "refusing it because the running kernel was not probed",
				  kernel, v->major, v->minor, v->patch, features[f].name);
	return bo_err_set(err, EOPNOTSUPP,
			  "%s: flakey %" PRIu32 ".%" PRIu32 ".%" PRIu32 " does not support "
			  "feature '%s' (a trial table with it was refused; it needs Linux 6.5 or "
			  "later: blackout kernel fetch 6.12, then --kernel-release 6.12)",
			  kernel, v->major, v->minor, v->patch, features[f].name);
}

int bo_flakey_check(const struct bo_flakey *f, const struct bo_flakey_caps *caps,
		    struct bo_err *err)
{
	bool corrupt_w = f->corrupt_bio_byte && f->corrupt_direction == 'w';
	bool corrupt_r = f->corrupt_bio_byte && f->corrupt_direction == 'r';
	int r;

	if (!caps)
		return bo_err_set(err, EINVAL,
				  TARGET " table: no target capabilities given "
					 "(probe the kernel, do not guess)");
	r = bo_target_check_dev(TARGET, "device", f->dev, err);
	if (r < 0)
		return r;
	if ((uint64_t) f->up_interval + f->down_interval == 0)
		return bo_err_set(err, EINVAL, TARGET " table: up + down interval is zero");
	if ((uint64_t) f->up_interval + f->down_interval > UINT32_MAX)
		return bo_err_set(err, EINVAL,
				  TARGET " table: up %" PRIu32 " + down %" PRIu32 " overflows",
				  f->up_interval, f->down_interval);
	if (f->drop_writes && f->error_writes)
		return bo_err_set(err, EINVAL,
				  TARGET " table: drop_writes conflicts with error_writes");
	if ((f->drop_writes || f->error_writes) && (corrupt_w || f->random_write_corrupt))
		return bo_err_set(err, EINVAL,
				  TARGET " table: %s conflicts with corrupting writes "
					 "(corrupt_bio_byte ... w, random_write_corrupt)",
				  f->drop_writes ? "drop_writes" : "error_writes");
	if (f->error_reads && (corrupt_r || f->random_read_corrupt))
		return bo_err_set(err, EINVAL,
				  TARGET " table: error_reads conflicts with corrupting reads "
					 "(corrupt_bio_byte ... r, random_read_corrupt)");
	if (f->corrupt_bio_byte && f->corrupt_nth_byte == 0)
		return bo_err_set(err, EINVAL,
				  TARGET " table: corrupt_bio_byte counts bytes from 1, not 0");
	if (f->corrupt_bio_byte && !corrupt_r && !corrupt_w)
		return bo_err_set(err, EINVAL,
				  TARGET " table: corrupt_bio_byte direction must be 'r' or 'w'");
	if (f->random_read_corrupt > BO_FLAKEY_PROBABILITY_BASE ||
	    f->random_write_corrupt > BO_FLAKEY_PROBABILITY_BASE)
		return bo_err_set(err, EINVAL,
				  TARGET " table: random corruption probability above %u (100%%)",
				  BO_FLAKEY_PROBABILITY_BASE);

	if (f->drop_writes && (r = need(caps, BO_FLAKEY_DROP_WRITES, err)) < 0)
		return r;
	if (f->error_writes && (r = need(caps, BO_FLAKEY_ERROR_WRITES, err)) < 0)
		return r;
	if (f->error_reads && (r = need(caps, BO_FLAKEY_ERROR_READS, err)) < 0)
		return r;
	if (f->corrupt_bio_byte && (r = need(caps, BO_FLAKEY_CORRUPT_BIO_BYTE, err)) < 0)
		return r;
	if (f->random_read_corrupt && (r = need(caps, BO_FLAKEY_RANDOM_READ_CORRUPT, err)) < 0)
		return r;
	if (f->random_write_corrupt && (r = need(caps, BO_FLAKEY_RANDOM_WRITE_CORRUPT, err)) < 0)
		return r;
	return 0;
}

int bo_flakey_table(const struct bo_flakey *f, uint64_t sectors, const struct bo_flakey_caps *caps,
		    char **ret, struct bo_err *err)
{
	char feat[256] = "";
	unsigned nargs = 0;
	size_t used = 0;
	int r;

	if (sectors == 0)
		return bo_err_set(err, EINVAL, TARGET " table: length must be > 0 sectors");
	r = bo_flakey_check(f, caps, err);
	if (r < 0)
		return r;
	/* In the order flakey_status() renders them, so a table reads back the same. */
	if (f->error_reads) {
		used += (size_t) snprintf(feat + used, sizeof(feat) - used, " error_reads");
		nargs += 1;
	}
	if (f->drop_writes || f->error_writes) {
		used += (size_t) snprintf(feat + used, sizeof(feat) - used, " %s",
					  f->drop_writes ? "drop_writes" : "error_writes");
		nargs += 1;
	}
	if (f->corrupt_bio_byte) {
		used += (size_t) snprintf(feat + used, sizeof(feat) - used,
					  " corrupt_bio_byte %" PRIu32 " %c %u %" PRIu32,
					  f->corrupt_nth_byte, f->corrupt_direction,
					  (unsigned) f->corrupt_value, f->corrupt_flags);
		nargs += 5;
	}
	if (f->random_read_corrupt) {
		used += (size_t) snprintf(feat + used, sizeof(feat) - used,
					  " random_read_corrupt %" PRIu32, f->random_read_corrupt);
		nargs += 2;
	}
	if (f->random_write_corrupt) {
		used += (size_t) snprintf(feat + used, sizeof(feat) - used,
					  " random_write_corrupt %" PRIu32,
					  f->random_write_corrupt);
		nargs += 2;
	}
	if (nargs == 0)
		return bo_target_format(
			ret, err, TARGET,
			"0 %" PRIu64 " " TARGET " %s %" PRIu64 " %" PRIu32 " %" PRIu32, sectors,
			f->dev, f->offset, f->up_interval, f->down_interval);
	return bo_target_format(
		ret, err, TARGET,
		"0 %" PRIu64 " " TARGET " %s %" PRIu64 " %" PRIu32 " %" PRIu32 " %u%s", sectors,
		f->dev, f->offset, f->up_interval, f->down_interval, nargs, feat);
}

static bool next_u32(const char **p, uint32_t *ret)
{
	uint64_t v;

	if (!bo_target_next_u64(p, &v) || v > UINT32_MAX)
		return false;
	*ret = (uint32_t) v;
	return true;
}

/* Parse one feature at *@p into @f; returns how many arguments it took, or 0 if unknown. */
static unsigned parse_feature(const char **p, const char *word, struct bo_flakey *f)
{
	char dir[4];
	uint32_t v;

	bool *flag = !strcmp(word, "error_reads")    ? &f->error_reads
		     : !strcmp(word, "drop_writes")  ? &f->drop_writes
		     : !strcmp(word, "error_writes") ? &f->error_writes
						     : NULL;

	if (flag) {
		*flag = true;
		return 1;
	}
	if (!strcmp(word, "random_read_corrupt"))
		return next_u32(p, &f->random_read_corrupt) ? 2 : 0;
	if (!strcmp(word, "random_write_corrupt"))
		return next_u32(p, &f->random_write_corrupt) ? 2 : 0;
	if (strcmp(word, "corrupt_bio_byte") != 0)
		return 0;
	if (!next_u32(p, &f->corrupt_nth_byte) || !bo_target_next_word(p, dir, sizeof(dir)) ||
	    (strcmp(dir, "r") != 0 && strcmp(dir, "w") != 0) || !next_u32(p, &v) || v > 255 ||
	    !next_u32(p, &f->corrupt_flags))
		return 0;
	f->corrupt_bio_byte = true;
	f->corrupt_direction = dir[0];
	f->corrupt_value = (uint8_t) v;
	return 5;
}

int bo_flakey_table_parse(const char *params, struct bo_flakey *ret, char *dev, size_t devlen,
			  struct bo_err *err)
{
	struct bo_flakey f = {0};
	const char *p = params;
	uint32_t nargs = 0;
	char word[32];

	if (devlen < 2 || !bo_target_next_word(&p, dev, devlen) ||
	    !bo_target_next_u64(&p, &f.offset) || !next_u32(&p, &f.up_interval) ||
	    !next_u32(&p, &f.down_interval))
		return bo_err_set(err, EPROTO,
				  TARGET " table '%s': expected '<dev> <offset> <up> <down>'",
				  params);
	if (next_u32(&p, &nargs)) {
		while (nargs > 0) {
			unsigned took;

			if (!bo_target_next_word(&p, word, sizeof(word)))
				return bo_err_set(err, EPROTO,
						  TARGET " table '%s': %" PRIu32 " feature "
							 "argument(s) missing",
						  params, nargs);
			took = parse_feature(&p, word, &f);
			if (took == 0 || took > nargs)
				return bo_err_set(err, EPROTO,
						  TARGET " table '%s': cannot read feature '%s'",
						  params, word);
			nargs -= took;
		}
	}
	if (!bo_target_at_end(p))
		return bo_err_set(err, EPROTO, TARGET " table '%s': unexpected '%s' at the end",
				  params, p + strspn(p, " \t\n"));
	f.dev = dev;
	*ret = f;
	return 0;
}

int bo_flakey_live(const char *name, struct bo_flakey *ret, char *dev, size_t devlen,
		   struct bo_err *err)
{
	char params[512];
	int r;

	r = bo_dm_table_one(name, TARGET, params, sizeof(params), err);
	if (r < 0)
		return r;
	r = bo_flakey_table_parse(params, ret, dev, devlen, err);
	if (r < 0)
		return bo_err_prefix(err, "device '%s'", name);
	return 0;
}
