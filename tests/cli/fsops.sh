#!/usr/bin/env bash
# blackout-fsops on the command line, without a harness: the checker's contract on trees it
# cannot recognise, on damaged real trees and on bad input, usage errors, and the determinism
# of the op sequence.
# Usage: fsops.sh BLACKOUT-FSOPS BLACKOUT
set -uo pipefail

fsops=$1
blackout=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# expect STATUS DESCRIPTION COMMAND...: run COMMAND, compare its exit status.
expect() {
	local want=$1 what=$2 got
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" -eq "$want" ] || fail "$what: exit $got, expected $want ($(head -c 300 "$tmp/err"))"
}

last_line_is_done() {
	[ "$(tail -n 1 "$tmp/out")" = done ] || fail "$1: output does not end with 'done'"
}

check() {
	(cd "$1" && "$fsops" check --seed 4 --ops 200)
}

seq 1 200 >"$tmp/issued"
"$fsops" list --seed 4 --ops 200 | awk '/ ack$/ {print $1}' >"$tmp/acked"
[ -s "$tmp/acked" ] || fail "list: no acknowledged ops in 200"
: >"$tmp/none"

# An empty directory with nothing issued: exactly "done".
mkdir "$tmp/empty"
export BLACKOUT_ISSUED=$tmp/none BLACKOUT_ACKED=$tmp/none
expect 0 "empty tree" check "$tmp/empty"
[ "$(cat "$tmp/out")" = done ] || fail "empty tree: output is '$(cat "$tmp/out")', not 'done'"

# The same empty directory when everything was issued and acked: the checker finishes
# normally, and the last ack (whose promise no later op can excuse) is not present — the
# harness turns that into lost-ack. Earlier acks may be excused: with all 200 ops issued, any
# file may since have been unlinked.
last_ack=$(tail -n 1 "$tmp/acked")
export BLACKOUT_ISSUED=$tmp/issued BLACKOUT_ACKED=$tmp/acked
expect 0 "empty tree, all acked" check "$tmp/empty"
last_line_is_done "empty tree, all acked"
grep -qx "present $last_ack" "$tmp/out" && fail "empty tree: last ack $last_ack reported present"
sed 's/^/present /' "$tmp/acked" >"$tmp/acked-lines"
[ "$(grep -cxFf "$tmp/acked-lines" "$tmp/out")" -lt "$(wc -l <"$tmp/acked")" ] ||
	fail "empty tree: every acked op reported present"

# Garbage where the namespace is: wrong types, a device, a FIFO, a huge sparse file, random
# bytes, a symlink loop. The checker must neither crash nor hang nor report a sync op.
g=$tmp/garbage
mkdir -p "$g/f0" "$g/d1/f3"
echo not-a-dir >"$g/d0"
ln -s /dev/zero "$g/f1"
mkfifo "$g/f2"
truncate -s 1G "$g/f3"
head -c 200000 /dev/urandom >"$g/f4"
head -c 1000 /dev/urandom >"$g/d1/f0"
ln -s f5 "$g/f5"
mkdir -p "$g/d2" && chmod 000 "$g/d2"
expect 0 "garbage tree" timeout 60 bash -c "cd '$g' && '$fsops' check --seed 4 --ops 200"
last_line_is_done "garbage tree"
grep -qx "present $last_ack" "$tmp/out" && fail "garbage tree: last ack $last_ack reported present"
expect 0 "garbage tree via BLACKOUT_MNT" env BLACKOUT_MNT="$g" "$fsops" check --seed 4 --ops 200
last_line_is_done "garbage tree via BLACKOUT_MNT"

# Input the checker cannot work with: an error (exit 3) with a message, never "done".
bad() {
	local what=$1
	shift
	expect 3 "$what" env "$@" bash -c "cd '$tmp/empty' && '$fsops' check --seed 4 --ops 200"
	[ -s "$tmp/err" ] || fail "$what: no message"
	grep -q done "$tmp/out" && fail "$what: printed 'done'"
}
bad "unreadable BLACKOUT_ACKED" BLACKOUT_ACKED="$tmp/no-such-file"
grep -q "BLACKOUT_ACKED" "$tmp/err" || fail "unreadable BLACKOUT_ACKED: message does not say which"
bad "BLACKOUT_ACKED is a directory" BLACKOUT_ACKED="$tmp"
bad "BLACKOUT_ISSUED unset" -u BLACKOUT_ISSUED
echo 7x >"$tmp/junk"
bad "garbage in BLACKOUT_ISSUED" BLACKOUT_ISSUED="$tmp/junk"
echo 201 >"$tmp/big"
bad "op id past --ops" BLACKOUT_ISSUED="$tmp/big"
"$fsops" list --seed 4 --ops 200 | awk '!/ ack$/ {print $1; exit}' >"$tmp/notsync"
bad "acked op that is not sync-class" BLACKOUT_ACKED="$tmp/notsync"
grep -q "wrong --seed" "$tmp/err" || fail "non-sync ack: message does not suggest the cause"
bad "acked but not issued" BLACKOUT_ISSUED="$tmp/none"
bad "missing mount point" BLACKOUT_MNT="$tmp/no-such-dir"

# Usage errors.
expect 2 "--ops 0" "$fsops" list --ops 0
expect 2 "--ops too big" "$fsops" list --ops 1000001
expect 2 "bad --seed" "$fsops" list --seed -1
expect 2 "unknown --bug" "$fsops" list --bug=eat-data
expect 2 "unknown mode" "$fsops" frobnicate
expect 0 "--help" "$fsops" --help

# The sequence is a pure function of the seed, and a shorter run is a prefix of a longer one.
"$fsops" list --seed 9 --ops 300 >"$tmp/a"
"$fsops" list --seed 9 --ops 300 >"$tmp/b"
"$fsops" list --seed 9 --ops 120 >"$tmp/c"
"$fsops" list --seed 10 --ops 300 >"$tmp/d"
cmp -s "$tmp/a" "$tmp/b" || fail "list is not deterministic"
head -n 120 "$tmp/a" | cmp -s - "$tmp/c" || fail "--ops 120 is not a prefix of --ops 300"
cmp -s "$tmp/a" "$tmp/d" && fail "seeds 9 and 10 give the same sequence"
"$fsops" list --seed 3 --ops 300 >"$tmp/e"
for t in create write append overwrite truncate rename link unlink mkdir rmdir fsync fdatasync sync; do
	grep -q " $t " "$tmp/e" || fail "300 ops of seed 3 contain no $t"
done
# A filesystem without hard links (vfat, exfat): --no-links draws none, and is part of the
# sequence.
"$fsops" list --seed 3 --ops 300 --no-links >"$tmp/f"
grep -q "^[0-9]* link " "$tmp/f" && fail "--no-links drew a link"
grep -q "^[0-9]* rename " "$tmp/f" || fail "--no-links drew no rename"
cmp -s "$tmp/e" "$tmp/f" && fail "--no-links is not part of the sequence"

# Real trees, damaged: prefixes of runs cut short, torn by random bytes and zeros, files gone.
# The checker must finish every one (under ASan in the sanitizer build). Seeds 31 and 1186
# once made it write past a buffer: a file that ends before a later write begins.
mkdir "$tmp/damaged"
python3 "$(dirname "$0")/fsops_damaged.py" "$fsops" "$tmp/damaged" 1186 $(seq 1 100) >"$tmp/out" 2>&1 ||
	fail "damaged trees: $(head -c 600 "$tmp/out")"

# One-inode persistence ops (--fsync=inode) and the promise table (docs/checkers.md, "What
# each filesystem promises"). The path mode's sequence is the one fsops always drew; the inode
# mode draws fsync-file and fsync-dir instead of fsync.
"$fsops" list --seed 3 --ops 300 --fsync=inode >"$tmp/i"
for t in fsync-file fsync-dir fdatasync sync; do
	grep -q " $t " "$tmp/i" || fail "300 ops of seed 3, --fsync=inode, contain no $t"
	[ "$t" = fsync-file ] || [ "$t" = fsync-dir ] || continue
	grep -q " $t " "$tmp/e" && fail "the path mode drew a $t"
done
grep -q " fsync " "$tmp/i" && fail "the inode mode drew a path fsync"
cmp -s "$tmp/e" <("$fsops" list --seed 3 --ops 300 --fsync=path) ||
	fail "--fsync=path is not the default sequence"
expect 2 "bad --fsync" "$fsops" list --fsync=file
expect 2 "bad --promises" "$fsops" check --promises=ext4

# judge TREE SEED OPS PROMISES: the checker's output on TREE, every op issued, the acks acked.
judge() {
	seq 1 "$3" >"$tmp/ji"
	"$fsops" list --seed "$2" --ops "$3" --fsync=inode | awk '/ ack$/ {print $1}' >"$tmp/ja"
	(cd "$1" && BLACKOUT_ISSUED=$tmp/ji BLACKOUT_ACKED=$tmp/ja \
		"$fsops" check --seed "$2" --ops "$3" --fsync=inode --promises="$4") >"$tmp/out" 2>"$tmp/err" ||
		fail "check of $1: exit $? ($(head -c 300 "$tmp/err"))"
}
# want TREE SEED OPS PROMISES ID yes|no: whether the checker holds ack ID's promise kept.
want() {
	local got=no
	judge "$1" "$2" "$3" "$4"
	grep -qx "present $5" "$tmp/out" && got=yes
	[ "$got" = "$6" ] || fail "$(basename "$1"), promises=$4: op $5 present: $got, expected $6"
}
# Seed 1: one empty file named f5, then f1, linked to f7, then f4 and f0; fsync-file f0 (op 6).
# No directory was fsynced: no name is durable by POSIX.
"$fsops" list --seed 1 --ops 6 --fsync=inode | cut -d' ' -f1-4 >"$tmp/s1"
printf '%s\n' "1 create f5 -" "2 rename f5 f1" "3 link f1 f7" "4 rename f7 f4" "5 rename f1 f0" \
	"6 fsync-file f0 -" | cmp -s - "$tmp/s1" || fail "seed 1, --fsync=inode: not the sequence this test is for: $(cat "$tmp/s1")"
mkdir "$tmp/p1" "$tmp/p1-one" "$tmp/p1-none"
: >"$tmp/p1/f0"
ln "$tmp/p1/f0" "$tmp/p1/f4"
: >"$tmp/p1-one/f0"
for pr in linux posix; do
	want "$tmp/p1" 1 6 $pr 6 yes
done
# A name of the file lost after fsync of the file: Linux's table (ext4, xfs, btrfs persist
# the names a file was created, linked or renamed under) flags it, POSIX's does not — the
# POSIX-only checker run on ext4 would pass this state, the Linux one on vfat would flag it.
want "$tmp/p1-one" 1 6 linux 6 no
want "$tmp/p1-one" 1 6 posix 6 yes
want "$tmp/p1-none" 1 6 linux 6 no
want "$tmp/p1-none" 1 6 posix 6 yes
# Seed 12: create f0, truncate it to 3254, create f4, fsync-dir of the root (op 4): its
# entries are promised by both tables (the file's data is not).
"$fsops" list --seed 12 --ops 4 --fsync=inode | cut -d' ' -f1-3 >"$tmp/s12"
printf '%s\n' "1 create f0" "2 truncate f0" "3 create f4" "4 fsync-dir ." | cmp -s - "$tmp/s12" ||
	fail "seed 12, --fsync=inode: not the sequence this test is for: $(cat "$tmp/s12")"
mkdir "$tmp/p12" "$tmp/p12-lost" "$tmp/p12-dir"
truncate -s 3254 "$tmp/p12/f0"
: >"$tmp/p12/f4"
: >"$tmp/p12-lost/f0"
: >"$tmp/p12-dir/f0"
: >"$tmp/p12-dir/f4"
mkdir "$tmp/p12-dir/d1"
for pr in linux posix; do
	want "$tmp/p12" 12 4 $pr 4 yes
	want "$tmp/p12-dir" 12 4 $pr 4 no # d1 appeared: the root's entries as of op 4 say no
done
# f4 lost: its name was made durable, but the file was never fsync'd itself. ext4, xfs and
# btrfs persist the file with its entry (their journal or log holds the create); POSIX makes
# only the directory durable, not the inode it names.
want "$tmp/p12-lost" 12 4 linux 4 no
want "$tmp/p12-lost" 12 4 posix 4 yes
# Seed 75: create f5, append and overwrite it, create f4, fsync-file f4 (5), unlink f5,
# fsync-dir of the root (7). Both tables: f4, fsync'd itself, must be there, f5 must be gone.
"$fsops" list --seed 75 --ops 7 --fsync=inode | cut -d' ' -f1-3 >"$tmp/s75"
printf '%s\n' "1 create f5" "2 append f5" "3 create f4" "4 overwrite f5" "5 fsync-file f4" \
	"6 unlink f5" "7 fsync-dir ." | cmp -s - "$tmp/s75" ||
	fail "seed 75, --fsync=inode: not the sequence this test is for: $(cat "$tmp/s75")"
mkdir "$tmp/p75" "$tmp/p75-nof4" "$tmp/p75-f5"
: >"$tmp/p75/f4"
: >"$tmp/p75-f5/f4"
head -c 5387 /dev/zero >"$tmp/p75-f5/f5"
for pr in linux posix; do
	want "$tmp/p75" 75 7 $pr 7 yes
	want "$tmp/p75-nof4" 75 7 $pr 7 no # f4 was fsync'd, then its directory
	want "$tmp/p75-f5" 75 7 $pr 7 no   # the unlink of f5 did not persist
done
mkdir "$tmp/damaged-inode"
python3 "$(dirname "$0")/fsops_damaged.py" "$fsops" --fsync=inode "$tmp/damaged-inode" $(seq 1 50) \
	>"$tmp/out" 2>&1 || fail "damaged trees, --fsync=inode: $(head -c 600 "$tmp/out")"

# Op families (--families, docs/checkers.md): without them the sequence is the one fsops
# always drew; with all of them every family op is drawn.
cmp -s "$tmp/e" <("$fsops" list --seed 3 --ops 300 --families=none) ||
	fail "--families=none is not the default sequence"
"$fsops" list --seed 3 --ops 500 --families=all >"$tmp/f"
for t in falloc falloc-keep punch zero zero-keep dio-write dsync-write sync-write mmap-write \
	setxattr removexattr rename-noreplace exchange copy clone clone-range symlink collapse \
	insert; do
	grep -q " $t " "$tmp/f" || fail "500 ops of seed 3, --families=all, contain no $t"
done
"$fsops" list --seed 3 --ops 300 --families=falloc,xattr |
	grep -Eq " (dio-write|exchange|copy|symlink|collapse) " &&
	fail "--families=falloc,xattr drew an op of another family"
for bad in "" foo falloc, ,falloc falloc,,xattr; do
	expect 2 "bad --families" "$fsops" list --families="$bad"
done
# The scenario checks the names before a boot: the harness's list is the workload's.
printf '[device]\nfs = ext4\n[workload]\nbuiltin = fsops\nfamilies = bogus\n' >"$tmp/fam.ini"
expect 3 "families = bogus" "$blackout" run "$tmp/fam.ini"
names=$("$fsops" --help | sed -n 's/.*or none (default): //p')
[ -n "$names" ] && grep -qF "separated by commas: $names)" "$tmp/err" ||
	fail "the harness's op families are not the workload's ($names): $(cat "$tmp/err")"
for f in $(echo "$names" | tr -d ,); do
	"$fsops" list --ops 1 --families="$f" >/dev/null || fail "blackout-fsops lacks family $f"
done
# Each family op's effect is judged: lost, the persistence op that promised it is flagged. The
# real trees need fallocate, O_DIRECT and user xattrs where the test runs (ext4, xfs, btrfs).
mkdir "$tmp/families"
python3 "$(dirname "$0")/fsops_families.py" "$fsops" "$tmp/families" >"$tmp/out" 2>&1 ||
	fail "op families: $(head -c 1500 "$tmp/out")"
mkdir "$tmp/damaged-families"
host_families=$("$(dirname "$0")/fsops_host_families.sh" "$tmp")
python3 "$(dirname "$0")/fsops_damaged.py" "$fsops" --fsync=inode --families="$host_families" \
	"$tmp/damaged-families" $(seq 1 50) >"$tmp/out" 2>&1 ||
	fail "damaged trees, --families=$host_families: $(head -c 600 "$tmp/out")"

# The bounded space (--bounded L): its count and its order are fixed, so that a workload's name
# (seq2-00412) means the same on every machine: a change to the space changes these figures,
# on purpose only. A range of ranks lists exactly those workloads.
[ "$("$fsops" count --bounded 1)" = 192 ] || fail "seq-1 no longer has 192 workloads"
[ "$("$fsops" count --bounded 2)" = 46721 ] || fail "seq-2 no longer has 46721 workloads"
"$fsops" list --bounded 1 >"$tmp/seq1"
[ "$(sed 's/ setup\( \|$\)/\1/' "$tmp/seq1" | md5sum | cut -c1-32)" = \
	947d764c166ada46c1c8a4051cb849b5 ] ||
	fail "seq-1's workloads are not the ones they were (the order or an op changed)"
# Each workload's setup says so: its first 8 ops, its syncfs last.
[ "$(grep -c ' setup\( \|$\)' "$tmp/seq1")" = $((192 * 8)) ] &&
	[ "$(grep -c ' sync .* setup ack$' "$tmp/seq1")" = 192 ] ||
	fail "seq-1's listing does not mark each workload's 8 setup ops"
"$fsops" list --bounded 2 --workloads 412 >"$tmp/b412"
# --fresh: the setup once (it goes into the base), then each workload's ops after its setup,
# the same ops in the same order, numbered on.
"$fsops" list --bounded 2 --workloads 410-413 >"$tmp/shared.list"
"$fsops" list --bounded 2 --workloads 410-413 --fresh >"$tmp/fresh.list"
[ "$(cut -d' ' -f1 "$tmp/fresh.list")" = "$(seq "$(wc -l <"$tmp/fresh.list")")" ] &&
	[ "$(grep -c ' setup\( \|$\)' "$tmp/fresh.list")" = 8 ] &&
	cmp -s <(cut -d' ' -f2- "$tmp/fresh.list") <(grep -m8 ' setup\( \|$\)' "$tmp/shared.list" |
		cut -d' ' -f2-; grep -v ' setup\( \|$\)' "$tmp/shared.list" | cut -d' ' -f2-) ||
	fail "--fresh does not list the setup once, then each workload's ops after it, numbered on"
expect 2 "--fresh without --bounded" "$fsops" list --fresh
# ... and a reproducer of a fresh filesystem's state holds the setup and its one workload:
# seq1-00002's 2 ops to its fdatasync (op 14) after the setup's 8, in w; one shared filesystem
# holds the 30 ops to that fdatasync (op 30 there).
"$fsops" repro --bounded 1 --workloads 0-5 --fresh --upto 14 >"$tmp/fresh.c"
"$fsops" repro --bounded 1 --workloads 0-5 --upto 30 >"$tmp/shared.c"
[ "$(grep -c '/\* op ' "$tmp/fresh.c")" = 10 ] && [ "$(grep -c '/\* op ' "$tmp/shared.c")" = 30 ] &&
	[ "$(grep -o 'mkdir("w[0-9]*"' "$tmp/fresh.c")" = 'mkdir("w"' ] &&
	grep -q '/\* op 14:' "$tmp/fresh.c" && grep -q '/\* op 8:' "$tmp/fresh.c" ||
	fail "--fresh: the reproducer of op 14 is not the setup and seq1-00002's 2 ops, in w"

[ "$(grep -o 'workload=[^ ]*' "$tmp/b412" | sort -u)" = workload=seq2-00412 ] ||
	fail "--workloads 412 is not seq2-00412 alone"
"$fsops" list --bounded 2 --workloads 410-413 | grep 'workload=seq2-00412' |
	cut -d' ' -f2- | cmp -s - <(cut -d' ' -f2- "$tmp/b412") ||
	fail "seq2-00412 is not the same op sequence alone and in a range"
# --sample I/N: the ranks I modulo N (of a range too), each workload as it is alone.
[ "$("$fsops" list --bounded 2 --sample 2/10 | grep -o 'workload=[^ ]*' | sort -u |
	wc -l)" = 4672 ] || fail "--sample 2/10 of seq-2 is not its 4672 ranks 2 modulo 10"
"$fsops" list --bounded 2 --workloads 400-420 --sample 2/10 >"$tmp/s2"
[ "$(grep -o 'workload=[^ ]*' "$tmp/s2" | sort -u | tr '\n' ' ')" = \
	"workload=seq2-00402 workload=seq2-00412 " ] ||
	fail "--workloads 400-420 --sample 2/10 is not seq2-00402 and seq2-00412"
grep 'workload=seq2-00412' "$tmp/s2" | cut -d' ' -f2- | cmp -s - <(cut -d' ' -f2- "$tmp/b412") ||
	fail "seq2-00412 is not the same op sequence alone and in a sample"
# A filesystem that lacks op families or hard links (nilfs2, vfat: harness/dev/fstab.c): the
# workloads needing none of them, under the ranks and with the ops they have everywhere; its
# setup sets no attribute without xattrs.
fams="--families=direct,dsync,mmap --no-links"
# shellcheck disable=SC2086
[ "$("$fsops" count --bounded 1 $fams)" = 110 ] ||
	fail "seq-1 without falloc, xattr, rename2 and links is not 110 workloads"
# shellcheck disable=SC2086
"$fsops" list --bounded 1 $fams >"$tmp/lacks"
grep -Eq "^[0-9]+ (link|falloc|falloc-keep|punch|zero|zero-keep|setxattr|removexattr|exchange|rename-noreplace) " \
	"$tmp/lacks" && fail "--bounded with families and links left out still has one of their ops"
grep -q " workload=seq1-00191" "$tmp/lacks" || fail "seq1-00191 lost its rank without xattrs"
# shellcheck disable=SC2086
"$fsops" list --bounded 2 --workloads 412 --families=falloc,direct,dsync,mmap,xattr |
	cut -d' ' -f2- | cmp -s - <(cut -d' ' -f2- "$tmp/b412") ||
	fail "seq2-00412 is not the same op sequence with the families it does not use left out"
"$fsops" list --bounded 1 --workloads 0 --families=none | grep -q " setxattr " &&
	fail "the setup sets an attribute without xattrs"
for bad in "--bounded 0" "--bounded 4" "--bounded 1 --ops 5" "--bounded 1 --keep 3" \
	"--workloads 3" "--bounded 1 --workloads 9-3" "--sample 0/2" "--bounded 1 --sample 2/2" \
	"--bounded 1 --sample 1"; do
	# shellcheck disable=SC2086
	expect 2 "bad $bad" "$fsops" list $bad
done
expect 2 "count without --bounded" "$fsops" count
# Every workload of seq-1 on a real tree, each in its directory: all acks present; one
# workload's tree damaged: its acks lost, no other's.
mkdir "$tmp/bounded"
python3 "$(dirname "$0")/fsops_bounded.py" "$fsops" "$tmp/bounded" >"$tmp/out" 2>&1 ||
	fail "bounded: $(head -c 1500 "$tmp/out")"

# ... and on a fresh filesystem per workload (--fresh), the harness's marks played by a stand-in.
mkdir "$tmp/fresh-run"
python3 "$(dirname "$0")/fsops_fresh.py" "$fsops" "$tmp/fresh-run" >"$tmp/out" 2>&1 ||
	fail "bounded --fresh: $(head -c 1500 "$tmp/out")"

# The workload refuses to run without a harness or over an existing tree.
mkdir "$tmp/wl"
expect 1 "workload without BLACKOUT_CTL" env -u BLACKOUT_CTL bash -c "cd '$tmp/wl' && '$fsops'"
grep -q BLACKOUT_CTL "$tmp/err" || fail "workload without BLACKOUT_CTL: unclear message"
mkdir "$tmp/wl/d0"
expect 1 "workload over an existing tree" bash -c "cd '$tmp/wl' && '$fsops'"
grep -q "'d0' already exists" "$tmp/err" || fail "existing tree: unclear message"

# blackout ctl without a harness.
expect 3 "blackout ctl without BLACKOUT_CTL" env -u BLACKOUT_CTL "$blackout" ctl issue 1
expect 2 "blackout ctl without an argument" "$blackout" ctl issue
expect 0 "blackout ctl --help" "$blackout" ctl --help

chmod 755 "$g/d2"
if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s)" >&2
	exit 1
fi
echo "fsops CLI: all checks passed"
