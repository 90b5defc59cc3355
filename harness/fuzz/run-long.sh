#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The long fuzzing campaign: FUZZ_RUNS sequences (default 1,000,000) on
# REV (default $WORK; PATCHED follows from $WORK/$BASE_TAG or is given),
# one job.  FUZZ_MODE/FUZZ_VIS pin the model (see fuzz.c).  Prints
# sequences executed, wall time, coverage and violations; the log is
# $O/REV/fuzz/long.log.
set -u
. "$(dirname "$0")/common.sh"

fuzz_rev || exit 1
rev=$REV
runs=${FUZZ_RUNS:-1000000}
log=$FUZZ_DIR/long.log

git -C "$TREE" rev-parse -q --verify "$rev^{commit}" >/dev/null ||
	{ echo "no revision $rev in $TREE"; exit 1; }
fuzz_build || { echo "build failed, see $FUZZ_DIR/build.log"; exit 1; }
t0=$(date +%s)
fuzz_run "$log" -runs="$runs" ${FUZZ_SECONDS:+-max_total_time=$FUZZ_SECONDS}
rc=$?
t1=$(date +%s)
fuzz_summary "$log"
echo "fuzz-long: driver $rev, mode ${FUZZ_MODE:-any} vis ${FUZZ_VIS:-any}"
echo "sequences executed: $RUNS"
echo "wall time:          $((t1 - t0)) s"
echo "coverage:           cov $COV ft $FT (libFuzzer)"
echo "corpus:             $(find "$FUZZ_DIR/corpus" -type f | wc -l) inputs in $FUZZ_DIR/corpus"
if [ $rc -ne 0 ] || [ -n "$REPRO" ]; then
	echo "violations found:   1 (libFuzzer stops at the first)"
	echo "reproducer:         ${REPRO:-see $log}"
	sed -n '/^==== SPE fuzz violation/,/^---- driver log/p' "$log"
	exit 1
fi
echo "violations found:   0"
