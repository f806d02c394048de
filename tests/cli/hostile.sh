#!/usr/bin/env bash
# tests/cli/hostile.sh BLACKOUT — inputs from strangers (docs/safety.md, "Inputs from
# strangers"): results directories, shards, logs and by-products made hostile here — symlinks
# out of the directory, FIFOs, devices, climbing state ids, terminal escapes, fields of the
# wrong type — must not crash, hang, leak what lies outside, or fill the disk. Each block
# names the defect of issue 28 it reproduces. No VM is booted: a command that would boot one
# must refuse before it says "booting".
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

# A secret outside every results directory: no command may show or copy it.
SECRET=$T/secret
echo "TOPSECRET-$$" >"$SECRET"
leaks() { grep -rqs "TOPSECRET-$$" "$@"; }

# Every command runs under a timeout: a FIFO that hangs one fails the test, not the suite.
to() { timeout 20 "$@"; }


# The positive control: the fixture itself is read by every command.
results "$T/good"
expect 0 -- to "$BO" explain "$T/good"
grep -q "recovery complete" "$T/out" && ok || bad "explain does not show dmesg.txt"
expect 1 -- to "$BO" merge --out "$T/good.merged" "$T/good"
cmp -s "$T/good/write.log" "$T/good.merged/write.log" && ok || bad "merge lost write.log"

### 1: a state's findings that are not arrays: an error naming file:line, not an abort.
for key in lost phantom unordered wrong_content; do
	for val in '"x"' '{}' '7' '[1,"a"]' '[-1]'; do
		d=$T/f1-$key-${#val}
		results "$d"
		sed -i "s/\"lost\":\[2,3\]/\"$key\":$val/" "$d/stream.jsonl"
		expect 3 "stream.jsonl:3:" "\"$key\"" -- to "$BO" explain "$d"
		expect 3 "stream.jsonl:3:" -- to "$BO" explain --json "$d" c45
		expect 3 "stream.jsonl:3:" -- to "$BO" merge --out "$d.m" "$d"
		[ -e "$d.m" ] && bad "1: a refused merge left '$d.m'" || ok
		expect 3 "stream.jsonl:3:" -- to "$BO" report "$d"
	done
done

### 2 (and its family): a by-product that is a symlink out of the directory is not read.
d=$T/f2
results "$d"
for f in dmesg.txt fsck.out checker.out mount.err verdict.txt; do
	rm -f "$d/states/c45/$f"
	ln -s "$SECRET" "$d/states/c45/$f"
done
to "$BO" explain "$d" >"$T/out" 2>&1
leaks "$T/out" && bad "2: explain printed a by-product through a symlink" || ok
to "$BO" explain --json "$d" >"$T/out" 2>&1
leaks "$T/out" && bad "2: explain --json printed a by-product through a symlink" || ok
to "$BO" report "$d" >/dev/null 2>&1
leaks "$d/report.html" "$d/junit.xml" && bad "2: report inlined a symlinked by-product" || ok
to "$BO" merge --out "$d.m" "$d" >/dev/null 2>&1
leaks "$d.m" && bad "2: merge copied a symlinked by-product" || ok

### 3: a state id that climbs out of the directory names no file.
d=$T/f3
results "$d"
mkdir -p "$T/s"
echo "TOPSECRET-$$" >"$T/s/mount.err"
echo "TOPSECRET-$$" >"$T/s/dmesg.txt"
echo '{"event":"state","state":"../../s","cut":3,"class":"unmountable"}' >>"$d/stream.jsonl"
to "$BO" explain "$d" ../../s >"$T/out" 2>&1
leaks "$T/out" && bad "3: explain read outside the results directory" || ok
to "$BO" explain --json "$d" ../../s >"$T/out" 2>&1
leaks "$T/out" && bad "3: explain --json read outside the results directory" || ok
to "$BO" report "$d" >/dev/null 2>&1
leaks "$d/report.html" "$d/junit.xml" && bad "3: report read outside the results directory" || ok

### 4: merge never copies a shard's write.log that is a symlink.
d=$T/f4
results "$d"
rm "$d/write.log"
ln -s "$SECRET" "$d/write.log"
expect 3 "write.log" "symlink" -- to "$BO" merge --out "$d.m" "$d"
leaks "$d.m" && bad "4: merge copied the symlinked write.log" || ok
[ -e "$d.m" ] && bad "4: a refused merge left '$d.m' behind" || ok

### 5: merge never copies a device as write.log (gigabytes of /dev/zero).
d=$T/f5
results "$d"
rm "$d/write.log"
ln -s /dev/zero "$d/write.log"
expect 3 "write.log" -- to "$BO" merge --out "$d.m" "$d"
[ -e "$d.m" ] && bad "5: a refused merge left '$d.m' behind" || ok
# ... nor a FIFO, which would hang it.
rm "$d/write.log"
mkfifo "$d/write.log"
expect 3 "write.log" "FIFO" -- to "$BO" merge --out "$d.m" "$d"

### 6: check of /dev/zero copies nothing: refused before a results directory exists.
mkdir -p "$T/r6"
expect 3 "/dev/zero" "character device" -- to "$BO" check /dev/zero --fs ext4 --results "$T/r6"
[ -z "$(ls -A "$T/r6")" ] && ok || bad "6: check of /dev/zero left $(ls "$T/r6")"
grep -q "booting" "$T/err" && bad "6: check of /dev/zero booted a VM" || ok
ln -s "$SECRET" "$T/link.log"
expect 3 "symlink" -- to "$BO" check "$T/link.log" --fs ext4 --results "$T/r6"
[ -z "$(ls -A "$T/r6")" ] && ok || bad "6: check of a symlinked log left $(ls "$T/r6")"

### 7: a state's directory, or states/ itself, that is a symlink is not followed.
mkdir -p "$T/outside/c45"
for f in dmesg.txt fsck.out checker.out mount.err verdict.txt; do
	echo "TOPSECRET-$$" >"$T/outside/c45/$f"
done
for how in states state; do
	d=$T/f7-$how
	results "$d"
	rm -rf "$d/states/c45"
	if [ "$how" = states ]; then
		rm -rf "$d/states"
		ln -s "$T/outside" "$d/states"
	else
		ln -s "$T/outside/c45" "$d/states/c45"
	fi
	to "$BO" explain "$d" c45 >"$T/out" 2>&1
	leaks "$T/out" && bad "7: explain followed a symlinked $how directory" || ok
	to "$BO" explain --json "$d" c45 >"$T/out" 2>&1
	leaks "$T/out" && bad "7: explain --json followed a symlinked $how directory" || ok
	to "$BO" report "$d" >/dev/null 2>&1
	leaks "$d/report.html" "$d/junit.xml" && bad "7: report followed a symlinked $how" || ok
	to "$BO" merge --out "$d.m" "$d" >/dev/null 2>&1
	leaks "$d.m" && bad "7: merge followed a symlinked $how directory" || ok
done

### 8: terminal escapes from a record, an id, the summary, a mark or a by-product never reach
### the terminal raw (ESC[2J, an OSC 8 link); nor from an error message.
raw() { grep -qP '\x1b|\x9b' "$@"; }
d=$T/f8
results "$d"
esc=$(printf '\033[2J\033]8;;http://x\033\\')
printf 'boom %s\n' "$esc" >"$d/states/c45/dmesg.txt"
printf 'fsck %s\n' "$esc" >"$d/states/c45/fsck.out"
sed -i 's/"checker":"exited with status 0"/"checker":"\\u001b[2J","error":"\\u001b]8;;x\\u001b\\\\"/' \
	"$d/stream.jsonl"
sed -i 's/"verdict": "failed"/"verdict": "\\u001b[2Jfailed", "error": "\\u009b31m"/' "$d/summary.json"
python3 - "$d/write.log" <<'PY'
import sys
b = open(sys.argv[1], "rb").read(); i = b.find(b"mkfs")
f = open(sys.argv[1], "r+b"); f.seek(i); f.write(b"\x1b[2J")
PY
echo '{"event":"state","state":"c1\u001b[2J","cut":3,"class":"unmountable"}' >>"$d/stream.jsonl"
expect 0 -- to "$BO" explain "$d"
raw "$T/out" "$T/err" && bad "8: explain printed a raw escape" || ok
grep -qF '\x1b[2J' "$T/out" && ok || bad "8: explain does not show the escape as \x1b"
expect 0 -- to "$BO" explain "$d" c45
raw "$T/out" "$T/err" && bad "8: explain STATE printed a raw escape" || ok
to "$BO" explain "$d" "$(printf 'c9\033[2J')" >"$T/out" 2>"$T/err"
raw "$T/out" "$T/err" && bad "8: explain's error printed a raw escape" || ok
expect 0 -- to "$BO" inspect "$d/write.log"
raw "$T/out" "$T/err" && bad "8: inspect printed a raw escape from a mark name" || ok
grep -qF '\x1b[2J' "$T/out" && ok || bad "8: inspect does not show the mark's escape as \x1b"
expect 0 -- to "$BO" inspect "$d/write.log" --entries 0-3
raw "$T/out" "$T/err" && bad "8: inspect --entries printed a raw escape" || ok
to "$BO" lint "$d/write.log" >"$T/out" 2>"$T/err"
raw "$T/out" "$T/err" && bad "8: lint printed a raw escape" || ok

### 14: explain's suggested commands quote a state id for the shell.
d=$T/f14
results "$d"
sed -i 's/"state":"c45"/"state":"c1;$(touch pwned)"/' "$d/stream.jsonl"
expect 0 -- to "$BO" explain "$d"
grep reproduce "$T/out" | grep -qF " 'c1;\$(touch pwned)'" && ok ||
	bad "14: the state id is not quoted: $(grep reproduce "$T/out")"
grep -F -- "--state" "$T/out" | grep -qF -- "--state 'c1;\$(touch pwned)'" && ok ||
	bad "14: --state is not quoted: $(grep -F -- --state "$T/out")"

### 17: --json output is valid UTF-8 whatever a mark or a field holds.
d=$T/f17
results "$d"
python3 - "$d" <<'PY'
import sys
d = sys.argv[1]
b = open(d + "/write.log", "rb").read(); i = b.find(b"mkfs")
f = open(d + "/write.log", "r+b"); f.seek(i); f.write(b"\xff\xfe\xc0")
s = open(d + "/stream.jsonl", "rb").read().replace(b'"fsck":"clean","checker"', b'"fsck":"\xff\xc3","checker"')
open(d + "/stream.jsonl", "wb").write(s)
PY
printf 'bad \xff\xfe utf-8\n' >"$d/states/c45/dmesg.txt"
utf8() { python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$1"; }
to "$BO" explain --json "$d" c45 >"$T/j" 2>"$T/err"
utf8 "$T/j" 2>/dev/null && ok || bad "17: explain --json is not valid UTF-8 JSON: $(cat "$T/err")"
to "$BO" inspect --json "$d/write.log" >"$T/j" 2>"$T/err"
utf8 "$T/j" 2>/dev/null && ok || bad "17: inspect --json is not valid UTF-8 JSON: $(cat "$T/err")"

### 10 (and 24, check of a corrupt log without --fs: 3): what the host can judge is judged
### before a results directory exists or a VM boots.
"$BO" synth --out "$T/g.log" --entries 120 --max-write 2 >/dev/null
cp "$T/g.log" "$T/c.log"
put_u64 "$T/c.log" 16 100000
mkdir -p "$T/r10"
judged() { # STATUS NEEDLE ARGS...
	local st=$1 needle=$2
	shift 2
	expect "$st" "$needle" -- to "$BO" check "$@" --results "$T/r10"
	grep -q "booting" "$T/err" && bad "10: check $* booted a VM" || ok
	[ -z "$(ls -A "$T/r10")" ] && ok || bad "10: check $* left $(ls "$T/r10")"
}
judged 3 "claims 100000 entries" "$T/c.log" --fs ext4
judged 3 "claims 100000 entries" "$T/c.log"
judged 2 "--fs 'zfs'" "$T/g.log" --fs zfs
judged 2 "--cuts 'bogus'" "$T/g.log" --fs ext4 --cuts bogus
judged 2 "--cuts 'entry:5-3'" "$T/g.log" --fs ext4 --cuts entry:5-3
judged 2 "--state 'c5;x'" "$T/g.log" --fs ext4 --state 'c5;x'
judged 2 "--expect 'bogus'" "$T/g.log" --fs ext4 --state c5 --expect bogus
judged 2 "--mount-options" "$T/g.log" --fs ext4 --mount-options 'a b;c'
judged 2 "mark 'nope'" "$T/g.log" --fs ext4 --from mark:nope

### 11: replay --onto its own log is refused and the log kept.
cp "$T/g.log" "$T/self.log"
sum=$(sha256sum <"$T/self.log")
expect 3 "the log itself" -- to "$BO" replay "$T/self.log" --onto "$T/self.log" --to end
[ "$(sha256sum <"$T/self.log")" = "$sum" ] && ok || bad "11: replay --onto LOG changed the log"
ln "$T/self.log" "$T/hard.log"
expect 3 "the log itself" -- to "$BO" replay "$T/self.log" --onto "$T/hard.log" --to end

### The disk rule: synth says how much it would write and refuses past the free space, and
### leaves no file behind.
expect 3 "would write" "free" "refusing" -- \
	to "$BO" synth --out "$T/huge.log" --entries 100000000000 --max-write 64
[ -e "$T/huge.log" ] && bad "disk: a refused synth left its output" || ok

### 9: a FIFO in place of a file hangs no reader: refused with what it is.
d=$T/f9
results "$d"
for f in stream.jsonl summary.json config.json write.log; do
	cp -r "$d" "$d-$f"
	rm "$d-$f/$f"
	mkfifo "$d-$f/$f"
done
expect 3 "FIFO" -- to "$BO" explain "$d-stream.jsonl"
expect 3 "FIFO" -- to "$BO" explain "$d-summary.json"
expect 3 "FIFO" -- to "$BO" merge --out "$d.m1" "$d-stream.jsonl"
expect 3 "FIFO" -- to "$BO" merge --out "$d.m2" "$d-config.json"
expect 3 "FIFO" -- to "$BO" merge --out "$d.m3" "$d-write.log"
to "$BO" report "$d-write.log" >/dev/null 2>&1; [ $? != 124 ] && ok || bad "9: report hung"
to "$BO" report "$d-stream.jsonl" >/dev/null 2>&1; [ $? != 124 ] && ok || bad "9: report hung"
to "$BO" explain "$d-write.log" >/dev/null 2>&1; [ $? != 124 ] && ok || bad "9: explain hung"
mkfifo "$T/fifo.log"
expect 3 "FIFO" -- to "$BO" inspect "$T/fifo.log"
expect 3 "FIFO" -- to "$BO" lint "$T/fifo.log"
expect 3 "FIFO" -- to "$BO" replay "$T/fifo.log" --onto "$T/x.img" --to end
expect 3 "FIFO" -- to "$BO" check "$T/fifo.log" --fs ext4 --results "$T/r10"
rm -f "$d-states"; results "$d-dm"; rm "$d-dm/states/c45/dmesg.txt"; mkfifo "$d-dm/states/c45/dmesg.txt"
expect 0 -- to "$BO" explain "$d-dm" c45
to "$BO" report "$d-dm" >/dev/null 2>&1; [ $? != 124 ] && ok || bad "9: report hung on a FIFO by-product"
to "$BO" merge --out "$d-dm.m" "$d-dm" >/dev/null 2>&1; [ $? != 124 ] && ok ||
	bad "9: merge hung on a FIFO by-product"

### 13: report writes nothing into a directory that is not a run's results.
mkdir -p "$T/empty13"
expect 3 "not a results directory" -- to "$BO" report "$T/empty13"
[ -z "$(ls -A "$T/empty13")" ] && ok || bad "13: report wrote into an empty directory"
for f in summary.json config.json; do
	d=$T/f13-$f
	results "$d"
	echo 'not json' >"$d/$f"
	expect 3 "$f" -- to "$BO" report "$d"
	[ -e "$d/report.html" ] && bad "13: report wrote report.html over an invalid $f" || ok
	results "$d-newer"
	sed -i '0,/{/s//{ "format": 9,/' "$d-newer/$f"
	expect 3 "format 9" -- to "$BO" report "$d-newer"
	[ -e "$d-newer/report.html" ] && bad "13: report of a newer $f wrote report.html" || ok
done

### 19: a cut that does not parse is a usage error.
expect 2 "entry:abc" -- to "$BO" replay "$T/g.log" --onto "$T/r19.img" --to entry:abc

### 22: --entries past the log's last entry is said, not accepted.
expect 2 "--entries '0-120'" "has 120 entries" -- to "$BO" inspect "$T/g.log" --entries 0-120
expect 0 -- to "$BO" inspect "$T/g.log" --entries 0-119

# The commands below would boot a VM if they did not refuse first: each runs with an empty
# kernel cache, so that even a regression fails on "no kernel" instead of booting one.
mkdir -p "$T/nocache"
novm() { XDG_CACHE_HOME=$T/nocache timeout 20 "$@"; }
scen=$T/s.ini
cp "$top/scenarios/ext4-fsops.ini" "$scen"
nothing_in() { # DIR WHAT: DIR is empty (or absent)
	[ -z "$(ls -A "$1" 2>/dev/null)" ] && ok || bad "$2 left $(ls "$1")"
}

### 9 (the rest of its family): a FIFO as the scenario, the matrix, a baseline, a file
### reproduce or shrink reads, or synth's --out: refused with what it is, nothing left behind.
mkfifo "$T/fifo.ini"
mkdir -p "$T/r9"
expect 3 "FIFO" -- novm "$BO" run "$T/fifo.ini" --results "$T/r9"
nothing_in "$T/r9" "9: run of a FIFO"
expect 3 "FIFO" -- novm "$BO" check "$T/g.log" --scenario "$T/fifo.ini" --results "$T/r9"
nothing_in "$T/r9" "9: check --scenario FIFO"
expect 3 "FIFO" -- novm "$BO" nightly "$T/fifo.ini" --out "$T/n9"
[ ! -e "$T/n9" ] && ok || bad "9: nightly of a FIFO matrix left its tree"
printf '[matrix]\nscenario = fifo.ini\n' >"$T/m9.ini"
expect 3 "m9.ini:2:" "FIFO" -- novm "$BO" nightly "$T/m9.ini" --out "$T/n9"
[ ! -e "$T/n9" ] && ok || bad "9: nightly of a FIFO scenario left its tree"
printf '[matrix]\nscenario = s.ini\n' >"$T/m9.ini"
mkdir -p "$T/base9"
mkfifo "$T/base9/summary.json"
expect 3 "FIFO" -- novm "$BO" nightly "$T/m9.ini" --out "$T/n9" --baseline "$T/base9"
expect 3 "FIFO" -- novm "$BO" nightly "$T/m9.ini" --out "$T/n9" \
	--baseline "$T/base9/summary.json"
[ ! -e "$T/n9" ] && ok || bad "9: nightly of a FIFO baseline left its tree"
# reproduce: each file it reads from the results directory a FIFO in turn.
for f in scenario.ini summary.json stream.jsonl config.json write.log; do
	d=$T/f9r-$f
	results "$d"
	cp "$scen" "$d/scenario.ini"
	rm "$d/$f"
	mkfifo "$d/$f"
	expect 3 "FIFO" -- novm "$BO" reproduce "$d" c45
	[ ! -e "$d/reproduce" ] && ok || bad "9: reproduce of a FIFO $f left reproduce/"
done
d=$T/f9s
results "$d"
mkfifo "$d/scenario.ini"
expect 3 "FIFO" -- novm "$BO" shrink "$d"
expect 3 "FIFO" -- to "$BO" synth --out "$T/fifo.ini" --entries 10
[ -p "$T/fifo.ini" ] && ok || bad "9: synth --out replaced the FIFO"
ln -s "$T/fifo.ini" "$T/link.ini"
expect 3 "FIFO" -- novm "$BO" run "$T/link.ini" --results "$T/r9"
nothing_in "$T/r9" "9: run of a symlink to a FIFO"

### 18: [vm] files and --file are judged on the host, before "booting a VM": a device, a
### socket, a FIFO, a symlink loop or a missing file, with file:line for the scenario's key.
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/sock"
ln -s "$T/loop1" "$T/loop2"
ln -s "$T/loop2" "$T/loop1"
mkdir -p "$T/r18"
i18=0
for f in /dev/zero "$T/sock" "$T/fifo.ini" "$T/loop1" "$T/nonexistent"; do
	i18=$((i18 + 1))
	{ cat "$scen"; printf '\n[vm]\nfiles = %s\n' "$f"; } >"$T/s18-$i18.ini"
	line=$(grep -n '^files = ' "$T/s18-$i18.ini" | cut -d: -f1)
	expect 3 "s18-$i18.ini:$line: [vm] files" "'$f'" -- \
		novm "$BO" run "$T/s18-$i18.ini" --results "$T/r18"
	grep -q "booting" "$T/err" && bad "18: run with [vm] files = $f booted a VM" || ok
	nothing_in "$T/r18" "18: run with [vm] files = $f"
	expect 3 "s18-$i18.ini:$line: [vm] files" -- \
		novm "$BO" check "$T/g.log" --scenario "$T/s18-$i18.ini" --results "$T/r18"
	nothing_in "$T/r18" "18: check --scenario with [vm] files = $f"
	expect 3 "--file" "'$f'" -- novm "$BO" run "$scen" --file "$f" --results "$T/r18"
	grep -q "booting" "$T/err" && bad "18: run --file $f booted a VM" || ok
	nothing_in "$T/r18" "18: run --file $f"
	expect 3 "--file" "'$f'" -- novm "$BO" check "$T/g.log" --fs ext4 --file "$f" \
		--results "$T/r18"
	grep -q "booting" "$T/err" && bad "18: check --file $f booted a VM" || ok
	nothing_in "$T/r18" "18: check --file $f"
done
# The positive control: a regular file and a directory pass the judge (and the run then
# stops on the empty kernel cache, which is what says it got that far).
{ cat "$scen"; printf '\n[vm]\nfiles = %s %s\n' "$SECRET" "$T/nocache"; } >"$T/s18-ok.ini"
expect 3 "no kernel" -- novm "$BO" run "$T/s18-ok.ini" --file "$SECRET" --results "$T/r18"

### 23: mount options with a control character (or a blank, a quote, a byte outside ASCII)
### are refused with file:line or the option, before any boot.
mkdir -p "$T/r23"
for mo in $'noatime\x1b[2J' $'noatime\tx' $'a\x7fb' $'caf\xc3\xa9'; do
	{ sed '/^\[device\]/,$!d' "$scen" | sed "/^size = /a mount_options = $mo"; } >"$T/s23.ini"
	line=$(grep -n '^mount_options' "$T/s23.ini" | cut -d: -f1)
	expect 3 "s23.ini:$line: [device] mount_options" -- \
		novm "$BO" run "$T/s23.ini" --results "$T/r23"
	grep -q $'\x1b' "$T/err" && bad "23: a raw escape reached the terminal" || ok
	printf '[matrix]\nscenario = s.ini\nmount_options = %s\n' "$mo" >"$T/m23.ini"
	expect 3 "m23.ini:3: [matrix] mount_options" -- novm "$BO" nightly "$T/m23.ini" --out "$T/n23"
	[ ! -e "$T/n23" ] && ok || bad "23: nightly left its tree"
	expect 2 "--mount-options" -- novm "$BO" check "$T/g.log" --fs ext4 --mount-options "$mo" \
		--results "$T/r23"
	nothing_in "$T/r23" "23: check --mount-options"
done

### 20: a matrix naming one value of an axis twice is refused at parse time, naming the line
### of the second.
printf '[matrix]\nscenario = s.ini\nfs = ext4\nscenario = %s\n' "$scen" >"$T/m20.ini"
expect 3 "m20.ini:4: [matrix] scenario" "first on line 2" -- \
	novm "$BO" nightly "$T/m20.ini" --out "$T/n20"
cp "$scen" "$T/s-copy.ini"
printf '[matrix]\nscenario = s.ini\nscenario = s-copy.ini\n' >"$T/m20.ini"
sed -i 's/^\[scenario\]/[scenario]\nname = s/' "$T/s.ini" "$T/s-copy.ini"
expect 3 "m20.ini:3: [matrix] scenario" "scenario 's' again" -- \
	novm "$BO" nightly "$T/m20.ini" --out "$T/n20"
sed -i '/^name = s$/d' "$T/s.ini"
for axis in "fs = ext4" "fs = xfs" "mount_options = noatime" "kernel = 6.12" \
	"persona = ignores-flush"; do
	printf '[matrix]\nscenario = s.ini\n%s\nseed = 1\n%s\n' "$axis" "$axis" >"$T/m20.ini"
	expect 3 "m20.ini:5: [matrix] ${axis%% *}" "given twice (first on line 3)" -- \
		novm "$BO" nightly "$T/m20.ini" --out "$T/n20"
done
[ ! -e "$T/n20" ] && ok || bad "20: a matrix refused left its tree"

### 10 (the rest): check --checker of a program the guest cannot have is refused on the host,
### before a results directory exists or a VM boots; what only the guest can judge passes.
XDG_CACHE_HOME=$T/nocache judged 2 "--checker 'nosuch'" "$T/g.log" --fs ext4 --checker nosuch
XDG_CACHE_HOME=$T/nocache judged 2 "--checker '$T/nonexistent --x'" "$T/g.log" --fs ext4 --checker "$T/nonexistent --x"
XDG_CACHE_HOME=$T/nocache judged 2 "not an executable file" "$T/g.log" --fs ext4 --checker "$SECRET"
for ck in "true; echo done" "./check" "FOO=1 sh -c 'echo done'" "echo done" "$(command -v sh) -c :"; do
	expect 3 "no kernel" -- novm "$BO" check "$T/g.log" --fs ext4 --checker "$ck" \
		--results "$T/r10"
done

finish
