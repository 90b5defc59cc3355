#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the perf_events kselftests of a kernel tree for arm64, against that
# tree's own uapi headers:
#  - the SPE kselftest (arm_spe_buffer.c) as a static binary, for the small
#    initramfs of scripts/guest/programs.sh;
#  - every test of tools/testing/selftests/perf_events the official way
#    (its Makefile and lib.mk, dynamically linked), for the Debian rootfs
#    of scripts/guest/rootfs.sh.
#
#   scripts/guest/kselftest.sh <kernel tree>
#
# Output: build/kselftest-<tree name>/arm_spe_buffer and
# build/kselftest-<tree name>/perf_events/ (the programs of TEST_GEN_PROGS,
# listed in its file "tests").  The headers are exported with O= under
# build/kselftest-hdr/NAME (the base's name, scripts/lib.sh), so the tree itself stays clean.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

[ $# -eq 1 ] || die "usage: $0 <kernel tree>"
tree=$(cd "$1" && pwd) || die "$1: no such directory"
test=arm_spe_buffer
dir=$tree/tools/testing/selftests/perf_events
src=$dir/$test.c
[ -f "$src" ] || die "$src: missing (is the kselftest patch applied?)"

hdr=$BUILD/kselftest-hdr/$NAME
out=$BUILD/kselftest-$NAME
mkdir -p "$hdr" "$out/perf_events"

make -s -C "$tree" O="$hdr" ARCH=arm64 headers
"${CROSS_COMPILE}gcc" -static -O2 -Wall -isystem "$hdr/usr/include" \
	-o "$out/$test" "$src"
note "built $out/$test"

# OUTPUT= keeps the objects out of the tree; KHDR_INCLUDES is what the
# selftests' top Makefile would pass
make -s -C "$dir" ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE" \
	OUTPUT="$out/perf_events" KHDR_INCLUDES="-isystem $hdr/usr/include"
make -s -C "$dir" OUTPUT="$out/perf_events" -f - list <<'MK' >"$out/perf_events/tests"
include Makefile
list:
	@printf '%s\n' $(notdir $(TEST_GEN_PROGS))
MK
while read -r p; do
	[ -x "$out/perf_events/$p" ] || die "perf_events: $p was not built"
done <"$out/perf_events/tests"
note "built $out/perf_events: $(tr '\n' ' ' <"$out/perf_events/tests")"
