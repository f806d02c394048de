#!/usr/bin/env bash
# tests/vm/cluster_etcd.sh BLACKOUT — etcd's cluster under a correlated power cut
# (docs/clusters.md): three members from Debian's packages, a disk and a network namespace
# each, every disk cut at one instant, 40 s after the cluster came up. The correct cluster is
# consistent at every state through all its members and every majority; the twin
# (--unsafe-no-fsync on every member) loses acknowledged puts through all and through every
# majority, each loss naming its survivors, with every node's log of the workload and of the
# recovery of a failing state. The shipped scenarios put 6 keys; here 3. Long (label vm-long):
# each state set restarts three etcd members, 10 to 15 s under TCG.
. "$(dirname "$0")/run_lib.sh"
need_vm
OPS=3
command -v etcd >/dev/null || {
	bad "etcd is not installed (scripts/setup installs etcd-server)"
	finish
	exit
}

# The scripts run as etcd, who must reach them: a copy anyone may pass (tests/vm/daemons.sh).
mkdir -m 755 "$T/pub"
cp -r "$SRC/scenarios/etcd-cluster" "$T/pub/"
chmod -R go+rX "$T/pub"
chmod 711 "$T"
for v in "" -unsafe-no-fsync; do
	sed -e "s|etcd-cluster/|$T/pub/etcd-cluster/|g" -e "s|^files = etcd-cluster |files = $T/pub/etcd-cluster |" \
		-e "s|workload 6 |workload $OPS |" "$SRC/scenarios/ext4-etcd-cluster$v.ini" >"$T/c$v.ini"
done

# The correct cluster, through all its members and every majority: every state consistent.
if run_bo 0 run "$T/c.ini" --results "$T/results"; then
	s=$RESULTS/summary.json
	n=$(json "$s" 'j["states_checked"]')
	[ "$n" -ge $((4 * 2 * OPS)) ] && ok || bad "only $n states checked"
	[ "$(json "$s" 'j["counts"]["consistent"]')" = "$n" ] && ok || bad "not all $n states consistent"
	for node in n1 n2 n3; do
		grep -q . "$RESULTS/nodes/$node/workload.log" && ok || bad "no workload log of $node"
	done
	grep -q '"event":"nodes-stop"' "$RESULTS/stream.jsonl" && ok || bad "no nodes-stop record"
	json "$RESULTS/config.json" 'j["cluster"]["nodes"][2]["address"]' | grep -qx 10.88.0.3 &&
		ok || bad "the nodes are not in config.json"
fi

# The twin: lost-ack through all and through a majority, each naming its set.
if run_bo 1 run "$T/c-unsafe-no-fsync.ini" --results "$T/results"; then
	[ "$(json "$RESULTS/summary.json" 'j["counts"]["lost-ack"]')" -ge 2 ] && ok ||
		bad "the twin lost fewer than 2 states' acks"
	lost=$(jq -r 'select(.event == "state" and .class == "lost-ack") | .state' \
		"$RESULTS/stream.jsonl")
	echo "$lost" | grep -qv @ && ok || bad "no state lost an ack through all the nodes"
	echo "$lost" | grep -q '@n[123]+n[123]$' && ok || bad "no state lost an ack through a majority"
	q=$(echo "$lost" | grep @ | head -1)
	if [ -n "$q" ]; then
		grep -q "^survivors: ${q#*@} " "$RESULTS/states/$q/verdict.txt" && ok ||
			bad "verdict.txt of $q does not name its survivors"
		for node in $(echo "${q#*@}" | tr + ' '); do
			[ -f "$RESULTS/states/$q/nodes/$node/recovery.log" ] && ok ||
				bad "no recovery log of $node in $q"
		done
		[ "$(jq -r --arg s "$q" 'select(.event == "state" and .state == $s) | .survivors' \
			"$RESULTS/stream.jsonl")" = "${q#*@}" ] && ok || bad "$q's record has no survivors"
		# That set alone, again, in a fresh VM: the same class.
		mapfile -t given < <(json "$RESULTS/config.json" '"\n".join("--file\n" + f for f in j["files"])')
		run_bo 0 reproduce "$RESULTS" "$q" "${given[@]}" && ok
	fi
fi
finish
