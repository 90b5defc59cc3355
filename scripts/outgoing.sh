#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make outgoing: a series folder as mail a real submitter can send.
#
# The committed folders carry the project's placeholder identity, which
# no one can sign for.  This writes each posting of series/<name> (the
# fixes/<n>/ postings, the series, the later/<n>/ postings; never the
# deps/<n>/ stand-ins for other people's patches, and of a test base,
# lib.sh: TEST_BASES, only the fixes), in the order of its series file,
# to build/outgoing/<name>/<posting>/ with the submitter's identity:
#   - the submitter is who `git config user.name` and `user.email` name
#     in this repository (or GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL);
#     refused, with the reason, when empty, a placeholder (a domain that
#     cannot receive mail: RFC 2606 and RFC 6761's example, test,
#     invalid and localhost names, example.com/.net/.org, a noreply
#     address), since a maintainer must be able to reply;
#   - a patch whose author is such a placeholder gets the submitter as
#     From: and its Signed-off-by: lines by the placeholder become the
#     submitter's; a patch by anyone else keeps its author, and the
#     submitter's Signed-off-by: follows the last one (the DCO of whoever
#     passes a patch on);
#   - the recipients are those the export wrote (To:, Cc: from the tree's
#     scripts/get_maintainer.pl).
# Each posting then goes through `git send-email --dry-run`, which parses
# it, validates it (8bit, as the lists want patches: a line longer than
# SMTP allows is an error, not quoted-printable) and prints the mail it
# would send; nothing is sent.
# build/outgoing/<name>/send-email.log has its output.
#
#   scripts/outgoing.sh [OUTDIR]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

d=$(series_dir)
[ -f "$d/series" ] || die "no series file in $d"
out=${1:-$BUILD/outgoing/$NAME}
[ -x "$(git --exec-path)/git-send-email" ] ||
	die "git send-email is missing (Debian: git-email; scripts/setup.sh installs it)"

# placeholder EMAIL: why EMAIL cannot be a submitter's, or nothing.
placeholder() {
	local e=${1,,} dom
	case "$e" in
	*@*.*) ;;
	*) echo "not an address a maintainer can reply to"; return ;;
	esac
	dom=${e##*@}
	case "$dom" in
	example | *.example | test | *.test | invalid | *.invalid | localhost | *.localhost | \
	example.com | *.example.com | example.net | *.example.net | example.org | *.example.org)
		echo "$dom is reserved for examples and tests (RFC 2606, RFC 6761): it receives no mail" ;;
	*noreply*)
		echo "$e is a no-reply address" ;;
	esac
}

name=${GIT_AUTHOR_NAME:-$(git -C "$ROOT" config user.name || true)}
email=${GIT_AUTHOR_EMAIL:-$(git -C "$ROOT" config user.email || true)}
if [ -z "$name" ] || [ -z "$email" ]; then
	die "no submitter: set git config user.name and user.email (your own, as you sign off)"
fi
why=$(placeholder "$email")
[ -z "$why" ] || die "the submitter $name <$email> is a placeholder: $why; set git config user.name and user.email to your own"
# A From: header with a name that is not ASCII is RFC 2047 encoded, as
# git format-patch does.
from=$(python3 -c 'import sys
from email.header import Header
from email.utils import formataddr
print(formataddr((sys.argv[1], sys.argv[2]), charset="utf-8"))' "$name" "$email")
sob="Signed-off-by: $name <$email>"

# rewrite PATCH OUT: PATCH with the submitter as above, written to OUT.
rewrite() {
	local author
	# the author's address, from the From: header and its continuation lines
	author=$(awk '/^$/ { exit } /^From: / { h = 1; s = $0; next }
		h && /^[ \t]/ { s = s $0; next } h { exit } END { print s }' "$1" |
		sed -n 's/.*<\([^>]*\)>.*/\1/p')
	[ -n "$author" ] || die "$1: no From: header"
	if [ -n "$(placeholder "$author")" ]; then
		awk -v from="$from" -v sob="$sob" -v old="<$author>" '
			hdr == 0 && /^From: / { print "From: " from; skip = 1; next }
			hdr == 0 && skip && /^[ \t]/ { next }
			{ skip = 0 }
			hdr == 0 && /^$/ { hdr = 1 }
			hdr && /^Signed-off-by: / && index($0, old) { print sob; next }
			{ print }' "$1" >"$2"
	else
		# the submitter signs after the last Signed-off-by: of the message
		awk -v sob="$sob" '
			{ l[NR] = $0 }
			/^---$/ && !end { end = NR }
			/^Signed-off-by: / && !end { last = NR; if ($0 == sob) have = 1 }
			END { for (i = 1; i <= NR; i++) { print l[i]; if (i == last && !have) print sob } }' "$1" >"$2"
	fi
}

rm -rf "$out"
mkdir -p "$out"
postings=()
while read -r p; do
	case "$p" in
	deps/*) continue ;;	# stand-ins for other people's patches: never mailed
	fixes/*) ;;
	*)
		# a test base: the series is built and run there, never posted
		case " $TEST_BASES " in *" $NAME "*) continue ;; esac ;;
	esac
	case "$p" in
	fixes/*/*) g=fixes-$(basename "$(dirname "$p")") ;;
	later/*/*) g=later-$(basename "$(dirname "$p")") ;;
	*) g=series ;;
	esac
	# a stable backport names its mainline commit, known once merged
	! grep -q '^commit 0\{40\} upstream\.$' "$d/$p" ||
		die "$p: fill in the mainline commit id of \"commit ... upstream.\" (make export after editing the commit), then send it when stable reports that the mainline patch failed to apply"
	[ -d "$out/$g" ] || postings+=("$g")
	mkdir -p "$out/$g"
	rewrite "$d/$p" "$out/$g/$(basename "$p")"
done < <(sed -n '/^[[:space:]]*\(#\|$\)/!p' "$d/series")

# git send-email --dry-run on each posting: it reads To: and Cc: from the
# patches, threads the series under its cover letter, and checks every
# line (--validate); --smtp-server=/bin/false in case anything tried to
# send.
log=$out/send-email.log
: >"$log"
for g in "${postings[@]}"; do
	echo "==== $g" >>"$log"
	git -C "$ROOT" send-email --dry-run --confirm=never --validate \
		--smtp-server=/bin/false --from="$name <$email>" --8bit-encoding=UTF-8 \
		--transfer-encoding=8bit \
		--suppress-cc=self "$out/$g"/*.patch </dev/null >>"$log" 2>&1 ||
		die "git send-email --dry-run refused $out/$g (see $log)"
	n=$(grep -c '^Result: OK' "$log" || true)
	note "$g: $(find "$out/$g" -name '*.patch' | wc -l) mails from $name <$email> (git send-email --dry-run: nothing sent)"
done
[ "$n" = "$(find "$out" -name '*.patch' | wc -l)" ] ||
	die "git send-email dry-sent $n mails of $(find "$out" -name '*.patch' | wc -l) (see $log)"
note "mail for $NAME in $out; send a posting with: git send-email $out/<posting>/*.patch"
