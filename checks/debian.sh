#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The base is Debian's linux-source package, which is upstream plus
# Debian's own patches.  Check that those patches touch none of the files
# the series changes, so that the series is tested on upstream's copies.
#
# How: Debian applies its patches (quilt) after unpacking upstream, so a
# file a patch changed carries the date of that run, not the upstream
# tarball's date that every other file has.  Every file the series
# changes must have the date most files of the tarball have.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

[ -z "${KSRC:-}" ] || { result skip "debian: KSRC tree is not a Debian package"; exit 0; }
d=$(series_dir)
name=$(basename "$d")
deb=$(base_deb "$BASE")
list=$BUILD/debs/$(basename "$deb" .deb).list
if [ ! -s "$list" ]; then
	dpkg-deb --fsys-tarfile "$deb" | tar -xOf - --wildcards './usr/src/linux-source-*.tar.xz' |
		tar -tvJf - >"$list.tmp"
	mv "$list.tmp" "$list"
fi

# date and path of every file: "YYYY-MM-DD HH:MM path"
upstream=$(awk '{ print $4 }' "$list" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
patched=$(awk -v u="$upstream" '$4 != u && $6 !~ /\/$/' "$list" | wc -l)
# shellcheck disable=SC2016 # an awk program
files=$(series_patches "$d" | grep -v '/0000-' | xargs awk '/^--- a\// { print substr($2, 3) }' | sort -u)
n=$(wc -w <<<"$files")
# upstream_dated FILES: every file of FILES has the upstream date (one
# pass over the listing), else print those that do not.
upstream_dated() {
	awk -v u="$upstream" -v want="$1" '
	BEGIN { split(want, w, /[ \n]+/); for (i in w) if (w[i] != "") need[w[i]] = 1 }
	{ f = $6; sub(/^linux-source-[^\/]*\//, "", f) }
	f in need { date[f] = $4 }
	END {
		for (f in need) {
			if (!(f in date)) { print f ": not in the tarball"; bad = 1 }
			else if (date[f] != u) {
				print f ": dated " date[f] ", upstream files " u ": changed by a Debian patch"
				bad = 1
			}
		}
		exit bad
	}' "$list"
}
bad=0
upstream_dated "$files" || bad=1
# The control: a source file that does not carry the upstream date (one
# Debian's patches changed) must be caught.
ctl=$(awk -v u="$upstream" '$4 != u && $6 ~ /\.[ch]$/ { f = $6; sub(/^linux-source-[^\/]*\//, "", f); print f; exit }' "$list")
if [ -z "$ctl" ]; then
	result fail "debian/$name: no source file of the tarball has another date than $upstream: the date test cannot tell"
elif upstream_dated "$ctl" >/dev/null; then
	result fail "debian/$name: control: $ctl, not dated like upstream's files, passes the date test"
else
	result pass "debian/$name: control: $ctl, not dated like upstream's files, is caught"
fi
if [ $bad = 0 ]; then
	result pass "debian/$name: none of the $n files the series changes is among the $patched files Debian's patches changed"
else
	result fail "debian/$name: the series changes files Debian patched"
fi
