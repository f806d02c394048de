#!/usr/bin/env bash
# tests/cli/export.sh BLACKOUT — what `blackout export` refuses, on this host, leaving nothing
# behind: no --out; a results directory that is not there; a consistent state; a check's
# results without a scenario (a stranger's: the fixture of lib.sh, whose state c45 lost acks);
# a DIR that is not empty (untouched). A workload of its own command line goes with the files
# its scenario ships; one with no checker is refused. A builtin of its own
# (SQLite) is written with ctl.c, which builds, serves the control channel, records what came
# before the cut and runs the cut once. The reproducers' runs are tests/vm/export.sh's.
. "$(dirname "$0")/lib.sh"
results "$T/r"
expect 2 "--out DIR is required" -- "$BO" export "$T/r"
expect 3 "export:" -- "$BO" export "$T/none" --out "$T/o1"
[ ! -e "$T/o1" ] && ok || bad "a failed export left its DIR"
expect 3 "state c30 is consistent, with no lost acknowledged op" -- "$BO" export "$T/r" c30 --out "$T/o2"
expect 3 "export takes a run of one device with its scenario.ini" -- "$BO" export "$T/r" --out "$T/o3"
[ ! -e "$T/o2" ] && [ ! -e "$T/o3" ] && ok || bad "a refused export left its DIR"
mkdir "$T/full" && echo mine >"$T/full/keep"
expect 3 "export takes a run" -- "$BO" export "$T/r" c45 --out "$T/full"
[ "$(ls "$T/full")" = keep ] && [ "$(cat "$T/full/keep")" = mine ] && ok || bad "DIR was touched"
# A workload of its own command line (a script, a daemon's): its scripts and the folder the
# scenario ships are copied under files/ at their paths, the command lines read them from
# there, and installed software it names (/usr/bin/env) is checked for, not copied. One with
# no checker has nothing to judge a reproduction by: refused.
mkdir -p "$T/wl/lib"
printf '#!/bin/sh\n. "$(dirname "$0")/lib/common.sh"\nblackout ctl issue 1\n' >"$T/wl/workload"
printf '#!/bin/sh\necho done\n' >"$T/wl/check"
: >"$T/wl/lib/common.sh"
chmod +x "$T/wl/workload" "$T/wl/check"
cp -r "$T/r" "$T/cmd"
printf '[device]\nfs = ext4\nsize = 64M\n[workload]\nscript = %s 3 --fast\nuser = nobody\n[check]\nscript = %s\n[vm]\nfiles = %s /usr/bin/env\n' \
	"$T/wl/workload" "$T/wl/check" "$T/wl" >"$T/cmd/scenario.ini"
expect 0 "no fstests form: the workload is its own" -- "$BO" export "$T/cmd" --out "$T/o4"
grep -q "^$T/o4: ctl.c, files/, run.sh" "$T/out" && ok || bad "export said $(cat "$T/out")"
[ -x "$T/o4/files$T/wl/workload" ] && [ -f "$T/o4/files$T/wl/lib/common.sh" ] &&
	[ ! -e "$T/o4/files/usr" ] && ok || bad "files/ holds $(find "$T/o4/files" | head)"
grep -qF "workload() { as_user /bin/sh -c '\"\$BO_FILES\"$T/wl/workload 3 --fast'; }" "$T/o4/run.sh" &&
	grep -qF "checker() { as_user /bin/sh -c '\"\$BO_FILES\"$T/wl/check'; }" "$T/o4/run.sh" &&
	grep -q "^USER_NAME=nobody$" "$T/o4/run.sh" && grep -q "^\[ -e /usr/bin/env \]" "$T/o4/run.sh" &&
	ok || bad "run.sh runs $(grep -e '^workload' -e '^checker' -e '^USER' "$T/o4/run.sh")"
grep -q "/usr/bin/env" "$T/o4/REPORT.md" && ok || bad "REPORT.md does not say what the workload needs"
printf '[device]\nfs = ext4\nsize = 64M\n[workload]\nscript = %s\n[check]\nchecker = none\n' \
	"$T/wl/workload" >"$T/cmd/scenario.ini"
expect 3 "its workload has no checker to say what survived" -- "$BO" export "$T/cmd" --out "$T/o6"
[ ! -e "$T/o6" ] && ok || bad "a refused export left its DIR"
# A builtin of its own (SQLite's) goes as its program, with ctl.c, run.sh and cache.sh, and
# ctl.c builds and serves as blackout's control channel does (its runs: tests/vm/export.sh).
cp -r "$T/r" "$T/sq"
printf '[device]\nfs = ext4\nsize = 64M\n[workload]\nbuiltin = sqlite-wal\nops = 4\n' >"$T/sq/scenario.ini"
expect 0 "no fstests form: the workload is its own" -- "$BO" export "$T/sq" --out "$T/o5"
grep -q "^$T/o5: ctl.c, blackout-sqlite, run.sh, cache.sh" "$T/out" && ok || bad "export said $(cat "$T/out")"
for f in ctl.c blackout-sqlite run.sh cache.sh replay.c REPORT.md; do
	[ -s "$T/o5/$f" ] && ok || bad "no $f"
done
grep -q '^workload() { as_user "$here"/blackout-sqlite --journal=wal --seed [0-9]* --ops 4; }$' \
	"$T/o5/run.sh" && ok || bad "run.sh runs no workload: $(grep -n '^workload' "$T/o5/run.sh")"
sh -n "$T/o5/run.sh" && sh -n "$T/o5/cache.sh" && ok || bad "the scripts are not sh"
if cc -O2 -o "$T/ctl" "$T/o5/ctl.c" 2>"$T/cc.err"; then
	ok
	mkdir "$T/ctl.d"
	"$T/ctl" serve "$T/ctl.d/s" "$T/ctl.d" 2 "touch $T/ctl.d/was-cut" &
	pid=$!
	for _ in $(seq 50); do [ -S "$T/ctl.d/s" ] && break; sleep 0.1; done
	for req in "issue 1" "ack 1" "issue 2" "mark m" "ack 02" "issue 3" "ack 3"; do
		# shellcheck disable=SC2086
		BLACKOUT_CTL=$T/ctl.d/s "$T/ctl" $req || bad "ctl $req was refused"
	done
	ln -s ctl "$T/blackout"
	BLACKOUT_CTL=$T/ctl.d/s "$T/blackout" ctl issue 4 && ok || bad "blackout ctl issue 4"
	BLACKOUT_CTL=$T/ctl.d/s "$T/ctl" issue x 2>"$T/ctl.err"
	[ $? = 3 ] && grep -q "not an op id" "$T/ctl.err" && ok || bad "ctl took 'issue x'"
	kill "$pid"
	wait "$pid"
	[ ! -e "$T/ctl.d/s" ] && ok || bad "ctl serve left its socket"
	# what came before the cut, and the cut right at ack 2, once
	[ "$(cat "$T/ctl.d/issued")" = "$(printf '1\n2')" ] &&
		[ "$(cat "$T/ctl.d/acked")" = "$(printf '1\n2')" ] && [ -e "$T/ctl.d/cut" ] &&
		[ -e "$T/ctl.d/was-cut" ] && ok || bad "ctl recorded $(cat "$T"/ctl.d/issued "$T"/ctl.d/acked)"
else
	bad "ctl.c does not build: $(cat "$T/cc.err")"
fi
finish
