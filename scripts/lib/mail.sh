# SPDX-License-Identifier: GPL-2.0
# Part of lib.sh, and sourced alone by scripts/cover.sh: reading the
# headers of a mail (a git format-patch file). Never run.
# shellcheck shell=bash

# mail_header FILE NAME: the value of header NAME of mail FILE, its
# continuation lines joined and runs of blanks made one space; empty
# when there is none.
mail_header() {
	awk -v h="$2: " '/^$/ { exit } s != "" && /^[ \t]/ { s = s $0; next }
		s != "" { exit } index($0, h) == 1 { s = substr($0, length(h) + 1) }
		END { print s }' "$1" | sed 's/[ \t][ \t]*/ /g'
}
