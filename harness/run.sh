#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build and run the model harness: $WORK in every mode (all must pass),
# $BASE_TAG in every mode (generic scenarios where the base was written
# for, and the base_* expectations that it is caught elsewhere).
# Prints one "RESULT pass|fail|skip <name>" line per test on stdout.
#
# WORK and BASE_TAG name the two revisions (scripts/lib.sh: work and
# base, or spe-vm/<name>/work and spe-vm/<name>/base in a tree of the user's own); both
# are required.  A missing variable or revision is a failure, never a
# skip: the stage would otherwise prove nothing.  RESULT names carry the
# last component of the revision (harness/work/..., harness/base/...);
# the build of revision R goes to $O/R/ (the ref's own path).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
: "${TREE:?TREE is not set: the kernel tree (scripts/lib.sh: ktree)}"
O=${O:-$HERE/../build/harness}
rc=0
mkdir -p "$O"

for var in WORK BASE_TAG; do
	eval "val=\${$var:-}"
	if [ -z "$val" ]; then
		echo "RESULT fail harness/$var (\$$var is not set: the revision to test)"
		rc=1
	fi
done
[ $rc = 0 ] || exit $rc
if [ "$(basename "$WORK")" = "$(basename "$BASE_TAG")" ]; then
	echo "RESULT fail harness/$(basename "$WORK") (WORK=$WORK and BASE_TAG=$BASE_TAG have the same RESULT name)"
	exit 1
fi

for rev in "$WORK" "$BASE_TAG"; do
	name=$(basename "$rev")
	patched=1
	[ "$rev" = "$BASE_TAG" ] && patched=0
	if ! git -C "$TREE" rev-parse -q --verify "$rev^{commit}" >/dev/null; then
		echo "RESULT fail harness/$name (no revision $rev in $TREE)"
		rc=1
		continue
	fi
	mkdir -p "$O/$rev"
	if ! make -s -C "$HERE" TREE="$TREE" REV="$rev" PATCHED=$patched \
		O="$O" >"$O/$rev/build.log" 2>&1; then
		echo "RESULT fail harness/$name/build (see $O/$rev/build.log)"
		rc=1
		continue
	fi
	"$O/$rev/main" -r "$name" 2>"$O/$rev/run.log" || rc=1
	# the series' encodings: a wrong one must stop the build (arch.h)
	if [ "$rev" = "$WORK" ]; then
		make -s -C "$HERE" TREE="$TREE" REV="$rev" PATCHED=$patched O="$O" \
			arch-check 2>&1 || rc=1
	fi
	grep -h "caught:" "$O/$rev/run.log" | sort -u >&2
done
exit $rc
