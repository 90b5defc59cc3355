#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The lint stage: the project's own code through the checkers its kind
# of code is reviewed with.
#  - shellcheck on every shell script (settings: .shellcheckrc; each
#    finding not fixed is disabled where it occurs, with the reason);
#  - pyflakes on every Python file;
#  - QEMU's scripts/checkpatch.pl on qemu/patches (from the QEMU tree
#    qemu/build.sh keeps).
# Each checker first gets an input it must reject (a control): a checker
# that is missing, or that passes it, is a failure, never a clean run.
# Not yet here: the kernel's checkpatch.pl on the C of harness/ and
# guest/ (a skip line says so).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

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

# QEMU's checkpatch.pl; the control is the first patch with a line of
# trailing whitespace added.
"$ROOT/qemu/build.sh" >"$tmp/qemu-build.log" 2>&1 || result fail "lint: qemu/build.sh failed"
q=$QEMU_DIR-git/scripts/checkpatch.pl
mapfile -t files < <(series_patches "$ROOT/qemu/patches")
if [ ! -x "$q" ]; then
	result fail "lint: no $q (qemu/build.sh makes the QEMU tree)"
else
	awk '/^@@/ { h = 1 } h && /^\+/ && !done { print $0 "  "; done = 1; next } { print }' \
		"${files[0]}" >"$tmp/bad.patch"
	qcp() { (cd "$QEMU_DIR-git" && scripts/checkpatch.pl -q "$@"); }
	lint "QEMU checkpatch.pl" "$tmp/bad.patch" qcp
fi

result skip "lint: the kernel's checkpatch.pl on the C of harness/ and guest/ (not yet clean)"
