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
#   - the commits after the fixes, one per name in branch.work.deps:
#     stand-ins for other people's patches that the series depends on
#     and does not post (the cover letter names them by their links),
#     each alone in deps/<name>/ with no recipients, so that the folder
#     applies; make outgoing never mails them;
#   - the last commits of "work", one per name in branch.work.later,
#     each in later/<name>/ as a posting of its own for another tree,
#     to follow once the series is merged: the patch and a cover letter
#     whose text is branch.work.cover-<name> and whose subject prefix is
#     branch.work.prefix-<name> (default "PATCH"; apply.sh takes both
#     from the folder), its own recipients;
#   - the rest, if any, as the feature series in the folder itself; the
#     cover letter to the recipients of everything the series touches
#     plus config/cc, each patch to those of what it touches plus
#     config/cc;
#   - an ordered "series" file: the fixes, the stand-ins, the feature
#     series, the later postings.
# No posting carries base-commit: or prerequisite-patch-id: lines: the
# bases are imports of Debian's source, which no upstream tree has, and a
# prerequisite id means nothing without a base; the cover letters say in
# words what each posting applies on.
# export.sh [OUTDIR]: write somewhere else (used by the check that the
# folder is what an export gives).
# BASE_COMMIT_ID=<sha>: the base-commit: line to write when the tree's base
# is a stand-in for that public commit.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t=$(ktree)
d=$(series_dir)
out=${1:-$d}
git -C "$t" rev-parse -q --verify "refs/heads/$WORK" >/dev/null || die "no branch $WORK in $t"
n=$(git -C "$t" rev-list --count "$BASE_TAG..$WORK")
[ "$n" -gt 0 ] || die "branch $WORK has no commits on top of $BASE_TAG"

mapfile -t commits < <(git -C "$t" rev-list --reverse "$BASE_TAG..$WORK")
read -r -a fixes <<<"$(git -C "$t" config "branch.$WORK.fixes" || true)"
read -r -a deps <<<"$(git -C "$t" config "branch.$WORK.deps" || true)"
read -r -a later <<<"$(git -C "$t" config "branch.$WORK.later" || true)"
nf=${#fixes[@]}
nd=${#deps[@]}
nl=${#later[@]}
[ "$n" -ge $((nf + nd + nl)) ] ||
	die "branch.$WORK.fixes, .deps and .later name $((nf + nd + nl)) commits, but $WORK has $n"
for x in "${fixes[@]}" "${deps[@]}" "${later[@]}"; do
	[[ "$x" =~ ^[a-z0-9][a-z0-9-]*$ ]] ||
		die "branch.$WORK.fixes, .deps or .later: bad name '$x' (a-z, 0-9, -)"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Recipients: the MAINTAINERS of the branch, not of whatever is checked out.
git -C "$t" show "$WORK:MAINTAINERS" >"$tmp/MAINTAINERS"
# get_maintainer OPTIONS... PATCH...: get_maintainer.pl's answer as one line
get_maintainer() {
	(cd "$t" && scripts/get_maintainer.pl --no-git --no-git-fallback \
		--mpath "$tmp/MAINTAINERS" \
		--no-rolestats --no-multiline --separator ', ' "$@" 2>/dev/null)
}
format_patch() { git -C "$t" -c core.abbrev=12 format-patch -q --no-signature --zero-commit "$@"; }
# recipients COMMIT: set to (the maintainers) and cc (reviewers and
# lists) for what COMMIT touches
recipients() {
	format_patch -1 -o "$tmp/probe" "$1"
	to=$(get_maintainer --no-l --no-r "$tmp"/probe/*.patch)
	cc=$(cc_of "$(get_maintainer --no-m "$tmp"/probe/*.patch)")
	rm -rf "$tmp/probe"
}
# cc_of LIST...: the entries of the LISTs (", "-separated) that $to does
# not have (a maintainer of one file can be a reviewer of another), each
# once
cc_of() {
	local l="" r
	while IFS= read -r r; do
		[ -n "$r" ] || continue
		case ", $to, $l, " in *", $r, "*) continue ;; esac
		l="${l:+$l, }$r"
	done < <(printf '%s\n' "$@" | sed 's/, /\n/g')
	echo "$l"
}
# with_config_cc LIST: cc_of LIST and the config/cc entries (earlier
# reviewers and lists)
with_config_cc() {
	cc_of "$1" "$(grep -v '^[[:space:]]*\(#\|$\)' "$ROOT/config/cc")"
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

# The fixes, each its own posting.  On an older tree (lib.sh:
# STABLE_BASES, TEST_BASES) a fix is a backport kept ready for when
# stable reports that the mainline patch failed to apply: "[PATCH <name>]",
# To: stable, Cc: whom mainline's current MAINTAINERS names for it (the
# older tree's own file is stale), and its message begins with the
# "commit <id> upstream." line that the submitter fills in.
mkdir -p "$tmp/out"
backport=""
case " $STABLE_BASES $TEST_BASES " in *" $NAME "*) backport=1 ;; esac
if [ -n "$backport" ]; then
	mt=$BUILD/linux-$DEFAULT_BASE
	git -C "$mt" rev-parse -q --verify "refs/tags/base^{commit}" >/dev/null 2>&1 ||
		(unset KSRC SERIES; BASE=$DEFAULT_BASE "$ROOT/scripts/base.sh") >&2 ||
		die "the $DEFAULT_BASE tree, whose MAINTAINERS names a backport's recipients, could not be had"
	git -C "$mt" show base:MAINTAINERS >"$tmp/MAINTAINERS"
fi
for ((i = 0; i < nf; i++)); do
	c=${commits[i]}
	recipients "$c"
	if [ -n "$backport" ]; then
		grep -q '^commit [0-9a-f]\{40\} upstream\.$' <<<"$(git -C "$t" log -1 --format=%b "$c")" ||
			die "fix ${fixes[i]} of $NAME is a backport: its message must begin with \"commit <id> upstream.\""
		m="$to, $cc" to="stable@vger.kernel.org"
		cc=$(cc_of "$m")
		format_patch -1 --subject-prefix="PATCH $NAME" --to="$to" --cc="$cc" \
			-o "$tmp/out/fixes/${fixes[i]}" "$c"
	else
		format_patch -1 --to="$to" --cc="$cc" -o "$tmp/out/fixes/${fixes[i]}" "$c"
	fi
done
# the rest goes to whom the branch's own MAINTAINERS names
[ -z "$backport" ] || git -C "$t" show "$WORK:MAINTAINERS" >"$tmp/MAINTAINERS"

# The stand-ins, to apply only: no recipients
for ((i = 0; i < nd; i++)); do
	format_patch -1 -o "$tmp/out/deps/${deps[i]}" "${commits[nf + i]}"
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

# The version of the series: branch.<WORK>.reroll, which apply.sh takes
# from the cover letter's "[PATCH vN" (none: a first posting).  The
# later postings are each a first posting of their own.
v=$(git -C "$t" config "branch.$WORK.reroll" || true)

# base-commit: only where the base stands in for a public commit
baseopt=()
[ -z "${BASE_COMMIT_ID:-}" ] || baseopt=(--base="$BASE_TAG")

# The later postings, each on top of everything before it
for ((i = 0; i < nl; i++)); do
	c=${commits[n - nl + i]}
	cover=$(git -C "$t" config "branch.$WORK.cover-${later[i]}" || true)
	[ -n "$cover" ] || die "no cover letter for later/${later[i]}: git -C $t config branch.$WORK.cover-${later[i]} '<subject><LF><LF><text>'"
	recipients "$c"
	o=$tmp/out/later/${later[i]}
	prefix=$(git -C "$t" config "branch.$WORK.prefix-${later[i]}" || echo PATCH)
	format_patch -1 --cover-letter --cover-from-description=none "${baseopt[@]}" \
		--subject-prefix="$prefix" --to="$to" --cc="$cc" -o "$o" "$c"
	unversion "$o"
	fill_cover "$o/0000-cover-letter.patch" "$cover" "$c"
done

# The feature series, on top of the fixes and the stand-ins
if [ "$n" -gt $((nf + nd + nl)) ]; then
	desc=$(git -C "$t" config "branch.$WORK.description" || true)
	[ -n "$desc" ] || die "branch $WORK has no description (the cover letter): git -C $t branch --edit-description $WORK"
	from=$BASE_TAG
	[ $((nf + nd)) = 0 ] || from=${commits[nf + nd - 1]}
	to_rev=$(git -C "$t" rev-parse "$WORK~$nl")
	# Each patch to the maintainers of what it touches, Cc: its
	# reviewers and lists and config/cc; the cover letter to all of
	# the patches' To:, Cc: all of their Cc:.
	format_patch ${v:+-v "$v"} -o "$tmp/probe" "$from..$to_rev"
	unversion "$tmp/probe"
	all_to="" all_cc=""
	for f in "$tmp"/probe/0*.patch; do
		to=$(get_maintainer --no-l --no-r "$f")
		cc=$(with_config_cc "$(get_maintainer --no-m "$f")")
		printf '%s\n%s\n' "$to" "$cc" >"$f.rcpt"
		all_to="$all_to${all_to:+, }$to" all_cc="$all_cc${all_cc:+, }$cc"
	done
	to=""
	to=$(cc_of "$all_to")
	cc=$(cc_of "$all_cc")
	format_patch --cover-letter --cover-from-description=none "${baseopt[@]}" ${v:+-v "$v"} \
		--to="$to" --cc="$cc" -o "$tmp/out" "$from..$to_rev"
	unversion "$tmp/out"
	for f in "$tmp"/out/[0-9]*.patch; do
		case "$f" in */0000-*) continue ;; esac
		{ read -r to; read -r cc; } <"$tmp/probe/$(basename "$f").rcpt"
		awk -v to="$to" -v cc="$cc" '
			!hdr && /^$/ { hdr = 1 }
			!hdr && /^To: / { print "To: " to; skip = 1; next }
			!hdr && /^Cc: / { print "Cc: " cc; skip = 1; next }
			!hdr && skip && /^[ \t]/ { next }
			{ skip = 0; print }' "$f" >"$tmp/pp" && mv "$tmp/pp" "$f"
	done
	rm -rf "$tmp/probe"
	fill_cover "$tmp"/out/0000-cover-letter.patch "$desc" "$to_rev"
fi

mkdir -p "$out"
rm -rf "$out"/*.patch "$out"/series "$out"/fixes "$out"/deps "$out"/later
cp -r "$tmp"/out/. "$out"/
(cd "$out" && {
	for ((i = 0; i < nf; i++)); do ls "fixes/${fixes[i]}"/*.patch; done
	for ((i = 0; i < nd; i++)); do ls "deps/${deps[i]}"/*.patch; done
	ls -- *.patch 2>/dev/null || true
	for ((i = 0; i < nl; i++)); do ls "later/${later[i]}"/*.patch; done
}) >"$out/series"
note "exported $nf fixes, $nd stand-ins, $((n - nf - nd - nl)) patches and $nl later postings to $out"
# Exported into the folder itself: record it as applied, so that
# apply.sh takes branch work and this folder as one (no warning about
# unexported commits, and a newer folder is applied again).
if [ "$out" = "$d" ]; then
	record_series "$t" "$d"
fi
