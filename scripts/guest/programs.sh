#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build what runs inside the QEMU guests, for the tree of BASE (lib.sh:
# ktree) on branch WORK.  "make guest" runs this.
#
#   scripts/guest/programs.sh [init|tests|all]      (default all)
#
# Output, in the layout of the initramfs (scripts/boot.sh packs from it
# with scripts/guest/initramfs.sh):
#   build/guest/init                      guest/init.c, the one /init
#   build/guest/tests/perf-spe-cap        guest/tests/perf-spe-cap
#   build/guest/tests/perf-spe-record     guest/tests/perf-spe-record
#   build/guest/tests/spe-pad-overflow    guest/tests/spe-pad-overflow
#   build/guest/kvm-spin                  guest/kvm-spin, a KVM guest for
#                                         the Debian rootfs' kvm-host-test
#   build/guest/<name>/tests/arm_spe_buffer  the tree's kselftest
#                                         (scripts/guest/kselftest.sh)
#   build/guest/<name>/bin/perf           the tree's perf tool
#                                         (scripts/guest/perf.sh)
# "init" builds only the first, "tests" only the next four (neither needs a
# kernel tree).  A tree that is not on branch WORK, or has no kselftest
# or perf of the series, is an error: the guest would run something else
# than the series.
#
# The Debian arm64 root filesystem with a shell and a full perf is
# scripts/guest/rootfs.sh ("make rootfs").
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

here=$ROOT/guest
out=$BUILD/guest
what=${1:-all}
mkdir -p "$out/tests"

# cc OUT SRC [FLAGS]: a static arm64 program, rebuilt when its source is
# newer
cc() {
	local o=$1 src=$2
	shift 2
	if [ ! -x "$o" ] || [ "$src" -nt "$o" ]; then
		"${CROSS_COMPILE}gcc" -static -O2 -Wall -Wextra -Werror "$@" -o "$o.tmp" "$src" ||
			die "cannot build $src"
		mv "$o.tmp" "$o"
		note "built $o"
	fi
}

case "$what" in
init | tests | all) ;;
*) die "usage: $0 [init|tests|all]" ;;
esac

if [ "$what" != tests ]; then
	cc "$out/init" "$here/init.c"
fi
if [ "$what" != init ]; then
	cc "$out/tests/perf-spe-cap" "$here/tests/perf-spe-cap/perf-spe-cap.c"
	cc "$out/tests/perf-spe-record" "$here/tests/perf-spe-record/perf-spe-record.c"
	cc "$out/tests/spe-pad-overflow" "$here/tests/spe-pad-overflow/spe-pad-overflow.c"
	cc "$out/kvm-spin" "$here/kvm-spin/kvm-spin.c"
fi
[ "$what" = all ] || exit 0

t=$(work_ktree)
"$ROOT/scripts/guest/kselftest.sh" "$t"
"$ROOT/scripts/guest/perf.sh" "$t"
mkdir -p "$out/$NAME/tests" "$out/$NAME/bin"
ln -f "$BUILD/kselftest-$NAME/arm_spe_buffer" "$out/$NAME/tests/arm_spe_buffer"
ln -f "$BUILD/perf-$NAME/perf" "$out/$NAME/bin/perf"
note "guest binaries for $NAME ($(git -C "$t" describe --always HEAD)): $out/$NAME"
