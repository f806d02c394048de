#!/usr/bin/env bash
# tests/vm/filesystems.sh BLACKOUT — the filesystems of harness/dev/fstab.c beyond ext4, xfs,
# btrfs, ext2 and vfat, each through a run, its positive control and a check of its saved
# log without --fs (docs/scenarios.md, "Filesystems"), and the paths its results take next:
# reordered, torn and persona states, the lint, reproduce, shrink. f2fs and nilfs2 run fsops:
# consistent at every state, and its ack-without-fsync twin lost-ack. exfat: applog,
# consistent, its ack-before-fsync twin lost-ack, and fsops without hard links (--no-links).
# jfs, udf and vfat run fsops too, and what they lose is the kernel's (docs/crash-states.md,
# "jfs issues no cache flush, and udf's and vfat's sync and syncfs none"): said, not failed.
# btrfs raid1 over two devices (scenarios/btrfs-raid1-fsops.ini) takes the same paths.
# Long (label vm-long): about 35 boots.
. "$(dirname "$0")/run_lib.sh"
need_vm

# run_pair FS BUILTIN BUG: the correct run (consistent), its twin (lost-ack), and the
# correct run's log checked again with no filesystem named: the one detected is FS.
run_pair() {
	local fs=$1 builtin=$2 bug=$3 good=
	scenario "$SRC/scenarios/ext4-$builtin.ini" "$T/$fs.ini" fs="$fs" ops=20
	if run_bo 0 run "$T/$fs.ini" --results "$T/results"; then
		n=$(json "$RESULTS/summary.json" 'j["states_checked"]')
		[ "$n" -ge 20 ] && ok || bad "$fs: only $n states"
		[ "$(json "$RESULTS/summary.json" 'j["counts"]["consistent"]')" = "$n" ] && ok ||
			bad "$fs: not every state consistent: $(json "$RESULTS/summary.json" 'j["counts"]')"
		good=$RESULTS
		# The device's size is the scenario's: exfat's mkfs writes nothing near its end,
		# so the log's extent is not its size (docs/scenarios.md, "Filesystems").
		size=$(json "$RESULTS/config.json" 'j["device"]["size"]')
		if run_bo 0 check "$RESULTS/write.log" --size "$size" --cuts flush/3 --jobs 1 \
			--results "$T/found"; then
			grep -q "the log holds $fs (found at its 'mkfs' mark" "$T/err" && ok ||
				bad "$fs: check without --fs did not pick it: $(cat "$T/err")"
		fi
	fi
	scenario "$SRC/scenarios/ext4-$builtin.ini" "$T/$fs-bug.ini" fs="$fs" ops=20 \
		workload.bug="$bug"
	if run_bo 1 run "$T/$fs-bug.ini" --results "$T/results"; then
		[ "$(json "$RESULTS/summary.json" 'j["counts"]["lost-ack"]')" -ge 1 ] && ok ||
			bad "$fs: the planted bug was not flagged lost-ack"
		paths "$fs" "${good:-}" "$RESULTS"
	fi
}

# paths FS GOOD BUG: the other ways a run's results are used, on FS: the correct run's log
# with reordered, torn and a persona's states (each a verdict, never a harness error), the
# lint; the twin's first lost state reproduced, and shrunk: its earliest failing cut, and for
# fsops a minimal op list that still loses it.
paths() {
	local fs=$1 good=$2 bug=$3 first
	if [ -n "$good" ]; then
		for how in "--reorder 1 --budget 6" "--torn --budget 6" "--persona ignores-flush --budget 6"; do
			# shellcheck disable=SC2086
			if run_bo "0|1" check "$good/write.log" --scenario "$good/scenario.ini" \
				--cuts flush/4 $how --jobs 1 --results "$T/paths"; then
				[ "$(json "$RESULTS/summary.json" 'j["states_checked"]')" -ge 1 ] && ok ||
					bad "$fs: check $how checked no state"
			fi
		done
		run_bo "0|1" lint "$good/write.log"
	fi
	first=$(json "$bug/summary.json" 'j["first_state"]["lost-ack"]')
	run_bo 0 reproduce "$bug" "$first" && grep -q "reproduced" "$T/out" && ok ||
		bad "$fs: reproduce of $first did not give lost-ack again"
	# the earliest failing cut for any workload; a minimal op list for fsops'
	if run_bo 0 shrink "$bug" --max-tests 6; then
		grep -q "^earliest failing cut: " "$T/out" && ok || bad "$fs: shrink found no earliest cut"
		if grep -q "blackout-fsops" "$bug/config.json"; then
			[ -f "$bug/shrink/minimal.ini" ] && ok || bad "$fs: shrink wrote no minimal.ini"
		fi
	fi
}
run_pair f2fs fsops ack-without-fsync
run_pair nilfs2 fsops ack-without-fsync
run_pair exfat applog ack-before-fsync
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/exfat-fsops.ini" fs=exfat ops=40
if run_bo 0 run "$T/exfat-fsops.ini" --results "$T/results"; then
	grep -q -- "--no-links" "$RESULTS/config.json" && ok || bad "exfat: fsops ran with links"
fi

# btrfs raid1 over two devices: consistent, its twin lost-ack, its log checked alone (the
# layout mark names both devices and what spans what), and the same paths.
scenario "$SRC/scenarios/btrfs-raid1-fsops.ini" "$T/raid1.ini" ops=20
good=
if run_bo 0 run "$T/raid1.ini" --results "$T/results"; then
	n=$(json "$RESULTS/summary.json" 'j["states_checked"]')
	[ "$(json "$RESULTS/summary.json" 'j["counts"]["consistent"]')" = "$n" ] && ok ||
		bad "btrfs raid1: not every state consistent"
	good=$RESULTS
	"$BO" inspect "$RESULTS/write.log" | grep -q "^  a  *btrfs .*, also on b$" && ok ||
		bad "btrfs raid1: inspect does not say that a spans b"
	run_bo 0 check "$RESULTS/write.log" --cuts flush/3 --jobs 1 --results "$T/found" && ok
fi
scenario "$SRC/scenarios/btrfs-raid1-fsops.ini" "$T/raid1-bug.ini" ops=20 \
	workload.bug=ack-without-fsync
if run_bo 1 run "$T/raid1-bug.ini" --results "$T/results"; then
	[ "$(json "$RESULTS/summary.json" 'j["counts"]["lost-ack"]')" -ge 1 ] && ok ||
		bad "btrfs raid1: the planted bug was not flagged lost-ack"
	paths "btrfs raid1" "$good" "$RESULTS"
fi

# jfs, udf and vfat: the kernel's losses, counted and said; the run itself must complete.
for fs in jfs udf vfat; do
	scenario "$SRC/scenarios/ext4-fsops.ini" "$T/$fs.ini" fs="$fs" ops=40
	if run_bo "0|1" run "$T/$fs.ini" --results "$T/results"; then
		n=$(json "$RESULTS/summary.json" 'j["states_checked"]')
		lost=$(json "$RESULTS/summary.json" 'j["counts"].get("lost-ack", 0)')
		[ "$n" -ge 40 ] && ok || bad "$fs: only $n states"
		echo "KNOWN KERNEL FINDING: $fs: $lost of $n states lost an acknowledged op (docs/crash-states.md)"
	fi
done
finish
