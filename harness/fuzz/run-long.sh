#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The long fuzzing campaign: FUZZ_RUNS sequences (default 1,000,000) on
# REV (default work), one job.  FUZZ_MODE/FUZZ_VIS pin the model (see
# fuzz.c).  Prints sequences executed, wall time, coverage and
# violations; the log is build/harness/fuzz-long-REV.log.
set -u
. "$(dirname "$0")/common.sh"

rev=${REV:-work}
runs=${FUZZ_RUNS:-1000000}
log=$O/fuzz-long-$(basename "$rev").log

fuzz_build "$rev" || { echo "build failed, see $O/fuzz-build-$rev.log"; exit 1; }
t0=$(date +%s)
fuzz_run "$rev" "$log" -runs="$runs" ${FUZZ_SECONDS:+-max_total_time=$FUZZ_SECONDS}
rc=$?
t1=$(date +%s)
fuzz_summary "$log"
echo "fuzz-long: driver $rev, mode ${FUZZ_MODE:-any} vis ${FUZZ_VIS:-any}"
echo "sequences executed: $RUNS"
echo "wall time:          $((t1 - t0)) s"
echo "coverage:           cov $COV ft $FT (libFuzzer)"
echo "corpus:             $(ls "$(fuzz_corpus "$rev")" | wc -l) inputs in $(fuzz_corpus "$rev")"
if [ $rc -ne 0 ] || [ -n "$REPRO" ]; then
	echo "violations found:   1 (libFuzzer stops at the first)"
	echo "reproducer:         ${REPRO:-see $log}"
	sed -n '/^==== SPE fuzz violation/,/^---- driver log/p' "$log"
	exit 1
fi
echo "violations found:   0"
