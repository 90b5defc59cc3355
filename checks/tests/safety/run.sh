#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The commands that could lose or damage a user's work, run on throwaway
# trees in a copy of the project (a sandbox under a temporary folder), with
# the project's own Makefile and scripts:
#   clean-*      make clean refuses while a tree under build/ has commits
#                no export saved (on a branch or a detached HEAD),
#                uncommitted edits, untracked files, a stash or a rebase
#                in progress (FORCE=1 overrides), and on a BUILD outside
#                the project (always);
#   roundtrip-*  after an export, apply is quiet and keeps the branch; a
#                newer folder is applied; the record of one branch (the
#                v6.16 stand-in's) does not stand in for another's;
#   standin-*    the v6.16 check never writes into a worktree of a tree of
#                the user's own (make KSRC=... BASE=v6.16);
#   ksrc-*       a tree of the user's of a kernel no folder is for is
#                refused, never treated as 7.3; make apply on a tree of the
#                user's writes refs and settings only under spe-vm/<name>,
#                and changes none of theirs;
#   stays-*      make apply and scripts/image.sh never switch a tree off
#                the branch its developer is on;
#   swap         the unpatched Image's build puts the drivers it swaps
#                back as the developer left them, also after a kill;
#   debian-*     a newer Debian linux-source than the series was made on
#                stops the base with a message, never builds silently;
#   qemu-*       qemu/build.sh neither checks out over nor deletes a QEMU
#                git copy that holds edits or untracked files.
#
#   checks/tests/safety/run.sh
#
# Prints "RESULT pass|fail safety/CASE"; exit status 1 when any failed.
# shellcheck disable=SC2317 # the cases are called through check()
set -uo pipefail
unset BUILD KTREE KSRC BASE SERIES WORK BASE_TAG CHECK_BASES V616_FILES
src=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

check() {	# check CASE COMMAND...: the command's status is the verdict
	local c=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		echo "RESULT pass safety/$c"
	else
		echo "RESULT fail safety/$c"
		sed 's/^/    /' "$tmp/out" | tail -n 20
		rc=1
	fi
}

# A fresh sandbox S: the project's Makefile, scripts, checks and config,
# and an empty series folder "demo".
sandbox() {
	S=$tmp/sandbox
	rm -rf "$S"
	mkdir -p "$S/series/demo" "$S/build"
	cp -r "$src/Makefile" "$src/scripts" "$src/checks" "$src/config" "$S/"
	cp -r "$src/series/v6.16" "$S/series/"
}

# tree DIR: a small kernel-like tree with a base tag, a get_maintainer.pl
# that names one maintainer, and branch work with one commit and a cover
# letter (branch description).
tree() {
	local t=$1
	git init -q -b main "$t"
	mkdir -p "$t/scripts"
	printf 'M:\tA Maintainer <maint@example.org>\nF:\t*\n' >"$t/MAINTAINERS"
	printf '#!/bin/sh\necho "A Maintainer <maint@example.org>"\n' >"$t/scripts/get_maintainer.pl"
	chmod +x "$t/scripts/get_maintainer.pl"
	echo one >"$t/file.c"
	g "$t" add -A
	g "$t" commit -q -m base
	g "$t" tag base
	g "$t" checkout -q -b work
	commit "$t" two "demo: the first change"
	g "$t" config branch.work.description "demo: a series

A cover letter."
}
g() { local t=$1; shift; git -C "$t" -c user.name=test -c user.email=test@example.org "$@"; }
commit() {	# commit TREE CONTENT SUBJECT
	echo "$2" >>"$1/file.c"
	g "$1" commit -q -a -m "$3"
}
mk() { SERIES=demo make -s -C "$S" "$@"; }

# --- make clean ---
clean_unexported() {
	sandbox
	tree "$S/build/linux-7.3"
	mk export >/dev/null || return 1
	commit "$S/build/linux-7.3" three "demo: not exported yet"
	if mk clean >"$tmp/clean" 2>&1; then
		echo "make clean removed a tree with an unexported commit"
		return 1
	fi
	grep -q 'demo: not exported yet' "$tmp/clean" || { cat "$tmp/clean"; return 1; }
	[ -d "$S/build/linux-7.3/.git" ] || { echo "the tree is gone"; return 1; }
	# exported: nothing is lost, so clean goes ahead
	mk export >/dev/null && mk clean && [ ! -e "$S/build" ]
}
clean_dirty() {
	sandbox
	tree "$S/build/linux-7.3"
	mk export >/dev/null || return 1
	echo edited >>"$S/build/linux-7.3/file.c"
	if mk clean >"$tmp/clean" 2>&1; then
		echo "make clean removed a tree with uncommitted edits"
		return 1
	fi
	grep -q 'file.c' "$tmp/clean" || { cat "$tmp/clean"; return 1; }
	mk clean FORCE=1 && [ ! -e "$S/build" ]
}
# refused CASE-TEXT: make clean must refuse, name CASE-TEXT and keep the
# tree; FORCE=1 then removes build/.
refused() {
	if mk clean >"$tmp/clean" 2>&1; then
		echo "make clean went ahead; it should have refused naming: $1"
		return 1
	fi
	grep -qF -- "$1" "$tmp/clean" || { echo "no \"$1\" in:"; cat "$tmp/clean"; return 1; }
	[ -d "$S/build/linux-7.3/.git" ] || { echo "the tree is gone"; return 1; }
	mk clean FORCE=1 && [ ! -e "$S/build" ]
}
clean_untracked() {
	sandbox
	tree "$S/build/linux-7.3"
	mk export >/dev/null || return 1
	# as in Debian's tree, whose .gitignore ignores its top level
	printf '/*\n!/file.c\n' >"$S/build/linux-7.3/.gitignore"
	g "$S/build/linux-7.3" add -f .gitignore
	g "$S/build/linux-7.3" commit -q -m "demo: ignore the top level"
	mk export >/dev/null || return 1
	echo "new" >"$S/build/linux-7.3/new-driver.c"
	refused "new-driver.c"
}
clean_stash() {
	sandbox
	tree "$S/build/linux-7.3"
	mk export >/dev/null || return 1
	echo "half done" >>"$S/build/linux-7.3/file.c"
	g "$S/build/linux-7.3" stash -q
	refused "stash@{0}"
}
clean_detached() {
	sandbox
	tree "$S/build/linux-7.3"
	mk export >/dev/null || return 1
	g "$S/build/linux-7.3" checkout -q --detach
	commit "$S/build/linux-7.3" three "demo: made on a detached HEAD"
	refused "demo: made on a detached HEAD"
}
clean_rebase() {
	sandbox
	tree "$S/build/linux-7.3"
	mk export >/dev/null || return 1
	GIT_SEQUENCE_EDITOR="sed -i s/^pick/edit/" g "$S/build/linux-7.3" rebase -q -i base >/dev/null 2>&1
	refused "a rebase is in progress"
}
clean_outside() {
	local other=$tmp/elsewhere
	sandbox
	mkdir -p "$other"
	echo "not the project's" >"$other/keep"
	if BUILD=$other mk clean >"$tmp/clean" 2>&1; then
		echo "make clean accepted BUILD=$other"
		return 1
	fi
	[ -f "$other/keep" ] || { echo "make clean removed $other"; return 1; }
	grep -q 'not inside the project' "$tmp/clean" || { cat "$tmp/clean"; return 1; }
}
check clean-unexported clean_unexported
check clean-dirty clean_dirty
check clean-untracked clean_untracked
check clean-stash clean_stash
check clean-detached clean_detached
check clean-rebase clean_rebase
check clean-outside clean_outside

# --- export, then apply ---
roundtrip_quiet() {
	local t=$S/build/linux-7.3 before
	sandbox
	tree "$t"
	commit "$t" three "demo: the second change"
	mk export >/dev/null || return 1
	before=$(git -C "$t" rev-parse work)
	(cd "$S" && SERIES=demo scripts/apply.sh) >"$tmp/apply" 2>&1 || { cat "$tmp/apply"; return 1; }
	if grep -q 'not in' "$tmp/apply"; then
		cat "$tmp/apply"
		return 1
	fi
	[ "$(git -C "$t" rev-parse work)" = "$before" ]
}
# newer_folder TREE: the folder as a newer checkout of the project would
# bring it: the series plus one more commit, exported from elsewhere.
newer_folder() {
	local t=$1
	g "$t" branch -f next work
	g "$t" checkout -q next
	commit "$t" four "demo: from a newer folder"
	g "$t" config branch.next.description "$(git -C "$t" config branch.work.description)"
	(cd "$S" && KTREE=$t WORK=next SERIES=demo scripts/export.sh "$tmp/newer") >/dev/null || return 1
	g "$t" checkout -q work
	g "$t" branch -q -D next
	rm -rf "$S/series/demo"
	cp -r "$tmp/newer" "$S/series/demo"
}
roundtrip_newer() {
	local t=$S/build/linux-7.3
	sandbox
	tree "$t"
	mk export >/dev/null || return 1
	newer_folder "$t" || return 1
	(cd "$S" && SERIES=demo scripts/apply.sh) >"$tmp/apply" 2>&1 || { cat "$tmp/apply"; return 1; }
	[ "$(git -C "$t" log -1 --format=%s work)" = "demo: from a newer folder" ] ||
		{ cat "$tmp/apply"; return 1; }
}
# A second branch in a worktree of the same tree (as the v6.16 stand-in
# is of the 7.3 tree) is applied and exported: branch work's record
# must stay its own.
roundtrip_worktree() {
	local t=$S/build/linux-7.3 w=$S/build/other
	sandbox
	tree "$t"
	mk export >/dev/null || return 1
	mkdir -p "$S/series/other"
	g "$t" worktree add -q --detach "$w" base
	g "$w" checkout -q -b work-other
	commit "$w" other "other: a change"
	g "$t" config branch.work-other.description "other: a series

A cover letter."
	(cd "$S" && KTREE=$w WORK=work-other SERIES=other scripts/export.sh &&
		KTREE=$w WORK=work-other SERIES=other scripts/apply.sh) >/dev/null || return 1
	newer_folder "$t" || return 1
	(cd "$S" && SERIES=demo scripts/apply.sh) >"$tmp/apply" 2>&1 || { cat "$tmp/apply"; return 1; }
	[ "$(git -C "$t" log -1 --format=%s work)" = "demo: from a newer folder" ] ||
		{ cat "$tmp/apply"; return 1; }
}
check roundtrip-quiet roundtrip_quiet
check roundtrip-newer roundtrip_newer
check roundtrip-worktree roundtrip_worktree

# --- the v6.16 check and a tree of the user's own ---
# make KSRC=<user tree> BASE=v6.16 works in a worktree of the user's tree
# at the path lib.sh's ktree gives; the v6.16 check must leave that
# worktree, its branch and the user's refs as they were, whatever it
# reports.
standin_user_tree() {
	local u=$tmp/user wt refs head
	sandbox
	tree "$S/build/linux-7.3"
	tree "$u"
	# the user's v6.16: a Makefile of that version, tagged
	printf 'VERSION = 6\nPATCHLEVEL = 16\nSUBLEVEL = 0\n' >"$u/Makefile"
	g "$u" add Makefile
	g "$u" commit -q -m "Linux 6.16"
	g "$u" tag v6.16
	wt=$(cd "$S" && KSRC=$u BASE=v6.16 bash -c '. scripts/lib.sh && ktree')
	g "$u" worktree add -q -b spe-vm/v6.16/work "$wt" v6.16
	refs=$(git -C "$u" for-each-ref)
	head=$(git -C "$wt" symbolic-ref HEAD)
	(cd "$S" && V616_RUN=1 V616_FILES=$tmp/none checks/v6.16.sh) >"$tmp/v616" 2>&1
	# it ran (it fails: there are no v6.16 files), or it proves nothing
	grep -q '^RESULT ' "$tmp/v616" ||
		{ echo "the v6.16 check did not run:"; tail -n 5 "$tmp/v616"; return 1; }
	[ "$(git -C "$u" for-each-ref)" = "$refs" ] ||
		{ echo "the user's refs changed:"; git -C "$u" for-each-ref; return 1; }
	[ "$(git -C "$wt" symbolic-ref -q HEAD)" = "$head" ] ||
		{ echo "the user's worktree $wt left $head"; return 1; }
	[ -z "$(git -C "$wt" status --porcelain)" ]
}
check standin-user-tree standin_user_tree

# The base and the series on a tree of the user's own (make KSRC=...
# SERIES=demo): the user's own tag base, branch work and its settings,
# and a ref of theirs, stay as they were; every ref and setting added is
# under spe-vm/demo.
ksrc_namespace() {
	local u=$tmp/user before after
	sandbox
	tree "$S/build/linux-7.3"
	mk export >/dev/null || return 1
	tree "$u"
	g "$u" update-ref refs/series/applied base
	before=$(git -C "$u" for-each-ref --format='%(refname) %(objectname)'; git -C "$u" config --local --list -z | tr '\n\0' '\036\n')
	(cd "$S" && export KSRC=$u BASE=base SERIES=demo && scripts/base.sh && scripts/apply.sh) >"$tmp/k" 2>&1 ||
		{ cat "$tmp/k"; return 1; }
	git -C "$u" rev-parse -q --verify refs/heads/spe-vm/demo/work >/dev/null ||
		{ echo "the series was not applied:"; git -C "$u" for-each-ref; return 1; }
	after=$(git -C "$u" for-each-ref --format='%(refname) %(objectname)'; git -C "$u" config --local --list -z | tr '\n\0' '\036\n')
	# nothing of the user's changed or went
	! comm -23 <(sort <<<"$before") <(sort <<<"$after") | grep . ||
		{ echo "^ changed or deleted"; return 1; }
	# what was added: refs and settings under spe-vm/demo only
	! comm -13 <(sort <<<"$before") <(sort <<<"$after") |
		grep -v '^refs/\(tags/\|heads/\|\)spe-vm/demo/\|^branch\.spe-vm/demo/work\.' ||
		{ echo "^ added outside spe-vm/demo"; return 1; }
}
check ksrc-namespace ksrc_namespace

# make apply and scripts/image.sh on a tree whose developer moved to a
# branch of their own: both refuse, and the tree stays on that branch.
stays_on_branch() {
	local t
	sandbox
	t=$S/build/linux-7.3
	tree "$t"
	mk export >/dev/null || return 1
	g "$t" checkout -q -b mine base
	for cmd in scripts/apply.sh "scripts/image.sh work"; do
		# shellcheck disable=SC2086 # the command and its argument
		if (cd "$S" && SERIES=demo $cmd) >"$tmp/b" 2>&1; then
			echo "$cmd went ahead"; return 1
		fi
		[ "$(git -C "$t" symbolic-ref --short HEAD)" = mine ] ||
			{ echo "$cmd switched the tree to $(git -C "$t" symbolic-ref --short HEAD)"; return 1; }
		grep -q 'is on mine, not the series. branch work' "$tmp/b" || { cat "$tmp/b"; return 1; }
	done
}
check stays-on-branch stays_on_branch

# The unpatched Image's swap (lib.sh: swap_drivers, swap_back, what
# scripts/image.sh base does around its make): on a tree whose series
# changes one driver, adds one and deletes one, with an edit of the
# developer's not committed, the swap gives the base's files, and
# putting them back gives the developer's, contents and times; a swap
# left behind (the build killed) is put back by the next on_work, and a
# copy begun but never listed does not stop the next swap.
# shellcheck disable=SC2016 # the $t of lib's inner shell
swap() {
	local t f
	sandbox
	t=$S/build/linux-7.3
	tree "$t"
	mkdir -p "$t/drivers/perf"
	echo base-a >"$t/drivers/perf/a.c"
	echo gone >"$t/drivers/perf/gone.c"
	g "$t" add -A && g "$t" commit -q -m "demo: drivers" && g "$t" tag -f base >/dev/null || return 1
	echo work-a >"$t/drivers/perf/a.c"
	echo new >"$t/drivers/perf/new.c"
	g "$t" rm -q drivers/perf/gone.c && g "$t" add -A && g "$t" commit -q -m "demo: change them" ||
		return 1
	echo "not committed" >>"$t/drivers/perf/a.c"
	touch -d '2001-01-01 00:00:00' "$t/drivers/perf/a.c" "$t/drivers/perf/new.c"
	lib() { (cd "$S" && SERIES=demo bash -c '. scripts/lib.sh && t=$(ktree) && '"$1"); }
	# a copy begun by a swap killed before it had listed its files
	mkdir -p "$S/build/swap-linux-7.3" && : >"$S/build/swap-linux-7.3/files.tar"
	lib 'swap_drivers "$t" base work' || return 1
	[ "$(cat "$t/drivers/perf/a.c")" = base-a ] || { echo "a.c is not the base's"; return 1; }
	[ "$(cat "$t/drivers/perf/gone.c")" = gone ] || { echo "gone.c is not back"; return 1; }
	[ ! -e "$t/drivers/perf/new.c" ] || { echo "new.c is still there"; return 1; }
	lib 'swap_back "$t"' || return 1
	for f in run killed; do
		[ "$(cat "$t/drivers/perf/a.c")" = "work-a
not committed" ] || { echo "$f: the developer's a.c is lost"; return 1; }
		[ ! -e "$t/drivers/perf/gone.c" ] || { echo "$f: gone.c is left"; return 1; }
		[ "$(stat -c %Y "$t/drivers/perf/a.c" "$t/drivers/perf/new.c")" = "$(date -d '2001-01-01 00:00:00' +%s)
$(date -d '2001-01-01 00:00:00' +%s)" ] || { echo "$f: the times changed"; return 1; }
		[ "$f" = run ] || break
		lib 'swap_drivers "$t" base work' || return 1
		lib 'on_work "$t"' >"$tmp/w" 2>&1 || { cat "$tmp/w"; return 1; }
		grep -q 'putting back the drivers' "$tmp/w" || { cat "$tmp/w"; return 1; }
	done
	[ ! -e "$S/build/swap-linux-7.3" ] || { echo "the kept copies are left"; return 1; }
}
check swap swap

# qemu/build.sh on a git copy of QEMU holding a developer's edit and an
# untracked file: re-applying the series (qemu/patches changed, or
# QEMU_FORCE_APPLY=1) and a new Debian QEMU version both refuse, naming
# them, and leave the copy as it was.  Its functions are sourced, on a
# small stand-in for the copy.
qemu_copy() {
	local q=$1
	git init -q -b base-tree "$q"
	echo 10.2.2 >"$q/VERSION"
	echo "int cpu;" >"$q/cpu.c"
	g "$q" add -A
	g "$q" commit -q -m "Debian source"
	g "$q" tag pristine
	g "$q" checkout -q -b spe
	echo "int spe;" >>"$q/cpu.c"
	g "$q" commit -q -a -m "target/arm: the series"
	g "$q" update-ref refs/applied/spe spe
	echo "int mine;" >>"$q/cpu.c"
	echo "new test" >"$q/mine.c"
}
qemu_keeps_edits() {
	local q
	sandbox
	cp -r "$src/qemu" "$S/"
	q=$(cd "$S" && bash -c '. scripts/lib.sh && echo "$QEMU_DIR-git"')
	qemu_copy "$q"
	if (cd "$S" && QEMU_FORCE_APPLY=1 bash -c '. qemu/build.sh && apply_series') >"$tmp/q" 2>&1; then
		echo "apply_series went ahead"; return 1
	fi
	if ! grep -q 'cpu.c' "$tmp/q" || ! grep -q 'mine.c' "$tmp/q"; then
		cat "$tmp/q"; return 1
	fi
	if ! grep -q 'int mine' "$q/cpu.c" || [ ! -f "$q/mine.c" ]; then
		echo "the edits are gone"; return 1
	fi
	# a new Debian version of QEMU: the copy is not replaced
	mkdir -p "$tmp/src"
	echo 10.2.3 >"$tmp/src/VERSION"
	if (cd "$S" && bash -c '. qemu/build.sh && prepare_git "$1"' - "$tmp/src") >"$tmp/q" 2>&1; then
		echo "prepare_git went ahead"; return 1
	fi
	grep -q 'mine.c' "$tmp/q" || { cat "$tmp/q"; return 1; }
	if ! grep -q 'int mine' "$q/cpu.c" || [ ! -f "$q/mine.c" ]; then
		echo "the copy is gone"; return 1
	fi
}
check qemu-keeps-edits qemu_keeps_edits

# Debian moved on: the archive serves a newer linux-source-7.3 than the
# one series/7.3 was made on.  scripts/base.sh stops, naming the package
# and both versions, instead of building (and exporting) another tree.
# The archive is a local one (file:), with only the newer package.
debian_moved() {
	local repo=$tmp/repo pkg=linux-source-7.3 ver newer
	sandbox
	ver=$(cd "$S" && bash -c '. scripts/lib.sh && base_version 7.3')
	newer=${ver/7.3.4/7.3.5}
	[ "$newer" != "$ver" ] || newer=9.9.9-1
	mkdir -p "$repo/pkg/DEBIAN" "$S/build/apt/lists/partial" "$S/build/apt/cache/archives/partial"
	printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: t <t@example.org>\nDescription: test\n' \
		"$pkg" "$newer" >"$repo/pkg/DEBIAN/control"
	dpkg-deb -b "$repo/pkg" "$repo/${pkg}_${newer}_all.deb" >/dev/null || return 1
	(cd "$repo" && dpkg-scanpackages -m . /dev/null >Packages 2>/dev/null) || return 1
	echo "deb [trusted=yes] file:$repo ./" >"$S/build/apt/sources.list"
	if (cd "$S" && BASE=7.3 scripts/base.sh) >"$tmp/base" 2>&1; then
		echo "scripts/base.sh went ahead on $pkg $newer"; return 1
	fi
	grep -qF "Debian no longer serves $pkg $ver, which series/7.3 was made on (it serves $newer)" "$tmp/base" ||
		{ cat "$tmp/base"; return 1; }
	[ ! -e "$S/build/linux-7.3" ] || { echo "a tree was made of $newer"; return 1; }
}
check debian-moved debian_moved

# make apply KSRC=<a kernel no folder is for> is refused with the list of
# folders, and writes nothing into the user's repository.
ksrc_unknown_version() {
	local u=$tmp/user66 refs
	sandbox
	tree "$u"
	printf 'VERSION = 6\nPATCHLEVEL = 6\nSUBLEVEL = 0\n' >"$u/Makefile"
	g "$u" add Makefile
	g "$u" commit -q -m "Linux 6.6"
	refs=$(git -C "$u" for-each-ref)
	if (cd "$S" && KSRC=$u BASE=HEAD scripts/apply.sh) >"$tmp/apply" 2>&1; then
		echo "a 6.6 tree was taken for a folder of another kernel"
		return 1
	fi
	grep -q 'kernel 6.6 has no series folder (folders: .*demo' "$tmp/apply" ||
		{ cat "$tmp/apply"; return 1; }
	[ "$(git -C "$u" for-each-ref)" = "$refs" ] ||
		{ echo "the user's refs changed:"; git -C "$u" for-each-ref; return 1; }
	[ ! -e "$S/build/images/7.3-Image" ]
}
check ksrc-unknown-version ksrc_unknown_version

exit $rc
