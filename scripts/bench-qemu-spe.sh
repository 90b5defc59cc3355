#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the emulated SPE costs: the guest time of one fixed workload
# (sort and checksum 300000 numbers, in the Debian rootfs) on the patched
# Image, with no SPE (-cpu max), with SPE on but idle, and under
# "perf record -e arm_spe//" at perf's default interval; printed as guest
# milliseconds and as ratios to the first, one boot each.  The guest
# clock is QEMU's virtual clock, which follows the host's without -icount.
# Needs the Image, our QEMU and the rootfs (make image qemu rootfs).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

work='seq 1 300000 | sort -rn | md5sum >/dev/null'
# guest_ms MODE CMD: the workload's guest time in ms, run as CMD
guest_ms() {
	local out
	out=$("$ROOT/scripts/guest.sh" --mode "$1" -- \
		"s=\$(date +%s%N); $2; e=\$(date +%s%N); echo bench-ms \$(((e - s) / 1000000))") ||
		die "guest run ($1) failed: $out"
	echo "$out" | sed -n 's/^bench-ms //p' | tail -n1
}

off=$(guest_ms off "$work")
idle=$(guest_ms bare "$work")
rec=$(guest_ms bare "perf record -q -e arm_spe// -o /tmp/p.data -- sh -c '$work'")
if [ -z "$off" ] || [ -z "$idle" ] || [ -z "$rec" ]; then
	die "a run printed no time"
fi
echo "qemu-spe bench ($NAME, $(basename "$QEMU_DIR")): guest ms: spe off $off, spe on idle $idle, perf record arm_spe// $rec"
awk -v o="$off" -v i="$idle" -v r="$rec" 'BEGIN {
	printf "qemu-spe bench: ratio to spe off: idle %.2f, sampling %.2f\n", i / o, r / o }'
