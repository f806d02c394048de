#!/usr/bin/env bash
# tests/vm/daemons.sh BLACKOUT [FS] — real daemons from Debian's packages, as installed:
# MariaDB and etcd as their own users with the shipped scenarios' scripts, their files shipped
# ([vm] files) or the host's root ([vm] root = host); each correct form consistent at every
# state, MariaDB's misconfigured twin flagged lost-ack. And the
# host's root stays untouchable: what the guest writes there stays in the guest. The shipped
# scenarios run 12 ops; here 5 (a twin needs one acknowledged op to fail), on FS (default ext4).
# With BO_DAEMONS=all (label vm-long) also etcd's twin, whose every state after etcd's first
# start waits out the checker's 20 s for an etcd that never comes back, ZooKeeper's pair
# (two JVM starts per state, about 13 s under TCG), and PostgreSQL's shipped pair on two
# devices (data + wal, initdb --waldir) where the library has it for FS (ext4, xfs): a server
# start per state, about 3 s, some 2.5 min for the pair.
. "$(dirname "$0")/run_lib.sh"
fs=${2:-ext4}
need_vm
OPS=5
size=256M
[ "$fs" = xfs ] && size=300M

for p in mariadbd mariadb etcd etcdctl java /usr/lib/postgresql/15/bin/postgres; do
	command -v $p >/dev/null || PATH=$PATH:/usr/sbin command -v $p >/dev/null ||
		{ bad "$p is not installed (scripts/setup installs mariadb-server, etcd-server, zookeeper, postgresql-15)"; finish; exit; }
done

# The daemons' scripts run as their users, who must reach them.
publish mariadb etcd zookeeper postgresql daemon.sh

# daemon DIR USER ROOT WORKLOAD-ARGS CHECK-ARGS FILES: a scenario for the daemon's scripts in
# scenarios/DIR/, as USER, in its own root with FILES or in the host's (ROOT = host); its
# paths absolute, for the copy lives in $T.
daemon() {
	local d=$T/pub/$1
	cat <<INI
[device]
fs = $fs
size = $size
[workload]
script = $d/workload $4
user = $2
[check]
script = $d/check $5
cuts = mark
[vm]
$([ "$3" = host ] && echo "root = host" || echo "files = $T/pub/daemon.sh $d $6")
INI
}

# expect INI STATUS CLASS [OPS]: the run exits STATUS, and every state is CLASS (consistent)
# or at least one is (a twin). The checker ran at every state: none is a checker-error.
expect() {
	local ini=$1 status=$2 class=$3 ops=${4:-$OPS} n
	if run_bo "$status" run "$ini" --results "$T/results"; then
		s=$RESULTS/summary.json
		n=$(json "$s" 'j["states_checked"]')
		[ "$n" -ge $((2 * ops)) ] && ok || bad "$ini: only $n states checked"
		[ "$(json "$s" 'j["counts"]["checker-error"]')" = 0 ] && ok || bad "$ini: checker errors"
		if [ "$class" = consistent ]; then
			[ "$(json "$s" 'j["counts"]["consistent"]')" = "$n" ] && ok ||
				bad "$ini: not all $n states consistent"
		else
			[ "$(json "$s" "j['counts']['$class']")" -ge 1 ] && ok || bad "$ini: no $class state"
		fi
	fi
}

mdb_files="/usr/sbin/mariadbd /usr/bin/mariadb /usr/share/mysql"
daemon mariadb mysql files "my.cnf $OPS" my.cnf "$mdb_files" >"$T/mariadb.ini"
expect "$T/mariadb.ini" 0 consistent
# The config file is in the run's record, the scripts and the files too.
[ "$(json "$RESULTS/config.json" 'j["workload"]["user"]')" = mysql ] && ok || bad "user not recorded"
json "$RESULTS/config.json" 'j["files"]' | grep -q /usr/sbin/mariadbd && ok || bad "files not recorded"
sed "s|my.cnf $OPS|commit-2.cnf $OPS|" "$T/mariadb.ini" >"$T/mariadb-2.ini"
expect "$T/mariadb-2.ini" 1 lost-ack
# A fresh VM for one of its states gets what the run shipped, and the account: it reproduces.
# What the run shipped of this host goes into it only when named again (docs/safety.md): each
# file of config.json's "files" with --file; without them reproduce refuses, naming them.
if [ -n "${RESULTS:-}" ] && st=$(json "$RESULTS/summary.json" 'j["first_state"]["lost-ack"]'); then
	"$BO" reproduce "$RESULTS" "$st" >"$T/out" 2>"$T/err"
	[ $? = 3 ] && grep -q "/usr/sbin/mariadbd" "$T/err" && ! grep -q booting "$T/err" && ok ||
		bad "reproduce without --file: $(cat "$T/err")"
	mapfile -t given < <(json "$RESULTS/config.json" '"\n".join("--file\n" + f for f in j["files"])')
	run_bo 0 reproduce "$RESULTS" "$st" "${given[@]}"
fi
daemon mariadb mysql host "my.cnf $OPS" my.cnf >"$T/mariadb-host.ini"
expect "$T/mariadb-host.ini" 0 consistent

daemon etcd etcd files "$OPS" "" "/usr/bin/etcd /usr/bin/etcdctl" >"$T/etcd.ini"
expect "$T/etcd.ini" 0 consistent

# PostgreSQL: the library's own scenario files, beside a copy of their scripts, with OPS
# commits. Its twin (fsync = off) comes up after every crash and has lost the commits:
# lost-ack. In every state that kept its checker's output the server came up through the
# link initdb --waldir made, to where the wal device is mounted in the workload and in the
# state alike.
if [ "${BO_DAEMONS:-}" = all ] && [ -e "$SRC/scenarios/$fs-postgresql.ini" ]; then
	for c in "" -fsync-off; do
		sed "s|\(workload [a-z-]*\.conf\) 12|\1 $OPS|" \
			"$SRC/scenarios/$fs-postgresql$c.ini" >"$T/pub/pg$c.ini"
	done
	expect "$T/pub/pg.ini" 0 consistent
	expect "$T/pub/pg-fsync-off.ini" 1 lost-ack
	if [ -n "${RESULTS:-}" ]; then
		[ "$(json "$RESULTS/summary.json" 'j["counts"]["app-recovery-failed"]')" = 0 ] && ok ||
			bad "PostgreSQL with fsync = off did not come up after a crash"
		n=$(cat "$RESULTS"/states/*/checker.out | grep -c '^# pg_wal -> /blackout/mnt/wal/pg_wal$')
		[ "$n" -ge 1 ] && ! grep -L '^# pg_wal -> /blackout/mnt/wal/pg_wal$' \
			"$RESULTS"/states/*/checker.out | grep -q . && ok ||
			bad "pg_wal does not lead to the wal device's mount point in every state kept"
	fi
fi
if [ "${BO_DAEMONS:-}" = all ]; then
	sed "s|workload $OPS|workload $OPS --unsafe-no-fsync|" "$T/etcd.ini" >"$T/etcd-unsafe.ini"
	# etcd does not come back at all (scenarios/README.md).
	expect "$T/etcd-unsafe.ini" 1 app-recovery-failed
	jvm="/usr/share/java /usr/lib/jvm/java-17-openjdk-amd64 /usr/bin/java /etc/java-17-openjdk"
	daemon zookeeper zookeeper files "3 yes" "" "$jvm" >"$T/zk.ini"
	if [ "$fs" != btrfs ]; then
		expect "$T/zk.ini" 0 consistent 3
	# On btrfs ZooKeeper's first snapshot does not survive a crash and it refuses to start
	# (scenarios/README.md): what the correct form finds there.
	elif run_bo 1 run "$T/zk.ini" --results "$T/results"; then
		grep -qs "No snapshot found, but there are log entries" "$RESULTS"/states/*/checker.out &&
			ok || bad "ZooKeeper on btrfs: not the known refusal to start"
	fi
	sed "s|workload 3 yes|workload 3 no|" "$T/zk.ini" >"$T/zk-no.ini"
	expect "$T/zk-no.ini" 1 lost-ack 3
fi

# The host's root, read-only: a workload (as root, whom no permission stops) writes over a
# host file, makes one and removes one, and says it did; on the host nothing changed.
echo keep >"$T/keep"
cat >"$T/w.sh" <<SH
#!/bin/sh
echo changed >"$T/keep" && touch "$T/new" && rm -f "$T/keep" && echo wrote
echo data >data && sync
SH
chmod +x "$T/w.sh"
printf '[device]\nfs = ext4\nsize = 64M\n[workload]\nscript = w.sh\n[check]\nchecker = none\ncuts = flush/2\n[vm]\nroot = host\n' >"$T/host.ini"
if run_bo 0 run "$T/host.ini" --results "$T/results"; then
	grep -q '^wrote$' "$RESULTS/workload.out" && ok || bad "the guest could not write in its overlay"
	[ "$(cat "$T/keep")" = keep ] && [ ! -e "$T/new" ] && ok || bad "the guest wrote to the host"
fi

# The user, in blackout's own root: the account as the host has it, its HOME, the file
# system's root directory its own, its working directory the mount point.
cat >"$T/pub/u.sh" <<'SH'
#!/bin/sh
echo "$(id -un) $(id -u) $HOME $(stat -c %U .) $PWD"
echo data >data && sync
SH
chmod 755 "$T/pub/u.sh"
printf '[device]\nfs = ext4\nsize = 64M\n[workload]\nscript = pub/u.sh\nuser = nobody\n[check]\nchecker = none\ncuts = flush/2\n' >"$T/user.ini"
if run_bo 0 run "$T/user.ini" --results "$T/results"; then
	read -r who uid home owner pwd <"$RESULTS/workload.out"
	[ "$who $uid $home $owner" = "nobody $(id -u nobody) $(getent passwd nobody | cut -d: -f6) nobody" ] &&
		ok || bad "the workload ran as '$who $uid $home', the mount point is $owner's"
	case $pwd in /blackout/mnt) ok ;; *) bad "the workload ran in '$pwd'" ;; esac
fi
# ... and a script it cannot reach is refused before any VM boots, naming file and line.
chmod 700 "$T"
if run_bo 3 run "$T/user.ini" --results "$T/r-refused"; then
	grep -q "user.ini:5: \[workload\] script: user 'nobody' cannot reach" "$T/err" && ok ||
		bad "no clear error for a script the user cannot reach: $(cat "$T/err")"
	[ ! -e "$T/r-refused" ] && ok || bad "a refused scenario left a results directory"
fi
finish
