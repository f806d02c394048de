#!/usr/bin/env bash
# tests/vm/inplace.sh BLACKOUT — --in-place runs the guest side on the running kernel with no
# VM of its own. Tried where it is meant for, a disposable machine that booted the kernel
# under test (here blackout's own VM): an in-place run and an in-place check of its log give
# the state ids and classes a VM's check of that log gives, and say in config.json where they
# ran. On this host it is refused unless root, and with another kernel or --jobs.
. "$(dirname "$0")/run_lib.sh"
need_vm

scenario "$SRC/scenarios/ext4-fsops.ini" "$T/s.ini" ops=12 seed=5 size=64M

# In blackout's VM: the same scenario, in place, then a check of its log in place; the
# results come back through the share.
mkdir "$T/share"
# A scenario's [vm] kernel means nothing in place: the kernel is the one booted.
cp "$T/s.ini" "$T/sk.ini"
printf '\n[vm]\nkernel = 9.9\n' >>"$T/sk.ini"
ship=(--file "$T/s.ini" --file "$T/sk.ini")
# A runner's own userland has libcrypto (libssl3), which check uses to identify the log;
# blackout's VM carries only what its guest side needs, so it is shipped here.
libcrypto=$(ldconfig -p | awk '/libcrypto\.so\.3 /{ print $NF; exit }')
[ -n "$libcrypto" ] && ship+=(--file "$libcrypto")
for f in "$(dirname "$BO")"/blackout-*; do ship+=(--file "$f"); done
cat >"$T/in.sh" <<SH
#!/bin/sh
"$BO" -q run "$T/s.ini" --in-place --results /results/run || exit \$?
"$BO" -q check /results/run/*/write.log --scenario "$T/s.ini" --in-place --results /results/check || exit \$?
"$BO" -q run "$T/sk.ini" --in-place --results /results/other-kernel
SH
chmod +x "$T/in.sh"
if "$BO" vm run --share "$T/share" "${ship[@]}" --file "$T/in.sh" -- "$T/in.sh" >"$T/out" 2>&1; then
	ok
else
	bad "in place in the VM failed: $(tail -20 "$T/out")"
fi
# The VM's check of the log recorded in place: the states both in-place results must have.
# (A second run, in a VM, could log the same workload otherwise: writeback timing differs.)
R=$(ls -d "$T/share/run"/*/ 2>/dev/null | head -1)
if [ -n "$R" ] && run_bo 0 check "$R/write.log" --scenario "$T/s.ini" --results "$T/vm"; then
	A=$RESULTS
else
	bad "no in-place run to check in a VM"
	finish
	exit 1
fi
states "$A" | awk '{print $1, $2, $3}' >"$T/a"
for k in run check; do
	B=$(ls -d "$T/share/$k"/*/ 2>/dev/null | head -1)
	[ -n "$B" ] || { bad "$k in place left no results"; continue; }
	states "$B" | awk '{print $1, $2, $3}' >"$T/b"
	[ -s "$T/a" ] && cmp -s "$T/a" "$T/b" && ok ||
		bad "$k in place: other states than the VM's check: $(diff "$T/a" "$T/b" | head)"
	[ "$(json "$B/config.json" 'j["kernel"].get("in_place")')" = True ] && ok ||
		bad "$k in place: config.json does not say it ran in place"
	[ "$(json "$B/config.json" 'j["kernel"]["release"]')" = "$(json "$A/config.json" 'j["kernel"]["release"]')" ] &&
		ok || bad "$k in place: another kernel than the VM's check"
done

# Refused: not root (nothing made), with a kernel of its choosing, with several VMs' jobs.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$T" # nobody reads the scenario, and is refused after
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BO" run "$T/s.ini" --in-place \
		--results "$T/nobody" >"$T/out" 2>&1
	[ $? = 3 ] && grep -q "in-place .*needs root" "$T/out" && [ ! -e "$T/nobody" ] && ok ||
		bad "in place as nobody: $(cat "$T/out")"
	run_bo 3 run "$T/s.ini" --in-place --kernel-release 6.1 --results "$T/x" &&
		grep -q "not with --kernel" "$T/err" && ok || bad "--in-place with --kernel-release accepted"
fi
run_bo 2 check "$A/write.log" --scenario "$T/s.ini" --in-place --jobs 2 --results "$T/x" &&
	grep -q "jobs 1" "$T/err" && ok || bad "--in-place with --jobs 2 accepted"
finish
