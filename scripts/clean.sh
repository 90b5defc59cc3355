#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make clean: remove build/, unless that loses work.  FORCE=1 removes it
# anyway.  What would be lost, and is named:
#  - commits on a branch of a kernel tree under build/ (README: "Editing
#    a patch") that are neither in the base nor in what an export or
#    application recorded (lib.sh: record_series);
#  - uncommitted changes to tracked files of such a tree, or of a worktree
#    of a tree of the user's own (KSRC: build/wt-*).
# Trees the checks made (-base, -steps, build/check/) hold nothing of the
# user's.  The user's own trees are told, after the removal, that their
# worktrees under build/ are gone (git worktree prune).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$BUILD" ] || exit 0
# indent: the first ten lines of stdin, indented (sed stops itself: no
# pipe to break under pipefail)
indent() { sed -e 's/^/\t/' -e '10q'; }
lost=0 owners=()
for g in "$BUILD"/*/.git; do
	[ -e "$g" ] || continue
	t=${g%/.git}
	if [ -f "$g" ]; then
		# A worktree: its branches live in the repository it belongs to.
		c=$(git -C "$t" rev-parse --path-format=absolute --git-common-dir)
		case "$c" in "$BUILD"/*) ;; *) owners+=("$c") ;; esac
	fi
	case "$t" in *-base | *-steps) continue ;; esac
	dirty=$(git -C "$t" status --porcelain --untracked-files=no 2>/dev/null || true)
	if [ -n "$dirty" ]; then
		echo "$t: uncommitted changes to $(wc -l <<<"$dirty") tracked file(s):"
		indent <<<"$dirty"
		lost=1
	fi
	[ -d "$g" ] || continue
	# Commits on a branch that neither a tag (the base) nor the record of
	# an export or application holds: a developer's, not yet exported.
	legacy=$(git -C "$t" rev-parse -q --verify refs/series/applied || true)
	for b in $(git -C "$t" for-each-ref --format='%(refname:short)' refs/heads/); do
		new=$(git -C "$t" log --oneline "refs/heads/$b" --not --tags \
			--glob='refs/applied/*' ${legacy:+"$legacy"})
		[ -n "$new" ] || continue
		echo "$t: branch $b has $(wc -l <<<"$new") commit(s) that no export saved:"
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
