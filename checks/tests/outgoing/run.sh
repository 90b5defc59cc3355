#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make outgoing (scripts/outgoing.sh), on the committed series/7.3 and on
# a one-patch folder by another author, with test identities; nothing is
# sent (git send-email --dry-run):
#   refuses-*      the placeholder identity of this repository, a reserved
#                  domain and a no-reply address are refused, naming why;
#   signed         with a test identity (a name that is not ASCII): every
#                  posting of series/7.3 is written, each mail is From:
#                  the submitter and signed off by them, none names the
#                  placeholder, and git send-email --dry-run accepted each;
#   other-author   a patch by someone else keeps its author and gets the
#                  submitter's Signed-off-by: after the author's;
#   invalid        git send-email's validation is on: a line longer than
#                  SMTP allows (998 characters) is refused.
#
#   checks/tests/outgoing/run.sh
#
# Prints "RESULT pass|fail outgoing/CASE"; exit status 1 when any failed.
# shellcheck disable=SC2317 # the cases are called through check()
set -uo pipefail
unset KTREE KSRC BASE SERIES WORK BASE_TAG GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL
src=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
name='Zoë Submitter' email='zoe@submitter-mail.dev'

check() {	# check CASE COMMAND...: the command's status is the verdict
	local c=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		echo "RESULT pass outgoing/$c"
	else
		echo "RESULT fail outgoing/$c"
		sed 's/^/    /' "$tmp/out" | tail -n 20
		rc=1
	fi
}

# og [NAME EMAIL] [ARGS...]: scripts/outgoing.sh as that submitter (none:
# the repository's own identity), output in $tmp/og.
og() {
	if [ $# -ge 2 ]; then
		GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL=$2 "$src/scripts/outgoing.sh" "$tmp/og" 2>&1
	else
		"$src/scripts/outgoing.sh" "$tmp/og" 2>&1
	fi
}
# refused WHY [NAME EMAIL]: outgoing.sh must fail, saying WHY, and write no mail
refused() {
	local why=$1 out
	shift
	rm -rf "$tmp/og"
	if out=$(og "$@"); then
		echo "accepted: $out"
		return 1
	fi
	grep -q "$why" <<<"$out" || { echo "refused without saying \"$why\": $out"; return 1; }
	[ -z "$(find "$tmp/og" -name '*.patch' 2>/dev/null)" ] || { echo "wrote mail anyway"; return 1; }
}

placeholder=$(git -C "$src" config user.email)
check refuses-placeholder refused "is a placeholder"
check refuses-reserved refused "reserved for examples" "A Tester" "tester@mail.example.com"
check refuses-noreply refused "no-reply" "A Tester" "12345+tester@users.noreply.github.com"

signed() {
	local f n=0 sent
	rm -rf "$tmp/og"
	og "$name" "$email" || return 1
	# every posting of the series file, each patch once
	while read -r p; do
		case "$p" in
		deps/*)
			# a stand-in for another person's patch: never mailed
			! find "$tmp/og" -name "$(basename "$p")" | grep -q . ||
				{ echo "the stand-in $p was made into mail"; return 1; }
			continue ;;
		esac
		n=$((n + 1))
		case "$p" in
		fixes/*/*) g=fixes-$(basename "$(dirname "$p")") ;;
		later/*/*) g=later-$(basename "$(dirname "$p")") ;;
		*) g=series ;;
		esac
		f=$tmp/og/$g/$(basename "$p")
		[ -f "$f" ] || { echo "no mail for $p"; return 1; }
		grep -q "^From: =?utf-8?q?Zo=C3=AB_Submitter?= <$email>$" "$f" ||
			{ echo "$f: not From: the submitter"; sed -n '/^From: /,/^Subject/p' "$f"; return 1; }
		case "$p" in
		*0000-cover-letter.patch) ;;
		*) grep -qx "Signed-off-by: $name <$email>" "$f" || { echo "$f: not signed off by the submitter"; return 1; } ;;
		esac
		! grep -q "$placeholder" "$f" || { echo "$f still names $placeholder"; return 1; }
	done < <(sed -n '/^[[:space:]]*\(#\|$\)/!p' "$src/series/7.3/series")
	[ "$n" -gt 0 ] || { echo "series/7.3/series lists nothing"; return 1; }
	[ "$(find "$tmp/og" -name '*.patch' | wc -l)" = "$n" ] || { echo "mails other than the $n of the series file"; return 1; }
	sent=$(grep -c '^Result: OK' "$tmp/og/send-email.log")
	[ "$sent" = "$n" ] || { echo "git send-email --dry-run accepted $sent of $n"; return 1; }
}
check signed signed

# A folder of one patch by another author, in a copy of the project.
other_author() {
	local s=$tmp/sandbox f
	rm -rf "$s"
	mkdir -p "$s/series/demo"
	cp -r "$src/scripts" "$s/"
	cat >"$s/series/demo/0001-demo.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Ada Author <ada@author-mail.dev>
Date: Tue, 1 Dec 2026 12:00:00 +0000
Subject: [PATCH] demo: a change
To: A Maintainer <maint@maintainer-mail.dev>

A change.

Signed-off-by: Ada Author <ada@author-mail.dev>
---
 file.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/file.c b/file.c
--- a/file.c
+++ b/file.c
@@ -1 +1,2 @@
 one
+two
-- 
2.39.5
PATCH
	echo 0001-demo.patch >"$s/series/demo/series"
	(cd "$s" && SERIES=demo GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
		scripts/outgoing.sh "$tmp/og2") || return 1
	f=$tmp/og2/series/0001-demo.patch
	grep -qx 'From: Ada Author <ada@author-mail.dev>' "$f" || { echo "the author changed"; return 1; }
	diff <(grep '^Signed-off-by: ' "$f") - <<<"Signed-off-by: Ada Author <ada@author-mail.dev>
Signed-off-by: $name <$email>" || { echo "not the author's then the submitter's Signed-off-by:"; return 1; }
}
check other-author other_author

invalid() {
	local s=$tmp/sandbox p=$tmp/sandbox/series/demo/0001-demo.patch out
	[ -f "$p" ] || { echo "no demo folder (other-author failed)"; return 1; }
	# a changed line of 1000 characters
	sed -i "s/^+two\$/+$(printf 'x%.0s' $(seq 1000))/" "$p"
	grep -q '^+x\{1000\}$' "$p" || { echo "could not make the long line"; return 1; }
	if out=$(cd "$s" && SERIES=demo GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
		scripts/outgoing.sh "$tmp/og3" 2>&1); then
		echo "accepted a 1000-character line: $out"
		return 1
	fi
	grep -q 'send-email --dry-run refused' <<<"$out" || { echo "refused, but not by git send-email: $out"; return 1; }
}
check invalid invalid

exit $rc
