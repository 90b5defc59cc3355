#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build qemu-system-aarch64 with our emulated SPE (FEAT_SPE) patches, and
# the other Arm targets the series must not break.
#
#   1. apt-get source qemu=$QEMU_DEB (Debian sid) into
#      build/qemu-<version>-src, through a private apt configuration of
#      its own (build/apt-qemu):
#      sid's deb-src for QEMU, trixie for the meson QEMU 10 needs
#      (bookworm's 1.0.1 is too old; the meson .deb is only unpacked)
#   2. keep a git copy of it in build/qemu-<version>-git: tag "pristine" =
#      Debian's source with Debian's own quilt patches applied, branch
#      "spe" = our series (qemu/patches, in the order of
#      qemu/patches/series) on top
#   3. configure a build of the four Arm targets (aarch64-softmmu, the
#      one with FEAT_SPE; arm-softmmu, aarch64-linux-user and
#      arm-linux-user, which have none) in build/qemu-<version> and run
#      ninja
#
# Incremental: nothing is fetched, re-applied or reconfigured when nothing
# changed; ninja then has nothing to do.
#
# --source: steps 1 and 2 only (the tree with the series, not built).
#
# Environment: JOBS (scripts/lib.sh), QEMU_DEBUG_INFO=1 to build with -g
# (QEMU's debug information), QEMU_FORCE_APPLY=1 to re-apply the series
# even if it looks unchanged.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
MESON_DEB=meson=1.7.0-1
APTQ=$BUILD/apt-qemu

# QEMU_DEB, QEMU_DIR (scripts/lib.sh)
. "$ROOT/scripts/lib.sh"
SRC=$QEMU_DIR-src
GIT=$QEMU_DIR-git
OUT=$QEMU_DIR
unset ARCH CROSS_COMPILE	# the kernel's, not QEMU's
note() { echo "== qemu: $*"; }
die() { echo "error: qemu: $*" >&2; exit 1; }

# sid_apt ARGS: apt-get in build/apt-qemu (lib.sh: apt_in)
sid_apt() { apt_in "$APTQ" "$@"; }

sid_apt_update() {
	local k=/usr/share/keyrings/debian-archive-keyring.gpg u=http://deb.debian.org/debian
	[ -f "$APTQ/updated" ] && return 0
	mkdir -p "$APTQ/lists/partial" "$APTQ/cache/archives/partial"
	printf '%s\n' "deb-src [signed-by=$k] $u sid main" \
		"deb [signed-by=$k] $u trixie main" >"$APTQ/sources.list"
	sid_apt update >&2 || die "apt-get update (private lists in $APTQ) failed"
	touch "$APTQ/updated"
}

fetch_source() {
	local d=$SRC/qemu-${QEMU_VERSION}+ds
	if [ -f "$d/VERSION" ]; then
		echo "$d"
		return
	fi
	mkdir -p "$SRC"
	note "apt-get source qemu=$QEMU_DEB (private apt configuration, $APTQ)" >&2
	sid_apt_update
	if ! (cd "$SRC" && sid_apt source -qq "qemu=$QEMU_DEB" >&2); then
		local now
		now=$(sid_apt source --print-uris qemu 2>/dev/null | sed -n "s/^'.*' qemu_\(.*\)\.dsc .*/\1/p" | head -n1)
		die "apt-get source qemu=$QEMU_DEB failed: sid no longer serves the QEMU that qemu/patches were made on (it serves ${now:-no qemu source}).
  To keep it: unpack it in $SRC/ (dpkg-source -x qemu_${QEMU_DEB#*:}.dsc, from a machine that has it) and run this again.
  To move: set QEMU_DEB in scripts/lib.sh, run qemu/build.sh, rebase branch spe of $GIT onto the new
  source and save it with qemu/format-patch.sh (check that the new version's orig tarball is served: 11.1's was not)."
	fi
	[ -f "$d/VERSION" ] || die "no unpacked source at $d"
	echo "$d"
}

# unpack_deb PKG DIR FILE: download PKG (name or name=version) through the
# private apt configuration and unpack it into DIR (not installed), unless
# DIR/FILE shows it is there already
unpack_deb() {
	local pkg=$1 dir=$2
	[ -e "$dir/$3" ] && return 0
	note "fetching $pkg (private apt configuration)"
	sid_apt_update
	rm -rf "$dir" "$dir.deb"
	mkdir -p "$dir.deb"
	(cd "$dir.deb" && sid_apt download "$pkg" >&2) || die "cannot download $pkg"
	dpkg-deb -x "$dir.deb/${pkg%%=*}"_*.deb "$dir"
	[ -e "$dir/$3" ] || die "$pkg has no $3"
}

# QEMU 10 wants meson >= 1.5: unpack trixie's (pure Python) next to the
# source and put it on PYTHONPATH for configure and ninja.
fetch_meson() {
	unpack_deb "$MESON_DEB" "$BUILD/meson" usr/lib/python3/dist-packages/mesonbuild
	export PYTHONPATH=$MESON_PY${PYTHONPATH:+:$PYTHONPATH}
}

# unsaved: what of a developer's the git copy holds that a checkout or
# a removal would lose: edits, untracked files (but the scripts' own,
# named in info/exclude), stashes, an operation in progress, commits on
# spe that qemu/format-patch.sh did not save.  Nothing printed: nothing to lose.
unsaved() {
	[ -d "$GIT/.git" ] || return 0
	git -C "$GIT" status --porcelain --untracked-files=no
	untracked "$GIT"
	git -C "$GIT" stash list
	in_progress "$GIT" | sed 's/$/ in progress/'
	if [ "$(WORK=spe series_state "$GIT" "$HERE/patches")" = unexported ]; then
		git -C "$GIT" log --oneline spe --not --tags --glob='refs/applied/*'
	fi
}

# 2. Pristine copy as tag "pristine"; our series on branch "spe".
prepare_git() {
	local d=$1 lose
	if [ -d "$GIT/.git" ] && ! cmp -s "$d/VERSION" "$GIT/VERSION"; then
		lose=$(unsaved)
		[ -z "$lose" ] || die "$GIT is of QEMU $(cat "$GIT/VERSION"), the source now $(cat "$d/VERSION"), and it holds work a new copy would lose:
$(head -n 10 <<<"$lose")
save it (qemu/format-patch.sh, git stash pop and commit...) or move $GIT away"
		note "source changed: new git copy"
		rm -rf "$GIT" "$OUT"
	fi
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

# The series is applied to branch "spe" and recorded there (lib.sh:
# record_series; qemu/format-patch.sh records its exports the same way).  A
# branch that moved past the record carries a developer's commits: it is
# built as it is, never reset, until qemu/format-patch.sh saves them.
apply_series() {
	local lose
	if [ "${QEMU_FORCE_APPLY:-0}" != 1 ]; then
		case "$(WORK=spe series_state "$GIT" "$HERE/patches")" in
		unexported)
			note "branch spe has commits that are not in qemu/patches; building it as it is (qemu/format-patch.sh to save them)"
			git -C "$GIT" checkout -q spe
			return ;;
		current)
			return ;;
		esac
	fi
	# Never a forced checkout: edits, untracked files and commits on spe
	# are a developer's (even with QEMU_FORCE_APPLY=1).
	lose=$(unsaved)
	[ -z "$lose" ] || die "qemu/patches changed, and $GIT holds work that applying them would lose:
$(head -n 10 <<<"$lose")
save it (qemu/format-patch.sh) or discard it yourself, then run this again"
	note "applying series ($(series_patches "$HERE/patches" | wc -l) patches)"
	git -C "$GIT" checkout -q -B spe pristine
	# shellcheck disable=SC2046
	am_series "$GIT" $(series_patches "$HERE/patches") || die "the series does not apply"
	WORK=spe record_series "$GIT" "$HERE/patches"
}

configure_build() {
	local t f
	# A small device set keeps the cold build short (see devices.mak);
	# qemu-system-arm adds devices-arm.mak's.
	for t in aarch64-softmmu arm-softmmu; do
		f=("$HERE/devices.mak")
		[ $t = aarch64-softmmu ] || f+=("$HERE/devices-arm.mak")
		# rewritten only when it changes: a new mtime reconfigures
		cmp -s <(cat "${f[@]}") "$GIT/configs/devices/$t/spe-test.mak" ||
			cat "${f[@]}" >"$GIT/configs/devices/$t/spe-test.mak"
		# ours, not a developer's untracked file (make clean looks for those)
		grep -qxF "/configs/devices/$t/spe-test.mak" "$GIT/.git/info/exclude" 2>/dev/null ||
			echo "/configs/devices/$t/spe-test.mak" >>"$GIT/.git/info/exclude"
	done
	if [ -f "$OUT/build.ninja" ] && [ -f "$OUT/.spe-configured" ] &&
	   [ "$(cat "$OUT/.spe-configured")" = "$CONF_ARGS" ]; then
		return
	fi
	note "configure"
	mkdir -p "$OUT"
	# shellcheck disable=SC2086
	(cd "$OUT" && qemu_ccache "$GIT/configure" $CONF_ARGS) ||
		die "configure failed"
	echo "$CONF_ARGS" > "$OUT/.spe-configured"
}

# UEFI firmware for QEMU's ACPI tables qtest (bios-tables-test), which
# looks for it as pc-bios/edk2-aarch64-code.fd and edk2-arm-vars.fd in the
# build directory: Debian's source has no edk2 images, so take trixie's
# AAVMF (qemu-efi-aarch64, Architecture: all), unpacked, not installed.
fetch_firmware() {
	local a=$BUILD/qemu-efi/usr/share/AAVMF from to
	unpack_deb qemu-efi-aarch64 "$BUILD/qemu-efi" usr/share/AAVMF/AAVMF_VARS.fd
	mkdir -p "$OUT/pc-bios"
	for from in AAVMF_CODE.no-secboot.fd:edk2-aarch64-code.fd \
		    AAVMF_VARS.fd:edk2-arm-vars.fd; do
		to=$OUT/pc-bios/${from#*:}
		from=$a/${from%%:*}
		cmp -s "$from" "$to" || cp "$from" "$to"
	done
}

# No debug information unless QEMU_DEBUG_INFO=1 asks for it (to debug
# QEMU itself): -g made translate-a64.c take 16 s to compile, not 11 s,
# and make check builds all of QEMU on a cold cache.
CONF_ARGS="--target-list=aarch64-softmmu,arm-softmmu,aarch64-linux-user,arm-linux-user
 $([ "${QEMU_DEBUG_INFO:-0}" = 1 ] || echo --disable-debug-info) --disable-docs --disable-werror --without-default-devices
 --with-devices-aarch64=spe-test --with-devices-arm=spe-test
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
 --enable-fdt=system --disable-install-blobs"
# shellcheck disable=SC2086,SC2116 # the lines above as one, split into words
CONF_ARGS=$(echo $CONF_ARGS)

# Sourced (checks/tests/safety), only the functions above are defined.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

source_only=
case "${1:-}" in
--source) source_only=1 ;;
"") ;;
*) echo "usage: $0 [--source]" >&2; exit 2 ;;
esac

# One at a time: make check builds QEMU in the background while stages
# that need no QEMU run (checks/run.sh).  The source steps and the build
# hold a lock each, so that --source (the lint stage, for QEMU's
# checkpatch.pl) waits for the first only.
mkdir -p "$BUILD"
exec 8>"$BUILD/qemu-source.lock"
flock 8
d=$(fetch_source)
prepare_git "$d"
apply_series
flock -u 8
if [ -n "$source_only" ]; then
	note "QEMU tree with the series: $GIT"
	exit 0
fi
exec 9>"$BUILD/qemu-build.lock"
flock 9
fetch_meson
configure_build
fetch_firmware
# and QEMU's CPU-features and ACPI tables qtests, which the series
# extends, and the TCG plugins make check-tcg runs tests with
note "ninja -j$JOBS qemu-system-aarch64 qemu-system-arm qemu-aarch64 qemu-arm tests/qtest/arm-cpu-features tests/qtest/bios-tables-test test-plugins"
qemu_ccache ninja -C "$OUT" -j"$JOBS" qemu-system-aarch64 qemu-system-arm qemu-aarch64 qemu-arm \
	tests/qtest/arm-cpu-features \
	tests/qtest/bios-tables-test test-plugins \
	>"$OUT/ninja.log" 2>&1 ||
	{ tail -n 40 "$OUT/ninja.log"; die "build failed (see $OUT/ninja.log)"; }
tail -n 1 "$OUT/ninja.log"
note "built $OUT/qemu-system-aarch64"
