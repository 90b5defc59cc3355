#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the emulated SPE costs: the guest time of one fixed workload
# (sort and checksum 300000 numbers, in the Debian rootfs) on the
# patched Image, with no SPE (-cpu max), with SPE on but idle, under
# "perf record -e task-clock" (perf's own cost: a software event, the
# emulated unit idle), under "perf record -e arm_spe// -c 1048576" (the
# unit counts every instruction but samples rarely: the cost of the
# counting) and under "perf record -e arm_spe//" at perf's default
# interval; printed as guest milliseconds (the least of 5 runs, one boot
# each) and as ratios to the first, and the arm_spe runs over the
# task-clock one: what the emulated unit adds to perf's own cost.  Each
# run also times the workload alone, inside perf: the counting's own
# cost, without what perf spends before and after it (an arm_spe//
# session maps a 4 MiB AUX buffer as root, task-clock none).  Then the
# same off / idle / arm_spe// rows with the kernel as a host at EL2, VHE
# and nVHE.  The guest clock is QEMU's virtual clock, which follows the
# host's without -icount.  Needs the Image, our QEMU and the rootfs
# (make image qemu rootfs).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

work='seq 1 300000 | sort -rn | md5sum >/dev/null'
# the workload, printing its own time (no single quote: it goes in sh -c '')
# shellcheck disable=SC2016 # expanded in the guest
timed='ws=$(date +%s%N); '"$work"'; we=$(date +%s%N); echo bench-work-ms $(((we - ws) / 1000000))'
runs=5
# guest_ms EL MODE CMD [AFTER]: "T W [R]", the guest time in ms of CMD
# (which runs $timed) and of the workload in it, with the kernel at EL
# (scripts/guest.sh --el): the least of $runs runs in one boot, as the
# noise of a shared machine only ever adds time.  AFTER runs after each
# run, untimed; R is the median of the numbers it prints.
guest_ms() {
	local out t w r
	out=$("$ROOT/scripts/guest.sh" --el "$1" --mode "$2" -- \
		"for i in \$(seq $runs); do s=\$(date +%s%N); $3; e=\$(date +%s%N); echo bench-ms \$(((e - s) / 1000000)); ${4:+echo bench-after \$($4);} done") ||
		die "guest run (EL $1, $2) failed: $out"
	t=$(echo "$out" | sed -n 's/^bench-ms //p' | sort -n | head -n1)
	w=$(echo "$out" | sed -n 's/^bench-work-ms //p' | sort -n | head -n1)
	r=$(echo "$out" | sed -n 's/^bench-after //p' | sort -n | sed -n "$(((runs + 1) / 2))p")
	if [ -z "$t" ] || [ -z "$w" ] || { [ -n "${4:-}" ] && [ -z "$r" ]; }; then
		die "a run at EL $1 ($2) printed no time${4:+ or no count}: $out"
	fi
	echo "$t $w${4:+ $r}"
}

# The records of an arm_spe// session like the timed one, untimed: the
# samples that passed the filters, SAMPLE_FILTRATE (PMU event 0x4002,
# counted by our QEMU), for the workload's tasks.  Decoding the AUX data
# (perf report -D) takes minutes at the default interval.
records="perf stat -x, -o /tmp/stat.csv -e r4002 -- perf record -q -e arm_spe// -o /tmp/p.data -- sh -c '$work' >/dev/null 2>&1; sed -n 's/,.*r4002.*//p' /tmp/stat.csv"

# tot "T W [R]": T; wk: W; nrec: R
tot() { echo "$1" | cut -d' ' -f1; }
wk() { echo "$1" | cut -d' ' -f2; }
nrec() { echo "$1" | cut -d' ' -f3; }

# One row per place the kernel runs: EL1 (a guest), EL2 with VHE and
# without (a host).  The EL1 row also has perf's own cost and the counting
# run, which the EL2 rows do not repeat.
for el in 1 vhe nvhe; do
	offtw=$(guest_ms "$el" off "$timed")
	idletw=$(guest_ms "$el" bare "$timed")
	after=''
	[ "$el" != 1 ] || after=$records
	rectw=$(guest_ms "$el" bare "perf record -q -e arm_spe// -o /tmp/p.data -- sh -c '$timed'" "$after")
	off=$(tot "$offtw") idle=$(tot "$idletw") rec=$(tot "$rectw")
	if [ "$el" = 1 ]; then
		swtw=$(guest_ms 1 bare "perf record -q -e task-clock -o /tmp/p.data -- sh -c '$timed'")
		cnttw=$(guest_ms 1 bare "perf record -q -e arm_spe// -c 1048576 -o /tmp/p.data -- sh -c '$timed'")
		sw=$(tot "$swtw") cnt=$(tot "$cnttw")
		offw=$(wk "$offtw") idlew=$(wk "$idletw") recw=$(wk "$rectw")
		sww=$(wk "$swtw") cntw=$(wk "$cnttw")
		echo "qemu-spe bench ($NAME, $(basename "$QEMU_DIR")): EL1 guest ms: spe off $off, spe on idle $idle, perf record task-clock $sw, perf record arm_spe// -c 1048576 $cnt, perf record arm_spe// $rec"
		awk -v o="$off" -v i="$idle" -v s="$sw" -v c="$cnt" -v r="$rec" 'BEGIN {
			printf "qemu-spe bench: EL1 ratio to spe off: idle %.2f, perf task-clock %.2f, perf arm_spe// -c 1048576 %.2f, perf arm_spe// %.2f\n", i / o, s / o, c / o, r / o
			printf "qemu-spe bench: EL1 over perf task-clock: arm_spe// -c 1048576 %.2f (counting), arm_spe// %.2f (counting and sampling)\n", c / s, r / s }'
		echo "qemu-spe bench: EL1 workload alone, timed inside perf, ms: spe off $offw, spe on idle $idlew, perf task-clock $sww, perf arm_spe// -c 1048576 $cntw, perf arm_spe// $recw"
		awk -v s="$sww" -v c="$cntw" -v r="$recw" 'BEGIN {
			printf "qemu-spe bench: EL1 workload alone over perf task-clock: arm_spe// -c 1048576 %.2f (counting), arm_spe// %.2f (counting and sampling)\n", c / s, r / s }'
		n=$(nrec "$rectw")
		[ "$n" -gt 0 ] || die "perf stat counted no SAMPLE_FILTRATE (r4002) under perf record -e arm_spe//"
		awk -v c="$cntw" -v r="$recw" -v n="$n" 'BEGIN {
			printf "qemu-spe bench: EL1 perf arm_spe// at the default interval: %d records a run (median), %.2f us of guest time per record over -c 1048576\n", n, (r - c) * 1000 / n }'
	else
		echo "qemu-spe bench ($NAME): EL2 $el host ms: spe off $off, spe on idle $idle, perf record arm_spe// $rec"
		awk -v el="$el" -v o="$off" -v i="$idle" -v r="$rec" 'BEGIN {
			printf "qemu-spe bench: EL2 %s ratio to spe off: idle %.2f, perf arm_spe// %.2f\n", el, i / o, r / o }'
	fi
done
