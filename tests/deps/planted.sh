#!/usr/bin/env bash
# tests/deps/planted.sh — the positive control of tests/deps/check.sh: the project's tree
# passes, and a copy of it with one forbidden include planted at a time fails, naming the
# file and line of the plant.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

if ! out=$("$here/check.sh" "$top"); then
	echo "FAIL: the tree itself breaks the dependency rules:"
	echo "$out"
	fail=1
else
	echo "ok: the tree keeps the dependency rules"
fi

# FILE, then the include planted at its end: each one forbidden for its own reason.
plants=(
	"vm/vm.c|harness/cli/cli.h"                  # vm/ uses only the base
	"dmtargets/dm.c|vm/vm.h"                     # dmtargets/ and vm/ never use each other
	"harness/base/util.c|harness/log/log.h"      # the base uses nothing
	"harness/log/log.c|harness/results/results.h" # a library never includes one above it
	"harness/states/oracle.c|harness/explore/explore.h"
	"harness/results/summary.c|harness/cli/cli.h"
	"scenarios/fsops/main.c|harness/log/log.h"   # workloads reach the harness by ctl only
	"harness/scenario/scenario.c|scenarios/fsops/fsops.h" # only scenarios/blackout-*.h
)
for p in "${plants[@]}"; do
	file=${p%%|*} inc=${p#*|}
	rm -rf "$tmp/tree"
	mkdir "$tmp/tree"
	cp -r "$top/harness" "$top/vm" "$top/dmtargets" "$top/scenarios" "$tmp/tree/"
	printf '#include "%s"\n' "$inc" >>"$tmp/tree/$file"
	line=$(wc -l <"$tmp/tree/$file")
	if out=$("$here/check.sh" "$tmp/tree"); then
		echo "FAIL: '#include \"$inc\"' planted in $file passed"
		fail=1
	elif ! grep -q "^$file:$line: " <<<"$out"; then
		echo "FAIL: the plant in $file:$line was not named; the check said:"
		echo "$out"
		fail=1
	else
		echo "ok: $file:$line: \"$inc\" refused"
	fi
done
# Two headers that include each other, and a second command hidden in a command's file.
rm -rf "$tmp/tree" && mkdir "$tmp/tree"
cp -r "$top/harness" "$top/vm" "$top/dmtargets" "$top/scenarios" "$tmp/tree/"
printf '#include "harness/cli/vmrun.h"\n' >>"$tmp/tree/harness/cli/opts.h"
if out=$("$here/check.sh" "$tmp/tree"); then
	echo "FAIL: opts.h and vmrun.h including each other passed"
	fail=1
elif ! grep -q 'include cycle' <<<"$out"; then
	echo "FAIL: the include cycle was not named; the check said:"
	echo "$out"
	fail=1
else
	echo "ok: an include cycle refused"
fi
rm -rf "$tmp/tree" && mkdir "$tmp/tree"
cp -r "$top/harness" "$top/vm" "$top/dmtargets" "$top/scenarios" "$tmp/tree/"
printf 'const struct bo_cmd bo_cmd_hidden = {"hidden", NULL, NULL};\n' \
	>>"$tmp/tree/harness/cli/check.c"
if out=$("$here/check.sh" "$tmp/tree"); then
	echo "FAIL: a second command in check.c passed"
	fail=1
elif ! grep -q '^harness/cli/check.c: 2 commands in one file' <<<"$out"; then
	echo "FAIL: the second command in check.c was not named; the check said:"
	echo "$out"
	fail=1
else
	echo "ok: two commands in one file refused"
fi
# A room too big, a function too long, a name that says two things. The lengths of functions
# are read by Universal Ctags, which scripts/setup installs: without it this test fails.
if ! command -v ctags >/dev/null; then
	echo "FAIL: no ctags (package universal-ctags, scripts/setup): function lengths unchecked"
	fail=1
fi
rm -rf "$tmp/tree" && mkdir "$tmp/tree"
cp -r "$top/harness" "$top/vm" "$top/dmtargets" "$top/scenarios" "$tmp/tree/"
seq 801 | sed 's/.*/int x&;/' >"$tmp/tree/harness/log/big.c"
{
	echo 'int long_one(void)'
	echo '{'
	seq 150 | sed 's/.*/\tint y&;/'
	echo '}'
} >>"$tmp/tree/harness/base/util.c"
echo 'int z;' >"$tmp/tree/harness/dev/util.c"
out=$("$here/check.sh" "$tmp/tree" || true)
for want in 'harness/log/big.c: 801 lines' 'long_one() is 153 lines' 'util.c: 2 files of that name'; do
	if grep -qF "$want" <<<"$out"; then
		echo "ok: refused: $want"
	else
		echo "FAIL: not refused: $want; the check said:"
		echo "$out"
		fail=1
	fi
done
# A source straight under harness/ belongs to no library.
rm -rf "$tmp/tree" && mkdir "$tmp/tree"
cp -r "$top/harness" "$top/vm" "$top/dmtargets" "$top/scenarios" "$tmp/tree/"
echo 'int x;' >"$tmp/tree/harness/stray.c"
if "$here/check.sh" "$tmp/tree" >/dev/null; then
	echo "FAIL: harness/stray.c outside every library passed"
	fail=1
else
	echo "ok: harness/stray.c refused"
fi
exit "$fail"
