#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the arm64 Image of the patched or the unpatched tree with the
# boot-test configuration (config/qemu.config):
#   scripts/image.sh [work]   branch work: build/images/<name>-Image
#   scripts/image.sh base     the base:    build/images/<name>-base-Image
# The only producer of build/images/.  Each of the two has its own
# checkout and object directory (lib.sh: checkout, kernel_objdir).  When the
# checkout is clean and its commit, configuration and compiler are those
# of the last build, make is not run at all (a no-op kernel make walks
# the whole tree: half a minute here).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

which=${1:-work}
t=$(ktree)
case "$which" in
work)
	git -C "$t" rev-parse -q --verify "refs/heads/$WORK" >/dev/null ||
		die "no branch $WORK in $t: run scripts/apply.sh"
	on_work "$t"
	w=$t
	;;
base)
	w=$(checkout base "$BASE_TAG")
	;;
*)
	die "usage: $0 [work|base]"
	;;
esac
img=$(image_path "$which")
o=$(kernel_objdir "$w")
"$ROOT/scripts/kconfig.sh" "$w"

clean() { [ -z "$(git -C "$w" status --porcelain --untracked-files=no)" ]; }
key=$( (git -C "$w" rev-parse HEAD; cat "$o/.config"; "${CROSS_COMPILE}gcc" --version | head -n1) | sha1sum | cut -c1-40)
stamp=$o/.image.stamp
if clean && [ -f "$img" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$key" ]; then
	note "$which kernel ($(git -C "$w" describe --always HEAD)): $img, up to date"
	exit 0
fi
rm -f "$stamp"
was_clean=no
clean && was_clean=yes
kmake "$w" Image
grep -q '^CONFIG_ARM_SPE_PMU=y' "$o/.config" || die "ARM_SPE_PMU is not built in"
mkdir -p "$BUILD/images"
cp "$o/arch/arm64/boot/Image" "$img.tmp"
mv "$img.tmp" "$img"
# Only a build of committed sources may be reused.
[ $was_clean = yes ] && clean && echo "$key" >"$stamp"
note "$which kernel ($(git -C "$w" describe --always HEAD), series/$NAME): $img"
