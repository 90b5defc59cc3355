# SPDX-License-Identifier: GPL-2.0
# Common settings for the project's scripts.  Sourced, never run.
# shellcheck shell=bash
# shellcheck disable=SC2034 # its variables are for the scripts that source it

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
# Our QEMU (qemu/build.sh) is built from this Debian source package (sid).
# Debian sid lists qemu 1:11.1.x too, but this machine's mirror does not
# serve its files (404); 10.2.2 is the newest QEMU source it has.
QEMU_DEB=1:10.2.2+ds-1
QEMU_VERSION=${QEMU_DEB#*:}
QEMU_VERSION=${QEMU_VERSION%%+*}
QEMU_DIR=$BUILD/qemu-$QEMU_VERSION
# The meson QEMU's build needs (qemu/build.sh unpacks it): its PYTHONPATH
MESON_PY=$BUILD/meson/usr/lib/python3/dist-packages
# Debian's python3 first: the kernel's scripts (spdxcheck.py, kunit.py) need
# python3-ply and python3-git from Debian, not another python3 on PATH.
export PATH=/usr/bin:/bin:$PATH
export ARCH=arm64
export CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
# Paths under the project are hashed relative to it, so that a second
# clone (CI's fresh one) hits what the first one compiled.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$ROOT}
# On a miss, ccache takes the include files from the compiler's own
# dependency output (the kernel's -Wp,-MMD, QEMU's -MD) instead of
# running the preprocessor first: kernel/sched/core.c compiled in 2.7 s
# without ccache, 3.6 s through an empty cache, 3.0 s in this mode.  A
# hit is found as before (ccache's direct mode).
export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
# Parallel jobs, for every build of the project (kernel, QEMU, perf,
# mutants): JOBS=n, default the machine's CPUs.
export JOBS=${JOBS:-$(nproc)}
# A storm: QEMU counted at least this many reads of a stopped PMBSR_EL1
# (its counters are traced at powers of two; a handler that works reads
# it a handful of times per interrupt).
STORM_READS=65536

# Trees and files that only the checks create live under CHECK_DIR, a
# name no user command (make, make apply, KSRC=...) writes to, so that a
# check never writes into a tree it did not create.
CHECK_DIR=$BUILD/check

die() { echo "error: $*" >&2; exit 1; }
note() { echo "== $*"; }

# The Debian bases: BASE=<name> picks one (default: the current mainline
# release).  Each is Debian's linux-source package of that kernel, fetched
# through a private apt configuration (private_apt below), never installed; its
# series folder is series/<name>.
DEFAULT_BASE=7.3
DEBIAN_BASES="7.3 6.12.y"
# Bases that take only the stable fixes (series/<name>/fixes), checked by
# checks/run.sh --stable (make check-stable), not by make check.
STABLE_BASES="6.1.y"
# Bases the feature series is tested on but never posted for (stable
# takes fixes only): make outgoing writes only their fixes/ postings.
TEST_BASES="6.12.y"
base_pkg() {
	case "$1" in
	7.3) echo linux-source-7.3 ;;		# trixie-backports
	6.12.y) echo linux-source-6.12 ;;	# bookworm(-security)
	6.1.y) echo linux-source-6.1 ;;		# bookworm(-security)
	*) return 1 ;;
	esac
}
# base_version BASE: the version of the package the series folder of BASE
# was made on.  Pinned: the day Debian serves a newer one, a fresh clone
# stops and says so (base_deb) instead of exporting other bytes.
base_version() {
	case "$1" in
	7.3) echo 7.3.4-1~bpo13+1 ;;
	6.12.y) echo 6.12.118-1~deb12u1 ;;
	6.1.y) echo 6.1.192-3 ;;
	*) return 1 ;;
	esac
}

# With KSRC (a tree of the user's own) BASE is a revision of that tree.
if [ -z "${KSRC:-}" ]; then
	BASE=${BASE:-$DEFAULT_BASE}
	[ -n "${KTREE:-}" ] || base_pkg "$BASE" >/dev/null ||
		die "BASE=$BASE: not one of: $DEBIAN_BASES $STABLE_BASES (or set KSRC=/path/to/linux)"
fi

# The helpers, by job, in this order (each may use the ones before).
# shellcheck source=lib/apt.sh
. "$ROOT/scripts/lib/apt.sh"
# shellcheck source=lib/trees.sh
. "$ROOT/scripts/lib/trees.sh"
# shellcheck source=lib/checkpatch.sh
. "$ROOT/scripts/lib/checkpatch.sh"
# shellcheck source=lib/qemu.sh
. "$ROOT/scripts/lib/qemu.sh"
# shellcheck source=lib/mail.sh
. "$ROOT/scripts/lib/mail.sh"
# shellcheck source=lib/results.sh
. "$ROOT/scripts/lib/results.sh"
