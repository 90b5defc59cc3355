#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Per buffer-full interrupt costs of $BASE_TAG and $WORK, side by side.
# Both variables are required (scripts/lib.sh sets them); a missing one
# or a missing revision is an error.
set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
: "${TREE:?TREE is not set: the kernel tree (scripts/lib.sh: ktree)}"
O=${O:-$HERE/../build/harness}
: "${WORK:?WORK is not set: the revision carrying the series}"
: "${BASE_TAG:?BASE_TAG is not set: the unpatched revision}"
first=1
for rev in "$BASE_TAG" "$WORK"; do
	patched=1
	[ "$rev" = "$BASE_TAG" ] && patched=0
	if ! git -C "$TREE" rev-parse -q --verify "$rev^{commit}" >/dev/null; then
		echo "bench: no revision $rev in $TREE" >&2
		exit 1
	fi
	make -s -C "$HERE" TREE="$TREE" REV="$rev" PATCHED=$patched O="$O" >/dev/null
	if [ $first = 1 ]; then
		"$O/$rev/main" -r "$(basename "$rev")" -b | grep -v '^min'
		first=0
	else
		"$O/$rev/main" -r "$(basename "$rev")" -b | sed 1d
	fi
done
