#!/usr/bin/env bash
# tests/vm/cluster.sh BLACKOUT — a cluster's correlated power cut (docs/clusters.md) on
# repkv, the smallest replicated store (scenarios/repkv/: busybox nc nodes that fsync before
# they answer): three nodes, a disk and a network namespace each, every disk cut at one
# instant, three recordings. Acknowledged once a majority fsynced, every id survives through all nodes and every
# majority, not through each node alone; acknowledged once all fsynced, through each alone;
# the twin (no fsync) loses ids through all and through a majority, each loss naming its
# survivors, with every node's logs, and reproduces alone in a fresh VM. The shipped
# scenarios put 4 ids; here 2. One node at a time: a node's power cut at a mark while the
# others run on (the correct pair and the twin above, with n1 cut), and its positive control,
# a primary that acknowledges before its fsync and loses what its cut alone takes.
# etcd's cluster is tests/vm/cluster_etcd.sh (vm-long).
. "$(dirname "$0")/run_lib.sh"
need_vm
OPS=2
for v in "" -no-fsync -sync-all -primary-no-fsync; do
	sed -e "s|repkv/|$SRC/scenarios/repkv/|g" -e "s|^files = repkv|files = $SRC/scenarios/repkv|" \
		-e "s|workload 4 |workload $OPS |" "$SRC/scenarios/ext4-repkv$v.ini" >"$T/r$v.ini"
done

# states STREAM CLASS: the ids of the states of that class, a line each.
states() { jq -r --arg c "$2" 'select(.event == "state" and .class == $c) | .state' "$1"; }

# What is not taken with nodes yet is refused before a boot.
run_bo 3 run "$T/r.ini" --witness 3 --results "$T/results" &&
	grep -q "witness: not taken with a cluster's nodes yet" "$T/err" &&
	! grep -q booting "$T/err" && ok || bad "--witness with a cluster: $(cat "$T/err")"

# A power cut whose mark never comes fails the run, naming its line: the run asked for did not
# happen.
scenario "$T/r.ini" "$T/never.ini" "node n2.power-cut=mark:never"
run_bo 3 run "$T/never.ini" --results "$T/results" &&
	grep -q "scenario.ini:[0-9]*: \[node n2\] power-cut: none of its marks reached the log" \
		"$T/out" "$T/err" &&
	ok || bad "a power cut that never came: $(cat "$T/err")"

# Majority acks, through all, every majority and each node alone (one recording): consistent
# through all and every majority at every cut; not through the third node alone, which is
# sent an id after its acknowledgement.
scenario "$T/r.ini" "$T/every.ini" "survivors=all quorum each"
if run_bo 1 run "$T/every.ini" --results "$T/results"; then
	s=$RESULTS/summary.json
	st=$RESULTS/stream.jsonl
	n=$(json "$s" 'j["states_checked"]')
	# Each cut through 7 sets: all, n1+n2, n1+n3, n2+n3, n1, n2, n3.
	[ "$n" -ge $((7 * 2 * OPS)) ] && [ $((n % 7)) = 0 ] && ok || bad "$n states checked"
	[ "$(states "$st" consistent | grep -c -e '@n.+n.$' -e '^[^@]*$')" = $((4 * n / 7)) ] &&
		ok || bad "not every state through all and the majorities is consistent"
	states "$st" lost-ack | grep -q '@n3$' && ok || bad "n3 alone lost no acknowledged id"
	[ "$(states "$st" lost-ack | grep -vc '@n3$')" = 0 ] && ok || bad "another set lost one"
	for node in n1 n2 n3; do
		grep -q "repkv node $node at 10.88.0" "$RESULTS/nodes/$node/workload.log" && ok ||
			bad "no workload log of $node"
	done
	stop=$(jq -r 'select(.event == "nodes-stop") | .nodes' "$st")
	echo "$stop" | grep -q "^n1: killed by signal 15" && ok || bad "nodes-stop record: $stop"
	[ "$(json "$RESULTS/config.json" 'j["cluster"]["nodes"][2]["address"]')" = 10.88.0.3 ] &&
		ok || bad "the nodes are not in config.json"
	[ "$(json "$RESULTS/config.json" 'j["cluster"]["survivors"]')" = "all quorum each" ] &&
		ok || bad "the survivors are not in config.json"
fi

# Acknowledged once every node fsynced: each node alone has every id, in both modes at once:
# every state cut at a mark, and n1's power cut at every acknowledgement while the others run
# on, each time restarted from what its disk holds.
scenario "$T/r-sync-all.ini" "$T/sync-all.ini" "node n1.power-cut=ack:*"
if run_bo 0 run "$T/sync-all.ini" --results "$T/results"; then
	ok
	# The lint per node: every node flushed before each acknowledgement.
	for node in n1 n2 n3; do
		grep -q "lint: node $node: a flush of its disks between issue and ack for $OPS of $OPS acks" \
			"$T/err" && ok || bad "no lint line of $node: $(grep lint "$T/err")"
	done
	cuts=$(jq -r 'select(.event == "node-cut") | .mark' "$RESULTS/stream.jsonl" | tr '\n' ' ')
	[ "$cuts" = "node-cut:n1:ack:1 node-cut:n1:ack:2 " ] && ok || bad "n1's cuts: $cuts"
	# Its restart after the first acknowledgement found that id on its disk (it answered the
	# second put after it; the restart after the last may be stopped before it says a word).
	grep -q "n1 at 10.88.0.1:7000, 1 ids stored" "$RESULTS/nodes/n1/workload.log" && ok ||
		bad "n1's restarts: $(cat "$RESULTS/nodes/n1/workload.log")"
	# Restarted by the control server's thread, it stops on SIGTERM as the others do.
	stop=$(jq -r 'select(.event == "nodes-stop") | .nodes' "$RESULTS/stream.jsonl")
	echo "$stop" | grep -q "^n1: killed by signal 15" && ok || bad "nodes-stop record: $stop"
fi

# The positive control of one node at a time: the primary acknowledges an id before its fsync
# and replicates it later; its power cut after the last acknowledgement, the others running
# on, loses every id it had acknowledged, at the run's end (cuts = end), through all nodes.
if run_bo 1 run "$T/r-primary-no-fsync.ini" --results "$T/results"; then
	lost=$(states "$RESULTS/stream.jsonl" lost-ack)
	[ "$(echo "$lost" | wc -w)" = 1 ] && ok || bad "lost-ack states: $lost"
	v=$RESULTS/states/$lost/verdict.txt
	grep -q "^lost: 1,2$" "$v" && grep -q "^survivors: n1+n2+n3 (every node)" "$v" && ok ||
		bad "verdict of $lost: $(cat "$v")"
	grep -q '"event":"node-cut","node":"n1","trigger":"ack:2"' "$RESULTS/stream.jsonl" &&
		ok || bad "no node-cut record"
	grep -q "n1: killed by signal 9" <<<"$(jq -r 'select(.event == "node-cut") | .killed' \
		"$RESULTS/stream.jsonl")" && ok || bad "n1 was not killed at its cut"
	# explain tells which node lost what: no node flushed for the lost ids, and n1's power
	# was cut after their acks.
	"$BO" explain "$RESULTS" "$lost" >"$T/explain" 2>&1
	[ "$(grep -c "^      nodes that flushed between its issue and ack: none: the ack rested on no node's disk; not: n1, n2, n3$" "$T/explain")" = 2 ] &&
		[ "$(grep -c "^      power cut after its ack: n1 at entry [0-9]*$" "$T/explain")" = 2 ] &&
		ok || bad "explain $lost: $(cat "$T/explain")"
	# Each node's by-products: what its disks had received, with its own power cut, and the
	# kernel's lines about its devices.
	nd=$RESULTS/states/$lost/nodes
	grep -q "^its power cut at entry [0-9]* (node-cut:n1:ack:2)$" "$nd/n1/writes.txt" &&
		grep -q "^node n1, up to the cut" "$nd/n1/writes.txt" &&
		! grep -q "power cut" "$nd/n2/writes.txt" && ok ||
		bad "writes.txt: $(cat "$nd/n1/writes.txt" "$nd/n2/writes.txt")"
	grep -q "^# the lines of dmesg.txt naming node n3's devices: dm-[0-9]* (n3)$" \
		"$nd/n3/dmesg.txt" && grep -q "^EXT4-fs (dm-" "$nd/n3/dmesg.txt" && ok ||
		bad "n3's dmesg.txt: $(cat "$nd/n3/dmesg.txt")"
	# report.html, read in headless Chromium: a row of each node in the timeline, n1's power
	# cut on it, and each node's by-products in the failing state's section.
	CHROME=$(command -v chromium || command -v chromium-browser || true)
	if [ -n "$CHROME" ]; then
		timeout 180 nice "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
			--user-data-dir="$T/profile" --dump-dom "file://$RESULTS/report.html" \
			>"$T/dom.html" 2>"$T/chrome.err"
		for node in n1 n2 n3; do
			grep -q "<text x=\"4\" y=\"[0-9]*\">$node</text>" "$T/dom.html" &&
				grep -q "<summary>nodes/$node/writes.txt (" "$T/dom.html" && ok ||
				bad "report.html has no row or by-products of $node"
		done
		grep -q "<title>n1 power cut: 1 in entries" "$T/dom.html" &&
			! grep -q "<title>n2 power cut" "$T/dom.html" && ok ||
			bad "report.html does not draw n1's power cut alone"
	else
		bad "no chromium (scripts/setup installs it): report.html was not read"
	fi
fi

# The twin: lost through all and through each majority, its survivors in its id, record and
# verdict, each node's recovery log kept; one such state again, alone, in a fresh VM. With
# n1's power cut at the first acknowledgement too: n1 loses the id from its disk, the others
# hold it in their caches and write it at their stop, so the run's end is consistent through
# all and every majority: one node's cut does not find this twin (docs/clusters.md).
scenario "$T/r-no-fsync.ini" "$T/no-fsync.ini" "node n1.power-cut=ack:1"
if run_bo 1 run "$T/no-fsync.ini" --results "$T/results"; then
	lost=$(states "$RESULTS/stream.jsonl" lost-ack)
	end=$(jq -r 'select(.event == "state") | .state' "$RESULTS/stream.jsonl" | grep -v @ |
		sed 's/^c//' | sort -n | tail -1)
	for set in "" @n1+n2 @n1+n3 @n2+n3; do
		[ "$(jq -r --arg s "c$end$set" 'select(.event == "state" and .state == $s) | .class' \
			"$RESULTS/stream.jsonl")" = consistent ] && ok || bad "the end c$end$set is not consistent"
	done
	grep -q "n1 at 10.88.0.1:7000, 0 ids stored" "$RESULTS/nodes/n1/workload.log" && ok ||
		bad "n1 kept id 1 without an fsync: $(cat "$RESULTS/nodes/n1/workload.log")"
	echo "$lost" | grep -qv @ && ok || bad "no state lost an id through all the nodes"
	for set in n1+n2 n1+n3 n2+n3; do
		echo "$lost" | grep -q "@$set$" && ok || bad "no state lost an id through $set"
	done
	q=$(echo "$lost" | grep '@n1+n3$' | head -1)
	if [ -n "$q" ]; then
		grep -q "^survivors: n1+n3 " "$RESULTS/states/$q/verdict.txt" && ok ||
			bad "verdict.txt of $q does not name its survivors"
		for node in n1 n3; do
			grep -q "repkv node $node" "$RESULTS/states/$q/nodes/$node/recovery.log" && ok ||
				bad "no recovery log of $node in $q"
		done
		[ ! -e "$RESULTS/states/$q/nodes/n2" ] && ok || bad "n2 was not a survivor of $q"
		[ "$(jq -r --arg s "$q" 'select(.event == "state" and .state == $s) | .survivors' \
			"$RESULTS/stream.jsonl")" = n1+n3 ] && ok || bad "$q's record has no survivors"
		# explain tells the survivors and how each of their nodes stopped, and reads the
		# state's by-products.
		"$BO" explain "$RESULTS" "$q" >"$T/explain" 2>&1
		grep -q "^  survivors: n1+n3 " "$T/explain" && grep -q "^    node n3: " "$T/explain" &&
			! grep -q "not read" "$T/explain" && ok || bad "explain $q: $(cat "$T/explain")"
		# What the run shipped of this host is named again (tests/vm/daemons.sh).
		twin=$RESULTS
		mapfile -t given < <(json "$twin/config.json" '"\n".join("--file\n" + f for f in j["files"])')
		run_bo 0 reproduce "$twin" "$q" "${given[@]}" && ok
		# A set of nodes the cluster does not have is refused on the host, before a boot.
		run_bo 2 check "$twin/write.log" --scenario "$twin/scenario.ini" \
			--state "${q%@*}@n1+n9" &&
			grep -q "after '@', the names of nodes of the cluster" "$T/err" &&
			! grep -q booting "$T/err" && ok ||
			bad "an unknown node in a state id was not refused: $(cat "$T/err")"
	fi
fi
finish
