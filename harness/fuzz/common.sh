# SPDX-License-Identifier: GPL-2.0
# Shared by run-bounded.sh and run-long.sh.  Sourced, never run.
#
#   fuzz_build REV        build $O/fuzz-REV/fuzzer, log in $O/fuzz-build-REV.log
#   fuzz_run REV LOG ARGS run it on the corpus of REV and fuzz/seeds;
#                         crashes go to $O/fuzz-crashes/REV/
#   fuzz_summary LOG      sets RUNS, COV, FT, REPRO from a libFuzzer log

HERE=$(cd "$(dirname "$0")/.." && pwd)
TREE=${TREE:-$HERE/../build/linux}
O=${O:-$HERE/../build/harness}
mkdir -p "$O"

fuzz_corpus() {
	if [ "$1" = work ]; then
		echo "$O/fuzz-corpus"
	else
		echo "$O/fuzz-corpus-$(basename "$1")"
	fi
}

fuzz_build() {
	make -s -C "$HERE" TREE="$TREE" REV="$1" O="$O" fuzz \
		>"$O/fuzz-build-$(basename "$1").log" 2>&1
}

fuzz_run() {
	local rev=$1 log=$2 corpus crashes seeds=("$HERE/fuzz/seeds")
	shift 2
	# FUZZ_NO_SEEDS=1: start from nothing (time to first violation)
	[ -n "${FUZZ_NO_SEEDS:-}" ] && seeds=()
	corpus=$(fuzz_corpus "$rev")
	crashes=$O/fuzz-crashes/$(basename "$rev")
	mkdir -p "$corpus" "$crashes"
	# one process, one job (no -jobs/-workers): the two cores are shared
	"$O/fuzz-$(basename "$rev")/fuzzer" -artifact_prefix="$crashes/" \
		-print_final_stats=1 "$@" \
		"$corpus" "${seeds[@]}" >"$log" 2>&1
}

fuzz_summary() {
	local log=$1 last
	RUNS=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	RUNS=${RUNS:-0}
	last=$(grep -E '^#[0-9]+[[:space:]].*cov: ' "$log" | tail -1)
	COV=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	FT=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	REPRO=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
}
