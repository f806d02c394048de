#!/usr/bin/env bash
# tests/vm/personas.sh BLACKOUT — device personas on one correct ext4 fsops log. On an honest
# disk, dropping any one write of an epoch keeps it consistent; on one that ignores FLUSH, the
# same workload loses acknowledged data (fsync cannot protect on such a disk): the positive
# control of the persona. A failing state is reproduced by its id under its persona and is
# refused under another; lost-flush and ignores-fua add states; atomic-512 tears 4 KiB blocks
# inside, in bytes; the report names the persona.
. "$(dirname "$0")/run_lib.sh"
need_vm

scenario "$SRC/scenarios/ext4-fsops.ini" "$T/good.ini" ops=20
run_bo 0 run "$T/good.ini" --results "$T/results" || { finish; exit 1; }
good=$RESULTS
prefixes=$(json "$good/summary.json" 'j["states_checked"]')
check() { run_bo "$1" check "$good/write.log" --scenario "$good/scenario.ini" --jobs 1 \
	--results "$T/results" "${@:2}"; }

# The same states drawn on both disks: one dropped write per state, 4 per cut, at every mark
# and every 6th entry (an fsops mark follows a flush: the plain writes are between them).
if check 0 --persona honest --reorder 1 --budget 4 --cuts mark,every:6; then
	grep -q '"state":"c[0-9]*-d' "$RESULTS/stream.jsonl" && ok ||
		bad "honest --reorder 1 dropped no write: the check was vacuous"
fi
if check 1 --persona ignores-flush --budget 4 --cuts mark,every:6; then
	flush=$RESULTS
	python3 - "$flush" <<'PY' && ok || bad "ignores-flush: no acknowledged op lost"
import json, sys
c = json.load(open(sys.argv[1] + "/summary.json"))["counts"]
sys.exit(not c["lost-ack"] + c["unmountable"] + c["fsck-dirty"])
PY
	[ "$(json "$flush/config.json" 'j["options"]["persona"]')" = ignores-flush ] && ok ||
		bad "config.json does not record the persona"
	grep -q '<th>device persona</th><td><code>ignores-flush</code>' "$flush/report.html" && ok ||
		bad "report.html does not name the persona"
	# A failing state by its id: reproduced under its persona, refused on an honest disk
	# (the write it drops is durable there) as an option that does not fit the log: exit 2,
	# on the host, before a results directory exists or a VM boots.
	pick=$(python3 -c 'import json,sys
st=[json.loads(l) for l in open(sys.argv[1]) if "\"event\":\"state\"" in l]
bad=[s for s in st if s["class"] != "consistent" and "-d" in s["state"]]
print(bad[0]["state"], bad[0]["class"])' "$flush/stream.jsonl")
	id=${pick% *}
	check 0 --persona ignores-flush --cuts mark,every:6 --state "$id" --expect "${pick#* }"
	n_before=$(find "$T/results" -mindepth 1 -maxdepth 1 | wc -l)
	check 2 --state "$id" && grep -q "state id '$id'.*durable" "$T/err" && ok ||
		bad "state $id of ignores-flush was not refused on an honest disk: $(tail -3 "$T/err")"
	[ "$(find "$T/results" -mindepth 1 -maxdepth 1 | wc -l)" = "$n_before" ] && ok ||
		bad "the refused --state $id left a results directory"
fi
# lost-flush and ignores-fua draw states an honest disk has not (every mark cut of fsops
# follows a flush: without a persona there is nothing to drop).
for p in lost-flush ignores-fua; do
	"$BO" check "$good/write.log" --scenario "$good/scenario.ini" --jobs 1 --persona $p \
		--budget 2 --results "$T/results" >"$T/out" 2>"$T/err"
	rc=$?
	RESULTS=$(sed -n 's/^results: //p' "$T/out" "$T/err" | tail -1)
	n=$(json "$RESULTS/summary.json" 'j["states_checked"]')
	[ "$rc" -le 1 ] && [ "$n" -gt "$prefixes" ] && ok ||
		bad "$p: exit $rc, $n states for $prefixes prefixes"
done
# atomic-512 on 4 KiB blocks: writes torn inside a block, ids in bytes.
"$BO" check "$good/write.log" --scenario "$good/scenario.ini" --jobs 1 --persona atomic-512 \
	--cuts every:8 --results "$T/results" >"$T/out" 2>"$T/err"
rc=$?
RESULTS=$(sed -n 's/^results: //p' "$T/out" "$T/err" | tail -1)
[ "$rc" -le 1 ] && grep -q '"state":"c[0-9]*-t[0-9]*:[0-9]*B"' "$RESULTS/stream.jsonl" && ok ||
	bad "atomic-512: exit $rc, no state torn inside a block"
finish
