#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make outgoing: a series folder as mail a real submitter can send, with b4.
#
# The committed folders carry the project's placeholder identity, which
# no one can sign for.  This takes each posting of series/<name> (the
# fixes/<n>/ postings, the series, the later/<n>/ postings; never the
# deps/<n>/ stand-ins for other people's patches, and of a test base,
# lib.sh: TEST_BASES, only the fixes), in the order of its series file:
#   - the submitter is who `git config user.name` and `user.email` name
#     in this repository (or GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL);
#     refused, with the reason, when empty, a placeholder (a domain that
#     cannot receive mail: RFC 2606 and RFC 6761's example, test,
#     invalid and localhost names, example.com/.net/.org, a noreply
#     address), since a maintainer must be able to reply;
#   - a patch whose author is such a placeholder gets the submitter as
#     author and its Signed-off-by: lines by the placeholder become the
#     submitter's; a patch by anyone else keeps its author, and the
#     submitter's Signed-off-by: follows the last one (the DCO of whoever
#     passes a patch on);
#   - the patches are applied with git am, in the series file's order, on
#     the base of the kernel tree in build/outgoing/<name>/repo, a clone
#     sharing the tree's objects (nothing is written to the tree itself),
#     checked out sparsely: the files at the top and one level down, all
#     of scripts/ and every file the folder's patches touch (1215 files
#     for series/7.3, not 90000: on this project's machine, writing and
#     deleting a whole kernel checkout took minutes);
#   - each posting becomes a b4 prep branch there, b4/<posting>: its
#     cover letter the folder's (the subject alone for a single patch, as
#     b4 puts a cover letter's text under the cut of a lone patch), its
#     version and prefix those of the folder's subjects, its To: and Cc:
#     trailers the recipients the export wrote (scripts/get_maintainer.pl
#     and config/cc);
#   - `b4 send -o` writes its mail to build/outgoing/<name>/<posting>/;
#     nothing is sent.  A line longer than SMTP allows (998 characters,
#     RFC 5322 2.1.1) is refused.
# To send: cd build/outgoing/<name>/repo, git checkout b4/<posting>,
# b4 send (docs/sending.md); b4 trailers -u then collects the replies'
# trailers on that branch.
# A run starts afresh: it deletes OUTDIR, but refuses while a b4/
# branch there is not as a run left it (OUTDIR/branches records them):
# trailers collected, a cover letter edited, a version sent; or while
# its working tree has edits, committed nowhere.  Carry that work back
# first (docs/sending.md), then delete OUTDIR yourself.
#
#   scripts/outgoing.sh [OUTDIR]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

d=$(series_dir)
[ -f "$d/series" ] || die "no series file in $d"
out=${1:-$BUILD/outgoing/$NAME}
command -v b4 >/dev/null ||
	die "b4 is missing (Debian: b4; scripts/setup.sh installs it)"

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
	# the author's address, from the From: header
	author=$(mail_header "$1" From | sed -n 's/.*<\([^>]*\)>.*/\1/p')
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

# the base the folder applies on (scripts/base.sh gets it if need be)
t=$(ktree)
git -C "$t" rev-parse -q --verify "refs/tags/$BASE_TAG^{commit}" >/dev/null 2>&1 ||
	"$ROOT/scripts/base.sh" >&2 || die "no base tree $t for the folder to apply on"

# b4_branches REPO [POSTING]: "ref sha" of its b4 branches (or of one)
b4_branches() {
	git -C "$1" for-each-ref --format='%(refname) %(objectname)' "refs/heads/b4/${2:-}"
}

# Work done in the last run's repository since is not ours to delete:
# commits on its b4 branches, edits in its working tree
if [ -d "$out/repo/.git" ]; then
	touch "$out/branches"
	now=$(b4_branches "$out/repo") ||
		die "$out/repo: git cannot list its b4 branches; delete $out yourself"
	edits=$(git -C "$out/repo" status --porcelain) ||
		die "$out/repo: git cannot read its working tree; delete $out yourself"
	[ -z "$edits" ] ||
		die "$out/repo has uncommitted edits ($(head -n 1 <<<"$edits" | cut -c4-)...): commit or carry them back, then delete $out yourself"
	changed=$(grep -vxF -f "$out/branches" <<<"$now" | sed 's|^refs/heads/\([^ ]*\) .*|\1|' |
		paste -sd ' ' || true)
	[ -z "$changed" ] ||
		die "$out/repo has work make outgoing did not write, on $changed (b4 trailers -u, b4 prep --edit-cover, b4 send?): carry it back to the tree's branch work (docs/sending.md), then delete $out yourself"
fi
rm -rf "$out"
mkdir -p "$out/patches"
repo=$out/repo
git clone -q --shared --no-checkout "$t" "$repo"
# What b4 and the tree's get_maintainer.pl read: MAINTAINERS and the
# other files at the top, the top-level directories it looks for to know
# a kernel tree (each made to exist by its files one level down), its
# scripts, and the files of the patches, so that every directory a
# MAINTAINERS F: entry names on their paths exists as in a full
# checkout.  "git sparse-checkout disable" there checks out the rest.
{
	printf '%s\n' '/*' '!/*/' '/*/*' '!/*/*/' '/scripts/'
	series_patches "$d" | xargs -r -d "\n" sed -n 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|/\1\n/\2|p' | sort -u
} >"$out/sparse"
git -C "$repo" sparse-checkout set --no-cone --stdin <"$out/sparse"
git -C "$repo" checkout -q -b outgoing "$BASE_TAG"
git -C "$repo" config user.name "$name"
git -C "$repo" config user.email "$email"
# b4's cover letter without its base-commit: line (the base is an import
# of Debian's source, which no upstream tree has; the cover letters say
# in words what each posting applies on)
git -C "$repo" config b4.prep-cover-template "$ROOT/config/b4-cover-template"
# postings: their names; first[g] and last[g]: their first and last
# patch in the series file; cover[g]: the committed mail whose subject
# and recipients the posting takes
postings=()
declare -A first last cover
while read -r p; do
	p=${p#"$d"/}
	f=$out/patches/$p
	mkdir -p "$(dirname "$f")"
	case "$p" in
	*/0000-cover-letter.patch | 0000-cover-letter.patch) cp "$d/$p" "$f" ;;
	*)
		# a stable backport names its mainline commit, known once merged
		! grep -q '^commit 0\{40\} upstream\.$' "$d/$p" ||
			die "$p: fill in the mainline commit id of \"commit ... upstream.\" (make export after editing the commit), then send it when stable reports that the mainline patch failed to apply"
		rewrite "$d/$p" "$f"
		git -C "$repo" am -q --committer-date-is-author-date "$f" </dev/null ||
			die "$p does not apply on $BASE_TAG of $t and what the series file lists before it"
		;;
	esac
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
	if [ -z "${cover[$g]:-}" ]; then
		postings+=("$g")
		cover[$g]=$d/$p
	fi
	case "$p" in
	*0000-cover-letter.patch) continue ;;
	esac
	[ -n "${first[$g]:-}" ] || first[$g]=$(git -C "$repo" rev-parse HEAD~1)
	last[$g]=$(git -C "$repo" rev-parse HEAD)
done < <(series_patches "$d")
[ ${#postings[@]} -gt 0 ] || die "$d/series lists nothing to send"

# trailers KIND LIST: one "KIND: address" line per entry of LIST (", "-separated)
trailers() {
	# shellcheck disable=SC2001 # one line per entry
	sed 's/, /\n/g' <<<"$2" | sed -n "s/^ *\(..*\)/$1: \1/p"
}

# Each posting a b4 prep branch, written out by b4 send -o.
for g in "${postings[@]}"; do
	c=${cover[$g]}
	subj=$(mail_header "$c" Subject)
	# "[RFC PATCH v3 0/5] ...": the prefixes before PATCH, the version
	tag=$(sed -n 's/^\[\([^]]*\)\].*/\1/p' <<<"$subj")
	prefixes=${tag%%PATCH*}
	prefixes=${prefixes% }
	v=$(sed -n 's/.*PATCH.* v\([0-9][0-9]*\)\( .*\)*$/\1/p' <<<"$tag")
	{
		if [ "${c##*/}" = 0000-cover-letter.patch ]; then
			"$ROOT/scripts/cover.sh" read "$c"
		else
			echo "${subj#\[*\] }"
		fi
		echo
		trailers To "$(mail_header "$c" To)"
		trailers Cc "$(mail_header "$c" Cc)"
	} >"$out/cover-$g"
	# b4 prep --edit-cover runs $EDITOR on the cover letter
	# shellcheck disable=SC2016 # $1 is the editor's argument
	printf '#!/bin/sh\ncp "%s" "$1"\n' "$out/cover-$g" >"$out/editor-$g"
	chmod +x "$out/editor-$g"
	git -C "$repo" checkout -q outgoing
	(
		cd "$repo"
		b4 prep -n "$g" -f "${first[$g]}" </dev/null >/dev/null 2>&1 ||
			die "b4 prep -n $g failed"
		git cherry-pick "${first[$g]}..${last[$g]}" >/dev/null
		EDITOR=$out/editor-$g b4 prep --edit-cover </dev/null >/dev/null 2>&1 ||
			die "b4 prep --edit-cover failed on b4/$g"
		[ -z "$prefixes" ] || b4 prep --set-prefixes "$prefixes" </dev/null >/dev/null 2>&1 ||
			die "b4 prep --set-prefixes $prefixes failed on b4/$g"
		[ -z "$v" ] || b4 prep --force-revision "$v" </dev/null >/dev/null 2>&1 ||
			die "b4 prep --force-revision $v failed on b4/$g"
		# -o never sends; the SMTP server is named only so that b4 does
		# not look for a web endpoint
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=sendemail.smtpserver GIT_CONFIG_VALUE_0=/bin/false \
			b4 send --no-sign -o "$out/$g" </dev/null >"$out/b4-send-$g.log" 2>&1 ||
			die "b4 send -o refused b4/$g (see $out/b4-send-$g.log)"
	)
	# the branch as this run left it
	b4_branches "$repo" "$g" >>"$out/branches"
	m=$(find "$out/$g" -name '*.eml' | wc -l)
	[ "$m" -gt 0 ] || die "b4 send -o wrote no mail for b4/$g (see $out/b4-send-$g.log)"
	long=$(LC_ALL=C grep -l '^.\{999\}' "$out/$g"/*.eml || true)
	[ -z "$long" ] || die "$long: a line longer than SMTP allows (998 characters)"
	note "$g: $m mails from $name <$email> (b4 send -o: nothing sent)"
done
note "mail for $NAME in $out; to send: cd $repo, git checkout b4/<posting>, b4 send"
