#!/usr/bin/env bash
# The sha256 of a read-only log, which check records in config.json as the log's identity
# (merge refuses shards of different logs on it), is remembered in the cache directory by the
# log's device, inode, size and modification time. A check of the same log again takes it
# from there; a log whose content changed, or a cache entry that is garbage, is hashed again.
# Each check here stops at the VM (a kernel image that is no kernel, a module directory
# without modules.dep), after config.json: a kernel that does not exist at all is refused
# before the results directory.
. "$(dirname "$0")/lib.sh"

export XDG_CACHE_HOME=$T/cache
log=$T/w.log
"$BO" synth --out "$log" --entries 300 --device-size 8388608 --max-write 8 >/dev/null ||
	{ echo "synth failed"; exit 1; }
chmod a-w "$log"
: >"$T/no-kernel"
mkdir -p "$T/no-modules"

# check_hash NAME: check the log (it stops at the unusable kernel), print the log_sha256 of
# its config.json; its stderr in $T/NAME.err.
check_hash() {
	BLACKOUT_DEBUG=log "$BO" check "$log" --fs ext4 --jobs 1 --kernel "$T/no-kernel" \
		--modules "$T/no-modules" --results "$T/r-$1" >/dev/null 2>"$T/$1.err"
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["log_sha256"])' \
		"$(ls -d "$T/r-$1"/*/)config.json"
}
# from_cache NAME: whether check NAME took the hash from the cache.
from_cache() { grep -q "from the cache" "$T/$1.err"; }

want=$(sha256sum "$log" | cut -d' ' -f1)
got=$(check_hash first)
[ "$got" = "$want" ] && ok || bad "first check: log_sha256 $got, sha256sum $want"
from_cache first && bad "the first check found a cache entry" || ok
[ "$(find "$XDG_CACHE_HOME/blackout/loghash" -type f | wc -l)" = 1 ] && ok ||
	bad "no cache entry after the first check: $(ls -R "$XDG_CACHE_HOME")"

got=$(check_hash again)
[ "$got" = "$want" ] && ok || bad "second check: log_sha256 $got, sha256sum $want"
from_cache again && ok || bad "the second check hashed the log again: $(cat "$T/again.err")"

# Positive control: one byte of an entry's data changed in place, same size and inode. The
# modification time moves, so the entry is not used.
ino=$(stat -c %i "$log")
chmod u+w "$log"
sleep 0.01
printf 'Z' | dd of="$log" bs=1 seek=$(($(stat -c %s "$log") - 100)) conv=notrunc status=none
chmod a-w "$log"
[ "$(stat -c %i "$log")" = "$ino" ] && ok || bad "the rewrite changed the inode"
want2=$(sha256sum "$log" | cut -d' ' -f1)
[ "$want2" != "$want" ] && ok || bad "the rewrite did not change the log"
got=$(check_hash changed)
[ "$got" = "$want2" ] && ok || bad "changed log: log_sha256 $got, sha256sum $want2"
from_cache changed && bad "a changed log was taken from the cache" || ok

# A cache entry that is garbage is not believed.
for f in "$XDG_CACHE_HOME"/blackout/loghash/*; do
	chmod u+w "$f" 2>/dev/null
	echo "garbage" >"$f"
done
got=$(check_hash garbage)
[ "$got" = "$want2" ] && ok || bad "garbage entry: log_sha256 $got, sha256sum $want2"
from_cache garbage && bad "a garbage entry was believed" || ok

# No cache directory at all: hashed every time, no error.
got=$(XDG_CACHE_HOME= HOME= check_hash nocache)
[ "$got" = "$want2" ] && ok || bad "no cache directory: log_sha256 $got, sha256sum $want2"
grep -q "no cache directory" "$T/nocache.err" && bad "a missing cache made an error" || ok
finish
