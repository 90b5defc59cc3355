#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The padding overflow on a running kernel: guest/tests/spe-pad-overflow
# drives the perf ABI (as uid 65534) to a wakeup at the head of a
# remapped AUX area, on emulated SPE with no hypervisor
# (x-spe-ignore-pmb-writes=never) and 2-byte record alignment
# (x-spe-align=1, PMBIDR_EL1.Align = 1).
#  - the unpatched kernel (scripts/image.sh base: the base's drivers)
#    must oops in the SPE driver's start path
#    writing past the AUX buffer (the negative control: if it does not,
#    the reproducer no longer reproduces anything);
#  - the patched kernel must run it to the end with every test passing
#    and no oops.
# oops=panic ends the boot at the oops (panic=-1 and -no-reboot: QEMU
# exits), so the unpatched boot takes seconds, not the timeout.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

image=$(need_image work)
base=$(need_image base)
"$ROOT/qemu/build.sh" >&2 || die "qemu/build.sh failed"
"$ROOT/scripts/guest/programs.sh" tests >&2 || die "scripts/guest/programs.sh tests failed"
"$ROOT/scripts/guest/programs.sh" init >&2 || die "scripts/guest/programs.sh init failed"
repro=$BUILD/guest/tests/spe-pad-overflow
SPE=x-spe-ignore-pmb-writes=never,x-spe-align=1
# What the kernel prints when the memset() hits the page after the buffer
OOPS='Unable to handle kernel paging request|Internal error: Oops'

# boot WHICH IMAGE: run the reproducer alone; the console is
# build/boot/padding-NAME-WHICH/console.txt
boot() {
	"$ROOT/scripts/boot.sh" --qemu spe --spe "$SPE" --append oops=panic \
		--timeout 180 --tag "padding/$NAME-$1" --test "$repro" \
		"padding-$NAME-$1" "$2"
}

# base_control: the unpatched kernel must oops in the driver
base_control() {
	local out c tag="padding/$NAME-base: unpatched kernel"
	out=$(boot base "$base") || true
	c=$BUILD/boot/padding-$NAME-base/console.txt
	echo "$out" | grep -v '^RESULT ' || true
	echo "---- $NAME base: the oops"
	grep -E "$OOPS|^ *(pc|lr) :|^Call trace:|^ +[a-z_0-9.]+\+0x" "$c" | head -n 20 || true
	if ! grep -q '^# step 4: ENABLE' "$c"; then
		result fail "$tag: the reproducer did not reach step 4 (see $c)"
	elif grep -q '^# step 4: survived' "$c"; then
		result fail "$tag: survived the wakeup at the head; the reproducer reproduces nothing"
	elif ! grep -Eq "$OOPS" "$c"; then
		result fail "$tag: no oops after step 4 (see $c)"
	elif ! sed -n '/^Call trace:/,/^---\[ end trace/p' "$c" | grep -q 'arm_spe_pmu'; then
		result fail "$tag: an oops, but not in arm_spe_pmu (see $c)"
	else
		result pass "$tag: oopsed in arm_spe_pmu writing past the AUX buffer"
	fi
}

base_control

out=$(boot patched "$image") || true
c=$BUILD/boot/padding-$NAME-patched/console.txt
echo "$out"
# boot.sh has turned the reproducer's TAP into RESULT lines (above); it
# has five tests, and none may be missing or skipped here.
n=$(grep -c "^RESULT pass padding/$NAME-patched:spe-pad-overflow/" <<<"$out" || true)
if grep -Eq "$OOPS|Kernel panic" "$c" 2>/dev/null; then
	result fail "padding/$NAME-patched: the patched kernel oopsed (see $c)"
elif [ "$n" != 5 ]; then
	result fail "padding/$NAME-patched: $n of the reproducer's 5 tests passed (see $c)"
fi
