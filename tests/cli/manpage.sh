#!/usr/bin/env bash
# tests/cli/manpage.sh BLACKOUT — the man page is complete: every option that `blackout --help`
# and each `blackout CMD --help` name is described in the OPTIONS subsection of that command
# (or in "VM options", where the subsection points there), and the page has the sections a
# Linux tool's has. A man page that lags the binary fails here. Positive control: a page with
# one option taken out is flagged.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
PAGE=$top/docs/blackout.1

# missing PAGE: the "CMD OPTION" pairs the help texts name and PAGE does not describe.
missing() {
	local cmds
	cmds=$("$BO" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p')
	{
		"$BO" --help | sed '/^Commands:/,/^$/d; s/^/blackout /'
		for c in $cmds; do
			[ "$c" = vm ] && { "$BO" vm info --help | sed "s/^/$c /"; continue; }
			"$BO" "$c" --help | sed "s/^/$c /"
		done
	} | python3 -c '
import re, sys
page = open(sys.argv[1]).read()
text = re.sub(r"\\f[BIRP]", "", page).replace("\\-", "-")
opts = text.split("\n.SH OPTIONS\n", 1)[1].split("\n.SH ", 1)[0]
sections = {}
blocks = re.split(r"\n\.SS ", "\n" + opts)
intro = blocks[0]  # what every command takes (-h, --help)
for block in blocks[1:]:
    name, _, body = block.partition("\n")
    sections[name.strip().strip("\"")] = body
TOKEN = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")
gaps = set()
for line in sys.stdin:
    cmd, _, rest = line.partition(" ")
    body = sections.get(cmd)
    if body is None:
        gaps.add("%s (no .SS %s in OPTIONS)" % (cmd, cmd))
        continue
    if "VM options" in body:
        body += sections.get("VM options", "")
    # Options before the command (blackout -q CMD) belong to blackout.
    have = set(TOKEN.findall(body + intro)) | (set(TOKEN.findall(sections.get("blackout", ""))) if "blackout " in rest else set())
    for o in TOKEN.findall(rest):
        if o not in have:
            gaps.add("%s %s" % (cmd, o))
print("\n".join(sorted(gaps)))' "$1"
}

n=$("$BO" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p' | wc -l)
[ "$n" -ge 15 ] && ok || bad "only $n commands found in 'blackout --help'"
gaps=$(missing "$PAGE")
[ -z "$gaps" ] && ok || bad "options in --help that docs/blackout.1 does not describe: $gaps"

# Positive control: take --hash out of check's options and it is missing.
sed '/^\.B \\-\\-hash$/,+1d' "$PAGE" >"$T/lacking.1"
! cmp -s "$PAGE" "$T/lacking.1" && ok || bad "the control page still has check --hash"
case $(missing "$T/lacking.1") in *"check --hash"*) ok ;; *) bad "a page without check --hash passed" ;; esac

for s in NAME SYNOPSIS DESCRIPTION OPTIONS 'EXIT STATUS' ENVIRONMENT FILES 'SEE ALSO'; do
	grep -q "^\.SH $s\$" "$PAGE" && ok || bad "no section $s"
done
# What the sections must hold (docs/results.md, docs/checkers.md, docs/vm.md).
for want in XDG_CACHE_HOME BLACKOUT_DEBUG BLACKOUT_CTL BLACKOUT_MNT BLACKOUT_ISSUED \
	BLACKOUT_ACKED BLACKOUT_STATE BLACKOUT_CUT BLACKOUT_SEED '/run/blackout' '^\.B 77$' \
	'^\.B 125$' '^\.B 126$' '^\.B 127$' 'dmsetup (8)' 'losetup (8)' 'mount (8)' 'fsck (8)' \
	'qemu.*(1)'; do
	grep -q -- "$(sed 's/-/\\\\-/g' <<<"$want")" "$PAGE" && ok || bad "the page does not name '$want'"
done
# Every BLACKOUT_ variable the code sets for a workload or checker is in ENVIRONMENT.
for v in $(grep -rhoE '"BLACKOUT_[A-Z_]+' "$top/harness" "$top/vm" "$top/dmtargets" | tr -d '"' | sort -u); do
	case $v in BLACKOUT_HOST_BASE) continue ;; esac # between host and guest, nobody else's
	grep -q "^\.BI\? ${v%_}" "$PAGE" && ok || bad "ENVIRONMENT lacks $v"
done
if command -v groff >/dev/null; then
	w=$(groff -ww -man -z "$PAGE" 2>&1)
	[ -z "$w" ] && ok || bad "groff warns: $w"
fi
finish
