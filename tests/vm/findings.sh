#!/usr/bin/env bash
# tests/vm/findings.sh BLACKOUT — a state's findings are shown whatever its class. ext4
# without a journal judged by a bare mount (recovery = mount): every state cut while files are
# being written is fsck-dirty. One log, checked twice: by an honest checker, and by a planted
# one that never reports op 2. The class tables of the two are the same; every view must tell
# them apart by the lost op 2: the printed table, summary.json, report.html, junit.xml,
# explain, and the nightly baseline ("changed"). A blackout that kept only the class (the
# mutant the test is for) prints the same for both and fails here.
. "$(dirname "$0")/run_lib.sh"
need_vm

sc() {
	cat <<INI
[scenario]
name = findings
description = fsck-dirty states that also lose op 2 (planted checker: $1)
[device]
fs = ext4
size = 64M
mkfs_options = -O ^has_journal
[workload]
script = $SRC/tests/vm/findings/workload 4
[check]
script = $SRC/tests/vm/findings/check 4 $1
cuts = mark
recovery = mount
INI
}
sc "" >"$T/honest.ini"
sc 2 >"$T/planted.ini"

run_bo 1 run "$T/honest.ini" --results "$T/results" || { finish; exit 1; }
rec=$RESULTS
grep -q "^  fsck-dirty  *[1-9][0-9]*  *first" "$T/out" && ok ||
	bad "the honest checker's table has no plain fsck-dirty line: $(cat "$T/out")"
for who in honest planted; do
	if run_bo 1 check "$rec/write.log" --scenario "$T/$who.ini" --results "$T/results"; then
		eval "r_$who=\$RESULTS"
		cp "$T/out" "$T/$who.table"
	fi
done
# The fsck-dirty states are the same states in both (the planted checker makes the clean
# states after ack 2 lost-ack, as it should): only their findings tell them apart.
fd='sorted(json.loads(l)["state"] for l in open(sys.argv[1] + "/stream.jsonl") if "\"class\":\"fsck-dirty\"" in l)'
[ "$(python3 -c "import json,sys; print($fd)" "$r_honest")" = "$(python3 -c "import json,sys; print($fd)" "$r_planted")" ] &&
	[ "$(json "$r_honest/summary.json" 'j["counts"]["fsck-dirty"]')" -ge 2 ] && ok ||
	bad "the two checks' fsck-dirty states differ: the test needs them equal"
n=$(json "$r_planted/summary.json" 'j["also"]["fsck-dirty"]["lost-ack"]["states"]')

# The table.
grep -q "fsck-dirty .*($n also lost-ack: op 2)" "$T/planted.table" && ok ||
	bad "the table hides the lost op: $(cat "$T/planted.table")"
grep -q "also" "$T/honest.table" && bad "the honest table has a finding" || ok
# summary.json.
[ "$n" -ge 1 ] && [ "$(json "$r_planted/summary.json" 'j["findings"]["lost-ack"]["ops"]')" = "[2]" ] &&
	ok || bad "summary.json: no lost-ack finding of op 2"
[ "$(json "$r_honest/summary.json" 'j["findings"]["lost-ack"]["states"]')" = 0 ] && ok ||
	bad "summary.json: the honest check has a lost-ack finding"
# report.html: the findings table and the marked states.
grep -q '<circle class="also"' "$r_planted/report.html" && grep -q "also: lost-ack" \
	"$r_planted/report.html" && ok || bad "report.html does not mark the states that also lose op 2"
grep -q '<circle class="also"' "$r_honest/report.html" && bad "report.html marks an honest state" ||
	ok
# junit.xml.
grep -q "also lost-ack: op 2" "$r_planted/junit.xml" && ok || bad "junit.xml hides the lost op"
xmllint --noout --schema "$SRC/tests/junit.xsd" "$r_planted/junit.xml" 2>/dev/null && ok ||
	bad "junit.xml invalid"
# explain.
"$BO" explain "$r_planted" >"$T/explain" 2>&1
grep -q "also lost-ack" "$T/explain" && grep -q "planted: this checker never reports op 2" \
	"$T/explain" && ok || bad "explain does not tell the lost op: $(head -30 "$T/explain")"

# The nightly baseline: the same cell, its failures fsck-dirty both times, op 2 lost only the
# second time: changed.
mkdir "$T/m"
cp "$T/honest.ini" "$T/m/findings.ini"
printf '[matrix]\nscenario = findings.ini\n' >"$T/m/matrix.ini"
if run_bo 1 nightly "$T/m/matrix.ini" --out "$T/n1"; then
	cp "$T/planted.ini" "$T/m/findings.ini"
	if run_bo 1 nightly "$T/m/matrix.ini" --out "$T/n2" --baseline "$T/n1"; then
		[ "$(json "$T/n2/summary.json" 'len(j["baseline"]["changed"])')" -ge 1 ] && ok ||
			bad "nightly: no changed failure: $(json "$T/n2/summary.json" 'j["baseline"]')"
		grep -q "changed" "$T/out" && ok || bad "nightly does not print the change"
	fi
fi
finish
