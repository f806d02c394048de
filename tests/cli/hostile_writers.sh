#!/usr/bin/env bash
# tests/cli/hostile_writers.sh BLACKOUT — inputs from strangers (docs/safety.md, "Inputs from
# strangers"), what report, junit.xml and merge write: their temporaries, the by-products they
# copy or show, the directories they write into, the log a merge carries. Each block names the
# defect of issue 43 it reproduces. No VM is booted.
. "$(dirname "$0")/lib.sh"

# Every command runs under a timeout: a FIFO that hangs one fails the test, not the suite.
to() { timeout 20 "$@"; }
sha() { sha256sum <"$1" | cut -d' ' -f1; }

# A secret outside every results directory, on the same filesystem (a hard link can reach it).
SECRET=$T/secret
echo "TOPSECRET-$$" >"$SECRET"
leaks() { grep -rqs "TOPSECRET-$$" "$@"; }

### 5: report's temporaries: a hard link to write.log and a FIFO at the names report.html and
### junit.xml were written to before their rename ("NAME.tmp<pid>"): the log keeps its bytes,
### nothing hangs, both documents are written. The shell that plants them execs blackout, so
### the pid is the one blackout has.
for how in link-fifo fifo-link; do
	d=$T/f5-$how
	results "$d"
	want=$(sha "$d/write.log")
	expect 0 -- to bash -c '
		if [ "$2" = link-fifo ]; then
			ln "$1/write.log" "$1/report.html.tmp$$"; mkfifo "$1/junit.xml.tmp$$"
		else
			mkfifo "$1/report.html.tmp$$"; ln "$1/write.log" "$1/junit.xml.tmp$$"
		fi
		exec "$0" report "$1"' "$BO" "$d" "$how"
	[ "$(sha "$d/write.log")" = "$want" ] && ok || bad "5: report ($how) wrote into write.log"
	grep -q '</html>' "$d/report.html" && grep -q '</testsuites>' "$d/junit.xml" && ok ||
		bad "5: report ($how) did not write both documents"
done

### 5 (the family): merge's temporaries, and those of the report it writes at its end (as run
### and check do): config.json, summary.json, report.html, junit.xml of the new directory.
### strace holds each mkdir a moment, so that the names are planted in the directory merge has
### just made, before it writes there: hard links to the shard's write.log, and FIFOs.
if strace -f -qq -o /dev/null true 2>/dev/null; then
	for how in 0 1; do
		d=$T/f5m-$how
		out=$T/f5m-$how.merged
		results "$d"
		want=$(sha "$d/write.log")
		to strace -f -qq -o /dev/null -e trace=mkdir,mkdirat \
			-e inject=mkdir,mkdirat:delay_exit=200000 \
			bash -c 'echo $$ >"$1.pid"; exec "$0" merge --out "$1" "$2"' "$BO" "$out" "$d" \
			>"$T/out" 2>"$T/err" &
		job=$!
		for _ in $(seq 100); do [ -d "$out" ] && [ -s "$out.pid" ] && break; sleep 0.05; done
		pid=$(cat "$out.pid")
		i=$how
		for f in config.json summary.json report.html junit.xml; do
			if [ $((i++ % 2)) = 0 ]; then
				ln "$d/write.log" "$out/$f.tmp$pid"
			else
				mkfifo "$out/$f.tmp$pid"
			fi
		done
		wait "$job"
		st=$?
		# A merge stuck on a FIFO outlives the strace that timeout killed: ended here.
		kill -9 "$pid" 2>/dev/null
		[ "$st" = 1 ] && ok || bad "5: merge with planted temporaries ($how) exited $st: $(cat "$T/err")"
		[ "$(sha "$d/write.log")" = "$want" ] && ok ||
			bad "5: merge ($how) wrote into the shard's write.log through a planted name"
		python3 -c 'import json,sys; [json.load(open(sys.argv[1] + f)) for f in ("/config.json", "/summary.json")]' \
			"$out" 2>/dev/null && grep -q '</html>' "$out/report.html" && ok ||
			bad "5: merge ($how) did not write config.json, summary.json and report.html"
	done
else
	echo "*** SKIP: block 5 (merge): strace cannot trace here ***" >&2
fi

### 6: merge copies no by-product past the 64 MiB a by-product may be (a sparse file of 100 MiB
### would be 100 MiB of output): refused, naming the shard's file, nothing left; report shows
### none of it and says why.
d=$T/f6
results "$d"
truncate -s 100M "$d/states/c45/dmesg.txt"
expect 3 "states/c45/dmesg.txt" "104857600 bytes" -- to "$BO" merge --out "$d.m" "$d"
[ -e "$d.m" ] && bad "6: a refused merge left '$d.m' ($(du -sh "$d.m" | cut -f1))" || ok
expect 0 -- to "$BO" report "$d"
grep -q "not shown:.*states/c45/dmesg.txt.*104857600 bytes" "$d/report.html" && ok ||
	bad "6: report.html does not say why dmesg.txt is not shown"
grep -q "not shown:.*states/c45/dmesg.txt.*104857600 bytes" "$d/junit.xml" && ok ||
	bad "6: junit.xml does not say why dmesg.txt is not shown"
# The positive control: a by-product of the bound is copied whole.
truncate -s 64M "$d/states/c45/dmesg.txt"
expect 1 -- to "$BO" merge --out "$d.m" "$d"
[ "$(stat -c %s "$d.m/states/c45/dmesg.txt" 2>/dev/null)" = 67108864 ] && ok ||
	bad "6: a by-product of 64 MiB was not merged"

### 16: junit.xml's repro line is one a shell reads as the path of repro.sh (quoted: a results
### directory with a blank, a state id from summary.json with a command in it), and the whole
### repro.sh is shown, escaped, not the one line starting with "exec".
d="$T/f16 dir"
results "$d"
printf '#!/bin/sh\nexec true\nrm -rf "$HOME" # \033[8m hidden\n' >"$d/states/c45/repro.sh"
expect 0 -- to "$BO" report "$d"
grep -qF "repro: sh &#39;$d/states/c45/repro.sh&#39;" "$d/junit.xml" && ok ||
	bad "16: the repro line is not quoted: $(grep 'repro:' "$d/junit.xml")"
grep -qF 'rm -rf &quot;$HOME&quot;' "$d/junit.xml" && ok ||
	bad "16: junit.xml does not show the whole repro.sh"
grep -qP '\x1b' "$d/junit.xml" "$d/report.html" && bad "16: a raw escape from repro.sh" || ok
grep -q 'which runs\|&nbsp;runs' "$d/junit.xml" "$d/report.html" &&
	bad "16: a report says what repro.sh runs from one line of it" || ok
python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$d/junit.xml" &&
	ok || bad "16: junit.xml is not XML"
d=$T/f16id
results "$d"
sed -i 's/"lost-ack": "c45"/"lost-ack": "c1;$(touch pwned)"/' "$d/summary.json"
mkdir -p "$d/states/c1;\$(touch pwned)"
printf '#!/bin/sh\nexec true\n' >"$d/states/c1;\$(touch pwned)/repro.sh"
to "$BO" report "$d" >/dev/null 2>&1
grep 'repro: sh' "$d/junit.xml" | grep -qF 'c1;$(touch pwned)' &&
	bad "16: an id with a command is in the repro line: $(grep 'repro:' "$d/junit.xml")" || ok

### 20: report writes nothing into a directory that is not results blackout made: one holding
### only a config.json, only a stream.jsonl, or both with states/ but a config.json of no run
### or check. The positive control: the results of a check.
results "$T/good"
mkdir -p "$T/f20a" "$T/f20b" "$T/f20c/states"
echo '{ "kind": "check" }' >"$T/f20a/config.json"
head -2 "$T/good/stream.jsonl" >"$T/f20b/stream.jsonl"
echo '{ "name": "somebody else", "run_id": "x" }' >"$T/f20c/config.json"
cp "$T/f20b/stream.jsonl" "$T/f20c/stream.jsonl"
for x in a:"stream.jsonl, states/" b:"config.json, states/" c:"a config.json of a run or a check"; do
	dir=$T/f20${x%%:*}
	before=$(ls -A "$dir")
	expect 3 "not a results directory" "no ${x#*:}" -- to "$BO" report "$dir"
	[ "$(ls -A "$dir")" = "$before" ] && ok || bad "20: report wrote into $dir: $(ls "$dir")"
done
expect 0 -- to "$BO" report "$T/good"

### 23: merge refuses a shard whose write.log is not the log its config.json names
### (log_sha256), naming the shard; alone, or beside a good one.
d=$T/f23
results "$d"
"$BO" synth --out "$d/other.log" --entries 120 --max-write 2 --seed 9 >/dev/null
mv "$d/other.log" "$d/write.log"
expect 3 "shard '$d'" "log_sha256" -- to "$BO" merge --out "$d.m" "$d"
[ -e "$d.m" ] && bad "23: a refused merge left '$d.m'" || ok
results "$T/f23a"
results "$T/f23b"
cp "$T/f23a/write.log" "$T/f23b/write.log"
rm -r "$T/f23b/states/c45"
sed 's|"shard": "0/1"|"shard": "1/2"|' "$T/f23a/config.json" >"$T/f23b/config.json"
sed -i 's|"shard": "0/1"|"shard": "0/2"|' "$T/f23a/config.json"
expect 1 -- to "$BO" merge --out "$T/f23.ok" "$T/f23a" "$T/f23b"
"$BO" synth --out "$T/f23b/write.log.new" --entries 120 --max-write 2 --seed 9 >/dev/null
mv "$T/f23b/write.log.new" "$T/f23b/write.log"
expect 3 "shard '$T/f23b'" "log_sha256" -- to "$BO" merge --out "$T/f23.m" "$T/f23a" "$T/f23b"
# A shard whose config.json names no log at all.
results "$T/f23c"
printf '{ "kind": "check", "run_id": "x", "options": { "fs": "ext4" }, "shard": "0/1" }\n' \
	>"$T/f23c/config.json"
expect 3 "log_sha256" -- to "$BO" merge --out "$T/f23c.m" "$T/f23c"

### 22 (merge's part): a shard's "I/N" past 2^32 is not its low bits: 2^32/2 is no shard 0/2.
results "$T/f22a"
results "$T/f22b"
cp "$T/f22a/write.log" "$T/f22b/write.log"
rm -r "$T/f22b/states/c45"
sed -i 's|"shard": "0/1"|"shard": "4294967296/2"|' "$T/f22a/config.json"
sed -i 's|"shard": "0/1"|"shard": "1/2"|' "$T/f22b/config.json"
expect 3 "is not a shard" -- to "$BO" merge --out "$T/f22.m" "$T/f22a" "$T/f22b"
[ -e "$T/f22.m" ] && bad "22: a refused merge left '$T/f22.m'" || ok

### A by-product that is a hard link (here to a file outside the directory) is not inlined by
### report nor copied by merge: refused with what it is.
d=$T/fl
results "$d"
rm "$d/states/c45/dmesg.txt"
ln "$SECRET" "$d/states/c45/dmesg.txt"
expect 0 -- to "$BO" report "$d"
leaks "$d/report.html" "$d/junit.xml" && bad "links: report inlined a hard-linked by-product" || ok
grep -q "states/c45/dmesg.txt.*hard link" "$d/report.html" && ok ||
	bad "links: report.html does not say the by-product is a hard link"
expect 3 "states/c45/dmesg.txt" "hard link" -- to "$BO" merge --out "$d.m" "$d"
leaks "$d.m" && bad "links: merge copied a hard-linked by-product" || ok
[ -e "$d.m" ] && bad "links: a refused merge left '$d.m'" || ok

### A refused by-product does not vanish from the report without a word: report.html and
### junit.xml say that states/<id>/<file> was not shown, and why (a FIFO, a symlink).
d=$T/fr
results "$d"
rm "$d/states/c45/dmesg.txt" "$d/states/c45/verdict.txt"
mkfifo "$d/states/c45/dmesg.txt"
ln -s "$SECRET" "$d/states/c45/verdict.txt"
expect 0 -- to "$BO" report "$d"
for doc in report.html junit.xml; do
	grep -q "not shown:.*states/c45/dmesg.txt.*FIFO" "$d/$doc" && ok ||
		bad "refused: $doc does not say dmesg.txt is a FIFO"
	grep -q "not shown:.*states/c45/verdict.txt.*symlink" "$d/$doc" && ok ||
		bad "refused: $doc does not say verdict.txt is a symlink"
done
leaks "$d/report.html" "$d/junit.xml" && bad "refused: the symlink was followed" || ok

### Check-then-open: report opens write.log once and reads that descriptor; it used to check
### it on one descriptor and let the log reader open the name again (block devices allowed).
if strace -f -qq -o /dev/null true 2>/dev/null; then
	d=$T/fo
	results "$d"
	strace -f -qq -e trace=open,openat,openat2 -o "$T/trace" "$BO" report "$d" >/dev/null 2>&1
	n=$(grep -c 'write\.log"' "$T/trace")
	[ "$n" = 1 ] && ok || bad "check-then-open: report opened write.log $n times"
else
	echo "*** SKIP: check-then-open: strace cannot trace here ***" >&2
fi

finish
