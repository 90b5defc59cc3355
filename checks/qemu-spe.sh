#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# End to end on emulated SPE: our QEMU (qemu/) with FEAT_SPE on -cpu max.
#  - the patched kernel, the kselftest and the real perf tool (record, then
#    script decoding the workload's own PCs), under a DEN0154 hypervisor
#    with a 1MiB limit and on bare SPE with no limit;
#  - under DEN0154, the unpatched base kernel is caught storming and the
#    patched kernel is not (init's built-in check; QEMU counts the
#    handler's passes).
# Needs: both Images (scripts/image.sh work, scripts/image.sh base), our
# QEMU (qemu/build.sh) and the guest binaries (scripts/guest/programs.sh); each is
# made here when missing.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

image=$(need_image work)
base=$(need_image base)
"$ROOT/qemu/build.sh" >&2 || die "qemu/build.sh failed"
"$ROOT/scripts/guest/programs.sh" >&2 || die "scripts/guest/programs.sh failed"
g=$BUILD/guest

for cfg in "den0154-1M:x-spe-ignore-pmb-writes=enabled,x-spe-max-buff-size=1M" \
	"bare:x-spe-ignore-pmb-writes=never"; do
	run=qemu-spe-$NAME-${cfg%%:*}
	tag=$NAME-spe-${cfg%%:*}
	"$ROOT/scripts/boot.sh" --qemu spe --spe "${cfg#*:}" --tag "$tag" \
		--test "$g/$NAME/tests/arm_spe_buffer" --test "$g/tests/perf-spe-record" \
		--file "$g/$NAME/bin/perf:/bin/perf" "$run" "$image"
	# Where the guest ran its Discard mode record, the emulated unit
	# must have discarded records (the guest alone cannot tell that SPE
	# was enabled at all).
	if grep -qx "RESULT pass $tag:perf-spe-record/perf_record_discard" "$BUILD/boot/$run/results"; then
		n=$(qemu_counter "$BUILD/boot/$run/qemu.stderr" discarded)
		if [ "$n" -gt 0 ]; then
			result pass "$tag: QEMU discarded $n records in Discard mode"
		else
			result fail "$tag: Discard mode record, but QEMU discarded nothing"
		fi
	fi
done

# The storm check: init pins a workload to CPU 1 and watches from CPU 0
# (its KTAP: spe-storm/probe, spe-storm/storm_caught or aux_records);
# QEMU's counters are checked here.
# storm WHICH EXPECT IMAGE: boot IMAGE under DEN0154 with init's check
storm() {
	local which=$1 expect=$2 img=$3 run tag serviced records
	run=qemu-spe-$NAME-$which-den0154-storm
	tag=storm/$NAME-$which-den0154-$([ "$expect" = expect ] && echo caught || echo clean)
	"$ROOT/scripts/boot.sh" --qemu spe --spe x-spe-ignore-pmb-writes=enabled --machine virt,gic-version=3 \
		--mem 512M --timeout 90 --storm "$expect" --tag "$tag" "$run" "$img"
	serviced=$(qemu_counter "$BUILD/boot/$run/qemu.stderr" stopped_reads)
	records=$(qemu_counter "$BUILD/boot/$run/qemu.stderr" records)
	echo "host: stopped_reads=$serviced records=$records"
	if [ "$expect" = expect ]; then
		if [ "$serviced" -ge "$STORM_READS" ]; then
			result pass "$tag: the guest read a stopped PMBSR_EL1 $serviced times (a storm)"
		else
			result fail "$tag: the guest read a stopped PMBSR_EL1 $serviced times, no storm"
		fi
	elif [ "$records" -gt 0 ] && [ "$serviced" -lt "$STORM_READS" ]; then
		result pass "$tag: QEMU wrote $records records, stopped-PMBSR reads $serviced"
	else
		result fail "$tag: QEMU wrote $records records, stopped-PMBSR reads $serviced"
	fi
}
storm base expect "$base"
storm patched clean "$image"
