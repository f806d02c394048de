#!/usr/bin/env bash
# tests/vm/run_fsops.sh BLACKOUT FS — `blackout run` end to end on a real kernel: the fsops
# workload on FS is consistent at every one of >= 100 crash states, and its planted-bug twin
# (acks without fsync: the positive control) is flagged lost-ack. The durability lint of the
# twin's log names the ops the crash states lost; the correct log has no finding (on btrfs,
# none with a write between issue and ack).
. "$(dirname "$0")/run_lib.sh"
fs=${2:?usage: run_fsops.sh BLACKOUT FS}
need_vm

scenario "$SRC/scenarios/$fs-fsops.ini" "$T/good.ini" ops=90 seed=3
if run_bo 0 run "$T/good.ini" --results "$T/results"; then
	s=$RESULTS/summary.json
	n=$(json "$s" 'j["states_checked"]')
	[ "$n" -ge 100 ] && ok || bad "$fs: only $n states checked"
	[ "$(json "$s" 'j["counts"]["consistent"]')" = "$n" ] && ok || bad "$fs: not all consistent"
	[ -s "$RESULTS/write.log" ] && ok || bad "$fs: no write.log"
	[ -s "$RESULTS/vm/console.log" ] && ok || bad "$fs: no console log"
	grep -q '"event":"state"' "$RESULTS/stream.jsonl" && ok || bad "$fs: no state records"
	# Versioned machine output (docs/results.md): every document and record says its format.
	python3 - "$RESULTS" <<'PY' && ok || bad "$fs: a document or record without \"format\": 1"
import json, sys
d = sys.argv[1]
docs = [json.load(open(d + "/" + f)) for f in ("summary.json", "config.json")]
docs += [json.loads(l) for l in open(d + "/stream.jsonl")]
sys.exit(any(j.get("format") != 1 for j in docs))
PY
	# Every ack of the correct workload follows its fsync: on ext4 and xfs, whose fsync
	# always ends in a flush, the lint has nothing to say, and run said so before its states.
	# btrfs skips the flush of an fsync with nothing to log (the inode is in a committed
	# transaction already): such an ack is a finding with no write between issue and ack.
	"$BO" lint --json "$RESULTS/write.log" >"$T/lint.json"
	if [ "$fs" = btrfs ]; then
		python3 -c 'import json,sys
sys.exit(any(f["writes_between"] for f in json.load(open(sys.argv[1]))["findings"]))' \
			"$T/lint.json" && ok || bad "$fs: a lint finding with writes: $(cat "$T/lint.json")"
		grep -q "blackout: lint: " "$T/err" && ok || bad "$fs: run did not print the lint"
	else
		python3 -c 'import json,sys; sys.exit(len(json.load(open(sys.argv[1]))["findings"]))' \
			"$T/lint.json" && ok || bad "$fs: lint of the correct log: $(cat "$T/lint.json")"
		grep -q "lint: each of the [0-9]* acks has a FLUSH or FUA since its issue" "$T/err" &&
			ok || bad "$fs: run did not print the lint: $(grep lint "$T/err")"
	fi
	# A log alone, as from a bug report: check finds its filesystem itself and says so.
	if run_bo 0 check "$RESULTS/write.log" --cuts flush/3 --jobs 1 --results "$T/found"; then
		grep -q "the log holds $fs (found at its 'mkfs' mark" "$T/err" && ok ||
			bad "$fs: check without --fs did not say what it found: $(cat "$T/err")"
	fi
fi

scenario "$SRC/scenarios/$fs-fsops.ini" "$T/bug.ini" ops=40 seed=3 \
	workload.bug=ack-without-fsync
if run_bo 1 run "$T/bug.ini" --results "$T/results"; then
	s=$RESULTS/summary.json
	lost=$(json "$s" 'j["counts"]["lost-ack"]')
	[ "$lost" -ge 1 ] && ok || bad "$fs: the planted bug was not flagged lost-ack"
	first=$(json "$s" 'j["first_state"]["lost-ack"]')
	[ -x "$RESULTS/states/$first/repro.sh" ] && ok || bad "$fs: no repro.sh for $first"
	grep -q "lost: [0-9]" "$RESULTS/states/$first/verdict.txt" && ok ||
		bad "$fs: verdict of $first names no lost op"
	# The lint flags the held-back ops: every op a crash state lost is among its findings,
	# and run printed them before the states (the first line of its lint before any state).
	"$BO" lint --json "$RESULTS/write.log" >"$T/lint.json"
	[ $? = 1 ] && ok || bad "$fs: lint of the planted bug's log found nothing"
	python3 - "$T/lint.json" "$RESULTS/stream.jsonl" <<'PY' && ok || bad "$fs: a lost op the lint did not flag"
import json, sys
flagged = {f["op"] for f in json.load(open(sys.argv[1]))["findings"]}
lost = set()
for line in open(sys.argv[2]):
    r = json.loads(line)
    lost |= set(r.get("lost", []))
assert lost and lost <= flagged, (sorted(lost - flagged), sorted(flagged))
PY
	grep -q "lint: [0-9]* of [0-9]* acks with no FLUSH or FUA since the issue" "$T/err" && ok ||
		bad "$fs: run did not print the lint's findings"
fi
finish
