#!/usr/bin/env bash
# tests/vm/cluster_etcd.sh BLACKOUT — etcd's cluster under a correlated power cut
# (docs/clusters.md): three members from Debian's packages, a disk and a network namespace
# each, every disk cut at one instant, 40 s after the cluster came up. The correct cluster is
# consistent at every state through all its members and every majority; the twin
# (--unsafe-no-fsync on every member) loses acknowledged puts through all and through every
# majority, each loss naming its survivors, with every node's log of the workload and of the
# recovery of a failing state. One node at a time, n1's power cut after the third put while the
# others run on: the correct cluster and the twin are both consistent at the run's end, and
# the twin's n1 restarted from a log without the puts (docs/clusters.md says why). Then
# repkv's correct primary, the pair of tests/vm/cluster.sh's positive control. The shipped
# scenarios put 6 keys; here 3. Long (label vm-long):
# each state set restarts three etcd members, 10 to 15 s under TCG.
. "$(dirname "$0")/run_lib.sh"
need_vm
OPS=3
command -v etcd >/dev/null || {
	bad "etcd is not installed (scripts/setup installs etcd-server)"
	finish
	exit
}

# The scripts run as etcd, who must reach them.
publish etcd-cluster
# One node at a time keeps the shipped 6 puts: n1 is cut at the third, and answers the rest.
for v in "" -unsafe-no-fsync -power-cut; do
	ops=$OPS
	[ "$v" = -power-cut ] && ops=6
	sed -e "s|etcd-cluster/|$T/pub/etcd-cluster/|g" -e "s|^files = etcd-cluster |files = $T/pub/etcd-cluster |" \
		-e "s|workload 6 |workload $ops |" "$SRC/scenarios/ext4-etcd-cluster$v.ini" >"$T/c$v.ini"
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

# One node at a time: n1's power cut at ack:3 while n2 and n3 run on; at the end, through all
# and every majority, every put is there — with every member's fsync, and without.
sed 's|^start = \(.*etcd-cluster/node\)$|start = \1 --unsafe-no-fsync|' "$T/c-power-cut.ini" \
	>"$T/twin-cut.ini"
for c in c-power-cut twin-cut; do
	if run_bo 0 run "$T/$c.ini" --results "$T/results"; then
		[ "$(json "$RESULTS/summary.json" 'j["counts"]["consistent"]')" = 4 ] && ok ||
			bad "$c: not 4 states consistent (all and the three majorities at the end)"
		jq -r 'select(.event == "node-cut") | .mark' "$RESULTS/stream.jsonl" |
			grep -qx "node-cut:n1:ack:3" && ok || bad "$c: no node-cut record of n1"
		# Two starts of n1, the second from its disk, three puts before the run ends.
		[ "$(grep -c 'etcdserver: \(restarting\|starting\) member' \
			"$RESULTS/nodes/n1/workload.log")" -ge 2 ] && ok || bad "$c: n1 did not start again"
	fi
done

# repkv's primary that fsyncs before it acknowledges: its power cut loses nothing, and every
# state of the run is consistent (the pair of cluster.sh's positive control).
sed -e "s|repkv/|$SRC/scenarios/repkv/|g" -e "s|^files = repkv|files = $SRC/scenarios/repkv|" \
	"$SRC/scenarios/ext4-repkv-primary.ini" >"$T/primary.ini"
run_bo 0 run "$T/primary.ini" --results "$T/results" && ok
finish
