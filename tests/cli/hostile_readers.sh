#!/usr/bin/env bash
# tests/cli/hostile_readers.sh BLACKOUT — inputs from strangers (docs/safety.md, "Inputs from
# strangers"): every reader of a results directory bounded. A line of stream.jsonl longer than
# any record, running out of memory, a write.log.idx of gigabytes, JSON documents past their
# format's bound or dense enough to take gigabytes, JSON with text after it, a NUL or nesting
# too deep: each is an error naming the file (and line), never the end of the file, a green
# page, nor gigabytes of memory. Each block names the defect of issue 43 it reproduces. No VM
# is booted: reproduce, shrink and nightly are given a kernel that does not exist, so that one
# that read past the error fails at the boot.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

NOK=(--kernel /nonexistent/vmlinuz --modules /nonexistent)

# peak CMD...: CMD run (its output in $T/out and $T/err, its status in $T/status), its peak
# resident memory in MiB printed.
peak() {
	python3 - "$T" "$@" <<'PY'
import resource, subprocess, sys
t = sys.argv[1]
with open(t + "/out", "w") as o, open(t + "/err", "w") as e:
    st = subprocess.run(["timeout", "120"] + sys.argv[2:], stdout=o, stderr=e).returncode
open(t + "/status", "w").write(str(st))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
PY
}

# limited MIB CMD...: CMD under a timeout (a hang fails the test, not the suite) and a limit of
# its address space (ulimit -v).
limited() {
	local mib=$1
	shift
	(ulimit -v $((mib * 1024)) && exec timeout 60 "$@")
}
# lim CMD...: the same with 1 GiB, where the build can run under a limit at all (a sanitizer's
# shadow memory fits in none).
can_limit=false
results "$T/probe"
limited 1024 "$BO" explain "$T/probe" >/dev/null 2>&1 && can_limit=true
$can_limit || echo "note: this build cannot run under ulimit -v (a sanitizer): unlimited" >&2
lim() { if $can_limit; then limited 1024 "$@"; else timeout 60 "$@"; fi; }

# Every reader of a results directory, DIR as it is: each must exit 3 naming every NEEDLE.
readers() { # DIR NEEDLE...
	local d=$1
	shift
	expect 3 "$@" -- lim "$BO" report "$d"
	expect 3 "$@" -- lim "$BO" explain "$d"
	expect 3 "$@" -- lim "$BO" explain --json "$d" c45
	expect 3 "$@" -- lim "$BO" merge --out "$d.m" "$d"
	[ -e "$d.m" ] && bad "a refused merge left '$d.m'" || ok
	expect 3 "$@" -- lim "$BO" findings "$d"
	expect 3 "$@" -- lim "$BO" reproduce "$d" c45 "${NOK[@]}"
	grep -q booting "$T/err" && bad "reproduce of '$d' booted" || ok
}

# consistent DIR: a results directory whose summary counts only c30, consistent: what the
# stream says when it is read no further than c30.
consistent() {
	results "$1"
	sed -i 's/"lost-ack": 1,/"lost-ack": 0,/; s/, "lost-ack": "c45"//; s/"failed"/"consistent"/' \
		"$1/summary.json"
}

# The positive control: the fixture is read by every command.
results "$T/good"
expect 0 -- lim "$BO" explain "$T/good"
expect 1 -- lim "$BO" merge --out "$T/good.m" "$T/good"
expect 0 -- lim "$BO" report "$T/good"

### 7: a line of 3 GiB in stream.jsonl (a sparse file) before a lost-ack record: an error
### naming file:line, read no further than its bound, never taken for the end of the stream.
d=$T/f7
consistent "$d"
cp "$top/scenarios/ext4-fsops-bug.ini" "$d/scenario.ini"
head -2 "$d/stream.jsonl" >"$d/s"
truncate -s +3G "$d/s"
printf '\n' >>"$d/s"
tail -2 "$d/stream.jsonl" >>"$d/s"
mv "$d/s" "$d/stream.jsonl"
readers "$d" "stream.jsonl:3:" "a line longer than 67108864 bytes"
expect 3 "stream.jsonl:3:" "longer than" -- lim "$BO" shrink "$d" --state c45 "${NOK[@]}"
[ -e "$d/shrink" ] && bad "7: a refused shrink left '$d/shrink'" || ok
[ -e "$d/report.html" ] && grep -q 'consistent' "$d/report.html" &&
	! grep -q 'lost-ack' "$d/report.html" && bad "7: report drew a consistent page" || ok

### 7: running out of memory on a long line (48 MiB, under the bound) is an error naming
### file:line, never the end of the stream.
mib=0
for m in 8 16 24 32 48 64; do
	if limited "$m" "$BO" explain "$T/probe" >/dev/null 2>&1; then
		mib=$m
		break
	fi
done
if [ "$mib" = 0 ]; then
	echo "note: no memory limit this build runs under: out of memory not tried" >&2
else
	d=$T/f7m
	consistent "$d"
	{
		head -2 "$d/stream.jsonl"
		head -c $((48 << 20)) /dev/zero | tr '\0' x
		printf '\n'
		tail -2 "$d/stream.jsonl"
	} >"$d/s"
	mv "$d/s" "$d/stream.jsonl"
	for c in report explain findings; do
		expect 3 "stream.jsonl:3:" "Cannot allocate memory" -- \
			limited $((mib + 24)) "$BO" "$c" "$d"
	done
	expect 3 "stream.jsonl:3:" "Cannot allocate memory" -- \
		limited $((mib + 24)) "$BO" merge --out "$d.m" "$d"
fi

### 9: a write.log.idx of 3 GiB (a sparse file) is not read whole by report: its size does not
### follow from the log's entries, so it is ignored and the log itself read.
d=$T/f9
results "$d"
truncate -s 3G "$d/write.log.idx"
m=$(peak "$BO" report "$d")
[ "$(cat "$T/status")" = 0 ] && ok || bad "9: report exited $(cat "$T/status"): $(cat "$T/err")"
[ "$m" -lt 256 ] && ok || bad "9: report took $m MiB reading a sparse write.log.idx"
grep -q 'c45' "$d/report.html" && ok || bad "9: the report lost the log's states"

### 12: JSON documents bounded by what their writers write: a summary.json past 1 MiB, and
### documents under their bound but dense enough that json-c would take gigabytes.
pad() { # FILE KEY BYTES UNIT: FILE's object with KEY, an array of UNIT, BYTES long
	python3 - "$@" <<'PY'
import sys
path, key, size, unit = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(path).read().rstrip().rstrip("}")
n = max(1, (size - len(text)) // (len(unit) + 1))
open(path, "w").write(text + ', "%s": [%s]}\n' % (key, ",".join([unit] * n)))
PY
}
d=$T/f12
results "$d"
pad "$d/summary.json" pad $((2 << 20)) '"abcdefghijklmnopqrstuvwxyz"'
readers "$d" "summary.json" "more than the 1048576 it may be"
d=$T/f12b
results "$d"
pad "$d/summary.json" pad $((900 << 10)) '{}'
readers "$d" "summary.json:1:" "so many values"
m=$(peak "$BO" report "$d")
[ "$m" -lt 128 ] && ok || bad "12: report took $m MiB reading a dense summary.json"
d=$T/f12c
results "$d"
pad "$d/config.json" pad $((4 << 20)) '{}'
readers "$d" "config.json:1:" "so many values"
d=$T/f12d
results "$d"
head -c $((33 << 20)) /dev/zero | tr '\0' ' ' >>"$d/config.json"
readers "$d" "config.json" "more than the 33554432 it may be"
# The size of the document that was the defect, 120 MB (a sparse file): refused unread.
d=$T/f12e
results "$d"
truncate -s 120M "$d/summary.json"
m=$(peak "$BO" explain "$d")
[ "$(cat "$T/status")" = 3 ] && grep -q "summary.json" "$T/err" && ok ||
	bad "12: explain of a 120 MB summary.json exited $(cat "$T/status"): $(cat "$T/err")"
[ "$m" -lt 64 ] && ok || bad "12: explain took $m MiB for a 120 MB summary.json"
# differential.json (explain of a check --kernels tree) and a nightly baseline: at most 256 MiB,
# and not so dense.
mkdir -p "$T/f12t"
echo '{"format": 1, "kind": "differential", "kernels": [], "states": []}' >"$T/f12t/differential.json"
pad "$T/f12t/differential.json" pad $((4 << 20)) '{}'
expect 3 "differential.json:1:" "so many values" -- lim "$BO" explain "$T/f12t"
printf '[matrix]\nscenario = %s\n' "$top/scenarios/ext4-fsops-bug.ini" >"$T/m12.ini"
mkdir -p "$T/b12"
echo '{"format": 1, "runs": []}' >"$T/b12/summary.json"
pad "$T/b12/summary.json" pad $((4 << 20)) '[]'
expect 3 "b12/summary.json:1:" "so many values" -- \
	lim "$BO" nightly --out "$T/n12" --baseline "$T/b12" --kernel-release 0.0.0-nosuch "$T/m12.ini"
[ -e "$T/n12" ] && bad "12: a refused nightly left '$T/n12'" || ok

### JSON with text after it, a NUL, or nesting past the bound: an error naming file:line, in
### stream.jsonl, summary.json and config.json, for every reader; too deep is said so.
deep() { # N: an array nested N deep
	printf '%*s' "$1" '' | tr ' ' '['
	printf '%*s' "$1" '' | tr ' ' ']'
}
bad_line() { # DIR LINE: the stream's third line replaced with LINE
	sed -i "3d" "$1/stream.jsonl"
	sed -i "2a\\$2" "$1/stream.jsonl"
}
rec='{"seq":2,"time":"2026-01-01T00:00:02.000Z","event":"state","state":"c45","cut":46,"class":"lost-ack","lost":[2,3]'
d=$T/fj1
results "$d"
bad_line "$d" "$rec} {\"event\":\"state\"}"
readers "$d" "stream.jsonl:3:" "text after the JSON value"
d=$T/fj2
results "$d"
bad_line "$d" "$rec,\"x\":$(deep 20)}"
readers "$d" "stream.jsonl:3:" "nested deeper than 12 levels"
d=$T/fj3
results "$d"
bad_line "$d" "$rec,\"x\":$(deep 40)}"
readers "$d" "stream.jsonl:3:" "nested deeper than 12 levels"
d=$T/fj4
results "$d"
python3 - "$d/stream.jsonl" <<'PY'
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
lines[2] = lines[2] + b"\0 and more"
open(sys.argv[1], "wb").write(b"\n".join(lines))
PY
readers "$d" "stream.jsonl:3:" "a NUL byte"
d=$T/fj5
results "$d"
echo '{"counts": {}}' >>"$d/summary.json"
readers "$d" "summary.json:6:" "text after the JSON value"
d=$T/fj6
results "$d"
sed -i "s/\"seconds_total\"/\"x\": $(deep 20), &/" "$d/summary.json"
readers "$d" "summary.json:" "nested deeper than 12 levels"
d=$T/fj7
results "$d"
printf '\0' >>"$d/summary.json"
readers "$d" "summary.json:" "a NUL byte"
d=$T/fj8
results "$d"
echo 'x' >>"$d/config.json"
readers "$d" "config.json:3:" "text after the JSON value"
d=$T/fj9
results "$d"
sed -i "s/\"shard\"/\"x\": $(deep 20), &/" "$d/config.json"
readers "$d" "config.json:" "nested deeper than 12 levels"
# A nightly baseline and a findings --json file: the same.
mkdir -p "$T/bj"
echo '{"format": 1, "runs": []} []' >"$T/bj/summary.json"
expect 3 "bj/summary.json:1:" "text after the JSON value" -- \
	lim "$BO" nightly --out "$T/nj" --baseline "$T/bj" --kernel-release 0.0.0-nosuch "$T/m12.ini"
echo '{"findings": []} {"findings": []}' >"$T/fj.json"
expect 3 "fj.json:1:" "text after the JSON value" -- \
	lim "$BO" findings "$T/good" --baseline "$T/fj.json"
echo "{\"findings\": $(deep 20)}" >"$T/fj.json"
expect 3 "fj.json:1:" "nested deeper than 12 levels" -- \
	lim "$BO" findings "$T/good" --baseline "$T/fj.json"

finish
