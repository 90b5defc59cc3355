#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Count the RESULT lines of a test log and print the closing line.
# Exit status: 0 when nothing failed.
set -euo pipefail
log=$1
pass=$(grep -c '^RESULT pass ' "$log" || true)
fail=$(grep -c '^RESULT fail ' "$log" || true)
skip=$(grep -c '^RESULT skip ' "$log" || true)
if [ "$fail" -gt 0 ]; then
	echo "failed:"
	grep '^RESULT fail ' "$log" | sed 's/^RESULT fail /  /'
fi
if [ "$skip" -gt 0 ]; then
	echo "skipped:"
	grep '^RESULT skip ' "$log" | sed 's/^RESULT skip /  /'
fi
grep '^TIME ' "$log" | sed 's/^TIME /time: /' || true
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ $((pass + skip)) -gt 0 ]
