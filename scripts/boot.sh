#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The boot runner of the test stages: boot an arm64 Image in QEMU (lib.sh:
# guest_qemu, shared with scripts/guest.sh) with an initramfs of
# guest/init.c and the given programs, print the guest's KTAP and turn it
# into RESULT lines with scripts/ktap.py.
#
#   scripts/boot.sh [options] NAME IMAGE
#
#   --qemu debian|spe|PATH  Debian's qemu-system-aarch64 (no SPE; default),
#                      our build/qemu-<version>/qemu-system-aarch64 with
#                      emulated SPE (qemu/build.sh, "make qemu"), or that binary
#   --spe PROPS        SPE properties of -cpu max (with --qemu spe), e.g.
#                      x-spe-ignore-pmb-writes=enabled,x-spe-max-buff-size=1M
#                      (qemu/README.md); QEMU's SPE trace goes to
#                      qemu.stderr, counted (lib.sh: spe_trace_count)
#   --test FILE        run FILE in the guest (in /tests, in name order)
#   --file SRC:DEST    also put SRC at DEST in the initramfs
#   --storm expect|clean  init's built-in SPE check (guest/init.c)
#   --kunit            the kernel runs KUnit at boot and its results are
#                      counted (without it: kunit.enable=0)
#   --machine M        -M value (default: virt)
#   --mem SIZE         -m value (default: 1G)
#   --append ARGS      extra kernel command line
#   --timeout SECS     host-side limit for the whole boot (default 600)
#   --tag TAG          prefix the programs' result names with TAG:
#
# Needs build/guest/init (scripts/guest/programs.sh, "make guest").  Writes
# build/boot/NAME/: initramfs.cpio.gz, console.txt, qemu.stderr (QEMU's
# own messages, e.g. the emulated SPE's counters), tests/<program>.log,
# kunit/<suite>.log (KUnit's results from debugfs) and kunit.log (all of
# them), results (the RESULT lines, also printed).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pack=() trace=() q=() kunit=0 qemu=debian spe="" machine=virt mem=1G append="" timeout=600 tag="" storm=""
while [ $# -gt 2 ]; do
	case "$1" in
	--test) pack+=(--test "$2"); shift 2 ;;
	--file) pack+=(--file "$2"); shift 2 ;;
	--storm) storm=$2; shift 2 ;;
	--kunit) kunit=1; shift ;;
	--qemu) qemu=$2; shift 2 ;;
	--spe) spe=$2; shift 2 ;;
	--machine) machine=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--tag) tag=$2; shift 2 ;;
	*) die "unknown option $1" ;;
	esac
done
[ $# -eq 2 ] || die "usage: boot.sh [options] NAME IMAGE"
name=$1 image=$2
[ -f "$image" ] || die "no Image at $image"
qemu=$(qemu_binary "$qemu")
[ -x "$qemu" ] || die "no QEMU at $qemu (Debian's: scripts/setup.sh; ours: qemu/build.sh)"
cpu=max
if [ -n "$spe" ]; then
	[ "$qemu" != /usr/bin/qemu-system-aarch64 ] ||
		die "--spe needs our QEMU (--qemu spe): Debian's has no emulated SPE"
	cpu="max,spe=on,$spe"
	trace=("${SPE_TRACE[@]}" -trace arm_spe_record)
fi
case "$storm" in
'' | expect | clean) ;;
*) die "--storm expect|clean, not $storm" ;;
esac

out=$BUILD/boot/$name
rm -rf "$out"
mkdir -p "$out/tests"
"$ROOT/scripts/guest/initramfs.sh" "$out/initramfs.cpio.gz" "$BUILD/guest/init" "${pack[@]}"

cmd=""
[ $kunit = 1 ] || cmd="kunit.enable=0"
[ -z "$storm" ] || cmd="$cmd spe_init.storm=$storm"
[ -z "$append" ] || cmd="$cmd $append"
guest_qemu q "$qemu" "$machine" "$cpu" 2 "$mem" "$image" "$out/initramfs.cpio.gz" "${cmd# }" "${trace[@]}"
note "boot $name: $qemu -M $machine -cpu $cpu, $(basename "$image"), \"${cmd# }\""
rc=0
# QEMU's stderr, its SPE trace counted (lib.sh: spe_trace_count)
exec {tfd}> >(spe_trace_count >"$out/qemu.stderr")
tpid=$!
timeout -k 10 "$timeout" "${q[@]}" >"$out/console.log" 2>&$tfd </dev/null || rc=$?
exec {tfd}>&-
wait $tpid || true
tr -d '\r' <"$out/console.log" >"$out/console.txt"

if ! grep -q '^==== spe-tests end ====' "$out/console.txt"; then
	why="did not reach the end of the tests (qemu rc=$rc)"
	[ $rc = 124 ] && why="timed out after ${timeout}s"
	grep -q 'Kernel panic' "$out/console.txt" && why="kernel panic"
	result fail "boot/$name: $why (see $out/console.txt)"
fi

args=(--console --save-dir "$out/tests" --tag "$tag")
rm -f "$out/kunit.log"
if [ $kunit = 1 ]; then
	args+=(--kunit --kunit-name "$name")
	# KUnit's results as guest/init.c copied them from debugfs, one
	# KTAP document per suite (the console KUnit printed them on at
	# boot can be split by other kernel messages); the kernel's own
	# parser, which reads one document, runs on each, as a cross-check
	# of the counts
	t=$(ktree)
	rm -rf "$out/kunit"
	mkdir -p "$out/kunit"
	awk -v d="$out/kunit" '
		/^==== kunit-debugfs end ====$/ { f = "" }
		f { print >f }
		/^==== suite [^ ]+ ====$/ { f = d "/" $3 ".log" }' "$out/console.txt"
	cat "$out"/kunit/*.log >"$out/kunit.log" 2>/dev/null || true
	if [ -f "$t/tools/testing/kunit/kunit.py" ]; then
		for f in "$out"/kunit/*.log; do
			[ -f "$f" ] || continue
			python3 "$t/tools/testing/kunit/kunit.py" parse --json="${f%.log}.json" \
				"$f" >"${f%.log}.txt" 2>&1 || true
			args+=(--kunit-json "${f%.log}.json")
		done
	fi
fi
python3 "$ROOT/scripts/ktap.py" "${args[@]}" "$out/console.txt" >"$out/results"
# The guest's KTAP as it printed it, then the counts
for f in "$out/kunit.log" "$out"/tests/*.log; do
	[ -f "$f" ] || continue
	echo "---- $name: $(basename "$f" .log)"
	grep -E '^ *(KTAP|TAP) version|^ *1\.\.|^ *(not )?ok |^ *# |^Bail out' "$f" || true
done
cat "$out/results"
