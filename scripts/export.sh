#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerate a series folder from branch "work" of the kernel tree:
#   git format-patch --cover-letter --base=base, recipients from the
#   tree's scripts/get_maintainer.pl, and an ordered "series" file.
# export.sh [OUTDIR]: write somewhere else (used by the check that the
# folder is what an export gives).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t=$(ktree)
d=$(series_dir "$t")
out=${1:-$d}
git -C "$t" rev-parse -q --verify refs/heads/work >/dev/null || die "no branch work in $t"
n=$(git -C "$t" rev-list --count base..work)
[ "$n" -gt 0 ] || die "branch work has no commits on top of base"

desc=$(git -C "$t" config "branch.work.description" || true)
[ -n "$desc" ] || die "branch work has no description (the cover letter): git -C $t branch --edit-description work"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$t" format-patch -q --no-signature --cover-letter \
	--cover-from-description=subject --base=base -o "$tmp" base..work

# Recipients: maintainers and lists of everything the series touches.
to=$(cd "$t" && scripts/get_maintainer.pl --no-git --no-git-fallback \
	--no-rolestats --no-multiline --separator ', ' --no-l "$tmp"/0*.patch)
cc=$(cd "$t" && scripts/get_maintainer.pl --no-git --no-git-fallback \
	--no-rolestats --no-multiline --separator ', ' --no-m --no-r "$tmp"/0*.patch)
rm -f "$tmp"/*.patch
git -C "$t" format-patch -q --no-signature --cover-letter \
	--cover-from-description=subject --base=base \
	--to="$to" --cc="$cc" -o "$tmp" base..work

mkdir -p "$out"
rm -f "$out"/*.patch "$out"/series
cp "$tmp"/*.patch "$out"/
(cd "$out" && ls *.patch) >"$out/series"
note "exported $n patches and a cover letter to $out"
