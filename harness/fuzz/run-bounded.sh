#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bounded fuzzing run of 'make check': build the fuzzer for $WORK
# (or REV) of TREE and fuzz it for FUZZ_SECONDS
# (default 20, what make check runs) on the corpus kept in $O/$WORK/fuzz/corpus.  One RESULT
# line; a missing WORK or revision is a failure.  Then the control: the
# fuzzer of $BASE_TAG on the seeds of the bugs the series fixes.
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

# The control: the unpatched driver ($BASE_TAG), given the seeds of the
# two bugs the series fixes, must be caught on each (the fuzzer stops
# with its violation report).
ctl=harness/fuzz/control
if [ -z "${BASE_TAG:-}" ]; then
	echo "RESULT fail $ctl (BASE_TAG not set: the unpatched revision)"
	exit 1
fi
REV=$BASE_TAG PATCHED=0
fuzz_rev || exit 1
if ! fuzz_build; then
	echo "RESULT fail $ctl (build of $BASE_TAG failed, see $FUZZ_DIR/build.log)"
	exit 1
fi
rc=0
for s in normal-den0154 snapshot-remap-wakeup-at-head; do
	if "$FUZZ_DIR/fuzzer" "$HERE/fuzz/seeds/$s" >"$FUZZ_DIR/control-$s.log" 2>&1 ||
	   ! grep -q '^==== SPE fuzz violation' "$FUZZ_DIR/control-$s.log"; then
		echo "RESULT fail $ctl/$s (the unpatched driver passes it, see $FUZZ_DIR/control-$s.log)"
		rc=1
	else
		echo "RESULT pass $ctl/$s (the unpatched driver is caught)"
	fi
done
exit $rc
