// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_judge.c — what the host judges of a check before a results directory exists or a VM
 * boots (check.h, bo_check_judge()): the log, every option the guest would only fail on
 * later, against the log (its entries, its first cut, the device its writes need), and the
 * filesystem it holds when nothing names one.
 */
#include "harness/cli/check.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/cli/guest_side.h"
#include "harness/dev/fs.h"
#include "harness/dev/fsdetect.h"
#include "harness/dev/fstool.h"
#include "harness/log/cut.h"
#include "harness/log/layout.h"
#include "harness/log/log.h"
#include "harness/replay/replay.h"
#include "harness/states/classify.h"
#include "harness/states/crashgen.h"
#include "harness/states/cutsel.h"
#include "vm/vm.h"

/* One judging: the check's options, its scenario (or NULL), the log and its first cut. */
struct judge {
	const struct bo_check_args *a;
	const struct bo_scenario *sc;
	const char *path;
	struct bo_log *log;
	uint64_t first; /* entries before the filesystem exists: --from, else the 'mkfs' mark */
	bool usage;	/* the error is an option's (exit 2), not the log's or the scenario's */
};

/* Whether @id reads as a state id: a plain name, and for a cluster's, "@" and node names
 * joined by "+" after it. */
static bool state_id_plain(const char *id)
{
	const char *at = strchr(id, '@');
	char base[BO_CRASH_ID_MAX], name[BO_CLUSTER_NAME_MAX + 1];

	if (!at)
		return bo_name_plain(id);
	if ((size_t) (at - id) >= sizeof(base))
		return false;
	snprintf(base, sizeof(base), "%.*s", (int) (at - id), id);
	if (!bo_name_plain(base))
		return false;
	for (const char *p = at + 1;; p++) {
		size_t n = strcspn(p, "+");

		if (n >= sizeof(name))
			return false;
		snprintf(name, sizeof(name), "%.*s", (int) n, p);
		if (!bo_cluster_name_ok(name))
			return false;
		p += n;
		if (!*p)
			return true;
	}
}

/*
 * What the options say on their own: the filesystem, the cut policy, the state id, the
 * expected class, the mount options, the checker (the guest finds what the host can see: a
 * program that is not there fails here, not as a checker-error in every state).
 */
static int options(struct judge *j, struct bo_err *err)
{
	const struct bo_check_args *a = j->a;
	enum bo_recovery rec;
	enum bo_class cls;
	enum bo_fs fs;

	j->usage = true;
	if (a->fs && bo_fs_from_name(a->fs, &fs) < 0)
		return bo_err_set(err, EINVAL, "--fs '%s': not a filesystem blackout checks",
				  a->fs);
	if (a->cuts && bo_cutsel_validate(a->cuts, err) < 0)
		return bo_err_prefix(err, "--cuts '%s'", a->cuts);
	if (a->state && !state_id_plain(a->state))
		return bo_err_set(err, EINVAL,
				  "--state '%s': not a state id (c<N>, c<N>-d<A,B>, "
				  "c<N>-t<E>:<S>, and a cluster's c<N>@<node>+<node>)",
				  a->state);
	if (a->expect && bo_class_from_name(a->expect, &cls) < 0)
		return bo_err_set(err, EINVAL, "--expect '%s': not a class", a->expect);
	if (a->mopt && bo_mount_options_problem(a->mopt))
		return bo_err_set(err, EINVAL, "--mount-options '%s': %s", a->mopt,
				  bo_mount_options_problem(a->mopt));
	if (a->checker && bo_guest_command_ok(a->checker, bo_libexec_dir(), err) < 0)
		return bo_err_prefix(err, "--checker '%s'", a->checker);
	if (a->recovery && bo_recovery_from_name(a->recovery, &rec) < 0)
		return bo_err_set(err, EINVAL, "--recovery '%s': auto, mount or fsck", a->recovery);
	j->usage = false;
	return 0;
}

/*
 * The device the check replays the log onto: --size, else the scenario's, else the extent of
 * the log's writes; raised to its devices' layout as the guest raises it. Never smaller than
 * what the log writes (its writes would land past the image), a whole number of its blocks,
 * and no larger than a VM's base image may be.
 */
static int device(struct judge *j, struct bo_err *err)
{
	const uint64_t max = BO_VM_MAX_BASE_SIZE, ss = bo_log_sectorsize(j->log);
	const uint64_t layout = bo_layout_sectors(bo_log_layout(j->log)) * 512;
	const uint64_t extent = bo_log_extent(j->log);
	uint64_t size = 0, need = extent > layout ? extent : layout;

	if (need > max)
		return bo_err_set(err, EFBIG,
				  "log '%s' writes up to byte %" PRIu64 ", past the %" PRIu64
				  " GiB a check's device may be (a VM's base image): not a log "
				  "blackout can check",
				  j->path, need, max >> 30);
	j->usage = j->a->size != NULL;
	if (j->a->size && bo_parse_u64(j->a->size, &size) == 0) {
		if (size > max)
			return bo_err_set(err, ERANGE,
					  "--size %s: more than the %" PRIu64
					  " GiB a check's device may be (a VM's base image)",
					  j->a->size, max >> 30);
		if (size < extent && layout < extent)
			return bo_err_set(err, ERANGE,
					  "--size %s: the log writes up to byte %" PRIu64
					  ": its device holds at least that",
					  j->a->size, extent);
		if (size % ss)
			return bo_err_set(err, EINVAL,
					  "--size %s: not a whole number of the log's %" PRIu64
					  "-byte blocks",
					  j->a->size, ss);
	} else if (!j->a->size && j->sc && j->sc->size < extent && layout < extent) {
		return bo_err_set(err, EINVAL,
				  "scenario '%s': [device] size %" PRIu64
				  ", but log '%s' writes up to byte %" PRIu64,
				  j->sc->origin, j->sc->size, j->path, extent);
	}
	j->usage = false;
	return 0;
}

/* Where the filesystem begins: --from, else the log's 'mkfs' mark; a log without one must
 * say where (never "from the start" by guess). Errors here are the options'. */
static int first_cut(struct judge *j, struct bo_err *err)
{
	j->usage = true;
	if (j->a->from)
		return bo_cut_resolve(j->log, j->a->from, &j->first, err) < 0
			       ? bo_err_prefix(err, "--from")
			       : 0;
	if (bo_cut_resolve(j->log, "mark:mkfs", &j->first, NULL) < 0)
		return bo_err_set(
			err, EINVAL,
			"log '%s' has no 'mkfs' mark: say from which cut on the filesystem "
			"exists with --from CUT (e.g. --from start)",
			j->path);
	return 0;
}

/*
 * The state of --state ID, or ID~rK (cut after K entries of ID's recovery, --recovery-log): ID
 * within the log as the guest parses it, under the persona it is checked with, and K within
 * the recovery log. Errors here are the options', but a recovery log that does not open.
 */
static int state(struct judge *j, struct bo_err *err)
{
	const struct bo_check_args *a = j->a;
	struct bo_crashgen_opts go = {.persona = j->sc ? j->sc->persona : BO_PERSONA_HONEST,
				      .floor = j->first};
	const char *rk = a->state ? strstr(a->state, "~r") : NULL;
	const char *at = a->state ? strchr(a->state, '@') : NULL;
	struct bo_log *rl = NULL;
	struct bo_crash_state cs;
	char id[BO_CRASH_ID_MAX];
	uint64_t k;
	int r;

	j->usage = true;
	if (a->recovery_log && !rk)
		return bo_err_set(err, EINVAL,
				  "--recovery-log goes with --state ID~rK: the state cut after K "
				  "entries of state ID's recovery");
	if (!a->state)
		return 0;
	if (rk && (!a->recovery_log || bo_parse_u64(rk + 2, &k) < 0 ||
		   (size_t) (rk - a->state) >= sizeof(id)))
		return bo_err_set(err, EINVAL,
				  "--state '%s': a state cut inside a recovery needs its recovery "
				  "log (--recovery-log) and a number after ~r",
				  a->state);
	/* "<id>@<set>": a survivor set of the scenario's cluster. */
	if (at) {
		uint32_t set;

		if (!j->sc || !j->sc->cluster)
			return bo_err_set(
				err, EINVAL,
				"--state '%s': a survivor set after '@' is a cluster's, and "
				"this check has none (a --scenario with [node NAME] "
				"sections)",
				a->state);
		snprintf(id, sizeof(id), "%.*s", (int) strcspn(at + 1, "~"), at + 1);
		if (bo_cluster_set_parse(j->sc->cluster, id, &set) < 0)
			return bo_err_set(err, EINVAL,
					  "--state '%s': after '@', the names of nodes of the "
					  "cluster joined by '+'",
					  a->state);
	}
	snprintf(id, sizeof(id), "%.*s",
		 at   ? (int) (at - a->state)
		 : rk ? (int) (rk - a->state)
		      : (int) strlen(a->state),
		 a->state);
	if (a->persona && bo_persona_parse(a->persona, &go.persona) < 0)
		return bo_err_set(err, EINVAL, "--persona '%s': one of " BO_PERSONA_NAMES,
				  a->persona);
	r = bo_crash_state_parse(j->log, &go, id, &cs, err);
	if (r < 0)
		return bo_err_prefix(err, "--state");
	if (!rk)
		return 0;
	j->usage = false;
	r = bo_log_open(a->recovery_log, 0, &rl, err);
	if (r < 0)
		return bo_err_prefix(err, "--recovery-log");
	j->usage = true;
	if (k > bo_log_count(rl))
		r = bo_err_set(err, ERANGE,
			       "--state '%s': its recovery log '%s' has %" PRIu64
			       " entries, not %" PRIu64,
			       a->state, a->recovery_log, bo_log_count(rl), k);
	bo_log_free(rl);
	return r;
}

/* The cut policy (--cuts, else the scenario's) against the log: entries it names must be the
 * log's. A single state (--state) is checked alone, whatever the policy. */
static int cuts(struct judge *j, struct bo_err *err)
{
	const char *policy = j->a->cuts ? j->a->cuts : j->sc ? j->sc->cuts_spec : NULL;
	int r;

	if (j->a->state || !policy)
		return 0;
	r = bo_cutsel_judge(j->log, policy, err);
	j->usage = j->a->cuts != NULL;
	if (r < 0 && j->usage)
		return bo_err_prefix(err, "--cuts '%s'", j->a->cuts);
	if (r < 0)
		return bo_err_prefix(err, "scenario '%s': [check] cuts '%s'", j->sc->origin,
				     policy);
	return 0;
}

/*
 * The filesystem of the log, as a user holding a log from a bug report expects it found: the
 * image replayed (into a temporary file, removed; its free space judged first) up to the
 * entry after its 'mkfs' mark, or to its end without one, and probed by libblkid. Its name
 * into @buf; what it found and where is said on stderr.
 */
static int detect_fs(struct judge *j, char *buf, size_t len, struct bo_err *err)
{
	struct bo_replay *rp = NULL;
	char tmp[] = "/var/tmp/blackout-detect-XXXXXX";
	const char *where = "its 'mkfs' mark";
	uint64_t at = 0, bytes = 0;
	struct bo_err e = {0};
	int fd, r;

	if (bo_log_find_mark(j->log, "mkfs", &at, NULL) == 0)
		at++;
	else
		at = bo_log_count(j->log), where = "its end (it has no 'mkfs' mark)";
	for (uint64_t n = 0; n < at; n++)
		bytes += bo_log_entry(j->log, n)->nr_sectors * bo_log_sectorsize(j->log);
	if (bytes > bo_log_extent(j->log))
		bytes = bo_log_extent(j->log);
	r = bo_space_check(tmp, bytes, "finding the log's filesystem", &e);
	fd = r < 0 ? -1 : mkstemp(tmp);
	if (r >= 0 && fd < 0)
		r = bo_err_set(&e, errno, "'%s': %s", tmp, strerror(errno));
	if (fd >= 0) {
		close(fd);
		r = bo_replay_new(j->log, tmp, 0, bo_log_min_device_size(j->log), &rp, &e);
		if (r >= 0)
			r = bo_replay_to(rp, at, &e);
		bo_replay_free(rp);
		if (r >= 0)
			r = bo_fs_detect(tmp, buf, len, &e);
		if (r == -ENODATA)
			bo_err_set(&e, ENODATA, "no filesystem signature in its image at %s",
				   where);
		else if (r == -ENOTUNIQ)
			bo_err_set(&e, ENOTUNIQ, "contradicting signatures in its image at %s",
				   where);
		unlink(tmp);
	}
	/* Only an image that says nothing (or two things) is the user's to settle with --fs. */
	j->usage = r == -ENODATA || r == -ENOTUNIQ;
	if (r < 0)
		return bo_err_set(err, e.errnum, "'%s': %s%s", j->path, bo_err_str(&e),
				  j->usage ? ": give --fs or --scenario" : "");
	fprintf(stderr, "blackout: check: the log holds %s (found at %s; --fs to say otherwise)\n",
		buf, where);
	return 0;
}

/*
 * --recovery fsck (or the scenario's) on a filesystem its repair does not recover: @fs_name,
 * the filesystem --fs names or the log holds, or NULL for the scenario's devices.
 */
static int recovery(struct judge *j, const char *fs_name, struct bo_err *err)
{
	enum bo_recovery rec = j->sc ? j->sc->recovery : BO_RECOVERY_AUTO;
	const char *why = NULL;
	char buf[256];
	enum bo_fs fs;

	if (j->a->recovery && bo_recovery_from_name(j->a->recovery, &rec) < 0)
		return 0; /* said by options() */
	if (rec != BO_RECOVERY_FSCK)
		return 0;
	if (fs_name && bo_fs_from_name(fs_name, &fs) == 0)
		why = bo_fs_recovery_problem(fs, rec, buf, sizeof(buf));
	else if (!fs_name && j->sc)
		why = bo_scenario_recovery_problem(j->sc, rec, buf, sizeof(buf));
	if (!why)
		return 0;
	j->usage = j->a->recovery != NULL;
	if (j->usage)
		return bo_err_set(err, EINVAL, "--recovery fsck: %s", why);
	return bo_err_set(err, EINVAL, "scenario '%s': [check] recovery fsck: %s", j->sc->origin,
			  why);
}

int bo_check_judge(const char *log, const struct bo_check_args *a, const struct bo_scenario *sc,
		   char *fs, size_t fs_len, bool *ret_usage, struct bo_err *err)
{
	/* In order: each step may need what the one before it found (the first cut). */
	static int (*const steps[])(struct judge *, struct bo_err *) = {device, first_cut, state,
									cuts};
	struct judge j = {.a = a, .sc = sc, .path = log};
	const char *fs_name = a ? a->fs : NULL;
	int r = a ? options(&j, err) : 0;

	if (r >= 0)
		r = bo_log_open(log, 0, &j.log, err);
	/* A log of no entries is a check that could not have failed. */
	if (r >= 0 && bo_log_count(j.log) == 0)
		r = bo_err_set(err, ENODATA, "log '%s' has no entries: nothing to check", log);
	for (size_t i = 0; r >= 0 && a && i < BO_ARRAY_SIZE(steps); i++) {
		j.usage = false;
		r = steps[i](&j, err);
	}
	/* Nothing names the filesystem: the log says what it holds, its devices or its image's
	 * signature. */
	if (r >= 0 && a && fs && !fs_name && !sc && !bo_log_layout(j.log)->n) {
		r = detect_fs(&j, fs, fs_len, err);
		fs_name = fs;
	}
	if (r >= 0 && a) {
		j.usage = false;
		r = recovery(&j, fs_name, err);
	}
	/* The scenario's checker, judged as --checker is. */
	if (r >= 0 && a && sc && !a->checker) {
		j.usage = false;
		r = bo_guest_checker_ok(sc, err);
	}
	bo_log_free(j.log);
	*ret_usage = r < 0 && j.usage;
	return r < 0 ? r : 0;
}
