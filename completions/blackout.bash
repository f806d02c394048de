# bash completion for blackout(1).
#
# `cmake --install` puts it in PREFIX/share/bash-completion/completions/blackout, where
# bash-completion loads it on first use; from a checkout, source it. See README.md.

_blackout_commands="ctl run check merge report explain findings reproduce export shrink nightly cleanup inspect
lint replay synth vm cache kernel help"

# The options of each command. Those that take an argument end with "=".
_blackout_vm_opts="--kernel= --modules= --kernel-release= --kernel-tree= --in-place --memory= --timeout= --file= --quiet --no-progress"
_blackout_opts() {
	case $1 in
	run) echo "--seed= --results= --persona= --recovery= --recovery-crashes= --witness= --kernels= --jobs= $_blackout_vm_opts --help" ;;
	check)
		echo "--scenario= --fs= --size= --mount-options= --cuts= --from= --checker=
			--seed= --reorder= --torn --budget= --persona= --recovery= --recovery-crashes= --recovery-log= --witness= --state= --shard= --jobs= --kernels= --expect=
			--hash --results= $_blackout_vm_opts --help"
		;;
	merge) echo "--out= --help" ;;
	report) echo "--kcidb --help" ;;
	explain) echo "--json --help" ;;
	findings) echo "--json --baseline= --export= --help" ;;
	reproduce) echo "--host-root $_blackout_vm_opts --help" ;;
	export) echo "--out= --help" ;;
	shrink) echo "--state= --no-bisect --max-tests= --host-root $_blackout_vm_opts --help" ;;
	nightly) echo "--baseline= --out= --file= --kernel-release= --kernel-tree= --in-place --help" ;;
	kernel) echo "--json --available --fs= --modules --check= --help" ;;
	cleanup) echo "--run= --dry-run --list --json --help" ;;
	cache) echo "--json --older-than= --all --help" ;;
	inspect) echo "--json --entries= --salvage --help" ;;
	lint) echo "--json --salvage --help" ;;
	replay) echo "--onto= --to= --from= --size= --salvage --help" ;;
	synth)
		echo "--out= --entries= --seed= --sectorsize= --device-size= --max-write=
			--flush-every= --mark-every= --help"
		;;
	ctl) echo "--print-entry --help" ;;
	vm-run | vm-shell | vm-info)
		echo "--kernel= --modules= --kernel-release= --kernel-tree= --memory= --cpus= --timeout= --accel= --share= --file=
			--console= --host-root --help"
		[ "$1" = vm-info ] && echo "--json"
		;;
	esac
}

# State ids of a results directory: the directories under states/.
_blackout_states() {
	local d=$1/states
	[ -d "$d" ] || return
	compgen -W "$(cd "$d" && ls -1 2>/dev/null)" -- "$2"
}

_blackout() {
	local cur prev cmd i words_n=${#COMP_WORDS[@]} args=()
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}

	# The command: the first word after "blackout" that is not an option.
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*)
			cmd=${COMP_WORDS[i]}
			break
			;;
		esac
	done
	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--help" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_blackout_commands" -- "$cur"))
		fi
		return
	fi
	# vm has subcommands of its own.
	if [ "$cmd" = vm ]; then
		local sub=
		for ((i = i + 1; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in
			run | shell | info)
				sub=${COMP_WORDS[i]}
				break
				;;
			esac
		done
		if [ -z "$sub" ]; then
			COMPREPLY=($(compgen -W "run shell info" -- "$cur"))
			return
		fi
		# After "--" comes the guest command: complete commands, then files.
		for ((i = i + 1; i < COMP_CWORD; i++)); do
			if [ "${COMP_WORDS[i]}" = -- ]; then
				COMPREPLY=($(compgen -c -- "$cur"))
				return
			fi
		done
		cmd=vm-$sub
	fi

	# The argument of an option.
	case $prev in
	--fs) COMPREPLY=($(compgen -W "ext4 xfs btrfs ext2 vfat f2fs nilfs2 exfat jfs udf" -- "$cur")) && return ;;
	--expect)
		COMPREPLY=($(compgen -W "consistent unmountable fsck-dirty repair-failed lost-ack phantom
			app-recovery-failed recovery-unsafe checker-error harness-error" -- "$cur"))
		return
		;;
	--accel) COMPREPLY=($(compgen -W "kvm tcg auto" -- "$cur")) && return ;;
	--kernel-release)
		# The cached kernels' releases.
		local kdir=${XDG_CACHE_HOME:-}
		[[ $kdir == /* ]] || kdir=$HOME/.cache
		COMPREPLY=($(compgen -W "$(cd "$kdir/blackout/kernels" 2>/dev/null && ls -d -- */ 2>/dev/null | tr -d /)" -- "$cur"))
		return
		;;
	--cuts)
		COMPREPLY=($(compgen -W "flush fua mark all every: entry:" -- "$cur"))
		return
		;;
	--to | --from)
		COMPREPLY=($(compgen -W "start end entry: mark: flush: fua:" -- "$cur"))
		return
		;;
	--scenario) COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur")) && return ;;
	--results | --out | --baseline | --share | --modules | --kernel-tree)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	--kernel | --onto | --file | --console | --checker)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--state)
		# check LOG --state: the states of the log's results directory.
		for ((i = 2; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in -*) ;; *)
				COMPREPLY=($(_blackout_states "$(dirname "${COMP_WORDS[i]}")" "$cur"))
				return
				;;
			esac
		done
		return
		;;
	--persona)
		COMPREPLY=($(compgen -W "honest ignores-flush ignores-fua lost-flush atomic-4k atomic-512" -- "$cur"))
		return
		;;
	--recovery)
		COMPREPLY=($(compgen -W "auto mount fsck" -- "$cur"))
		return
		;;
	--run)
		local base=${BLACKOUT_RESULTS:-results}
		[ -d "$base" ] && COMPREPLY=($(compgen -W "$(ls -1 "$base")" -- "$cur"))
		return
		;;
	--seed | --size | --memory | --timeout | --cpus | --entries | --jobs | --shard | \
		--reorder | --budget | --recovery-crashes | --witness | --mount-options | --sectorsize | --device-size | \
		--max-write | --flush-every | --mark-every)
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		local o words=()
		for o in $(_blackout_opts "$cmd"); do
			words+=("${o%=}")
		done
		COMPREPLY=($(compgen -W "${words[*]}" -- "$cur"))
		return
	fi

	# Positional arguments.
	local opts
	opts=" $(echo $(_blackout_opts "$cmd")) "
	for ((i = 2; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*)
			# skip an option's separate argument
			if [[ $opts == *" ${COMP_WORDS[i]}= "* ]]; then
				((i++))
			fi
			;;
		*) args+=("${COMP_WORDS[i]}") ;;
		esac
	done
	case $cmd in
	run) COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur")) ;;
	nightly) COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur")) ;;
	check | inspect | lint | replay) COMPREPLY=($(compgen -f -- "$cur")) ;;
	merge | report | shrink | findings) COMPREPLY=($(compgen -d -- "$cur")) ;;
	explain | reproduce | export)
		if ((${#args[@]} == 0)); then
			COMPREPLY=($(compgen -d -- "$cur"))
		elif ((${#args[@]} == 1)); then
			COMPREPLY=($(_blackout_states "${args[0]}" "$cur"))
		fi
		;;
	ctl)
		if ((${#args[@]} == 0)); then
			COMPREPLY=($(compgen -W "issue ack mark" -- "$cur"))
		fi
		;;
	cache)
		if ((${#args[@]} == 0)); then
			COMPREPLY=($(compgen -W "list prune" -- "$cur"))
		fi
		;;
	kernel)
		if ((${#args[@]} == 0)); then
			COMPREPLY=($(compgen -W "list fetch config" -- "$cur"))
		fi
		;;
	help)
		if ((${#args[@]} == 0)); then
			COMPREPLY=($(compgen -W "$_blackout_commands" -- "$cur"))
		fi
		;;
	esac
	: "$words_n"
}

complete -o filenames -F _blackout blackout
