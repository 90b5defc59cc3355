#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bounded fuzzing run of 'make check': build the fuzzer for REV=work
# (TREE, default build/linux) and fuzz it for FUZZ_SECONDS (default 55)
# on the corpus kept in build/harness/fuzz-corpus.  One RESULT line.
set -u
. "$(dirname "$0")/common.sh"

rev=${REV:-${WORK:-work}}
secs=${FUZZ_SECONDS:-55}
name=harness/fuzz/bounded
log=$O/fuzz-bounded.log

if ! git -C "$TREE" rev-parse -q --verify "$rev^{commit}" >/dev/null; then
	echo "RESULT fail $name (no revision $rev in $TREE)"
	exit 1
fi
if ! command -v "${FUZZ_CC:-clang-14}" >/dev/null; then
	echo "RESULT skip $name (no clang-14: install clang-14 and libclang-rt-14-dev)"
	exit 0
fi
if ! fuzz_build "$rev"; then
	echo "RESULT fail $name (build failed, see $O/fuzz-build-$rev.log)"
	exit 1
fi
fuzz_run "$rev" "$log" -max_total_time="$secs"
rc=$?
fuzz_summary "$log"
echo "fuzz: $RUNS sequences in ${secs}s, cov $COV ft $FT (log $log)" >&2
if [ $rc -ne 0 ] || [ -n "$REPRO" ]; then
	grep -A3 '^==== SPE fuzz violation' "$log" >&2
	echo "RESULT fail $name: $RUNS sequences, violation, reproducer ${REPRO:-none (see $log)}"
	exit 1
fi
echo "RESULT pass $name: $RUNS sequences, 0 violations"
