#!/usr/bin/env bash
# tests/cli/macro.sh CC SOURCE-DIR — harness/base/macro.h's BO_ARRAY_SIZE counts an array's
# elements and refuses to compile on a pointer (where sizeof would silently divide the
# pointer's size), and _must_check_ makes an ignored result a warning.
set -u
cc=${1:?usage: $0 CC SOURCE-DIR} src=${2:?usage: $0 CC SOURCE-DIR}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0

cat >"$T/array.c" <<'C'
#include "harness/base/macro.h"
static int v[7];
int main(void) { return BO_ARRAY_SIZE(v) == 7 ? 0 : 1; }
C
if "$cc" -I"$src" -o "$T/array" "$T/array.c" && "$T/array"; then
	echo "ok: BO_ARRAY_SIZE of an array of 7 is 7"
else
	echo "FAIL: BO_ARRAY_SIZE of an array"
	fail=1
fi
cat >"$T/pointer.c" <<'C'
#include "harness/base/macro.h"
int count(int *p);
int count(int *p) { return (int) BO_ARRAY_SIZE(p); }
C
if "$cc" -I"$src" -fsyntax-only "$T/pointer.c" 2>"$T/err"; then
	echo "FAIL: BO_ARRAY_SIZE of a pointer compiled"
	fail=1
else
	echo "ok: BO_ARRAY_SIZE of a pointer does not compile"
fi
cat >"$T/check.c" <<'C'
#include "harness/base/macro.h"
_must_check_ int f(void);
void g(void);
void g(void) { f(); }
C
if "$cc" -I"$src" -c -o "$T/check.o" -Werror=unused-result "$T/check.c" 2>"$T/err"; then
	echo "FAIL: an ignored _must_check_ result compiled without a warning"
	fail=1
else
	echo "ok: an ignored _must_check_ result is a warning"
fi
exit "$fail"
