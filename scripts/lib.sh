# SPDX-License-Identifier: GPL-2.0
# Common settings for the project's scripts.  Sourced, never run.
# shellcheck shell=bash
# shellcheck disable=SC2034 # its variables are for the scripts that source it

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
# Our QEMU (qemu/build.sh) is built from this Debian source package (sid).
# Debian sid lists qemu 1:11.1.x too, but this machine's mirror does not
# serve its files (404); 10.2.2 is the newest QEMU source it has.
QEMU_DEB=1:10.2.2+ds-1
QEMU_VERSION=${QEMU_DEB#*:}
QEMU_VERSION=${QEMU_VERSION%%+*}
QEMU_DIR=$BUILD/qemu-$QEMU_VERSION
# Debian's python3 first: the kernel's scripts (spdxcheck.py, kunit.py) need
# python3-ply and python3-git from Debian, not another python3 on PATH.
export PATH=/usr/bin:/bin:$PATH
export ARCH=arm64
export CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
# Paths under the project are hashed relative to it, so that a second
# clone (CI's fresh one) hits what the first one compiled.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$ROOT}
# Parallel jobs, for every build of the project (kernel, QEMU, perf,
# mutants): JOBS=n, default the machine's CPUs.
export JOBS=${JOBS:-$(nproc)}
# A storm: QEMU counted at least this many reads of a stopped PMBSR_EL1
# (its counters are traced at powers of two; a handler that works reads
# it a handful of times per interrupt).
STORM_READS=65536

# Trees and files that only the checks create live under CHECK_DIR, a
# name no user command (make, make apply, KSRC=...) writes to, so that a
# check never writes into a tree it did not create.
CHECK_DIR=$BUILD/check

die() { echo "error: $*" >&2; exit 1; }
note() { echo "== $*"; }

# The Debian bases: BASE=<name> picks one (default: the current mainline
# release).  Each is Debian's linux-source package of that kernel, fetched
# through a private apt configuration (private_apt below), never installed; its
# series folder is series/<name>.
DEFAULT_BASE=7.3
DEBIAN_BASES="7.3 6.12.y"
# Bases that take only the stable fixes (series/<name>/fixes), checked by
# checks/run.sh --stable (make check-stable), not by make check.
STABLE_BASES="6.1.y"
# Bases the feature series is tested on but never posted for (stable
# takes fixes only): make outgoing writes only their fixes/ postings.
TEST_BASES="6.12.y"
base_pkg() {
	case "$1" in
	7.3) echo linux-source-7.3 ;;		# trixie-backports
	6.12.y) echo linux-source-6.12 ;;	# bookworm(-security)
	6.1.y) echo linux-source-6.1 ;;		# bookworm(-security)
	*) return 1 ;;
	esac
}
# base_version BASE: the version of the package the series folder of BASE
# was made on.  Pinned: the day Debian serves a newer one, a fresh clone
# stops and says so (base_deb) instead of exporting other bytes.
base_version() {
	case "$1" in
	7.3) echo 7.3.4-1~bpo13+1 ;;
	6.12.y) echo 6.12.118-1~deb12u1 ;;
	6.1.y) echo 6.1.192-3 ;;
	*) return 1 ;;
	esac
}

# With KSRC (a tree of the user's own) BASE is a revision of that tree.
if [ -z "${KSRC:-}" ]; then
	BASE=${BASE:-$DEFAULT_BASE}
	[ -n "${KTREE:-}" ] || base_pkg "$BASE" >/dev/null ||
		die "BASE=$BASE: not one of: $DEBIAN_BASES $STABLE_BASES (or set KSRC=/path/to/linux)"
fi

# private_apt ARGS...: apt-get with a private configuration under build/apt, so
# that fetching a package of another Debian suite changes nothing of what
# the machine's own packages resolve to.  The archive is the one the
# machine's Debian entries already use.
private_apt_init() {
	local d=$BUILD/apt uri src
	[ -f "$d/sources.list" ] && return 0
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	{
		# The machine's own Debian suites (bookworm, its updates and
		# security), as one-line entries...
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			awk 'BEGIN { RS = "" }
			     /(^|\n)Types:([^\n]* )?deb( |\n|$)/ && !/(^|\n)Enabled: *no/ {
				u = s = c = k = ""
				n = split($0, l, "\n")
				for (i = 1; i <= n; i++) {
					if (l[i] ~ /^URIs:/) { sub(/^URIs: */, "", l[i]); u = l[i] }
					if (l[i] ~ /^Suites:/) { sub(/^Suites: */, "", l[i]); s = l[i] }
					if (l[i] ~ /^Components:/) { sub(/^Components: */, "", l[i]); c = l[i] }
					if (l[i] ~ /^Signed-By:/) { sub(/^Signed-By: */, "", l[i]); k = l[i] }
				}
				if (u !~ /debian/) next
				m = split(s, ss, " ")
				for (j = 1; j <= m; j++)
					printf "deb [signed-by=%s] %s %s %s\n", k, u, ss[j], c
			     }' "$f"
		done
		grep -s '^deb .*debian' /etc/apt/sources.list || true
		# ...and the current kernel's suite from the same archive.
		uri=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
			grep -o 'https\?://[^ ]*/debian/\?$' | head -n1)
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri trixie-backports main"
	} >"$d/sources.list.tmp"
	grep -q '^deb .* bookworm ' "$d/sources.list.tmp" || die "no Debian archive configured in /etc/apt"
	# Sources of the machine's own suites (QEMU's, for qemu/build.sh)
	src=$(sed -n '/trixie/!s/^deb /deb-src /p' "$d/sources.list.tmp")
	echo "$src" >>"$d/sources.list.tmp"
	mv "$d/sources.list.tmp" "$d/sources.list"
	rm -f "$d/updated"
}
private_apt() {
	private_apt_init
	apt_in "$BUILD/apt" "$@"
}

# apt_in DIR [--arch ARCH] ARGS...: apt-get with the private configuration
# of DIR: its sources.list, its own lists and cache, no preferences and
# an empty dpkg status, so that nothing of the machine's own apt state is
# read or changed.  --arch: that architecture only (the guest's arm64
# packages).  The one apt wrapper of the project (private_apt, scripts/guest/rootfs.sh,
# qemu/build.sh).
apt_in() {
	local d=$1 arch=()
	shift
	if [ "${1:-}" = --arch ]; then
		arch=(-o "APT::Architecture=$2" -o "APT::Architectures::=$2")
		shift 2
	fi
	apt-get -q "${arch[@]}" -o Dir::Etc::SourceList="$d/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache" \
		-o Dir::State::status=/dev/null -o APT::Sandbox::User=root "$@"
}
# private_apt_update: fetch the private package lists once per build/ folder.
private_apt_update() {
	private_apt_init
	[ -f "$BUILD/apt/updated" ] && return 0
	private_apt update >&2 || die "apt-get update (private lists in $BUILD/apt) failed"
	touch "$BUILD/apt/updated"
}

# base_deb BASE: the path of the base's linux-source .deb (of the pinned
# version, base_version) under build/debs, downloaded with the private apt
# configuration if missing.  If Debian no longer serves that version, die
# naming the package, both versions and what to do.
base_deb() {
	local pkg ver deb now debs=$BUILD/debs
	pkg=$(base_pkg "$1")
	ver=$(base_version "$1")
	deb=$debs/${pkg}_${ver//:/%3a}_all.deb
	mkdir -p "$debs"
	if [ ! -f "$deb" ]; then
		note "fetching $pkg $ver with a private apt configuration" >&2
		private_apt_update
		if ! (cd "$debs" && private_apt download "$pkg=$ver" >&2); then
			now=$(private_apt download --print-uris "$pkg" 2>/dev/null | awk '{ print $2 }' |
				sed -n "s/^${pkg}_\(.*\)_[^_]*\.deb\$/\1/p" | sed 's/%3a/:/')
			die "Debian no longer serves $pkg $ver, which series/$1 was made on (it serves ${now:-no $pkg at all}).
  To keep this base: put ${pkg}_${ver}_all.deb into $debs/ (from a machine that has it).
  To move it to ${now:-the new version}: set $1's version in scripts/lib.sh (base_version), make clean (it keeps
  a tree that holds work), make apply BASE=$1, make export BASE=$1, and review what changed in series/$1."
		fi
		[ -f "$deb" ] || die "apt-get download $pkg=$ver wrote no $deb"
	fi
	echo "$deb"
}

# The base's one name, NAME: the name of its series folder (7.3, 6.12.y,
# 6.1.y, v6.16), and of everything the scripts make of it:
#   series/NAME                  its patches
#   build/linux-NAME             the tree (a Debian base); with KSRC,
#                                build/wt-NAME, a worktree of the user's tree
#   build/linux-NAME-base, -steps  its other checkouts (checkout below)
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

# on_work TREE: TREE has the series' branch WORK checked out, with no
# rebase or am stopped half way; otherwise die saying so.  No script
# switches a developer's tree to another branch behind their back.
on_work() {
	local t=$1 head gd op
	gd=$(git -C "$t" rev-parse --path-format=absolute --git-dir)
	for op in rebase-merge rebase-apply MERGE_HEAD CHERRY_PICK_HEAD; do
		[ ! -e "$gd/$op" ] || die "$t: a ${op%%[-_]*} is in progress: finish it (or abort it) first"
	done
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

# One repository per base, three checkouts of it, each with its own
# object directory (kernel_objdir), so that none of them rebuilds another's
# objects:
#   $(ktree)        branch WORK, the series applied (the tree a developer
#                   edits and exports from)
#   $(ktree)-base   BASE_TAG, the unpatched base (negative controls)
#   $(ktree)-steps  moved patch by patch by checks/series.sh
# checkout NAME REV: the path of checkout NAME (base or steps), created on
# first use, detached at REV.
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

kmake() {
	local t=$1
	shift
	make -C "$t" O="$(kernel_objdir "$t")" -j"$JOBS" CC="ccache ${CROSS_COMPILE}gcc" "$@"
}

# checkpatch <tree> <patch>: the tree's checkpatch --strict on a patch;
# print the problems that count.
#  - UNKNOWN_COMMIT_ID is not checked: the base is an import without the
#    upstream history, so no Fixes: id can be looked up in it.
#  - FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is answered
#    here: it counts only if get_maintainer.pl finds no maintainer for a
#    file the patch adds.
checkpatch() {
	local t=$1 p=$2 f out dict
	# A missing checkpatch.pl is a problem that counts, never a clean run.
	if [ ! -x "$t/scripts/checkpatch.pl" ]; then
		echo "ERROR:NO_CHECKPATCH: $t has no scripts/checkpatch.pl"
		return 0
	fi
	# Debian keeps codespell's dictionary inside its Python package.
	dict=$(python3 -c 'import codespell_lib, os; print(os.path.join(os.path.dirname(codespell_lib.__file__), "data", "dictionary.txt"))')
	# checkpatch.pl's status says nothing its output does not
	out=$(cd "$t" && { scripts/checkpatch.pl --strict --codespell --codespellfile "$dict" --show-types \
		--ignore UNKNOWN_COMMIT_ID --no-summary -q "$p" 2>&1 || true; })
	if grep -q '^WARNING:FILE_PATH_CHANGES:' <<<"$out"; then
		local orphan=0
		while read -r f; do
			(cd "$t" && scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" 2>/dev/null) |
				grep -q '(maintainer:' || { echo "no maintainer for $f"; orphan=1; }
		done < <(awk '/^diff --git/ { f = $4 } /^new file mode/ { sub(/^b\//, "", f); print f }' "$p")
		if [ $orphan = 0 ]; then
			out=$(sed '/^WARNING:FILE_PATH_CHANGES:/,/^$/d' <<<"$out")
		fi
	fi
	[ -n "$out" ] && echo "$out"
	return 0
}

# guest_qemu ARRAY QEMU MACHINE CPU SMP MEM IMAGE INITRD CMDLINE [QEMU ARGS...]:
# set ARRAY (a name) to the one QEMU command line of the project's guests
# (scripts/boot.sh, scripts/guest.sh): serial console on stdio, no
# reboot, no network, and a kernel command line that starts with the
# console, kpti=off and panic=-1, then CMDLINE.
guest_qemu() {
	local -n _q=$1
	_q=("$2" -M "$3" -cpu "$4" -smp "$5" -m "$6" -nographic -no-reboot -nic none
		-kernel "$7" -initrd "$8" -append "console=ttyAMA0 kpti=off panic=-1${9:+ $9}" "${@:10}")
}

# pack_cpio DIR OUT: DIR as a gzipped newc archive OUT (written whole or
# not at all), files in name order and owned by root, so that the same
# tree always packs to the same bytes.  The one packer of the guests'
# archives (scripts/guest/initramfs.sh, scripts/guest/rootfs.sh, scripts/guest.sh).
pack_cpio() {
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1 -n) >"$2.tmp" &&
		mv "$2.tmp" "$2"
}

# spe_trace_count: QEMU's trace on stdin, out on stdout with the lines of
# three SPE trace events replaced by counts: one line per record written
# (arm_spe_record), per record discarded (arm_spe_discard) and per read of
# a stopped PMBSR_EL1 (arm_spe_pmbsr_read_stopped) are counted per CPU,
# and written as "arm_spe_count cpu N WHAT VALUE" (WHAT: records,
# discarded, stopped_reads) each time VALUE reaches a power of two, and
# with the final VALUE at the end.  An interrupt storm is millions of
# reads: only their count is kept.  Every other line passes through.
spe_trace_count() {
	awk 'match($0, /arm_spe_(record|discard|pmbsr_read_stopped) cpu [0-9]+/) {
		split(substr($0, RSTART, RLENGTH), f, " ")
		what = "stopped_reads"
		if (f[1] == "arm_spe_record") what = "records"
		if (f[1] == "arm_spe_discard") what = "discarded"
		k = what " " f[3]
		if (!(k in at)) at[k] = 1
		if (++n[k] == at[k]) {
			printf "arm_spe_count cpu %s %s %d\n", f[3], what, n[k]
			at[k] *= 2
		}
		next
	}
	{ print }
	END {
		for (k in n) {
			split(k, p, " ")
			printf "arm_spe_count cpu %s %s %d\n", p[2], p[1], n[k]
		}
	}'
}

# SPE_TRACE: the QEMU trace events spe_trace_count reads, and the
# management events; without arm_spe_record, a line per record written,
# which only boot.sh adds (its checks count records): tracing each of
# them costs more guest time than writing it.
SPE_TRACE=(-trace arm_spe_discard -trace arm_spe_pmbsr_read_stopped
	-trace arm_spe_event)

# Result lines for the final count: RESULT <pass|fail|skip> <name>
# qemu_counter FILE WHAT: how far QEMU's SPE count WHAT (records,
# discarded, stopped_reads: PMBSR_EL1 reads while S == 1) got, summed over
# the CPUs, from a trace spe_trace_count wrote to FILE: exact when the
# trace ended, else a lower bound within a factor of two.
qemu_counter() {
	awk -v what="$2" '$0 ~ "arm_spe_count cpu [0-9]+ " what " [0-9]+$" {
		n = split($0, f, " "); cpu = f[n - 2]
		if (f[n] + 0 > max[cpu]) max[cpu] = f[n] + 0
	} END { for (c in max) s += max[c]; print s + 0 }' "$1"
}

result() { echo "RESULT $1 $2"; }

# cached NAME KEY COMMAND...: run a check whose verdict depends on nothing
# but KEY (a hash of all its inputs).  When it passed with that key
# before, print its RESULT lines again, marked "(kept: inputs
# unchanged)", instead of running it; a skip stays a skip.  Only a run
# that exited 0 with no failure is kept.
KEPT="(kept: inputs unchanged)"
cached() {
	local f=$BUILD/cache/$1.$2 rc=0
	shift 2
	if [ -f "$f" ]; then
		sed "s/\$/ $KEPT/" "$f"
		return 0
	fi
	mkdir -p "$BUILD/cache"
	"$@" >"$f.out" 2>&1 || rc=$?
	cat "$f.out"
	if [ $rc = 0 ] && grep -q '^RESULT pass ' "$f.out" &&
	   ! grep -q '^RESULT fail ' "$f.out"; then
		grep '^RESULT ' "$f.out" >"$f"
	fi
	rm -f "$f.out"
	return $rc
}

