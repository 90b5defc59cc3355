#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Count the RESULT lines of a test log and print the closing line.
#   checks/summary.sh LOG [EXPECTED-SKIPS]
# With EXPECTED-SKIPS (checks/expected-skips for make check), every skip
# of the log is matched against that list, one line of it per skip: a
# skip left over is new and counted as a failure, so that a test that
# stops running is seen.  Listed skips the run did not report are named
# too (a subset run, or a skip that went away: update the list).
# Exit status: 0 when nothing failed.
set -euo pipefail
log=$1 expected=${2:-}
pass=$(grep -c '^RESULT pass ' "$log" || true)
fail=$(grep -c '^RESULT fail ' "$log" || true)
skip=$(grep -c '^RESULT skip ' "$log" || true)

# name LINE: a result's name, the text before its reason (" (" or ": ")
skip_names() {
	sed -n 's/^RESULT skip //p' "$log" | awk '{
		s = $0; n = length(s) + 1
		i = index(s, " ("); if (i && i < n) n = i
		i = index(s, ": "); if (i && i < n) n = i
		print substr(s, 1, n - 1) }'
}

new=()
if [ -n "$expected" ]; then
	[ -r "$expected" ] || { echo "summary: no $expected"; exit 1; }
	mapfile -t want < <(grep -v '^\(#\|$\)' "$expected")
	[ ${#want[@]} -gt 0 ] || { echo "summary: $expected lists nothing"; exit 1; }
	while IFS= read -r s; do
		found=
		for i in "${!want[@]}"; do
			# shellcheck disable=SC2053 # the list's lines may be patterns
			if [[ "$s" == ${want[i]} ]]; then
				unset 'want[i]'
				found=1
				break
			fi
		done
		[ -n "$found" ] || new+=("$s")
	done < <(skip_names)
	fail=$((fail + ${#new[@]}))
fi

if [ "$fail" -gt 0 ]; then
	echo "failed:"
	grep '^RESULT fail ' "$log" | sed 's/^RESULT fail /  /' || true
	for s in "${new[@]}"; do
		echo "  new skip $s: not in $(basename "$expected") (fix it, or list it there with its reason)"
	done
fi
if [ "$skip" -gt 0 ]; then
	echo "skipped:"
	grep '^RESULT skip ' "$log" | sed 's/^RESULT skip /  /'
fi
if [ -n "$expected" ] && [ ${#want[@]} -gt 0 ]; then
	echo "listed in $(basename "$expected") but not skipped in this run:"
	printf '  %s\n' "${want[@]}"
fi
grep '^TIME ' "$log" | sed 's/^TIME /time: /' || true
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ $((pass + skip)) -gt 0 ]
