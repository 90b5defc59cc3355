#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot an arm64 kernel with the stand-alone perf-spe-cap initramfs (see
# build.sh), print the test's TAP output and one RESULT line per case.
#
#   tests/perf-spe-cap/run-qemu.sh KERNEL_IMAGE [INITRAMFS]
#
# Exit status 0 when every case passed.  QEMU=... picks the emulator
# (default: Debian's qemu-system-aarch64; the test needs no SPE).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

kernel=${1:?usage: $0 KERNEL_IMAGE [INITRAMFS]}
initrd=${2:-$BUILD/perf-spe-cap/initramfs.cpio.gz}
qemu=${QEMU:-qemu-system-aarch64}
log=$BUILD/perf-spe-cap/console.log

timeout 600 "$qemu" -M virt -cpu max -smp 2 -m 1G -nographic -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyAMA0 kpti=off panic=-1 quiet" >"$log" 2>&1 || true
tr -d '\r' <"$log" >"$log.txt"

# The TAP document, as the test printed it
sed -n '/^TAP version/,/^perf-spe-cap: exit/p' "$log.txt"

rc=1
grep -q '^perf-spe-cap: exit 0$' "$log.txt" && rc=0
grep -E '^(not )?ok [0-9]+ ' "$log.txt" | while read -r line; do
	name=$(echo "$line" | sed -E 's/^(not )?ok [0-9]+ ([^ #]+).*/\2/')
	case "$line" in
	not*) result fail "perf-spe-cap.$name" ;;
	*"# SKIP"*) result skip "perf-spe-cap.$name" ;;
	*) result pass "perf-spe-cap.$name" ;;
	esac
done
if ! grep -q '^perf-spe-cap: exit' "$log.txt"; then
	echo "perf-spe-cap: the guest did not finish, see $log" >&2
	result fail perf-spe-cap.boot
fi
exit $rc
