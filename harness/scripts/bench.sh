#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Per buffer-full interrupt costs of base and work, side by side.
set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
TREE=${TREE:-$HERE/../build/linux}
O=${O:-$HERE/../build/harness}
first=1
for rev in base work; do
	git -C "$TREE" rev-parse -q --verify "$rev^{commit}" >/dev/null || continue
	make -s -C "$HERE" TREE="$TREE" REV="$rev" O="$O" >/dev/null
	if [ $first = 1 ]; then
		"$O/$rev/main" -r "$rev" -b | grep -v '^min'
		first=0
	else
		"$O/$rev/main" -r "$rev" -b | sed 1d
	fi
done
