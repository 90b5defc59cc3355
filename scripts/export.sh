#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerate a series folder from branch "work" of the kernel tree (index
# lines abbreviated to 12 digits, whatever the size of the repository):
#   git format-patch --cover-letter --base=base, recipients from the
#   tree's scripts/get_maintainer.pl, and an ordered "series" file.
# export.sh [OUTDIR]: write somewhere else (used by the check that the
# folder is what an export gives).
# BASE_COMMIT_ID=<sha>: the base-commit: line to write when the tree's base
# is a stand-in for that public commit.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t=$(ktree)
d=$(series_dir "$t")
out=${1:-$d}
git -C "$t" rev-parse -q --verify refs/heads/$WORK >/dev/null || die "no branch $WORK in $t"
n=$(git -C "$t" rev-list --count "$BASE_TAG..$WORK")
[ "$n" -gt 0 ] || die "branch $WORK has no commits on top of $BASE_TAG"

desc=$(git -C "$t" config "branch.$WORK.description" || true)
[ -n "$desc" ] || die "branch $WORK has no description (the cover letter): git -C $t branch --edit-description $WORK"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$t" -c core.abbrev=12 format-patch -q --no-signature --zero-commit --cover-letter \
	--cover-from-description=subject --base="$BASE_TAG" -o "$tmp" "$BASE_TAG..$WORK"

# Recipients: maintainers and lists of everything the series touches.
# The MAINTAINERS of the branch, not of whatever is checked out.
git -C "$t" show "$WORK:MAINTAINERS" >"$tmp/MAINTAINERS"
gm() {
	(cd "$t" && scripts/get_maintainer.pl --no-git --no-git-fallback \
		--mpath "$tmp/MAINTAINERS" \
		--no-rolestats --no-multiline --separator ', ' "$@" \
		$(ls "$tmp"/0*.patch | grep -v /0000-) 2>/dev/null)
}
to=$(gm --no-l)
cc=$(gm --no-m --no-r)
# and config/cc: earlier reviewers and lists, unless already there
while IFS= read -r r; do
	case "$to, $cc, " in *"$r, "*) continue ;; esac
	cc="$cc, $r"
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$ROOT/config/cc")
rm -f "$tmp"/*.patch "$tmp/MAINTAINERS"
# The posting's version: branch.<WORK>.reroll, which apply.sh takes from
# the cover letter's "[PATCH vN" (none: a first posting).
v=$(git -C "$t" config "branch.$WORK.reroll" || true)
git -C "$t" -c core.abbrev=12 format-patch -q --no-signature --zero-commit --cover-letter \
	--cover-from-description=subject --base="$BASE_TAG" ${v:+-v "$v"} \
	--to="$to" --cc="$cc" -o "$tmp" "$BASE_TAG..$WORK"
# Keep file names without the vN- prefix (the subjects carry it), so
# that a folder keeps its names from one version to the next.
for f in "$tmp"/v[0-9]*-*.patch; do
	[ -e "$f" ] || continue
	b=${f##*/}
	mv "$f" "$tmp/${b#v*-}"
done

# The cover letter is dated now by git; date it like the last patch so
# that the same branch always exports the same folder.
date=$(git -C "$t" log -1 --format=%aD "$WORK")
sed -i "0,/^Date: .*/s//Date: $date/" "$tmp"/0000-cover-letter.patch

# A stand-in for a public base (see series/mainline/README): name the
# public commit the series is for.
if [ -n "${BASE_COMMIT_ID:-}" ]; then
	sed -i "s/^base-commit: .*/base-commit: $BASE_COMMIT_ID/" "$tmp"/0000-cover-letter.patch
fi

mkdir -p "$out"
rm -f "$out"/*.patch "$out"/series
cp "$tmp"/*.patch "$out"/
(cd "$out" && ls *.patch) >"$out/series"
note "exported $n patches and a cover letter to $out"
