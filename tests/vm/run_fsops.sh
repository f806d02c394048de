#!/usr/bin/env bash
# tests/vm/run_fsops.sh BLACKOUT FS — `blackout run` end to end on a real kernel: the fsops
# workload on FS is consistent at every one of >= 100 crash states, and its planted-bug twin
# (acks without fsync: the positive control) is flagged lost-ack.
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
fi
finish
