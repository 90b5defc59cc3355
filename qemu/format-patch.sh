#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate qemu/patches/ from the git copy of the QEMU source that
# build.sh keeps in build/qemu-<version>-git: every commit of branch
# "spe" on top of tag "pristine" (Debian's source) becomes one
# format-patch file, listed in order in qemu/patches/series, and
# qemu/cover-letter.txt (a subject line, a blank line, the text) the
# cover letter 0000-cover-letter.patch, which build.sh does not apply.
# Then build.sh will not re-apply anything (the record matches what is
# checked out).

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../scripts/lib.sh"
GIT=$QEMU_DIR-git
OUT=$HERE/patches

[ -d "$GIT/.git" ] || die "no $GIT; run qemu/build.sh first"
git -C "$GIT" diff --quiet HEAD -- || die "uncommitted changes in $GIT"

rm -f "$OUT"/*.patch
# The cover letter: its subject and text from qemu/cover-letter.txt
git -C "$GIT" config branch.spe.description "$(cat "$HERE/cover-letter.txt")"
git -C "$GIT" format-patch -q --no-signature --zero-commit --cover-letter \
	--cover-from-description=subject -o "$OUT" pristine..spe
# dated like the last patch, so that an unchanged series exports the same
sed -i "s/^Date: .*/Date: $(git -C "$GIT" log -1 --format=%aD spe)/" "$OUT/0000-cover-letter.patch"
{
	echo "# QEMU SPE series, applied in order by build.sh"
	for p in "$OUT"/*.patch; do
		[ "${p##*/}" = 0000-cover-letter.patch ] || echo "${p##*/}"
	done
} > "$OUT/series"
cat "$OUT/series"

# Record the export, so that build.sh neither re-applies it nor takes
# branch spe for unexported work.
WORK=spe record_series "$GIT" "$OUT"
rm -f "$GIT/.git/spe-series-stamp"
