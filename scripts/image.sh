#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the arm64 Image of the patched tree, or of the patched tree with
# the base's drivers, with the boot-test configuration (config/qemu.config):
#   scripts/image.sh [work]   branch work: build/images/<name>-Image
#   scripts/image.sh base     the unpatched drivers:
#                             build/images/<name>-base-Image
# The only producer of build/images/.  When the tree is clean and its
# commit, configuration and compiler are those of the last build, make is
# not run at all (a no-op kernel make walks the whole tree: half a minute
# here).
#
# The base Image is the negative controls' kernel (checks/qemu-spe.sh,
# checks/padding.sh): every file under drivers/ as at BASE_TAG, the rest
# of the tree as on branch work.  It is built from a copy of the patched
# build's objects, in the same tree (Kbuild names the source tree in
# every command, so another checkout would rebuild all of it): the
# driver files are swapped for the base's, built, and put back as they
# were, contents and times, so the patched build sees no change.  Only
# the drivers and the SPE register definitions may differ from the base,
# which this checks: a series that changes other kernel code is refused
# (its base kernel would not be the base).  A swap that was interrupted
# is put back by the next run of any script that checks the tree
# (lib.sh: on_work).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

which=${1:-work}
t=$(ktree)
git -C "$t" rev-parse -q --verify "refs/heads/$WORK" >/dev/null ||
	die "no branch $WORK in $t: run scripts/apply.sh"
on_work "$t"
case "$which" in
work) o=$(kernel_objdir "$t") ;;
base) o=$(kernel_objdir "$t")-base ;;
*) die "usage: $0 [work|base]" ;;
esac
img=$(image_path "$which")

clean() { [ -z "$(git -C "$t" status --porcelain --untracked-files=no)" ]; }
stamp=$o/.image.stamp
fresh() { clean && [ -f "$img" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$1" ]; }

if [ "$which" = work ]; then
	"$ROOT/scripts/kconfig.sh" "$t"
	key=$( (git -C "$t" rev-parse HEAD; cat "$o/.config"; "${CROSS_COMPILE}gcc" --version | head -n1) |
		sha1sum | cut -c1-40)
	if fresh "$key"; then
		note "work kernel ($(git -C "$t" describe --always HEAD)): $img, up to date"
		exit 0
	fi
	rm -f "$stamp"
	was_clean=no
	clean && was_clean=yes
	kmake "$t" Image
else
	"$0" work >&2
	# The series' kernel changes outside drivers/: register definitions only
	other=$(git -C "$t" diff --name-only "$BASE_TAG" "$WORK" -- . ':!drivers/' \
		':!Documentation/' ':!tools/' ':!MAINTAINERS' \
		':!arch/arm64/tools/sysreg' ':!arch/arm64/include/asm/sysreg.h')
	[ -z "$other" ] || die "the series changes kernel code outside drivers/ (${other//$'\n'/ }): the base Image would keep it"
	ow=$(kernel_objdir "$t")
	key=$( (git -C "$t" rev-parse HEAD "$BASE_TAG^{commit}"; cat "$ow/.image.stamp" 2>/dev/null) |
		sha1sum | cut -c1-40)
	if fresh "$key"; then
		note "base kernel (drivers/ at $BASE_TAG): $img, up to date"
		exit 0
	fi
	was_clean=no
	clean && was_clean=yes
	rm -rf "$o"
	cp -a "$ow" "$o"
	rm -f "$stamp"
	trap 'swap_back "$t"' EXIT
	trap 'exit 130' INT TERM
	swap_drivers "$t" "$BASE_TAG" "$WORK"
	kmake "$t" --objdir "$o" olddefconfig Image
	swap_back "$t"
	trap - EXIT
fi
grep -q '^CONFIG_ARM_SPE_PMU=y' "$o/.config" || die "ARM_SPE_PMU is not built in"
mkdir -p "$BUILD/images"
cp "$o/arch/arm64/boot/Image" "$img.tmp"
mv "$img.tmp" "$img"
# Only a build of committed sources may be reused.
[ $was_clean = yes ] && clean && echo "$key" >"$stamp"
note "$which kernel ($(git -C "$t" describe --always HEAD), series/$NAME$([ "$which" = work ] || echo ", drivers/ at $BASE_TAG")): $img"
