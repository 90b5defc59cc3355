#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# End to end on emulated SPE: our QEMU (qemu/) with FEAT_SPE on -cpu max.
#  - the patched kernel, the kselftest and the real perf tool (record, then
#    script decoding the workload's own PCs), under a DEN0154 hypervisor
#    with a 1MiB limit and on bare SPE with no limit;
#  - under DEN0154, the unpatched base kernel is caught storming and the
#    patched kernel is not (QEMU counts the handler's passes).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

t=$(ktree)
name=$(basename "$(series_dir "$t")")
image=$BUILD/images/$name-Image
base=$BUILD/images/$name-base-Image
"$ROOT/scripts/build.sh" work >&2
"$ROOT/scripts/build.sh" base >&2

"$ROOT/qemu/build.sh" >&2
qemu=$BUILD/qemu/qemu-system-aarch64

# Built by the boot stage: the kselftest and perf of branch work.
kself=$BUILD/kselftest-$(basename "$t")/arm_spe_buffer
perf=$BUILD/perf-$(basename "$t")/perf
[ -x "$kself" ] && [ -x "$perf" ] || die "kselftest or perf missing: the boot stage failed"
mkdir -p "$BUILD/perf-spe-record"
${CROSS_COMPILE}gcc -static -O2 -Wall -Wextra -o "$BUILD/perf-spe-record/perf-spe-record" \
	"$ROOT/tests/perf-spe-record/perf-spe-record.c"

for cfg in "den0154-1M:spe-mode=den0154,spe-max-buff-size=1M" "bare:spe-mode=bare"; do
	run=qemu-spe-$name-${cfg%%:*}
	"$ROOT/scripts/boot.sh" --qemu "$qemu" --cpu "max,spe=on,${cfg#*:}" \
		--tag "$name-spe-${cfg%%:*}" --test "$kself" --test "$BUILD/perf-spe-record/perf-spe-record" \
		--file "$perf:/bin/perf" "$run" "$image"
	# Where the guest ran its Discard mode record, the emulated unit
	# must have discarded records (the guest alone cannot tell that SPE
	# was enabled at all).
	if grep -q '^ok [0-9]* perf_record_discard$' "$BUILD/boot/$run/tests/perf-spe-record.log"; then
		n=$(sed -n 's/.* discarded=\([0-9]*\) .*/\1/p' "$BUILD/boot/$run/qemu.stderr" |
			awk '{ s += $1 } END { print s + 0 }')
		if [ "$n" -gt 0 ]; then
			result pass "$name-spe-${cfg%%:*}: QEMU discarded $n records in Discard mode"
		else
			result fail "$name-spe-${cfg%%:*}: Discard mode record, but QEMU discarded nothing"
		fi
	fi
done

# The storm check: qemu/tests/run-spe-test.sh pins a workload to CPU 1 and
# watches from CPU 0; QEMU's counters are checked on the host.
prefix() { sed "s|^RESULT \([a-z]*\) |RESULT \1 $1/|"; }
"$ROOT/qemu/tests/run-spe-test.sh" -q "$qemu" -k "$base" -m den0154 -e storm -t 90 |
	prefix "storm/$name-base-den0154-caught"
"$ROOT/qemu/tests/run-spe-test.sh" -q "$qemu" -k "$image" -m den0154 -t 90 |
	prefix "storm/$name-patched-den0154-clean"
