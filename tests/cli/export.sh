#!/usr/bin/env bash
# tests/cli/export.sh BLACKOUT — what `blackout export` refuses, on this host, leaving nothing
# behind: no --out; a results directory that is not there; a consistent state; a check's
# results without a scenario (a stranger's: the fixture of lib.sh, whose state c45 lost acks);
# a DIR that is not empty (untouched). The reproducers themselves are tests/vm/export.sh's.
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
finish
