#!/usr/bin/env bash
# tests/cli/completion.sh — completions/blackout.bash loads in bash and completes commands,
# options, option values and state ids.
. "$(dirname "$0")/lib.sh"
COMP=$(cd "$(dirname "$0")/../.." && pwd)/completions/blackout.bash

# complete WORDS...: the candidates for the last word (may be ""), one per line, sorted.
complete_line() {
	bash --norc --noprofile -c '
		. "$1" || exit 9
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_blackout
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$COMP" "$@"
}

# has WORDS... :: WANT...: the completion of WORDS holds every WANT.
has() {
	local words=() w got
	while [ "$1" != "::" ]; do
		words+=("$1")
		shift
	done
	shift
	got=$(complete_line "${words[@]}")
	for w in "$@"; do
		if ! grep -qxF -- "$w" <<<"$got"; then
			bad "'${words[*]}' does not complete to '$w' (got: $(echo $got))"
			return
		fi
	done
	ok
}

bash --norc --noprofile -c '. "$1" && complete -p blackout' _ "$COMP" >"$T/spec" 2>&1 &&
	grep -q -- '-F _blackout blackout' "$T/spec" && ok || bad "does not load: $(cat "$T/spec")"
[ "$(complete_line blackout ch)" = check ] && ok || bad "'blackout ch' -> '$(complete_line blackout ch)'"
has blackout "" :: run check merge report explain reproduce shrink nightly cleanup inspect \
	replay synth vm ctl
has blackout check -- :: --jobs --state --scenario --fs --cuts --expect --results --kernel \
	--help
has blackout check --f :: --fs --from
[ "$(complete_line blackout check --fs "")" = \
	"$(printf 'btrfs\nexfat\next2\next4\nf2fs\njfs\nnilfs2\nudf\nvfat\nxfs')" ] && ok ||
	bad "check --fs does not offer the filesystems"
has blackout check --expect l :: lost-ack
has blackout run -- :: --seed --results --timeout
has blackout vm "" :: run shell info
has blackout vm run -- :: --cpus --share --accel
has blackout explain x -- :: --json
has blackout cleanup -- :: --run --list
has blackout nightly -- :: --baseline
has blackout ex :: explain
has blackout rep :: replay report reproduce
# State ids from a results directory, for explain and reproduce.
mkdir -p "$T/r/states/c12" "$T/r/states/c40-d5,9"
has blackout explain "$T/r" "" :: c12 c40-d5,9
has blackout reproduce "$T/r" c4 :: c40-d5,9
has blackout check "$T/r/write.log" --state "" :: c12
# Every command and every option the binary documents is completed.
all=$(complete_line blackout "")
for c in $("$BO" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p'); do
	grep -qx "$c" <<<"$all" && ok || bad "command '$c' of 'blackout --help' is not completed"
done
for c in run check merge report inspect replay synth explain reproduce shrink nightly cleanup \
	cache ctl "vm info"; do
	got=$(complete_line blackout $c --)
	for o in $("$BO" $c --help | grep -E '^(usage:| )' | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -qx -- "$o" <<<"$got" && ok || bad "'blackout $c $o' is not completed"
	done
done
# The negative: nothing for a word that is no command.
[ -z "$(complete_line blackout zzz)" ] && ok || bad "'blackout zzz' completed to something"
finish
