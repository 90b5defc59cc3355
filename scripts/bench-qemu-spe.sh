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
# emulated unit adds to perf's own cost.  Then the same off / idle /
# arm_spe// rows with the kernel as a host at EL2, VHE and nVHE.  The guest
# clock is QEMU's virtual clock, which follows the host's without
# -icount.  Needs the Image, our QEMU and the rootfs (make image qemu
# rootfs).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

work='seq 1 300000 | sort -rn | md5sum >/dev/null'
# guest_ms EL MODE CMD: the workload's guest time in ms, run as CMD with
# the kernel at EL (scripts/guest.sh --el)
guest_ms() {
	local out
	out=$("$ROOT/scripts/guest.sh" --el "$1" --mode "$2" -- \
		"s=\$(date +%s%N); $3; e=\$(date +%s%N); echo bench-ms \$(((e - s) / 1000000))") ||
		die "guest run (EL $1, $2) failed: $out"
	echo "$out" | sed -n 's/^bench-ms //p' | tail -n1
}

# One row per place the kernel runs: EL1 (a guest), EL2 with VHE and
# without (a host).  The EL1 row also has perf's own cost and the counting
# run, which the EL2 rows do not repeat.
for el in 1 vhe nvhe; do
	off=$(guest_ms "$el" off "$work")
	idle=$(guest_ms "$el" bare "$work")
	rec=$(guest_ms "$el" bare "perf record -q -e arm_spe// -o /tmp/p.data -- sh -c '$work'")
	if [ -z "$off" ] || [ -z "$idle" ] || [ -z "$rec" ]; then
		die "a run at EL $el printed no time"
	fi
	if [ "$el" = 1 ]; then
		sw=$(guest_ms 1 bare "perf record -q -e task-clock -o /tmp/p.data -- sh -c '$work'")
		cnt=$(guest_ms 1 bare "perf record -q -e arm_spe// -c 1048576 -o /tmp/p.data -- sh -c '$work'")
		if [ -z "$sw" ] || [ -z "$cnt" ]; then
			die "a run at EL 1 printed no time"
		fi
		echo "qemu-spe bench ($NAME, $(basename "$QEMU_DIR")): EL1 guest ms: spe off $off, spe on idle $idle, perf record task-clock $sw, perf record arm_spe// -c 1048576 $cnt, perf record arm_spe// $rec"
		awk -v o="$off" -v i="$idle" -v s="$sw" -v c="$cnt" -v r="$rec" 'BEGIN {
			printf "qemu-spe bench: EL1 ratio to spe off: idle %.2f, perf task-clock %.2f, perf arm_spe// -c 1048576 %.2f, perf arm_spe// %.2f\n", i / o, s / o, c / o, r / o
			printf "qemu-spe bench: EL1 over perf task-clock: arm_spe// -c 1048576 %.2f (counting), arm_spe// %.2f (counting and sampling)\n", c / s, r / s }'
	else
		echo "qemu-spe bench ($NAME): EL2 $el host ms: spe off $off, spe on idle $idle, perf record arm_spe// $rec"
		awk -v el="$el" -v o="$off" -v i="$idle" -v r="$rec" 'BEGIN {
			printf "qemu-spe bench: EL2 %s ratio to spe off: idle %.2f, perf arm_spe// %.2f\n", el, i / o, r / o }'
	fi
done
