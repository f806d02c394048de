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

### 15: a refused merge, nightly, run or check leaves nothing that blocks or clutters its
### retry: the retry refuses again with the same message, never "already exists".
# retried STATUS NEEDLE LEFT -- CMD...: CMD refuses twice the same way, and LEFT (a path, or a
# directory that must stay empty) holds nothing of it.
retried() {
	local st=$1 needle=$2 left=$3
	shift 4
	for try in 1 2; do
		expect "$st" "$needle" -- to "$@"
		grep -q "already exists" "$T/err" && bad "15: retry $try of '$*': already exists" || ok
		booted && bad "15: '$*' said booting" || ok
		if [ -d "$left" ] && [ -n "$(ls -A "$left")" ]; then
			bad "15: '$*' left $(ls "$left") in $left"
		elif [ -e "$left" ] && [ ! -d "$left" ]; then
			bad "15: '$*' left $left"
		else
			ok
		fi
	done
}
d=$T/f15
results "$d"
sed -i 's/"lost":\[2,3\]/"lost":"x"/' "$d/stream.jsonl"
retried 3 "stream.jsonl:3:" "$T/m15" -- "$BO" merge --out "$T/m15" "$d"
results "$T/f15b"
retried 3 "nosuch" "$T/m15" -- "$BO" merge --out "$T/m15" "$T/f15b" "$T/nosuch"
# nightly: a scenario of the matrix that does not load, a kernel that cannot be found.
top=$(cd "$(dirname "$0")/../.." && pwd)
cat >"$T/m15.ini" <<EOF2
[matrix]
scenario = $top/scenarios/ext4-fsops-bug.ini
scenario = $T/nosuch.ini
EOF2
retried 3 "nosuch.ini" "$T/n15" -- "$BO" nightly --out "$T/n15" "$T/m15.ini"
printf '[scenario]\nname = x\nbogus_key = 1\n' >"$T/bad15.ini"
cat >"$T/m15b.ini" <<EOF2
[matrix]
scenario = $T/bad15.ini
EOF2
retried 3 "bad15.ini:" "$T/n15" -- "$BO" nightly --out "$T/n15" "$T/m15b.ini"
cat >"$T/m15c.ini" <<EOF2
[matrix]
scenario = $top/scenarios/ext4-fsops-bug.ini
kernel = 0.0.0-nosuch
EOF2
retried 3 "0.0.0-nosuch" "$T/n15" -- "$BO" nightly --out "$T/n15" "$T/m15c.ini"
printf '[matrix]\nscenario = %s\n' "$top/scenarios/ext4-fsops-bug.ini" >"$T/m15d.ini"
retried 3 "0.0.0-nosuch" "$T/n15" -- "$BO" nightly --out "$T/n15" --kernel-release 0.0.0-nosuch \
	"$T/m15d.ini"
# run and check: a kernel that cannot be found, a --file that is not there.
mkdir -p "$T/r15"
retried 3 "/nonexistent" "$T/r15" -- "$BO" run "$top/scenarios/ext4-fsops-bug.ini" \
	--results "$T/r15" "${NOK[@]}"
retried 3 "/nosuch-file" "$T/r15" -- "$BO" run "$top/scenarios/ext4-fsops-bug.ini" \
	--results "$T/r15" --file /nosuch-file "${NOK[@]}"
retried 3 "/nonexistent" "$T/r15" -- "$BO" check "$T/g.log" --fs ext4 --results "$T/r15" "${NOK[@]}"
retried 3 "0.0.0-nosuch" "$T/r15" -- "$BO" check "$T/g.log" --fs ext4 --results "$T/r15" \
	--kernel-release 0.0.0-nosuch
retried 3 "/nosuch-file" "$T/r15" -- "$BO" check "$T/g.log" --fs ext4 --results "$T/r15" \
	--file /nosuch-file "${NOK[@]}"

### 21: a summary.json that says consistent over a lost-ack state of stream.jsonl draws no
### green page: the contradiction is said in report.html and junit.xml, and report exits 3.
d=$T/f21
results "$d"
cat >"$d/summary.json" <<'J'
{ "verdict": "consistent", "exit_status": 0, "states_checked": 2, "states_aliased": 0,
  "counts": { "consistent": 2, "unmountable": 0, "fsck-dirty": 0, "lost-ack": 0, "phantom": 0,
              "app-recovery-failed": 0, "checker-error": 0, "harness-error": 0 },
  "first_state": { "consistent": "c30" }, "seconds_total": 1.0, "seconds_checking": 1.0 }
J
expect 3 "contradicts stream.jsonl" "lost-ack" -- to "$BO" report "$d"
grep -q 'id="contradiction"' "$d/report.html" && ok || bad "21: report.html does not say it"
grep -q '>consistent</span>' "$d/report.html" && bad "21: report.html says consistent" || ok
grep -q 'contradicts stream.jsonl' "$d/junit.xml" && ok || bad "21: junit.xml does not say it"
python3 - "$d/junit.xml" <<'PY' && ok || bad "21: junit.xml has no error"
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
sys.exit(0 if sum(int(s.get("errors")) for s in r.iter("testsuite")) > 0 else 1)
PY
# A summary that counts states over a stream that records none is the same contradiction.
d=$T/f21none
results "$d"
grep -v '"event":"state"' "$d/stream.jsonl" >"$d/s" && mv "$d/s" "$d/stream.jsonl"
expect 3 "contradicts stream.jsonl" -- to "$BO" report "$d"
grep -q 'id="contradiction"' "$d/report.html" && ok || bad "21: no states, no banner"
# The positive control: the summary the stream agrees with is no contradiction.
results "$T/f21ok"
expect 0 -- to "$BO" report "$T/f21ok"
grep -q 'id="contradiction"' "$T/f21ok/report.html" && bad "21: a contradiction where none is" || ok

### 24: XDG_CACHE_HOME naming a file is no empty cache: cache list says what is in the way.
echo x >"$T/xdg-file"
expect 3 "is not a directory" "$T/xdg-file" -- env XDG_CACHE_HOME="$T/xdg-file" "$BO" cache list
grep -q "0 entries" "$T/out" && bad "24: cache list said 0 entries" || ok
expect 3 "is not a directory" -- env XDG_CACHE_HOME="$T/xdg-file" "$BO" cache prune
# The positive control: a cache directory that does not exist yet is empty.
expect 0 -- env XDG_CACHE_HOME="$T/xdg-none" "$BO" cache list
grep -q "^0 entries" "$T/out" && ok || bad "24: an absent cache is not empty: $(cat "$T/out")"

finish
