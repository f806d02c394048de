#!/usr/bin/env bash
# tests/vm/export.sh BLACKOUT — blackout export (docs/export.md), each reproducer run where its
# users run it: in blackout's plain VM (`blackout vm run`, the export shared, dmsetup and
# util-linux's blkid given, no blackout in the loop), on the kernel the finding was made on.
# - The fsops planted bug on ext4 (ack without fsync): run.sh exits 1 with a LOST line; the
#   same op of the correct workload (its repro.c in its place): 0, kept.
# - The xfs finding of docs/crash-states.md (fsync after RENAME_EXCHANGE), on 6.1 and 6.12:
#   run.sh exits 1 on both, as blackout found.
# - The unjournaled ext4 finding of 6.1 (no cache flush for a directory fsync or an fdatasync):
#   cache.sh exits 1 on 6.1 and 0 on 6.12; run.sh (dm-flakey, no volatile cache) 0.
# - SQLite's synchronous=OFF twin, a workload of its own, on 6.1 and 6.12: run.sh and cache.sh
#   exit 1 (its program run with ctl.c standing in for blackout); without the twin's bug, 0.
#   etcd's --unsafe-no-fsync twin, a daemon's script run as its account: run.sh exits 1, and
#   0 without the flag.
# - run.sh refuses a device holding a filesystem it did not make, and a mounted one (exit 2),
#   and formats one it made before.
# - The unjournaled ext4 syncfs finding of 6.12 (a race inside blackout): cache.sh, with its
#   dm-delay, exits 1 on 6.12 (twice); on 6.1, and without the delay, it says what it got.
# - findings --export exports each finding.
# - export refuses a consistent run and a non-empty DIR, and leaves nothing behind.
. "$(dirname "$0")/run_lib.sh"
need_vm

# verify OUT KERNEL WANT [SCRIPT]: run.sh of OUT in the plain VM on KERNEL exits WANT (the
# script's own exit status: 0 kept, 1 lost, 2 could not run).
verify() {
	local out=$1 kernel=$2 want=$3 script=${4:-sh /results/run.sh}
	# shellcheck disable=SC2086
	"$BO" vm run --kernel-release "$kernel" --file /usr/sbin/dmsetup --file /usr/sbin/blkid \
		${VM_FILES:-} --share "$out" -- \
		sh -c "$script" >"$T/vm.out" 2>"$T/vm.err"
	got=$?
	echo "[vm run, $kernel] $script: exit $got: $(grep -h -e '^LOST' -e '^kept' -e 'run.sh:' "$T/vm.out" "$T/vm.err" | head -2)"
	case "|$want|" in *"|$got|"*) got_ok=1 ;; *) got_ok= ;; esac
	[ -n "$got_ok" ] && ok || {
		bad "$out on $kernel: run.sh exited $got, expected $want"
		sed 's/^/  | /' "$T/vm.out" "$T/vm.err" | tail -20 >&2
		return 1
	}
}

# The planted bug on ext4.
scenario "$SRC/scenarios/ext4-fsops.ini" "$T/bug.ini" ops=40 workload.bug=ack-without-fsync
if run_bo 1 run "$T/bug.ini" --results "$T/results"; then
	bug=$RESULTS
	if run_bo 0 export "$bug" --out "$T/bug"; then
		for f in repro.c repro run.sh REPORT.md; do
			[ -s "$T/bug/$f" ] && ok || bad "export wrote no $f"
		done
		[ ! -e "$T/bug/fstests" ] && grep -q "no fstests form: a planted bug" "$T/err" && ok ||
			bad "a planted bug got an fstests form"
		grep -q "^| [0-9]* | mark \`issue:" "$T/bug/REPORT.md" && ok ||
			bad "REPORT.md has no log entries from the op's issue"
		verify "$T/bug" 6.1 1 && grep -q "^LOST: op " "$T/vm.out" && ok ||
			bad "run.sh of the planted bug said no LOST line"
		# run.sh's own control: the same op of the correct workload (its syncs made) is kept
		n=$(sed -n 's/^#define N \([0-9]*\)UL$/\1/p' "$T/bug/repro.c")
		args=$(json "$bug/config.json" 'j["workload"]["command"].split(None, 1)[1]')
		cp -r "$T/bug" "$T/good" && rm -f "$T/good/repro"
		# shellcheck disable=SC2086
		blackout-fsops repro ${args/--bug=ack-without-fsync/} --upto "$n" >"$T/good/repro.c" &&
			cc -O2 -static -o "$T/good/repro" "$T/good/repro.c" && ok ||
			bad "the correct workload's repro.c"
		verify "$T/good" 6.1 0 && grep -q "^kept: op $n's" "$T/vm.out" && ok ||
			bad "run.sh of the correct workload said no kept line"
		# refused: a foreign filesystem, a mounted one; taken: one run.sh made
		verify "$T/bug" 6.1 2 'cd /tmp && truncate -s 256M d.img && mknod /dev/loop7 b 7 7;
			losetup /dev/loop7 d.img && mkfs.ext4 -q /dev/loop7 && sh /results/run.sh /dev/loop7'
		grep -q "holds something these scripts did not make" "$T/vm.err" && ok ||
			bad "run.sh did not refuse a foreign filesystem"
		verify "$T/bug" 6.1 2 'cd /tmp && truncate -s 256M d.img && mknod /dev/loop7 b 7 7;
			losetup /dev/loop7 d.img && mkfs.ext4 -q -L borepro /dev/loop7 && mkdir m &&
			mount -t ext4 /dev/loop7 m && sh /results/run.sh /dev/loop7'
		grep -q "is mounted: refused" "$T/vm.err" && ok || bad "run.sh did not refuse a mounted device"
		verify "$T/bug" 6.1 1 'cd /tmp && truncate -s 256M d.img && mknod /dev/loop7 b 7 7;
			losetup /dev/loop7 d.img && mkfs.ext4 -q -L borepro /dev/loop7 && sh /results/run.sh /dev/loop7'
	fi
	# refused: a non-empty DIR (nothing of it touched), a consistent state
	mkdir "$T/full" && echo mine >"$T/full/keep"
	run_bo 3 export "$bug" --out "$T/full" && grep -q "not empty" "$T/err" &&
		[ "$(ls "$T/full")" = keep ] && ok || bad "export wrote into a non-empty directory"
	consistent=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("event") == "state" and r["class"] == "consistent":
        print(r["state"]); break' "$bug/stream.jsonl")
	run_bo 3 export "$bug" "$consistent" --out "$T/none" && [ ! -e "$T/none" ] &&
		grep -q "no lost acknowledged op" "$T/err" && ok || bad "a consistent state was exported"
fi

# A workload of its own: SQLite's twin (synchronous=OFF acknowledges a commit it never
# syncs), found on each kernel, exported with its program and ctl.c. run.sh and cache.sh lose
# the ack where blackout did; the correct workload (the twin's bug taken out of its command
# lines) keeps it, under both.
sqlib=$(ldd "$(dirname "$BO")/blackout-sqlite" | awk '/libsqlite3/ { print $3 }')
for k in 6.1 6.12; do
	scenario "$SRC/scenarios/ext4-sqlite-wal-synchronous-off.ini" "$T/sq.ini" ops=6
	if run_bo 1 run "$T/sq.ini" --kernel-release "$k" --results "$T/sq-$k" &&
		run_bo 0 export "$RESULTS" --out "$T/sq-$k-out"; then
		for f in ctl.c ctl blackout-sqlite run.sh cache.sh REPORT.md; do
			[ -s "$T/sq-$k-out/$f" ] && ok || bad "sqlite $k: export wrote no $f"
		done
		[ ! -e "$T/sq-$k-out/repro.c" ] && grep -q "no fstests form: the workload is" "$T/err" &&
			ok || bad "sqlite $k: a workload of its own got repro.c or an fstests form"
		for script in run.sh cache.sh; do
			VM_FILES="--file $sqlib" verify "$T/sq-$k-out" "$k" 1 "sh /results/$script" &&
				grep -q "^LOST: op 1's acknowledgement: the checker does not see it" "$T/vm.out" &&
				ok || bad "sqlite $k: $script said no LOST line"
		done
		cp -r "$T/sq-$k-out" "$T/sq-$k-good"
		sed -i 's/ --bug=synchronous-off//' "$T/sq-$k-good/run.sh" "$T/sq-$k-good/cache.sh"
		for script in run.sh cache.sh; do
			VM_FILES="--file $sqlib" verify "$T/sq-$k-good" "$k" 0 "sh /results/$script" &&
				grep -q "^kept: op 1's acknowledgement" "$T/vm.out" && ok ||
				bad "sqlite $k: the correct workload's $script said no kept line"
		done
	fi
done

# A daemon's script: etcd's --unsafe-no-fsync twin, run as the etcd account. Its scripts go
# under files/ and etcd itself is the machine's (given to the plain VM, with setpriv and the
# account): run.sh loses an acknowledged put, and without the flag it keeps every one.
etcd_files="--file /usr/bin/etcd --file /usr/bin/etcdctl --file /usr/bin/setpriv"
etcd_files="$etcd_files --file /etc/passwd --file /etc/group"
if [ ! -x /usr/bin/etcd ]; then
	echo "SAID: no etcd here (scripts/setup installs it): its export is not run"
elif run_bo 1 run "$SRC/scenarios/ext4-etcd-unsafe-no-fsync.ini" --results "$T/etcd" &&
	run_bo 0 export "$RESULTS" --out "$T/etcd-out"; then
	[ -x "$T/etcd-out/files$SRC/scenarios/etcd/workload" ] &&
		[ -f "$T/etcd-out/files$SRC/scenarios/daemon.sh" ] && grep -q "^USER_NAME=etcd$" \
		"$T/etcd-out/run.sh" && ok || bad "etcd: the export lacks its scripts or its user"
	VM_FILES=$etcd_files verify "$T/etcd-out" 6.1 1 "sh /results/run.sh" &&
		grep -q "^LOST: op [0-9]*'s acknowledgement: the checker does not see it" "$T/vm.out" &&
		ok || bad "etcd: run.sh said no LOST line"
	cp -r "$T/etcd-out" "$T/etcd-good"
	sed -i 's/ --unsafe-no-fsync//' "$T/etcd-good/run.sh"
	VM_FILES=$etcd_files verify "$T/etcd-good" 6.1 0 "sh /results/run.sh" &&
		grep -q "^kept: op " "$T/vm.out" && ok || bad "etcd: the correct workload's run.sh kept nothing"
fi

# The unjournaled ext4 finding of 6.1 (a directory fsync or an fdatasync asks for no cache
# flush): its loss needs the volatile cache, so run.sh (dm-flakey) keeps it and cache.sh
# (dm-log-writes, the log replayed to the ack's mark without what no FLUSH covered) loses it
# on 6.1, and keeps it on 6.12, where the same ops flush.
if run_bo 1 run "$SRC/scenarios/ext4-nojournal-bounded-unflushed.ini" --kernel-release 6.1 \
	--results "$T/nj"; then
	# the first state whose lost op is a directory fsync or an fdatasync
	state=$(python3 - "$RESULTS" <<'PY'
import json, subprocess, sys
res = sys.argv[1]
args = json.load(open(res + "/config.json"))["workload"]["command"].split(None, 1)[1]
kind = {l.split()[0]: l.split()[1] for l in subprocess.run(
    "blackout-fsops list " + args, shell=True, capture_output=True, text=True).stdout.splitlines()}
for l in open(res + "/stream.jsonl"):
    r = json.loads(l)
    if r.get("event") == "state" and r.get("lost") and kind.get(str(r["lost"][0])) in ("fsync-dir", "fdatasync"):
        print(r["state"]); break
PY
)
	if [ -n "$state" ] && run_bo 0 export "$RESULTS" "$state" --out "$T/nj-out"; then
		ok
		verify "$T/nj-out" 6.1 1 "sh /results/cache.sh" &&
			grep -q "^LOST: op " "$T/vm.out" && ok || bad "ext4 nojournal 6.1: cache.sh said no LOST line"
		verify "$T/nj-out" 6.12 0 "sh /results/cache.sh" &&
			grep -q "^kept: op " "$T/vm.out" && ok || bad "ext4 nojournal 6.12: cache.sh said no kept line"
		verify "$T/nj-out" 6.1 0 "sh /results/run.sh"
	else
		bad "ext4 nojournal 6.1: no state lost a directory fsync or an fdatasync"
	fi
fi

# The unjournaled ext4 finding of 6.12: a syncfs that returns with metadata written after its
# only flush. Inside blackout a race (9 to 15 of 21 setups lose it); cache.sh's dm-delay
# (DELAY_MS, 20 ms by default) leaves the kernel's last writes in flight when its FLUSH is
# sent: it loses the ack on 6.12 every time. 6.1 has the same order in sync_filesystem() and
# loses some of the same states (2 of 8 tried: docs/export.md): its verdict is said, not held.
# Without the delay it is the race it was: said too.
if run_bo 1 run "$SRC/scenarios/ext4-nojournal-bounded-unflushed.ini" --kernel-release 6.12 \
	--results "$T/nj12"; then
	if run_bo 0 export "$RESULTS" --out "$T/nj12-out"; then
		for try in 1 2; do
			verify "$T/nj12-out" 6.12 1 "sh /results/cache.sh" &&
				grep -q "^LOST: op [0-9]*'s acknowledgement (syncfs" "$T/vm.out" && ok ||
				bad "ext4 nojournal 6.12 syncfs: cache.sh run $try said no LOST line"
		done
		verify "$T/nj12-out" 6.1 "0|1" "sh /results/cache.sh" &&
			echo "SAID: the 6.12 syncfs state on 6.1: $(grep -h -e '^LOST' -e '^kept' "$T/vm.out" | cut -c1-60)"
		verify "$T/nj12-out" 6.12 "0|1" "DELAY_MS=0 sh /results/cache.sh" &&
			echo "KNOWN RACE: ext4 nojournal 6.12 syncfs without dm-delay: $(grep -h -e '^LOST' -e '^kept' "$T/vm.out" | cut -c1-40)"
	fi
fi

# The xfs finding, on both kernels: lost where blackout lost it.
for k in 6.1 6.12; do
	if run_bo 1 run "$SRC/scenarios/xfs-bounded-exchange-fsync.ini" --kernel-release "$k" \
		--results "$T/xfs-$k"; then
		run_bo 0 export "$RESULTS" --out "$T/xfs-$k-out" &&
			[ -s "$T/xfs-$k-out/fstests/999" ] && ok || bad "xfs $k: no fstests form"
		verify "$T/xfs-$k-out" "$k" 1
	fi
done
# findings --export: each finding (here the xfs one on each kernel) exported where it is
run_bo 1 findings "$T/xfs-6.1" "$T/xfs-6.12" --export "$T/found" &&
	[ "$(ls "$T"/found/*/run.sh | wc -l)" -ge 2 ] && grep -q "findings exported into" "$T/err" && ok ||
	bad "findings --export did not export each finding"
finish
