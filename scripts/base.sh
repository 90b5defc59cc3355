#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Get the base kernel tree and tag it "base".
#  - default: Debian's linux-source package of BASE (7.3 or 6.12.y, see
#    lib.sh), fetched with a private apt configuration, unpacked under
#    build/linux-BASE, imported into git with a fixed identity, tagged;
#  - KSRC=/path/to/linux [BASE=v6.16]: a git worktree of that tree at BASE.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t=$(ktree)
if [ -d "$t/.git" ] || [ -f "$t/.git" ]; then
	if have=$(git -C "$t" rev-parse -q --verify "refs/tags/$BASE_TAG^{commit}"); then
		# A worktree of the user's tree is named for the base's name
		# (lib.sh: NAME), which two revisions can share.
		if [ -n "${KSRC:-}" ] && [ "$(git -C "$KSRC" rev-parse -q --verify "${BASE:-HEAD}^{commit}")" != "$have" ]; then
			die "$t is the worktree of $have, not of BASE=${BASE:-HEAD}; remove it first (git -C $KSRC worktree remove $t)"
		fi
		exit 0
	fi
fi
mkdir -p "$BUILD"

if [ -n "${KSRC:-}" ]; then
	[ -d "$KSRC" ] || die "KSRC=$KSRC is not a directory"
	rev=$(git -C "$KSRC" rev-parse --verify "${BASE:-HEAD}^{commit}") ||
		die "BASE=${BASE:-HEAD} is not a commit in $KSRC"
	note "worktree of $KSRC at ${BASE:-HEAD} ($rev) in $t"
	git -C "$KSRC" worktree add --detach "$t" "$rev"
	git -C "$t" tag -f "$BASE_TAG" "$rev" >/dev/null
	exit 0
fi

pkg=$(base_pkg "$BASE")
deb=$(base_deb "$BASE")
debver=$(dpkg-deb -f "$deb" Version)
note "unpacking $(basename "$deb") into $t"
tmp=$BUILD/unpack.$$
rm -rf "$tmp"
mkdir -p "$tmp"
dpkg-deb --fsys-tarfile "$deb" | tar -C "$tmp" -xf - --wildcards './usr/src/linux-source-*.tar.xz'
tar -C "$tmp" -xf "$tmp"/usr/src/linux-source-*.tar.xz
rm -rf "$t"
mv "$tmp"/linux-source-*/ "$t"
rm -rf "$tmp"
v=$(make -s -C "$t" kernelversion)
git_import "$t" "Linux $v (Debian $pkg)"
git -C "$t" tag "$BASE_TAG"
echo "$debver" >"$t/.git/debian-version"
note "base tree $v (Debian $pkg $debver) at $(git -C "$t" rev-parse --short "$BASE_TAG")"
