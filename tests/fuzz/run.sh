#!/usr/bin/env bash
# run.sh FUZZER SECONDS [CORPUS-DIR]: run one libFuzzer target for a bounded time, seeded from
# the checked-in corpus of its name (tests/fuzz/corpus/ for the log reader, corpus/NAME/ or
# corpus-NAME/ for the others). Exits non-zero on a crash, a leak or a timeout of one input.
set -euo pipefail
fuzzer=$1
secs=$2
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$fuzzer")
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/bo-$name-XXXXXX")}
[ -n "${3:-}" ] || trap 'rm -rf "$work"' EXIT
seed=$here/corpus-${name#fuzz_}
[ "$name" = fuzz_log ] && seed=$here/corpus
[ -d "$here/corpus/${name#fuzz_}" ] && seed=$here/corpus/${name#fuzz_}
[ -d "$seed" ] && cp -n "$seed"/* "$work"/ 2>/dev/null || true
cd "$work"
"$fuzzer" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=1024 \
	-print_final_stats=1 "$work" 2>&1 | grep -E '^(#[0-9]+ +DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)' || true
exit "${PIPESTATUS[0]}"
