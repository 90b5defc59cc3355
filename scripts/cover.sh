#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cover.sh read <0000-cover-letter.patch>: print the cover letter's
# subject (without the [PATCH ...] prefix) and body, the text that
# git format-patch --cover-from-description=subject writes back.
set -euo pipefail
# shellcheck source=lib/mail.sh
. "$(dirname "$0")/lib/mail.sh"
f=$2
# (the prefix may be "PATCH", "PATCH vN", "RFC PATCH"...)
subj=$(mail_header "$f" Subject | sed 's/^\[[^]]*PATCH[^]]*\] //')
# The body runs from the first blank line after the headers to the
# shortlog git adds ("Name (N):" lines).
body=$(awk 'h && /^[^ ].* \([0-9]+\):$/ { exit } h { print } /^$/ && !h { h = 1 }' "$f")
printf '%s\n\n%s\n' "$subj" "$body" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
