#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the arm64 Image of branch "work" (the series applied) with the
# boot-test configuration, and say where it is.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t=$(ktree)
name=$(basename "$(series_dir "$t")")
o=$(kout "$t")
git -C "$t" checkout -q "$WORK"
"$ROOT/scripts/kconfig.sh"
kmake "$t" Image
mkdir -p "$BUILD/images"
cp "$o/arch/arm64/boot/Image" "$BUILD/images/$name-Image"
grep -q '^CONFIG_ARM_SPE_PMU=y' "$o/.config" || die "ARM_SPE_PMU is not built in"
note "patched kernel ($(git -C "$t" describe --always "$WORK"), series/$name): $BUILD/images/$name-Image"
