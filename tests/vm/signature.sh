#!/usr/bin/env bash
# tests/vm/signature.sh BLACKOUT — an unmountable state says what libblkid finds on it: a
# filesystem whose mount was refused (here its group descriptors are zeroed) keeps its
# signature; one whose superblock is gone has none. verdict.txt, stream.jsonl and explain.
. "$(dirname "$0")/run_lib.sh"
need_vm

# The workload writes under the filesystem it works in, to its device (a named device gives
# it the node): first the block after the superblock (the descriptors of a 4 KiB-block
# ext4), then the superblock itself.
cat >"$T/w.sh" <<'SH'
#!/bin/sh
echo x >f && sync
dd if=/dev/zero of="$BLACKOUT_DEV_DATA" bs=4096 seek=1 count=1 conv=notrunc oflag=direct 2>/dev/null
sync "$BLACKOUT_DEV_DATA"
dd if=/dev/zero of="$BLACKOUT_DEV_DATA" bs=1024 seek=1 count=1 conv=notrunc oflag=direct 2>/dev/null
sync "$BLACKOUT_DEV_DATA"
SH
chmod +x "$T/w.sh"
printf '[device data]\nfs = ext4\nsize = 32M\nmkfs_options = -b 4096\n[workload]\nscript = w.sh\n[check]\nchecker = none\ncuts = flush\n' >"$T/s.ini"
if run_bo 1 run "$T/s.ini" --results "$T/results"; then
	sigs=$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["event"] == "state" and r["class"] == "unmountable":
        print(r.get("signature", "-"))' "$RESULTS/stream.jsonl" | sort -u | tr '\n' ' ')
	case $sigs in *ext4*) ok ;; *) bad "no unmountable state kept its signature: $sigs" ;; esac
	case $sigs in *none*) ok ;; *) bad "no unmountable state lost its superblock: $sigs" ;; esac
	grep -qs '^signature: none (the superblock is gone)' "$RESULTS"/states/*/verdict.txt && ok ||
		bad "verdict.txt does not say the superblock is gone"
	grep -qs '^signature: ext4 (a superblock is there; the mount refused it)' \
		"$RESULTS"/states/*/verdict.txt && ok || bad "verdict.txt does not say the mount refused it"
	"$BO" explain "$RESULTS" | grep -q 'filesystem signature: ' && ok ||
		bad "explain does not name the signature"
fi
finish
