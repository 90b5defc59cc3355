#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the patched Image in Debian's QEMU, -cpu max without SPE: the KUnit suite
# runs at boot; the kselftest and the perf tool test run from the
# initramfs (the kselftest skips: no SPE).
# Needs: the patched Image (scripts/build.sh work) and the guest binaries
# (guest/build.sh, "make guest"); both are made here when missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree_names

image=$(need_image work)
"$ROOT/guest/build.sh" >&2 || die "guest/build.sh failed"

g=$BUILD/guest
"$ROOT/scripts/boot.sh" --qemu debian --kunit \
	--test "$g/$tb/tests/arm_spe_buffer" --test "$g/tests/perf-spe-cap" \
	--file "$g/$tb/bin/perf:/bin/perf" "qemu-$name" "$image"
