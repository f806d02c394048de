#!/usr/bin/env bash
# tests/vm/library.sh BLACKOUT FS — the scenario library on FS: every correct scenario
# (applog, replace, sqlite-wal, sqlite-rollback, kvd) is consistent at every crash state, and
# every planted-bug twin is flagged with its class. Each twin is observable on all three
# filesystems (scenarios/README.md); to keep the vm label within minutes (a VM boot costs
# about as much as 20 states) the twins run on ext4 only, and on every FS with
# BO_TWINS=all — tests/vm/seeds.sh (label vm-long) does that.
. "$(dirname "$0")/run_lib.sh"
fs=${2:?usage: library.sh BLACKOUT FS}
need_vm

# Op counts are cut down from the shipped 20; a twin needs only one acknowledged op to fail.
OPS=6
TWIN_OPS=4

for fam in applog replace sqlite-wal sqlite-rollback kvd; do
	scenario "$SRC/scenarios/$fs-$fam.ini" "$T/good.ini" ops=$OPS
	if run_bo 0 run "$T/good.ini" --results "$T/results"; then
		s=$RESULTS/summary.json
		n=$(json "$s" 'j["states_checked"]')
		[ "$n" -ge $((2 * OPS)) ] && ok || bad "$fs-$fam: only $n states checked"
		[ "$(json "$s" 'j["counts"]["consistent"]')" = "$n" ] && ok ||
			bad "$fs-$fam: not all $n states consistent"
	fi
done

# twin FAMILY BUG CLASS: the twin's run fails and has at least one state of CLASS.
twin() {
	local fam=$1 bug=$2 class=$3
	scenario "$SRC/scenarios/$fs-$fam.ini" "$T/bug.ini" ops=$TWIN_OPS workload.bug=$bug
	if run_bo 1 run "$T/bug.ini" --results "$T/results"; then
		n=$(json "$RESULTS/summary.json" "j['counts']['$class']")
		[ "$n" -ge 1 ] && ok || bad "$fs-$fam --bug=$bug: no $class state"
	fi
}

[ "$fs" = ext4 ] || [ "${BO_TWINS:-}" = all ] || { finish; exit; }
twin applog ack-before-fsync lost-ack
twin replace no-dir-fsync lost-ack
twin sqlite-wal synchronous-off lost-ack
twin sqlite-rollback synchronous-off lost-ack
twin sqlite-rollback synchronous-full lost-ack
twin kvd skip-fsync lost-ack
# On ext4 only the first version shows it: auto_da_alloc writes a file's delayed data out when
# it is renamed over an existing one, so from version 2 on the missing fsync is covered up.
twin replace no-fsync-before-rename lost-ack
finish
