#!/usr/bin/env bash
# tests/cli/cache.sh BLACKOUT — `blackout cache list` shows what the cache holds and
# `cache prune` removes what was not used for long, never the default (newest) kernel; a
# relative XDG_CACHE_HOME is ignored, as the XDG spec says.
. "$(dirname "$0")/lib.sh"

c=$T/cache/blackout
mkdir -p "$c/kernels/6.1.0-1-amd64" "$c/kernels/6.1.0-9-amd64" "$c/files" "$c/initramfs" \
	"$c/loghash"
for k in 6.1.0-1-amd64 6.1.0-9-amd64; do head -c 8192 /dev/zero >"$c/kernels/$k/vmlinux"; done
head -c 65536 /dev/zero >"$c/files/old.cpio"
head -c 4096 /dev/zero >"$c/files/new.cpio"
echo x >"$c/loghash/h"
touch -d '40 days ago' "$c/kernels/6.1.0-1-amd64/vmlinux" "$c/kernels/6.1.0-9-amd64/vmlinux" \
	"$c/files/old.cpio" "$c/loghash/h"
export XDG_CACHE_HOME=$T/cache

expect 0 -- "$BO" cache list
grep -q '^kernels .* 6.1.0-9-amd64 (default kernel)$' "$T/out" && ok || bad "list: $(cat "$T/out")"
grep -q "^5 entries, .* in $c\$" "$T/out" && ok || bad "list total: $(cat "$T/out")"
"$BO" cache list --json | python3 -c 'import json, sys
j = json.load(sys.stdin)
assert j["format"] == 1 and len(j["entries"]) == 5
assert [e["default"] for e in j["entries"] if e["kind"] == "kernels"].count(True) == 1' &&
	ok || bad "list --json"
expect 0 -- "$BO" cache prune --older-than 30
grep -q '^removed 3 entries' "$T/out" && ok || bad "prune: $(cat "$T/out")"
[ -e "$c/kernels/6.1.0-9-amd64/vmlinux" ] && [ ! -e "$c/kernels/6.1.0-1-amd64" ] &&
	[ -e "$c/files/new.cpio" ] && [ ! -e "$c/files/old.cpio" ] && [ ! -e "$c/loghash/h" ] &&
	ok || bad "prune removed the wrong entries: $(find "$c")"
expect 0 -- "$BO" cache prune --all
[ -e "$c/kernels/6.1.0-9-amd64/vmlinux" ] && [ ! -e "$c/files/new.cpio" ] && ok ||
	bad "prune --all: $(find "$c")"
expect 2 "expected list or prune" -- "$BO" cache frob
# A relative XDG_CACHE_HOME is no cache directory: HOME's is used.
mkdir -p "$T/home"
HOME=$T/home XDG_CACHE_HOME=rel "$BO" cache list >"$T/out" 2>&1
grep -q "in $T/home/.cache/blackout\$" "$T/out" && ok || bad "relative XDG_CACHE_HOME: $(cat "$T/out")"
finish
