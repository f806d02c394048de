# scenarios/daemon.sh — what the daemon scenarios' common.sh share (sourced by /bin/sh): a
# scratch directory $tmp outside the file system under test, the server's pid in $server, a
# trap so that no server outlives the script (it would hold the file system), and wait_up.
# A scenario that uses it ships it: [vm] files = daemon.sh ... (docs/daemons.md).
tmp=$(mktemp -d)
server=
trap 'if [ -n "$server" ]; then kill -9 "$server" 2>/dev/null; wait "$server"; fi; rm -rf "$tmp"' EXIT

# wait_up NAME SECONDS LOG POLL COMMAND...: until COMMAND succeeds, every POLL seconds. When
# the server ($server) dies first or SECONDS pass, it did not recover: say so with its LOG,
# return 1.
wait_up() {
	_name=$1 _log=$3 _poll=$4
	_give_up=$(($(date +%s) + $2))
	shift 4
	while ! "$@" >/dev/null 2>&1; do
		if [ "$(date +%s)" -ge "$_give_up" ] || ! kill -0 "$server" 2>/dev/null; then
			echo "$_name did not come up:" >&2
			cat "$_log" >&2
			return 1
		fi
		sleep "$_poll"
	done
}
