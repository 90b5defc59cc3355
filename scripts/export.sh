#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerate a series folder from branch "work" of the kernel tree (index
# lines abbreviated to 12 digits, whatever the size of the repository).
# One posting per destination tree, fixes first:
#   - the first commits of "work", one per name in branch.work.fixes
#     (apply.sh takes the names from the folder's fixes/<name>/ lines),
#     each alone in fixes/<name>/: a single patch, no cover letter, its
#     own recipients from the tree's scripts/get_maintainer.pl (To: the
#     maintainers, Cc: reviewers and lists), no base-commit: (see
#     README.md: the bases are Debian imports);
#   - the rest, if any, as the feature series in the folder itself:
#     git format-patch --cover-letter --base=base, which names the fixes
#     as prerequisite-patch-id: lines, recipients of everything it
#     touches plus config/cc;
#   - an ordered "series" file: the fixes, then the feature series.
# export.sh [OUTDIR]: write somewhere else (used by the check that the
# folder is what an export gives).
# BASE_COMMIT_ID=<sha>: the base-commit: line to write when the tree's base
# is a stand-in for that public commit.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t=$(ktree)
d=$(series_dir "$t")
out=${1:-$d}
git -C "$t" rev-parse -q --verify "refs/heads/$WORK" >/dev/null || die "no branch $WORK in $t"
n=$(git -C "$t" rev-list --count "$BASE_TAG..$WORK")
[ "$n" -gt 0 ] || die "branch $WORK has no commits on top of $BASE_TAG"

mapfile -t commits < <(git -C "$t" rev-list --reverse "$BASE_TAG..$WORK")
read -r -a fixes <<<"$(git -C "$t" config "branch.$WORK.fixes" || true)"
nf=${#fixes[@]}
[ "$n" -ge "$nf" ] || die "branch.$WORK.fixes names $nf fixes, but $WORK has $n commits"
for ((i = 0; i < nf; i++)); do
	case "${fixes[i]}" in
	*/* | "" | .*) die "branch.$WORK.fixes: bad posting name '${fixes[i]}'" ;;
	esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Recipients: the MAINTAINERS of the branch, not of whatever is checked out.
git -C "$t" show "$WORK:MAINTAINERS" >"$tmp/MAINTAINERS"
# gm OPTIONS... PATCH...: get_maintainer.pl's answer as one line
gm() {
	(cd "$t" && scripts/get_maintainer.pl --no-git --no-git-fallback \
		--mpath "$tmp/MAINTAINERS" \
		--no-rolestats --no-multiline --separator ', ' "$@" 2>/dev/null)
}
fp() { git -C "$t" -c core.abbrev=12 format-patch -q --no-signature --zero-commit "$@"; }

# The fixes, each its own posting
mkdir -p "$tmp/out"
for ((i = 0; i < nf; i++)); do
	c=${commits[i]}
	fp -1 -o "$tmp/probe" "$c"
	p=$(ls "$tmp"/probe/*.patch)
	to=$(gm --no-l --no-r "$p")
	cc=$(gm --no-m "$p")
	rm -rf "$tmp/probe"
	fp -1 --to="$to" --cc="$cc" -o "$tmp/out/fixes/${fixes[i]}" "$c"
done

# The feature series, on top of the fixes
if [ "$n" -gt "$nf" ]; then
	desc=$(git -C "$t" config "branch.$WORK.description" || true)
	[ -n "$desc" ] || die "branch $WORK has no description (the cover letter): git -C $t branch --edit-description $WORK"
	from=$BASE_TAG
	[ "$nf" = 0 ] || from=${commits[nf - 1]}
	fp --cover-letter --cover-from-description=subject --base="$BASE_TAG" \
		-o "$tmp/probe" "$from..$WORK"
	ps=()
	for f in "$tmp"/probe/0*.patch; do
		case "$f" in */0000-*) ;; *) ps+=("$f") ;; esac
	done
	to=$(gm --no-l "${ps[@]}")
	cc=$(gm --no-m --no-r "${ps[@]}")
	# and config/cc: earlier reviewers and lists, unless already there
	while IFS= read -r r; do
		case "$to, $cc, " in *"$r, "*) continue ;; esac
		cc="$cc, $r"
	done < <(grep -v '^[[:space:]]*\(#\|$\)' "$ROOT/config/cc")
	rm -rf "$tmp/probe"
	# The posting's version: branch.<WORK>.reroll, which apply.sh takes
	# from the cover letter's "[PATCH vN" (none: a first posting).
	v=$(git -C "$t" config "branch.$WORK.reroll" || true)
	fp --cover-letter --cover-from-description=subject --base="$BASE_TAG" ${v:+-v "$v"} \
		--to="$to" --cc="$cc" -o "$tmp/out" "$from..$WORK"
	# Keep file names without the vN- prefix (the subjects carry it), so
	# that a folder keeps its names from one version to the next.
	for f in "$tmp"/out/v[0-9]*-*.patch; do
		[ -e "$f" ] || continue
		b=${f##*/}
		mv "$f" "$tmp/out/${b#v*-}"
	done

	# The cover letter is dated now by git; date it like the last patch
	# so that the same branch always exports the same folder.
	date=$(git -C "$t" log -1 --format=%aD "$WORK")
	sed -i "0,/^Date: .*/s//Date: $date/" "$tmp"/out/0000-cover-letter.patch

	# A stand-in for a public base (see series/v6.16/README.md): name
	# the public commit the series is for.
	if [ -n "${BASE_COMMIT_ID:-}" ]; then
		sed -i "s/^base-commit: .*/base-commit: $BASE_COMMIT_ID/" "$tmp"/out/0000-cover-letter.patch
	fi
fi

mkdir -p "$out"
rm -rf "$out"/*.patch "$out"/series "$out"/fixes
cp -r "$tmp"/out/. "$out"/
(cd "$out" && { for ((i = 0; i < nf; i++)); do ls "fixes/${fixes[i]}"/*.patch; done; ls -- *.patch 2>/dev/null || true; }) >"$out/series"
note "exported $nf fixes and $((n - nf)) patches to $out"
# Exported into the folder itself: record it as applied, so that
# apply.sh takes branch work and this folder as one (no warning about
# unexported commits, and a newer folder is applied again).
if [ "$out" = "$d" ]; then
	record_series "$t" "$d"
fi
