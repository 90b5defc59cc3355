#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Cross-build tools/perf for arm64 from a kernel tree: statically linked
# with no library (the initramfs of scripts/boot.sh), or dynamically linked
# against the Debian arm64 libraries of a sysroot (the rootfs of
# scripts/guest/rootfs.sh).
#
#   scripts/guest/perf.sh [--sysroot DIR] [TREE [NAME]]
#
# TREE defaults to the base's tree (scripts/lib.sh: ktree), whatever it has
# checked out; NAME to the base's name (lib.sh: NAME).  A second run with nothing changed only
# re-runs make's up-to-date checks.
#
# Static (default): output in build/perf-NAME/, the binary is
# build/perf-NAME/perf.  Everything optional is off: the guest has no
# libraries, and what we need is "perf record" of an AUX event.  AUX area
# tracing (CONFIG_AUXTRACE, which builds arch/arm64/util/arm-spe.o) needs
# no library in 6.12 and later, so not even libelf is linked.
#
# --sysroot DIR: a Debian arm64 sysroot with the -dev packages of
# config/rootfs-packages (scripts/guest/rootfs.sh makes it).  Output in
# build/perf-NAME-full/, and "make install-bin" of it (perf, perf-core with
# the shell tests) in build/perf-NAME-full/install/.  libelf, libdw (DWARF
# and its unwinding), zlib, lzma, zstd, libnuma, libcap, slang,
# libtraceevent and the JSON event tables are on; python, perl, BPF,
# libunwind and the rest are off.
#
# Either way the script checks that arm-spe.o was built.
#
# Environment: JOBS (scripts/lib.sh), PERF_EXTRA="VAR=value ..." appended to make.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

sysroot=""
if [ "${1:-}" = --sysroot ]; then
	sysroot=$(cd "${2:-}" && pwd) || die "no sysroot ${2:-}"
	shift 2
fi
tree=$(cd "${1:-$(ktree)}" && pwd) || die "no kernel tree ${1:-}"
name=${2:-$NAME}
out=$BUILD/perf-$name
[ -z "$sysroot" ] || out=$out-full
jobs=$JOBS

[ -f "$tree/tools/perf/Makefile.perf" ] || die "$tree has no tools/perf"
command -v "${CROSS_COMPILE}gcc" >/dev/null ||
	die "${CROSS_COMPILE}gcc missing (scripts/setup.sh)"
mkdir -p "$out"

if [ -n "$sysroot" ]; then
	[ -f "$sysroot/usr/include/libelf.h" ] || die "$sysroot has no libelf-dev"
	# The compiler and pkg-config see the sysroot's headers and libraries
	# only (Debian's multiarch paths below it).
	export PKG_CONFIG=pkg-config PKG_CONFIG_SYSROOT_DIR=$sysroot
	export PKG_CONFIG_LIBDIR=$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig
	opts=(
		ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE"
		CC="${CROSS_COMPILE}gcc --sysroot=$sysroot"
		prefix=/usr DESTDIR="$out/install"
		NO_LIBPYTHON=1 NO_LIBPERL=1 NO_GTK2=1 NO_LIBBPF=1 NO_BPF_SKEL=1
		NO_LIBBABELTRACE=1 NO_LIBCRYPTO=1 NO_SDT=1 NO_JVMTI=1
		NO_LIBPFM4=1 NO_LIBDEBUGINFOD=1 NO_CAPSTONE=1 NO_LIBLLVM=1
		NO_SHELLCHECK=1 NO_RUST=1 WERROR=0 NO_AUXTRACE=
	)
	target=install-bin
else
	export PKG_CONFIG=/bin/false
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
	target=perf
fi
# PERF_EXTRA is split on blanks on purpose.
# shellcheck disable=SC2206
extra=(${PERF_EXTRA:-})

note "perf: $tree -> $out"
t0=$(date +%s)
# Feature detection runs the cross compiler; the host's pkg-config stays
# out of it (static: none at all; --sysroot: the sysroot's .pc files only).
make -C "$tree/tools/perf" O="$out" -j"$jobs" \
	"${opts[@]}" "${extra[@]}" $target >"$out/build.log" 2>&1 || {
	tail -40 "$out/build.log" >&2
	die "perf build failed, see $out/build.log"
}
[ -f "$out/arch/arm64/util/arm-spe.o" ] ||
	die "perf built without AUX area tracing (no arm-spe.o)"
if [ -n "$sysroot" ]; then
	"${CROSS_COMPILE}readelf" -l "$out/perf" | grep -q INTERP ||
		die "$out/perf is not dynamically linked"
	[ -x "$out/install/usr/bin/perf" ] || die "make install-bin left no $out/install/usr/bin/perf"
else
	! "${CROSS_COMPILE}readelf" -l "$out/perf" | grep -q INTERP ||
		echo "warning: $out/perf is not statically linked" >&2
fi
note "perf: $out/perf ($(($(date +%s) - t0))s)"
