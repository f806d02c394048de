#!/usr/bin/env bash
# tests/deps/check.sh [ROOT] — the dependency rules of docs/hacking.md, checked on every
# '#include "..."' of the project's C sources under ROOT (default: this checkout). Prints each
# forbidden include as FILE:LINE and exits 1; exits 0 when there is none.
#
# A folder of harness/ is a library: it may include its own headers and those of the
# libraries below it, never one above. vm/ and dmtargets/ use only harness/base/ (and not
# each other); the workloads in scenarios/ include nothing of the harness, the harness
# reaches them only through their interface headers, scenarios/blackout-*.h.
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$root"

declare -A may=(
	[harness/base]=""
	[harness/log]="harness/base"
	[harness/replay]="harness/base harness/log"
	[harness/dev]="harness/base dmtargets"
	[harness/states]="harness/base harness/log harness/dev"
	[harness/ctl]="harness/base"
	[harness/cluster]="harness/base"
	[harness/scenario]="harness/base harness/cluster harness/dev harness/log harness/states scenarios/blackout"
	[harness/results]="harness/base harness/cluster harness/log harness/states"
	[harness/record]="harness/base harness/log harness/dev harness/states harness/ctl
		harness/cluster harness/scenario harness/results dmtargets"
	[harness/explore]="harness/base harness/log harness/replay harness/dev harness/states
		harness/cluster harness/results dmtargets"
	[harness/shrink]="harness/base harness/log harness/states harness/cluster harness/scenario harness/results
		harness/record harness/explore scenarios/blackout"
	[harness/diagnose]="harness/base harness/log harness/dev harness/states harness/cluster
		harness/scenario
		harness/results dmtargets"
	[harness/cli]="harness/base harness/log harness/replay harness/dev harness/states
		harness/ctl harness/cluster harness/scenario harness/results harness/record
		harness/explore
		harness/shrink harness/diagnose vm dmtargets scenarios/blackout"
	[vm]="harness/base"
	[dmtargets]="harness/base"
	[scenarios]=""
)

# The library (a key of may) that file $1 belongs to; empty when none.
# The library of a path, into REPLY (no subshell: this runs for every include of the tree).
lib_of() {
	case "$1" in
	harness/*/*) REPLY=${1%/*} ;;
	vm/* | dmtargets/* | scenarios/*) REPLY=${1%%/*} ;;
	*) REPLY= ;;
	esac
}

bad=0
while IFS=: read -r file line text; do
	lib_of "$file"
	lib=$REPLY
	[ -n "$lib" ] || continue
	inc=${text#*\"}
	inc=${inc%%\"*}
	case "$inc" in
	harness/* | vm/* | dmtargets/* | scenarios/*) ;;
	*) continue ;; # a header of the folder itself, by its short name, or a test's
	esac
	lib_of "$inc"
	target=$REPLY
	[ "$target" = "$lib" ] && continue
	ok=0
	for allowed in ${may[$lib]-}; do
		case "$allowed" in
		scenarios/blackout) [[ "$inc" == scenarios/blackout-*.h ]] && ok=1 ;;
		*) [ "$target" = "$allowed" ] && ok=1 ;;
		esac
	done
	if [ "$ok" = 0 ]; then
		echo "$file:$line: $lib may not include \"$inc\" (docs/hacking.md)"
		bad=1
	fi
done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' \
	--include='*.c' --include='*.h' harness vm dmtargets scenarios)

# No two files include each other, however long the way round: tsort names a loop.
loop=$(grep -rnoE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"(harness|vm|dmtargets|scenarios)/[^"]+"' \
	--include='*.c' --include='*.h' harness vm dmtargets scenarios |
	sed -E 's/^([^:]+):[0-9]+:.*"([^"]+)"$/\1 \2/' | tsort 2>&1 >/dev/null || true)
if [ -n "$loop" ]; then
	echo "an include cycle (docs/hacking.md):"
	echo "$loop"
	bad=1
fi

# One command per file of harness/cli/ (docs/hacking.md): a file that defines two commands
# hides one of them in the other's.
while read -r n file; do
	if [ "$n" -gt 1 ]; then
		echo "$file: $n commands in one file (docs/hacking.md: one file per command)"
		bad=1
	fi
done < <(grep -c '^const struct bo_cmd bo_cmd_' harness/cli/*.c | awk -F: '{print $2, $1}')

# The size of a room (docs/hacking.md, "Files"): a .c file of at most 800 lines, a function of
# at most 150 (its definition's lines, as Universal Ctags reads them: scripts/setup installs it).
while read -r n file; do
	if [ "$n" -gt 800 ]; then
		echo "$file: $n lines (at most 800: split it by concept, docs/hacking.md)"
		bad=1
	fi
done < <(find harness vm dmtargets scenarios -name '*.c' -exec wc -l {} + | grep -v ' total$')
if ! command -v ctags >/dev/null; then
	# The build goes on without it; the test (tests/deps/planted.sh) does not.
	echo "warning: function lengths not checked: no ctags (universal-ctags; scripts/setup)" >&2
else
	while read -r n file fn; do
		echo "$file: $fn() is $n lines (at most 150: split it, docs/hacking.md)"
		bad=1
	done < <(find harness vm dmtargets scenarios -name '*.c' -print0 |
		xargs -0 ctags --fields=+ne --c-kinds=f -o - |
		awk -F'\t' '{l = ""; e = ""
			for (i = 4; i <= NF; i++) {
				if ($i ~ /^line:/) l = substr($i, 6)
				if ($i ~ /^end:/) e = substr($i, 5)
			}
			if (l != "" && e != "" && e - l + 1 > 150) print e - l + 1, $2, $1}')
fi

# A basename says one thing (docs/hacking.md): two files share one only as one concept at two
# levels, the pairs listed there and here.
shared="check.c ctl.c findings.c fsops.h inspect.c kernel.c lint.c main.c merge.c replay.c
	report.c run.c shrink.c snapshot.c synth.c vm.c"
while read -r n name; do
	[ "$n" -gt 1 ] || continue
	case " $(echo $shared) " in
	*" $name "*) [ "$n" -eq 2 ] && continue ;;
	esac
	echo "$name: $n files of that name ($(find harness vm dmtargets scenarios -name "$name" |
		sort | paste -sd' ')): give each a name of its own (docs/hacking.md)"
	bad=1
done < <(find harness vm dmtargets scenarios -name '*.[ch]' -printf '%f\n' | sort | uniq -c)

# Every source of the harness is in one of its libraries.
for f in harness/*.c harness/*.h; do
	[ -e "$f" ] || continue
	echo "$f: outside every library of harness/ (docs/hacking.md)"
	bad=1
done
# A library that is no key of the table is a folder nobody placed yet.
for d in harness/*/; do
	d=${d%/}
	if [ -z "${may[$d]+set}" ]; then
		echo "$d: a library with no place in the dependency rules (tests/deps/check.sh)"
		bad=1
	fi
done
exit "$bad"
