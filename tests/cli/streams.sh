#!/usr/bin/env bash
# tests/cli/streams.sh BLACKOUT — every reader of stream.jsonl gives the same answer on the
# same streams (tests/fixtures/streams/README.md): report, merge, explain, reproduce and
# shrink read a whole or a torn stream, and refuse a corrupt one naming its line. (The nightly
# baseline reads them in tests/unit/test_baseline.c.) Nothing here boots a VM: reproduce and
# shrink stop at a kernel that does not exist, after reading the stream.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
F=$top/tests/fixtures/streams

# results DIR STREAM: a results directory of a check shard that recorded STREAM.
results() {
	mkdir -p "$1/states/c45"
	cp "$F/$2" "$1/stream.jsonl"
	"$BO" synth --out "$1/write.log" --entries 120 --max-write 2 >/dev/null || bad "synth"
	cp "$top/scenarios/ext4-fsops.ini" "$1/scenario.ini"
	cat >"$1/summary.json" <<'J'
{ "verdict": "failed", "exit_status": 1, "states_checked": 2, "states_aliased": 1,
  "counts": { "consistent": 1, "unmountable": 0, "fsck-dirty": 0, "lost-ack": 1, "phantom": 0,
              "app-recovery-failed": 0, "checker-error": 0, "harness-error": 0 },
  "first_state": { "consistent": "c30", "lost-ack": "c45" },
  "seconds_total": 1.0, "seconds_checking": 1.0 }
J
	cat >"$1/config.json" <<'J'
{ "kind": "check", "run_id": "20260101-000000-0-000001", "log_sha256": "0",
  "options": { "fs": "ext4", "seed": "1" }, "shard": "0/1" }
J
	# The identity of its log, as check records it (merge compares them).
	sed -i "s/\"log_sha256\": \"0\"/\"log_sha256\": \"$(sha256sum <"$1/write.log" | cut -d' ' -f1)\"/" \
		"$1/config.json"
	printf 'state c45: lost-ack\n' >"$1/states/c45/verdict.txt"
}

# Each consumer, run on the results of one stream, with the status it gives a stream it reads.
consumer() { # NAME DIR
	case "$1" in
	report) "$BO" report "$2" ;;
	merge) "$BO" merge --out "$2.merged" "$2" ;;
	explain) "$BO" explain "$2" c45 ;;
	reproduce) "$BO" reproduce "$2" c45 --kernel "$T/no-kernel" ;;
	shrink) "$BO" shrink "$2" --state c45 --kernel "$T/no-kernel" ;;
	esac
}
# What each one exits with once the stream is read: report and explain 0, merge 1 (a lost-ack
# state), reproduce and shrink 3 at the kernel that does not exist.
declare -A read_status=([report]=0 [merge]=1 [explain]=0 [reproduce]=3 [shrink]=3)

for c in report merge explain reproduce shrink; do
	for s in whole torn; do
		results "$T/$c-$s" "$s.jsonl"
		consumer "$c" "$T/$c-$s" >"$T/out" 2>"$T/err"
		st=$?
		if [ "$st" != "${read_status[$c]}" ] || grep -q 'stream.jsonl' "$T/err" ||
			{ [ "$st" = 3 ] && ! grep -q 'kernel' "$T/err"; }; then
			bad "$c on a $s stream exited $st (expected ${read_status[$c]}): $(cat "$T/err")"
		else
			ok
		fi
	done
	for s in corrupt-json corrupt-record newer-format; do
		results "$T/$c-$s" "$s.jsonl"
		expect 3 "stream.jsonl:3:" -- consumer "$c" "$T/$c-$s"
	done
done

# What was read of the torn stream is what the whole one holds: the same merged records, the
# same states in the report.
for s in whole torn; do
	grep -o '"state":"[^"]*"' "$T/merge-$s.merged/stream.jsonl" >"$T/merged-$s"
done
[ -s "$T/merged-whole" ] && cmp -s "$T/merged-whole" "$T/merged-torn" && ok ||
	bad "merge read the torn stream otherwise than the whole one"
grep -q 'was cut short' "$T/report-torn/report.html" && ok || bad "report: torn record not noted"
grep -q 'was cut short' "$T/report-whole/report.html" && bad "report: a whole stream noted torn" || ok
"$BO" explain "$T/explain-torn" c45 >"$T/out" 2>&1
grep -q 'symptom: state c45 (cut after 46 entries) is lost-ack' "$T/out" && ok ||
	bad "explain of the torn stream: $(cat "$T/out")"

# Versioned output (docs/results.md): --json starts with "format": 1; summary.json and
# config.json of a newer format are refused, naming the file and the formats.
format_of() { python3 -c 'import json,sys; print(json.load(sys.stdin).get("format"))'; }
[ "$("$BO" explain --json "$T/explain-whole" c45 | format_of)" = 1 ] && ok ||
	bad "explain --json has no format 1"
[ "$("$BO" inspect --json "$T/explain-whole/write.log" | format_of)" = 1 ] && ok ||
	bad "inspect --json has no format 1"
cp -r "$T/explain-whole" "$T/newer-summary"
sed -i 's/^{ "verdict"/{ "format": 2, "verdict"/' "$T/newer-summary/summary.json"
expect 3 "summary.json: format 2, newer than this blackout reads (1)" -- \
	"$BO" explain "$T/newer-summary" c45
cp -r "$T/explain-whole" "$T/newer-config"
sed -i 's/^{ "kind"/{ "format": 7, "kind"/' "$T/newer-config/config.json"
expect 3 "config.json: format 7, newer than" -- \
	"$BO" reproduce "$T/newer-config" c45 --kernel "$T/no-kernel"
finish
