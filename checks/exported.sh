#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series folder must be exactly what scripts/export.sh makes of
# branch "work": patches are edited in the tree and exported, never by
# hand.  Each fix posting (fixes/<name>/) must also apply alone, with
# git am, onto the base: it goes to its own tree, without the others.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

t=$(ktree)
d=$(series_dir)
name=$(basename "$d")
if [ -z "$(series_patches "$d")" ]; then
	result skip "export/$name: the folder has no patches"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ROOT/scripts/export.sh" "$tmp" >/dev/null
if diff -ru -x README.md "$d" "$tmp" >"$BUILD/export-$name.diff"; then
	result pass "export/$name: folder matches an export of branch work"
else
	result fail "export/$name: folder differs from an export of branch work (see build/export-$name.diff)"
fi
# The control: the same comparison must see one changed byte.
cp -r "$tmp" "$tmp.ctl"
first=$(series_patches "$tmp.ctl" | head -n1)
sed -i '0,/^+/s/^+/+ /' "$first"
if diff -ru -x README.md "$d" "$tmp.ctl" >/dev/null; then
	result fail "export/$name: control: a changed line in $(basename "$first") goes unseen"
else
	result pass "export/$name: control: a changed line in $(basename "$first") is seen"
fi
rm -rf "$tmp.ctl"

# Each fix alone onto the base: what git am does, git apply against the
# index of the base, in a scratch index (a worktree of a kernel tree takes
# a minute to check out)
for p in $(series_patches "$d" | grep '/fixes/' || true); do
	f=${p#"$d"/}
	GIT_INDEX_FILE=$tmp/index git -C "$t" read-tree "$BASE_TAG"
	if GIT_INDEX_FILE=$tmp/index git -C "$t" apply --cached "$p" \
		>"$BUILD/export-$name-alone.log" 2>&1; then
		result pass "export/$name: $f applies alone to the base"
		# the control: the same patch again, on top of itself
		if GIT_INDEX_FILE=$tmp/index git -C "$t" apply --cached "$p" >/dev/null 2>&1; then
			result fail "export/$name: control: $f applies twice over: the test cannot fail"
		else
			result pass "export/$name: control: $f does not apply on top of itself"
		fi
	else
		result fail "export/$name: $f does not apply alone to the base (see build/export-$name-alone.log)"
	fi
done
