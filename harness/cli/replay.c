// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout replay — replay a log onto a file or block device up to a cut point.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/base/input.h"
#include "harness/base/macro.h"
#include "harness/cli/cli.h"
#include "harness/cli/opts.h"
#include "harness/log/cut.h"
#include "harness/log/log.h"
#include "harness/replay/replay.h"

struct replay_args {
	const char *onto, *to, *from, *size;
	bool salvage;
};

/* A file's size is an off_t: past 2^63-1 it would be negative. */
static const char *size_problem(const char *val)
{
	uint64_t size;

	return bo_parse_u64_in(val, 0, INT64_MAX, &size) < 0 ? "not a number of bytes below 2^63"
							     : NULL;
}

#define A(field) offsetof(struct replay_args, field)

static const struct bo_opt replay_opts[] = {
	{"onto", "TARGET", A(onto), BO_OPT_HOST, NULL, NULL, "file or block device to write"},
	{"to", "CUT", A(to), BO_OPT_HOST, NULL, NULL, "where to stop"},
	{"from", "CUT", A(from), BO_OPT_HOST, NULL, NULL,
	 "TARGET already holds the state at CUT: continue from there\n"
	 "(default: start, i.e. TARGET holds the image before the log)"},
	{"size", "BYTES", A(size), BO_OPT_HOST, NULL, size_problem,
	 "extend a target file to at least BYTES first"},
	{"salvage", NULL, A(salvage), BO_OPT_HOST, NULL, NULL,
	 "read past the super block's entry count (see inspect --help)"},
};

static void help(void)
{
	puts("usage: blackout replay LOG --onto TARGET --to CUT [--from CUT] [--size BYTES]\n"
	     "                           [--salvage]\n\n"
	     "Apply the entries of LOG to TARGET until the cut CUT: the state of the disk had\n"
	     "the power gone at that point. TARGET is a regular file (created if missing) or a\n"
	     "block device of blackout's that nothing holds open, never a symlink. Discards are\n"
	     "written as zeroes.\n\n"
	     "Cuts:  start | end | entry:N (after entry N) | mark:NAME | flush:K | fua:K\n"
	     "       (K counts from 1). A mark that is not in the log is an error.\n");
	bo_opts_help(stdout, replay_opts, BO_ARRAY_SIZE(replay_opts));
	puts("  -h, --help       this text");
}

static int cmd_replay(int argc, char **argv)
{
	struct replay_args o = {.from = "start"};
	const struct bo_opt_set sets[] = {{replay_opts, BO_ARRAY_SIZE(replay_opts), &o}};
	const char *onto, *to, *from, *path;
	struct bo_replay *rp = NULL;
	struct bo_log *log = NULL;
	struct bo_err err = {0};
	uint64_t a, b, size = 0;
	_cleanup_close_ int fd = -1;
	bool created = false;
	int k, r, ret = BO_EXIT_HARNESS;

	k = bo_opts_parse("replay", sets, BO_ARRAY_SIZE(sets), BO_OPT_HOST, help, argc, argv);
	if (k <= 0)
		return k ? BO_EXIT_USAGE : BO_EXIT_OK;
	if (k + 1 != argc)
		return bo_cli_usage_error("replay", "expected exactly one LOG");
	if (!o.onto || !o.to)
		return bo_cli_usage_error("replay", "--onto and --to are required");
	/* Checked by size_problem(). */
	if (o.size && bo_parse_u64(o.size, &size) < 0)
		return BO_EXIT_USAGE;
	onto = o.onto;
	to = o.to;
	from = o.from;
	path = argv[k];

	if (bo_cli_log_open("replay", path, o.salvage ? BO_LOG_OPEN_SALVAGE : 0, &log, &err) < 0) {
		bo_cli_error("replay: %s", bo_err_str(&err));
		return BO_EXIT_HARNESS;
	}
	if (bo_cut_resolve(log, from, &a, &err) < 0 || bo_cut_resolve(log, to, &b, &err) < 0) {
		bo_cli_error("replay '%s': %s", path, bo_err_str(&err));
		/* A cut that does not parse is a usage error; one the log lacks is not. */
		if (err.errnum == EINVAL || err.errnum == EOVERFLOW)
			ret = BO_EXIT_USAGE;
		goto out;
	}
	if (b < a) {
		bo_cli_error("replay '%s': --to %s (after %" PRIu64 " entries) is before --from %s "
			     "(after %" PRIu64 " entries)",
			     path, to, b, from, a);
		goto out;
	}
	/* The target is opened once, never through a symlink, and judged on its descriptor:
	 * never the log itself, and a file must have room for what is written onto it
	 * (harness/base/input.h). What this replay made, it removes when it fails. */
	fd = bo_output_open_target(onto, &created, &err);
	if (fd < 0) {
		bo_cli_error("replay '%s': %s", path, bo_err_str(&err));
		goto out;
	}
	{
		struct stat sl, so;
		uint64_t bytes = 0, dev = size ? size : bo_log_min_device_size(log);

		if (fstat(bo_log_fd(log), &sl) < 0 || fstat(fd, &so) < 0) {
			bo_cli_error("replay '%s': %s", path, strerror(errno));
			goto out;
		}
		if ((sl.st_dev == so.st_dev && sl.st_ino == so.st_ino) ||
		    (S_ISBLK(sl.st_mode) && S_ISBLK(so.st_mode) && sl.st_rdev == so.st_rdev)) {
			bo_cli_error("replay '%s': --onto '%s' is the log itself: refusing to "
				     "overwrite it",
				     path, onto);
			goto out;
		}
		for (uint64_t n = a; n < b; n++)
			bytes += bo_log_entry(log, n)->nr_sectors * bo_log_sectorsize(log);
		if (dev && bytes > dev)
			bytes = dev;
		if (S_ISREG(so.st_mode) && bo_space_check_fd(fd, onto, bytes, "replay", &err) < 0) {
			bo_cli_error("replay '%s': %s", path, bo_err_str(&err));
			goto out;
		}
	}
	r = bo_replay_new_fd(log, BO_TAKE_FD(fd), onto, BO_REPLAY_MAP_LOG, size, &rp, &err);
	if (r < 0 || bo_replay_set_position(rp, a, &err) < 0 || bo_replay_to(rp, b, &err) < 0 ||
	    bo_replay_sync(rp, &err) < 0) {
		bo_cli_error("replay '%s': %s", path, bo_err_str(&err));
		goto out;
	}
	if (b == a)
		printf("nothing to replay: '%s' already holds the state at %s\n", onto, to);
	else
		printf("replayed entries %" PRIu64 "..%" PRIu64 " (%" PRIu64 " %s, %" PRIu64
		       " bytes) of '%s' onto '%s'\n",
		       a, b - 1, b - a, BO_PLURAL(b - a, "entry", "entries"), bo_replay_bytes(rp),
		       path, onto);
	ret = BO_EXIT_OK;
out:
	bo_replay_free(rp);
	bo_log_free(log);
	if (ret != BO_EXIT_OK && created && unlink(onto) < 0)
		bo_cli_warning("replay: removing '%s': %s", onto, strerror(errno));
	return ret;
}

const struct bo_cmd bo_cmd_replay = {"replay", cmd_replay,
				     "replay a log onto a file or device up to a cut point"};
