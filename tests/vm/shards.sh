#!/usr/bin/env bash
# tests/vm/shards.sh BLACKOUT — scale-out: `check --shard I/N` on 4 shards run through GNU
# parallel (its local login ':', as docs/scale-out.md runs them over SSH) merged with
# `blackout merge`, and `check` with its default --jobs (one VM per core, the VMs claiming
# states as they go) on reordered and torn states with coinciding states aliased, give
# exactly the states and classes of one single-VM check; shards of two different logs, a missing shard and a repeated one are
# refused.
. "$(dirname "$0")/run_lib.sh"
need_vm

# Two small recordings: a correct one and the planted bug, so classes differ between states.
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/bug.ini" ops=14 seed=4 \
	workload.bug=ack-without-fsync
run_bo 1 run "$T/bug.ini" --results "$T/results" || { finish; exit 1; }
log=$RESULTS/write.log
sc=$RESULTS/scenario.ini
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/other.ini" ops=8 seed=9
run_bo 0 run "$T/other.ini" --results "$T/results" || { finish; exit 1; }
other=$RESULTS/write.log

run_bo 1 check "$log" --scenario "$sc" --seed 4 --jobs 1 --results "$T/one"
one=$RESULTS
states "$one" >"$T/one.txt"
[ "$(grep -c . "$T/one.txt")" -ge 10 ] && ok || bad "too few states to shard: $(cat "$T/one.txt")"
grep -q lost-ack "$T/one.txt" && ok || bad "the positive control was not flagged"

# The shards through GNU parallel, two at a time. A shard with nothing wrong in it exits 0,
# one with a lost ack 1; the job log has each shard's exit status in column 7.
command -v parallel >/dev/null && ok || bad "GNU parallel is not installed (run scripts/setup)"
parallel --will-cite --sshlogin : -j 2 --joblog "$T/joblog" \
	"$BO" check "$log" --scenario "$sc" --seed 4 --shard {}/4 --results "$T/s{}" \
	'>' "$T/out{}" '2>&1' ::: 0 1 2 3
[ "$(awk 'NR > 1 && $7 <= 1' "$T/joblog" | wc -l)" -eq 4 ] && ok ||
	bad "a shard failed: $(cat "$T/joblog" "$T"/out?)"
shards=()
for i in 0 1 2 3; do
	shards+=("$(sed -n 's/^results: //p' "$T/out$i")")
done
run_bo 1 merge --out "$T/merged" "${shards[@]}"
states "$T/merged" >"$T/merged.txt"
diff -u "$T/one.txt" "$T/merged.txt" >&2 && ok || bad "4 shards merged differ from one check"
[ "$(json "$T/merged/summary.json" 'j["counts"]')" = "$(json "$one/summary.json" 'j["counts"]')" ] &&
	ok || bad "merged counts differ"
[ "$(json "$T/merged/summary.json" 'j["first_state"]')" = \
	"$(json "$one/summary.json" 'j["first_state"]')" ] && ok || bad "merged first states differ"

# Reordered and torn states on one VM, then on the default number of VMs (one per core):
# coinciding states are aliased the same way whichever VM checks them. The cuts: after the
# first two plain writes W1 W2 that open an epoch (the first droppable ones after a flush), so
# that dropping W2 at the second cut is the first cut's state, and dropping both the first cut
# without W1.
win=$(epoch_window "$log" 1)
[ -n "$win" ] && ok || bad "no epoch opening with two plain writes in $log"
reorder=(--reorder 2 --torn --cuts "$win")
# Classes do not matter here, only that both give the same: exit 0 or 1.
check_rc() { # NAME ARGS...: a check that must exit 0 or 1; sets $RESULTS
	local name=$1
	shift
	"$BO" check "$log" --scenario "$sc" --seed 4 "${reorder[@]}" "$@" --results "$T/$name" \
		>"$T/out" 2>"$T/err"
	local rc=$?
	RESULTS=$(sed -n 's/^results: //p' "$T/out" "$T/err" | tail -1)
	[ "$rc" -le 1 ] && ok || bad "check $name exited $rc: $(cat "$T/out" "$T/err")"
}
check_rc rone --jobs 1
rone=$RESULTS
states "$rone" | sort >"$T/rone.txt"
[ "$(json "$rone/summary.json" 'j["states_aliased"]')" -ge 2 ] && ok ||
	bad "no reordered or torn state coincided with another: $(cat "$T/rone.txt")"
check_rc rjobs
cores=$(nproc)
cores=$((cores > 64 ? 64 : cores))
if [ "$cores" -gt 1 ]; then
	grep -q "booting $cores VMs" "$T/err" && ok || bad "default --jobs is not $cores: $(cat "$T/err")"
fi
states "$RESULTS" | sort >"$T/rjobs.txt"
[ ! -e "$RESULTS/.claims" ] && ok || bad "--jobs left its claims directory behind"
ls "$RESULTS"/write.log.idx "$RESULTS"/shards/*/write.log.idx 2>/dev/null | grep -q . &&
	bad "--jobs left the log's index behind" || ok
grep -q '"shard_by":"claim"' "$RESULTS/shards/0/config.json" && ok ||
	bad "a --jobs shard does not say it claimed its states: $(cat "$RESULTS/shards/0/config.json")"
diff -u "$T/rone.txt" "$T/rjobs.txt" >&2 && ok || bad "default --jobs differs from one VM"
[ "$(json "$RESULTS/summary.json" 'j["states_aliased"]')" = \
	"$(json "$rone/summary.json" 'j["states_aliased"]')" ] && ok || bad "aliases differ"

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
