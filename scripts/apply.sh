#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Apply the series folder that matches the tree to branch "work" with
# git am (its fixes/ postings first, then the stand-ins of deps/, the
# feature series, then its later/ postings, in the order of its series
# file), unless "work"
# carries commits of a developer that have not been exported yet.
#
# The record of the last application or export (lib.sh: record_series):
# while "work" still points where it left it, a changed series folder is
# applied again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t=$(ktree)
d=$(series_dir)
git -C "$t" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null || die "no base tree; run scripts/base.sh"

apply_to() {	# apply_to <branch>
	git -C "$t" checkout -q -B "$1" "$BASE_TAG"
	# shellcheck disable=SC2046
	am_series "$t" $(series_patches "$d") || die "series/$(basename "$d") does not apply"
	# The cover letter travels as the branch description (b4 does the
	# same), from which scripts/export.sh writes it back.
	if [ -f "$d/0000-cover-letter.patch" ]; then
		"$ROOT/scripts/cover.sh" read "$d/0000-cover-letter.patch" |
			git -C "$t" config --file "$(git -C "$t" rev-parse --git-common-dir)/config" \
				"branch.$1.description" "$(cat)"
	fi
	# The version of the posting ("[PATCH v2 00/10]"), for export.sh.
	local v cfg fixes deps later l k
	cfg=$(git -C "$t" rev-parse --git-common-dir)/config
	# The fixes posted on their own, in order (series lines
	# fixes/<name>/...): export.sh writes the first commits there.
	git -C "$t" config --file "$cfg" --unset "branch.$1.fixes" || true
	fixes=$(sed -n 's|^fixes/\([^/]*\)/.*|\1|p' "$d/series" | paste -sd ' ')
	[ -z "$fixes" ] || git -C "$t" config --file "$cfg" "branch.$1.fixes" "$fixes"
	# Other people's patches the series depends on (deps/<name>/): a
	# stand-in of each, applied but never posted (export.sh writes it to
	# deps/<name>/ again, outgoing.sh skips it)
	git -C "$t" config --file "$cfg" --unset "branch.$1.deps" || true
	deps=$(sed -n 's|^deps/\([^/]*\)/.*|\1|p' "$d/series" | uniq | paste -sd ' ')
	[ -z "$deps" ] || git -C "$t" config --file "$cfg" "branch.$1.deps" "$deps"
	# The postings that follow the series (later/<name>/), the text of
	# their cover letters and their subject prefix ("RFC PATCH")
	for k in $(git -C "$t" config --file "$cfg" --name-only --get-regexp "^branch\.$1\.(cover|prefix)-" || true); do
		git -C "$t" config --file "$cfg" --unset "$k"
	done
	git -C "$t" config --file "$cfg" --unset "branch.$1.later" || true
	later=$(sed -n 's|^later/\([^/]*\)/.*|\1|p' "$d/series" | uniq | paste -sd ' ')
	[ -z "$later" ] || git -C "$t" config --file "$cfg" "branch.$1.later" "$later"
	for l in $later; do
		"$ROOT/scripts/cover.sh" read "$d/later/$l/0000-cover-letter.patch" |
			git -C "$t" config --file "$cfg" "branch.$1.cover-$l" "$(cat)"
		k=$(sed -n 's/^Subject: \[\(.*\)PATCH.*/\1/p' "$d/later/$l/0000-cover-letter.patch")
		[ -z "$k" ] || git -C "$t" config --file "$cfg" "branch.$1.prefix-$l" "${k}PATCH"
	done
	git -C "$t" config --file "$cfg" --unset "branch.$1.reroll" || true
	v=$(sed -n 's/^Subject: \[PATCH v\([0-9]*\) .*/\1/p' "$d/0000-cover-letter.patch" 2>/dev/null || true)
	[ -z "$v" ] || git -C "$t" config --file "$cfg" "branch.$1.reroll" "$v"
}

# Once WORK exists, the tree must be on it: a developer on another
# branch, or in a rebase, is never switched away from it.
state=$(series_state "$t" "$d")
[ "$state" = none ] || on_work "$t"
case "$state" in
unexported)
	note "branch $WORK has commits that are not in $(basename "$d"); building it as it is (make export to save them)"
	exit 0 ;;
current)
	exit 0 ;;
esac

note "applying series/$(basename "$d") ($(series_patches "$d" | grep -vc '/0000-' || true) patches) to branch $WORK"
apply_to "$WORK"
record_series "$t" "$d"
