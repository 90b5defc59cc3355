#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the patched Image (scripts/build.sh) in Debian's QEMU,
# -cpu max without SPE: the KUnit suite runs at boot; the kselftest and
# the perf tool test run from the initramfs (the kselftest skips: no SPE).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

t=$(ktree)
name=$(basename "$(series_dir "$t")")
image=$BUILD/images/$name-Image
"$ROOT/scripts/build.sh" work >&2

args=(--kunit)
"$ROOT/scripts/kselftest-build.sh" "$t" >&2
for f in "$BUILD/kselftest-$(basename "$t")"/*; do
	[ -x "$f" ] && args+=(--test "$f")
done
# The perf tool of branch work, and its test with a faked arm_spe_0
"$ROOT/scripts/perf-build.sh" "$t" >&2
"$ROOT/tests/perf-spe-cap/build.sh" >&2
args+=(--file "$BUILD/perf-$(basename "$t")/perf:/bin/perf")
args+=(--test "$BUILD/perf-spe-cap/perf-spe-cap")
"$ROOT/scripts/boot.sh" "${args[@]}" "qemu-$name" "$image"
