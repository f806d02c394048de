#!/usr/bin/env bash
# blackout findings on crafted results, without a VM: the failing states of two runs of
# builtin bounded (two kernels) grouped by signature — kernel, class, the kind of op lost and
# the workload's ops after its setup — each with its count of states and workloads and its
# smallest workload; a tree is searched for its runs without following links; a run that
# cannot be read is named, and the others still reported.
. "$(dirname "$0")/lib.sh"

# run DIR KERNEL STATE-LINES...: a results directory of builtin bounded, length 1, on ext4.
run() {
	local d=$1 k=$2
	shift 2
	mkdir -p "$d"
	printf '[device]\nfs = ext4\n[workload]\nbuiltin = bounded\nlength = 1\n[check]\ncuts = ack\n' \
		>"$d/scenario.ini"
	printf '{"format":1,"device":{"fs":"ext4","mkfs_options":"","mount_options":""},"run":{"seed":1},"kernel":{"release":"%s"}}\n' \
		"$k" >"$d/config.json"
	cat >"$d/summary.json" <<'JSON'
{ "verdict": "failed", "exit_status": 1, "states_checked": 4, "states_aliased": 0,
  "counts": { "consistent": 0, "unmountable": 1, "fsck-dirty": 0, "lost-ack": 3, "phantom": 0,
              "app-recovery-failed": 0, "checker-error": 0, "harness-error": 0 },
  "seconds_total": 1.0, "seconds_checking": 1.0 }
JSON
	{
		echo '{"seq":0,"time":"2026-01-01T00:00:00.000Z","event":"stack","device":"/dev/mapper/x"}'
		local i=1
		for s in "$@"; do
			echo "{\"seq\":$i,\"time\":\"2026-01-01T00:00:0$i.000Z\",\"event\":\"state\",$s}"
			i=$((i + 1))
		done
		echo "{\"seq\":$i,\"time\":\"2026-01-01T00:00:09.000Z\",\"event\":\"end\"}"
	} >"$d/stream.jsonl"
}

# seq1-00000 is ids 1-10 (its setup 1-8, then write d0/f0, fsync-file d0/f0: ack 10);
# seq1-00001 is ids 11-20 (write d0/f0, fsync-dir d0: ack 20).
"$(dirname "$BO")/blackout-fsops" list --bounded 1 --workloads 0-1 | cut -d' ' -f1,2 |
	sed -n '9,10p;19,20p' | tr '\n' ' ' | grep -qx '9 write 10 fsync-file 19 write 20 fsync-dir ' &&
	ok || bad "seq1-00000/1 are not the workloads this test is for"
run "$T/tree/a/6.1.0-57-amd64/r1" 6.1.0-57-amd64 \
	'"state":"c10","cut":10,"class":"lost-ack","lost":[10]' \
	'"state":"c11","cut":11,"class":"lost-ack","lost":[10]' \
	'"state":"c20","cut":20,"class":"lost-ack","lost":[20]' \
	'"state":"c21","cut":21,"class":"unmountable"'
# 6.12's run where nightly over two kernels keeps it: NIGHTLY/runs/<cell>/<id>/<release>/<run>.
run "$T/tree/runs/cell/id/6.12.118/r2" 6.12.118 '"state":"c10","cut":10,"class":"lost-ack","lost":[10]'
ln -s "$T/tree/a" "$T/tree/loop"

"$BO" findings "$T/tree" >"$T/out" 2>"$T/err"
[ $? = 1 ] && ok || bad "findings: not exit 1: $(cat "$T/err")"
for n in "finding 1: lost-ack of fsync-file after [write, fsync-file] — ext4 (- / -) on 6.1.0-57-amd64" \
	"2 states, 1 workload; smallest seq1-00000 (10 ops)" \
	"blackout explain $T/tree/a/6.1.0-57-amd64/r1 c10" \
	"lost-ack of fsync-dir after [write, fsync-dir] — ext4 (- / -) on 6.1.0-57-amd64" \
	"lost-ack of fsync-file after [write, fsync-file] — ext4 (- / -) on 6.12.118" \
	"unmountable of - — ext4 (- / -) on 6.1.0-57-amd64"; do
	grep -qF -- "$n" "$T/out" && ok || bad "findings lacks '$n': $(cat "$T/out")"
done
[ "$(grep -c '^finding ' "$T/out")" = 4 ] && ok || bad "not 4 findings: $(cat "$T/out")"
"$BO" findings --json "$T/tree" >"$T/out" 2>"$T/err"
python3 - "$T/out" <<'PY' && ok || bad "findings --json: $(head -c 400 "$T/out")"
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert [x["states"] for x in f] == [2, 1, 1, 1], f
assert f[0]["smallest"] == "seq1-00000" and f[0]["skeleton"] == "write, fsync-file", f[0]
PY
# A run with a corrupt stream is named; the others are still grouped; exit 3.
run "$T/bad" 6.1.0-57-amd64 '"state":"c10","cut":10,"class":"lost-ack","lost":[10]'
printf '{"seq":1,"event":"state",\n' >>"$T/bad/stream.jsonl"
"$BO" findings "$T/bad" "$T/tree" >"$T/out" 2>"$T/err"
[ $? = 3 ] && ok || bad "a corrupt run: not exit 3"
grep -q "$T/bad" "$T/err" && ok || bad "the corrupt run is not named: $(cat "$T/err")"
grep -q "^finding 4:" "$T/out" && ok || bad "the other runs were not reported"
# Against a baseline: the tree against itself changes nothing (exit 0 with findings).
"$BO" findings --baseline "$T/tree" "$T/tree" >"$T/out" 2>"$T/err"
[ $? = 0 ] && ok || bad "findings against itself: not exit 0: $(cat "$T/out" "$T/err")"
grep -qF "finding 1 (unchanged): lost-ack of fsync-file" "$T/out" &&
	grep -qF ": 0 new, 4 unchanged, 0 fixed, 0 not run" "$T/out" && ok ||
	bad "findings against itself: $(cat "$T/out")"
# Tonight 6.1 only: fsync-dir's loss is gone (fixed), an fsck-dirty state is new, and 6.12's
# finding was not run — not fixed. The baseline is what findings --json wrote.
"$BO" findings --json "$T/tree" >"$T/base.json"
run "$T/night/6.1.0-57-amd64/r1" 6.1.0-57-amd64 \
	'"state":"c10","cut":10,"class":"lost-ack","lost":[10]' \
	'"state":"c20","cut":20,"class":"consistent"' \
	'"state":"c21","cut":21,"class":"unmountable"' \
	'"state":"c22","cut":22,"class":"fsck-dirty"'
"$BO" findings --baseline "$T/base.json" "$T/night" >"$T/out" 2>"$T/err"
[ $? = 1 ] && ok || bad "a new finding: not exit 1: $(cat "$T/out" "$T/err")"
for n in "(new): fsck-dirty of - — ext4 (- / -) on 6.1.0-57-amd64" \
	"(unchanged): lost-ack of fsync-file after [write, fsync-file] — ext4 (- / -) on 6.1.0-57-amd64" \
	"(unchanged): unmountable of -" \
	"fixed: lost-ack of fsync-dir after [write, fsync-dir] — ext4 (- / -) on 6.1.0-57-amd64" \
	"not run: lost-ack of fsync-file after [write, fsync-file] — ext4 (- / -) on 6.12.118" \
	": 1 new, 2 unchanged, 1 fixed, 1 not run"; do
	grep -qF -- "$n" "$T/out" && ok || bad "findings --baseline lacks '$n': $(cat "$T/out")"
done
"$BO" findings --json --baseline "$T/base.json" "$T/night" >"$T/out" 2>"$T/err"
python3 - "$T/out" <<'PY' && ok || bad "findings --json --baseline: $(head -c 600 "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert sorted(x["status"] for x in d["findings"]) == ["new", "unchanged", "unchanged"], d
assert sorted(x["status"] for x in d["gone"]) == ["fixed", "not run"], d
PY
# A stranger's strings reach no terminal raw: an escape in a kernel's release, in a
# baseline's filesystem; a baseline that is not findings' JSON is refused, named.
run "$T/esc" "$(printf 'x\033]0;owned\007')" '"state":"c10","cut":10,"class":"lost-ack","lost":[10]'
printf '{"findings":[{"fs":"e\\u001b[2J","options":"","kernel":"k","class":"c","promise":"p","skeleton":"-","states":1}]}' >"$T/esc.json"
"$BO" findings --baseline "$T/esc.json" "$T/esc" >"$T/out" 2>&1
! grep -q "$(printf '\033')" "$T/out" && grep -qF 'x\x1b]0;owned\x07' "$T/out" &&
	grep -qF 'e\x1b[2J' "$T/out" && ok || bad "a control character reached the output: $(cat -v "$T/out")"
echo '{"findings": 3}' >"$T/nota.json"
expect 3 "$T/nota.json" -- "$BO" findings --baseline "$T/nota.json" "$T/tree"
echo '{"findings": [{"fs": 1}]}' >"$T/nota.json"
expect 3 "finding 1 lacks" -- "$BO" findings --baseline "$T/nota.json" "$T/tree"
expect 3 "$T/nothing" -- "$BO" findings --baseline "$T/nothing" "$T/tree"
run "$T/clean" 6.1.0-57-amd64 '"state":"c10","cut":10,"class":"consistent"'
"$BO" findings "$T/clean" >"$T/out" 2>&1
[ $? = 0 ] && grep -q "^no findings" "$T/out" && ok || bad "a clean run: $(cat "$T/out")"
expect 3 "'$T/nothing' is not a results directory" -- "$BO" findings "$T/nothing"
# A directory with no run in it is no evidence of anything: named, exit 3, never "consistent".
mkdir -p "$T/empty/runs/cell"
"$BO" findings "$T/empty" >"$T/out" 2>"$T/err"
[ $? = 3 ] && grep -qF "'$T/empty' holds no results directory" "$T/err" &&
	! grep -q "consistent" "$T/out" && ok || bad "an empty tree: $(cat "$T/out" "$T/err")"
"$BO" findings "$T/clean" "$T/empty" >"$T/out" 2>&1
[ $? = 3 ] && grep -qF "no findings: every state of 1 run read is consistent" "$T/out" && ok ||
	bad "a clean run beside an empty tree: $(cat "$T/out")"
# A run that cannot be read is not counted among the consistent ones.
"$BO" findings "$T/bad" >"$T/out" 2>"$T/err"
[ $? = 3 ] && grep -q "$T/bad" "$T/err" && ! grep -q "consistent" "$T/out" && ok ||
	bad "an unreadable run alone: $(cat "$T/out" "$T/err")"
expect 2 "expected RESULTS" -- "$BO" findings
finish
