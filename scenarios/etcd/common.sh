# scenarios/etcd/common.sh — starting and stopping a one-member etcd on ./etcd, for the
# workload and the checker. It listens on the VM's loopback only; its log stays outside the
# file system under test.
tmp=$(mktemp -d)
server=
# Whatever happens, no server outlives the script: it would hold the file system.
trap 'if [ -n "$server" ]; then kill -9 "$server" 2>/dev/null; wait "$server"; fi; rm -rf "$tmp"' EXIT
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
	give_up=$(($(date +%s) + 20))
	while ! etcdctl --endpoints "$url" --command-timeout 2s get --prefix x >/dev/null 2>&1; do
		if [ "$(date +%s)" -ge "$give_up" ] || ! kill -0 "$server" 2>/dev/null; then
			echo "etcd did not come up:" >&2
			cat "$tmp/etcd.log" >&2
			return 1
		fi
		sleep 0.1
	done
}

# stop_server: a clean stop. etcd ends by re-raising the SIGTERM it handled: 128 + 15.
stop_server() {
	kill "$server"
	wait "$server" || [ $? = 143 ]
	server=
}
