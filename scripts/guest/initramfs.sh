#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Pack an initramfs for guest/init.c.
#
#   scripts/guest/initramfs.sh OUT.cpio.gz INIT [--test FILE]... [--file SRC:DEST]...
#
# INIT becomes /init; each --test FILE goes to /tests (init runs them in
# name order); each --file SRC puts SRC at DEST (e.g. perf at /bin/perf).
# /dev/console comes from the kernel's built-in initramfs, which this
# archive is unpacked over.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -ge 2 ] || die "usage: $0 OUT INIT [--test FILE]... [--file SRC:DEST]..."
img=$1 init=$2
shift 2
[ -x "$init" ] || die "no /init program $init (make guest)"
root=$(mktemp -d "${img%/*}/root.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/tests" "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
install -m 0755 "$init" "$root/init"
while [ $# -gt 0 ]; do
	case "$1" in
	--test)
		[ -x "${2:-}" ] || die "no test program ${2:-}"
		install -m 0755 "$2" "$root/tests/"
		;;
	--file)
		[ -e "${2%%:*}" ] || die "no file ${2%%:*}"
		mkdir -p "$root/$(dirname "${2#*:}")"
		cp -a "${2%%:*}" "$root/${2#*:}"
		;;
	*) die "unknown option $1" ;;
	esac
	shift 2
done
pack_cpio "$root" "$img" || die "cannot pack $img"
