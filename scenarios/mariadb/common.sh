# scenarios/mariadb/common.sh — starting and stopping mariadbd on ./db, for the workload and
# the checker. The socket and the server's own log live outside the file system under test.
tmp=$(mktemp -d)
sock=$tmp/sock
server=
# Whatever happens, no server outlives the script: it would hold the file system.
trap 'if [ -n "$server" ]; then kill -9 "$server" 2>/dev/null; wait "$server"; fi; rm -rf "$tmp"' EXIT

# start_server CNF: start mariadbd with CNF on ./db and wait until it answers; 1 if it died
# or did not answer within 30 s. With a device named wal ([device wal]), the redo log lives
# on its filesystem.
start_server() {
	mariadbd --defaults-file="$1" --datadir="$PWD/db" --socket="$sock" \
		${BLACKOUT_MNT_WAL:+--innodb-log-group-home-dir="$BLACKOUT_MNT_WAL"} \
		--log-error="$tmp/error.log" --pid-file="$tmp/pid" &
	server=$!
	# A server that neither answers nor dies within 30 s did not recover (it takes 1 s).
	give_up=$(($(date +%s) + 30))
	while ! mariadb --socket="$sock" -e 'SELECT 1' >/dev/null 2>&1; do
		if [ "$(date +%s)" -ge "$give_up" ] || ! kill -0 "$server" 2>/dev/null; then
			echo "mariadbd did not come up:" >&2
			cat "$tmp/error.log" >&2
			return 1
		fi
		sleep 0.1
	done
}

# sql STATEMENTS: run them; their result rows, tab-separated, without a header.
sql() {
	mariadb --socket="$sock" -N -B -e "$1"
}

stop_server() {
	mariadb --socket="$sock" -e SHUTDOWN
	wait "$server"
	server=
}
