#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate qemu/patches/ from the git copy of the QEMU source that
# build.sh keeps in build/qemu-git: every commit of branch "spe" on top of
# tag "pristine" (Debian's source) becomes one format-patch file, listed
# in order in qemu/patches/series.  Then build.sh will not re-apply
# anything (the stamp matches what is already checked out).

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
GIT=$BUILD/qemu-git
OUT=$HERE/patches

[ -d "$GIT/.git" ] || { echo "error: no $GIT; run qemu/build.sh first" >&2; exit 1; }
git -C "$GIT" diff --quiet HEAD -- || { echo "error: uncommitted changes in $GIT" >&2; exit 1; }

rm -f "$OUT"/*.patch
git -C "$GIT" format-patch -q --no-signature --zero-commit -N \
	-o "$OUT" pristine..spe
{
	echo "# QEMU SPE series, applied in order by build.sh"
	(cd "$OUT" && ls -1 -- *.patch)
} > "$OUT/series"
cat "$OUT/series"

# Record the stamp build.sh would compute, so it does not re-apply.
(
	cd "$OUT"
	grep -v '^[[:space:]]*\(#\|$\)' series | while read -r p; do sha1sum "$p"; done
) | sha1sum | cut -d' ' -f1 > "$GIT/.git/spe-series-stamp"
