#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages listed in config/packages that are missing.
# As root this runs apt-get; otherwise it prints the exact command and
# stops.  Every arm64 program is built with the cross compiler and linked
# statically (init, the test programs, perf with no libraries), so no
# :arm64 package is needed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

list="$ROOT/config/packages"
[ -f "$list" ] || die "$list missing"
want=$(grep -v '^[[:space:]]*\(#\|$\)' "$list")
missing=()
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "missing packages; run as root:"
	echo "  apt-get update && apt-get install -y ${missing[*]}"
	exit 1
fi
note "installing: ${missing[*]}"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
