#!/usr/bin/env bash
# tests/vm/report_html.sh BLACKOUT [SCREENSHOT.png] — report.html of a run with failures, opened
# in headless Chromium on the host: the rendered page shows every failing state (by id, with
# its by-products) and the timeline with every checked state; junit.xml validates against
# tests/junit.xsd. The screenshot is kept at SCREENSHOT.png (default: in the scratch directory,
# removed). Positive control: the same assertions fail on the report of the same directory
# with its state records taken away.
. "$(dirname "$0")/run_lib.sh"
shot=${2:-$T/report.png}
need_vm
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$CHROME" ] || ! command -v xmllint >/dev/null; then
	echo "*** SKIP $(basename "$0"): no chromium or xmllint (run scripts/setup):" \
		"report.html was not rendered ***" >&2
	exit 77
fi

# chrome ARGS... URL: headless, no sandbox (root), a profile of its own, bounded.
chrome() {
	timeout 180 nice "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--no-first-run --user-data-dir="$T/profile" "$@" 2>>"$T/chrome.err"
}

# check_dom DOM RESULTS: the rendered page shows the failing states and the timeline.
check_dom() {
	local dom=$1 res=$2 id n drawn want
	grep -q '<svg id="timeline"' "$dom" || {
		echo "no timeline"
		return 1
	}
	drawn=$(grep -o 'class="st"' "$dom" | wc -l)
	want=$(($(json "$res/summary.json" 'j["states_checked"] + j["states_aliased"]')))
	[ "$drawn" = "$want" ] || {
		echo "timeline draws $drawn states, the run has $want"
		return 1
	}
	n=0
	for id in $(ls "$res/states" | head -50); do
		grep -q "id=\"s-$id\"" "$dom" && grep -q "href=\"#s-$id\"" "$dom" || {
			echo "failing state $id not rendered"
			return 1
		}
		n=$((n + 1))
	done
	[ "$n" -ge 1 ] || {
		echo "no failing state"
		return 1
	}
	grep -q 'lost: [0-9]' "$dom" && grep -q 'reproduce: ' "$dom" || {
		echo "no by-products"
		return 1
	}
}

scenario "$SRC/scenarios/ext4-fsops-bug.ini" "$T/bug.ini" ops=20 seed=3
if run_bo 1 run "$T/bug.ini" --results "$T/results"; then
	grep -q "^report: $RESULTS/report.html" "$T/out" && ok || bad "run did not name its report"
	xmllint --noout --schema "$SRC/tests/junit.xsd" "$RESULTS/junit.xml" 2>"$T/xsd" && ok ||
		bad "junit.xml does not validate: $(cat "$T/xsd")"
	first=$(json "$RESULTS/summary.json" 'j["first_state"]["lost-ack"]')
	grep -q "<failure type=\"lost-ack\" message=\"[0-9]* states\? lost-ack; first: $first\"" \
		"$RESULTS/junit.xml" && ok || bad "junit.xml has no lost-ack failure naming $first"
	grep -q "repro: sh $RESULTS/states/$first/repro.sh" "$RESULTS/junit.xml" && ok ||
		bad "junit.xml has no repro command"

	chrome --dump-dom "file://$RESULTS/report.html" >"$T/dom.html"
	msg=$(check_dom "$T/dom.html" "$RESULTS") && ok || bad "rendered report: $msg"
	rm -f "$shot"
	chrome --window-size=1280,1800 --screenshot="$shot" "file://$RESULTS/report.html" >/dev/null
	[ "$(head -c 8 "$shot" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(stat -c %s "$shot")" -gt 20000 ] && ok ||
		bad "no screenshot: $(tail -3 "$T/chrome.err")"

	# Positive controls: the same checks fail on the report of the same directory without
	# its state records (no timeline marks), and with every state recorded as consistent
	# (no failing state shown). Each contradicts its summary.json: report says so on the
	# page and exits 3.
	cp -r "$RESULTS" "$T/c1"
	cp -r "$RESULTS" "$T/c2"
	grep -v '"event":"state"' "$RESULTS/stream.jsonl" >"$T/c1/stream.jsonl"
	sed 's/"class":"lost-ack"/"class":"consistent"/' "$RESULTS/stream.jsonl" >"$T/c2/stream.jsonl"
	for c in c1 c2; do
		"$BO" report "$T/$c" >/dev/null 2>"$T/$c.err"
		rc=$?
		[ "$rc" = 3 ] && grep -q 'id="contradiction"' "$T/$c/report.html" && ok ||
			bad "report of control $c exited $rc, not 3 with the contradiction said:" \
				"$(cat "$T/$c.err")"
		chrome --dump-dom "file://$T/$c/report.html" >"$T/$c.html"
		msg=$(check_dom "$T/$c.html" "$T/$c") && bad "control $c passed the page checks" ||
			ok
		echo "control $c: $msg"
	done
fi
finish
