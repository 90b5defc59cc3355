# SPDX-License-Identifier: GPL-2.0
# Part of lib.sh: result lines and the cache of checks whose inputs did
# not change. Sourced by lib.sh, never run.
# shellcheck shell=bash
# shellcheck disable=SC2034 # its variables are for the scripts that source lib.sh

# RESULTS_FAILED is set once a failure is reported (in this shell, not
# in a subshell), for a script to end with: [ -z "${RESULTS_FAILED:-}" ]
result() {
	echo "RESULT $1 $2"
	[ "$1" != fail ] || RESULTS_FAILED=1
}

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
