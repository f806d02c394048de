#!/usr/bin/env bash
# tests/vm/kernels.sh BLACKOUT — a second Debian kernel beside the default one (6.12 beside
# 6.1; scripts/test fetches it): `kernel list` names both and the default; --kernel-release
# and a scenario's [vm] kernel boot it, config.json records it and reproduce boots it again;
# what only 6.12's dm-flakey has (error_reads, random_write_corrupt) runs there and is refused
# on 6.1 before the workload; check --kernels judges one log under both, the states that
# differ first; a nightly takes a kernel axis; a kernel that is not cached is an error that
# says how to get it.
. "$(dirname "$0")/run_lib.sh"
need_vm

list=$("$BO" kernel list --json) || { bad "kernel list failed"; finish; exit 1; }
second=$(python3 -c 'import json,sys
k = json.loads(sys.argv[1])["kernels"]
print(max((x["release"] for x in k if x["release"].startswith("6.12")), default=""))' "$list")
default=$(python3 -c 'import json,sys
print([x["release"] for x in json.loads(sys.argv[1])["kernels"] if x["default"]][0])' "$list")
if [ -z "$second" ]; then
	echo "*** SKIP $(basename "$0"): no 6.12 kernel cached (scripts/test fetches one:" \
		"blackout kernel fetch 6.12); nothing was tested on a second kernel ***" >&2
	exit 77
fi
case $default in 6.1.*) ok ;; *) bad "the default kernel is $default, not linux-image-amd64's 6.1" ;; esac

# vm info on each: the release booted, and the flakey version that says what it can do.
for k in "$default" 6.12; do
	"$BO" vm info --json --kernel-release "$k" >"$T/info.json" 2>"$T/err" || bad "vm info $k: $(cat "$T/err")"
	python3 - "$T/info.json" "$k" <<'PY' && ok || bad "vm info --kernel-release $k booted another kernel"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["kernel"]["release"].startswith(sys.argv[2]), j["kernel"]
assert any(t["name"] == "flakey" for t in j["dm_targets"])
PY
done

log612=
# A cached kernel without a vmlinux (one without a PVH entry) boots from its bzImage; a
# pattern picks it as a prefix does.
real=$second
kc=${XDG_CACHE_HOME:-$HOME/.cache}/blackout/kernels/$real
mkdir -p "$T/xc/blackout/kernels/$real"
for e in boot lib package; do ln -s "$kc/$e" "$T/xc/blackout/kernels/$real/$e"; done
if XDG_CACHE_HOME=$T/xc "$BO" vm info --json --kernel-release '6.12.*' >"$T/bz.json" 2>"$T/err"; then
	[ "$(json "$T/bz.json" 'j["kernel"]["release"]')" = "$real" ] && ok ||
		bad "the bzImage boot is not $real"
else
	bad "a kernel without vmlinux did not boot from its bzImage: $(cat "$T/err")"
fi
[ "$(XDG_CACHE_HOME=$T/xc "$BO" kernel list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["kernels"][0]["boots"])')" = bzImage ] &&
	ok || bad "kernel list does not say it boots from its bzImage"

# A correct run on 6.12 and its planted twin, with the kernel recorded; reproduce boots it.
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/good.ini" ops=12 cuts=flush size=64M
cp "$T/good.ini" "$T/good-612.ini"
printf '\n[vm]\nkernel = 6.12\n' >>"$T/good-612.ini"
if run_bo 0 run "$T/good-612.ini" --results "$T/results"; then
	[ "$(json "$RESULTS/config.json" 'j["kernel"]["release"]')" = "$second" ] && ok ||
		bad "[vm] kernel = 6.12 did not pick $second"
	grep -q "^kernel: Linux $second " "$RESULTS/diagnostics/pre/versions.txt" && ok ||
		bad "the run did not boot $second: $(head -1 "$RESULTS/diagnostics/pre/versions.txt")"
	log612=$RESULTS/write.log
fi

# One saved log judged by both kernels (check --kernels): a planted difference, a checker
# that fails on 6.12 at odd cuts only, is exactly what differs, and it comes first.
cat >"$T/odd.sh" <<'SH'
#!/bin/sh
echo done
case $(uname -r) in 6.12*) [ $((BLACKOUT_CUT % 2)) = 1 ] && exit 1 ;; esac
exit 0
SH
chmod +x "$T/odd.sh"
# (--results relative to where it runs; explained from elsewhere, after the tree moved.)
if [ -n "$log612" ] && cd "$T" && run_bo 1 check "$log612" --kernels "$default,6.12" --cuts flush \
	--jobs 1 --checker "$T/odd.sh" --file "$T/odd.sh" --results diff; then
	cd /
	python3 - "$RESULTS/differential.json" "$default" "$second" <<'PY' && ok ||
import json, sys
j = json.load(open(sys.argv[1]))
a, b = sys.argv[2], sys.argv[3]
assert [k["release"] for k in j["kernels"]] == [a, b], j["kernels"]
st = j["states"]
flags = [s["differs"] for s in st]
assert any(flags) and not all(flags) and flags == sorted(flags, reverse=True), flags
for s in st:
    # What differs is the planted failure, on 6.12 only; everything else agrees.
    if s["differs"]:
        assert s["classes"][b] == "app-recovery-failed" != s["classes"][a], s
    else:
        assert s["classes"][a] == s["classes"][b] != "app-recovery-failed", s
PY
		bad "check --kernels: the planted difference is not what differs, first"
	first=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["states"][0]["state"])' \
		"$RESULTS/differential.json")
	# The tree's junit.xml: both kernels' suites apart, and a failing testcase per state
	# that differs, with both kernels' verdicts; its report.html shows them side by side.
	xmllint --noout --schema "$SRC/tests/junit.xsd" "$RESULTS/junit.xml" 2>"$T/xsd" && ok ||
		bad "check --kernels: junit.xml invalid: $(cat "$T/xsd")"
	python3 - "$RESULTS/junit.xml" "$RESULTS/differential.json" "$first" <<'PY' && ok ||
import json, sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
names = [s.get("name") for s in r.iter("testsuite")]
assert len(names) == 3 and len(set(names)) == 3 and names[2] == "differential", names
d = [s for s in r.iter("testsuite") if s.get("name") == "differential"][0]
failing = [c for c in d.iter("testcase") if c.find("failure") is not None]
assert len(failing) == json.load(open(sys.argv[2]))["differing"] and failing[0].get("name") == sys.argv[3]
assert "app-recovery-failed" in failing[0].find("failure").get("message")
assert failing[0].find("system-out").text.count("== verdict.txt ==") >= 1
PY
		bad "check --kernels: junit.xml does not hold the differing states"
	grep -q "id=\"d-$first\"" "$RESULTS/report.html" && ok ||
		bad "check --kernels: report.html does not show $first"
	# explain of the tree: the first state that differs, what differs, each kernel's story.
	mv "$RESULTS" "$T/moved-tree"
	RESULTS=$T/moved-tree
	"$BO" explain "$RESULTS" >"$T/ex" 2>&1
	head -1 "$T/ex" | grep -q "^state $first: .*app-recovery-failed.*the kernels differ" &&
		grep -q "^== $second ==" "$T/ex" && grep -q "^== $default ==" "$T/ex" && ok ||
		bad "explain of the check --kernels tree: $(head -5 "$T/ex")"
	sed -n '/^state /{n;p;q}' "$T/out" | grep -q "^$first " && ok ||
		bad "check --kernels does not print the differing states first: $(cat "$T/out")"
fi
cd /
run_bo 2 check /dev/null --fs ext4 --kernels 6.12 && grep -q "needs two kernels" "$T/err" && ok ||
	bad "--kernels with one kernel was not refused"
run_bo 2 check /dev/null --fs ext4 --kernels "6.12,$second" && grep -q "is $second again" "$T/err" &&
	ok || bad "--kernels naming one kernel twice was not refused"
# The planted twin by --kernel-release: its reproduction boots the kernel config.json
# recorded, with nothing on its command line or in its scenario to say so.
scenario "$SRC/scenarios/ext4-fsops-bug.ini" "$T/bug.ini" ops=12 size=64M
if run_bo 1 run "$T/bug.ini" --kernel-release 6.12 --results "$T/results"; then
	[ "$(json "$RESULTS/config.json" 'j["kernel"]["release"]')" = "$second" ] && ok ||
		bad "config.json does not record $second"
	first=$(json "$RESULTS/summary.json" 'j["first_state"]["lost-ack"]')
	if run_bo 0 reproduce "$RESULTS" "$first"; then # RESULTS: the reproduction's now
		grep -q "^kernel: Linux $second " "$RESULTS/diagnostics/pre/versions.txt" && ok ||
			bad "reproduce did not boot the run's kernel $second"
	fi
fi

# Faults only 6.12's flakey has: they go live there, and 6.1 refuses them before the
# workload runs, naming the line.
for f in error_reads "random_write_corrupt 1000"; do
	scenario "$SRC/scenarios/ext4-fsops-error-writes.ini" "$T/f.ini" ops=12 seed=7 \
		"at=ack:10 $f" size=64M
	# Consistent or failed (a fault may well lose data): judged, with the fault live.
	"$BO" run "$T/f.ini" --kernel-release 6.12 --results "$T/results" >"$T/out" 2>"$T/err"
	rc=$?
	RESULTS=$(sed -n 's/^results: //p' "$T/out" "$T/err" | tail -1)
	{ [ "$rc" = 0 ] || [ "$rc" = 1 ]; } && [ -f "$RESULTS/stream.jsonl" ] &&
		grep -q "\"event\":\"fault\".*${f%% *}" "$RESULTS/stream.jsonl" && ok ||
		bad "6.12: $f never went live (exit $rc): $(tail -5 "$T/err")"
	"$BO" run "$T/f.ini" --kernel-release "$default" --results "$T/results" >"$T/out" 2>"$T/err"
	rc=$?
	RESULTS=$(sed -n 's/^results: //p' "$T/out" "$T/err" | tail -1)
	[ "$rc" = 3 ] && grep -q "\[faults\] at: .*${f%% *}" "$T/err" && ok ||
		bad "$default: $f was not refused with its line (exit $rc): $(cat "$T/err")"
	[ -f "$RESULTS/stream.jsonl" ] && ! grep -q '"event":"workload-start"' "$RESULTS/stream.jsonl" &&
		ok || bad "$default: the workload ran despite $f (or left no stream)"
done

# A nightly matrix with a kernel axis: a cell per kernel, each booted with its kernel, with
# test identities of their own in the combined junit.xml.
mkdir -p "$T/m"
cp "$T/good.ini" "$T/m/alpha.ini"
printf '[matrix]\nscenario = alpha.ini\nkernel = %s\nkernel = 6.12\n' "$default" >"$T/m/k.ini"
if run_bo 0 nightly "$T/m/k.ini" --out "$T/nk"; then
	[ "$(json "$T/nk/summary.json" '[r["kernel"] for r in j["runs"]]')" = "['$default', '6.12']" ] &&
		ok || bad "nightly: the cells are not one per kernel"
	grep -q "^kernel: Linux $second " "$T"/nk/runs/*~6.12/*/diagnostics/pre/versions.txt && ok ||
		bad "nightly: the 6.12 cell did not boot $second"
	[ "$(grep -o '<testsuite name="[^"]*"' "$T/nk/junit.xml" | sort -u | wc -l)" = 2 ] && ok ||
		bad "nightly: the kernels' cells share a suite in junit.xml"
fi
run_bo 2 nightly "$T/m/k.ini" --out "$T/nk2" --kernel-release 6.12 && [ ! -e "$T/nk2" ] && ok ||
	bad "nightly: a kernel axis and --kernel-release were both taken"

# A kernel that is not cached: an error naming how to get it, and no results directory.
"$BO" run "$T/good.ini" --kernel-release 9.9 --results "$T/none" >"$T/out" 2>"$T/err"
[ $? = 3 ] && grep -q "no kernel 9.9 in .*blackout kernel fetch 9.9" "$T/err" && ok ||
	bad "an uncached kernel: $(cat "$T/err")"
[ ! -e "$T/none" ] || [ -z "$(ls -A "$T/none")" ] && ok || bad "an uncached kernel left results"
finish
