#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series folder must be exactly what scripts/export.sh makes of
# branch "work": patches are edited in the tree and exported, never by
# hand.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t=$(ktree)
d=$(series_dir "$t")
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
