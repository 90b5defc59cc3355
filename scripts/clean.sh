#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make clean: remove build/, unless that loses work.  FORCE=1 removes it
# anyway.  What would be lost, and is named, in each git tree directly
# under build/ (the kernel trees, QEMU's):
#  - commits on a branch that are neither in the base nor in what an
#    export or application recorded (lib.sh: record_series), or on a
#    detached HEAD that no ref holds (a rebase -i stopped at "edit");
#  - a rebase, am, merge or cherry-pick in progress;
#  - changes to tracked files, untracked files (ignored ones too: Debian's
#    kernel tree ignores everything at its top level; only the scripts'
#    own files, named in info/exclude, are left out), and stashes (of the
#    tree, or of a worktree of a tree of the user's own: KSRC, build/wt-*).
# The tree the checks made (-steps) holds nothing of the user's, and
# is only checked for edits.  The user's own trees are told, after the
# removal, that their worktrees under build/ are gone (git worktree
# prune).  A BUILD outside the project (BUILD=... in the environment) is
# never removed: it may be anything.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$BUILD" ] || exit 0
b=$(cd "$BUILD" && pwd -P)
case "$b/" in
"$(cd "$ROOT" && pwd -P)"/*/) ;;
*) die "BUILD=$BUILD is not inside the project ($ROOT): make clean removes only a build folder of the project's own" ;;
esac
# indent: the first ten lines of stdin, indented (sed stops itself: no
# pipe to break under pipefail)
indent() { sed -e 's/^/\t/' -e '10q'; }
lost=0 owners=()
for g in "$BUILD"/*/.git; do
	[ -e "$g" ] || continue
	t=${g%/.git}
	gd=$(git -C "$t" rev-parse --path-format=absolute --git-dir)
	if [ -f "$g" ]; then
		# A worktree: its branches live in the repository it belongs to.
		c=$(git -C "$t" rev-parse --path-format=absolute --git-common-dir)
		case "$c" in "$BUILD"/*) ;; *) owners+=("$c") ;; esac
	fi
	case "$t" in
	*-steps)
		# the checks' own checkout: only tracked files are looked at
		dirty=$(git -C "$t" status --porcelain --untracked-files=no 2>/dev/null || true)
		[ -z "$dirty" ] || { echo "$t: changes to tracked files:"; indent <<<"$dirty"; lost=1; }
		continue ;;
	esac
	dirty=$(git -C "$t" status --porcelain --untracked-files=no 2>/dev/null || true)
	if [ -n "$dirty" ]; then
		echo "$t: changes to $(wc -l <<<"$dirty") tracked file(s):"
		indent <<<"$dirty"
		lost=1
	fi
	# Untracked files (lib/trees.sh: untracked): the trees here are
	# built out of tree, so they hold none of their own.
	others=$(untracked "$t")
	if [ -n "$others" ]; then
		echo "$t: $(wc -l <<<"$others") untracked file(s) or folder(s):"
		indent <<<"$others"
		lost=1
	fi
	for op in $(in_progress "$t"); do
		echo "$t: a $op is in progress ($gd): finish or abort it"
		lost=1
	done
	# Commits on a branch, or on a detached HEAD, that neither a tag (the
	# base) nor the record of an export or application holds: a
	# developer's, not yet exported.  A worktree's branches and stashes
	# are its repository's (the user's own), not build/'s.
	heads=
	if [ -d "$g" ]; then
		stashes=$(git -C "$t" stash list)
		if [ -n "$stashes" ]; then
			echo "$t: $(wc -l <<<"$stashes") stash(es):"
			indent <<<"$stashes"
			lost=1
		fi
		heads=$(git -C "$t" for-each-ref --format='%(refname)' refs/heads/)
	fi
	git -C "$t" symbolic-ref -q HEAD >/dev/null || heads="$heads HEAD"
	for r in $heads; do
		new=$(git -C "$t" log --oneline "$r" --not --tags --glob='refs/applied/*' --glob='refs/spe-vm/*')
		[ -n "$new" ] || continue
		case "$r" in
		HEAD) echo "$t: the detached HEAD has $(wc -l <<<"$new") commit(s) that no export saved:" ;;
		*) echo "$t: branch ${r#refs/heads/} has $(wc -l <<<"$new") commit(s) that no export saved:" ;;
		esac
		indent <<<"$new"
		lost=1
	done
done

if [ $lost = 1 ] && [ "${FORCE:-}" != 1 ]; then
	echo "error: make clean would lose the work above: make export (or commit it) first, or make clean FORCE=1" >&2
	exit 1
fi
rm -rf "$BUILD"
for c in ${owners[@]+"${owners[@]}"}; do
	git --git-dir="$c" worktree prune
done
