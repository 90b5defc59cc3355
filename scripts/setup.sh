#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages listed in config/packages (and the
# :arm64 ones in config/packages-arm64) that are missing.  As root this
# runs apt-get; otherwise it prints the exact command and stops.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

list() { grep -v '^[[:space:]]*\(#\|$\)' "$1" 2>/dev/null || true; }

want=$(list "$ROOT/config/packages")
want_arm64=$(list "$ROOT/config/packages-arm64")
missing=()
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
for p in $want_arm64; do
	dpkg-query -W -f='${Status}' "$p:arm64" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p:arm64")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "missing packages; run as root:"
	[ -n "$want_arm64" ] && echo "  dpkg --add-architecture arm64"
	echo "  apt-get update && apt-get install -y ${missing[*]}"
	exit 1
fi
note "installing: ${missing[*]}"
[ -n "$want_arm64" ] && dpkg --add-architecture arm64
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
