/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flakey.h — the dm-flakey target (drivers/md/dm-flakey.c): table builder for every feature,
 * feature support by target version and by probing, and a parser of the live table.
 *
 *   0 <sectors> flakey <dev> <offset> <up> <down> [<#args> <feature>...]
 *
 * The device is up for <up> seconds, then down for <down> seconds, and so on. While down:
 * drop_writes completes writes without doing them (a power cut), error_writes fails them,
 * error_reads fails reads, corrupt_bio_byte sets one byte of matching bios, and
 * random_{read,write}_corrupt set a random byte with a probability in units of 1e-9.
 * Without any feature, all I/O fails while down.
 *
 * Which kernel has which feature (read from the kernel sources, not guessed):
 *   drop_writes, corrupt_bio_byte   flakey 1.2.0 (Linux 3.3) and later
 *   error_writes                    flakey 1.5.0 (Linux 4.14); absent in 1.3.1 (Linux 4.9)
 *   error_reads, random_read_corrupt, random_write_corrupt
 *                                   Linux 6.5, WITHOUT a version bump: flakey still says
 *                                   1.5.0, exactly like Linux 6.1's flakey without them.
 * The version therefore cannot tell whether the last three exist. They are accepted only after
 * bo_flakey_probe() has asked the running kernel by loading a trial table (as fstests'
 * _require_flakey_with_error_writes does); otherwise they are refused.
 *
 * flakey's status line (STATUSTYPE_INFO) is always empty, so there is no status to parse; the
 * live table (DM_DEVICE_TABLE) is what tells which features are in effect, and
 * bo_flakey_table_parse() reads it back, e.g. to confirm a power cut really went live.
 */
#ifndef BO_FLAKEY_H
#define BO_FLAKEY_H

#include <stdbool.h>
#include <stdint.h>

#include "dmtargets/dm.h"
#include "harness/base/util.h"

/* random_*_corrupt probabilities are in units of 1 / BO_FLAKEY_PROBABILITY_BASE. */
#define BO_FLAKEY_PROBABILITY_BASE 1000000000u

/* The features flakey may or may not have. */
enum bo_flakey_feature {
	BO_FLAKEY_DROP_WRITES,
	BO_FLAKEY_ERROR_WRITES,
	BO_FLAKEY_ERROR_READS,
	BO_FLAKEY_CORRUPT_BIO_BYTE,
	BO_FLAKEY_RANDOM_READ_CORRUPT,
	BO_FLAKEY_RANDOM_WRITE_CORRUPT,
	BO_FLAKEY_NR_FEATURES,
};

/* A flakey configuration. Zero-initialise, then set what is wanted. */
struct bo_flakey {
	const char *dev;      /* the device below */
	uint64_t offset;      /* start sector on @dev */
	uint32_t up_interval; /* seconds up; up + down must be > 0 */
	uint32_t down_interval;
	bool drop_writes; /* conflicts with error_writes and with corrupting writes */
	bool error_writes;
	bool error_reads;	   /* conflicts with corrupting reads */
	bool corrupt_bio_byte;	   /* then the four fields below apply */
	uint32_t corrupt_nth_byte; /* 1 is the first byte of the bio */
	char corrupt_direction;	   /* 'r' or 'w' */
	uint8_t corrupt_value;
	uint32_t corrupt_flags;	      /* bi_opf bits a bio must have; 0 for all bios */
	uint32_t random_read_corrupt; /* 0 off, else 1..BO_FLAKEY_PROBABILITY_BASE */
	uint32_t random_write_corrupt;
};

/* What the running flakey can do. */
struct bo_flakey_caps {
	struct bo_dm_version version;
	/* Whether bo_flakey_probe() asked the kernel about the features the version does not
	 * decide; without it those features are refused. */
	bool probed;
	bool has[BO_FLAKEY_NR_FEATURES];
};

/* The feature's name as it appears in a table ("drop_writes", ...). */
const char *bo_flakey_feature_name(enum bo_flakey_feature f);

/*
 * Capabilities of flakey as listed in @v (the kernel's target versions): -ENOENT when flakey
 * is not loaded. Features the version cannot decide are left unsupported (probed = false).
 */
_must_check_ int bo_flakey_caps_from_versions(const struct bo_dm_target_version *v, size_t n,
					      struct bo_flakey_caps *ret, struct bo_err *err);

/*
 * Capabilities of the running flakey: its version, plus a trial load of a table with each
 * feature the version does not decide, on a scratch device blackout-@runid-flakeyprobe stacked
 * on @dev (any block device of at least 4 KiB; nothing is written to it). A baseline table
 * without features must load first, so a refused trial means "unsupported", not "the probe
 * is broken". The scratch device is removed before returning.
 */
_must_check_ int bo_flakey_probe(const char *runid, const char *dev, struct bo_flakey_caps *ret,
				 struct bo_err *err);

/*
 * Check @f against the kernel's rules (up + down > 0, no conflicting features, value ranges)
 * and against @caps: a feature the running flakey does not have is -EOPNOTSUPP with a message
 * naming the feature and the version.
 */
_must_check_ int bo_flakey_check(const struct bo_flakey *f, const struct bo_flakey_caps *caps,
				 struct bo_err *err);

/* bo_flakey_check(), then build the table for @sectors sectors into *@ret (free()). */
_must_check_ int bo_flakey_table(const struct bo_flakey *f, uint64_t sectors,
				 const struct bo_flakey_caps *caps, char **ret, struct bo_err *err);

/*
 * Parse flakey table parameters as the kernel renders them (flakey_status(), STATUSTYPE_TABLE:
 * "<dev> <offset> <up> <down> [<#args> <feature>...]", the device as major:minor) into @ret.
 * The device is copied into @dev (@devlen bytes) and ret->dev points to it.
 */
_must_check_ int bo_flakey_table_parse(const char *params, struct bo_flakey *ret, char *dev,
				       size_t devlen, struct bo_err *err);

/* Read back the live table of flakey device @name and parse it, as above. */
_must_check_ int bo_flakey_live(const char *name, struct bo_flakey *ret, char *dev, size_t devlen,
				struct bo_err *err);

#endif
