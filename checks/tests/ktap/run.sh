#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The unit test of scripts/ktap.py: each CASE.log is parsed and the
# RESULT lines must be exactly CASE.expect.  console*.log are guest
# consoles (ktap.py --console --kunit --tag T), the others one KTAP/TAP
# document (ktap.py --prefix t).
#
#   checks/tests/ktap/run.sh [KTAP_PY]
#
# Prints "RESULT pass|fail ktap-parser/CASE"; exit status 1 when any
# case failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ktap=${1:-$here/../../../scripts/ktap.py}
rc=0 n=0
for log in "$here"/*.log; do
	c=$(basename "$log" .log)
	case "$c" in
	console*) args=(--console --kunit --tag T) ;;
	*) args=(--prefix t) ;;
	esac
	n=$((n + 1))
	if out=$(python3 "$ktap" "${args[@]}" "$log" 2>&1) &&
		diff_out=$(diff -u "$here/$c.expect" - <<<"$out"); then
		echo "RESULT pass ktap-parser/$c"
	else
		echo "RESULT fail ktap-parser/$c"
		while IFS= read -r l; do echo "    $l"; done <<<"${diff_out:-$out}"
		rc=1
	fi
	diff_out=
done
[ $n -gt 0 ] || { echo "RESULT fail ktap-parser: no cases in $here"; rc=1; }
exit $rc
