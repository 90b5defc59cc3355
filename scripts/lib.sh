# SPDX-License-Identifier: GPL-2.0
# Common settings for the project's scripts.  Sourced, never run.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
# Debian's python3 first: the kernel's scripts (spdxcheck.py, kunit.py) need
# python3-ply and python3-git from Debian, not another python3 on PATH.
export PATH=/usr/bin:/bin:$PATH
export ARCH=arm64
export CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
# The Debian package that carries the default base tree.
LINUX_TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
JOBS=${JOBS:-$(nproc)}

die() { echo "error: $*" >&2; exit 1; }
note() { echo "== $*"; }

# Where the kernel tree lives: our own unpacked copy of the Debian
# package, or a worktree of the user's tree (KSRC) at BASE, or KTREE used
# as it is (with BASE_TAG and WORK naming its refs).
ktree() {
	if [ -n "${KTREE:-}" ]; then
		echo "$KTREE"
	elif [ -n "${KSRC:-}" ]; then
		echo "$BUILD/wt-$(echo "${BASE:-HEAD}" | tr '/' '_')"
	else
		echo "$BUILD/linux"
	fi
}

# The series folder that matches the tree: 6.12.y for a 6.12 base,
# mainline otherwise.  SERIES=<folder> overrides.
series_dir() {
	local t=${1:-$(ktree)} v
	if [ -n "${SERIES:-}" ]; then
		echo "$ROOT/series/$SERIES"
		return
	fi
	v=$(make -s -C "$t" kernelversion 2>/dev/null)
	case "$v" in
	6.12.*) echo "$ROOT/series/6.12.y" ;;
	*) echo "$ROOT/series/mainline" ;;
	esac
}

# Patches of a series folder, in the order of its series file.
series_patches() {
	local d=$1
	[ -f "$d/series" ] || return 0
	grep -v '^[[:space:]]*\(#\|$\)' "$d/series" | sed "s|^|$d/|"
}

# The base is tagged BASE_TAG and the series applied on branch WORK. In a
# tree of the user's own (KSRC) they carry a prefix, not to clash with
# the user's refs.
if [ -n "${KSRC:-}" ]; then
	BASE_TAG=${BASE_TAG:-spe-vm/base}
	WORK=${WORK:-spe-vm/work}
else
	BASE_TAG=${BASE_TAG:-base}
	WORK=${WORK:-work}
fi

kout() { echo "$BUILD/kout-$(basename "${1:-$(ktree)}")-$(basename "$(series_dir "$@")")"; }

kmake() {
	local t=$1
	shift
	make -C "$t" O="$(kout "$t")" -j"$JOBS" CC="ccache ${CROSS_COMPILE}gcc" "$@"
}

# Result lines for the final count: RESULT <pass|fail|skip> <name>
result() { echo "RESULT $1 $2"; }

stage_start() { STAGE_T0=$(date +%s); note "stage $1"; }
stage_end() { echo "TIME $1 $(($(date +%s) - STAGE_T0))s"; }
