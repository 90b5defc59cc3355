#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the patched Image (built by the series stage) in Debian's QEMU,
# -cpu max without SPE: the KUnit suite runs at boot; the kselftest and
# the perf tool test run from the initramfs (the kselftest skips: no SPE).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

t=$(ktree)
name=$(basename "$(series_dir "$t")")
image=$BUILD/images/$name-Image
[ -f "$image" ] || die "no patched Image ($image): the series stage failed"

args=(--kunit)
if [ -x "$ROOT/scripts/kselftest-build.sh" ]; then
	"$ROOT/scripts/kselftest-build.sh" "$t" >&2
	for f in "$BUILD"/kselftest/*; do
		[ -x "$f" ] && args+=(--test "$f")
	done
fi
if [ -x "$ROOT/scripts/perf-build.sh" ] && [ -d "$ROOT/tests/perf-spe-cap" ]; then
	"$ROOT/scripts/perf-build.sh" "$t" >&2
	make -s -C "$ROOT/tests/perf-spe-cap" O="$BUILD/perf-spe-cap" >&2
	args+=(--file "$BUILD/perf-$(basename "$t")/perf:/bin/perf")
	args+=(--test "$BUILD/perf-spe-cap/perf-spe-cap")
fi
"$ROOT/scripts/boot.sh" "${args[@]}" "qemu-$name" "$image"
