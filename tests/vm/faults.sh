#!/usr/bin/env bash
# tests/vm/faults.sh BLACKOUT — fault plans ([faults]) on a real kernel's dm-flakey. The
# positive control: fsops ignoring fsync's EIO under error_writes acknowledges an op whose data
# never reached the disk and is flagged lost-ack; the correct twin stops acknowledging and is
# consistent; a power cut (drop_writes) after an ack is consistent, with the acks the workload
# gave after it reported and not judged; a feature the kernel lacks is refused with the line.
#
# Seed 7 (blackout-fsops list --seed 7): op 10 fdatasync f0 (ack), 11 write f0, 12 fdatasync
# f0 (ack), 13 fsync f0 (ack). Writes fail or vanish from the ack of op 10 on.
. "$(dirname "$0")/run_lib.sh"
need_vm

plan() { # plan OUT.ini OPS BUG FAULT
	scenario "$SRC/scenarios/ext4-fsops-error-writes.ini" "$1" ops="$2" seed=7 \
		workload.bug="$3" "at=ack:10 $4"
}

# The planted bug: acknowledges op 12 although its fdatasync failed with EIO.
plan "$T/bug.ini" 12 ignore-fsync-error error_writes
if run_bo 1 run "$T/bug.ini" --results "$T/results"; then
	s=$RESULTS/summary.json
	[ "$(json "$s" 'j["counts"]["lost-ack"]')" -ge 1 ] && ok ||
		bad "ignore-fsync-error under error_writes was not flagged lost-ack"
	first=$(json "$s" 'j["first_state"]["lost-ack"]')
	grep -q "^lost: 12" "$RESULTS/states/$first/verdict.txt" && ok ||
		bad "the lost op is not op 12: $(cat "$RESULTS/states/$first/verdict.txt")"
	python3 - "$RESULTS/stream.jsonl" <<'PY' && ok || bad "bug: fault records"
import json, sys
rec = [json.loads(l) for l in open(sys.argv[1])]
f = [r for r in rec if r["event"] == "fault"]
o = [r for r in rec if r["event"] == "fault-outcome"]
assert len(f) == 1 and f[0]["trigger"] == "ack:10" and f[0]["mark"] == "fault:1:error_writes"
assert f[0]["entry"] > f[0]["trigger_entry"] and "error_writes" in f[0]["table"]
assert len(o) == 1 and o[0]["faults"][0]["acked_after_ids"] == [12], o
PY
	grep -q "fdatasync 'f0': Input/output error" "$RESULTS/workload.out" && ok ||
		bad "the workload did not see EIO"
fi

# The correct twin: stops at the failed fdatasync, acknowledges nothing more.
plan "$T/good.ini" 12 none error_writes
if run_bo 0 run "$T/good.ini" --results "$T/results"; then
	s=$RESULTS/summary.json
	[ "$(json "$s" 'j["counts"]["consistent"]')" = "$(json "$s" 'j["states_checked"]')" ] &&
		ok || bad "the correct twin under error_writes is not consistent"
	python3 - "$RESULTS/stream.jsonl" <<'PY' && ok || bad "good: fault outcome"
import json, sys
o = [json.loads(l) for l in open(sys.argv[1]) if '"event":"fault-outcome"' in l]
assert o[0]["exit_status"] == 1 and o[0]["faults"][0]["acked_after"] == 0, o
PY
fi

# Power cut after ack 10 while the host runs on: acks 12 and 13 come after it, unjudged.
plan "$T/drop.ini" 13 none drop_writes
if run_bo 0 run "$T/drop.ini" --results "$T/results"; then
	s=$RESULTS/summary.json
	[ "$(json "$s" 'j["counts"]["consistent"]')" = "$(json "$s" 'j["states_checked"]')" ] &&
		ok || bad "drop_writes after an ack is not consistent"
	python3 - "$RESULTS/stream.jsonl" <<'PY' && ok || bad "drop: fault outcome"
import json, sys
o = [json.loads(l) for l in open(sys.argv[1]) if '"event":"fault-outcome"' in l]
assert o[0]["exit_status"] == 0 and o[0]["faults"][0]["acked_after_ids"] == [12, 13], o
PY
fi

# A feature the kernel's flakey lacks (random_write_corrupt before Linux 6.5) is refused with
# its line before the workload runs.
plan "$T/nofeat.ini" 12 none "random_write_corrupt 1000"
"$BO" run "$T/nofeat.ini" --results "$T/results" >"$T/out" 2>"$T/err"
rc=$?
RESULTS=$(sed -n 's/^results: //p' "$T/out" "$T/err" | tail -1)
if [ "$rc" = 0 ]; then
	# A kernel whose flakey has it: then the fault must have gone live.
	grep -q '"event":"fault".*random_write_corrupt' "$RESULTS/stream.jsonl" && ok ||
		bad "random_write_corrupt accepted but never switched"
else
	[ "$rc" = 3 ] && ok || bad "random_write_corrupt on this kernel: exit $rc, expected 3"
	grep -q "scenario.ini:[0-9]*: \[faults\] at: .*random_write_corrupt" "$T/err" && ok ||
		bad "no file:line refusal: $(cat "$T/err")"
	! grep -q '"event":"workload-start"' "$RESULTS/stream.jsonl" && ok ||
		bad "the workload ran despite the refused plan"
fi
finish
