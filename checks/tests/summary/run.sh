#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The unit test of checks/summary.sh with a list of expected skips: a
# run whose skips are all listed passes; a skip not listed, or reported
# more often than listed, is a new skip and fails the run, named.
#
#   checks/tests/summary/run.sh
#
# Prints "RESULT pass|fail summary/CASE"; exit status 1 when any failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
summary=$here/../../summary.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

printf '# a comment\nmutant/a\nmutant/a\n*flaky:x*\nstage 6.12.y-upstream\n' >"$tmp/expected"

# check CASE WANT-STATUS WANT-LINE LOG-LINES...: summary.sh on a log of
# LOG-LINES must exit with WANT-STATUS and print WANT-LINE.
check() {
	local c=$1 want=$2 line=$3 st=0
	shift 3
	printf '%s\n' "RESULT pass t/one" "$@" >"$tmp/log"
	"$summary" "$tmp/log" "$tmp/expected" >"$tmp/out" 2>&1 || st=$?
	if [ "$st" = "$want" ] && grep -qxF -- "$line" "$tmp/out"; then
		echo "RESULT pass summary/$c"
	else
		echo "RESULT fail summary/$c: exit $st (want $want), no line \"$line\""
		sed 's/^/    /' "$tmp/out"
		rc=1
	fi
}

check all-listed 0 "1 passed, 0 failed, 3 skipped" \
	"RESULT skip mutant/a (equivalent: ...)" \
	"RESULT skip mutant/a (equivalent: ...)" \
	"RESULT skip stage 6.12.y-upstream: make check runs ..."
check pattern 0 "1 passed, 0 failed, 1 skipped" \
	"RESULT skip 7.3-den0154:flaky:x/y (failed once)"
check subset 0 "  *flaky:x*" \
	"RESULT skip mutant/a (equivalent: ...)"
check new-name 1 "  new skip harness/work/bare/new_case: not in expected (fix it, or list it there with its reason)" \
	"RESULT skip harness/work/bare/new_case (driver has no ...)"
check once-more 1 "1 passed, 1 failed, 3 skipped" \
	"RESULT skip mutant/a (equivalent: ...)" \
	"RESULT skip mutant/a (equivalent: ...)" \
	"RESULT skip mutant/a (equivalent: ...)"
check fail-kept 1 "  t/two" "RESULT fail t/two"
exit $rc
