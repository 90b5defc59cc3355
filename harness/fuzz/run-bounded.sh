#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bounded fuzzing run of 'make check': build the fuzzer for $WORK
# (or REV) of TREE and fuzz it for FUZZ_SECONDS
# (default 20, what make check runs) on the corpus kept in $O/$WORK/fuzz/corpus.  One RESULT
# line; a missing WORK or revision is a failure.
set -u
. "$(dirname "$0")/common.sh"

secs=${FUZZ_SECONDS:-20}
name=harness/fuzz/bounded

if ! fuzz_rev; then
	echo "RESULT fail $name (WORK not set, or PATCHED unknown for REV)"
	exit 1
fi
rev=$REV
log=$FUZZ_DIR/bounded.log
if ! git -C "$TREE" rev-parse -q --verify "$rev^{commit}" >/dev/null; then
	echo "RESULT fail $name (no revision $rev in $TREE)"
	exit 1
fi
if ! command -v "${FUZZ_CC:-clang-14}" >/dev/null; then
	echo "RESULT skip $name (no clang-14: install clang-14 and libclang-rt-14-dev)"
	exit 0
fi
if ! fuzz_build; then
	echo "RESULT fail $name (build failed, see $FUZZ_DIR/build.log)"
	exit 1
fi
fuzz_run "$log" -max_total_time="$secs"
rc=$?
fuzz_summary "$log"
echo "fuzz: $RUNS sequences in ${secs}s, cov $COV ft $FT (log $log)" >&2
if [ $rc -ne 0 ] || [ -n "$REPRO" ]; then
	grep -A3 '^==== SPE fuzz violation' "$log" >&2
	echo "RESULT fail $name: $RUNS sequences, violation, reproducer ${REPRO:-none (see $log)}"
	exit 1
fi
echo "RESULT pass $name: $RUNS sequences, 0 violations"
