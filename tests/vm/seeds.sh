#!/usr/bin/env bash
# tests/vm/seeds.sh BLACKOUT — the long run (label vm-long, not in the default CI set): every
# correct scenario of the library (applog, replace, sqlite-wal, sqlite-rollback, kvd) on
# ext4, xfs and btrfs, over seeds 1..5, must be consistent at every crash state (one line
# per run: scenario, seed, states, classes); then every planted-bug twin on all three
# filesystems (tests/vm/library.sh with BO_TWINS=all).
. "$(dirname "$0")/run_lib.sh"
need_vm

for fs in ext4 xfs btrfs; do
	for fam in applog replace sqlite-wal sqlite-rollback kvd; do
		for seed in 1 2 3 4 5; do
			scenario "$SRC/scenarios/$fs-$fam.ini" "$T/s.ini" seed=$seed
			run_bo 0 run "$T/s.ini" --results "$T/results"
			if [ -f "$RESULTS/summary.json" ]; then
				json "$RESULTS/summary.json" \
					"'$fs-$fam seed $seed: %d states, %s' % (j['states_checked'], \
					', '.join('%s %d' % kv for kv in j['counts'].items() if kv[1]))"
			fi
			rm -rf "$T/results"
		done
	done
done
for fs in ext4 xfs btrfs; do
	BO_TWINS=all "$SRC/tests/vm/library.sh" "$BO" "$fs" && ok || bad "library.sh $fs"
done
finish
