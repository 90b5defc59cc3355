# SPDX-License-Identifier: GPL-2.0
# Part of lib.sh: apt-get with private configurations, and the Debian
# base packages. Sourced by lib.sh, never run.
# shellcheck shell=bash
# shellcheck disable=SC2034 # its variables are for the scripts that source lib.sh

# private_apt ARGS...: apt-get with a private configuration under build/apt, so
# that fetching a package of another Debian suite changes nothing of what
# the machine's own packages resolve to.  The archive is the one the
# machine's Debian entries already use.
private_apt_init() {
	local d=$BUILD/apt uri src
	[ -f "$d/sources.list" ] && return 0
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	{
		# The machine's own Debian suites (bookworm, its updates and
		# security), as one-line entries...
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			awk 'BEGIN { RS = "" }
			     /(^|\n)Types:([^\n]* )?deb( |\n|$)/ && !/(^|\n)Enabled: *no/ {
				u = s = c = k = ""
				n = split($0, l, "\n")
				for (i = 1; i <= n; i++) {
					if (l[i] ~ /^URIs:/) { sub(/^URIs: */, "", l[i]); u = l[i] }
					if (l[i] ~ /^Suites:/) { sub(/^Suites: */, "", l[i]); s = l[i] }
					if (l[i] ~ /^Components:/) { sub(/^Components: */, "", l[i]); c = l[i] }
					if (l[i] ~ /^Signed-By:/) { sub(/^Signed-By: */, "", l[i]); k = l[i] }
				}
				if (u !~ /debian/) next
				m = split(s, ss, " ")
				for (j = 1; j <= m; j++)
					printf "deb [signed-by=%s] %s %s %s\n", k, u, ss[j], c
			     }' "$f"
		done
		grep -s '^deb .*debian' /etc/apt/sources.list || true
		# ...and the current kernel's suite from the same archive.
		uri=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
			grep -o 'https\?://[^ ]*/debian/\?$' | head -n1)
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri trixie-backports main"
	} >"$d/sources.list.tmp"
	grep -q '^deb .* bookworm ' "$d/sources.list.tmp" || die "no Debian archive configured in /etc/apt"
	# Sources of the machine's own suites (QEMU's, for qemu/build.sh)
	src=$(sed -n '/trixie/!s/^deb /deb-src /p' "$d/sources.list.tmp")
	echo "$src" >>"$d/sources.list.tmp"
	mv "$d/sources.list.tmp" "$d/sources.list"
	rm -f "$d/updated"
}
private_apt() {
	private_apt_init
	apt_in "$BUILD/apt" "$@"
}

# apt_in DIR [--arch ARCH] ARGS...: apt-get with the private configuration
# of DIR: its sources.list, its own lists and cache, no preferences and
# an empty dpkg status, so that nothing of the machine's own apt state is
# read or changed.  --arch: that architecture only (the guest's arm64
# packages).  The one apt wrapper of the project (private_apt, scripts/guest/rootfs.sh,
# qemu/build.sh).
apt_in() {
	local d=$1 arch=()
	shift
	if [ "${1:-}" = --arch ]; then
		arch=(-o "APT::Architecture=$2" -o "APT::Architectures::=$2")
		shift 2
	fi
	apt-get -q "${arch[@]}" -o Dir::Etc::SourceList="$d/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache" \
		-o Dir::State::status=/dev/null -o APT::Sandbox::User=root "$@"
}
# private_apt_update: fetch the private package lists once per build/ folder.
private_apt_update() {
	private_apt_init
	[ -f "$BUILD/apt/updated" ] && return 0
	private_apt update >&2 || die "apt-get update (private lists in $BUILD/apt) failed"
	touch "$BUILD/apt/updated"
}

# base_deb BASE: the path of the base's linux-source .deb (of the pinned
# version, base_version) under build/debs, downloaded with the private apt
# configuration if missing.  If Debian no longer serves that version, die
# naming the package, both versions and what to do.
base_deb() {
	local pkg ver deb now debs=$BUILD/debs
	pkg=$(base_pkg "$1")
	ver=$(base_version "$1")
	deb=$debs/${pkg}_${ver//:/%3a}_all.deb
	mkdir -p "$debs"
	if [ ! -f "$deb" ]; then
		note "fetching $pkg $ver with a private apt configuration" >&2
		private_apt_update
		if ! (cd "$debs" && private_apt download "$pkg=$ver" >&2); then
			now=$(private_apt download --print-uris "$pkg" 2>/dev/null | awk '{ print $2 }' |
				sed -n "s/^${pkg}_\(.*\)_[^_]*\.deb\$/\1/p" | sed 's/%3a/:/')
			die "Debian no longer serves $pkg $ver, which series/$1 was made on (it serves ${now:-no $pkg at all}).
  To keep this base: put ${pkg}_${ver}_all.deb into $debs/ (from a machine that has it).
  To move it to ${now:-the new version}: set $1's version in scripts/lib.sh (base_version), make clean (it keeps
  a tree that holds work), make apply BASE=$1, make export BASE=$1, and review what changed in series/$1."
		fi
		[ -f "$deb" ] || die "apt-get download $pkg=$ver wrote no $deb"
	fi
	echo "$deb"
}
