#!/usr/bin/env bash
# tests/cli/fstests_form.sh BLACKOUT-FSOPS — the fstests form of an exported finding
# (blackout-fsops fstests, blackout export's fstests/999): it parses as bash; every helper it
# calls is one of fstests' own, in the common file its documentation names (the table below,
# from fstests' README and doc/, written here, not fetched); and run under a stand-in of
# fstests on this host (its helpers as no-ops, xfs_io and setfattr for real, no power failure)
# it prints the line the golden output holds, the line `repro check` prints on the kept side.
# Positive control: a stand-in whose power failure empties the scratch tree makes it print a
# LOST line instead, which the golden output does not hold.
. "$(dirname "$0")/lib.sh"
FSOPS=$(readlink -f "$BO")
for tool in xfs_io setfattr cc; do
	command -v $tool >/dev/null || { echo "SKIP: no $tool (scripts/setup installs it)"; exit 77; }
done

# fstests' helpers the form may call, and the file that defines each.
declare -A helpers=(
	[_begin_fstest]=common/preamble [_cleanup_flakey]=common/dmflakey
	[_init_flakey]=common/dmflakey [_flakey_drop_and_remount]=common/dmflakey
	[_require_scratch]=common/rc [_require_test]=common/rc [_require_dm_target]=common/rc
	[_require_hardlinks]=common/rc [_require_symlinks]=common/rc [_require_odirect]=common/rc
	[_require_xfs_io_command]=common/rc [_scratch_mkfs]=common/rc [_scratch_mount]=common/rc
	[_scratch_unmount]=common/rc [_fail]=common/rc [_require_attrs]=common/attr
	[_require_renameat2]=common/renameat2 [_require_test_reflink]=common/reflink
	[_require_scratch_reflink]=common/reflink
)

# The stand-in: fstests' tree with each common file defining its helpers as no-ops.
mkdir -p "$T/fst/common" "$T/fst/src" "$T/scratch" "$T/test"
for f in preamble rc filter dmflakey attr renameat2 reflink; do
	: >"$T/fst/common/$f"
done
for h in "${!helpers[@]}"; do
	echo "$h() { :; }" >>"$T/fst/${helpers[$h]}"
done
# the power failure: what $STANDIN_DROP says (nothing: no failure)
echo '_flakey_drop_and_remount() { eval "${STANDIN_DROP:-:}"; }' >>"$T/fst/common/dmflakey"
cat >>"$T/fst/common/preamble" <<'SH'
. ./common/rc
seq=999 tmp=/tmp/fst.$$ seqres=$STANDIN/seqres status=1
SH
echo '_fail() { echo "FAIL: $*"; exit 1; }' >>"$T/fst/common/rc"
cat >"$T/renameat2.c" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
int main(int c, char **v)
{
	unsigned f = !strcmp(v[1], "-n") ? RENAME_NOREPLACE : RENAME_EXCHANGE;
	return c == 4 && renameat2(AT_FDCWD, v[2], AT_FDCWD, v[3], f) == 0 ? 0 : 1;
}
C
cc -o "$T/fst/src/renameat2" "$T/renameat2.c" || { bad "stand-in renameat2"; exit 1; }

# form NAME ARGS...: the acks' form, run kept and lost.
form() {
	local name=$1 n=0
	shift
	for id in $("$FSOPS" list "$@" | awk '/ ack$/ {print $1}' | awk 'NR % 4 == 2' | head -4); do
		n=$((n + 1))
		d=$T/$name-$id
		mkdir -p "$d"
		"$FSOPS" fstests "$@" --upto "$id" >"$d/999" || { bad "$name $id: fstests"; continue; }
		"$FSOPS" repro "$@" --upto "$id" >"$d/repro.c" || { bad "$name $id: repro"; continue; }
		bash -n "$d/999" && ok || bad "$name $id: does not parse"
		unknown=$(grep -o -E '(^|[[:space:];&|(])_[a-z_0-9]+' "$d/999" | tr -d ' \t;&|(' | sort -u |
			while read -r h; do [ -n "${helpers[$h]:-}" ] || [ "$h" = _cleanup ] || echo "$h"; done)
		[ -z "$unknown" ] && ok || bad "$name $id: calls what fstests does not have: $unknown"
		promise=$(sed -n 's/^#define PROMISE "\(.*\)"$/\1/p' "$d/repro.c")
		printf 'QA output created by 999\nkept: op %s'"'"'s acknowledgement (%s)\n' "$id" "$promise" >"$d/999.out"
		for side in kept lost; do
			rm -rf "$T/scratch" "$T/test" && mkdir "$T/scratch" "$T/test"
			drop=
			[ $side = kept ] || drop='find "$SCRATCH_MNT" -mindepth 1 -delete'
			(cd "$T/fst" && STANDIN=$d STANDIN_DROP=$drop SCRATCH_MNT=$T/scratch \
				TEST_DIR=$T/test here=$T/fst XFS_IO_PROG=xfs_io SETFATTR_PROG=setfattr \
				bash "$d/999" >"$d/$side.out" 2>"$d/$side.err")
			# fstests writes the first line itself
			if [ $side = kept ]; then
				diff <(tail -n +2 "$d/999.out") "$d/kept.out" >/dev/null && ok ||
					bad "$name $id: kept side printed $(cat "$d/kept.out" "$d/kept.err" | head -3)"
			elif dir=$(sed -n 's/.*names \$expected\/\([^)]*\)).*/\1/p' "$d/999") &&
				[ -n "$dir" ] && [ -z "$(ls -A "$T/test/999.expected/$dir")" ]; then
				: # a directory promised empty: nothing to lose
			else
				grep -q "^LOST: op $id's acknowledgement" "$d/lost.out" && ok ||
					bad "$name $id: an emptied scratch tree printed $(head -3 "$d/lost.out")"
			fi
		done
	done
	[ "$n" -ge 2 ] && ok || bad "$name: only $n acks tried"
}
form seq --seed 1 --ops 60
# every op family the filesystem of $T has (no clone without reflink)
form inode --seed 3 --ops 80 --fsync=inode --families="$("$(dirname "$0")/fsops_host_families.sh" "$T")"
form bounded --bounded 1 --workloads 100-140 --families=all
# a planted bug is the workload's, not the kernel's: no fstests form
"$FSOPS" fstests --seed 1 --ops 60 --bug=ack-without-fsync --upto 34 >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q "no planted bug" "$T/err" && ok || bad "a planted bug got an fstests form"
finish
