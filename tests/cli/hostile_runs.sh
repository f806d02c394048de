#!/usr/bin/env bash
# tests/cli/hostile_runs.sh BLACKOUT — inputs from strangers (docs/safety.md, "Inputs from
# strangers"), the commands that make or re-make runs: shrink, merge, nightly, run, check,
# report, cache, and the numbers of cuts. Each block names the defect of issue 28 it
# reproduces. No VM is booted: a command that would boot one must refuse before it says
# "booting" (each is given a kernel that does not exist, so that one that did not refuse fails
# at the boot, not in a VM).
. "$(dirname "$0")/lib.sh"

to() { timeout 20 "$@"; }
NOK=(--kernel /nonexistent/vmlinuz --modules /nonexistent)
booted() { grep -q "booting" "$T/err"; }

# results DIR: the results directory of a check, with one lost-ack state c45.
results() {
	mkdir -p "$1/states/c45"
	"$BO" synth --out "$1/write.log" --entries 120 --max-write 2 >/dev/null || bad "synth"
	cat >"$1/summary.json" <<'J'
{ "verdict": "failed", "exit_status": 1, "states_checked": 2, "states_aliased": 0,
  "counts": { "consistent": 1, "unmountable": 0, "fsck-dirty": 0, "lost-ack": 1, "phantom": 0,
              "app-recovery-failed": 0, "checker-error": 0, "harness-error": 0 },
  "first_state": { "consistent": "c30", "lost-ack": "c45" },
  "seconds_total": 1.0, "seconds_checking": 1.0 }
J
	cat >"$1/config.json" <<'J'
{ "kind": "check", "run_id": "20260101-000000-0-000001", "log_sha256": "0",
  "options": { "fs": "ext4", "seed": "1" }, "shard": "0/1" }
J
	cat >"$1/stream.jsonl" <<'J'
{"seq":0,"time":"2026-01-01T00:00:00.000Z","event":"stack","device":"/dev/mapper/x"}
{"seq":1,"time":"2026-01-01T00:00:01.000Z","event":"state","state":"c30","cut":31,"class":"consistent","mounted":true,"fsck":"clean"}
{"seq":2,"time":"2026-01-01T00:00:02.000Z","event":"state","state":"c45","cut":46,"class":"lost-ack","mounted":true,"fsck":"clean","checker":"exited with status 0","lost":[2,3]}
{"seq":3,"time":"2026-01-01T00:00:03.000Z","event":"end"}
J
	printf 'state c45: lost-ack\n' >"$1/states/c45/verdict.txt"
}

"$BO" synth --out "$T/g.log" --entries 120 --max-write 2 >/dev/null || bad "synth"

### 22: a number past 2^64-1 in a cut is out of range, not read as 2^64-1.
N=100000000000000000000
expect 2 "out of range" -- to "$BO" replay "$T/g.log" --onto "$T/r22.img" --to "entry:$N"
expect 2 "out of range" -- to "$BO" replay "$T/g.log" --onto "$T/r22.img" --to "flush:$N"
expect 2 "out of range" -- to "$BO" inspect "$T/g.log" --entries "0-$N"
expect 2 "out of range" -- to "$BO" inspect "$T/g.log" --entries "${N}000000000000000000000000000000000000-"
mkdir -p "$T/r22"
for cuts in "entry:$N" "entry:1-$N" "every:$N" "flush/$N"; do
	expect 2 "out of range" -- to "$BO" check "$T/g.log" --fs ext4 --cuts "$cuts" \
		--results "$T/r22" "${NOK[@]}"
done
expect 2 "out of range" -- to "$BO" check "$T/g.log" --fs ext4 --from "entry:$N" \
	--results "$T/r22" "${NOK[@]}"
[ -z "$(ls -A "$T/r22")" ] && ok || bad "22: a refused check left $(ls "$T/r22")"
# A recorded cut past 2^64-1 (json-c reads it as 2^64-1) is an error naming file:line.
d=$T/f22
results "$d"
sed -i "s/\"cut\":46/\"cut\":$N/" "$d/stream.jsonl"
expect 3 "stream.jsonl:3:" "out of range" -- to "$BO" explain "$d"
grep -q 18446744073709551615 "$T/out" && bad "22: explain shows the cut as 2^64-1" || ok
expect 3 "stream.jsonl:3:" "out of range" -- to "$BO" report "$d"
# The positive control: the largest cut the log has is accepted.
expect 0 -- to "$BO" inspect "$T/g.log" --entries 119-119

### 12: shrink judges the saved write.log as reproduce does, before shrink/ exists or a VM
### boots, and deletes nothing of the run's (its vm/console.log).
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$T/f12
results "$d"
cp "$top/scenarios/ext4-fsops-bug.ini" "$d/scenario.ini"
mkdir -p "$d/vm"
echo "the run's console" >"$d/vm/console.log"
put_u64 "$d/write.log" 16 100000
expect 3 "claims 100000 entries" -- to "$BO" reproduce "$d" c45 "${NOK[@]}"
expect 3 "claims 100000 entries" -- to "$BO" shrink "$d" "${NOK[@]}"
booted && bad "12: shrink booted on a corrupt write.log" || ok
[ -e "$d/shrink" ] && bad "12: a refused shrink left '$d/shrink'" || ok
grep -q "the run's console" "$d/vm/console.log" && ok || bad "12: shrink removed vm/console.log"
# A kernel that cannot be found: refused before shrink/ exists, the retry refused the same.
"$BO" synth --out "$d/write.log.new" --entries 120 --max-write 2 >/dev/null && mv -f "$d/write.log.new" "$d/write.log"
for try in 1 2; do
	expect 3 "/nonexistent" -- to "$BO" shrink "$d" "${NOK[@]}"
	booted && bad "12: shrink said booting with no kernel" || ok
	[ -e "$d/shrink" ] && bad "12: a refused shrink left '$d/shrink' (try $try)" || ok
done
grep -q "the run's console" "$d/vm/console.log" && ok || bad "12: shrink removed vm/console.log"

finish
