# SPDX-License-Identifier: GPL-2.0
# Part of lib.sh: the trees: their names, the series folders, the
# records of what was applied, the checkouts and the kernel builds.
# Sourced by lib.sh, never run.
# shellcheck shell=bash
# shellcheck disable=SC2034 # its variables are for the scripts that source lib.sh

# The base's one name, NAME: the name of its series folder (7.3, 6.12.y,
# 6.1.y, v6.16), and of everything the scripts make of it:
#   series/NAME                  its patches
#   build/linux-NAME             the tree (a Debian base); with KSRC,
#                                build/wt-NAME, a worktree of the user's tree
#   build/linux-NAME-steps       its other checkout (checkout below)
#   build/images/NAME-Image, NAME-base-Image  the Images (scripts/image.sh)
#   build/harness-NAME, build/guest/NAME, build/kselftest-NAME,
#   build/perf-NAME, build/boot/*-NAME*, build/upstream/NAME-*
# A Debian BASE is its own name.  A tree of the user's (KSRC, at revision
# BASE) or a tree given as it is (KTREE) takes the name of the folder for
# its kernel version.  SERIES=<folder> applies another folder to the base
# tree, and what is made of it is named for that folder (the tree of a
# Debian base stays build/linux-BASE).
# name_of_version VERSION PATCHLEVEL: the folder for that kernel; none
# (status 1) for a kernel the project has no folder for.
name_of_version() {
	case "$1.$2" in
	7.3) echo 7.3 ;;
	6.12) echo 6.12.y ;;
	6.1) echo 6.1.y ;;
	6.16) echo v6.16 ;;
	*) return 1 ;;
	esac
}
# version_of_makefile: "VERSION PATCHLEVEL" of the top Makefile on stdin.
version_of_makefile() {
	awk '$1 == "VERSION" && $2 == "=" { v = $3 }
	     $1 == "PATCHLEVEL" && $2 == "=" { p = $3 }
	     END { print v, p }'
}
# name_of_tree WHAT MAKEFILE-TEXT: NAME for the kernel of that Makefile,
# or die naming the folders there are: a kernel the series was not
# exported for is never given another base's folder silently.
name_of_tree() {
	local v
	v=$(version_of_makefile <<<"$2")
	# shellcheck disable=SC2086 # two words: VERSION PATCHLEVEL
	name_of_version $v && return 0
	die "$1: kernel ${v// /.} has no series folder (folders: $(cd "$ROOT/series" && echo *)); SERIES=<folder> applies one to it anyway"
}
if [ -n "${SERIES:-}" ]; then
	NAME=$SERIES
elif [ -n "${KTREE:-}" ]; then
	NAME=$(name_of_tree "$KTREE" "$(cat "$KTREE/Makefile" 2>/dev/null)") || exit 1
elif [ -n "${KSRC:-}" ]; then
	NAME=$(name_of_tree "$KSRC at ${BASE:-HEAD}" "$(git -C "$KSRC" show "${BASE:-HEAD}:Makefile" 2>/dev/null)") || exit 1
else
	NAME=$BASE
fi

# Where the kernel tree lives: our own import of the base's Debian
# package, or a worktree of the user's tree (KSRC) at BASE, or KTREE used
# as it is (with BASE_TAG and WORK naming its refs).
ktree() {
	if [ -n "${KTREE:-}" ]; then
		echo "$KTREE"
	elif [ -n "${KSRC:-}" ]; then
		echo "$BUILD/wt-$NAME"
	else
		echo "$BUILD/linux-$BASE"
	fi
}

# in_progress TREE: the git operations stopped half way in TREE, one
# per line (rebase, for git am too; merge; cherry-pick; revert); nothing
# when there is none.
in_progress() {
	local gd
	gd=$(git -C "$1" rev-parse --path-format=absolute --git-dir 2>/dev/null) || return 0
	[ ! -e "$gd/rebase-merge" ] && [ ! -e "$gd/rebase-apply" ] || echo rebase
	[ ! -e "$gd/MERGE_HEAD" ] || echo merge
	[ ! -e "$gd/CHERRY_PICK_HEAD" ] || echo cherry-pick
	[ ! -e "$gd/REVERT_HEAD" ] || echo revert
}
# untracked TREE: its untracked files and folders, whether .gitignore
# names them or not (Debian's kernel tree ignores all of its top level,
# so new files there need git add -f), but for those its info/exclude
# names: the scripts' own files.
untracked() {
	local excl
	excl=$(git -C "$1" rev-parse --path-format=absolute --git-common-dir)/info/exclude
	[ -f "$excl" ] || excl=/dev/null
	git -C "$1" ls-files --others --directory --no-empty-directory --exclude-from="$excl"
}

# The base's drivers in the patched tree, for scripts/image.sh base.
# swap_drivers TREE BASE WORK: every file under drivers/ that differs
# between BASE and WORK made as it is at BASE (removed where BASE has
# none), after the tree's own copies, times included, are kept in
# build/swap-<tree>/; swap_back TREE puts them back.  on_work runs
# swap_back first, so an interrupted swap does not outlive the next script.
swap_dir() { echo "$BUILD/swap-$(basename "$1")"; }
swap_drivers() {
	local t=$1 s f
	s=$(swap_dir "$t")
	[ ! -e "$s/files" ] || die "$s is there: a swap of $t's drivers not put back"
	# without its list of files, a copy begun and never used
	rm -rf "$s"
	mkdir -p "$s"
	git -C "$t" diff --no-renames --name-only "$2" "$3" -- drivers/ >"$s/files.tmp"
	(cd "$t" && while read -r f; do [ ! -e "$f" ] || printf '%s\0' "$f"; done <"$s/files.tmp" |
		tar --null -T - -cf "$s/files.tar") || die "cannot keep $t's drivers in $s"
	# from here on, swap_back puts the tree back
	mv "$s/files.tmp" "$s/files"
	while read -r f; do
		rm -f "${t:?}/$f"
		git -C "$t" cat-file -e "$2:$f" 2>/dev/null || continue
		mkdir -p "$(dirname "$t/$f")"
		git -C "$t" show "$2:$f" >"$t/$f"
	done <"$s/files"
}
swap_back() {
	local t=$1 s f
	s=$(swap_dir "$t")
	[ -f "$s/files" ] || { rm -rf "$s"; return 0; }
	while read -r f; do rm -f "${t:?}/$f"; done <"$s/files"
	tar -C "$t" -xpf "$s/files.tar" || die "cannot put $t's drivers back from $s"
	rm -rf "$s"
}
# on_work TREE: TREE has the series' branch WORK checked out, with no
# rebase or am stopped half way; otherwise die saying so.  No script
# switches a developer's tree to another branch behind their back.
on_work() {
	local t=$1 head op
	if [ -f "$(swap_dir "$t")/files" ]; then
		note "$t: putting back the drivers an interrupted scripts/image.sh base swapped"
		swap_back "$t"
	fi
	op=$(in_progress "$t" | head -n 1)
	[ -z "$op" ] || die "$t: a $op is in progress: finish it (or abort it) first"
	head=$(git -C "$t" symbolic-ref -q --short HEAD || echo "a detached HEAD")
	[ "$head" = "$WORK" ] ||
		die "$t is on $head, not the series' branch $WORK; nothing was switched: git -C $t checkout $WORK, then run this again"
}

# work_ktree: ktree, which must exist and have the series' branch WORK
# checked out (what the guest builds take their kselftest and perf from)
work_ktree() {
	local t
	t=$(ktree)
	[ -e "$t/.git" ] || die "no kernel tree $t (make apply BASE=$BASE)"
	on_work "$t"
	echo "$t"
}

# The series folder: series/NAME.
series_dir() { echo "$ROOT/series/$NAME"; }

# Patches of a series folder, in the order of its series file.
series_patches() {
	local d=$1
	[ -f "$d/series" ] || return 0
	sed -n "/^[[:space:]]*\(#\|\$\)/!s|^|$d/|p" "$d/series"
}

# series_fingerprint DIR: what the last application of a folder is
# compared with, to know whether to apply it again.
series_fingerprint() {
	(cat "$1/series" 2>/dev/null; series_patches "$1" | xargs -r cat) | sha1sum | cut -d' ' -f1
}

# The record of the last application or export of a folder to branch
# WORK of tree T: the commit it left in applied_ref, and the folder's
# fingerprint in branch.<WORK>.fingerprint.  One per branch, since
# worktrees share refs and config (the v6.16 stand-in is a worktree of
# the 7.3 tree with its own branch).
# applied_ref: refs/applied/<WORK>; in a tree of the user's own (WORK
# spe-vm/<name>/work), refs/spe-vm/<name>/applied, so that all the
# project writes there is under spe-vm/<name>.
applied_ref() {
	case "$WORK" in
	spe-vm/*/work) echo "refs/${WORK%/work}/applied" ;;
	*) echo "refs/applied/$WORK" ;;
	esac
}
# record_series T DIR: record that WORK of T is what folder DIR gives.
record_series() {
	git -C "$1" update-ref "$(applied_ref)" "$WORK"
	git -C "$1" config "branch.$WORK.fingerprint" "$(series_fingerprint "$2")"
}
# recorded_series T: print "<commit> <fingerprint>" of the record, "-"
# for a field there is none of.
recorded_series() {
	echo "$(git -C "$1" rev-parse -q --verify "$(applied_ref)" || echo -)" \
		"$(git -C "$1" config "branch.$WORK.fingerprint" || echo -)"
}
# series_state T DIR: how branch WORK of T stands to folder DIR, for the
# one rule of apply.sh and qemu/build.sh (apply a folder, never over a
# developer's commits):
#   none        no branch WORK yet
#   unexported  WORK moved past the record: commits no export saved
#   current     WORK is what DIR gives
#   stale       WORK is an earlier application; DIR changed since
series_state() {
	local applied fingerprint
	if ! git -C "$1" rev-parse -q --verify "refs/heads/$WORK" >/dev/null; then
		echo none
		return
	fi
	read -r applied fingerprint <<<"$(recorded_series "$1")"
	if [ "$(git -C "$1" rev-parse "$WORK")" != "$applied" ]; then
		echo unexported
	elif [ "$fingerprint" = "$(series_fingerprint "$2")" ]; then
		echo current
	else
		echo stale
	fi
}

# git_import DIR MESSAGE: make the unpacked source in DIR a git repository
# of one commit, with a fixed identity and date, so that its commit id
# (and with it every commit id of the applied series, and the exported
# folders' bytes) is the same on every machine.
git_import() {
	git -C "$1" init -q -b base-tree
	git -C "$1" add -A -f .
	env GIT_AUTHOR_NAME=base GIT_AUTHOR_EMAIL=base@localhost \
		GIT_COMMITTER_NAME=base GIT_COMMITTER_EMAIL=base@localhost \
		GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" \
		GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git -C "$1" commit -q -m "$2"
}

# am_series TREE PATCH...: git am every patch but a cover letter, with a
# fixed committer and the author's date, so that the same folder gives
# the same commit ids everywhere (checks/exported.sh compares an
# export of them with the folder byte for byte).  Stops at the first
# patch that does not apply, leaving no am session behind.
am_series() {
	local t=$1 p
	shift
	for p in "$@"; do
		case "$(basename "$p")" in 0000-*) continue ;; esac
		env GIT_COMMITTER_NAME=series GIT_COMMITTER_EMAIL=series@localhost \
			git -C "$t" am -q --keep-cr --committer-date-is-author-date "$p" || {
			git -C "$t" am --abort
			echo "error: $(basename "$p") does not apply to $t" >&2
			return 1
		}
	done
}

# The base is tagged BASE_TAG and the series applied on branch WORK. In a
# tree of the user's own (KSRC) they carry a prefix, not to clash with
# the user's refs.
if [ -n "${KSRC:-}" ]; then
	BASE_TAG=${BASE_TAG:-spe-vm/$NAME/base}
	WORK=${WORK:-spe-vm/$NAME/work}
else
	BASE_TAG=${BASE_TAG:-base}
	WORK=${WORK:-work}
fi

# One repository per base, two checkouts of it, each with its own object
# directory (kernel_objdir), so that neither rebuilds the other's objects:
#   $(ktree)        branch WORK, the series applied (the tree a developer
#                   edits and exports from)
#   $(ktree)-steps  moved patch by patch by checks/series.sh
# (The unpatched Image is built in $(ktree) itself: scripts/image.sh.)
# checkout NAME REV: the path of checkout NAME (steps), created on first
# use, detached at REV.
checkout() {
	local t w
	t=$(ktree)
	w=$t-$1
	if [ ! -e "$w/.git" ]; then
		git -C "$t" worktree prune
		git -C "$t" worktree add -q --detach "$w" "$2" >&2 ||
			die "cannot add a worktree $w of $t"
	elif [ "$(git -C "$w" rev-parse HEAD)" != "$(git -C "$t" rev-parse "$2^{commit}")" ]; then
		git -C "$w" am --abort >/dev/null 2>&1 || true
		git -C "$w" checkout -q -f --detach "$2"
	fi
	echo "$w"
}

kernel_objdir() { echo "$BUILD/kout-$(basename "${1:-$(ktree)}")"; }

# harness_env: what harness/ takes from the environment: the tree, its two
# revisions and an output folder per base.
harness_env() {
	TREE=$(ktree)
	O=$BUILD/harness-$NAME
	export TREE O WORK BASE_TAG
}

# image_path work|base: where scripts/image.sh puts that Image.
image_path() {
	case "$1" in
	work) echo "$BUILD/images/$NAME-Image" ;;
	base) echo "$BUILD/images/$NAME-base-Image" ;;
	*) die "image_path: work or base, not $1" ;;
	esac
}

# need_image work|base: build that Image if it is not up to date, and
# print its path.
need_image() {
	local img
	img=$(image_path "$1")
	"$ROOT/scripts/image.sh" "$1" >&2 || die "scripts/image.sh $1 failed"
	[ -f "$img" ] || die "scripts/image.sh $1 made no $img"
	echo "$img"
}

# tool_key SCRIPT...: what a kept result depends on besides its own
# inputs: the scripts that made it (paths relative to the project's root;
# scripts/lib.sh always), the kernel configuration fragment and the
# tools' versions.
tool_key() {
	local s
	(for s in scripts/lib.sh "$@"; do cat "$ROOT/$s"; done
	 cat "$ROOT/config/qemu.config"
	 "${CROSS_COMPILE}gcc" --version | head -n1
	 sparse --version 2>/dev/null || true) | sha1sum | cut -c1-16
}

# kmake TREE [--objdir DIR] ARGS...: make in TREE, objects in DIR
# (default: the tree's own, kernel_objdir)
kmake() {
	local t=$1 o
	shift
	o=$(kernel_objdir "$t")
	[ "${1:-}" != --objdir ] || { o=$2; shift 2; }
	make -C "$t" O="$o" -j"$JOBS" CC="ccache ${CROSS_COMPILE}gcc" "$@"
}
