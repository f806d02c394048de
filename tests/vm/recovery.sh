#!/usr/bin/env bash
# tests/vm/recovery.sh BLACKOUT — crashes during recovery, on ext4, xfs and btrfs. kvd
# compacts its log in every recovery; compacting in place (truncate, fsync, rewrite: the
# positive control) loses what the first recovery had recovered when the power fails again
# during it, and is flagged recovery-unsafe; compacting through a renamed temporary file is
# not. A flagged state is reproduced from its repro.sh, both levels replayed; check takes the
# option as run's scenario key does; explain tells the two crashes.
. "$(dirname "$0")/run_lib.sh"
need_vm

for fs in ext4 xfs btrfs; do
	scenario "$SRC/scenarios/$fs-kvd.ini" "$T/$fs-bug.ini" builtin=kvd-compact ops=6 \
		workload.bug=compact-in-place check.recovery_crashes=2
	scenario "$SRC/scenarios/$fs-kvd.ini" "$T/$fs-good.ini" builtin=kvd-compact \
		ops=6 check.recovery_crashes=2
	if run_bo 1 run "$T/$fs-bug.ini" --results "$T/results"; then
		bug=$RESULTS
		python3 - "$bug" <<'PY' && ok || bad "$fs: compacting in place was not flagged"
import json, os, sys
d = sys.argv[1]
st = [json.loads(l) for l in open(d + "/stream.jsonl") if '"event":"state"' in l]
bad = [s for s in st if s["class"] != "consistent"]
# Every failing state is one cut inside a recovery, with its log kept beside it.
assert bad and all(s["class"] == "recovery-unsafe" and "~r" in s["state"] for s in bad), bad
assert all(os.path.getsize(d + "/" + s["recovery_log"]) > 0 for s in bad)
# ... and the write log beside it: both logs in the state's directory.
assert all(os.path.samefile(d + "/states/" + s["state"] + "/write.log", d + "/write.log")
           for s in bad)
assert all(s["recovery_class"] != "consistent" for s in bad)
PY
	fi
	if run_bo 0 run "$T/$fs-good.ini" --results "$T/results"; then
		n=$(grep -c '"state":"c[^"]*~r[0-9]*"' "$RESULTS/stream.jsonl")
		[ "$n" -ge 1 ] && ok || bad "$fs: no state cut inside a recovery: the check was vacuous"
	fi
done

# ext4's flagged state: its repro.sh replays the write log to the state, then its recovery's
# log to the cut, and gets the class again; explain tells both crashes.
bug=$(ls -d "$T"/results/*/ | while read -r d; do
	grep -q '"recovery-unsafe":[1-9]' "$d/summary.json" && echo "$d"; done | head -1)
first=$(json "$bug/summary.json" 'j["first_state"]["recovery-unsafe"]')
if PATH="$(dirname "$BO"):$PATH" sh "$bug/states/$first/repro.sh" >"$T/out" 2>&1; then
	grep -q "state $first: recovery-unsafe, as expected: reproduced" "$T/out" && ok ||
		bad "repro.sh of $first: $(tail -3 "$T/out")"
else
	bad "repro.sh of $first exited $?: $(tail -5 "$T/out")"
fi
"$BO" explain "$bug" "$first" >"$T/out" 2>&1
grep -q "the recovery is not crash-safe" "$T/out" && ok || bad "explain $first: $(head -20 "$T/out")"
# The option on check, on the same log: flagged again.
run_bo 1 check "$bug/write.log" --scenario "$bug/scenario.ini" --recovery-crashes 2 --jobs 1 \
	--results "$T/results" &&
	[ "$(json "$RESULTS/summary.json" 'j["counts"]["recovery-unsafe"]')" -ge 1 ] && ok ||
	bad "check --recovery-crashes did not flag the log"
finish
