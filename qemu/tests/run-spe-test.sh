#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel on qemu-system-aarch64 with emulated SPE and the tiny
# spe-init test as /init; print its RESULT lines and QEMU's SPE counters.
#
# usage: run-spe-test.sh [-k Image] [-q qemu] [-m bare|den0154|r24557]
#                        [-c "extra,cpu,props"] [-a "kernel args"]
#                        [-t timeout_s] [-e storm]
#
#   -e storm   the kernel is expected to storm (unpatched driver with
#              -m den0154): the guest reports it from CPU 0, and the host
#              checks QEMU's irq_serviced counter.
#
# Output: the guest's "RESULT ..." lines, the "qemu-spe:" counter lines
# and "RESULT pass|fail qemu-spe-host-<mode>" from the host-side check.

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
KERNEL=$BUILD/kout-qemu/arch/arm64/boot/Image
QEMU=$BUILD/qemu/qemu-system-aarch64
MODE=bare
CPUX=
KARGS=
TIMEOUT=120
EXPECT=

while getopts "k:q:m:c:a:t:e:" o; do
	case $o in
	k) KERNEL=$OPTARG ;;
	q) QEMU=$OPTARG ;;
	m) MODE=$OPTARG ;;
	c) CPUX=,$OPTARG ;;
	a) KARGS=$OPTARG ;;
	t) TIMEOUT=$OPTARG ;;
	e) EXPECT=$OPTARG ;;
	*) sed -n 5,18p "$0"; exit 2 ;;
	esac
done

W=$BUILD/qemu-spe-test
mkdir -p "$W/root"
if [ ! -x "$W/root/init" ] || [ "$HERE/spe-init.c" -nt "$W/root/init" ]; then
	aarch64-linux-gnu-gcc -static -O2 -Wall -o "$W/root/init" "$HERE/spe-init.c" ||
		exit 1
	(cd "$W/root" && echo init | cpio -o -H newc --quiet) > "$W/initramfs.cpio"
fi

[ -n "$EXPECT" ] && KARGS="$KARGS spetest.expect=$EXPECT"
LOG=$W/run-$(basename "$KERNEL")-$MODE${EXPECT:+-$EXPECT}.log

timeout -s TERM "$TIMEOUT" "$QEMU" -M "virt,gic-version=${GIC:-3}" \
	-cpu "max,spe=on,spe-mode=$MODE$CPUX" -smp 2 -m 512 \
	-nographic -no-reboot -nic none \
	-kernel "$KERNEL" -initrd "$W/initramfs.cpio" \
	-append "console=ttyAMA0 kpti=off panic=-1 rdinit=/init $KARGS" \
	> "$LOG" 2>&1
rc=$?
tr -d '\r' < "$LOG" | grep -E '^(RESULT|SPE-IRQS|qemu-spe:|decode:|aux:|  PC|dmesg:|child|arm_spe|caps)' 
[ $rc -eq 124 ] && echo "qemu: timed out after ${TIMEOUT}s"

# Host-side check from QEMU's own counters (printed at exit).
serviced=$(tr -d '\r' < "$LOG" | sed -n 's/^qemu-spe: .* irq_serviced=\([0-9]*\).*/\1/p' |
	   awk '{s += $1} END {print s + 0}')
records=$(tr -d '\r' < "$LOG" | sed -n 's/^qemu-spe: .* records=\([0-9]*\).*/\1/p' |
	  awk '{s += $1} END {print s + 0}')
echo "host: irq_serviced=$serviced records=$records"
if [ "$EXPECT" = storm ]; then
	[ "$serviced" -gt 100000 ] && r=pass || r=fail
else
	[ "$records" -gt 0 ] && [ "$serviced" -lt 100000 ] && r=pass || r=fail
fi
echo "RESULT $r qemu-spe-host-$MODE${EXPECT:+-$EXPECT}"
