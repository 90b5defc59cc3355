#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the SPE kselftest (tools/testing/selftests/perf_events/arm_spe_buffer.c)
# of a kernel tree as a static arm64 binary, against that tree's own uapi
# headers.
#
#   guest/kselftest-build.sh <kernel tree>
#
# Output: build/kselftest-<tree name>/arm_spe_buffer.  The headers are exported with O=
# under build/kselftest-hdr/<tree name>, so the tree itself stays clean.
# The official way builds too (all perf_events tests, dynamically linked):
#   make -C <tree> O=<dir> ARCH=arm64 headers
#   make -C <tree>/tools/testing/selftests O=<dir> TARGETS=perf_events \
#        ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $0 <kernel tree>"
tree=$(cd "$1" && pwd) || die "$1: no such directory"
test=arm_spe_buffer
src=$tree/tools/testing/selftests/perf_events/$test.c
[ -f "$src" ] || die "$src: missing (is the kselftest patch applied?)"

hdr=$BUILD/kselftest-hdr/$(basename "$tree")
out=$BUILD/kselftest-$(basename "$tree")
mkdir -p "$hdr" "$out"

make -s -C "$tree" O="$hdr" ARCH=arm64 headers
"${CROSS_COMPILE}gcc" -static -O2 -Wall -isystem "$hdr/usr/include" \
	-o "$out/$test" "$src"
note "built $out/$test"
