#!/usr/bin/env bash
# tests/vm/pg_ctl.sh BLACKOUT [RUNS] — a daemon started the way its users start it never makes
# a correct run fail, under load: scenarios/ext4-postgresql-pg-ctl.ini, whose checker starts
# PostgreSQL with `pg_ctl start` (the server in a session of its own) and stops it with
# `pg_ctl stop -m immediate` (its children still on their way out), run RUNS times (5) while
# two CPU-bound loops run beside it. Every run exits 0 with every state consistent: no
# harness error, no mount left busy. What the checkers left is ended with them and said in
# the state records (checker_left). Label vm-long: some 3 minutes a run on 2 cores.
. "$(dirname "$0")/run_lib.sh"
need_vm
runs=${2:-5}
command -v /usr/lib/postgresql/15/bin/pg_ctl >/dev/null ||
	{ bad "pg_ctl is not installed (scripts/setup installs postgresql-15)"; finish; exit; }

# The scripts run as postgres, who must reach them.
publish postgresql daemon.sh ext4-postgresql-pg-ctl.ini

# Two loops that keep both cores busy, stopped at exit.
loops=()
for _ in 1 2; do
	(while :; do :; done) &
	loops+=($!)
done
trap 'kill "${loops[@]}" 2>/dev/null; rm -rf "$T"' EXIT

left=0
for i in $(seq 1 "$runs"); do
	if run_bo 0 run "$T/pub/ext4-postgresql-pg-ctl.ini" --results "$T/results"; then
		s=$RESULTS/summary.json
		n=$(json "$s" 'j["states_checked"]')
		c=$(json "$s" 'j["counts"]["consistent"]')
		h=$(json "$s" 'j["counts"]["harness-error"]')
		[ "$n" -ge 20 ] && [ "$c" = "$n" ] && [ "$h" = 0 ] && ok ||
			bad "run $i: $c of $n states consistent, $h harness errors"
		left=$((left + $(grep -c '"checker_left":"[0-9]* process[es]*, killed: postgres' \
			"$RESULTS/stream.jsonl")))
	fi
	echo "run $i of $runs done" >&2
done
echo "states whose checker left postgres processes (ended by blackout): $left" >&2
finish
