# scenarios/etcd/common.sh — starting and stopping a one-member etcd on ./etcd, for the
# workload and the checker. It listens on the VM's loopback only; its log stays outside the
# file system under test.
# $tmp, $server, the trap that stops it, wait_up: shared by the daemon scenarios.
. "$here/../daemon.sh"
url=http://127.0.0.1:2379

# start_server [FLAG...]: start etcd with its data in ./etcd and wait until it answers; 1 if
# it died or did not answer within 20 s.
start_server() {
	etcd --name blackout --data-dir "$PWD/etcd" --listen-client-urls "$url" \
		--advertise-client-urls "$url" --listen-peer-urls http://127.0.0.1:2380 \
		--initial-advertise-peer-urls http://127.0.0.1:2380 \
		--initial-cluster blackout=http://127.0.0.1:2380 "$@" >"$tmp/etcd.log" 2>&1 &
	server=$!
	# A server that neither answers nor dies within 20 s did not recover (it takes 2 s).
	wait_up etcd 20 "$tmp/etcd.log" 0.1 \
		etcdctl --endpoints "$url" --command-timeout 2s get --prefix x
}

# stop_server: a clean stop. etcd ends by re-raising the SIGTERM it handled: 128 + 15.
stop_server() {
	kill "$server"
	wait "$server" || [ $? = 143 ]
	server=
}
