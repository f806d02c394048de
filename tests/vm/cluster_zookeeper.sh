#!/usr/bin/env bash
# tests/vm/cluster_zookeeper.sh BLACKOUT — ZooKeeper's ensemble under a power cut
# (docs/clusters.md): three servers from Debian's packages, a disk and a network namespace
# each, the client Debian's C client. Correlated, 40 s after the ensemble came up: the correct
# ensemble is consistent at every acknowledgement through all its servers and every majority;
# the twin (forceSync=no on every server) loses acknowledged creates through all and through
# a majority. One node at a time, n1's power cut after the second create while the others run
# on: consistent at the run's end, n1 started again. Cut within 30 s of its first start, the
# ensemble does not come back, and the servers say why: ZooKeeper writes its first snapshot
# without an fsync and refuses a transaction log without one — shown through the log's replay
# (every disk cut at one instant) and again without it (n1's dm-flakey power cut, its
# restart). The shipped scenarios create 4 znodes; here 3 (2 for the fresh ensemble). Long
# (label vm-long): each state set restarts three JVMs, 15 to 40 s under TCG.
. "$(dirname "$0")/run_lib.sh"
need_vm
OPS=3
[ -x /usr/lib/zookeeper/bin/cli_mt ] && command -v java >/dev/null || {
	bad "ZooKeeper or its C client is not installed (scripts/setup installs zookeeper and zookeeper-bin)"
	finish
	exit
}

# The scripts run as zookeeper, who must reach them.
publish zookeeper-cluster
for v in "" -forcesync-no -power-cut -fresh; do
	ops=$OPS
	[ "$v" = -fresh ] && ops=2
	sed -e "s|zookeeper-cluster/|$T/pub/zookeeper-cluster/|g" \
		-e "s|^files = zookeeper-cluster |files = $T/pub/zookeeper-cluster |" \
		-e "s|workload 4|workload $ops|" "$SRC/scenarios/ext4-zookeeper-cluster$v.ini" >"$T/z$v.ini"
done

# The correct ensemble, through all its servers and every majority: every state consistent.
if run_bo 0 run "$T/z.ini" --results "$T/results"; then
	s=$RESULTS/summary.json
	n=$(json "$s" 'j["states_checked"]')
	[ "$n" -ge $((4 * OPS)) ] && ok || bad "only $n states checked"
	[ "$(json "$s" 'j["counts"]["consistent"]')" = "$n" ] && ok || bad "not all $n states consistent"
	grep -q "LEADING" "$RESULTS"/nodes/n*/workload.log && ok || bad "no server led the ensemble"
fi

# The twin: lost-ack through all and through a majority, each naming its set.
if run_bo 1 run "$T/z-forcesync-no.ini" --results "$T/results"; then
	[ "$(json "$RESULTS/summary.json" 'j["counts"]["lost-ack"]')" -ge 2 ] && ok ||
		bad "the twin lost fewer than 2 states' creates"
	lost=$(jq -r 'select(.event == "state" and .class == "lost-ack") | .state' \
		"$RESULTS/stream.jsonl")
	echo "$lost" | grep -q '^c[^@]*$' && ok || bad "no state lost a create through all the servers"
	echo "$lost" | grep -q '@n[123]+n[123]$' && ok || bad "no state lost a create through a majority"
	q=$(echo "$lost" | grep @ | head -1)
	[ -n "$q" ] && grep -q "^survivors: ${q#*@} " "$RESULTS/states/$q/verdict.txt" && ok ||
		bad "verdict.txt of $q does not name its survivors"
fi

# One node at a time: n1's power cut at ack:2 while n2 and n3 run on; at the end, through all
# and every majority, every create is there, and n1 started again from its disk — with every
# server's forceSync, and without (docs/clusters.md says why the twin is consistent here).
sed 's|^\(start = .*zookeeper-cluster/node\) yes$|\1 no|' "$T/z-power-cut.ini" >"$T/twin-cut.ini"
for c in z-power-cut twin-cut; do
	if run_bo 0 run "$T/$c.ini" --results "$T/results"; then
		[ "$(json "$RESULTS/summary.json" 'j["counts"]["consistent"]')" = 4 ] && ok ||
			bad "$c: not 4 states consistent (all and the three majorities at the end)"
		jq -r 'select(.event == "node-cut") | .mark' "$RESULTS/stream.jsonl" |
			grep -qx "node-cut:n1:ack:2" && ok || bad "$c: no node-cut record of n1"
		# Killed at its cut, n1 ended by the stop's SIGTERM: a server started again (its
		# JVM may not have printed a line yet when the last create came through n2 or n3).
		jq -r 'select(.event == "nodes-stop") | .nodes' "$RESULTS/stream.jsonl" |
			grep -qx "n1: exited with status 143" && ok || bad "$c: n1 did not start again"
	fi
done

# Fresh, every disk cut at one instant: the ensemble does not come back, and a server says
# why. Fresh, n1's power cut after the first create (dm-flakey, no cut of the log): at the
# run's end n2 and n3 hold every create, and each majority with n1 fails, n1 refusing the
# disk its own power cut left. Both need the cut within the 30 s after the servers wrote
# their first snapshot, before the kernel writes it back: on a loaded machine the ensemble
# may take longer to answer, and then there is nothing to find. That is said, not failed; a
# failure without the refusal is one.
refused="No snapshot found, but there are log entries"
fresh() { # WHAT STATE...: each STATE failed refusing the log, or say there was none
	local what=$1 s
	shift
	if [ $# = 0 ]; then
		echo "ZooKeeper's finding not met ($what): the cut came after the first snapshots reached the disk"
		ok
	fi
	for s in "$@"; do
		grep -q "$refused" "$RESULTS/states/$s"/nodes/n*/recovery.log && ok ||
			bad "$what: $s failed, and no server refused its transaction log"
	done
}
if run_bo "0|1" run "$T/z-fresh.ini" --results "$T/results"; then
	# shellcheck disable=SC2046 # one word per state
	fresh "every disk cut" $(states "$RESULTS" | awk '$3 == "app-recovery-failed" { print $2 }')
fi
sed -e 's|^power-cut = ack:2|power-cut = ack:1|' -e "s|workload $OPS 40|workload 2|" \
	"$T/z-power-cut.ini" >"$T/fresh-cut.ini"
if run_bo "0|1" run "$T/fresh-cut.ini" --results "$T/results"; then
	states "$RESULTS" | awk '$3 == "consistent" { print $2 }' | grep -q '^c[0-9]*$' && ok ||
		bad "the fresh ensemble after n1's cut is not consistent through all"
	# shellcheck disable=SC2046 # one word per state
	fresh "n1's power cut" $(states "$RESULTS" | awk '$3 == "app-recovery-failed" { print $2 }')
fi
finish
