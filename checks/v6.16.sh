#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Checks of series/v6.16, which has no tree of its own here (see its
# README.md):
#  - every pre-image blob named by the patches' index lines is the v6.16
#    blob the README's table lists for that file (or 0 for a new file);
#  - with the v6.16 files at hand (V616_FILES=DIR, default
#    build/v6.16-files, each file checked against the table): a stand-in
#    tree, the 7.3 base with those files, gets the series with git am -3;
#    every patch passes checkpatch.pl --strict there, and the folder must
#    be what scripts/export.sh makes of it.
#  - without them: checkpatch.pl --strict of every patch in the 7.3 tree
#    with series/7.3 applied, and the git am part is a skip.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

d=$ROOT/series/v6.16
readme=$d/README.md
files=${V616_FILES:-$BUILD/v6.16-files}
t73=$BUILD/linux-7.3
wt=$CHECK_DIR/v6.16-standin
log=$BUILD/check-v6.16

# Everything the verdict depends on; the same inputs are not checked
# twice (lib.sh: cached).
if [ -z "${V616_RUN:-}" ]; then
	key=$( (tool_key checks/v6.16.sh checks/exported.sh scripts/export.sh scripts/apply.sh scripts/cover.sh
		git -C "$t73" rev-parse base 2>/dev/null || true
		find "$d" "$ROOT/series/7.3" -type f | LC_ALL=C sort | xargs cat
		if [ -d "$files" ]; then find "$files" -type f | sort | xargs cat; fi) |
		sha1sum | cut -c1-40)
	V616_RUN=1 cached v6.16 "$key" "$0"
	exit
fi
mkdir -p "$log"
rm -f "$log"/*
mapfile -t patches < <(series_patches "$d" | grep -v '/0000-')
[ ${#patches[@]} -gt 0 ] || die "series/v6.16 has no patches"

# The README's table: | `path` | `blob` | ...
declare -A blob
# shellcheck disable=SC2016 # backquotes of Markdown, not a command
while read -r f b; do
	blob[$f]=$b
done < <(sed -n 's/^| `\([^`]*\)` | `\([0-9a-f]\{40\}\)` |.*/\1 \2/p' "$readme")
[ ${#blob[@]} -gt 0 ] || die "no blob table in $readme"

# 1. Pre-images: the first index line of each file in the series.
# pre_images PATCH...: print a line for each first pre-image that is not
# the table's blob; the status says whether there was one.  The files
# checked go to $log/checked.
pre_images() {
	local p f pre bad=0
	local -A seen=()
	: >"$log/checked"
	for p in "$@"; do
		while read -r f pre; do
			[ -n "${seen[$f]:-}" ] && continue
			seen[$f]=1
			if [[ $pre =~ ^0+$ ]]; then
				continue
			elif [ -z "${blob[$f]:-}" ]; then
				echo "$f: not in the README's table"
				bad=1
			elif [ "${blob[$f]:0:${#pre}}" != "$pre" ]; then
				echo "$f: index names $pre, v6.16 has ${blob[$f]}"
				bad=1
			else
				echo "$f $pre" >>"$log/checked"
			fi
		done < <(awk '/^diff --git/ { f = substr($3, 3) } /^index / { split($2, a, /\.\./); print f, a[1] }' "$p")
	done
	return $bad
}
# The control first: the first patch with its first pre-image changed.
sed '0,/^index \([0-9a-f]*\)\.\./s//index 0123456789ab../' "${patches[0]}" >"$log/control.patch"
if pre_images "$log/control.patch" >/dev/null; then
	result fail "v6.16: control: an index line naming 0123456789ab passes"
else
	result pass "v6.16: control: an index line naming 0123456789ab is caught"
fi
if pre_images "${patches[@]}" >"$log/index"; then
	n=$(grep -c ' ' "$log/checked" || true)
	result pass "v6.16: index lines name the v6.16 blobs of the $n files the series changes"
else
	result fail "v6.16: index lines (see $log/index)"
fi

# 2. The v6.16 files, if any, must be exact.
have=1
for f in "${!blob[@]}"; do
	if [ ! -f "$files/$f" ]; then
		have=0
	elif [ "$(git hash-object "$files/$f")" != "${blob[$f]}" ]; then
		result fail "v6.16: $files/$f is not the v6.16 blob ${blob[$f]}"
		have=0
	fi
done

[ -d "$t73/.git" ] || die "no 7.3 tree ($t73): run the 7.3 stages first"
mkdir -p "$CHECK_DIR"
git -C "$t73" worktree prune
if [ ! -e "$wt/.git" ]; then
	git -C "$t73" worktree add -q --detach "$wt" base
fi

checkpatch_all() {
	local p pn n fail=0
	for p in "${patches[@]}"; do
		pn=$(basename "$p")
		checkpatch "$wt" "$p" >"$log/checkpatch.$pn"
		n=$(grep -c '^\(ERROR\|WARNING\|CHECK\|no maintainer\)' "$log/checkpatch.$pn" || true)
		[ "$n" = 0 ] || { echo "$pn: $n"; fail=1; }
	done >"$log/checkpatch"
	if [ $fail = 0 ]; then
		result pass "v6.16: checkpatch --strict on ${#patches[@]} patches ($1)"
	else
		result fail "v6.16: checkpatch --strict ($1, see $log/checkpatch)"
	fi
}

if [ $have = 0 ]; then
	git -C "$wt" checkout -q --detach work
	checkpatch_all "7.3 tree, series/7.3 applied"
	result skip "v6.16: git am -3 and export on a v6.16 stand-in (no v6.16 files in $files, see series/v6.16/README.md)"
	exit 0
fi

# 3. The stand-in: the 7.3 base with the v6.16 files, committed with the
# fixed identity, so its commit id is the same on every machine.
git -C "$wt" checkout -q -f --detach base
for f in "${!blob[@]}"; do
	cp "$files/$f" "$wt/$f"
done
git -C "$wt" add -f -- "${!blob[@]}"
env GIT_AUTHOR_NAME=base GIT_AUTHOR_EMAIL=base@localhost \
	GIT_COMMITTER_NAME=base GIT_COMMITTER_EMAIL=base@localhost \
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" \
	GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	git -C "$wt" commit -q --allow-empty -m "v6.16 stand-in: Linux 7.3 with the v6.16 copies of the files the series touches"
git -C "$wt" tag -f v6.16-standin >/dev/null

export KTREE=$wt BASE_TAG=v6.16-standin WORK=work-v6.16 SERIES=v6.16
"$ROOT/scripts/apply.sh" >"$log/apply" 2>&1 || {
	result fail "v6.16: git am on the stand-in (see $log/apply)"
	exit 0
}
# git am -3 needs the pre-image blobs: they are in the stand-in.
git -C "$wt" checkout -q --detach v6.16-standin
am3=pass
for p in "${patches[@]}"; do
	case "$(basename "$p")" in 0000-*) continue ;; esac
	git -C "$wt" -c user.name=check -c user.email=check@localhost am -q -3 "$p" \
		>>"$log/am3" 2>&1 || { am3=fail; git -C "$wt" am --abort; break; }
done
result $am3 "v6.16: git am -3 of ${#patches[@]} patches on the stand-in"
git -C "$wt" checkout -q work-v6.16
checkpatch_all "v6.16 stand-in"
BASE_COMMIT_ID=$(sed -n 's/^base-commit: //p' "$d/0000-cover-letter.patch") \
	"$ROOT/checks/exported.sh"
