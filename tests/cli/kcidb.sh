#!/usr/bin/env bash
# tests/cli/kcidb.sh BLACKOUT — `blackout report --kcidb` writes KernelCI's report data (KCIDB
# v5.3) that its schema accepts: kcidb_schema.json beside this test, written from KCIDB's
# documentation (not fetched), checked with python3-jsonschema. The lost-ack class is a FAIL
# test naming its first state, the consistent one a PASS, each on the kernel's build and
# checkout; the ids link up. Positive control: the same document with one thing wrong each
# (a status KCIDB lacks, a test without its build, an origin in capitals, a property it does
# not know) is refused by the schema.
. "$(dirname "$0")/lib.sh"
schema=$(dirname "$0")/kcidb_schema.json
python3 -c 'import jsonschema' 2>/dev/null || {
	echo "SKIP: no python3-jsonschema (scripts/setup installs it)"
	exit 77
}
results "$T/r"
# the kernel a run records (config.json's "kernel"), as a run's results have it
python3 - "$T/r/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["kernel"] = {"release": "6.1.0-57-amd64", "package": "linux-image-6.1.0-57-amd64 6.1.192-3"}
c["started"] = "2026-01-01T00:00:00.000Z"
json.dump(c, open(sys.argv[1], "w"))
PY
expect 0 -- "$BO" report --kcidb "$T/r"
[ -s "$T/r/kcidb.json" ] && ok || bad "no kcidb.json"
python3 - "$schema" "$T/r/kcidb.json" <<'PY' && ok || bad "kcidb.json is not KCIDB v5.3"
import copy, json, sys, jsonschema
schema, doc = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
builds = {b["id"] for b in doc["builds"]}
checkouts = {c["id"] for c in doc["checkouts"]}
assert all(b["checkout_id"] in checkouts for b in doc["builds"]), doc["builds"]
assert all(t["build_id"] in builds for t in doc["tests"]), doc["tests"]
status = {t["path"].rsplit(".", 1)[1]: t for t in doc["tests"]}
assert status["lost-ack"]["status"] == "FAIL" and status["lost-ack"]["misc"]["first_state"] == "c45", status
assert status["consistent"]["status"] == "PASS", status
assert doc["checkouts"][0]["id"] == "blackout:6.1.0-57-amd64", doc["checkouts"]
# the positive control: each break refused
breaks = [lambda d: d["tests"][0].update(status="LOST"),
          lambda d: d["tests"][0].pop("build_id"),
          lambda d: d["builds"][0].update(origin="Blackout"),
          lambda d: d["checkouts"][0].update(kernel="6.1"),
          lambda d: d["version"].update(major=4)]
for i, brk in enumerate(breaks):
    bad = copy.deepcopy(doc)
    brk(bad)
    try:
        jsonschema.validate(bad, schema)
    except jsonschema.ValidationError:
        continue
    sys.exit(f"break {i} was accepted")
PY

# A build tree that calls itself by the package's release is a kernel of its own: its
# checkout is known by its image too, named for the tree, and still valid.
python3 - "$T/r/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["kernel"] = {"release": "6.1.0-57-amd64", "tree": "/src/fix", "image_sha256": "ab" * 32,
               "describe": "v6.1-fix-3-gdeadbeef"}
json.dump(c, open(sys.argv[1], "w"))
PY
rm -f "$T/r/kcidb.json"
expect 0 -- "$BO" report --kcidb "$T/r"
python3 - "$schema" "$T/r/kcidb.json" <<'PY' && ok || bad "a tree's kcidb.json"
import json, sys, jsonschema
schema, doc = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
co = doc["checkouts"]
assert [c["id"] for c in co] == ["blackout:6.1.0-57-amd64@" + "ab" * 8], co
assert co[0]["git_commit_name"] == "v6.1-fix-3-gdeadbeef", co
assert co[0]["comment"] == "a kernel build tree: /src/fix", co
assert all(b["checkout_id"] == co[0]["id"] for b in doc["builds"]), doc["builds"]
PY
finish
