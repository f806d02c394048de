#!/usr/bin/env bash
# tests/vm/shards.sh BLACKOUT — scale-out: `check --shard I/N` on 4 shards merged with
# `blackout merge`, and `check --jobs 2`, give exactly the states and classes of one unsharded
# check; shards of two different logs, a missing shard and a repeated one are refused.
. "$(dirname "$0")/run_lib.sh"
need_vm

states() { # DIR: "event state class" per state or alias record, in order
	python3 -c 'import json,sys
for l in open(sys.argv[1] + "/stream.jsonl"):
    r = json.loads(l)
    if r["event"] in ("state", "alias"):
        print(r["event"], r["state"], r["class"])' "$1"
}

# Two small recordings: a correct one and the planted bug, so classes differ between states.
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/bug.ini" ops=14 seed=4 \
	workload.bug=ack-without-fsync
run_bo 1 run "$T/bug.ini" --results "$T/results" || { finish; exit 1; }
log=$RESULTS/write.log
sc=$RESULTS/scenario.ini
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/other.ini" ops=8 seed=9
run_bo 0 run "$T/other.ini" --results "$T/results" || { finish; exit 1; }
other=$RESULTS/write.log

run_bo 1 check "$log" --scenario "$sc" --seed 4 --results "$T/one"
one=$RESULTS
states "$one" >"$T/one.txt"
[ "$(grep -c . "$T/one.txt")" -ge 10 ] && ok || bad "too few states to shard: $(cat "$T/one.txt")"
grep -q lost-ack "$T/one.txt" && ok || bad "the positive control was not flagged"

shards=()
for i in 0 1 2 3; do
	# A shard with nothing wrong in it exits 0, one with a lost ack 1.
	"$BO" check "$log" --scenario "$sc" --seed 4 --shard "$i/4" --results "$T/s$i" \
		>"$T/out" 2>&1
	rc=$?
	[ "$rc" -le 1 ] && ok || bad "shard $i/4 exited $rc: $(cat "$T/out")"
	shards+=("$(sed -n 's/^results: //p' "$T/out")")
done
run_bo 1 merge --out "$T/merged" "${shards[@]}"
states "$T/merged" >"$T/merged.txt"
diff -u "$T/one.txt" "$T/merged.txt" >&2 && ok || bad "4 shards merged differ from one check"
[ "$(json "$T/merged/summary.json" 'j["counts"]')" = "$(json "$one/summary.json" 'j["counts"]')" ] &&
	ok || bad "merged counts differ"
[ "$(json "$T/merged/summary.json" 'j["first_state"]')" = \
	"$(json "$one/summary.json" 'j["first_state"]')" ] && ok || bad "merged first states differ"

run_bo 1 check "$log" --scenario "$sc" --seed 4 --jobs 2 --results "$T/jobs"
states "$RESULTS" >"$T/jobs.txt"
diff -u "$T/one.txt" "$T/jobs.txt" >&2 && ok || bad "--jobs 2 differs from one check"

# Refusals: a shard of another log, a missing shard, a repeated shard.
"$BO" check "$other" --scenario "$sc" --seed 4 --shard 3/4 --results "$T/x" >"$T/out" 2>&1
foreign=$(sed -n 's/^results: //p' "$T/out")
"$BO" merge --out "$T/m2" "${shards[0]}" "${shards[1]}" "${shards[2]}" "$foreign" >"$T/out" 2>&1
[ $? -eq 3 ] && grep -q "different check" "$T/out" && ok || bad "merged another log: $(cat "$T/out")"
"$BO" merge --out "$T/m3" "${shards[0]}" "${shards[1]}" "${shards[2]}" >"$T/out" 2>&1
[ $? -eq 3 ] && grep -q "shard 3/4 is missing" "$T/out" && ok || bad "missing shard: $(cat "$T/out")"
"$BO" merge --out "$T/m4" "${shards[@]}" "${shards[0]}" >"$T/out" 2>&1
[ $? -eq 3 ] && grep -q "given twice" "$T/out" && ok || bad "repeated shard: $(cat "$T/out")"
finish
