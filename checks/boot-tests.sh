#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the patched Image in Debian's QEMU, -cpu max without SPE: the KUnit suite
# runs at boot; the kselftest and the perf tool test run from the
# initramfs (the kselftest skips: no SPE).
# Needs: the patched Image (scripts/image.sh work) and the guest binaries
# (scripts/guest/programs.sh, "make guest"); both are made here when missing.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

image=$(need_image work)
"$ROOT/scripts/guest/programs.sh" >&2 || die "scripts/guest/programs.sh failed"

g=$BUILD/guest
"$ROOT/scripts/boot.sh" --qemu debian --kunit \
	--test "$g/$NAME/tests/arm_spe_buffer" --test "$g/tests/perf-spe-cap" \
	--file "$g/$NAME/bin/perf:/bin/perf" "qemu-$NAME" "$image"

# The series' KUnit suite must have run: a boot without it (KUnit off, the
# suite not built) would pass on the other results alone.  The control:
# the same console with the suite's lines taken out must fail the check.
out=$BUILD/boot/qemu-$NAME
suite='^RESULT pass kunit/arm_spe_pmu\.'
n=$(grep -c "$suite" "$out/results" || true)
if [ "$n" -gt 0 ]; then
	result pass "boot/qemu-$NAME: the series' KUnit suite arm_spe_pmu ran ($n results)"
else
	result fail "boot/qemu-$NAME: no result of the series' KUnit suite arm_spe_pmu (see $out/console.txt)"
fi
# (the suite's copy from debugfs taken out: the console of a boot without
# the suite)
awk '/^==== suite / { skip = ($3 == "arm_spe_pmu") }
	/^==== kunit-debugfs end ====$/ { skip = 0 } !skip { print }' \
	"$out/console.txt" >"$out/control-console.txt"
python3 "$ROOT/scripts/ktap.py" --console --kunit "$out/control-console.txt" >"$out/control-results" || true
if grep -q "$suite" "$out/control-results"; then
	result fail "boot/qemu-$NAME: control: the console without the suite still counts arm_spe_pmu results"
else
	result pass "boot/qemu-$NAME: control: the console without the suite is caught"
fi
