#!/usr/bin/env bash
# tests/vm/paths.sh BLACKOUT — a crash state is mounted where the workload ran: a two-device
# workload leaves an absolute symlink from its data device to its wal device, as PostgreSQL's
# initdb --waldir does, and writes through it; every state's checker follows the link and
# compares the mount points with those the workload noted. Consistent when run, when its log
# is checked again (another run id, another VM) and when one state is reproduced; a state
# mounted anywhere else fails its recovery (app-recovery-failed).
. "$(dirname "$0")/run_lib.sh"
need_vm

cat >"$T/paths.ini" <<INI
[scenario]
description = an absolute symlink from one device to another, followed in every crash state

[device data]
fs = ext4
size = 64M

[device wal]
fs = xfs
size = 300M

[workload]
script = $SRC/tests/vm/paths/workload 4

[check]
script = $SRC/tests/vm/paths/check 4
cuts = mark
INI

# all_consistent RESULTS MIN WHAT: at least MIN states, every one consistent.
all_consistent() {
	local n
	n=$(json "$1/summary.json" 'j["states_checked"]')
	[ "$n" -ge "$2" ] && [ "$(json "$1/summary.json" 'j["counts"]["consistent"]')" = "$n" ] &&
		ok || bad "$3: not all of $n states consistent: $(json "$1/summary.json" 'j["counts"]')"
}

if run_bo 0 run "$T/paths.ini" --results "$T/results"; then
	run=$RESULTS
	all_consistent "$run" 8 run
	# The log checked again: a new run id, a new VM, the same paths.
	if run_bo 0 check "$run/write.log" --scenario "$run/scenario.ini" --results "$T/results"; then
		all_consistent "$RESULTS" 8 check
	fi
	# One state alone in a fresh VM: the one after the last ack.
	st=$(python3 -c '
import json, sys
s = [json.loads(l) for l in open(sys.argv[1] + "/stream.jsonl")]
print([r["state"] for r in s if r["event"] == "state"][-2])' "$run")
	if run_bo 0 check "$run/write.log" --scenario "$run/scenario.ini" --state "$st" \
		--results "$T/results"; then
		all_consistent "$RESULTS" 1 "state $st"
	fi
fi
finish
