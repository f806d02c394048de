#!/usr/bin/env bash
# tests/vm/nightly.sh BLACKOUT — nightly runs against a baseline on a real kernel. A matrix of
# two tiny fsops scenarios is consistent; when one of them is made to fail (the planted
# ack-without-fsync bug), a nightly against that baseline reports exactly that scenario's
# failures as new and exits 1; the same matrix against its own previous tree reports no change
# and exits 0. A persona axis runs a scenario once per device persona; a bounded cell of seq-2
# runs in parts on fresh filesystems; a kernel_tree axis boots a build tree.
. "$(dirname "$0")/run_lib.sh"
need_vm

mkdir "$T/m"
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/m/alpha.ini" ops=8 size=64M seed=3 \
	scenario.name=alpha
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/m/beta.ini" ops=8 size=64M seed=4 \
	scenario.name=beta
cat >"$T/m/matrix.ini" <<'INI'
; two tiny scenarios on ext4 with its default options
[matrix]
scenario = alpha.ini
scenario = beta.ini
fs = ext4
mount_options = default
INI

t0=$(date +%s)
run_bo 0 nightly "$T/m/matrix.ini" --out "$T/n1" || { finish; exit 1; }
[ "$(json "$T/n1/summary.json" 'len(j["runs"])')" = 2 ] && ok || bad "n1: not 2 runs"
[ "$(json "$T/n1/summary.json" 'j["verdict"]')" = consistent ] && ok || bad "n1 not consistent"
grep -q 'href="runs/alpha@ext4/' "$T/n1/index.html" && ok || bad "index.html links no run"

# beta gets the planted bug: its failures, and only those, are new.
scenario "$T/m/beta.ini" "$T/m/beta-bug.ini" workload.bug=ack-without-fsync
mv "$T/m/beta-bug.ini" "$T/m/beta.ini"
if run_bo 1 nightly "$T/m/matrix.ini" --out "$T/n2" --baseline "$T/n1"; then
	s=$T/n2/summary.json
	[ "$(json "$s" 'len(j["baseline"]["new"])')" -ge 1 ] && ok || bad "n2: nothing new"
	[ "$(json "$s" 'sorted(set(f["scenario"] for f in j["baseline"]["new"]))')" = "['beta']" ] &&
		ok || bad "n2: new failures not exactly beta's"
	[ "$(json "$s" 'len(j["baseline"]["fixed"])')" = 0 ] && ok || bad "n2: something fixed"
	grep -q "^new failures: [1-9]" "$T/out" && ok || bad "n2: no new failures printed"
	grep -q "New failures" "$T/n2/index.html" && ok || bad "n2: index.html has no diff"
	# One junit.xml for the whole matrix, valid, a suite per cell, beta's failing.
	xmllint --noout --schema "$SRC/tests/junit.xsd" "$T/n2/junit.xml" 2>"$T/xsd" && ok ||
		bad "n2: junit.xml invalid: $(cat "$T/xsd")"
	python3 - "$T/n2/junit.xml" <<'PY' && ok || bad "n2: junit.xml is not one suite per cell"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
s = {e.get("name"): e for e in r.iter("testsuite")}
assert sorted(s) == ["alpha@ext4", "beta@ext4"], sorted(s)
assert s["alpha@ext4"].get("failures") == "0" and int(s["beta@ext4"].get("failures")) >= 1
assert int(r.get("failures")) == int(s["beta@ext4"].get("failures"))
PY
	# ... and one kcidb.json, KCIDB's schema's (tests/cli/kcidb_schema.json): beta FAIL, alpha
	# PASS, on the one kernel both ran
	python3 - "$SRC/tests/cli/kcidb_schema.json" "$T/n2/kcidb.json" <<'PY' && ok || bad "n2: kcidb.json"
import json, sys
doc = json.load(open(sys.argv[2]))
try:
    import jsonschema
    jsonschema.validate(doc, json.load(open(sys.argv[1])))
except ImportError:
    pass
assert len(doc["checkouts"]) == 1 and len(doc["builds"]) == 1, doc
fails = {t["path"].split(".")[1] for t in doc["tests"] if t["status"] == "FAIL"}
assert fails == {"beta_ext4"}, fails
assert any(t["path"] == "blackout.alpha_ext4.consistent" and t["status"] == "PASS" for t in doc["tests"])
PY
fi

# The same matrix against its own previous tree: no change.
if run_bo 0 nightly "$T/m/matrix.ini" --out "$T/n3" --baseline "$T/n2"; then
	s=$T/n3/summary.json
	[ "$(json "$s" 'len(j["baseline"]["new"]) + len(j["baseline"]["fixed"])')" = 0 ] && ok ||
		bad "n3: changes against itself"
	[ "$(json "$s" 'len(j["baseline"]["unchanged"])')" -ge 1 ] && ok || bad "n3: unchanged lost"
fi
echo "three nightly runs took $(($(date +%s) - t0)) s" >&2

# Cells of one scenario that differ only in mount options are different tests in junit.xml.
printf '[matrix]\nscenario = alpha.ini\nfs = ext4\nmount_options = default\nmount_options = noatime\n' \
	>"$T/m/opts.ini"
if run_bo 0 nightly "$T/m/opts.ini" --out "$T/n5"; then
	xmllint --noout --schema "$SRC/tests/junit.xsd" "$T/n5/junit.xml" 2>"$T/xsd" && ok ||
		bad "n5: junit.xml invalid: $(cat "$T/xsd")"
	python3 - "$T/n5/junit.xml" <<'PY' && ok || bad "n5: cells share test identities"
import sys, xml.etree.ElementTree as ET
cases = [(c.get("classname"), c.get("name")) for c in ET.parse(sys.argv[1]).iter("testcase")]
# One testcase per class per cell: the same classes in both, no identity twice.
cells = {}
for c, n in cases:
    cells.setdefault(c, []).append(n)
assert sorted(cells) == ["blackout.alpha@ext4", "blackout.alpha@ext4+noatime"], cases
a, b = cells.values()
assert len(a) >= 9 and sorted(a) == sorted(b) and len(set(cases)) == len(cases), cases
PY
fi

# Bad matrices are errors naming file and line, before any VM boots.
printf '[matrix]\nscenario = alpha.ini\nfs = ext5\n' >"$T/m/bad.ini"
run_bo 3 nightly "$T/m/bad.ini" --out "$T/n4" && grep -q "bad.ini:3: .*ext5" "$T/err" && ok ||
	bad "a bad fs was not named with its line"

# A persona axis: the same correct scenario on an honest disk and on one that ignores FLUSH,
# one cell each, named for the persona; only the lying disk loses data.
cat >"$T/m/personas.ini" <<'INI'
[matrix]
scenario = alpha.ini
persona = honest
persona = ignores-flush
INI
if run_bo 1 nightly "$T/m/personas.ini" --out "$T/n6"; then
	s=$T/n6/summary.json
	[ "$(json "$s" '[(r["name"], r["persona"], r["verdict"]) for r in j["runs"]]')" = \
		"[('alpha@ext4=honest', 'honest', 'consistent'), ('alpha@ext4=ignores-flush', 'ignores-flush', 'failed')]" ] &&
		ok || bad "n6: $(json "$s" '[(r["name"], r.get("persona"), r["verdict"]) for r in j["runs"]]')"
	grep -q '^persona = ignores-flush' "$T/n6/scenarios/alpha@ext4=ignores-flush.ini" && ok ||
		bad "n6: the cell's scenario does not set its persona"
fi

# A bounded cell of seq-2 (the matrix's length = 2 and fresh = yes over a seq-1 scenario of one
# filesystem): its cell's scenario says both, its run is parts under one tree (one a core), and
# its failing states (the planted bug) are named by their part.
scenario "$SRC/scenarios/ext4-bounded.ini" "$T/m/seqtwo.ini" workload.workloads=0-7 \
	workload.bug=ack-without-fsync scenario.name=seqtwo
printf '[matrix]\nscenario = seqtwo.ini\nfs = ext4\nlength = 2\nfresh = yes\n' >"$T/m/seq2.ini"
if run_bo 1 nightly "$T/m/seq2.ini" --out "$T/n9"; then
	s=$T/n9/summary.json
	cell=$(json "$s" 'j["runs"][0]["scenario_file"]')
	grep -q '^length = 2' "$cell" && grep -q '^fresh = yes' "$cell" && ok ||
		bad "n9: the cell's scenario is not seq-2 on fresh filesystems: $(grep -E '^(length|fresh)' "$cell")"
	parts=$(find "$T/n9/$(json "$s" 'j["runs"][0]["results"]')" -maxdepth 1 -name 'part-*' -type d |
		wc -l)
	[ "$parts" = "$(nproc)" ] || [ "$parts" = 1 ] && ok || bad "n9: $parts parts on $(nproc) cores"
	[ "$(json "$s" 'j["runs"][0]["verdict"]')" = failed ] &&
		[ "$(json "$s" 'all(f["state"].startswith("part-") for f in j["runs"][0]["failing"]) and len(j["runs"][0]["failing"]) > 0')" = True ] &&
		ok || bad "n9: $(json "$s" '(j["runs"][0]["verdict"], j["runs"][0]["failing"][:3])')"
fi

# A kernel build tree on the kernel axis (kernel_tree = NAME PATH, the path relative to the
# matrix): its cell is named for it and boots the tree as run --kernel-tree does, which its
# config.json records. The tree is the default Debian kernel dressed as one (debian_tree).
debian_tree "$T/m/trees/deb"
printf '[matrix]\nscenario = beta.ini\nkernel_tree = deb trees/deb\n' >"$T/m/trees.ini"
if run_bo 1 nightly "$T/m/trees.ini" --out "$T/n7"; then
	s=$T/n7/summary.json
	[ "$(json "$s" '[(r["name"], r["kernel"], r["kernel_tree"], r["verdict"]) for r in j["runs"]]')" = \
		"[('beta@ext4~deb', 'deb', '$T/m/trees/deb', 'failed')]" ] &&
		ok || bad "n7: $(json "$s" '[(r["name"], r.get("kernel"), r.get("kernel_tree"), r["verdict"]) for r in j["runs"]]')"
	[ "$(json "$T/n7/$(json "$s" 'j["runs"][0]["results"]')/config.json" 'j["kernel"]["tree"]')" = \
		"$T/m/trees/deb" ] && ok || bad "n7: the cell did not boot the tree"
fi
printf '[matrix]\nscenario = beta.ini\nkernel_tree = deb trees/none\n' >"$T/m/trees.ini"
run_bo 3 nightly "$T/m/trees.ini" --out "$T/n8" &&
	grep -q "trees.ini:3: \[matrix\] kernel_tree: '.*/trees/none': No such file" "$T/err" &&
	[ ! -e "$T/n8" ] && ok || bad "n8: a tree that does not exist: $(cat "$T/err")"
finish
