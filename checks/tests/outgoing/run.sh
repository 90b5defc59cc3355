#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make outgoing (scripts/outgoing.sh), on the committed series/7.3 and on
# a one-patch folder by another author, with test identities; nothing is
# sent (b4 send -o):
#   refuses-*      the placeholder identity of this repository, a reserved
#                  domain and a no-reply address are refused, naming why;
#   signed         with a test identity (a name that is not ASCII): every
#                  posting of series/7.3 is written by b4 send -o, one
#                  mail per patch and a cover letter where a posting has
#                  more than one, each From: the submitter and each patch
#                  signed off by them, none naming the placeholder;
#   auto-to-cc     b4 prep --auto-to-cc (the tree's get_maintainer.pl, as
#                  b4 asks it) finds no address missing from what the
#                  export wrote, on every posting; control: with a
#                  posting's To: dropped, it finds the maintainers;
#   other-author   a patch by someone else keeps its author (b4 puts it
#                  in the body) and gets the submitter's Signed-off-by:
#                  after the author's;
#   keeps-edits    on that folder: a run over an output whose working
#                  tree has an uncommitted edit refuses, naming the file,
#                  and the edit stays;
#   keeps-work     on that folder: a second run over the first one's
#                  output runs (control), but after a trailer is added on
#                  its b4 branch (as b4 trailers -u does) a run refuses,
#                  naming the branch, and the branch keeps the trailer;
#                  an output whose repository git cannot read is
#                  refused too, not deleted;
#   invalid        a line longer than SMTP allows (998 characters) is
#                  refused.
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
	local f g n=0 want subj
	declare -A patches=()
	rm -rf "$tmp/og"
	og "$name" "$email" || return 1
	# the subjects of all mails, each on one line
	find "$tmp/og" -name '*.eml' -exec awk '/^$/ { exit }
		s != "" && /^[ \t]/ { s = s $0; next } s != "" { exit }
		/^Subject: / { s = $0 } END { print s }' {} \; >"$tmp/subjects"
	# the postings of the series file and their patches
	while read -r p; do
		case "$p" in
		deps/*)
			# a stand-in for another person's patch: never mailed
			subj=$(sed -n 's/^Subject: \[[^]]*\] //p' "$src/series/7.3/$p")
			[ -n "$subj" ] || { echo "$p: no subject"; return 1; }
			! grep -qF "$subj" "$tmp/subjects" ||
				{ echo "the stand-in $p was made into mail"; return 1; }
			continue ;;
		*0000-cover-letter.patch) continue ;;
		fixes/*/*) g=fixes-$(basename "$(dirname "$p")") ;;
		later/*/*) g=later-$(basename "$(dirname "$p")") ;;
		*) g=series ;;
		esac
		patches[$g]=$((${patches[$g]:-0} + 1))
	done < <(sed -n '/^[[:space:]]*\(#\|$\)/!p' "$src/series/7.3/series")
	[ ${#patches[@]} -gt 0 ] || { echo "series/7.3/series lists nothing"; return 1; }
	for g in "${!patches[@]}"; do
		want=${patches[$g]}
		[ "$want" = 1 ] || want=$((want + 1))
		n=$((n + want))
		[ "$(find "$tmp/og/$g" -name '*.eml' 2>/dev/null | wc -l)" = "$want" ] ||
			{ echo "$g: not $want mails:"; ls "$tmp/og/$g"; return 1; }
		for f in "$tmp/og/$g"/*.eml; do
			grep -q "^From: =?utf-8?q?Zo=C3=AB_Submitter?= <$email>$" "$f" ||
				{ echo "$f: not From: the submitter"; grep '^From: ' "$f"; return 1; }
			case "$f" in
			*/0000-*) ;;
			*) grep -qx "Signed-off-by: $name <$email>" "$f" || { echo "$f: not signed off by the submitter"; return 1; } ;;
			esac
			! grep -q "$placeholder" "$f" || { echo "$f still names $placeholder"; return 1; }
		done
	done
	[ "$(find "$tmp/og" -name '*.eml' | wc -l)" = "$n" ] || { echo "mails other than the $n expected"; return 1; }
}
check signed signed

# auto_to_cc BRANCH: b4 prep --auto-to-cc on BRANCH of the outgoing
# repository; its output in $tmp/atc
auto_to_cc() {
	git -C "$tmp/og/repo" checkout -q "$1" &&
		(cd "$tmp/og/repo" && b4 prep --auto-to-cc </dev/null) >"$tmp/atc" 2>&1
}
agrees() {
	local b n=0
	[ -d "$tmp/og/repo" ] || { echo "no outgoing repository (signed failed)"; return 1; }
	for b in $(git -C "$tmp/og/repo" for-each-ref --format='%(refname:short)' refs/heads/b4/); do
		n=$((n + 1))
		auto_to_cc "$b" || { cat "$tmp/atc"; return 1; }
		grep -qx 'No new addresses to add.' "$tmp/atc" ||
			{ echo "$b: b4 would add what the export did not write:"; cat "$tmp/atc"; return 1; }
	done
	[ "$n" -gt 0 ] || { echo "no b4 prep branch"; return 1; }
	# control: the cover letter of one posting without its To: trailers
	git -C "$tmp/og/repo" checkout -q b4/fixes-spe || return 1
	grep -v '^To: ' "$tmp/og/cover-fixes-spe" >"$tmp/cover"
	# shellcheck disable=SC2016 # $1 is the editor's argument
	printf '#!/bin/sh\ncp "%s" "$1"\n' "$tmp/cover" >"$tmp/editor"
	chmod +x "$tmp/editor"
	(cd "$tmp/og/repo" && EDITOR=$tmp/editor b4 prep --edit-cover </dev/null) >/dev/null 2>&1 || return 1
	auto_to_cc b4/fixes-spe || { cat "$tmp/atc"; return 1; }
	grep -q '^ *+ To: ' "$tmp/atc" || { echo "control: with no To:, b4 added none:"; cat "$tmp/atc"; return 1; }
}
check auto-to-cc agrees

# A folder of one patch by another author, in a copy of the project.
other_author() {
	local s=$tmp/sandbox f
	rm -rf "$s"
	mkdir -p "$s/series/demo"
	cp -r "$src/scripts" "$src/config" "$s/"
	# the "kernel" it applies to: one file, tagged base
	git init -q "$s/tree" && echo one >"$s/tree/file.c" &&
		git -C "$s/tree" add file.c &&
		git -C "$s/tree" -c user.name=base -c user.email=base@localhost commit -qm base &&
		git -C "$s/tree" tag base || return 1
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
	(cd "$s" && KTREE=$s/tree SERIES=demo GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
		scripts/outgoing.sh "$tmp/og2") || return 1
	f=$(find "$tmp/og2/series" -name '*.eml')
	[ "$(wc -l <<<"$f")" = 1 ] || { echo "not one mail: $f"; return 1; }
	# the sender in the header, the author first in the body
	grep -q '^From: =?utf-8?q?Zo=C3=AB_Submitter?=' "$f" || { echo "not sent by the submitter"; return 1; }
	[ "$(sed -n '/^$/,$p' "$f" | grep -m1 -v '^$')" = 'From: Ada Author <ada@author-mail.dev>' ] ||
		{ echo "the author changed"; sed -n '/^$/,/^---$/p' "$f"; return 1; }
	diff <(grep '^Signed-off-by: ' "$f") - <<<"Signed-off-by: Ada Author <ada@author-mail.dev>
Signed-off-by: $name <$email>" || { echo "not the author's then the submitter's Signed-off-by:"; return 1; }
}
check other-author other_author

# outgoing.sh on the demo folder of other_author, into $tmp/og2
demo_og() {
	(cd "$tmp/sandbox" && KTREE=$tmp/sandbox/tree SERIES=demo GIT_AUTHOR_NAME=$name \
		GIT_AUTHOR_EMAIL=$email scripts/outgoing.sh "$tmp/og2") 2>&1
}
keeps_edits() {
	local r=$tmp/og2/repo out f
	[ -d "$r" ] || { echo "no demo output (other-author failed)"; return 1; }
	f=$(git -C "$r" ls-files | head -n 1)
	[ -n "$f" ] || { echo "no file checked out in $r"; return 1; }
	echo 'an edit made by hand' >>"$r/$f"
	if out=$(demo_og); then
		echo "a run deleted an uncommitted edit of $f"
		return 1
	fi
	grep -q "uncommitted edits ( *$f" <<<"$out" || { echo "refused, but not naming $f: $out"; return 1; }
	[ "$(tail -n 1 "$r/$f")" = 'an edit made by hand' ] || { echo "the edit of $f is gone"; return 1; }
	git -C "$r" checkout -q -- "$f"
}
check keeps-edits keeps_edits

keeps_work() {
	local r=$tmp/og2/repo out tip
	[ -d "$r" ] || { echo "no demo output (other-author failed)"; return 1; }
	demo_og >/dev/null || { echo "control: a second run over the first one's output was refused"; demo_og; return 1; }
	# what b4 trailers -u does: the patch commit gets a reply's trailer
	git -C "$r" checkout -q b4/series &&
		git -C "$r" -c user.name=t -c user.email=t@tester-mail.dev commit -q --amend \
			-m "$(git -C "$r" log -1 --format=%B)" -m "Acked-by: A Tester <tester@tester-mail.dev>" ||
		return 1
	tip=$(git -C "$r" rev-parse b4/series)
	if out=$(demo_og); then
		echo "a run deleted the b4 branch's new trailer"
		return 1
	fi
	grep -q 'did not write, on b4/series ' <<<"$out" || { echo "refused, but not naming b4/series: $out"; return 1; }
	[ "$(git -C "$r" rev-parse b4/series)" = "$tip" ] || { echo "b4/series changed"; return 1; }
}
check keeps-work keeps_work

unreadable() {
	local out
	[ -d "$tmp/og2/repo/.git" ] || { echo "no demo output (other-author failed)"; return 1; }
	rm -rf "$tmp/og2/repo/.git/objects" "$tmp/og2/repo/.git/refs"
	if out=$(demo_og); then
		echo "an unreadable output was deleted: $out"
		return 1
	fi
	grep -q 'cannot list its b4 branches' <<<"$out" || { echo "refused, but not for that: $out"; return 1; }
	[ -d "$tmp/og2/repo/.git" ] || { echo "the output was deleted anyway"; return 1; }
}
check keeps-work-unreadable unreadable

invalid() {
	local s=$tmp/sandbox p=$tmp/sandbox/series/demo/0001-demo.patch out
	[ -f "$p" ] || { echo "no demo folder (other-author failed)"; return 1; }
	# a changed line of 1000 characters
	sed -i "s/^+two\$/+$(printf 'x%.0s' $(seq 1000))/" "$p"
	grep -q '^+x\{1000\}$' "$p" || { echo "could not make the long line"; return 1; }
	if out=$(cd "$s" && KTREE=$s/tree SERIES=demo GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
		scripts/outgoing.sh "$tmp/og3" 2>&1); then
		echo "accepted a 1000-character line: $out"
		return 1
	fi
	grep -q 'longer than SMTP allows' <<<"$out" || { echo "refused, but not for the long line: $out"; return 1; }
}
check invalid invalid

exit $rc
