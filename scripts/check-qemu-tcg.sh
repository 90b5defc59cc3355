#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The emulated SPE on its own: the bare-metal test our QEMU series adds
# (tests/tcg/aarch64/system/spe.c), built with the cross compiler against
# QEMU's own boot code and minilib, and run at EL1 once per x-spe-mode
# (bare; den0154 and r24557 with a 64KiB MaxBuffSize).  Each "ok:" or
# "FAIL:" line of the test is one RESULT.  No kernel is involved.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$ROOT/qemu/build.sh" >&2 || die "qemu/build.sh failed"
src=$QEMU_DIR-git/tests/tcg
out=$BUILD/qemu-tcg
mkdir -p "$out"
cflags=(-nostdlib -ggdb -O0 -fno-stack-protector -isystem "$src/minilib")
cc=${CROSS_COMPILE}gcc
"$cc" "${cflags[@]}" -x assembler-with-cpp -Wa,--noexecstack \
	-c "$src/aarch64/system/boot.S" -o "$out/boot.o"
"$cc" "${cflags[@]}" -c "$src/minilib/printf.c" -o "$out/printf.o"
"$cc" "${cflags[@]}" -Wall "$src/aarch64/system/spe.c" -o "$out/spe" \
	-Wl,-T"$src/aarch64/system/kernel.ld" -static "$out/boot.o" "$out/printf.o" -lgcc

for mode in bare den0154 r24557; do
	props="spe=on,x-spe-mode=$mode"
	[ $mode = bare ] || props="$props,x-spe-max-buff-size=64K"
	rc=0
	timeout 120 "$QEMU_DIR/qemu-system-aarch64" -M virt -cpu "max,$props" \
		-display none -monitor none -chardev file,path="$out/$mode.out",id=output \
		-semihosting-config enable=on,target=native,chardev=output,arg=1,arg=$mode \
		-kernel "$out/spe" || rc=$?
	cat "$out/$mode.out"
	sed -n "s/^ok: /RESULT pass qemu-tcg-spe\/$mode: /p; s/^FAIL: /RESULT fail qemu-tcg-spe\/$mode: /p" \
		"$out/$mode.out"
	n=$(grep -c '^FAIL: ' "$out/$mode.out" || true)
	if [ $rc != 0 ] && [ "$n" = 0 ]; then
		result fail "qemu-tcg-spe/$mode: QEMU exited with $rc and no failed check"
	fi
	grep -q '^# 0 failure(s)$' "$out/$mode.out" || [ "$n" != 0 ] ||
		result fail "qemu-tcg-spe/$mode: the test did not finish"
done
