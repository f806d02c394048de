#!/usr/bin/env bash
# tests/cli/kernel.sh SCRIPTS — scripts/extract-vmlinux finds the ELF kernel in a bzImage of
# each compression Debian's kernels use (6.1: XZ, 6.12: zstd; gzip too), with the setup code
# before the stream and the bytes after it; what is not one is an error that says why. And
# scripts/fetch-kernel says why when it cannot fetch, rather than dying silently.
scripts=${1:?usage: kernel.sh SCRIPTS-DIR}
. "$(dirname "$0")/lib.sh" /bin/true

# A stand-in kernel: an ELF header and 256 KiB after it.
{ printf '\x7fELF\x02\x01\x01'; head -c 262144 /dev/urandom; } >"$T/elf"
for z in "xz -9c --check=crc32" "zstd -19 -qc" "gzip -9c"; do
	name=${z%% *}
	{ head -c 16384 /dev/zero | tr '\0' 'S'; $z <"$T/elf"; head -c 4096 /dev/zero | tr '\0' 'T'; } \
		>"$T/bz-$name"
	if "$scripts/extract-vmlinux" "$T/bz-$name" "$T/out-$name" 2>"$T/err" &&
		cmp -s "$T/elf" "$T/out-$name"; then
		ok
	else
		bad "$name: not extracted: $(cat "$T/err")"
	fi
done
head -c 65536 /dev/zero | tr '\0' 'x' >"$T/junk"
expect 1 "no ELF kernel in" "tried xz" "zstd" "gzip" -- "$scripts/extract-vmlinux" "$T/junk" "$T/o"
[ ! -e "$T/o" ] && ok || bad "a failed extraction left its output behind"
expect 1 "no such file" -- "$scripts/extract-vmlinux" "$T/none" "$T/o"
# A package that does not exist: a message, not a silent exit (apt answers without network).
if command -v apt-get >/dev/null; then
	expect 1 "fetch-kernel:" -- env XDG_CACHE_HOME="$T/cache" "$scripts/fetch-kernel" \
		linux-image-0.0.0-no-such-amd64
fi
finish
