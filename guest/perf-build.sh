#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Cross-build tools/perf for arm64, statically linked, from a kernel tree.
#
#   guest/perf-build.sh [TREE [NAME]]
#
# TREE defaults to build/linux (whatever it has checked out); NAME defaults
# to the tree's directory name.  Output goes to build/perf-NAME/, the binary
# is build/perf-NAME/perf.  A second run with nothing changed only re-runs
# make's up-to-date checks.
#
# Everything optional is off: the guest has no libraries, and what we need
# is "perf record" of an AUX event.  AUX area tracing (CONFIG_AUXTRACE, which
# builds arch/arm64/util/arm-spe.o) needs no library in 6.12 and later, so
# not even libelf is linked; the script checks that arm-spe.o was built.
#
# Environment: JOBS (default 2), PERF_EXTRA="VAR=value ..." appended to make.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

tree=$(cd "${1:-$BUILD/linux}" && pwd) || die "no kernel tree ${1:-}"
name=${2:-$(basename "$tree")}
out=$BUILD/perf-$name
jobs=${JOBS:-2}
[ "$jobs" -gt 2 ] && jobs=2

[ -f "$tree/tools/perf/Makefile.perf" ] || die "$tree has no tools/perf"
command -v "${CROSS_COMPILE}gcc" >/dev/null ||
	die "${CROSS_COMPILE}gcc missing (scripts/setup.sh)"
mkdir -p "$out"

opts=(
	ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE"
	LDFLAGS=-static
	NO_LIBELF=1 NO_DWARF=1 NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1
	NO_LIBPYTHON=1 NO_LIBPERL=1 NO_GTK2=1 NO_SLANG=1
	NO_LIBBPF=1 NO_BPF_SKEL=1 NO_LIBCAP=1 NO_LIBNUMA=1
	NO_LIBBABELTRACE=1 NO_LIBCRYPTO=1 NO_SDT=1 NO_JVMTI=1
	NO_LIBZSTD=1 NO_LIBLZMA=1 NO_ZLIB=1 NO_LIBTRACEEVENT=1
	NO_LIBPFM4=1 NO_LIBDEBUGINFOD=1 NO_CAPSTONE=1 NO_LIBLLVM=1
	NO_AIO=1 NO_JEVENTS=1 NO_DEMANGLE=1 NO_SHELLCHECK=1 NO_RUST=1
	WERROR=0 NO_AUXTRACE=
)
# PERF_EXTRA is split on blanks on purpose.
# shellcheck disable=SC2206
extra=(${PERF_EXTRA:-})

note "perf: $tree -> $out"
t0=$(date +%s)
# Feature detection runs the cross compiler; keep host pkg-config out of it.
PKG_CONFIG=/bin/false make -C "$tree/tools/perf" O="$out" -j"$jobs" \
	"${opts[@]}" "${extra[@]}" perf >"$out/build.log" 2>&1 || {
	tail -40 "$out/build.log" >&2
	die "perf build failed, see $out/build.log"
}
[ -f "$out/arch/arm64/util/arm-spe.o" ] ||
	die "perf built without AUX area tracing (no arm-spe.o)"
! "${CROSS_COMPILE}readelf" -l "$out/perf" | grep -q INTERP ||
	echo "warning: $out/perf is not statically linked" >&2
note "perf: $out/perf ($(($(date +%s) - t0))s)"
