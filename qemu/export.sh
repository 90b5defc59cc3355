#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate qemu/patches/ from the git copy of the QEMU source that
# build.sh keeps in build/qemu-<version>-git: every commit of branch
# "spe" on top of tag "pristine" (Debian's source) becomes one
# format-patch file, listed in order in qemu/patches/series.  Then build.sh will not re-apply
# anything (the record matches what is checked out).

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../scripts/lib.sh"
GIT=$QEMU_DIR-git
OUT=$HERE/patches

[ -d "$GIT/.git" ] || die "no $GIT; run qemu/build.sh first"
git -C "$GIT" diff --quiet HEAD -- || die "uncommitted changes in $GIT"

rm -f "$OUT"/*.patch
git -C "$GIT" format-patch -q --no-signature --zero-commit -N \
	-o "$OUT" pristine..spe
{
	echo "# QEMU SPE series, applied in order by build.sh"
	(cd "$OUT" && ls -1 -- *.patch)
} > "$OUT/series"
cat "$OUT/series"

# Record the export, so that build.sh neither re-applies it nor takes
# branch spe for unexported work.
WORK=spe record_series "$GIT" "$OUT"
rm -f "$GIT/.git/spe-series-stamp"
