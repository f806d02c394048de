#!/usr/bin/env bash
# tests/vm/shrink.sh BLACKOUT — from failure to diagnosis on a real kernel: a 200-op fsops run
# with the planted ack-without-fsync bug fails; `explain` tells its story; `reproduce` gets
# the class again (and says "not reproduced" when the record claims another class: the
# positive control); `shrink` finds the earliest failing cut and an op list of at most 5 ops
# whose scenario file fails again under `blackout run`.
. "$(dirname "$0")/run_lib.sh"
need_vm

# Flush cuts keep the first run short; candidates are judged at their ack marks.
scenario "$SRC/scenarios/ext4-fsops-bug.ini" "$T/bug.ini" ops=200 size=64M cuts=flush seed=1
run_bo 1 run "$T/bug.ini" --results "$T/results" || { finish; exit 1; }
R=$RESULTS
first=$(json "$R/summary.json" 'j["first_state"]["lost-ack"]')

# explain: the symptom, the lost ops with their ack entries, the next command.
if run_bo 0 explain "$R"; then
	grep -q "symptom: state $first .* is lost-ack" "$T/out" && ok || bad "explain: no symptom"
	grep -Eq "op [0-9]+ \(.*\): issued at entry [0-9]+, acked at entry [0-9]+" "$T/out" && ok ||
		bad "explain: lost ops without their marks"
	grep -q "last flush before the cut: entry" "$T/out" && ok || bad "explain: no flush"
	grep -Eq "blackout reproduce '?$R'? '?$first'?\$" "$T/out" && ok || bad "explain: no next command"
fi
run_bo 0 explain "$R" "$first" --json &&
	[ "$(json "$T/out" 'j["state"]["class"]')" = lost-ack ] && ok || bad "explain --json"

# reproduce: the class comes back; a record that claims another class does not.
run_bo 0 reproduce "$R" "$first" && grep -q "reproduced" "$T/out" && ok ||
	bad "reproduce: lost-ack did not reproduce"
cp -a "$R" "$T/tampered"
sed -i "s/\"state\":\"$first\",\\(.*\\)\"class\":\"lost-ack\"/\"state\":\"$first\",\\1\"class\":\"phantom\"/" \
	"$T/tampered/stream.jsonl"
# ... through the state's repro.sh, which runs `blackout reproduce` from anywhere.
(cd / && sh "$T/tampered/states/$first/repro.sh") >"$T/out" 2>"$T/err"
[ $? = 1 ] && grep -q "not reproduced" "$T/out" && ok ||
	bad "repro.sh: a wrong class was called reproduced: $(cat "$T/out" "$T/err")"
rm -rf "$T/tampered"

# shrink: bisection, then ddmin to <= 5 ops.
t0=$(date +%s)
if run_bo 0 shrink "$R"; then
	echo "shrink took $(($(date +%s) - t0)) s" >&2
	s=$R/shrink/summary.json
	after=$(json "$s" 'j["ops_after"]')
	[ "$(json "$s" 'j["ops_before"]')" -ge 200 ] && ok || bad "shrink did not start from 200 ops"
	[ "$after" -le 5 ] && [ "$after" -ge 1 ] && ok || bad "shrink ended with $after ops"
	e=$(json "$s" 'j["earliest_cut"]')
	c=$(json "$R/summary.json" 'j["first_state"]["lost-ack"][1:]')
	[ "$e" -le "$((c + 1))" ] && ok || bad "earliest cut $e after the first failure c$c"
	grep -q '"event":"shrink-candidate"' "$R/shrink/stream.jsonl" && ok ||
		bad "no shrink steps in the stream"
	grep -q '"event":"shrink-probe"' "$R/shrink/stream.jsonl" && ok ||
		bad "no bisection probes in the stream"
	grep -q "^keep_ops = " "$R/shrink/minimal.ini" && ok || bad "minimal.ini has no keep_ops"
	# The minimal scenario fails again on its own.
	if run_bo 1 run "$R/shrink/minimal.ini" --results "$T/results"; then
		[ "$(json "$RESULTS/summary.json" 'j["counts"]["lost-ack"]')" -ge 1 ] && ok ||
			bad "the minimal scenario did not fail lost-ack"
	fi
	# Shrinking again refuses to overwrite the first shrink.
	run_bo 3 shrink "$R"
fi
# What a run's states are checked with, given on its command line over the scenario's keys,
# is what its reproduction and its shrink check with: each config.json records it, the
# shrink's checks draw the persona's states (dropped writes: only ignores-fua makes them
# here), and its minimal.ini says it for the run that re-runs it.
scenario "$SRC/scenarios/ext4-fsops-bug.ini" "$T/set.ini" ops=12 size=64M cuts=flush seed=1
if run_bo 1 run "$T/set.ini" --persona ignores-fua --recovery-crashes 1 --witness 2 \
	--results "$T/set"; then
	S=$RESULTS
	settings() { # DIR: persona recovery_crashes witness of its config.json's settings
		json "$1/config.json" \
			'" ".join(str(j["settings"][k]) for k in ("persona","recovery_crashes","witness"))'
	}
	want="ignores-fua 1 2"
	[ "$(settings "$S")" = "$want" ] && ok || bad "run's settings: $(settings "$S")"
	first=$(json "$S/summary.json" 'j["first_state"]["lost-ack"]')
	if run_bo 0 reproduce "$S" "$first"; then
		[ "$(settings "$RESULTS")" = "$want" ] && ok ||
			bad "reproduce's settings: $(settings "$RESULTS")"
	fi
	if run_bo 0 shrink "$S" --state "$first" --max-tests 2; then
		[ "$(settings "$S/shrink")" = "$want" ] && ok ||
			bad "shrink's settings: $(settings "$S/shrink")"
		grep -q '"state":"c[0-9]*-d[0-9,]*"' "$S/shrink/stream.jsonl" && ok ||
			bad "shrink's checks drew no state of the persona"
		for kv in "persona = ignores-fua" "recovery_crashes = 1" "witness = 2"; do
			grep -qx "$kv" "$S/shrink/minimal.ini" && ok || bad "minimal.ini lacks '$kv'"
		done
	fi
fi

# Positive control of the input check: a run without failures has nothing to shrink.
mkdir "$T/clean"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
j["counts"]={k: 0 for k in j["counts"]}; j["counts"]["consistent"]=3
j["first_state"]={}; j["verdict"]="consistent"; json.dump(j,open(sys.argv[2],"w"))' \
	"$R/summary.json" "$T/clean/summary.json"
cp "$R/scenario.ini" "$T/clean/"
run_bo 1 shrink "$T/clean" && grep -q "no failing state to shrink" "$T/err" && ok ||
	bad "shrink of a consistent run: $(cat "$T/err")"
finish
