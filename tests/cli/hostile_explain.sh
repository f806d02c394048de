#!/usr/bin/env bash
# tests/cli/hostile_explain.sh BLACKOUT — inputs from strangers (docs/safety.md, "Inputs from
# strangers"), the commands that read a results directory or a tree of several kernels for
# diagnosis: explain, inspect, reproduce, shrink, findings, and report and merge where they
# read the same files. Fields of the wrong type, alias records in a cycle, paths that leave
# the tree, escapes and newlines in ids and names. Each block names the defect of issue 43 it
# reproduces. No VM is booted: a command that would boot one is given a kernel that does not
# exist, so that one that did not refuse fails at the boot ("booting").
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

to() { timeout 20 "$@"; }
NOK=(--kernel /nonexistent/vmlinuz --modules /nonexistent)
booted() { grep -q "booting" "$T/err"; }

# A secret outside every results directory: no command may show it.
SECRET=$T/secret
echo "TOPSECRET-$$" >"$SECRET"
leaks() { grep -rqs "TOPSECRET-$$" "$@"; }

# tree DIR KIND: the tree of a check --kernels (KIND differential) or a run --kernels (marks)
# over two kernels, each with the fixture's results; a state c45 and a mark ack:2 that differ.
tree() {
	local rows
	results "$1/6.1/run"
	results "$1/6.12/run"
	if [ "$2" = marks ]; then
		rows='"marks": [{"mark": "ack:2", "differs": true, "lint_differs": false,
  "missing": false, "kernels": {
    "6.1": {"present": true, "verdict": "lost-ack", "lint": null, "state": "c45"},
    "6.12": {"present": true, "verdict": "lost-ack", "lint": null, "state": "c45"}}}]'
	else
		rows='"states": [{"state": "c45", "cut": 46, "differs": true,
  "classes": {"6.1": "lost-ack", "6.12": "consistent"},
  "findings": {"6.1": "lost-ack: op 2, 3", "6.12": ""}}]'
	fi
	cat >"$1/differential.json" <<J
{"format": 1, "kind": "$2", "differing": 1, "kernels": [
  {"release": "6.1", "results": "6.1/run", "exit_status": 1},
  {"release": "6.12", "results": "6.12/run", "exit_status": 1}],
 $rows}
J
}
# set_json FILE PYTHON [FILE PYTHON]...: each FILE's JSON document as d, changed by its
# PYTHON (one interpreter for all: it is slow to start).
set_json() {
	python3 - "$@" <<'PY'
import json, sys
for f, change in zip(sys.argv[1::2], sys.argv[2::2]):
    d = json.load(open(f)); exec(change); json.dump(d, open(f, "w"))
PY
}

# The positive control: the fixture is read by every command below.
results "$T/good"
expect 0 -- to "$BO" explain "$T/good"
grep -q "first lost-ack state: c45" "$T/out" && ok || bad "explain lost the first state"
expect 0 -- to "$BO" explain --json "$T/good" c45

### 1: a field of summary.json or config.json walked as an object or an array is type-checked
### where it is read: an error naming the file and the field (exit 3), never a crash.
edits=()
i1=0
for val in '[1, 2]' '"c45"' 'None' '{"lost-ack": {}}'; do
	i1=$((i1 + 1))
	results "$T/f1-first-$i1"
	cp "$top/scenarios/ext4-fsops-bug.ini" "$T/f1-first-$i1/scenario.ini"
	edits+=("$T/f1-first-$i1/summary.json" "d['first_state'] = $val")
done
i1=0
changes=("options=[1]" "kernel='x'" "run=7" "files=['/x', 7]" "files={}" "scenario=None")
for change in "${changes[@]}"; do
	i1=$((i1 + 1))
	results "$T/f1-cfg-$i1"
	cp "$top/scenarios/ext4-fsops-bug.ini" "$T/f1-cfg-$i1/scenario.ini"
	edits+=("$T/f1-cfg-$i1/config.json" "d['${change%%=*}'] = ${change#*=}")
done
set_json "${edits[@]}"
for d in "$T"/f1-first-*; do
	expect 3 "summary.json" '"first_state"' -- to "$BO" explain "$d"
	expect 3 "summary.json" '"first_state"' -- to "$BO" explain --json "$d" c45
	expect 3 "summary.json" '"first_state"' -- to "$BO" report "$d"
	expect 3 "summary.json" '"first_state"' -- to "$BO" reproduce "$d" c45 "${NOK[@]}"
	booted && bad "1: reproduce booted over a bad first_state" || ok
	expect 3 '"first_state"' -- to "$BO" findings "$d"
done
i1=0
for change in "${changes[@]}"; do
	i1=$((i1 + 1))
	d=$T/f1-cfg-$i1
	field=${change%%=*}
	expect 3 "config.json" "\"$field\"" -- to "$BO" explain "$d"
	expect 3 "config.json" "\"$field\"" -- to "$BO" explain --json "$d" c45
	expect 3 "config.json" "\"$field\"" -- to "$BO" reproduce "$d" c45 "${NOK[@]}"
	booted && bad "1: reproduce booted over a bad \"$field\"" || ok
	expect 3 "config.json" "\"$field\"" -- to "$BO" shrink "$d" "${NOK[@]}"
	booted && bad "1: shrink booted over a bad \"$field\"" || ok
	[ -e "$d/shrink" ] && bad "1: a refused shrink left shrink/" || ok
	expect 3 "config.json" "\"$field\"" -- to "$BO" report "$d"
	expect 3 "config.json" "\"$field\"" -- to "$BO" merge --out "$d.m" "$d"
	[ -e "$d.m" ] && bad "1: a refused merge left '$d.m'" || ok
	expect 3 "config.json" -- to "$BO" findings "$d"
done
# differential.json, of either kind, is checked whole by its one reader before explain walks it.
tree "$T/f1-tree-differential" differential
tree "$T/f1-tree-marks" marks
edits=()
i1=0
for change in "differential:d['kernels'] = [1, 'x', None]" \
	"differential:d['kernels'][0] = {'release': '6.1'}" \
	"differential:d['kernels'][1]['results'] = 7" \
	"differential:d['kernels'][0]['exit_status'] = '1'" \
	"differential:d['states'] = {'c45': {}}" \
	"differential:d['states'][0]['classes'] = {'6.1': [1], '6.12': {}}" \
	"differential:d['states'][0]['classes'] = ['lost-ack']" \
	"differential:d['states'][0]['findings'] = [1]" \
	"differential:d['states'][0]['differs'] = 'yes'" "differential:d['states'] = [7]" \
	"differential:d['kind'] = 7" "marks:d['marks'][0]['kernels'] = [1]" \
	"marks:d['marks'][0]['kernels']['6.1'] = [1]" \
	"marks:d['marks'][0]['kernels']['6.1']['state'] = ['c45']" \
	"marks:d['marks'][0]['kernels']['6.12']['verdict'] = {}" "marks:d['marks'] = 'ack:2'" \
	"marks:d['marks'][0]['mark'] = 2" "marks:d['marks'][0]['lint_differs'] = 1"; do
	i1=$((i1 + 1))
	cp -a "$T/f1-tree-${change%%:*}" "$T/f1-diff-$i1"
	edits+=("$T/f1-diff-$i1/differential.json" "${change#*:}")
done
set_json "${edits[@]}"
for d in "$T"/f1-diff-*; do
	expect 3 "differential.json'" -- to "$BO" explain "$d"
done
expect 3 "differential.json'" -- to "$BO" explain --json "$T/f1-diff-1" c45
expect 3 "differential.json'" -- to "$BO" explain --json "$T/f1-diff-12" ack:2

### 2: alias records that point at each other (c1 -> c2 -> c1, or c1 -> c1) are followed with
### a cycle check, in the one place aliases are followed: an error naming the cycle, never a
### stack overflow or a hang; a chain longer than the bound is refused the same way.
alias() { # DIR STATE OF
	printf '{"event":"alias","state":"%s","cut":50,"alias_of":"%s","class":"lost-ack"}\n' \
		"$2" "$3" >>"$1/stream.jsonl"
}
d=$T/f2
results "$d"
cp "$top/scenarios/ext4-fsops-bug.ini" "$d/scenario.ini"
alias "$d" c1 c2
alias "$d" c2 c1
alias "$d" c3 c3
for id in c1 c2; do
	expect 3 "cycle" "c1 -> c2 -> c1" -- to "$BO" explain "$d" c1
	expect 3 "cycle" -- to "$BO" explain --json "$d" "$id"
	expect 3 "cycle" -- to "$BO" reproduce "$d" "$id" "${NOK[@]}"
	booted && bad "2: reproduce of an alias cycle booted" || ok
	[ -e "$d/reproduce" ] && bad "2: a refused reproduce left reproduce/" || ok
done
expect 3 "cycle" "c3 -> c3" -- to "$BO" explain "$d" c3
expect 3 "cycle" "c3 -> c3" -- to "$BO" reproduce "$d" c3 "${NOK[@]}"
# A chain past the bound, and an alias of a state with no record.
for i in $(seq 1 40); do alias "$d" "a$i" "a$((i + 1))"; done
alias "$d" a41 c45
expect 3 "more than 16 deep" -- to "$BO" explain "$d" a1
expect 3 "more than 16 deep" -- to "$BO" reproduce "$d" a1 "${NOK[@]}"
alias "$d" d1 c99
expect 3 "alias of a state it has no record of" "d1 -> c99" -- to "$BO" explain "$d" d1
# The rest of the directory is still read: its first failing state, and an alias of it.
expect 0 -- to "$BO" explain "$d"
grep -q "symptom: state c45" "$T/out" && ok || bad "2: explain lost the failing state"
expect 0 "alias of c45" -- to "$BO" explain "$d" a30
grep -q "symptom: state c45" "$T/out" && ok || bad "2: an alias does not stand for c45"
# The commands that read the stream without following aliases are not caught by them.
expect 1 -- to "$BO" findings "$d"
expect 0 -- to "$BO" report "$d"

### 3: a tree's differential.json that names a kernel's results outside the tree (an absolute
### path, ../..) or through a symlink: refused naming the field, and nothing outside is read.
# A results directory outside the tree, whose by-products hold the secret.
results "$T/outside"
cp "$SECRET" "$T/outside/states/c45/dmesg.txt"
cp "$SECRET" "$T/outside/states/c45/mount.err"
mkdir -p "$T/outside2"
cp -a "$T/outside" "$T/outside2/run"
paths=("$T/outside" "../../$(basename "$T")/outside" "6.1/../../outside" "./6.1/run" "6.1//run"
	"6.1/run/" "")
edits=()
for kind in differential marks; do
	d=$T/f3-$kind
	tree "$d" "$kind"
	for i3 in "${!paths[@]}"; do
		cp -a "$d" "$d-$i3"
		edits+=("$d-$i3/differential.json" "d['kernels'][1]['results'] = '${paths[$i3]}'")
	done
	cp -a "$d" "$d-rel"
	edits+=("$d-rel/differential.json" "d['kernels'][0]['release'] = '../6.1'")
done
set_json "${edits[@]}"
for kind in differential marks; do
	d=$T/f3-$kind
	id=$([ "$kind" = marks ] && echo ack:2 || echo c45)
	expect 0 -- to "$BO" explain "$d"
	grep -q "== 6.12" "$T/out" && ok || bad "3: the $kind tree is not explained: $(cat "$T/out")"
	for i3 in "${!paths[@]}"; do
		expect 3 "differential.json': kernels[1].results" -- to "$BO" explain "$d-$i3"
		leaks "$T/out" && bad "3: explain read '${paths[$i3]}' outside the tree" || ok
		expect 3 "differential.json': kernels[1].results" -- \
			to "$BO" explain --json "$d-$i3" "$id"
		leaks "$T/out" && bad "3: explain --json read '${paths[$i3]}' outside the tree" || ok
	done
	# A plain path that is a symlink out of the tree: the kernel's directory, or one above.
	cp -a "$d" "$d-link"
	rm -rf "$d-link/6.12/run"
	ln -s "$T/outside" "$d-link/6.12/run"
	cp -a "$d" "$d-link2"
	rm -rf "$d-link2/6.12"
	ln -s "$T/outside2" "$d-link2/6.12"
	for t in "$d-link" "$d-link2"; do
		for json in "" --json; do
			expect 3 "kernels[1].results" "symlink" -- to "$BO" explain $json "$t"
			leaks "$T/out" && bad "3: explain $json followed a symlink out of the tree" || ok
		done
	done
	# differential.json itself a symlink to a tree elsewhere.
	cp -a "$d" "$d-self"
	mv "$d-self/differential.json" "$T/diff-$kind.json"
	ln -s "$T/diff-$kind.json" "$d-self/differential.json"
	expect 3 "differential.json" "symlink" -- to "$BO" explain "$d-self"
	# The release names a directory of the tree: a plain name too.
	expect 3 "kernels[0].release" -- to "$BO" explain "$d-rel"
done

### 3 (the rest of its family): a results directory's write.log and scenario.ini are opened
### once, beneath it, and read from that descriptor: write.log is a regular file there, never a
### device (a block device node in a stranger's directory is not read).
d=$T/f3-dev
results "$d"
rm "$d/write.log"
if mknod "$d/write.log" b 7 0 2>/dev/null; then
	expect 3 "write.log' is a block device" -- to "$BO" explain "$d"
	expect 3 "write.log' is a block device" -- to "$BO" explain --json "$d" c45
	expect 3 "write.log' is a block device" -- to "$BO" reproduce "$d" c45 "${NOK[@]}"
	booted && bad "3: reproduce of a device write.log booted" || ok
else
	echo "note: not root, no block device node made: the device write.log is not tried"
fi
# ... nor one that is a symlink to the log of another run.
results "$T/other"
d=$T/f3-link
results "$d"
rm "$d/write.log"
ln -s "$T/other/write.log" "$d/write.log"
expect 3 "write.log" "symlink" -- to "$BO" explain "$d"

### 6 (explain's part): a by-product refused (a symlink, a FIFO, past 64 MiB, under an id
### that is not a plain name) is said by explain, text and --json, never dropped without a
### word; its content is not read.
d=$T/f6
results "$d"
ln -sf "$SECRET" "$d/states/c45/fsck.out"
rm "$d/states/c45/dmesg.txt"
mkfifo "$d/states/c45/dmesg.txt"
truncate -s 65M "$d/states/c45/checker.out"
expect 0 -- to "$BO" explain "$d"
leaks "$T/out" && bad "6: explain read a symlinked by-product" || ok
grep -q "not read: '$d/states/c45/fsck.out' is (or lies under) a symlink" "$T/out" && ok ||
	bad "6: explain does not say fsck.out was refused: $(cat "$T/out")"
grep -q "not read: '$d/states/c45/dmesg.txt' is a FIFO" "$T/out" && ok ||
	bad "6: explain does not say dmesg.txt was refused"
grep -q "not read: '$d/states/c45/checker.out' is 68157440 bytes" "$T/out" && ok ||
	bad "6: explain does not say checker.out was refused"
expect 0 -- to "$BO" explain --json "$d" c45
python3 - "$T/out" <<'PY' && ok || bad "6: explain --json does not list the refused by-products"
import json, sys
r = json.load(open(sys.argv[1]))["evidence"]["refused"]
assert len(r) == 3 and all("states/c45/" in x for x in r), r
PY
d=$T/f6-id
results "$d"
sed -i 's/"state":"c45"/"state":"..\/c45"/' "$d/stream.jsonl"
expect 0 -- to "$BO" explain "$d"
[ "$(grep -c "not read: state id '../c45' is not a plain name" "$T/out")" = 1 ] && ok ||
	bad "6: explain does not say once why a state's by-products are not read: $(cat "$T/out")"

### 15: raw escapes and invalid UTF-8 from a tree's differential.json (state ids, kernel
### releases, classes, findings, marks, verdicts) never reach the terminal or explain --json.
raw() { grep -qP '\x1b|\x9b' "$@"; }
# utf8 FILE...: each is JSON in valid UTF-8.
utf8() {
	python3 -c 'import json,sys
for f in sys.argv[1:]: json.loads(open(f,"rb").read().decode("utf-8"))' "$@"
}
esc='\u001b[2J\u001b]8;;http://x\u001b\\'
tree "$T/f15-differential" differential
tree "$T/f15-marks" marks
tree "$T/f15-rel" differential
set_json "$T/f15-differential/differential.json" "
s = d['states'][0]
s['classes'] = {'6.1': 'lost-ack$esc', '6.12\u001b[31m': 'consistent\u009b31m'}
s['findings'] = {'6.1': 'lost-ack: op 2$esc', '6.12\u001b[31m': '\u009b1m'}" \
	"$T/f15-marks/differential.json" "
m = d['marks'][0]
m['mark'] = 'ack:2$esc'
m['kernels']['6.1']['verdict'] = 'lost-ack$esc'
m['kernels']['6.12']['lint'] = 'no barrier\u009b31m'
m['kernels']['6.12\u001b[2J'] = {'verdict': 'x\u001b[2J', 'state': None}" \
	"$T/f15-rel/differential.json" "d['kernels'][0]['release'] = '6.1\u001b[2J'"
# Bytes that are not UTF-8: json-c reads them as they are.
sed -i 's/"consistent/"consistent\xff\xfe/' "$T/f15-differential/differential.json"
sed -i '0,/"lost-ack/s//"lost-ack\xc0\xaf/' "$T/f15-marks/differential.json"
d=$T/f15-differential
expect 0 -- to "$BO" explain "$d"
raw "$T/out" "$T/err" && bad "15: explain printed a raw escape from differential.json" || ok
grep -qF 'lost-ack\x1b[2J' "$T/out" && ok || bad "15: the class's escape is not shown as \x1b"
grep -qF '\xff\xfe' "$T/out" && ok || bad "15: invalid UTF-8 is not shown as \xff"
expect 0 -- to "$BO" explain --json "$d"
cp "$T/out" "$T/j1"
expect 0 -- to "$BO" explain --json "$d" c45
cp "$T/out" "$T/j2"
d=$T/f15-marks
expect 0 -- to "$BO" explain "$d"
raw "$T/out" "$T/err" && bad "15: explain printed a raw escape from a marks tree" || ok
grep -qF 'mark ack:2\x1b[2J' "$T/out" && ok || bad "15: the mark's escape is not shown as \x1b"
grep -qF '\xc0\xaf' "$T/out" && ok || bad "15: an overlong UTF-8 form is not shown as \xc0"
expect 0 -- to "$BO" explain --json "$d"
cp "$T/out" "$T/j3"
utf8 "$T/j1" "$T/j2" "$T/j3" && ok || bad "15: explain --json of a tree is not valid UTF-8 JSON"
# A release, which names a directory of the tree, is refused: its escape not printed raw.
expect 3 "kernels[0].release" -- to "$BO" explain "$T/f15-rel"
raw "$T/out" "$T/err" && bad "15: a release's escape reached the terminal" || ok
# A state's own record in a kernel's results: its class and id (hostile.sh covers the rest).
d=$T/f15-alias
results "$d"
printf '{"event":"alias","state":"c9\\u001b[2J","cut":50,"alias_of":"c45","class":"lost-ack"}\n' \
	>>"$d/stream.jsonl"
expect 0 -- to "$BO" explain "$d" "$(printf 'c9\033[2J')"
raw "$T/out" "$T/err" && bad "15: explain's alias note printed a raw escape" || ok

### 21: a newline in a state id, a mark name or a field forges no line of explain's or
### inspect's text (a fake "next:" block): each is one word of its line, the newline shown
### as \x0a.
forged() { grep -c '^next:$' "$1"; }
# mark_rename LOG OLD NEW [OLD NEW]...: each mark OLD of LOG renamed NEW, in its own block.
mark_rename() {
	python3 - "$@" <<'PY'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for old, new in zip(sys.argv[2::2], sys.argv[3::2]):
    old, new = old.encode(), new.encode().decode("unicode_escape").encode("latin-1")
    i = b.find(b"\0" + old + b"\0") + 1
    struct.pack_into("<Q", b, i - 8, len(new))
    b[i:i + len(old) + 1] = b"\0" * (len(old) + 1)
    b[i:i + len(new)] = new
open(p, "wb").write(bytes(b))
PY
}
d=$T/f21
results "$d"
mark_rename "$d/write.log" ack:3 'ack:3\nnext:\n  blackout reproduce /tmp/x evil' \
	issue:1 'issue:1\r\nnext:'
sed -i 's/"fsck":"clean","checker":"exited with status 0"/"fsck":"clean\\nnext:\\n  rm -rf x","checker":"ok\\nnext:","error":"e\\nnext:","why":{"2":"gone\\nnext:"}/' \
	"$d/stream.jsonl"
expect 0 -- to "$BO" explain "$d" c45
[ "$(forged "$T/out")" = 1 ] && ok || bad "21: explain's text has a forged next: block: $(cat "$T/out")"
grep -q '^  rm -rf\|^  blackout reproduce /tmp/x' "$T/out" && bad "21: a forged command line" || ok
grep -qF "last mark: 'ack:3\x0anext:\x0a  blackout reproduce /tmp/x evil'" "$T/out" && ok ||
	bad "21: the mark is not shown in one line: $(grep 'last mark' "$T/out")"
expect 0 -- to "$BO" inspect "$d/write.log"
[ "$(forged "$T/out")" = 0 ] && ok || bad "21: inspect's text has a forged line"
grep -qF 'issue:1\x0d\x0anext:' "$T/out" && ok || bad "21: inspect does not show the mark in one line"
expect 0 -- to "$BO" inspect "$d/write.log" --entries 0-50
[ "$(forged "$T/out")" = 0 ] && ok || bad "21: inspect --entries has a forged line"
# lint refuses the malformed op mark, naming it in one line.
expect 3 "malformed op mark 'issue:1\x0d\x0anext:'" -- to "$BO" lint "$d/write.log"
[ "$(wc -l <"$T/err")" = 1 ] && ok || bad "21: lint's error is not one line: $(cat "$T/err")"
# A state id, a summary's first state and error with a newline: explained, every id in one line.
d=$T/f21-id
results "$d"
tree "$T/f21-tree" marks
sed -i 's/"state":"c45"/"state":"c45\\nnext:\\n  blackout reproduce x"/' "$d/stream.jsonl"
set_json "$d/summary.json" "d['first_state']['lost-ack'] = 'c45\nnext:'; d['error'] = 'x\nnext:'" \
	"$T/f21-tree/differential.json" "d['marks'][0]['mark'] = 'ack:2\n== 6.1: state c1 =='"
expect 0 -- to "$BO" explain "$d"
[ "$(forged "$T/out")" = 1 ] && ok || bad "21: a state id forged a line: $(cat "$T/out")"
grep -q '^  blackout reproduce x' "$T/out" && bad "21: a state id forged a command" || ok
grep -qF "symptom: state c45\x0anext:\x0a  blackout reproduce x (cut" "$T/out" && ok ||
	bad "21: the state id is not one word: $(grep symptom "$T/out")"
# ... and an error naming an id from the stream is one line.
printf '{"event":"alias","state":"c9\\nblackout: fake","cut":50,"alias_of":"c45\\nnext:","class":"lost-ack"}\n' \
	>>"$d/stream.jsonl"
expect 3 -- to "$BO" explain "$d" "$(printf 'c9\nblackout: fake')"
[ "$(wc -l <"$T/err")" = 1 ] && ok || bad "21: explain's error is not one line: $(cat "$T/err")"
# A tree's mark with a newline forges no heading.
expect 0 -- to "$BO" explain "$T/f21-tree"
grep -q '^== 6.1: state c1 ==' "$T/out" && bad "21: a mark forged a heading" || ok

finish
