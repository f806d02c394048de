# scenarios/mariadb/common.sh — starting and stopping mariadbd on ./db, for the workload and
# the checker. The socket and the server's own log live outside the file system under test.
# $tmp, $server, the trap that stops it, wait_up: shared by the daemon scenarios.
. "$here/../daemon.sh"
sock=$tmp/sock

# start_server CNF: start mariadbd with CNF on ./db and wait until it answers; 1 if it died
# or did not answer within 30 s. With a device named wal ([device wal]), the redo log lives
# on its filesystem.
start_server() {
	mariadbd --defaults-file="$1" --datadir="$PWD/db" --socket="$sock" \
		${BLACKOUT_MNT_WAL:+--innodb-log-group-home-dir="$BLACKOUT_MNT_WAL"} \
		--log-error="$tmp/error.log" --pid-file="$tmp/pid" &
	server=$!
	# A server that neither answers nor dies within 30 s did not recover (it takes 1 s).
	wait_up mariadbd 30 "$tmp/error.log" 0.1 mariadb --socket="$sock" -e 'SELECT 1'
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
