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

/* @text as shell comment lines of at most 92 columns, broken at blanks. */
static void comment(FILE *f, const char *text)
{
	while (*text) {
		size_t n = strlen(text), cut = n;

		if (n > 90) {
			for (cut = 90; cut > 0 && text[cut] != ' '; cut--)
				;
			if (!cut)
				cut = strcspn(text, " ");
		}
		fprintf(f, "# %.*s\n", (int) cut, text);
		text += cut;
		text += strspn(text, " ");
	}
}

/* run_ops CUT and check_it of repro: the ops up to the ack with CUT right after it, and the
 * same ops with no cut on a filesystem of their own, compared by repro's check. */
static void repro_ops(FILE *f)
{
	fputs("repro=$(built repro) || die 'cannot build repro.c (cc)'\n"
	      "mnt_ready() { :; }\n"
	      "run_ops() {\n"
	      "\tREPRO_PAUSE_US=$PAUSE_US \"$repro\" run \"$work/mnt\" \"$1\" || die 'repro run "
	      "failed'\n"
	      "}\n"
	      "check_it() {\n"
	      "\t# the same ops with no cut, on a filesystem of their own\n"
	      "\ttruncate -s \"$SIZE\" \"$work/expected.img\" || die 'no room for the second "
	      "image'\n"
	      "\tnewloop \"$work/expected.img\"\n"
	      "\tmkfs_it \"$LOOP\" >\"$work/mkfs2.out\" 2>&1 || die 'mkfs of the second filesystem "
	      "failed'\n"
	      "\tmount_it \"$LOOP\" \"$work/expected\" || die 'mount of the second filesystem "
	      "failed'\n"
	      "\t\"$repro\" run \"$work/expected\" >/dev/null || die 'repro run without a cut "
	      "failed'\n"
	      "\t\"$repro\" check \"$work/mnt\" \"$work/expected\"\n"
	      "}\n",
	      f);
}

/* run_ops CUT and check_it of a workload that speaks blackout's control channel: ctl (ctl.c)
 * stands in for blackout, runs CUT right after the ack and records what was issued and
 * acknowledged before it; the workload's own checker says what it sees after the recovery.
 * Both run in the mount as the scenario's user, with ctl as their `blackout ctl`. */
static int workload_ops(FILE *f, const struct bo_export_script *s)
{
	const struct bo_export_workload *w = s->workload;
	_cleanup_free_ char *user = bo_shell_quote(w->user ? w->user : "");

	if (!user)
		return -ENOMEM;
	fputs("ctl=$(built ctl) || die 'cannot build ctl.c (cc)'\n", f);
	for (size_t i = 0; w->needed[i]; i++)
		fprintf(f,
			"[ -e %s ] || die '%s is not here: the workload needs it (the scenario "
			"names it)'\n",
			w->needed[i], w->needed[i]);
	fprintf(f, "USER_NAME=%s\n", user);
	fputs("[ -z \"$USER_NAME\" ] || id \"$USER_NAME\" >/dev/null 2>&1 ||\n"
	      "\tdie \"no user $USER_NAME here: the workload and its checker run as it\"\n"
	      "# the workload's `blackout ctl` is ctl's client side\n"
	      "mkdir \"$work/bin\" && ln -s \"$ctl\" \"$work/bin/blackout\" && chmod 0755 "
	      "\"$work\" ||\n"
	      "\tdie 'cannot make the workload its blackout ctl'\n"
	      "export BO_FILES=\"$here/files\" PATH=\"$work/bin:$PATH\"\n"
	      "# as_user: util-linux's setpriv (busybox's cannot change the user)\n"
	      "setpriv=/usr/bin/setpriv\n"
	      "[ -x \"$setpriv\" ] || setpriv=setpriv\n"
	      "as_user() {\n"
	      "\t[ -n \"$USER_NAME\" ] || exec \"$@\"\n"
	      "\texec \"$setpriv\" --reuid=\"$(id -u \"$USER_NAME\")\" --regid=\"$(id -g "
	      "\"$USER_NAME\")\" --init-groups -- \"$@\"\n"
	      "}\n"
	      "# mnt_ready: the mount the workload's, as blackout gives it to its user\n"
	      "mnt_ready() { [ -z \"$USER_NAME\" ] || chown \"$USER_NAME:\" \"$work/mnt\"; }\n"
	      "# in_mnt SECONDS OUT ERR FUNCTION: FUNCTION (which execs its program) in the "
	      "mount,\n"
	      "# killed after SECONDS, and then whatever it left running there; its exit status.\n"
	      "in_mnt() {\n"
	      "\t(cd \"$work/mnt\" && \"$4\") >\"$2\" 2>\"$3\" &\n"
	      "\tpid=$!\n"
	      "\t(sleep \"$1\"; kill -KILL \"$pid\") >/dev/null 2>&1 &\n"
	      "\tdog=$!\n"
	      "\twait \"$pid\"\n"
	      "\tlrc=$?\n"
	      "\tkill \"$dog\" 2>/dev/null\n"
	      "\tfor p in /proc/[0-9]*; do\n"
	      "\t\tcase $(readlink \"$p/cwd\" 2>/dev/null) in \"$work/mnt\" | \"$work/mnt\"/*)\n"
	      "\t\t\tkill -KILL \"${p#/proc/}\" 2>/dev/null ;;\n"
	      "\t\tesac\n"
	      "\tdone\n"
	      "\treturn $lrc\n"
	      "}\n",
	      f);
	fprintf(f, "workload() { as_user %s; }\nchecker() { as_user %s; }\n", w->cmd, w->checker);
	fprintf(f,
		"export BLACKOUT_MNT=\"$work/mnt\" BLACKOUT_SEED=%" PRIu64
		" BLACKOUT_CTL=\"$work/ctl.sock\"\n"
		"export BLACKOUT_ISSUED=\"$work/issued\" BLACKOUT_ACKED=\"$work/acked\" "
		"BLACKOUT_STATE=export BLACKOUT_CUT=0\n"
		"run_ops() {\n"
		"\tCTL_PAUSE_US=$PAUSE_US \"$ctl\" serve \"$work/ctl.sock\" \"$work\" %" PRIu64
		" \"$1\" &\n"
		"\tctlpid=$!\n"
		"\ti=0\n"
		"\twhile [ ! -S \"$work/ctl.sock\" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + "
		"1)); "
		"done\n"
		"\t[ -S \"$work/ctl.sock\" ] && chmod 0666 \"$work/ctl.sock\" || die 'ctl serve "
		"did "
		"not start'\n"
		"\tin_mnt %u \"$work/workload.out\" \"$work/workload.out\" workload\n"
		"\trc=$?\n"
		"\tkill \"$ctlpid\"; wait \"$ctlpid\"; ctlpid=\n"
		"\t[ ! -e \"$work/cut-failed\" ] || die 'the power cut failed'\n"
		"\t[ -e \"$work/cut\" ] || die \"op %" PRIu64
		" was never acknowledged (the workload exited $rc): $(tail -n 3 "
		"\"$work/workload.out\")\"\n"
		"}\n",
		s->seed, s->upto, s->timeout ? s->timeout : 600, s->upto);
	fprintf(f,
		"check_it() {\n"
		"\ttouch \"$work/issued\" \"$work/acked\"\n"
		"\tin_mnt %u \"$work/check.out\" \"$work/check.err\" checker\n"
		"\trc=$?\n"
		"\tgrep -qx done \"$work/check.out\" || die \"the checker said no 'done' (exit "
		"$rc): "
		"$(tail -n 3 \"$work/check.err\")\"\n"
		"\t# every acknowledged op must be there: the first that is not is lost\n"
		"\tlost=$(awk 'NR == FNR { if ($1 == \"present\") seen[$2 + 0] = 1; next }\n"
		"\t\t!(($1 + 0) in seen) { print $1 + 0; exit }' \"$work/check.out\" "
		"\"$work/acked\")\n"
		"\tif [ -n \"$lost\" ]; then\n"
		"\t\techo \"LOST: op $lost's acknowledgement: the checker does not see it after "
		"the "
		"power cut right after op %" PRIu64 "'s\"\n"
		"\t\texit 1\n"
		"\tfi\n"
		"\tif [ \"$rc\" != 0 ]; then\n"
		"\t\techo \"LOST: the recovery failed: the checker exited $rc ($(grep -m1 '^#' "
		"\"$work/check.out\"))\"\n"
		"\t\texit 1\n"
		"\tfi\n"
		"\techo \"kept: op %" PRIu64 "'s acknowledgement, and every one before it\"\n"
		"}\n",
		s->checker_timeout ? s->checker_timeout : 600, s->upto, s->upto);
	return 0;
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
	comment(f, s->workload ? "PAUSE_US=N pauses N microseconds before each answer to the "
				 "workload, as blackout's control channel takes a round trip: a "
				 "loss that is a race may need it, and several runs."
			       : "PAUSE_US=N pauses N microseconds before each op, as blackout's "
				 "control channel does: a loss that is a race may need it, and "
				 "several runs.");
	fprintf(f,
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
	      "\t[ -z \"${ctlpid:-}\" ] || kill \"$ctlpid\" 2>/dev/null\n"
	      "\tfor m in $mnts; do umount \"$m\" 2>/dev/null; done\n"
	      "\t[ -z \"$dm\" ] || dmsetup remove \"$dm\" 2>/dev/null\n"
	      "\t[ -z \"${delay:-}\" ] || dmsetup remove \"$delay\" 2>/dev/null\n"
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
	      "# start_on DEV: the filesystem made on DEV, mounted where the ops run\n"
	      "start_on() {\n"
	      "\tmkfs_it \"$1\" >\"$work/mkfs.out\" 2>&1 || die \"mkfs failed: $(tail -n 3 "
	      "\"$work/mkfs.out\")\"\n"
	      "\tmkdir \"$work/mnt\" \"$work/expected\"\n"
	      "\tmount_it \"$1\" \"$work/mnt\" && mnt_ready || die 'mount failed'\n"
	      "}\n"
	      "# recover_on DEV: the state on DEV recovered as blackout recovered it, mounted and\n"
	      "# checked\n"
	      "recover_on() {\n"
	      "\trepair_it \"$1\" >\"$work/repair.out\" 2>&1\n"
	      "\tif ! mount_it \"$1\" \"$work/mnt\"; then\n"
	      "\t\techo \"LOST: the filesystem does not mount after the power cut\"\n"
	      "\t\texit 1\n"
	      "\tfi\n"
	      "\tcheck_it\n"
	      "}\n"
	      "# built: NAME, the program NAME beside the script, or built from NAME.c\n"
	      "built() {\n"
	      "\tif [ -x \"$here/$1\" ]; then\n"
	      "\t\techo \"$here/$1\"\n"
	      "\telse\n"
	      "\t\tcc -O2 -o \"$work/$1\" \"$here/$1.c\" >&2 && echo \"$work/$1\"\n"
	      "\tfi\n"
	      "}\n",
	      f);
	if (s->workload ? workload_ops(f, s) < 0 : (repro_ops(f), 0) < 0)
		return -ENOMEM;
	fputs("if [ $# -ge 1 ]; then\n"
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

/* What runs the ops, and what judges the state, in words, for the scripts' comments. */
static const char *runner(const struct bo_export_script *s)
{
	return s->workload ? "the workload (ctl.c answering it as blackout's control channel "
			     "does)"
			   : "repro";
}

static const char *judge(const struct bo_export_script *s)
{
	return s->workload ? "runs the workload's checker: every op acknowledged before the cut "
			     "must be seen"
			   : "runs the same ops with no cut on a second filesystem of its own, and "
			     "compares what the acknowledged op promised";
}

int bo_export_run_sh(FILE *f, const struct bo_export_script *s)
{
	char para[1024];

	head(f, "run.sh", s);
	snprintf(para, sizeof(para),
		 "Makes %s on DEVICE through dm-flakey (without DEVICE: on a loop device over a "
		 "file of its own), runs %s there and cuts the power right after op %" PRIu64
		 "'s acknowledgement: dm-flakey drops every write from then on, as a disk that "
		 "lost its power. Then it mounts the filesystem again (its recovery%s) and %s. A "
		 "write that completed before the acknowledgement stays: a loss that needs the "
		 "device's volatile cache is cache.sh's.",
		 bo_fs_name(s->sc->fs), runner(s), s->upto, recovery(s), judge(s));
	comment(f, para);
	if (prelude(f, s) < 0)
		return -ENOMEM;
	fputs("sectors=$(blockdev --getsz \"$dev\") || die \"blockdev --getsz $dev failed\"\n"
	      "dm=bo-repro-$$\n"
	      "up=\"0 $sectors flakey $dev 0 180 0\"\n"
	      "down=\"0 $sectors flakey $dev 0 0 180 1 drop_writes\"\n"
	      "dmsetup create \"$dm\" --table \"$up\" || { dm=; die 'dmsetup create (dm-flakey) "
	      "failed'; }\n"
	      "fdev=/dev/mapper/$dm\n"
	      "start_on \"$fdev\"\n"
	      "cut=\"dmsetup suspend --nolockfs --noflush $dm && dmsetup load $dm --table '$down' "
	      "&& dmsetup resume $dm\"\n"
	      "run_ops \"$cut\"\n"
	      "umount \"$work/mnt\" && mnts= || die 'umount after the power cut failed'\n"
	      "dmsetup load \"$dm\" --table \"$up\" && dmsetup suspend \"$dm\" && dmsetup resume "
	      "\"$dm\" ||\n"
	      "\tdie 'dm-flakey would not take writes again'\n"
	      "recover_on \"$fdev\"\n",
	      f);
	return 0;
}

int bo_export_cache_sh(FILE *f, const struct bo_export_script *s)
{
	char para[1024];

	head(f, "cache.sh", s);
	snprintf(
		para, sizeof(para),
		"For a loss that needs the device's volatile cache: writes that completed before "
		"the acknowledgement, with no FLUSH (or FUA) to make them durable. Makes %s on "
		"DEVICE through dm-log-writes (without DEVICE: a loop device over a file of its "
		"own), runs %s there and marks the log right after op %" PRIu64
		"'s acknowledgement. Then replay (replay.c) writes onto a fresh device what a "
		"power cut at that mark leaves: the log up to the mark without the plain writes "
		"after its last FLUSH. The filesystem is mounted from it (its recovery%s), and the "
		"script %s. fstests' src/log-writes/replay-log reads the same log.",
		bo_fs_name(s->sc->fs), runner(s), s->upto, recovery(s), judge(s));
	comment(f, para);
	if (prelude(f, s) < 0)
		return -ENOMEM;
	fputs("replay=$(built replay) || die 'cannot build replay.c (cc)'\n"
	      "sectors=$(blockdev --getsz \"$dev\") || die \"blockdev --getsz $dev failed\"\n"
	      "# the log: every write's data and a block for each entry\n"
	      "truncate -s $((3 * SIZE)) \"$work/log.img\" || die 'no room for the log'\n"
	      "newloop \"$work/log.img\"\n"
	      "logdev=$LOOP\n"
	      "dm=bo-repro-$$\n"
	      "# DELAY_MS=N (default 20, 0 for none): dm-delay under the log, each write and "
	      "FLUSH\n"
	      "# of the filesystem done N ms later, as on a slower disk. A write still in flight\n"
	      "# when a FLUSH is sent is not covered by it: a loss that is a race between the two\n"
	      "# needs the delay to show every time (the unjournaled ext4 syncfs of 6.12 does).\n"
	      "DELAY_MS=${DELAY_MS:-20}\n"
	      "under=$dev\n"
	      "if [ \"$DELAY_MS\" -gt 0 ]; then\n"
	      "\tdelay=bo-delay-$$\n"
	      "\tdmsetup create \"$delay\" --table \"0 $sectors delay $dev 0 $DELAY_MS\" ||\n"
	      "\t\t{ delay=; die 'dmsetup create (dm-delay) failed: DELAY_MS=0 runs without it'; "
	      "}\n"
	      "\tunder=/dev/mapper/$delay\n"
	      "fi\n"
	      "dmsetup create \"$dm\" --table \"0 $sectors log-writes $under $logdev\" ||\n"
	      "\t{ dm=; die 'dmsetup create (dm-log-writes) failed'; }\n"
	      "ldev=/dev/mapper/$dm\n"
	      "start_on \"$ldev\"\n"
	      "run_ops \"dmsetup message $dm 0 mark acked\"\n"
	      "umount \"$work/mnt\" && mnts= || die 'umount failed'\n"
	      "dmsetup remove \"$dm\" && dm= || die 'dmsetup remove (dm-log-writes) failed'\n"
	      "truncate -s \"$SIZE\" \"$work/state.img\" || die 'no room for the state'\n"
	      "newloop \"$work/state.img\"\n"
	      "state=$LOOP\n"
	      "\"$replay\" \"$logdev\" \"$state\" acked >&2 || die 'replay failed'\n"
	      "recover_on \"$state\"\n",
	      f);
	return 0;
}
