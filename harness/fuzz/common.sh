# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # COV, FT, REPRO: read by the scripts that source this
# Shared by run-bounded.sh and run-long.sh.  Sourced, never run.
#
#   fuzz_rev              sets REV (default $WORK) and PATCHED (1 for
#                         $WORK, 0 for $BASE_TAG, or as given); fails
#                         loudly when the names are missing
#   fuzz_build            build $O/REV/fuzz/fuzzer, log in $O/REV/fuzz/build.log
#   fuzz_run LOG ARGS     run it on the corpus of REV and fuzz/seeds;
#                         corpus in $O/REV/fuzz/corpus, crashes in
#                         $O/REV/fuzz/crashes/
#   fuzz_summary LOG      sets RUNS, COV, FT, REPRO from a libFuzzer log

HERE=$(cd "$(dirname "$0")/.." && pwd)
: "${TREE:?TREE is not set: the kernel tree (scripts/lib.sh: ktree)}"
O=${O:-$HERE/../build/harness}
mkdir -p "$O"

fuzz_rev() {
	REV=${REV:-${WORK:-}}
	if [ -z "$REV" ]; then
		echo "WORK is not set: the revision to fuzz (or REV)" >&2
		return 1
	fi
	if [ -z "${PATCHED:-}" ]; then
		if [ "$REV" = "${WORK:-}" ]; then
			PATCHED=1
		elif [ "$REV" = "${BASE_TAG:-}" ]; then
			PATCHED=0
		else
			echo "REV=$REV is neither \$WORK nor \$BASE_TAG: give PATCHED=0|1" >&2
			return 1
		fi
	fi
	FUZZ_DIR=$O/$REV/fuzz
	mkdir -p "$FUZZ_DIR"
}

fuzz_build() {
	make -s -C "$HERE" TREE="$TREE" REV="$REV" PATCHED="$PATCHED" O="$O" \
		fuzz >"$FUZZ_DIR/build.log" 2>&1
}

fuzz_run() {
	local log=$1 seeds=("$HERE/fuzz/seeds")
	shift
	# FUZZ_NO_SEEDS=1: start from nothing (time to first violation)
	[ -n "${FUZZ_NO_SEEDS:-}" ] && seeds=()
	mkdir -p "$FUZZ_DIR/corpus" "$FUZZ_DIR/crashes"
	# one process, one job (no -jobs/-workers): the two cores are shared
	"$FUZZ_DIR/fuzzer" -artifact_prefix="$FUZZ_DIR/crashes/" \
		-print_final_stats=1 "$@" \
		"$FUZZ_DIR/corpus" "${seeds[@]}" >"$log" 2>&1
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
