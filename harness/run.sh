#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build and run the model harness: REV=work in every mode (all must
# pass), REV=base in every mode (generic scenarios where the base was
# written for, and the base_* expectations that it is caught elsewhere).
# Prints one "RESULT pass|fail|skip <name>" line per test on stdout.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TREE=${TREE:-$HERE/../build/linux}
O=${O:-$HERE/../build/harness}
rc=0
mkdir -p "$O"

for rev in work base; do
	if ! git -C "$TREE" rev-parse -q --verify "$rev^{commit}" >/dev/null; then
		echo "RESULT skip harness/$rev (no $rev revision in $TREE)"
		continue
	fi
	if ! make -s -C "$HERE" TREE="$TREE" REV="$rev" O="$O" >"$O/build-$rev.log" 2>&1; then
		echo "RESULT fail harness/$rev/build (see $O/build-$rev.log)"
		rc=1
		continue
	fi
	"$O/$rev/main" -r "$rev" 2>"$O/run-$rev.log" || rc=1
	grep -h "caught:" "$O/run-$rev.log" | sort -u >&2
done
exit $rc
