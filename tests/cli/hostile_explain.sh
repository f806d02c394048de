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

# The positive control: the fixture is read by every command below.
results "$T/good"
expect 0 -- to "$BO" explain "$T/good"
grep -q "first lost-ack state: c45" "$T/out" && ok || bad "explain lost the first state"
expect 0 -- to "$BO" explain --json "$T/good" c45

### 1: a field of summary.json or config.json walked as an object or an array is type-checked
### where it is read: an error naming the file and the field (exit 3), never a crash.
for val in '[1,2]' '"c45"' '7' 'null' '{"lost-ack": ["c45"]}' '{"lost-ack": {}}'; do
	d=$T/f1-first-$(echo "$val" | md5sum | cut -c1-8)
	results "$d"
	cp "$top/scenarios/ext4-fsops-bug.ini" "$d/scenario.ini"
	python3 - "$d/summary.json" "$val" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); s["first_state"] = json.loads(sys.argv[2])
json.dump(s, open(sys.argv[1], "w"))
PY
	expect 3 "summary.json" '"first_state"' -- to "$BO" explain "$d"
	expect 3 "summary.json" '"first_state"' -- to "$BO" explain --json "$d" c45
	expect 3 "summary.json" '"first_state"' -- to "$BO" report "$d"
	expect 3 "summary.json" '"first_state"' -- to "$BO" reproduce "$d" c45 "${NOK[@]}"
	booted && bad "1: reproduce booted over a bad first_state" || ok
	expect 3 '"first_state"' -- to "$BO" findings "$d"
done
for field in options kernel run files scenario; do
	for val in '[1]' '"x"' '7' 'null'; do
		[ "$field" = files ] && [ "$val" = '[1]' ] && val='["/x", 7]'
		[ "$field" = files ] && [ "$val" = '"x"' ] && val='{}'
		d=$T/f1-$field-$(echo "$val" | md5sum | cut -c1-8)
		results "$d"
		cp "$top/scenarios/ext4-fsops-bug.ini" "$d/scenario.ini"
		python3 - "$d/config.json" "$field" "$val" <<'PY'
import json, sys
c = json.load(open(sys.argv[1])); c[sys.argv[2]] = json.loads(sys.argv[3])
json.dump(c, open(sys.argv[1], "w"))
PY
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
done

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

finish
