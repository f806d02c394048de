#!/usr/bin/env bash
# tests/cli/report.sh BLACKOUT — `blackout report` on a results directory built by hand (no
# VM): report.html escapes what the guest wrote, caps by-products, draws the timeline with
# the log's lint and every failing state; junit.xml validates against tests/junit.xsd, which in turn rejects
# malformed reports (the positive control of the validator).
. "$(dirname "$0")/lib.sh"
XSD=$(cd "$(dirname "$0")/.." && pwd)/junit.xsd
command -v xmllint >/dev/null || {
	echo "*** SKIP: no xmllint (package libxml2-utils; scripts/setup installs it) ***" >&2
	exit 77
}

# A results directory as a run leaves it: a log, config, stream, summary, state by-products.
R=$T/results/20260101-000000-7-abcdef
mkdir -p "$R/states" "$R/diagnostics/pre"
"$BO" synth --out "$R/write.log" --entries 300 --seed 2 >/dev/null || bad "synth failed"
cat >"$R/config.json" <<'J'
{"scenario":{"name":"evil<scenario>","description":"a & b"},"device":{"fs":"ext4",
 "mount_options":"data=journal"},"run":{"seed":7},"run_id":"20260101-000000-7-abcdef",
 "blackout":"0.1.0","host_kernel":"6.1.0"}
J
printf 'kernel: Linux 6.1.0 <b>guest</b>\n' >"$R/diagnostics/pre/versions.txt"
{
	printf '{"seq":0,"time":"t","event":"workload-start","command":"x"}\n'
	for c in 10 20 30 40 50 60 70; do
		printf '{"seq":1,"time":"t","event":"state","state":"c%d","cut":%d,"class":"consistent","seconds":0.5}\n' $((c - 1)) $c
	done
	printf '{"seq":2,"time":"t","event":"state","state":"c99","cut":100,"class":"lost-ack","seconds":1.5,"lost":[3,4]}\n'
	printf '{"seq":3,"time":"t","event":"state","state":"c149","cut":150,"class":"unmountable","seconds":1,"mounted":false}\n'
	printf '{"seq":4,"time":"t","event":"alias","state":"c150","cut":151,"alias_of":"c149","class":"unmountable"}\n'
	printf '{"seq":5,"time":"t","event":"state","state":"../../etc","cut":200,"class":"phantom","seconds":1}\n'
	printf '{"seq":6,"time":"t","event":"end"}\n'
	printf '{"seq":7,"time":"t","event":"st' # a record a crash cut short
} >"$R/stream.jsonl"
cat >"$R/summary.json" <<'J'
{"verdict":"failed","exit_status":1,"states_checked":10,"states_aliased":1,
 "counts":{"consistent":7,"unmountable":1,"fsck-dirty":0,"lost-ack":1,"phantom":1,
 "app-recovery-failed":0,"checker-error":0,"harness-error":0},
 "first_state":{"consistent":"c9","lost-ack":"c99","unmountable":"c149","phantom":"../../etc"},
 "seconds_total":12.5,"seconds_checking":10}
J
for s in c99 c149; do
	mkdir "$R/states/$s"
	printf 'state %s: lost\n' "$s" >"$R/states/$s/verdict.txt"
	printf '#!/bin/sh\ncd "$(dirname "$0")/../.." || exit 3\nexec blackout check write.log --state %s --expect lost-ack\n' "$s" >"$R/states/$s/repro.sh"
done
# What a hostile or broken guest could leave: markup, invalid UTF-8, control characters,
# a symlink out of the directory, a huge file.
printf '<script>alert(1)</script> & "q" \xff\xfe bad \x01 ctl \xc3\xa9t\xc3\xa9\n' >"$R/states/c99/mount.err"
printf 'x%.0s' $(seq 1 40000) >"$R/states/c99/dmesg.txt"
ln -s /etc/passwd "$R/states/c99/fsck.out"
printf 'checker said </pre><img src=x onerror=alert(2)>\n' >"$R/states/c149/checker.out"

if "$BO" report "$R" >"$T/out" 2>"$T/err"; then ok; else bad "report failed: $(cat "$T/err")"; fi
H=$R/report.html
J=$R/junit.xml
[ -s "$H" ] && [ -s "$J" ] && ok || bad "no report.html or junit.xml"
grep -q '<script>' "$H" && bad "an unescaped <script> reached report.html" || ok
grep -q '<img' "$H" && bad "an unescaped <img> reached report.html" || ok
grep -qF '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;' "$H" && ok ||
	bad "the mount error is not shown escaped"
grep -qF 'été' "$H" && ok || bad "valid UTF-8 was not kept"
LC_ALL=C grep -q $'\xff' "$H" && bad "invalid UTF-8 reached report.html" || ok
LC_ALL=C grep -q $'\x01' "$H" && bad "a control character reached report.html" || ok
grep -q 'root:' "$H" && bad "report.html followed a symlink out of the directory" || ok
grep -q 'more bytes in states/c99/dmesg.txt' "$H" && ok || bad "the large by-product was not capped"
grep -qF 'evil&lt;scenario&gt;' "$H" && ok || bad "the scenario name is not escaped"
grep -qF '&lt;b&gt;guest&lt;/b&gt;' "$H" && ok || bad "the guest kernel is not escaped"
grep -q '<svg id="timeline"' "$H" && ok || bad "no timeline"
grep -q "<th>device persona</th><td><code>honest</code>" "$H" && ok || bad "the report does not name the persona"
grep -q 'id="s-c99"' "$H" && grep -q 'id="s-c149"' "$H" && ok || bad "failing states not shown"
grep -q 'href="#s-c99"' "$H" && ok || bad "the timeline does not link the failing state"
# The durability lint of the log (its synthetic acks come with no barrier): a row of the
# timeline and a list, each naming what `blackout lint` names.
n=$("$BO" lint --json "$R/write.log" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["findings"]))')
[ "$n" -ge 1 ] && ok || bad "the synthetic log has no lint finding to show"
grep -q '<text x="4" y="[0-9]*">lint</text>' "$H" && ok || bad "no lint row on the timeline"
grep -q "<p id=\"lint\">$n of " "$H" && ok || bad "the report does not count $n lint findings"
first=$("$BO" lint "$R/write.log" | sed -n '2s/^  //p')
grep -qF "<li>$first</li>" "$H" && ok || bad "the report does not list '$first'"
grep -q 'id="s-\.\./' "$H" && bad "a state id with .. was used as an anchor" || ok
grep -q 'href="states/\.\./' "$H" && bad "a state id with .. was used as a link" || ok
grep -q 'sh states/c99/repro.sh' "$H" && ok || bad "no repro command"
grep -q 'data=journal' "$H" && grep -q '20260101-000000-7-abcdef' "$H" && ok ||
	bad "environment (mount options, run id) missing"
grep -q 'The last record of stream.jsonl was cut short' "$H" && ok || bad "torn record not noted"
xmllint --html --noout "$H" 2>"$T/html" && ok || bad "report.html does not parse: $(head -5 "$T/html")"

# junit.xml
xmllint --noout --schema "$XSD" "$J" 2>"$T/xsd" && ok || bad "junit.xml invalid: $(cat "$T/xsd")"
n=$(grep -c '<testcase ' "$J")
[ "$n" = 10 ] && ok || bad "expected one testcase per class (10), got $n"
grep -q '<failure type="lost-ack" message="1 state lost-ack; first: c99">' "$J" && ok ||
	bad "no lost-ack failure naming c99"
grep -qF "repro: sh $R/states/c99/repro.sh" "$J" &&
	grep -q 'exec blackout check write.log --state c99 --expect lost-ack' "$J" && ok ||
	bad "the failure lacks the repro command and repro.sh"
grep -q 'failures="3"' "$J" && ok || bad "expected 3 failing classes"
grep -q '<testsuite name="evil&lt;scenario&gt;@ext4+data=journal"' "$J" && ok ||
	bad "suite name not escaped, or without its filesystem and mount options"
# Identity: every testcase's classname carries the filesystem and mount options.
[ "$(grep -c '<testcase classname="blackout.evil&lt;scenario&gt;@ext4+data=journal" ' "$J")" = 10 ] &&
	ok || bad "testcases without the cell's classname"
# Properties under fstests' names, the guest kernel's release among them.
for p in 'SECTION" value="evil&lt;scenario&gt;@ext4+data=journal"' 'FSTYP" value="ext4"' \
	'MOUNT_OPTIONS" value="data=journal"' 'KERNEL" value="6.1.0"' 'PLATFORM" value="Linux/x86_64 - 6.1.0"'; do
	grep -qF "<property name=\"$p/>" "$J" && ok || bad "no property $p"
done
# When and where are the run's: no "started" or "host" in this config.json, so the time of
# the run id and no hostname, never the renderer's.
grep -q 'timestamp="2026-01-01T00:00:00"' "$J" && ok || bad "timestamp not taken from the run id"
grep -q 'hostname=' "$J" && bad "junit.xml names the machine that rendered it" || ok
# The first failing state's evidence: verdict and mount error (escaped) in system-out, its
# kernel messages capped in system-err, no symlink followed.
python3 - "$J" <<'PY' && ok || bad "the lost-ack testcase lacks its evidence"
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1])
c = [e for e in t.iter("testcase") if e.get("name") == "lost-ack"][0]
out, err = c.find("system-out").text, c.find("system-err").text
assert "== verdict.txt ==\nstate c99: lost" in out, out
assert "== mount.err ==\n<script>alert(1)</script> & \"q\"" in out, out
assert err.startswith("== dmesg.txt ==\nxxxx") and "40000 bytes in all" in err, err[:80]
assert len(err) < 4500, len(err)
PY
grep -q 'root:' "$J" && bad "junit.xml followed a symlink out of the directory" || ok
# With "started" and "host" recorded, those.
cp -r "$R" "$T/origin"
sed -i 's/^ "blackout":"0.1.0",/ "blackout":"0.1.0","started":"2025-05-05T01:02:03","host":"builder-7",/' \
	"$T/origin/config.json"
"$BO" report "$T/origin" >/dev/null 2>&1 &&
	grep -q 'timestamp="2025-05-05T01:02:03" hostname="builder-7"' "$T/origin/junit.xml" && ok ||
	bad "timestamp and hostname not taken from config.json"

# The schema is not vacuous: each of these breaks it.
sed 's/ name="lost-ack"//' "$J" >"$T/b1.xml"
sed 's/tests="10"/tests="nine"/' "$J" >"$T/b2.xml"
sed 's|<system-out>7 states consistent</system-out>|<system-out>x</system-out><failure/>|' \
	"$J" >"$T/b3.xml"
sed 's/<testcase /<test /; s|</testcase>|</test>|' "$J" >"$T/b4.xml"
for b in b1 b2 b3 b4; do
	cmp -s "$J" "$T/$b.xml" && bad "$b: the mutation did not apply"
	xmllint --noout --schema "$XSD" "$T/$b.xml" 2>/dev/null && bad "$b: the schema accepted it" ||
		ok
done

# Regenerating gives the same report; a missing directory is an error.
cp "$H" "$T/first.html"
"$BO" report "$R" >/dev/null 2>&1 && cmp -s "$H" "$T/first.html" && ok || bad "not reproducible"
expect 3 "results directory" -- "$BO" report "$T/nope"
# A directory without a summary (a run that died) still gets both, with the error in them.
mkdir -p "$T/dead/states"
: >"$T/dead/stream.jsonl"
echo '{ "kind": "check", "run_id": "20260101-000000-0-000001" }' >"$T/dead/config.json"
"$BO" report "$T/dead" >/dev/null 2>&1 && ok || bad "report of a directory without summary"
grep -q '<testcase classname="blackout.check" name="run" time="0">' "$T/dead/junit.xml" &&
	grep -q '<error type="harness" message="no readable summary.json">' "$T/dead/junit.xml" &&
	xmllint --noout --schema "$XSD" "$T/dead/junit.xml" 2>/dev/null && ok ||
	bad "junit.xml of a dead run has no valid error testcase"
grep -q '>error</span>' "$T/dead/report.html" && ok || bad "report.html of a dead run: no error"
expect 2 "usage" -- "$BO" report
# No temporary files are left behind.
ls -a "$R" | grep -q 'tmp' && bad "temporary files left in $R" || ok
finish
