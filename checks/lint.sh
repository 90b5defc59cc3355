#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The lint stage: the project's own code through the checkers its kind
# of code is reviewed with.
#  - checks/documented.py: every make target and file the documents
#    name, and every "$ROOT/..." a script runs, exists;
#  - shellcheck on every shell script (settings: .shellcheckrc; each
#    finding not fixed is disabled where it occurs, with the reason);
#  - pyflakes on every Python file;
#  - QEMU's scripts/checkpatch.pl on qemu/patches (from the QEMU tree
#    qemu/build.sh --source keeps);
#  - the kernel's scripts/checkpatch.pl --strict on the C of harness/ and
#    guest/ (from the tree of BASE, which scripts/base.sh makes), less
#    the checks below that do not fit userspace test code.
# Each checker first gets an input it must reject (a control): a checker
# that is missing, or that passes it, is a failure, never a clean run.
set -uo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

cd "$ROOT" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# lint NAME CONTROL COMMAND...: the command on the control must fail,
# then on the project's files it must pass.  COMMAND gets the files last.
lint() {
	local name=$1 control=$2 n
	shift 2
	if "$@" "$control" >"$tmp/control.out" 2>&1; then
		result fail "lint: $name passes a broken input ($(basename "$control")): not checking"
		return
	fi
	n=${#files[@]}
	if [ "$n" = 0 ]; then
		result fail "lint: $name: no files to check"
	elif "$@" "${files[@]}" >"$tmp/out" 2>&1; then
		result pass "lint: $name on $n files"
	else
		result fail "lint: $name"
		sed 's/^/    /' "$tmp/out" | head -n 40
	fi
}

# Shell: *.sh and the scripts whose first line names a shell.
mapfile -t files < <(git ls-files | while read -r f; do
	case "$f" in
	*.sh) echo "$f" ;;
	*) [ -f "$f" ] && head -c 64 "$f" | head -n1 | grep -q '^#!/bin/\(ba\)\?sh' && echo "$f" ;;
	esac
done)
# shellcheck disable=SC2016 # the control script's own $1 and $2
printf '#!/bin/bash\ncd "$1"\nrm -rf "$2"/*\n' >"$tmp/bad.sh"
command -v shellcheck >/dev/null || result fail "lint: shellcheck is not installed"
lint shellcheck "$tmp/bad.sh" shellcheck -x -f gcc

mapfile -t files < <(git ls-files '*.py')
printf 'import os\nprint(undefined_name)\n' >"$tmp/bad.py"
command -v pyflakes3 >/dev/null || result fail "lint: pyflakes3 is not installed"
lint pyflakes "$tmp/bad.py" pyflakes3

# Every make target and project path the documents name, and every
# "$ROOT/..." a script runs, exists (checks/documented.py).  The control
# is a tiny project whose README names a missing target and whose script
# runs a moved file, as make soak once did, and whose documented make run
# runs a script that is not executable (make -n finds it).
mkdir -p "$tmp/doc/scripts"
(
	cd "$tmp/doc" || exit 1
	printf 'all:\n\ttrue\nrun:\n\tscripts/y.sh\n' >Makefile
	# shellcheck disable=SC2016 # Markdown's backquotes, the control's $ROOT
	printf 'Run `make nosuch`, then `make run`.\n' >README.md
	printf '#!/bin/bash\ntrue\n' >scripts/y.sh
	# shellcheck disable=SC2016
	printf '#!/bin/bash\n"$ROOT/%s"\n' guest/rootfs.sh >scripts/x.sh
	git init -q . && git add .
) >/dev/null 2>&1
"$ROOT/checks/documented.py" "$tmp/doc" >"$tmp/doc.out" 2>&1
if [ $? != 1 ] || ! grep -q 'make nosuch' "$tmp/doc.out" || ! grep -q 'guest/rootfs.sh' "$tmp/doc.out" ||
   ! grep -q 'scripts/y.sh, which is not executable' "$tmp/doc.out"; then
	result fail "lint: checks/documented.py misses a missing target, a moved script or a script make cannot run in its control"
	sed 's/^/    /' "$tmp/doc.out"
elif "$ROOT/checks/documented.py" >"$tmp/doc.out" 2>&1; then
	result pass "lint: $(tail -n 1 "$tmp/doc.out")"
else
	result fail "lint: documented commands and paths"
	sed 's/^/    /' "$tmp/doc.out" | head -n 40
fi

# QEMU's checkpatch.pl; the control is the first patch with a line of
# trailing whitespace added.
"$ROOT/qemu/build.sh" --source >"$tmp/qemu-build.log" 2>&1 ||
	result fail "lint: qemu/build.sh --source failed"
q=$QEMU_DIR-git/scripts/checkpatch.pl
mapfile -t files < <(series_patches "$ROOT/qemu/patches")
if [ ! -x "$q" ]; then
	result fail "lint: no $q (qemu/build.sh makes the QEMU tree)"
else
	awk '/^@@/ { h = 1 } h && /^\+/ && !done { print $0 "  "; done = 1; next } { print }' \
		"${files[0]}" >"$tmp/bad.patch"
	qemu_checkpatch() { (cd "$QEMU_DIR-git" && scripts/checkpatch.pl -q "$@"); }
	lint "QEMU checkpatch.pl" "$tmp/bad.patch" qemu_checkpatch
fi

# The kernel's checkpatch.pl on our C.  Not checked, and why:
#  PREFER_KERNEL_TYPES  userspace C: <stdint.h> types, as in tools/;
#  LONG_LINE_STRING     messages kept whole, so that they can be grepped;
#  MACRO_ARG_UNUSED, MACRO_ARG_REUSE, MACRO_WITH_FLOW_CONTROL,
#  COMPLEX_MACRO        the test macros (TEST, ASSERT_*, SKIP) return
#                       from the test, as kselftest_harness.h's do;
#  CAMELCASE            the kernel's and the Arm ARM's names (PMSFCR_EL1_Bm);
#  NEW_TYPEDEFS, EXPORT_SYMBOL, IS_ENABLED_CONFIG,
#  PREFER_DEFINED_ATTRIBUTE_MACRO  the shims define the kernel's typedefs
#                       and macros (u64, EXPORT_SYMBOL, IS_ENABLED,
#                       __printf...) under their kernel names, with the
#                       compiler's attributes, for the driver to use;
#  VOLATILE             the guest workloads' loads and stores must not be
#                       optimised away: SPE samples them;
#  AVOID_EXTERNS        perf-spe-record.c reads the linker's
#                       __executable_start and etext;
#  EMBEDDED_FUNCTION_NAME  words of messages that are also function names
#                       ("decode", "usage");
#  AVOID_BUG, SYMBOLIC_PERMS  the shims' BUG_ON() and S_IRUGO, which the
#                       driver uses under those names.
kernel_ign=PREFER_KERNEL_TYPES,LONG_LINE_STRING,MACRO_ARG_UNUSED,MACRO_ARG_REUSE
kernel_ign=$kernel_ign,MACRO_WITH_FLOW_CONTROL,COMPLEX_MACRO,CAMELCASE,NEW_TYPEDEFS
kernel_ign=$kernel_ign,EXPORT_SYMBOL,IS_ENABLED_CONFIG,PREFER_DEFINED_ATTRIBUTE_MACRO
kernel_ign=$kernel_ign,VOLATILE,AVOID_EXTERNS,EMBEDDED_FUNCTION_NAME,AVOID_BUG,SYMBOLIC_PERMS
t=$(ktree)
"$ROOT/scripts/base.sh" >"$tmp/base.log" 2>&1 || result fail "lint: scripts/base.sh failed: no tree $t for checkpatch.pl"
mapfile -t files < <(git ls-files 'harness/*.c' 'harness/*.h' 'guest/*.c' | sed "s|^|$ROOT/|")
if [ ! -x "$t/scripts/checkpatch.pl" ]; then
	result fail "lint: no $t/scripts/checkpatch.pl"
else
	printf '// SPDX-License-Identifier: GPL-2.0
int f(int a){
	return a;
}
' >"$tmp/bad.c"
	kernel_checkpatch() {
		local f rc=0
		for f in "$@"; do
			# --no-tree: these files are not in the tree; -q prints
			# nothing for a clean file
			(cd "$t" && scripts/checkpatch.pl --no-tree --strict -f -q --terse \
				--show-types --ignore "$kernel_ign" "$f") || rc=1
		done
		rm -f "$t"/.checkpatch-camelcase.git.*
		return $rc
	}
	lint "the kernel's checkpatch.pl --strict" "$tmp/bad.c" kernel_checkpatch
fi

# a failed check fails the script too, not only its RESULT line
[ -z "${RESULTS_FAILED:-}" ]
