#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cover.sh read <0000-cover-letter.patch>: print the cover letter's
# subject (without the [PATCH ...] prefix) and body, the text that
# git format-patch --cover-from-description=subject writes back.
set -euo pipefail
f=$2
# (the header may be folded over several lines; the prefix may be
# "PATCH", "PATCH vN", "RFC PATCH"...)
subj=$(awk '/^$/ { exit } s && /^[ \t]/ { s = s $0; next } s { exit }
	/^Subject: / { s = $0 } END { print s }' "$f" |
	sed 's/^Subject: \[[^]]*PATCH[^]]*\] //; s/[ \t][ \t]*/ /g')
# The body runs from the first blank line after the headers to the
# shortlog git adds ("Name (N):" lines).
body=$(awk 'h && /^[^ ].* \([0-9]+\):$/ { exit } h { print } /^$/ && !h { h = 1 }' "$f")
printf '%s\n\n%s\n' "$subj" "$body" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
