#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the emulated SPE costs: the guest time of one fixed workload
# (sort and checksum 300000 numbers, in the Debian rootfs) on the patched
# Image, with no SPE (-cpu max), with SPE on but idle, under
# "perf record -e task-clock" (perf's own cost: a software event, the
# emulated unit idle), under "perf record -e arm_spe// -c 1048576" (the
# unit counts every instruction but samples rarely: the cost of the
# counting) and under "perf record -e arm_spe//" at perf's default
# interval; printed as guest milliseconds and as ratios to the first,
# one boot each, and the arm_spe runs over the task-clock one: what the
# emulated unit adds to perf's own cost.  The guest
# clock is QEMU's virtual clock, which follows the host's without
# -icount.  Needs the Image, our QEMU and the rootfs (make image qemu
# rootfs).
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
sw=$(guest_ms bare "perf record -q -e task-clock -o /tmp/p.data -- sh -c '$work'")
cnt=$(guest_ms bare "perf record -q -e arm_spe// -c 1048576 -o /tmp/p.data -- sh -c '$work'")
rec=$(guest_ms bare "perf record -q -e arm_spe// -o /tmp/p.data -- sh -c '$work'")
if [ -z "$off" ] || [ -z "$idle" ] || [ -z "$sw" ] || [ -z "$cnt" ] || [ -z "$rec" ]; then
	die "a run printed no time"
fi
echo "qemu-spe bench ($NAME, $(basename "$QEMU_DIR")): guest ms: spe off $off, spe on idle $idle, perf record task-clock $sw, perf record arm_spe// -c 1048576 $cnt, perf record arm_spe// $rec"
awk -v o="$off" -v i="$idle" -v s="$sw" -v c="$cnt" -v r="$rec" 'BEGIN {
	printf "qemu-spe bench: ratio to spe off: idle %.2f, perf task-clock %.2f, perf arm_spe// -c 1048576 %.2f, perf arm_spe// %.2f\n", i / o, s / o, c / o, r / o
	printf "qemu-spe bench: over perf task-clock: arm_spe// -c 1048576 %.2f (counting), arm_spe// %.2f (counting and sampling)\n", c / s, r / s }'
