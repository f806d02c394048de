#!/usr/bin/env bash
# tests/deps/calls.sh BUILD_DIR — no circle of calls between the files of a library
# (tests/deps/calls.py), on the built tree; its positive control first: a library of two files
# that call each other is refused, naming both, and one whose calls run one way passes.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

mkdir -p "$tmp/harness/x"
printf 'int b(int);\nint a(int n) { return n ? b(n - 1) : 0; }\n' >"$tmp/a.c"
printf 'int a(int);\nint b(int n) { return n ? a(n - 1) : 1; }\n' >"$tmp/b.c"
printf 'int c(int n) { return n; }\n' >"$tmp/c.c"
cc -c -o "$tmp/a.c.o" "$tmp/a.c" && cc -c -o "$tmp/b.c.o" "$tmp/b.c" && cc -c -o "$tmp/c.c.o" "$tmp/c.c"
ar rc "$tmp/harness/x/libbo_x.a" "$tmp/a.c.o" "$tmp/b.c.o"
if out=$("$here/calls.py" "$tmp"); then
	echo "FAIL: a.c and b.c calling each other passed"
	fail=1
elif ! grep -q 'a circle of calls: a.c -> b.c -> a.c' <<<"$out"; then
	echo "FAIL: the circle of a.c and b.c was not named: $out"
	fail=1
else
	echo "ok: a circle of calls refused"
fi
rm "$tmp/harness/x/libbo_x.a"
ar rc "$tmp/harness/x/libbo_x.a" "$tmp/a.c.o" "$tmp/c.c.o"
if "$here/calls.py" "$tmp" >/dev/null; then
	echo "ok: calls that run one way pass"
else
	echo "FAIL: a library without a circle was refused"
	fail=1
fi

if out=$("$here/calls.py" "${1:?usage: $0 BUILD_DIR}"); then
	echo "ok: no circle of calls in the libraries of '$1'"
else
	echo "FAIL: the tree has circles of calls:"
	echo "$out"
	fail=1
fi
exit "$fail"
