# SPDX-License-Identifier: GPL-2.0
# Part of lib.sh: the guests' QEMU command line, their initramfs, and
# the emulated SPE's trace. Sourced by lib.sh, never run.
# shellcheck shell=bash
# shellcheck disable=SC2034 # its variables are for the scripts that source lib.sh

# qemu_binary debian|spe|PATH: the QEMU that --qemu names, for both boot
# runners (scripts/boot.sh, scripts/guest.sh): Debian's
# qemu-system-aarch64 (no SPE), ours with emulated SPE (qemu/build.sh,
# "make qemu"), or that file.
qemu_binary() {
	case "$1" in
	debian) echo /usr/bin/qemu-system-aarch64 ;;
	spe) echo "$QEMU_DIR/qemu-system-aarch64" ;;
	*) echo "$1" ;;
	esac
}

# qemu_ccache COMMAND...: run COMMAND (ninja, or check-tcg's make) so
# that the compiler QEMU's configure recorded, "cc", is Debian's ccache
# wrapper: paths under the project hashed as relative ones (lib.sh:
# CCACHE_BASEDIR) and the build directory not at all, so that another
# clone's build (CI's) finds this one's objects.
qemu_ccache() {
	PATH=/usr/lib/ccache:$PATH CCACHE_NOHASHDIR=true "$@"
}

# guest_qemu ARRAY QEMU MACHINE CPU SMP MEM IMAGE INITRD CMDLINE [QEMU ARGS...]:
# set ARRAY (a name) to the one QEMU command line of the project's guests
# (scripts/boot.sh, scripts/guest.sh): serial console on stdio, no
# reboot, no network, and a kernel command line that starts with the
# console, kpti=off and panic=-1, then CMDLINE.
guest_qemu() {
	local -n _q=$1
	_q=("$2" -M "$3" -cpu "$4" -smp "$5" -m "$6" -nographic -no-reboot -nic none
		-kernel "$7" -initrd "$8" -append "console=ttyAMA0 kpti=off panic=-1${9:+ $9}" "${@:10}")
}

# pack_cpio DIR OUT: DIR as a gzipped newc archive OUT (written whole or
# not at all), files in name order and owned by root, so that the same
# tree always packs to the same bytes.  The one packer of the guests'
# archives (scripts/guest/initramfs.sh, scripts/guest/rootfs.sh, scripts/guest.sh).
pack_cpio() {
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1 -n) >"$2.tmp" &&
		mv "$2.tmp" "$2"
}

# spe_trace_count: QEMU's trace on stdin, out on stdout with the lines of
# three SPE trace events replaced by counts: one line per record written
# (arm_spe_record), per record discarded (arm_spe_discard) and per read of
# a stopped PMBSR_EL1 (arm_spe_pmbsr_read_stopped) are counted per CPU,
# and written as "arm_spe_count cpu N WHAT VALUE" (WHAT: records,
# discarded, stopped_reads) each time VALUE reaches a power of two, and
# with the final VALUE at the end.  An interrupt storm is millions of
# reads: only their count is kept.  Every other line passes through.
spe_trace_count() {
	awk 'match($0, /arm_spe_(record|discard|pmbsr_read_stopped) cpu [0-9]+/) {
		split(substr($0, RSTART, RLENGTH), f, " ")
		what = "stopped_reads"
		if (f[1] == "arm_spe_record") what = "records"
		if (f[1] == "arm_spe_discard") what = "discarded"
		k = what " " f[3]
		if (!(k in at)) at[k] = 1
		if (++n[k] == at[k]) {
			printf "arm_spe_count cpu %s %s %d\n", f[3], what, n[k]
			at[k] *= 2
		}
		next
	}
	{ print }
	END {
		for (k in n) {
			split(k, p, " ")
			printf "arm_spe_count cpu %s %s %d\n", p[2], p[1], n[k]
		}
	}'
}

# SPE_TRACE: the QEMU trace events spe_trace_count reads, and the
# management events; without arm_spe_record, a line per record written,
# which only boot.sh adds (its checks count records): tracing each of
# them costs more guest time than writing it.
SPE_TRACE=(-trace arm_spe_discard -trace arm_spe_pmbsr_read_stopped
	-trace arm_spe_event)

# Result lines for the final count: RESULT <pass|fail|skip> <name>
# qemu_counter FILE WHAT: how far QEMU's SPE count WHAT (records,
# discarded, stopped_reads: PMBSR_EL1 reads while S == 1) got, summed over
# the CPUs, from a trace spe_trace_count wrote to FILE: exact when the
# trace ended, else a lower bound within a factor of two.
qemu_counter() {
	awk -v what="$2" '$0 ~ "arm_spe_count cpu [0-9]+ " what " [0-9]+$" {
		n = split($0, f, " "); cpu = f[n - 2]
		if (f[n] + 0 > max[cpu]) max[cpu] = f[n] + 0
	} END { for (c in max) s += max[c]; print s + 0 }' "$1"
}
