// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shell scripts of `blackout export` (export.h, docs/export.md): run.sh, dm-flakey's power
 * cut right after the acknowledgement, and cache.sh, the ops recorded through dm-log-writes and
 * the log replayed to the acknowledgement as a volatile cache leaves it. Both are POSIX sh that
 * busybox runs too; they share their first lines, the device they take, and their end: the same
 * ops run with no cut on a filesystem of their own, and repro's check of what was promised.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/macro.h"
#include "harness/base/sanitize.h"
#include "harness/cli/export.h"
#include "harness/dev/fstab.h"

/* A script's first lines: what it is (@name) and of which state. */
static void head(FILE *f, const char *name, const struct bo_export_script *s)
{
	fprintf(f, "#!/bin/sh\n# %s [DEVICE] — %s\n#\n", name, s->what);
}

/* How the state is recovered, in words, for the scripts' comments. */
static const char *recovery(const struct bo_export_script *s)
{
	return *s->repair ? ": fsck's repair, then the mount" : ": the mount";
}

/* What every script holds first, after its own comment: the filesystem's commands, the
 * shell's helpers, repro (built when it is not), and the device in $dev. */
static int prelude(FILE *f, const struct bo_export_script *s)
{
	_cleanup_free_ char *mo = bo_shell_quote(s->sc->mount_options);

	fprintf(f,
		"# DEVICE must hold nothing (or a filesystem these scripts made): anything else "
		"is\n"
		"# refused, and so is a device in use. Needs dmsetup, losetup, util-linux's "
		"blkid,\n"
		"# blockdev and %s.\n",
		bo_fs_desc(s->sc->fs)->mkfs);
	fprintf(f,
		"# PAUSE_US=N pauses N microseconds before each op, as blackout's control channel\n"
		"# does: a loss that is a race may need it, and several runs.\n"
		"# Exit status: 0 kept, 1 lost (one line says what), 2 could not run.\n"
		"set -u\n"
		"PAUSE_US=${PAUSE_US:-0}\n"
		"FS=%s\n"
		"SIZE=%" PRIu64 "\n"
		"LABEL=" BO_EXPORT_LABEL "\n",
		bo_fs_name(s->sc->fs), s->sc->size);
	if (!mo)
		return -ENOMEM;
	fprintf(f, "MOUNT_OPTIONS=%s\n", mo);
	fprintf(f, "mkfs_it() { %s; }\nrepair_it() { %s; }\n", s->mkfs,
		*s->repair ? s->repair : ":");
	fputs("here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
	      "say() { echo \"${0##*/}: $*\" >&2; }\n"
	      "die() { say \"$*\"; exit 2; }\n"
	      "work=$(mktemp -d /tmp/bo-repro.XXXXXX) || die 'no temporary directory'\n"
	      "dm= loops= mnts=\n"
	      "cleanup() {\n"
	      "\tfor m in $mnts; do umount \"$m\" 2>/dev/null; done\n"
	      "\t[ -z \"$dm\" ] || dmsetup remove \"$dm\" 2>/dev/null\n"
	      "\tfor l in $loops; do losetup -d \"$l\" 2>/dev/null; done\n"
	      "\trm -rf \"$work\"\n"
	      "}\n"
	      "trap cleanup EXIT\n"
	      "trap 'exit 2' INT TERM HUP\n"
	      "# no udev to wait for (a VM, a container): libdevmapper makes the nodes itself\n"
	      "[ -d /run/udev ] || export DM_DISABLE_UDEV=1\n"
	      "# newloop FILE: LOOP, a loop device over FILE\n"
	      "newloop() {\n"
	      "\tLOOP=$(losetup -f) || die 'no free loop device'\n"
	      "\t[ -b \"$LOOP\" ] || mknod \"$LOOP\" b 7 \"${LOOP#/dev/loop}\" || die \"no node "
	      "$LOOP\"\n"
	      "\tlosetup \"$LOOP\" \"$1\" || die \"losetup $LOOP $1 failed\"\n"
	      "\tloops=\"$loops $LOOP\"\n"
	      "}\n"
	      "mount_it() { mount -t \"$FS\" ${MOUNT_OPTIONS:+-o \"$MOUNT_OPTIONS\"} \"$1\" \"$2\" "
	      "&& mnts=\"$2 $mnts\"; }\n"
	      "if [ -x \"$here/repro\" ]; then\n"
	      "\trepro=$here/repro\n"
	      "else\n"
	      "\tcc -O2 -o \"$work/repro\" \"$here/repro.c\" || die 'cannot build repro.c (cc)'\n"
	      "\trepro=$work/repro\n"
	      "fi\n"
	      "if [ $# -ge 1 ]; then\n"
	      "\tdev=$1\n"
	      "\t[ -b \"$dev\" ] || die \"$dev: no block device\"\n"
	      "\treal=$(readlink -f \"$dev\")\n"
	      "\tif grep -q -e \"^$dev \" -e \"^$real \" /proc/mounts; then die \"$dev is mounted: "
	      "refused\"; fi\n"
	      "\tholders=/sys/class/block/${real##*/}/holders\n"
	      "\tif [ -d \"$holders\" ] && [ -n \"$(ls \"$holders\")\" ]; then\n"
	      "\t\tdie \"$dev is in use (held by $(ls \"$holders\" | tr '\\n' ' ')): refused\"\n"
	      "\tfi\n"
	      "\t# what is on it, probed (util-linux's blkid: busybox's cannot say)\n"
	      "\tfound=$(blkid -p -o udev \"$dev\" 2>&1)\n"
	      "\tcase $? in\n"
	      "\t0) echo \"$found\" | grep -qix \"ID_FS_LABEL=$LABEL\" ||\n"
	      "\t\tdie \"$dev holds something these scripts did not make ($(echo $found)): "
	      "refused\" ;;\n"
	      "\t2) ;; # nothing\n"
	      "\t*) die \"cannot tell what $dev holds (blkid -p: $found): refused\" ;;\n"
	      "\tesac\n"
	      "else\n"
	      "\ttruncate -s \"$SIZE\" \"$work/disk.img\" || die 'no room for the disk image'\n"
	      "\tnewloop \"$work/disk.img\"\n"
	      "\tdev=$LOOP\n"
	      "fi\n",
	      f);
	return 0;
}

/* What every script ends with: the expected tree, and the check. */
static void tail(FILE *f)
{
	fputs("# the same ops with no cut, on a filesystem of their own\n"
	      "truncate -s \"$SIZE\" \"$work/expected.img\" || die 'no room for the second image'\n"
	      "newloop \"$work/expected.img\"\n"
	      "mkfs_it \"$LOOP\" >\"$work/mkfs2.out\" 2>&1 || die 'mkfs of the second filesystem "
	      "failed'\n"
	      "mount_it \"$LOOP\" \"$work/expected\" || die 'mount of the second filesystem "
	      "failed'\n"
	      "\"$repro\" run \"$work/expected\" >/dev/null || die 'repro run without a cut "
	      "failed'\n"
	      "\"$repro\" check \"$work/mnt\" \"$work/expected\"\n",
	      f);
}

int bo_export_run_sh(FILE *f, const struct bo_export_script *s)
{
	head(f, "run.sh", s);
	fprintf(f,
		"# Makes %s on DEVICE through dm-flakey (without DEVICE: on a loop device over a "
		"file\n"
		"# of its own), runs repro there and cuts the power right after op %" PRIu64 "'s\n"
		"# acknowledgement: dm-flakey drops every write from then on, as a disk that lost "
		"its\n"
		"# power. Then it mounts the filesystem again (its recovery%s), runs the same ops "
		"with\n"
		"# no cut on a second filesystem of its own, and compares what op %" PRIu64
		" promised.\n"
		"# A write that completed before the acknowledgement stays: a loss that needs the\n"
		"# device's volatile cache is cache.sh's.\n",
		bo_fs_name(s->sc->fs), s->upto, recovery(s), s->upto);
	if (prelude(f, s) < 0)
		return -ENOMEM;
	fputs("sectors=$(blockdev --getsz \"$dev\") || die \"blockdev --getsz $dev failed\"\n"
	      "dm=bo-repro-$$\n"
	      "up=\"0 $sectors flakey $dev 0 180 0\"\n"
	      "down=\"0 $sectors flakey $dev 0 0 180 1 drop_writes\"\n"
	      "dmsetup create \"$dm\" --table \"$up\" || { dm=; die 'dmsetup create (dm-flakey) "
	      "failed'; }\n"
	      "fdev=/dev/mapper/$dm\n"
	      "mkfs_it \"$fdev\" >\"$work/mkfs.out\" 2>&1 || die \"mkfs failed: $(tail -n 3 "
	      "\"$work/mkfs.out\")\"\n"
	      "mkdir \"$work/mnt\" \"$work/expected\"\n"
	      "mount_it \"$fdev\" \"$work/mnt\" || die 'mount failed'\n"
	      "cut=\"dmsetup suspend --nolockfs --noflush $dm && dmsetup load $dm --table '$down' "
	      "&& dmsetup resume $dm\"\n"
	      "REPRO_PAUSE_US=$PAUSE_US \"$repro\" run \"$work/mnt\" \"$cut\" || die 'repro run "
	      "failed'\n"
	      "umount \"$work/mnt\" && mnts= || die 'umount after the power cut failed'\n"
	      "dmsetup load \"$dm\" --table \"$up\" && dmsetup suspend \"$dm\" && dmsetup resume "
	      "\"$dm\" ||\n"
	      "\tdie 'dm-flakey would not take writes again'\n"
	      "repair_it \"$fdev\" >\"$work/repair.out\" 2>&1\n"
	      "if ! mount_it \"$fdev\" \"$work/mnt\"; then\n"
	      "\techo \"LOST: the filesystem does not mount after the power cut\"\n"
	      "\texit 1\n"
	      "fi\n",
	      f);
	tail(f);
	return 0;
}

int bo_export_cache_sh(FILE *f, const struct bo_export_script *s)
{
	head(f, "cache.sh", s);
	fprintf(f,
		"# For a loss that needs the device's volatile cache: writes that completed before "
		"the\n"
		"# acknowledgement, with no FLUSH (or FUA) to make them durable. Makes %s on "
		"DEVICE\n"
		"# through dm-log-writes (without DEVICE: a loop device over a file of its own), "
		"runs\n"
		"# repro there and marks the log right after op %" PRIu64
		"'s acknowledgement. Then\n"
		"# replay (replay.c) writes onto a fresh device what a power cut at that mark "
		"leaves:\n"
		"# the log up to the mark without the plain writes after its last FLUSH. The\n"
		"# filesystem is mounted from it (its recovery%s) and compared with the same ops\n"
		"# run with no cut. fstests' src/log-writes/replay-log reads the same log.\n",
		bo_fs_name(s->sc->fs), s->upto, recovery(s));
	if (prelude(f, s) < 0)
		return -ENOMEM;
	fputs("if [ -x \"$here/replay\" ]; then\n"
	      "\treplay=$here/replay\n"
	      "else\n"
	      "\tcc -O2 -o \"$work/replay\" \"$here/replay.c\" || die 'cannot build replay.c "
	      "(cc)'\n"
	      "\treplay=$work/replay\n"
	      "fi\n"
	      "sectors=$(blockdev --getsz \"$dev\") || die \"blockdev --getsz $dev failed\"\n"
	      "# the log: every write's data and a block for each entry\n"
	      "truncate -s $((3 * SIZE)) \"$work/log.img\" || die 'no room for the log'\n"
	      "newloop \"$work/log.img\"\n"
	      "logdev=$LOOP\n"
	      "dm=bo-repro-$$\n"
	      "dmsetup create \"$dm\" --table \"0 $sectors log-writes $dev $logdev\" ||\n"
	      "\t{ dm=; die 'dmsetup create (dm-log-writes) failed'; }\n"
	      "ldev=/dev/mapper/$dm\n"
	      "mkfs_it \"$ldev\" >\"$work/mkfs.out\" 2>&1 || die \"mkfs failed: $(tail -n 3 "
	      "\"$work/mkfs.out\")\"\n"
	      "mkdir \"$work/mnt\" \"$work/expected\"\n"
	      "mount_it \"$ldev\" \"$work/mnt\" || die 'mount failed'\n"
	      "REPRO_PAUSE_US=$PAUSE_US \"$repro\" run \"$work/mnt\" \"dmsetup message $dm 0 mark "
	      "acked\" || die 'repro run "
	      "failed'\n"
	      "umount \"$work/mnt\" && mnts= || die 'umount failed'\n"
	      "dmsetup remove \"$dm\" && dm= || die 'dmsetup remove (dm-log-writes) failed'\n"
	      "truncate -s \"$SIZE\" \"$work/state.img\" || die 'no room for the state'\n"
	      "newloop \"$work/state.img\"\n"
	      "state=$LOOP\n"
	      "\"$replay\" \"$logdev\" \"$state\" acked >&2 || die 'replay failed'\n"
	      "repair_it \"$state\" >\"$work/repair.out\" 2>&1\n"
	      "if ! mount_it \"$state\" \"$work/mnt\"; then\n"
	      "\techo \"LOST: the filesystem does not mount after the power cut\"\n"
	      "\texit 1\n"
	      "fi\n",
	      f);
	tail(f);
	return 0;
}
