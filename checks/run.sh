#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every test of the project, stage by stage and base by base, then one
# closing line:
#   N passed, N failed, N skipped
# Stages print RESULT lines (collected in build/check.log, with
# --upstream build/check-upstream.log) and their
# wall time.  Every Debian base (lib.sh: DEBIAN_BASES, or CHECK_BASES)
# goes through the same stages; with KSRC, only that tree.
#
# --upstream (make check-upstream): only the tree's own tests, in every
# mode with their controls (checks/upstream.sh --all), on every
# base; make check runs them under DEN0154 on the first base only.
#
# --el2 (make check-el2): the patched kernel as a host at EL2, VHE and
# nVHE, with a KVM guest beside SPE recording (checks/upstream.sh --el2),
# on every base.  make check leaves it out: CI's time has no room for it.
#
# --stable (make check-stable): the bases that take only the stable
# fixes (lib.sh: STABLE_BASES, 6.1.y): the fixes applied, exported,
# checked patch by patch, and the padding reproducer on the unpatched
# and the patched kernel.  make check runs the same on 7.3 and 6.12.y
# as part of their stages.
set -uo pipefail
# make check BASE=<name> checks that base alone (as CHECK_BASES=<name>);
# without either, every base.  lib.sh gives BASE a default: look first.
user_base=${BASE:-}
. "$(dirname "$0")/../scripts/lib.sh"
if [ -n "$user_base" ] && [ -z "${KSRC:-}" ] && [ -z "${CHECK_BASES:-}" ]; then
	CHECK_BASES=$user_base
fi

upstream_all='' stable='' el2=''
case "${1:-}" in
--upstream) upstream_all=1 ;;
--el2) el2=1 ;;
--stable) stable=1 ;;
"") ;;
*) echo "usage: $0 [--upstream|--el2|--stable]" >&2; exit 2 ;;
esac
for b in ${CHECK_BASES:-}; do
	case " $DEBIAN_BASES $STABLE_BASES " in
	*" $b "*) ;;
	*) die "$b: not a base (bases: $DEBIAN_BASES; stable fixes only: $STABLE_BASES)" ;;
	esac
	if [ -z "$stable" ] && [[ " $STABLE_BASES " = *" $b "* ]]; then
		die "$b takes the stable fixes only: make check-stable BASE=$b"
	fi
done
mkdir -p "$BUILD"
suffix=${upstream_all:+-upstream}${el2:+-el2}${stable:+-stable}
log=$BUILD/check$suffix.log
: >"$log"
T0=$(date +%s)

# stage NAME COMMAND...: run a stage, keep its output in build/stage-NAME.log
# and its RESULT/TIME lines in the check log. A stage that exits non-zero
# without a failing RESULT is a failure too, and so is a test stage (all
# but setup, base and apply) that reports nothing.
stage() {
	local name=$1 t0 rc=0
	shift
	t0=$(date +%s)
	echo "== stage $name"
	"$@" >"$BUILD/stage-$name.log" 2>&1 || rc=$?
	grep '^RESULT ' "$BUILD/stage-$name.log" | tee -a "$log" | sed 's/^RESULT /   /'
	if [ $rc != 0 ] && ! grep -q '^RESULT fail ' "$BUILD/stage-$name.log"; then
		echo "RESULT fail stage $name: exit status $rc (see build/stage-$name.log)" | tee -a "$log"
		tail -n 20 "$BUILD/stage-$name.log"
	elif [ $rc = 0 ] && ! grep -q '^RESULT ' "$BUILD/stage-$name.log"; then
		case "${name##*-}" in
		setup | base | apply) ;;
		*)
			echo "RESULT fail stage $name: no result reported (see build/stage-$name.log)" | tee -a "$log"
			rc=1 ;;
		esac
	fi
	echo "TIME $name $(($(date +%s) - t0))s" | tee -a "$log"
	return $rc
}

# skip_stage NAME WHY: a stage not run on this tree, counted as a skip.
skip_stage() {
	echo "== stage $1"
	echo "RESULT skip stage $1: $2" | tee -a "$log" | sed 's/^RESULT /   /'
}

# make check on the Debian bases compares its skips with the list of
# those expected (checks/expected-skips): a new one is a failure.
expected=
[ -n "$suffix${KSRC:-}" ] || expected=$ROOT/checks/expected-skips
summary() { "$ROOT/checks/summary.sh" "$log" "$expected" | tee "$BUILD/summary$suffix.txt"; }

# The stages of one tree, in order, each one script; BASE (and KSRC) are
# already in the environment.  A stage gets what it needs from the
# scripts that build it (scripts/image.sh for the Images, qemu/build.sh,
# the guest builds), never from an earlier stage's leftovers; only base
# and apply gate the rest, since nothing else can run without a tree.
# Each stage NAME is scripts/NAME.sh (base, apply) or checks/NAME.sh.
STAGES="base apply debian export series harness fuzz mutate boot kunit qemu-spe padding upstream"
if [ -n "$upstream_all$el2" ]; then
	STAGES="base apply upstream"
elif [ -n "$stable" ]; then
	STAGES="base apply debian export series padding"
fi
# The stages that run our QEMU come after the others of every tree: QEMU
# builds in the background meanwhile (below).
QEMU_STAGES=" boot kunit qemu-spe padding upstream "
early='' late=''
for s in $STAGES; do
	if [[ "$QEMU_STAGES" = *" $s "* ]]; then late+=" $s"; else early+=" $s"; fi
done

# check_tree PREFIX STAGE...: those stages of the tree; non-zero if base
# or apply failed (nothing else can run without the tree).
check_tree() {
	local p=$1 s f a
	shift
	for s in "$@"; do
		a=()
		case "$s" in
		debian)
			if [ -n "${KSRC:-}" ]; then
				skip_stage "$p$s" "a tree of the user's own (KSRC) is not a Debian package"
				continue
			fi ;;
		qemu-spe | mutate | kunit)
			# CI's time: these three run on the first base; make check
			# BASE=<name> runs them on that base.
			if [ -z "${KSRC:-}${CHECK_BASES:-}" ] && [ "$BASE" != "${DEBIAN_BASES%% *}" ]; then
				skip_stage "$p$s" "make check runs it on ${DEBIAN_BASES%% *} only (CI's time); make check BASE=$BASE runs it here"
				continue
			fi ;;
		upstream)
			if [ -n "$upstream_all" ]; then
				a=(--all)
			elif [ -n "$el2" ]; then
				a=(--el2)
			elif [ -z "${KSRC:-}" ] && [ "$BASE" != "${DEBIAN_BASES%% *}" ]; then
				skip_stage "$p$s" "make check runs the tree's own tests on ${DEBIAN_BASES%% *} only; make check-upstream runs them on every base"
				continue
			fi ;;
		esac
		# the stage's script: checks/<stage>.sh, but for these four
		case "$s" in
		base | apply) f=$ROOT/scripts/$s.sh ;;
		export) f=$ROOT/checks/exported.sh ;;
		boot) f=$ROOT/checks/boot-tests.sh ;;
		*) f=$ROOT/checks/$s.sh ;;
		esac
		stage "$p$s" "$f" "${a[@]}" && continue
		case "$s" in base | apply) return 1 ;; esac
	done
	return 0
}

# trees STAGE...: those stages on every tree checked, but on the trees
# whose base or apply failed (no_tree).
no_tree=''
bases=${CHECK_BASES:-$DEBIAN_BASES}
[ -z "$stable" ] || bases=${CHECK_BASES:-$STABLE_BASES}
trees() {
	local b
	if [ -n "${KSRC:-}" ]; then
		[ -n "$no_tree" ] || check_tree "" "$@" || no_tree=KSRC
		return
	fi
	for b in $bases; do
		[[ " $no_tree " != *" $b "* ]] || continue
		# shellcheck disable=SC2030,SC2031 # each base in a subshell of its own
		(export BASE=$b; check_tree "$b-" "$@") || no_tree+=" $b"
	done
}

# QEMU builds while the stages that need none run, in the background at
# the lowest priority: on 2 CPUs it slows them by most of what it saves
# (cold, with QEMU's debug information, make check took 2927 s, against
# 3210 s with QEMU built alone first).  The stages that need it run
# qemu/build.sh themselves: that waits for this one (its lock) and then
# has nothing left to do, or fails as a stage of its own would.
qemu_pid=''
# shellcheck disable=SC2317 # run by the EXIT trap
stop_qemu() { [ -z "$qemu_pid" ] || kill -TERM -- "-$qemu_pid" 2>/dev/null; }
trap stop_qemu EXIT
trap 'exit 130' INT TERM

stage setup "$ROOT/scripts/setup.sh" || { summary; exit 1; }
# A session of its own, so that stop_qemu reaches ninja and the
# compilers.  Where the kernel schedules each session as a group
# (autogroup), nice works only inside the group: the group's own nice
# (/proc/self/autogroup) is what lowers it against the stages.
# shellcheck disable=SC2016 # expanded by that bash
setsid bash -c 'echo 19 2>/dev/null >/proc/self/autogroup; exec nice -n 19 "$0"' \
	"$ROOT/qemu/build.sh" >"$BUILD/qemu-build.log" 2>&1 &
qemu_pid=$!
# Once: the parser every boot's results are counted with, the commands
# that could lose a user's work (on throwaway trees), make outgoing (test
# identities, nothing sent), the emulated SPE's own test (no kernel) and
# the linters on the project's own code.
if [ -z "$upstream_all$el2$stable" ]; then
	stage ktap-parser "$ROOT/checks/tests/ktap/run.sh"
	stage summary "$ROOT/checks/tests/summary/run.sh"
	stage safety "$ROOT/checks/tests/safety/run.sh"
	stage outgoing "$ROOT/checks/tests/outgoing/run.sh"
	# its kernel checkpatch.pl is that of the first base checked
	# shellcheck disable=SC2030,SC2031 # BASE for this stage only
	[ -n "${KSRC:-}" ] || (export BASE=${bases%% *}; stage lint "$ROOT/checks/lint.sh")
	[ -z "${KSRC:-}" ] || stage lint "$ROOT/checks/lint.sh"
fi
# shellcheck disable=SC2086 # lists of stage names
trees $early
if [ -n "$upstream_all$el2$stable${KSRC:-}" ]; then
	:
elif [[ " $bases " = *" 7.3 "* ]]; then
	stage v6.16 "$ROOT/checks/v6.16.sh"
else
	skip_stage v6.16 "its stand-in is made of the 7.3 tree, and 7.3 is not among the bases checked (${CHECK_BASES:-})"
fi
[ -n "$upstream_all$el2$stable" ] || stage qemu-tcg "$ROOT/checks/qemu-tcg.sh"
# shellcheck disable=SC2086
trees $late

echo "TIME total $(($(date +%s) - T0))s" >>"$log"
summary
exit "${PIPESTATUS[0]}"
