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

# WORK and BASE_TAG name the two revisions (scripts/lib.sh: work and
# base, or spe-vm/work and spe-vm/base in a tree of the user's own).
# A missing revision is a failure: the stage would otherwise prove
# nothing.
for rev in "${WORK:-work}" "${BASE_TAG:-base}"; do
	name=$(basename "$rev")
	patched=1
	[ "$rev" = "${BASE_TAG:-base}" ] && patched=0
	if ! git -C "$TREE" rev-parse -q --verify "$rev^{commit}" >/dev/null; then
		echo "RESULT fail harness/$name (no revision $rev in $TREE)"
		rc=1
		continue
	fi
	if ! make -s -C "$HERE" TREE="$TREE" REV="$rev" PATCHED=$patched O="$O" >"$O/build-$name.log" 2>&1; then
		echo "RESULT fail harness/$name/build (see $O/build-$name.log)"
		rc=1
		continue
	fi
	"$O/$name/main" -r "$name" 2>"$O/run-$name.log" || rc=1
	grep -h "caught:" "$O/run-$name.log" | sort -u >&2
done
exit $rc
