#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The guest root filesystem: Debian arm64 packages, the perf tool of the
# tree of BASE built against them, our test programs and the tree's
# perf_events kselftests (in /tests and /tests/perf_events), the KVM
# host test (guest/kvm-host-test, with guest/kvm-spin),
# packed as an initramfs.  "make rootfs" runs this; scripts/guest.sh boots
# it.
#
#   scripts/guest/rootfs.sh
#
# Output in build/guest/ (NAME: the base's name, scripts/lib.sh, e.g. 7.3):
#   NAME/rootfs-bookworm.cpio.gz   the initramfs (/init: guest/rootfs-init)
#   NAME/rootfs-bookworm/          the tree it was packed from
#   NAME/rootfs-bookworm.packages  its packages, with versions
#   sysroot-bookworm/                the same packages and their -dev
#                                    packages, which perf is built against
# and build/perf-NAME-full/ (scripts/guest/perf.sh --sysroot).
#
# Packages: config/rootfs-packages, dependencies resolved by apt-get with
# a private arm64-only configuration under build/apt-arm64 (the bookworm
# entries of lib.sh's private_apt; the machine gains no foreign architecture and
# its apt state is not touched), downloaded to build/apt-arm64/debs and
# unpacked with dpkg-deb (no maintainer scripts run: what they would do
# that matters here is done below).
#
# Rebuilt only when an input changes: this script, rootfs-init, the
# package list or the versions apt resolves it to, the scripts that build
# perf and the tests, the tree's tools/ and uapi headers, our test
# sources, the cross compiler.  ROOTFS_UPDATE=1 fetches the package lists
# again (otherwise once per build/ folder).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

suite=bookworm
list=$ROOT/config/rootfs-packages
out=$BUILD/guest
sysroot=$out/sysroot-$suite
apt=$BUILD/apt-arm64

# arm64_apt ARGS...: apt-get for arm64 only, in build/apt-arm64 (lib.sh: apt_in)
arm64_apt() { apt_in "$apt" --arch arm64 "$@"; }
arm64_apt_update() {
	private_apt_init
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
	grep "^deb .* $suite\(-[a-z]*\)\? " "$BUILD/apt/sources.list" >"$apt/sources.list.tmp" ||
		die "no $suite entries in $BUILD/apt/sources.list"
	mv "$apt/sources.list.tmp" "$apt/sources.list"
	[ -f "$apt/updated" ] && [ -z "${ROOTFS_UPDATE:-}" ] && return 0
	arm64_apt update >&2 || die "apt-get update (arm64 lists in $apt) failed"
	touch "$apt/updated"
}

# resolve PKG...: "name version" of PKG and everything it depends on
# (no recommends), as apt would install them on an empty system
resolve() {
	arm64_apt -s install --no-install-recommends "$@" >"$apt/resolve.log" 2>&1 || {
		cat "$apt/resolve.log" >&2
		die "apt cannot resolve the packages of $list"
	}
	sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1 \2/p' "$apt/resolve.log" | LC_ALL=C sort
}

# deb NAME VERSION: the path of its .deb in the download folder
deb() {
	local f
	for f in "$apt/debs/$1_${2//:/%3a}_"*.deb; do
		[ -e "$f" ] && echo "$f"
		return
	done
}

# unpack DIR: a merged-/usr tree of the packages ("name version" lines on
# stdin).  dpkg-deb -x would replace the /bin, /sbin and /lib symlinks
# with directories, so its data tar goes through tar --keep-directory-symlink.
unpack() {
	local d=$1 n v
	rm -rf "$d"
	mkdir -p "$d/usr/bin" "$d/usr/sbin" "$d/usr/lib"
	ln -s usr/bin "$d/bin"
	ln -s usr/sbin "$d/sbin"
	ln -s usr/lib "$d/lib"
	while read -r n v; do
		dpkg-deb --fsys-tarfile "$(deb "$n" "$v")" |
			tar -x -C "$d" --keep-directory-symlink --no-same-owner ||
			die "cannot unpack $n $v"
	done
}

t=$(work_ktree)
root=$out/$NAME/rootfs-$suite
img=$root.cpio.gz
mkdir -p "$out/$NAME"

arm64_apt_update
mapfile -t run_pkgs < <(grep -v '^[[:space:]]*\(#\|$\|dev:\)' "$list")
mapfile -t dev_pkgs < <(sed -n 's/^dev://p' "$list")
runtime=$(resolve "${run_pkgs[@]}")
all=$(resolve "${run_pkgs[@]}" "${dev_pkgs[@]}")

uapi=(tools include/uapi arch/arm64/include/uapi)
key=$({
	(cd "$ROOT" && cat scripts/guest/rootfs.sh guest/rootfs-init guest/upstream-tests guest/soak-loop \
		scripts/guest/perf.sh \
		scripts/guest/kselftest.sh scripts/guest/programs.sh scripts/lib.sh \
		guest/kvm-host-test guest/tap-lib config/rootfs-packages guest/tests/*/*.c \
		guest/kvm-spin/*.c)
	echo "$runtime"; echo "$all"
	for d in "${uapi[@]}"; do git -C "$t" rev-parse "HEAD:$d"; done
	git -C "$t" diff HEAD -- "${uapi[@]}"
	"${CROSS_COMPILE}gcc" --version | head -n1
} | sha1sum | cut -c1-40)
if [ -f "$img" ] && [ "$(cat "$img.stamp" 2>/dev/null)" = "$key" ]; then
	note "rootfs: $img, up to date"
	exit 0
fi
rm -f "$img.stamp"
t0=$(date +%s)

# Download what is missing
need=()
while read -r n v; do
	[ -n "$(deb "$n" "$v")" ] || need+=("$n=$v")
done <<<"$all"
if [ ${#need[@]} -gt 0 ]; then
	note "rootfs: downloading ${#need[@]} arm64 packages"
	(cd "$apt/debs" && arm64_apt download "${need[@]}" >&2) || die "apt-get download failed"
fi

# The sysroot, only when its packages changed
if [ "$(cat "$sysroot.packages" 2>/dev/null)" != "$all" ]; then
	note "rootfs: sysroot $sysroot"
	rm -f "$sysroot.packages"
	unpack "$sysroot" <<<"$all"
	echo "$all" >"$sysroot.packages"
fi

# What goes in: perf against the sysroot, our tests, the kselftest
"$ROOT/scripts/guest/perf.sh" --sysroot "$sysroot" "$t"
"$ROOT/scripts/guest/programs.sh" tests
"$ROOT/scripts/guest/kselftest.sh" "$t"

note "rootfs: $root"
unpack "$root" <<<"$runtime"
echo "$runtime" >"$root.packages"
(
	cd "$root"
	# What maintainer scripts and update-alternatives would have made
	ln -sf mawk usr/bin/awk
	ln -sf /bin/busybox usr/sbin/poweroff
	ln -sf /bin/busybox usr/sbin/reboot
	# root, and "spe", the unprivileged user of upstream-tests --user
	printf 'root:x:0:0:root:/root:/bin/bash\nspe:x:1000:1000:spe:/home/spe:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >etc/passwd
	printf 'root:x:0:\nspe:x:1000:\nnogroup:x:65534:\n' >etc/group
	printf 'root:*:19000:0:99999:7:::\nspe:*:19000:0:99999:7:::\n' >etc/shadow
	mkdir -p home/spe
	echo spe-guest >etc/hostname
	mkdir -p etc/profile.d root
	cp usr/share/base-files/profile etc/profile
	cp usr/share/base-files/dot.profile root/.profile
	cp usr/share/base-files/dot.bashrc root/.bashrc
	# shellcheck disable=SC2016 # $PATH is the guest shell's, expanded there
	echo 'PATH=$PATH:/tests' >etc/profile.d/spe-guest.sh
	: >etc/fstab
	# Not needed in a guest that lives in RAM
	rm -rf usr/share/doc usr/share/man usr/share/info usr/share/locale \
		usr/share/lintian usr/share/bug usr/share/common-licenses
	mkdir -p root tmp run proc sys dev tests
	chmod 1777 tmp
)
cp -a "$BUILD/perf-$NAME-full/install/." "$root/"
"${CROSS_COMPILE}strip" "$root/usr/bin/perf"
install -m 0755 "$BUILD/guest/tests/perf-spe-cap" "$BUILD/guest/tests/perf-spe-record" \
	"$BUILD/kselftest-$NAME/arm_spe_buffer" "$root/tests/"
mkdir -p "$root/tests/perf_events"
while read -r p; do
	install -m 0755 "$BUILD/kselftest-$NAME/perf_events/$p" "$root/tests/perf_events/"
done <"$BUILD/kselftest-$NAME/perf_events/tests"
cp "$BUILD/kselftest-$NAME/perf_events/tests" "$root/tests/perf_events/"
install -m 0755 "$BUILD/guest/kvm-spin" "$ROOT/guest/upstream-tests" "$ROOT/guest/kvm-host-test" \
	"$ROOT/guest/soak-loop" "$root/tests/"
install -m 0644 "$ROOT/guest/tap-lib" "$root/tests/"
install -m 0755 "$ROOT/guest/rootfs-init" "$root/init"

# Every library perf needs is in the rootfs
for l in $("${CROSS_COMPILE}readelf" -d "$root/usr/bin/perf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
	[ -e "$root/usr/lib/aarch64-linux-gnu/$l" ] || die "perf needs $l, which is not in the rootfs"
done

pack_cpio "$root" "$img" || die "cannot pack $img"
echo "$key" >"$img.stamp"
note "rootfs: $img ($(du -m "$img" | cut -f1) MB, $(($(date +%s) - t0))s)"
