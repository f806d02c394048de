#!/usr/bin/env bash
# tests/vm/run_kernels.sh BLACKOUT — one workload recorded on two kernels and compared by
# mark (run --kernels): a workload that skips op 2's fdatasync only when `uname -r` starts
# with 6.12 makes exactly ack:2 (the lint: a barrier on the default kernel, none on 6.12; the
# verdict: consistent against lost-ack: op 2) and issue:3 (op 2 still lost) differ, ack:2
# first, with both kernels' entries since issue:2; the same workload without the plant gives
# "no difference" and exit 0. Each kernel's run records the kernel it booted, so reproduce of
# a differing state boots it again. A nightly with 'compare = kernels' runs the planted cell
# so, and fails on its differing marks.
. "$(dirname "$0")/run_lib.sh"
need_vm

list=$("$BO" kernel list --json) || { bad "kernel list failed"; finish; exit 1; }
second=$(python3 -c 'import json,sys
k = json.loads(sys.argv[1])["kernels"]
print(max((x["release"] for x in k if x["release"].startswith("6.12")), default=""))' "$list")
default=$(python3 -c 'import json,sys
print([x["release"] for x in json.loads(sys.argv[1])["kernels"] if x["default"]][0])' "$list")
if [ -z "$second" ] || [ "$second" = "$default" ]; then
	echo "*** SKIP $(basename "$0"): no 6.12 kernel cached beside the default (blackout" \
		"kernel fetch 6.12); nothing was compared across kernels ***" >&2
	exit 77
fi

# wl PLANT: three ops, each a file; op 1 and 2 fdatasync theirs, op 3 syncs everything. With
# PLANT, op 2 skips its fdatasync on 6.12 only: its ack has no barrier there, and its data
# reaches the disk with op 3's sync.
wl() {
	cat <<SH
#!/bin/sh
for i in 1 2 3; do
	blackout ctl issue \$i || exit 1
	echo "op \$i" >f\$i
	if [ \$i = 3 ]; then
		sync
	elif [ $1 = plant ] && [ \$i = 2 ] && case \$(uname -r) in 6.12*) true ;; *) false ;; esac; then
		: planted: no fdatasync on 6.12
	else
		sync -d f\$i || exit 1
	fi
	blackout ctl ack \$i || exit 1
done
SH
}
cat >"$T/chk.sh" <<'SH'
#!/bin/sh
for i in 1 2 3; do [ "$(cat f$i 2>/dev/null)" = "op $i" ] && echo "present $i"; done
echo done
SH
for p in plant none; do
	wl $p >"$T/wl-$p.sh"
	chmod +x "$T/wl-$p.sh" "$T/chk.sh"
	cat >"$T/$p.ini" <<INI
[device]
fs = ext4
size = 16M

[workload]
script = wl-$p.sh
timeout = 60

[check]
cuts = mark
script = chk.sh
INI
done

start=$(date +%s)
if run_bo 1 run "$T/plant.ini" --kernels "$default,6.12" --results "$T/results"; then
	tree=$RESULTS
	python3 - "$tree/differential.json" "$default" "$second" <<'PY' && ok || bad "planted: the differential is not what was planted"
import json, sys
j = json.load(open(sys.argv[1]))
a, b = sys.argv[2], sys.argv[3]
assert j["kind"] == "marks" and [k["release"] for k in j["kernels"]] == [a, b], j["kernels"]
m = j["marks"]
diff = [x["mark"] for x in m if x["differs"]]
# Exactly what the plant changes, the lint difference first: op 2's ack, and op 3's issue
# (op 2 still lost until op 3's sync).
assert diff == ["ack:2", "issue:3"], diff
assert m[0]["lint_differs"] and not m[1]["lint_differs"], m[:2]
ack2 = m[0]["kernels"]
assert ack2[a]["lint"] == "barrier" and ack2[b]["lint"] == "no barrier", ack2
assert ack2[a]["verdict"] == "consistent", ack2[a]
assert ack2[b]["verdict"] == "lost-ack (lost-ack: op 2)", ack2[b]
# What each kernel wrote since issue:2: the file's data and a barrier on one, nothing on 6.12.
ea, eb = ack2[a]["entries"], ack2[b]["entries"]
assert any(e.startswith("write ") for e in ea) and any("FLUSH" in e or "FUA" in e for e in ea), ea
assert not any("FLUSH" in e or "FUA" in e for e in eb), eb
# Everything before the plant agrees.
for x in m:
    if x["mark"] in ("mkfs", "issue:1", "ack:1", "issue:2"):
        assert not x["differs"], x
PY
	# The table: the differing marks first, each kernel's entries under them.
	sed -n '/^mark /,/differ between the kernels/p' "$T/out" >"$T/table"
	[ "$(awk 'NR>1 && /^[a-z]/ {print $1}' "$T/table" | tr '\n' ' ')" = "ack:2 issue:3 " ] &&
		ok || { bad "the printed table does not list ack:2 then issue:3 first"; cat "$T/out" >&2; }
	grep -q 'entries since the previous mark:.*after issue:2' "$T/table" && ok ||
		bad "no entries printed for ack:2"
	grep -q "lost-ack (lost-ack: op 2); no barrier" "$T/table" && ok ||
		bad "6.12's verdict and lint are not printed"
	for f in report.html junit.xml; do [ -s "$tree/$f" ] && ok || bad "no $f in the tree"; done
	grep -q 'failure type="lint-differs"' "$tree/junit.xml" && ok ||
		bad "junit.xml has no lint-differs failure"
	xmllint --noout --schema "$SRC/tests/junit.xsd" "$tree/junit.xml" 2>"$T/xsd" && ok ||
		bad "run --kernels: junit.xml invalid: $(cat "$T/xsd")"
	# explain of the tree: the first differing mark, each kernel's verdict and story.
	"$BO" explain "$tree" >"$T/ex" 2>&1
	head -1 "$T/ex" | grep -q "^mark ack:2: .*lost-ack (lost-ack: op 2), no barrier" &&
		grep -q "^== $second: state " "$T/ex" && ok ||
		bad "explain of the run --kernels tree: $(head -3 "$T/ex")"
	# Each kernel's run records its kernel, and reproduce of 6.12's failing state boots it.
	d612=$tree/$(json "$tree/differential.json" '[k["results"] for k in j["kernels"]][1]')
	st=$(json "$tree/differential.json" 'j["marks"][0]["kernels"]["'"$second"'"]["state"]')
	[ "$(json "$d612/config.json" 'j["kernel"]["release"]')" = "$second" ] && ok ||
		bad "the 6.12 run's config.json does not name $second"
	# The run shipped its scripts: reproduce ships them again only when told to. RESULTS:
	# the reproduction's then.
	if run_bo 0 reproduce "$d612" "$st" --file "$T/wl-plant.sh" --file "$T/chk.sh"; then
		grep -q "^kernel: Linux $second " "$RESULTS/diagnostics/pre/versions.txt" && ok ||
			bad "reproduce of $st did not boot $second"
	fi
fi
echo "planted: $(($(date +%s) - start)) s" >&2

start=$(date +%s)
if run_bo 0 run "$T/none.ini" --kernels "$default,6.12" --results "$T/results"; then
	grep -q '^no difference' "$T/out" && ok || bad "identical behaviour did not print 'no difference'"
	[ "$(json "$RESULTS/differential.json" 'j["differing"]')" = 0 ] && ok ||
		bad "identical behaviour: differing is not 0"
fi
echo "unplanted: $(($(date +%s) - start)) s" >&2

# A nightly with 'compare = kernels': the planted cell is one run --kernels; each kernel's run
# is a cell as the kernel axis names it, and the marks that differ fail the nightly.
start=$(date +%s)
printf '[matrix]\nscenario = plant.ini\nkernel = %s\nkernel = 6.12\ncompare = kernels\n' \
	"$default" >"$T/m.ini"
if run_bo 1 nightly "$T/m.ini" --out "$T/nightly"; then
	python3 - "$T/nightly/summary.json" "$default" <<'PY' && ok || bad "nightly compare = kernels: $(cat "$T/nightly/summary.json")"
import json, sys
j = json.load(open(sys.argv[1]))
assert [r["name"] for r in j["runs"]] == ["plant@ext4~" + sys.argv[2], "plant@ext4~6.12"], j["runs"]
assert [r["verdict"] for r in j["runs"]] == ["consistent", "failed"], j["runs"]
assert any(f["class"] == "lost-ack" for f in j["runs"][1]["failing"]), j["runs"][1]
d = j["differentials"]
assert len(d) == 1 and d[0]["cell"] == "plant@ext4" and d[0]["marks"] == ["ack:2", "issue:3"], d
PY
	grep -q '^plant@ext4 .*2 marks differ between the kernels' "$T/out" && ok ||
		bad "nightly does not print the marks that differ"
fi
printf '[matrix]\nscenario = plant.ini\nkernel = 6.12\ncompare = kernels\n' >"$T/m1.ini"
run_bo 3 nightly "$T/m1.ini" --out "$T/nightly1" && grep -q 'compare = kernels needs two' "$T/err" && ok ||
	bad "compare = kernels with one kernel is not refused"
echo "nightly: $(($(date +%s) - start)) s" >&2
finish
