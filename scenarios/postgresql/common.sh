# scenarios/postgresql/common.sh — starting and stopping PostgreSQL 15 on
# $BLACKOUT_MNT_DATA/pgdata, for the workload and the checker. The configuration (CONF, beside
# the scripts) is given to the server on its command line, so that the checker runs the
# configuration under test whatever reached the disk; the socket and the server's own log live
# outside the file systems under test.
# $tmp, $server, the trap that stops it, wait_up: shared by the daemon scenarios.
. "$here/../daemon.sh"
PATH=/usr/lib/postgresql/15/bin:$PATH
pgdata=$BLACKOUT_MNT_DATA/pgdata

# start_server CONF: start postgres with CONF on $pgdata and wait until it accepts
# connections; 1 if it died or did not within 60 s.
start_server() {
	postgres -D "$pgdata" -c config_file="$1" -k "$tmp" >"$tmp/postgres.log" 2>&1 &
	server=$!
	# A server that neither answers nor dies within 60 s did not recover (under TCG its
	# crash recovery takes a few seconds).
	wait_up postgres 60 "$tmp/postgres.log" 0.2 pg_isready -q -h "$tmp" -d postgres
}

# sql ARGS...: psql on the server, one -c per statement; stops at the first error. Result
# rows unaligned, without a header.
sql() {
	psql -h "$tmp" -d postgres -X -q -A -t -v ON_ERROR_STOP=1 "$@"
}

# stop_server: a fast shutdown (SIGINT), which ends in a checkpoint; postgres exits 0.
stop_server() {
	kill -INT "$server"
	wait "$server"
	server=
}
