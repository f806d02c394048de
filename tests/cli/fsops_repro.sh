#!/usr/bin/env bash
# tests/cli/fsops_repro.sh BLACKOUT-FSOPS — blackout-fsops repro, the repro.c of `blackout
# export`: for acknowledged ops of a seeded sequence (both fsync modes, every op family) and of
# the bounded space, the program compiles without a warning, runs its ops in an empty
# directory (the cut command runs right after the ack, once, and nothing after it), finds what
# the ack promised kept in that tree against a second run, and lost (exit 1, one LOST line)
# once the tree is emptied: the check's positive control. A planted bug leaves out the sync.
# The tree repro makes is the one the workload makes, bytes and attributes (fsops_repro_same.py).
. "$(dirname "$0")/lib.sh"
FSOPS=$(readlink -f "$BO")
# every op family the filesystem of $T has (no clone without reflink)
fams=$("$(dirname "$0")/fsops_host_families.sh" "$T")

# try NAME ARGS...: every 3rd ack of the listing (at most 6), each through the cycle above.
try() {
	local name=$1 n=0
	shift
	"$FSOPS" list "$@" >"$T/list" || { bad "$name: list"; return; }
	for id in $(awk '/ ack$/ {print $1}' "$T/list" | awk 'NR % 3 == 1' | head -6); do
		n=$((n + 1))
		d=$T/$name-$id
		mkdir -p "$d/x" "$d/e"
		"$FSOPS" repro "$@" --upto "$id" >"$d/repro.c" || { bad "$name $id: repro"; continue; }
		if ! cc -O2 -Wall -Wextra -Werror -o "$d/repro" "$d/repro.c" 2>"$d/cc.err"; then
			bad "$name $id: repro.c does not compile: $(head -3 "$d/cc.err")"
			continue
		fi
		"$d/repro" run "$d/x" "echo CUT >>$d/cut" >"$d/run.out" || { bad "$name $id: run"; continue; }
		[ "$(cat "$d/cut")" = CUT ] && [ "$(tail -1 "$d/run.out")" = "$(grep "acknowledged" "$d/run.out" | tail -1)" ] &&
			grep -q "^op $id acknowledged: " "$d/run.out" && ok ||
			bad "$name $id: the cut did not come once, right after op $id's ack"
		"$d/repro" run "$d/e" >/dev/null || bad "$name $id: the run without a cut"
		"$d/repro" check "$d/x" "$d/e" >"$d/check.out"
		[ $? = 0 ] && grep -q "^kept: op $id's" "$d/check.out" && ok ||
			bad "$name $id: not kept in the tree itself: $(cat "$d/check.out")"
		# the positive control: nothing left of the tree
		promise=$(sed -n 's/^#define PROMISE "\(.*\)"$/\1/p' "$d/repro.c")
		find "$d/x" -mindepth 1 -delete
		"$d/repro" check "$d/x" "$d/e" >"$d/lost.out"
		rc=$?
		dir=${promise#*directory }
		if [ -z "$(find "$d/e" -mindepth 1 -newer "$d/repro.c" -print -quit)" ] ||
			{ [[ $promise == *"the names in it"* ]] && [ -z "$(ls -A "$d/e/${dir%%: *}" 2>/dev/null)" ]; }; then
			continue # nothing promised to lose
		fi
		[ $rc = 1 ] && grep -q "^LOST: op $id's acknowledgement" "$d/lost.out" && ok ||
			bad "$name $id ($promise): an empty tree was not found lost (exit $rc): $(cat "$d/lost.out")"
	done
	[ "$n" -ge 3 ] && ok || bad "$name: only $n acks tried"
}

try seq --seed 1 --ops 60
try inode --seed 3 --ops 80 --fsync=inode --families=$fams
try bounded --bounded 1 --workloads 100-140 --families=all

# repro's tree is the workload's: names, bytes and attributes
for args in "--seed 1 --ops 60" "--seed 3 --ops 80 --fsync=inode --families=$fams" \
	"--bounded 1 --workloads 100-140 --families=all"; do
	rm -rf "$T/same" && mkdir "$T/same"
	# shellcheck disable=SC2086
	PYTHONPATH=$(dirname "$0") python3 "$(dirname "$0")/fsops_repro_same.py" "$FSOPS" "$T/same" $args &&
		ok || bad "repro's tree is not the workload's ($args)"
done

# the planted bug: the syncs left out, the ack kept
"$FSOPS" repro --seed 3 --ops 80 --fsync=inode --families=$fams --bug=ack-without-fsync \
	--upto "$(awk '/fsync-file .* ack$/ {print $1; exit}' <("$FSOPS" list --seed 3 --ops 80 --fsync=inode --families=$fams))" >"$T/bug.c"
grep -q "the bug: no fsync" "$T/bug.c" && ok || bad "the planted bug's repro.c still syncs"
# refused: an op that is no ack
"$FSOPS" repro --seed 1 --ops 60 --upto 2 >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q "op 2 is no acknowledged op" "$T/err" && ok || bad "a non-ack --upto accepted"
finish
