#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# "make soak": perf record and perf report on arm_spe in a loop on emulated
# SPE under a DEN0154 hypervisor, as people test by hand for a day.  Boot
# after boot the hypervisor's limit (x-spe-max-buff-size) changes, and run
# after run inside a boot the AUX buffer size (guest/soak-loop).  Not part
# of make check.
#
#   scripts/soak.sh [--minutes N] [--boot-seconds N] [--limits "4M 2M 1M"]
#                   [--aux "4M 2M 1M 512K"] [--image FILE]
#
# Default: 30 minutes, boots of 300 s, the patched Image of BASE.  Prints,
# per boot and in total: runs, samples decoded, storms (boots in which
# QEMU counted 65536+ reads of a stopped PMBSR_EL1), runs with data lost
# (AUX records with the TRUNCATED flag) and how many of those perf report
# reported ("AUX data lost"), runs that failed.  Exit status 1 if there was
# a storm, an unreported loss, a failed run or a boot that did not finish.
# Logs: build/soak/<boot>/ (console.txt, trace.log, output.txt).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

minutes=30 boot_s=300 limits="4M 2M 1M" aux="4M 2M 1M 512K" image=""
while [ $# -gt 0 ]; do
	case "$1" in
	--minutes) minutes=$2; shift 2 ;;
	--boot-seconds) boot_s=$2; shift 2 ;;
	--limits) limits=$2; shift 2 ;;
	--aux) aux=$2; shift 2 ;;
	--image) image=$2; shift 2 ;;
	*) die "unknown option $1 (see scripts/soak.sh)" ;;
	esac
done
[ -n "$image" ] || image=$(need_image work)
"$ROOT/qemu/build.sh" >&2 || die "qemu/build.sh failed"
"$ROOT/scripts/guest/rootfs.sh" >&2 || die "scripts/guest/rootfs.sh failed"

read -ra lims <<<"$limits"
read -ra auxes <<<"$aux"
out=$BUILD/soak
rm -rf "$out"
mkdir -p "$out"
end=$(($(date +%s) + minutes * 60))
boots=0 runs=0 samples=0 storms=0 lost=0 reported=0 failed=0 unfinished=0
while [ "$(date +%s)" -lt "$end" ]; do
	left=$((end - $(date +%s)))
	secs=$((left < boot_s ? left : boot_s))
	lim=${lims[boots % ${#lims[@]}]}
	boots=$((boots + 1))
	d=$out/$boots-$lim
	"$ROOT/scripts/guest.sh" --image "$image" --mode den0154 --limit "$lim" \
		--timeout $((secs + 300)) --out "$d" -- /tests/soak-loop "$secs" "${auxes[@]}" \
		>"$d.output.txt" 2>&1 || true
	mv "$d.output.txt" "$d/output.txt"
	read -r r s l rep f < <(awk '/^SOAK aux=/ {
		n++; for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		s += v["samples"]; if (v["rc"] != 0) f++
		if (v["truncated"] > 0) { l++; if (v["reported"] == "yes") r++ }
	} END { print n + 0, s + 0, l + 0, r + 0, f + 0 }' "$d/output.txt")
	st=$(qemu_counter "$d/trace.log" stopped_reads)
	storm=no
	[ "$st" -lt "$STORM_READS" ] || { storm=yes; storms=$((storms + 1)); }
	done_=yes
	grep -q '^SOAK done ' "$d/output.txt" || { done_=no; unfinished=$((unfinished + 1)); }
	echo "boot $boots: limit $lim, ${secs}s: runs $r, samples $s, data lost in $l (reported $rep), failed $f, storm $storm (stopped-PMBSR reads $st+), finished $done_"
	runs=$((runs + r)) samples=$((samples + s)) lost=$((lost + l))
	reported=$((reported + rep)) failed=$((failed + f))
done
echo "soak: $minutes min, $boots boots, $runs runs, $samples samples decoded, $storms storms, data lost in $lost runs ($reported reported, $((lost - reported)) not), $failed failed runs, $unfinished unfinished boots"
[ "$storms" -eq 0 ] && [ "$lost" -eq "$reported" ] && [ "$failed" -eq 0 ] && [ "$unfinished" -eq 0 ]
