#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build qemu-system-aarch64 with our emulated SPE (FEAT_SPE) patches.
#
#   1. (none: the sources come through the private apt configuration of
#      scripts/lib.sh, with deb-src entries for the machine's own suites)
#   2. apt-get source qemu into build/qemu-src (once)
#   3. keep a git copy of it in build/qemu-git: branch "debian" = pristine
#      source with Debian's own quilt patches applied, branch "spe" = our
#      series (qemu/patches, in the order of qemu/patches/series) on top
#   4. configure an aarch64-softmmu-only build in build/qemu and run ninja
#
# Incremental: nothing is fetched, re-applied or reconfigured when nothing
# changed; ninja then has nothing to do.
#
# Environment: JOBS (default 2), QEMU_SRC_PKG (default qemu),
# QEMU_FORCE_APPLY=1 to re-apply the series even if it looks unchanged.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
SRC=$BUILD/qemu-src
GIT=$BUILD/qemu-git
OUT=$BUILD/qemu
JOBS=${JOBS:-2}
PKG=${QEMU_SRC_PKG:-qemu}

# papt: apt-get with the project's private configuration (scripts/lib.sh)
. "$ROOT/scripts/lib.sh"
unset ARCH CROSS_COMPILE	# the kernel's, not QEMU's
note() { echo "== qemu: $*"; }
die() { echo "error: qemu: $*" >&2; exit 1; }

fetch_source() {
	local d
	d=$(find "$SRC" -mindepth 1 -maxdepth 1 -type d -name 'qemu-*' 2>/dev/null | head -n1)
	if [ -n "$d" ] && [ -f "$d/VERSION" ]; then
		echo "$d"
		return
	fi
	mkdir -p "$SRC"
	note "apt-get source $PKG (private apt configuration, build/apt)" >&2
	papt_update
	(cd "$SRC" && papt source -qq "$PKG" >&2) || die "apt-get source $PKG failed"
	d=$(find "$SRC" -mindepth 1 -maxdepth 1 -type d -name 'qemu-*' | head -n1)
	[ -n "$d" ] || die "no unpacked source under $SRC"
	echo "$d"
}

# 2./3. Pristine copy as branch "debian"; our series on branch "spe".
prepare_git() {
	local d=$1
	if [ ! -d "$GIT/.git" ]; then
		note "creating git copy $GIT"
		rm -rf "$GIT"
		mkdir -p "$GIT"
		# Debian's tree after dpkg-source -x already has debian/patches applied.
		(cd "$d" && tar --exclude=./.pc -cf - .) | (cd "$GIT" && tar -xf -)
		git_import "$GIT" "Debian $(head -n1 "$GIT/debian/changelog" | sed 's/.*(\(.*\)).*/\1/') source"
		git -C "$GIT" tag pristine
	fi
}

apply_series() {
	local stamp cur
	stamp=$(series_fingerprint "$HERE/patches")
	cur=$(cat "$GIT/.git/spe-series-stamp" 2>/dev/null || true)
	if [ "$stamp" = "$cur" ] && [ "${QEMU_FORCE_APPLY:-0}" != 1 ] &&
	   git -C "$GIT" rev-parse -q --verify spe >/dev/null; then
		return
	fi
	note "applying series ($(series_patches "$HERE/patches" | wc -l) patches)"
	git -C "$GIT" checkout -q -f -B spe pristine
	# shellcheck disable=SC2046
	am_series "$GIT" $(series_patches "$HERE/patches") || die "the series does not apply"
	echo "$stamp" > "$GIT/.git/spe-series-stamp"
}

configure_build() {
	# A small device set keeps the cold build short (see devices.mak).
	if ! cmp -s "$HERE/devices.mak" "$GIT/configs/devices/aarch64-softmmu/spe-test.mak"; then
		cp "$HERE/devices.mak" "$GIT/configs/devices/aarch64-softmmu/spe-test.mak"
	fi
	if [ -f "$OUT/build.ninja" ] && [ -f "$OUT/.spe-configured" ] &&
	   [ "$(cat "$OUT/.spe-configured")" = "$CONF_ARGS" ]; then
		return
	fi
	note "configure"
	mkdir -p "$OUT"
	# shellcheck disable=SC2086
	# Through ccache (Debian's /usr/lib/ccache): a fresh clone rebuilds fast.
	(cd "$OUT" && PATH=/usr/lib/ccache:$PATH "$GIT/configure" $CONF_ARGS) ||
		die "configure failed"
	echo "$CONF_ARGS" > "$OUT/.spe-configured"
}

CONF_ARGS="--target-list=aarch64-softmmu --disable-docs --disable-werror
 --without-default-devices --with-devices-aarch64=spe-test
 --disable-gtk --disable-sdl --disable-vnc --disable-opengl --disable-virglrenderer
 --disable-spice --disable-curses --disable-cocoa --disable-gio --disable-vte
 --disable-slirp --disable-vde --disable-netmap --disable-l2tpv3
 --disable-libusb --disable-usb-redir --disable-smartcard --disable-brlapi
 --disable-curl --disable-rbd --disable-libiscsi --disable-libnfs --disable-glusterfs
 --disable-libssh --disable-bzip2 --disable-lzo --disable-snappy --disable-zstd
 --disable-capstone --disable-tools --disable-guest-agent --disable-xkbcommon
 --disable-pa --disable-alsa --disable-oss --disable-jack --disable-sndio
 --disable-gnutls --disable-nettle --disable-gcrypt --disable-auth-pam
 --disable-linux-io-uring --disable-seccomp --disable-tpm --disable-numa
 --disable-kvm --disable-xen --disable-bpf --disable-libudev --disable-mpath
 --disable-vhost-user --disable-vhost-user-blk-server --disable-vduse-blk-export
 --disable-libvduse --disable-fuse --disable-dbus-display --disable-qom-cast-debug
 --enable-fdt=system"
CONF_ARGS=$(echo $CONF_ARGS)

d=$(fetch_source)
prepare_git "$d"
apply_series
configure_build
note "ninja -j$JOBS qemu-system-aarch64"
ninja -C "$OUT" -j"$JOBS" qemu-system-aarch64 >"$OUT/ninja.log" 2>&1 ||
	{ tail -n 40 "$OUT/ninja.log"; die "build failed (see $OUT/ninja.log)"; }
tail -n 1 "$OUT/ninja.log"
note "built $OUT/qemu-system-aarch64"
