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
run "$T/tree/a/6.12.118/r2" 6.12.118 '"state":"c10","cut":10,"class":"lost-ack","lost":[10]'
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
run "$T/clean" 6.1.0-57-amd64 '"state":"c10","cut":10,"class":"consistent"'
"$BO" findings "$T/clean" >"$T/out" 2>&1
[ $? = 0 ] && grep -q "^no findings" "$T/out" && ok || bad "a clean run: $(cat "$T/out")"
expect 3 "'$T/nothing' is not a results directory" -- "$BO" findings "$T/nothing"
expect 2 "expected RESULTS" -- "$BO" findings
finish
