#!/usr/bin/env bash
# tests/vm/install.sh BLACKOUT BUILD-DIR — `cmake --install` lays blackout out as a Linux tool
# (bin, libexec/blackout, man1, bash-completion, the built-in scenarios), and the installed
# binary runs a built-in workload from there, also after the tree moved.
. "$(dirname "$0")/run_lib.sh"
BUILD=${2:?usage: $0 PATH-TO-blackout BUILD-DIR}
need_vm

if ! cmake --install "$BUILD" --prefix "$T/usr" >"$T/install.log" 2>&1; then
	bad "cmake --install failed"
	sed 's/^/  | /' "$T/install.log" >&2
	finish
	exit 1
fi
P=$T/usr
for f in bin/blackout libexec/blackout/blackout-fsops libexec/blackout/blackout-applog \
	libexec/blackout/blackout-kvdd; do
	[ -x "$P/$f" ] && ok || bad "not installed, or not executable: $f"
done
for f in share/man/man1/blackout.1 share/bash-completion/completions/blackout \
	share/blackout/scenarios/ext4-mariadb.ini share/blackout/scenarios/README.md \
	share/doc/blackout/results.md; do
	[ -f "$P/$f" ] && ok || bad "not installed: $f"
done
[ -x "$P/share/blackout/scenarios/mariadb/workload" ] && ok ||
	bad "a scenario's script lost its execute bit"
extra=$(find "$P/bin" -mindepth 1 ! -name blackout)
[ -z "$extra" ] && ok || bad "bin holds more than blackout: $extra"
[ -z "$(find "$P" -name '*.c' -o -name CMakeLists.txt)" ] && ok || bad "sources were installed"
if command -v man >/dev/null; then
	MANWIDTH=80 man -l "$P/share/man/man1/blackout.1" 2>/dev/null | grep -q 'EXIT STATUS' && ok ||
		bad "the installed man page does not render"
fi
bash --norc --noprofile -c '. "$1" && complete -p blackout' _ \
	"$P/share/bash-completion/completions/blackout" >/dev/null && ok ||
	bad "the installed completion does not load"

# The installed binary, with nothing of the build tree on PATH, runs an installed scenario
# whose workload is a helper program: it finds the helpers in libexec/blackout and ships them
# to the VM. Then the same after the whole tree moved.
for prefix in "$T/usr" "$T/moved"; do
	if [ "$prefix" = "$T/moved" ]; then
		mv "$T/usr" "$T/moved"
	fi
	scenario "$prefix/share/blackout/scenarios/ext4-fsops.ini" "$T/s.ini" ops=6 cuts=flush \
		size=64M
	if env PATH=/usr/sbin:/usr/bin:/sbin:/bin "$prefix/bin/blackout" -q run "$T/s.ini" \
		--results "$T/results" >"$T/run.out" 2>&1; then
		ok
	else
		bad "installed in $prefix: 'blackout run' of the built-in fsops failed"
		sed 's/^/  | /' "$T/run.out" >&2
	fi
done
finish
