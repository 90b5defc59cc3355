#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configure a kernel tree for the QEMU boot test: allnoconfig plus
# config/qemu.config, then check that every option of the fragment that
# exists in this tree ended up as asked.
#   scripts/kconfig.sh [TREE]    (default: the patched tree)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t=${1:-$(ktree)}
o=$(kernel_objdir "$t")
frag=$ROOT/config/qemu.config
mkdir -p "$o"
# Only reconfigure when the fragment or the tree's Kconfig files changed.
stamp=$o/.qemu-config.stamp
want=$( (cat "$frag"; git -C "$t" rev-parse HEAD:drivers/perf HEAD:arch/arm64) | sha1sum)
if [ -f "$o/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	exit 0
fi
kmake "$t" -s KCONFIG_ALLCONFIG="$frag" allnoconfig
bad=0
# Every symbol this tree's Kconfig files define, read once (one git grep
# per option took half a minute a patch in checks/series.sh).
syms=$(git -C "$t" grep -h '^config ' HEAD -- '*Kconfig*' | sed 's/^config //; s/[[:space:]]*$//' | sort -u)
while IFS= read -r line; do
	case "$line" in CONFIG_*=*) ;; *) continue ;; esac
	sym=${line%%=*}
	# Options this tree does not have (e.g. the KUnit test before its
	# patch) are skipped; anything else must match.
	grep -qxF "${sym#CONFIG_}" <<<"$syms" || continue
	grep -qx "$line" "$o/.config" || { echo "config: $line not set"; bad=1; }
done <"$frag"
[ $bad = 0 ] || die "config fragment not applied"
echo "$want" >"$stamp"
