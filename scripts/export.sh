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
#   - the last commits of "work", one per name in branch.work.later,
#     each in later/<name>/ as a posting of its own for another tree,
#     to follow once the series is merged: the patch and a cover letter
#     whose text is branch.work.cover-<name> (apply.sh takes both from
#     the folder), the earlier commits named as prerequisite-patch-id:
#     lines, its own recipients;
#   - the rest, if any, as the feature series in the folder itself:
#     git format-patch --cover-letter --base=base, which names the fixes
#     as prerequisite-patch-id: lines; the cover letter to the
#     recipients of everything the series touches plus config/cc, each
#     patch to those of what it touches plus config/cc;
#   - an ordered "series" file: the fixes, the feature series, the
#     later postings.
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
read -r -a later <<<"$(git -C "$t" config "branch.$WORK.later" || true)"
nf=${#fixes[@]}
nl=${#later[@]}
[ "$n" -ge $((nf + nl)) ] ||
	die "branch.$WORK.fixes and .later name $((nf + nl)) postings, but $WORK has $n commits"
for x in "${fixes[@]}" "${later[@]}"; do
	[[ "$x" =~ ^[a-z0-9][a-z0-9-]*$ ]] ||
		die "branch.$WORK.fixes or .later: bad posting name '$x' (a-z, 0-9, -)"
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
# recipients COMMIT: set to (the maintainers) and cc (reviewers and
# lists) for what COMMIT touches
recipients() {
	fp -1 -o "$tmp/probe" "$1"
	to=$(gm --no-l --no-r "$tmp"/probe/*.patch)
	cc=$(gm --no-m "$tmp"/probe/*.patch)
	rm -rf "$tmp/probe"
}
# with_config_cc LIST: LIST plus the config/cc entries (earlier reviewers
# and lists) that neither it nor $to has
with_config_cc() {
	local l=$1 r
	while IFS= read -r r; do
		case "$to, $l, " in *"$r, "*) continue ;; esac
		l="$l, $r"
	done < <(grep -v '^[[:space:]]*\(#\|$\)' "$ROOT/config/cc")
	echo "$l"
}
# unversion DIR: drop format-patch's vN- prefix from the names in DIR
# (the subjects carry it), so that a folder keeps its names from one
# version to the next
unversion() {
	local f b
	for f in "$1"/v[0-9]*-*.patch; do
		[ -e "$f" ] || continue
		b=${f##*/}
		mv "$f" "$1/${b#v*-}"
	done
}

# The fixes, each its own posting
mkdir -p "$tmp/out"
for ((i = 0; i < nf; i++)); do
	c=${commits[i]}
	recipients "$c"
	fp -1 --to="$to" --cc="$cc" -o "$tmp/out/fixes/${fixes[i]}" "$c"
done

# fill_cover FILE TEXT REV: put TEXT (a subject line, a blank line, the
# body) in place of git's placeholders in cover letter FILE, dated like
# REV, so that the same branch always exports the same folder.  The
# base-commit: line goes unless BASE_COMMIT_ID names a public commit:
# the bases are imports of Debian's source, which no upstream tree has.
fill_cover() {
	printf '%s\n' "$2" >"$tmp/cover"
	awk -v cf="$tmp/cover" -v date="$(git -C "$t" log -1 --format=%aD "$3")" \
		-v base="${BASE_COMMIT_ID:-}" '
		BEGIN { getline subj <cf; getline <cf; while ((getline l <cf) > 0) body = body l "\n" }
		/^Date: / && !d { print "Date: " date; d = 1; next }
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
		/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s", body; next }
		/^base-commit: / { if (base != "") print "base-commit: " base; next }
		{ print }' "$1" >"$tmp/cl"
	mv "$tmp/cl" "$1"
}

# The version of the postings: branch.<WORK>.reroll, which apply.sh takes
# from the cover letter's "[PATCH vN" (none: a first posting).
v=$(git -C "$t" config "branch.$WORK.reroll" || true)

# The later postings, each on top of everything before it
for ((i = 0; i < nl; i++)); do
	c=${commits[n - nl + i]}
	cover=$(git -C "$t" config "branch.$WORK.cover-${later[i]}" || true)
	[ -n "$cover" ] || die "no cover letter for later/${later[i]}: git -C $t config branch.$WORK.cover-${later[i]} '<subject><LF><LF><text>'"
	recipients "$c"
	o=$tmp/out/later/${later[i]}
	fp -1 --cover-letter --cover-from-description=none --base="$BASE_TAG" ${v:+-v "$v"} \
		--to="$to" --cc="$cc" -o "$o" "$c"
	unversion "$o"
	fill_cover "$o/0000-cover-letter.patch" "$cover" "$c"
done

# The feature series, on top of the fixes
if [ "$n" -gt $((nf + nl)) ]; then
	desc=$(git -C "$t" config "branch.$WORK.description" || true)
	[ -n "$desc" ] || die "branch $WORK has no description (the cover letter): git -C $t branch --edit-description $WORK"
	from=$BASE_TAG
	[ "$nf" = 0 ] || from=${commits[nf - 1]}
	to_rev=$(git -C "$t" rev-parse "$WORK~$nl")
	fp --cover-letter --base="$BASE_TAG" -o "$tmp/probe" "$from..$to_rev"
	ps=()
	for f in "$tmp"/probe/0*.patch; do
		case "$f" in */0000-*) ;; *) ps+=("$f") ;; esac
	done
	to=$(gm --no-l "${ps[@]}")
	cc=$(with_config_cc "$(gm --no-m --no-r "${ps[@]}")")
	rm -rf "$tmp/probe"
	fp --cover-letter --cover-from-description=none --base="$BASE_TAG" ${v:+-v "$v"} \
		--to="$to" --cc="$cc" -o "$tmp/out" "$from..$to_rev"
	# The cover letter goes to everyone; each patch to the maintainers
	# of what it touches, Cc: its reviewers and lists and config/cc.
	unversion "$tmp/out"
	for f in "$tmp"/out/[0-9]*.patch; do
		case "$f" in */0000-*) continue ;; esac
		to=$(gm --no-l --no-r "$f")
		cc=$(with_config_cc "$(gm --no-m "$f")")
		awk -v to="$to" -v cc="$cc" '
			!hdr && /^$/ { hdr = 1 }
			!hdr && /^To: / { print "To: " to; skip = 1; next }
			!hdr && /^Cc: / { print "Cc: " cc; skip = 1; next }
			!hdr && skip && /^[ \t]/ { next }
			{ skip = 0; print }' "$f" >"$tmp/pp" && mv "$tmp/pp" "$f"
	done
	fill_cover "$tmp"/out/0000-cover-letter.patch "$desc" "$to_rev"
fi

mkdir -p "$out"
rm -rf "$out"/*.patch "$out"/series "$out"/fixes "$out"/later
cp -r "$tmp"/out/. "$out"/
(cd "$out" && {
	for ((i = 0; i < nf; i++)); do ls "fixes/${fixes[i]}"/*.patch; done
	ls -- *.patch 2>/dev/null || true
	for ((i = 0; i < nl; i++)); do ls "later/${later[i]}"/*.patch; done
}) >"$out/series"
note "exported $nf fixes, $((n - nf - nl)) patches and $nl later postings to $out"
# Exported into the folder itself: record it as applied, so that
# apply.sh takes branch work and this folder as one (no warning about
# unexported commits, and a newer folder is applied again).
if [ "$out" = "$d" ]; then
	record_series "$t" "$d"
fi
