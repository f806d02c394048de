# scenarios/zookeeper-cluster/common.sh — what the scripts of the ZooKeeper ensemble scenarios
# share (sourced by /bin/sh): the nodes' client addresses (BLACKOUT_NODES, each node's
# BLACKOUT_NODE_<NAME>_ADDR; docs/clusters.md) and requests through ZooKeeper's C client,
# cli_mt (Debian's zookeeper-bin): a create costs no JVM of its own.
cli=/usr/lib/zookeeper/bin/cli_mt

# node_addr NAME: the node's address.
node_addr() {
	_up=$(echo "$1" | tr a-z A-Z)
	eval "echo \$BLACKOUT_NODE_${_up}_ADDR"
}

# hosts NAME...: the client addresses of the nodes NAMEs, host:port comma-separated, as the
# client connects to any of them.
hosts() {
	_hosts=
	for _n in "$@"; do
		_hosts="${_hosts:+$_hosts,}$(node_addr "$_n"):2181"
	done
	echo "$_hosts"
}

# zk HOSTS COMMAND: one cli_mt command; its output ("[/k1]: rc = 0"). A server that is not in
# a quorum refuses the client at once (rc = -4), so there is no timeout of its own here
# (busybox's would leave its watchdog behind for a second): the workload's and the checker's
# time limits bound it.
zk() {
	"$cli" "$1" "cmd:$2" 2>&1
}

# ask COMMAND NODE...: COMMAND through the first of the NODEs that carries it out (rc = 0), a
# cli_mt call each, as a client moves on from a server that refuses it (not in a quorum, or
# its power cut): that output; else the last one, and 1.
ask() {
	_cmd=$1
	shift
	for _n in "$@"; do
		_out=$(zk "$(hosts "$_n")" "$_cmd")
		case $_out in *": rc = 0"*) break ;; esac
	done
	echo "$_out"
	case $_out in *": rc = 0"*) return 0 ;; esac
	return 1
}

# wait_ensemble SECONDS NODE...: until the ensemble answers through one of the NODEs (a server
# answers only once it is in a quorum with a leader); 1 when SECONDS pass first.
wait_ensemble() {
	_give_up=$(($(date +%s) + $1))
	shift
	until ask "ls /" "$@" >/dev/null; do
		[ "$(date +%s)" -lt "$_give_up" ] || return 1
		sleep 0.5
	done
}
