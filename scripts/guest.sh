#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot an Image on emulated SPE with the Debian guest of scripts/guest/rootfs.sh
# ("make rootfs"): a shell on the console, or one command.
#
#   scripts/guest.sh [options]                  interactive shell
#   scripts/guest.sh [options] -- CMD ARGS...   run CMD, print its output,
#                                               exit with its exit status
#
#   --image FILE      the kernel (default build/images/<BASE>-Image)
#   --mode MODE       which hypervisor the guest runs under: bare (none,
#                     the default), den0154 (one that ignores buffer
#                     register writes while the buffer is enabled:
#                     x-spe-ignore-pmb-writes=enabled) or r24557 (one
#                     that ignores them only while profiling:
#                     =profiling); off: no SPE at all (-cpu max)
#   --limit SIZE      x-spe-max-buff-size, e.g. 1M (default: none)
#   --cpus N          vCPUs (default 2)
#   --mem SIZE        guest RAM (default 1G)
#   --spe PROPS       more -cpu properties, e.g. x-spe-align=2 (qemu/README.md)
#   --append ARGS     more kernel command line
#   --icount SHIFT    -icount shift=SHIFT: guest time follows the
#                     instructions executed (0: one per ns), as timing
#                     tests such as perf's test_arm_spe_fork.sh need
#   --el 1|vhe|nvhe   where the kernel runs: EL1, as a guest (default); EL2
#                     with VHE (-M virt,virtualization=on); EL2 without VHE
#                     (kvm-arm.mode=nvhe as well).  An nVHE host needs KVM
#                     in the Image (config/qemu.config has it): without,
#                     the kernel runs at EL1 over the EL2 stub
#   --qemu debian|spe|PATH  as scripts/boot.sh's: Debian's QEMU (no SPE), ours
#                     (the default: build/qemu-<version>/qemu-system-aarch64,
#                     "make qemu") or that file
#   --rootfs FILE     the initramfs (default
#                     build/guest/<tree of BASE>/rootfs-bookworm.cpio.gz)
#   --timeout SECS    with a command: host-side limit (default 600)
#   --out DIR         where the console, QEMU's stderr and the trace go
#                     (default build/guest-run)
#
# As with ssh, CMD ARGS... are joined with blanks and run by bash in the
# guest (cwd /root, stdin /dev/null, stdout and stderr into one file that
# the guest copies to the console as it grows: no pager, no colours), so
#   scripts/guest.sh -- 'perf record -e arm_spe// -- ls && perf report --stdio'
# runs both in one boot.  Kernel messages are off the console (quiet) then.
# The command's exit status is read from the marker line the guest's /init
# prints after it (guest/rootfs-init); no marker (guest crashed, timeout)
# is status 255.  The whole console, QEMU's stderr and the emulated SPE's
# trace (lib.sh: SPE_TRACE, counted by spe_trace_count) are kept in
# --out (console.txt, qemu.stderr, trace.log).
#
# Interactive: serial console on stdio (-nographic); leave the shell with
# exit or Ctrl-D (the guest powers off), or QEMU with Ctrl-A x.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

icount=() image="" mode=bare limit="" cpus=2 mem=1G spe="" append="" timeout=600 el=1
run=$BUILD/guest-run
qemu=spe
rootfs=$BUILD/guest/$NAME/rootfs-bookworm.cpio.gz
while [ $# -gt 0 ]; do
	case "$1" in
	--image) image=$2; shift 2 ;;
	--mode) mode=$2; shift 2 ;;
	--limit) limit=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--spe) spe=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--qemu) qemu=$2; shift 2 ;;
	--icount) icount=(-icount "shift=$2"); shift 2 ;;
	--el) el=$2; shift 2 ;;
	--rootfs) rootfs=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--out) run=$2; shift 2 ;;
	--) shift; break ;;
	*) die "unknown option $1 (scripts/guest.sh [options] [-- CMD ARGS...])" ;;
	esac
done
image=${image:-$(image_path work)}
[ -f "$image" ] || die "no Image at $image (make image)"
qemu=$(qemu_binary "$qemu")
[ -x "$qemu" ] || die "no QEMU at $qemu (make qemu)"
[ -f "$rootfs" ] || die "no rootfs at $rootfs (make rootfs)"
case "$mode" in
bare) cpu="max,spe=on" ;;
den0154) cpu="max,spe=on,x-spe-ignore-pmb-writes=enabled" ;;
r24557) cpu="max,spe=on,x-spe-ignore-pmb-writes=profiling" ;;
off) cpu=max ;;
*) die "--mode bare|den0154|r24557|off, not $mode" ;;
esac
[ -z "$limit" ] || cpu="$cpu,x-spe-max-buff-size=$limit"
machine=virt,gic-version=3
case "$el" in
1) ;;
vhe) machine=$machine,virtualization=on ;;
nvhe) machine=$machine,virtualization=on append="$append kvm-arm.mode=nvhe" ;;
*) die "--el 1|vhe|nvhe, not $el" ;;
esac
[ -z "$spe" ] || cpu="$cpu,$spe"

mkdir -p "$run"
rm -f "$run/console.txt" "$run/qemu.stderr" "$run/trace.log"
initrd=$rootfs
cmd="kunit.enable=0 guest.date=$(date +%s)"
if [ $# -gt 0 ]; then
	# The command goes in a second archive that the kernel unpacks over
	# the rootfs: /etc/guest-cmd, which /init runs instead of a shell.
	tmp=$(mktemp -d "$run/cmd.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/root/etc"
	printf '%s\n' "$*" >"$tmp/root/etc/guest-cmd"
	pack_cpio "$tmp/root" "$tmp/cmd.cpio.gz" || die "cannot pack the command"
	cat "$rootfs" "$tmp/cmd.cpio.gz" >"$tmp/initrd"
	initrd=$tmp/initrd
	cmd="$cmd quiet"
elif [ -t 0 ]; then
	read -r rows cols < <(stty size 2>/dev/null || echo "24 80")
	cmd="$cmd guest.rows=$rows guest.cols=$cols guest.term=${TERM:-vt100}"
fi
[ -z "$append" ] || cmd="$cmd $append"
# rdinit=/bin/bash -- /init: the init script runs even without
# CONFIG_BINFMT_SCRIPT
cmd="$cmd rdinit=/bin/bash -- /init"

# The trace, counted (lib.sh: spe_trace_count), to trace.log
exec {tfd}> >(spe_trace_count >"$run/trace.log")
tpid=$!
trap 'exec {tfd}>&-; wait $tpid || true; [ -z "${tmp:-}" ] || rm -rf "$tmp"' EXIT
q=()
guest_qemu q "$qemu" "$machine" "$cpu" "$cpus" "$mem" "$image" "$initrd" "$cmd" \
	"${SPE_TRACE[@]}" -D "/dev/fd/$tfd" "${icount[@]}"
note "$(basename "$image") on -cpu $cpu, $cpus CPUs" >&2

if [ $# -eq 0 ]; then
	echo "== Ctrl-A x quits QEMU; exit in the guest powers it off" >&2
	rc=0
	"${q[@]}" 2> >(tee "$run/qemu.stderr" >&2) || rc=$?
	exit $rc
fi

# Command: the console through a filter that prints what is between the
# markers as it comes
rc=0
timeout -k 10 "$timeout" "${q[@]}" </dev/null 2>"$run/qemu.stderr" |
	stdbuf -oL tr -d '\r' | tee "$run/console.txt" |
	sed -n '/^==== guest-cmd begin ====$/,/^==== guest-cmd end rc=.* ====$/{//!p}' || rc=$?
grep -v '^$' "$run/qemu.stderr" >&2 || true
status=$(sed -n 's/^==== guest-cmd end rc=\([0-9]*\) ====$/\1/p' "$run/console.txt")
if [ -z "$status" ]; then
	echo "error: the guest printed no exit status (QEMU/timeout status $rc); console: $run/console.txt" >&2
	tail -n 20 "$run/console.txt" >&2
	exit 255
fi
exit "$status"
