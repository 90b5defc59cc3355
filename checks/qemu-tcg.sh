#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The emulated SPE on its own: the bare-metal test our QEMU series adds
# (tests/tcg/aarch64/system/spe.c), built with the cross compiler against
# QEMU's own boot code and minilib, and run at EL1 once per value of
# x-spe-ignore-pmb-writes (never; enabled and profiling with a 64KiB
# MaxBuffSize), "enabled" again under -icount, "never" again with
# FEAT_MTE2 (-machine mte=on), three times more to see that -seed
# decides PMSIRR_EL1.RND's jitter, and once across a migration (and
# read by gdb); spe-el2.c once at EL2 (-M virt,virtualization=on) and
# spe-el3.c once at EL3 (-M virt,secure=on,virtualization=on).  Each
# "ok:" or "FAIL:" line of the tests is one RESULT.
# Then the CPU properties (what realize refuses), QEMU's CPU-features
# qtest, QEMU's ACPI tables qtest with SPE (UEFI firmware, no kernel),
# the virt board's DT node and its ACPI MADT (the SPE overflow interrupt
# of every GICC), and QEMU's own make check-tcg on the four Arm targets
# qemu/build.sh builds.
# No kernel is involved.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

"$ROOT/qemu/build.sh" >&2 || die "qemu/build.sh failed"
src=$QEMU_DIR-git/tests/tcg
out=$BUILD/qemu-tcg
mkdir -p "$out"
cflags=(-nostdlib -ggdb -O0 -fno-stack-protector -isystem "$src/minilib")
cc=${CROSS_COMPILE}gcc
"$cc" "${cflags[@]}" -x assembler-with-cpp -Wa,--noexecstack \
	-c "$src/aarch64/system/boot.S" -o "$out/boot.o"
"$cc" "${cflags[@]}" -c "$src/minilib/printf.c" -o "$out/printf.o"
for t in spe spe-el2 spe-el3; do
	"$cc" "${cflags[@]}" -Wall "$src/aarch64/system/$t.c" -o "$out/$t" \
		-Wl,-T"$src/aarch64/system/kernel.ld" -static "$out/boot.o" "$out/printf.o" -lgcc
done

# spe OUTPUT PROPS ARGS [QEMU OPTION...]: run the test on -cpu max,PROPS
# with the semihosting arguments ARGS, its output in OUTPUT
spe() {
	local o=$1 props=$2 args=$3
	shift 3
	timeout 120 "$QEMU_DIR/qemu-system-aarch64" -M virt -cpu "max,$props" "$@" \
		-display none -monitor none -chardev file,path="$o",id=output \
		-semihosting-config "enable=on,target=native,chardev=output,$args" \
		-kernel "$out/spe"
}

# checklines RUN FILE...: the test's "ok:" and "FAIL:" lines in the
# FILEs as RESULTs of qemu-tcg-spe/RUN
checklines() {
	local run=$1
	shift
	sed -n "s/^ok: /RESULT pass qemu-tcg-spe\/$run: /p; s/^FAIL: /RESULT fail qemu-tcg-spe\/$run: /p" "$@"
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on now
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# results RUN FILE RC: checklines RUN FILE; a run that exited with RC
# non-zero and no failed check, or that did not print "# 0 failure(s)",
# fails too
results() {
	local run=$1 f=$2 rc=$3 n
	checklines "$run" "$f"
	n=$(grep -c '^FAIL: ' "$f" || true)
	if [ "$rc" != 0 ] && [ "$n" = 0 ]; then
		result fail "qemu-tcg-spe/$run: QEMU exited with $rc and no failed check"
	fi
	grep -q '^# 0 failure(s)$' "$f" || [ "$n" != 0 ] ||
		result fail "qemu-tcg-spe/$run: the test did not finish"
}

# enabled-icount: with -icount, where only the last instruction of a TB
# may read the virtual clock (the timestamps); never-mte: with FEAT_MTE2
# (CH and PAT of the data PA)
for run in never enabled profiling enabled-icount never-mte; do
	mode=${run%-*}
	props="spe=on,x-spe-ignore-pmb-writes=$mode"
	[ "$mode" = never ] || props="$props,x-spe-max-buff-size=64K"
	extra=()
	args=arg=1,arg=$mode
	case $run in
	*-icount) extra=(-icount shift=0) ;;
	*-mte) extra=(-machine mte=on) ;;
	esac
	rc=0
	rm -f "$out/$run.out"
	# -seed: PMSIRR_EL1.RND's jitter, and so which instructions are
	# sampled, is the same on every run (the counts the test checks
	# are then reproducible)
	spe "$out/$run.out" "$props" "$args" "${extra[@]}" -seed 1 || rc=$?
	touch "$out/$run.out"
	cat "$out/$run.out"
	results "$run" "$out/$run.out" $rc
done

# spe-el2: at EL2 (-M virt,virtualization=on), the buffer's owner,
# PMSCR_EL2 (CX, PA, TS, PCT), the traps of MDCR_EL2 and the fine-grained
# traps, the VHE aliases and a stage 2 fault on a buffer write; spe-el3:
# at EL3 (secure=on as well), MDCR_EL3.NSPB and EnPMSN, and the NS and
# NSE bits of records of Secure EL1 code
for el in 2 3; do
	machine=virt,virtualization=on
	[ $el = 2 ] || machine=$machine,secure=on
	rc=0
	rm -f "$out/el$el.out"
	timeout 120 "$QEMU_DIR/qemu-system-aarch64" -M "$machine" -cpu max,spe=on \
		-display none -monitor none -chardev file,path="$out/el$el.out",id=output \
		-semihosting-config enable=on,target=native,chardev=output,arg=$el \
		-kernel "$out/spe-el$el" || rc=$?
	touch "$out/el$el.out"
	# an exception the test does not expect loops in boot.S's handler
	head -c 20000 "$out/el$el.out"
	results "el$el" "$out/el$el.out" $rc
done

# PMSIRR_EL1.RND draws on the guest random number source: the sampled
# PCs (the test's "# jitter:" line) must repeat under one -seed and
# change under another.
jitter() {	# jitter SEED: the test's jitter line under -seed SEED
	spe "$out/jitter-$1.out" spe=on arg=1,arg=never -seed "$1" \
		>/dev/null 2>&1 || true
	sed -n 's/^# jitter: //p' "$out/jitter-$1.out"
}
j1=$(jitter 1)
j1b=$(jitter 1)
j2=$(jitter 2)
echo "jitter: -seed 1: $j1; again: $j1b; -seed 2: $j2"
if [ -z "$j1" ] || [ -z "$j2" ]; then
	result fail "qemu-tcg-spe/seed: the test printed no jitter line (see $out/jitter-*.out)"
else
	if [ "$j1" = "$j1b" ]; then
		result pass "qemu-tcg-spe/seed: the same -seed samples the same PCs"
	else
		result fail "qemu-tcg-spe/seed: the same -seed sampled other PCs"
	fi
	if [ "$j1" != "$j2" ]; then
		result pass "qemu-tcg-spe/seed: another -seed samples other PCs"
	else
		result fail "qemu-tcg-spe/seed: -seed 1 and -seed 2 sampled the same PCs (RND ignores -seed)"
	fi
fi

# Migration: the SPE registers go with the CPU's, and PMBIRQ's level with
# them.  The source programs them (PMBSR_EL1.S = 1) and waits; HMP's
# migrate (it returns when the migration is done) writes the state to a
# file, and the destination, loading it with a command line that ends in
# "migrated", compares, then clears S and sees PMBIRQ drop.
mig=$out/spe.mig
rm -f "$mig" "$out"/migrate-*.out
# shellcheck disable=SC2054 # QEMU's options take comma-separated lists
vm=(-M virt,gic-version=3 -cpu max,spe=on,x-spe-ignore-pmb-writes=enabled,x-spe-max-buff-size=64K -display none
    -nic none -kernel "$out/spe")
semi=enable=on,target=native,chardev=output,arg=1,arg=enabled,arg=migrate
{
	for _ in $(seq 300); do
		grep -qs '^# migration: waiting' "$out/migrate-src.out" && break
		sleep 0.1
	done
	echo "migrate file:$mig"
	echo quit
} | timeout 60 "$QEMU_DIR/qemu-system-aarch64" "${vm[@]}" -monitor stdio \
	-chardev file,path="$out/migrate-src.out",id=output -semihosting-config "$semi" \
	>"$out/migrate-hmp.out" 2>&1 || true
rc=0
timeout 60 "$QEMU_DIR/qemu-system-aarch64" "${vm[@]}" -monitor none \
	-chardev file,path="$out/migrate-dst.out",id=output -semihosting-config "$semi,arg=migrated" \
	-incoming "file:$mig" || rc=$?
touch "$out/migrate-src.out" "$out/migrate-dst.out"
cat "$out/migrate-src.out" "$out/migrate-dst.out"
checklines migrate "$out/migrate-src.out" "$out/migrate-dst.out"
if ! grep -q '^# migration: on the destination' "$out/migrate-dst.out"; then
	result fail "qemu-tcg-spe/migrate: the destination did not run the test (exit $rc; see $out/migrate-hmp.out)"
elif grep -q '^# migration: waiting' "$out/migrate-dst.out"; then
	result fail "qemu-tcg-spe/migrate: the destination started the test afresh: no migration"
elif ! grep -q '^# 0 failure(s)$' "$out/migrate-dst.out" && [ $rc = 0 ]; then
	result fail "qemu-tcg-spe/migrate: the destination did not finish"
fi

# gdbstub: with the test waiting as above, gdb reads the SPE registers
# (QEMU describes them in its sysregs feature) with the values the test
# wrote.
port=$(free_port)
rm -f "$out/gdb-guest.out"
"$QEMU_DIR/qemu-system-aarch64" "${vm[@]}" -monitor none -gdb "tcp:127.0.0.1:$port" \
	-chardev file,path="$out/gdb-guest.out",id=output -semihosting-config "$semi" &
gpid=$!
for _ in $(seq 300); do
	grep -qs '^# migration: waiting' "$out/gdb-guest.out" && break
	sleep 0.1
done
gregs="PMSCR_EL1=0x70 PMSICR_EL1=0x12345 PMSIRR_EL1=0x1001 PMSFCR_EL1=0x20002
	PMSLATFR_EL1=0x4d PMBSR_EL1=0x90020007"
gdbx=()
for r in $gregs; do
	gdbx+=(-ex "printf \"${r%=*} %#lx\\n\", \$${r%=*}")
done
got=$(timeout 60 gdb-multiarch -batch -nx -ex "set architecture aarch64" \
	-ex "target remote 127.0.0.1:$port" "${gdbx[@]}" 2>&1) || true
kill $gpid 2>/dev/null || true
wait $gpid 2>/dev/null || true
echo "$got"
for r in $gregs; do
	if echo "$got" | grep -qx "${r%=*} ${r#*=}"; then
		result pass "qemu-gdbstub: gdb reads ${r%=*} = ${r#*=}"
	else
		result fail "qemu-gdbstub: gdb does not read ${r%=*} = ${r#*=}: $(echo "$got" | grep "${r%=*}" | head -n1)"
	fi
done

# A sample in flight at a stop of the VM: the test ("inflight") samples
# a NOP; gdb stops the VM at the NOP that completes the sample
# (spe_inflight_next, a hardware breakpoint).  The stop writes nothing
# (PMBPTR_EL1 still at the buffer's base), the next instruction writes
# the record (gdb's stepi).  A second run migrates the VM stopped there
# (the global run state left out: a destination cannot enter gdb's
# "debug" state) and the destination, which completes the sample, must
# find its record: the migration carried the sample.
# shellcheck disable=SC2054 # QEMU's options take comma-separated lists
ivm=("$QEMU_DIR/qemu-system-aarch64" -M virt,gic-version=3 -cpu max,spe=on -display none
     -nic none -kernel "$out/spe" -monitor none
     -semihosting-config enable=on,target=native,chardev=output,arg=1,arg=never,arg=inflight)
inflight_gdb() { # PORT GDB ARGS...: stop at spe_inflight_next, then the ARGS
	timeout 60 gdb-multiarch -batch -nx -ex "set architecture aarch64" -ex "file $out/spe" \
		-ex "target remote 127.0.0.1:$1" -ex "hbreak spe_inflight_next" -ex continue \
		"${@:2}" 2>&1 || true
}
port=$(free_port)
"${ivm[@]}" -chardev file,path="$out/inflight-stop.out",id=output -S -gdb "tcp:127.0.0.1:$port" &
gpid=$!
# shellcheck disable=SC2016 # $PMBPTR_EL1 is gdb's
got=$(inflight_gdb "$port" -ex 'printf "base %#lx stop %#lx\n", &buf, $PMBPTR_EL1' \
	-ex stepi -ex 'printf "step %#lx\n", $PMBPTR_EL1' -ex continue)
wait $gpid 2>/dev/null || true
echo "$got"
base=$(echo "$got" | sed -n 's/^base \(0x[0-9a-f]*\) stop .*/\1/p')
stop=$(echo "$got" | sed -n 's/^base .* stop \(0x[0-9a-f]*\)$/\1/p')
step=$(echo "$got" | sed -n 's/^step \(0x[0-9a-f]*\)$/\1/p')
if [ -z "$base" ] || [ -z "$stop" ] || [ -z "$step" ]; then
	result fail "qemu-tcg-spe/inflight: gdb did not stop at spe_inflight_next and read PMBPTR_EL1"
elif [ $((stop)) != $((base)) ]; then
	result fail "qemu-tcg-spe/inflight: the stop wrote the record in flight (PMBPTR_EL1 $stop, base $base)"
elif [ $((step)) -le $((base)) ]; then
	result fail "qemu-tcg-spe/inflight: the next instruction wrote no record (PMBPTR_EL1 $step)"
else
	result pass "qemu-tcg-spe/inflight: a stop with a sample in flight writes nothing; the next instruction writes its record"
fi
checklines inflight "$out/inflight-stop.out"
mig=$out/inflight.mig
rm -f "$mig" "$out/inflight-dst.out"
port=$(free_port)
"${ivm[@]}" -chardev file,path="$out/inflight-src.out",id=output -S -gdb "tcp:127.0.0.1:$port" \
	-global migration.store-global-state=off &
gpid=$!
# gdb's Python waits for the migration to end (HMP's "info migrate"),
# at most 60 s, and prints its last status
cat >"$out/wait-migrate.py" <<'EOF'
import time
for _ in range(600):
    status = gdb.execute("monitor info migrate", to_string=True)
    if "completed" in status or "failed" in status:
        break
    time.sleep(0.1)
print(status)
EOF
got=$(inflight_gdb "$port" -ex "monitor migrate file:$mig" -ex "source $out/wait-migrate.py" -ex kill)
wait $gpid 2>/dev/null || true
echo "$got" | grep -i '^status' || true
rc=0
timeout 60 "${ivm[@]}" -chardev file,path="$out/inflight-dst.out",id=output \
	-incoming "file:$mig" || rc=$?
touch "$out/inflight-dst.out"
cat "$out/inflight-dst.out"
if ! grep -q '^# in flight:' "$out/inflight-dst.out"; then
	result fail "qemu-tcg-spe/inflight-migrate: the destination did not run (exit $rc; migration: $(echo "$got" | grep -i '^status' | tr -s ' \t' ' '))"
else
	checklines inflight-migrate "$out/inflight-dst.out"
fi

# The properties: refused where they make no sense, fixed once realized.
qemu=$QEMU_DIR/qemu-system-aarch64
# refused MACHINE PROPS EXPECT: QEMU must exit non-zero naming EXPECT
refused() {
	local msg
	if msg=$(timeout 20 "$qemu" -M "$1" -cpu "max,$2" -display none -nic none -S \
		-monitor none -serial none </dev/null 2>&1); then
		result fail "qemu-props: -M $1 -cpu max,$2 was accepted"
	elif echo "$msg" | grep -qF -- "$3"; then
		result pass "qemu-props: -M $1 -cpu max,$2 refused: $3"
	else
		result fail "qemu-props: -M $1 -cpu max,$2 refused, but not with \"$3\": $msg"
	fi
}
refused virt x-spe-ignore-pmb-writes=enabled "x-spe-* properties need spe=on"
# the PE has no invented micro-architecture (the property was dropped)
refused virt spe=on,x-spe-uarch-model=on "x-spe-uarch-model' not found"
refused virt spe=on,x-spe-ignore-pmb-writes=den0154 "does not accept value"
refused virt spe=on,x-spe-max-buff-size=1000000 "nearest encodable sizes are 999424 and 1003520"
refused virt spe=on,x-spe-align=7 "at most 6"
# (No check that a realized CPU refuses qom-set: qdev refuses it for every
# static property, so such a check tests qdev, not the series.)

# QEMU's own CPU-features qtest (tests/qtest/arm-cpu-features.c; the
# series adds that query-cpu-model-expansion reports spe, off by default
# on max, and not at all on cortex-a57): each TAP "ok"/"not ok" line is
# a RESULT; no result line, or a bail-out, is a failure.
qt=$QEMU_DIR/tests/qtest/arm-cpu-features
if [ ! -x "$qt" ]; then
	result fail "qemu-qtest: no $qt (qemu/build.sh builds it)"
else
	rc=0
	QTEST_QEMU_BINARY=$QEMU_DIR/qemu-system-aarch64 timeout 300 "$qt" \
		>"$out/qtest-cpu-features.out" 2>&1 || rc=$?
	sed -n 's/^ok [0-9]* \(.*\)/RESULT pass qemu-qtest: arm-cpu-features \1/p
		s/^not ok [0-9]* \(.*\)/RESULT fail qemu-qtest: arm-cpu-features \1/p' \
		"$out/qtest-cpu-features.out"
	if grep -q '^Bail out' "$out/qtest-cpu-features.out" ||
	   ! grep -q '^ok ' "$out/qtest-cpu-features.out"; then
		result fail "qemu-qtest: arm-cpu-features did not finish (exit $rc): $(grep -m1 'ERROR\|Bail' "$out/qtest-cpu-features.out")"
	fi
fi

# QEMU's ACPI tables qtest, its virt variant with SPE (the series adds
# it and the expected MADT, tests/data/acpi/aarch64/virt/APIC.spe): UEFI
# (Debian's AAVMF, qemu/build.sh) boots the virt board with -cpu
# max,spe=on and every table must equal the expected one.
bt=$QEMU_DIR/tests/qtest/bios-tables-test
if [ ! -x "$bt" ] || [ ! -f "$QEMU_DIR/pc-bios/edk2-aarch64-code.fd" ]; then
	result fail "qemu-acpi-qtest: no $bt or no firmware (qemu/build.sh builds and fetches them)"
else
	rc=0
	(cd "$QEMU_DIR" && QTEST_QEMU_BINARY=./qemu-system-aarch64 timeout 300 \
		tests/qtest/bios-tables-test -p /aarch64/acpi/virt/spe) \
		>"$out/qtest-bios-tables.out" 2>&1 || rc=$?
	if [ "$rc" = 0 ] && grep -q '^ok 1 /aarch64/acpi/virt/spe$' "$out/qtest-bios-tables.out"; then
		result pass "qemu-acpi-qtest: bios-tables-test /aarch64/acpi/virt/spe: the tables equal the expected ones"
	else
		result fail "qemu-acpi-qtest: bios-tables-test /aarch64/acpi/virt/spe (exit $rc): $(grep -m1 'Warning\|ERROR\|Bail' "$out/qtest-bios-tables.out")"
	fi
fi

# The virt board's device tree has the SPE node exactly when spe=on;
# spe=off is written out, so the second case does not rest on the default.
for props in spe=on spe=off,pmu=on; do
	dtb=$out/virt-${props//,/-}.dtb	# no comma: -M parses it
	rm -f "$dtb"
	timeout 20 "$qemu" -M virt,dumpdtb="$dtb" -cpu "max,$props" -display none -nic none \
		>/dev/null 2>&1 || true
	n=$(grep -c -a 'arm,statistical-profiling-extension-v1' "$dtb" 2>/dev/null || true)
	if [ "$props" = spe=on ] && [ "${n:-0}" -gt 0 ]; then
		result pass "qemu-dt: -cpu max,spe=on: the DT has the SPE node"
	elif [ "$props" != spe=on ] && [ -s "$dtb" ] && [ "${n:-0}" = 0 ]; then
		result pass "qemu-dt: -cpu max,$props: no SPE node"
	else
		result fail "qemu-dt: -cpu max,$props: SPE node count ${n:-none} in $dtb"
	fi
done

# The virt board's ACPI MADT (what an ACPI guest's firmware gets): with
# spe=on, revision 5 and, in every GICC (80 bytes), the SPE overflow
# interrupt at offset 78 (ACPI 6.3) is INTID 21; without SPE, revision 4
# and 0 there.  checks/qemu-madt.py reads the tables through fw_cfg.
for props in spe=on spe=off,pmu=on; do
	want="rev 5 gicc 2 len 80 spe 21,21"
	[ $props = spe=on ] || want="rev 4 gicc 2 len 80 spe 0,0"
	for m in virt virt,gic-version=3; do
		got=$(timeout 60 python3 "$ROOT/checks/qemu-madt.py" "$qemu" "max,$props" "$m" 2>&1) || true
		if [ "$got" = "$want" ]; then
			result pass "qemu-acpi: -M $m -cpu max,$props: MADT $got"
		else
			result fail "qemu-acpi: -M $m -cpu max,$props: MADT \"$got\", expected \"$want\""
		fi
	done
done

# QEMU's own "make check-tcg", on the four targets qemu/build.sh builds:
# the bare-metal tests of aarch64-softmmu, the series' three among them
# through the rules it adds to tests/tcg/aarch64/Makefile.softmmu-target
# (run-spe-enabled and run-spe-profiling must not catch run-spe-el2 and
# run-spe-el3), with their plugin runs; those of arm-softmmu; and the
# linux-user tests of aarch64 and arm, where FEAT_SPE does not exist.  A
# target whose tests do not run (no cross compiler found) fails, as does
# make at the first run that fails.  JOBS runs at a time.
rc=0
PYTHONPATH=$MESON_PY qemu_ccache timeout 1200 make -j"$JOBS" -C "$QEMU_DIR" check-tcg \
	>"$out/check-tcg.out" 2>&1 || rc=$?
n=$(grep -c '^  TEST ' "$out/check-tcg.out" || true)
missing=
for t in spe-el2 spe-el3 spe enabled profiling; do
	grep -q "^  TEST    $t on aarch64\$" "$out/check-tcg.out" || missing="$missing $t"
done
for t in aarch64-softmmu arm-softmmu aarch64-linux-user arm-linux-user; do
	grep -q "^  RUN     $t guest-tests\$" "$out/check-tcg.out" || missing="$missing $t"
done
if [ $rc != 0 ]; then
	result fail "qemu-check-tcg: make check-tcg exited with $rc after $n runs: $(grep -m1 '\*\*\*' "$out/check-tcg.out")"
elif [ -n "$missing" ]; then
	result fail "qemu-check-tcg: make check-tcg did not run:$missing (see $out/check-tcg.out)"
else
	result pass "qemu-check-tcg: make check-tcg on aarch64-softmmu, arm-softmmu, aarch64-linux-user and arm-linux-user, $n runs, the series' spe, spe-el2, spe-el3 among them"
fi
