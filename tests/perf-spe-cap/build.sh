#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the perf-spe-cap guest test and, with a perf binary, a stand-alone
# initramfs that runs it as /init.
#
#   tests/perf-spe-cap/build.sh [PERF]
#
# Always: build/perf-spe-cap/perf-spe-cap (static aarch64).
# With PERF (a static arm64 perf, e.g. build/perf-linux/perf from
# scripts/perf-build.sh): build/perf-spe-cap/initramfs.cpio.gz holding
#   /init      the test (powers the guest off when done)
#   /bin/perf  PERF
#   /dev/console, /proc, /sys, /dev, /tmp
# INITRAMFS=<file> writes the archive elsewhere.  To put the test in
# another initramfs instead, add the test binary and perf and run
# "perf-spe-cap /bin/perf" as root.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
out=$BUILD/perf-spe-cap
mkdir -p "$out"

bin=$out/perf-spe-cap
if [ ! -x "$bin" ] || [ "$here/perf-spe-cap.c" -nt "$bin" ]; then
	"${CROSS_COMPILE}gcc" -static -O2 -Wall -Wextra -Werror \
		-o "$bin" "$here/perf-spe-cap.c"
	note "built $bin"
fi

[ $# -ge 1 ] || exit 0
perf=$(realpath "$1")
[ -x "$perf" ] || die "no perf binary $1"

# gen_init_cpio (from any kernel tree) makes /dev/console without root.
gen=$out/gen_init_cpio
src=${KTREE:-$BUILD/linux}/usr/gen_init_cpio.c
if [ ! -x "$gen" ] || [ "$src" -nt "$gen" ]; then
	[ -f "$src" ] || die "$src missing (KTREE=<kernel tree>)"
	gcc -O2 -o "$gen" "$src"
fi

cat >"$out/initramfs.list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /tmp 1777 0 0
dir /bin 0755 0 0
file /init $bin 0755 0 0
file /bin/perf $perf 0755 0 0
file /bin/perf-spe-cap $bin 0755 0 0
EOF
img=${INITRAMFS:-$out/initramfs.cpio.gz}
"$gen" "$out/initramfs.list" | gzip -1 >"$img.tmp"
mv "$img.tmp" "$img"
note "initramfs $img (perf: $perf)"
