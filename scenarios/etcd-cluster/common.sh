# scenarios/etcd-cluster/common.sh — what the client scripts of the etcd cluster scenarios
# share (sourced by /bin/sh): the client URLs of the nodes blackout runs (BLACKOUT_NODES, each
# node's BLACKOUT_NODE_<NAME>_ADDR; docs/clusters.md), and waiting for the cluster to answer.

# urls NAME...: the client URLs of the nodes NAMEs, comma-separated.
urls() {
	_urls=
	for _n in "$@"; do
		_up=$(echo "$_n" | tr a-z A-Z)
		eval "_addr=\$BLACKOUT_NODE_${_up}_ADDR"
		_urls="${_urls:+$_urls,}http://$_addr:2379"
	done
	echo "$_urls"
}

# wait_cluster ENDPOINTS SECONDS: until a linearizable read through ENDPOINTS succeeds (a leader
# was elected and a quorum answers); 1 when SECONDS pass first.
wait_cluster() {
	_give_up=$(($(date +%s) + $2))
	until etcdctl --endpoints "$1" --command-timeout 2s get --prefix x >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$_give_up" ] || return 1
		sleep 0.2
	done
}
