#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every test of the project, stage by stage, then one closing line:
#   N passed, N failed, N skipped
# Stages print RESULT lines (collected in build/check.log) and their
# wall time.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

mkdir -p "$BUILD"
log=$BUILD/check.log
: >"$log"
T0=$(date +%s)

# stage NAME COMMAND...: run a stage, keep its output in build/stage-NAME.log
# and its RESULT/TIME lines in the check log. A stage that exits non-zero
# without a failing RESULT is a failure too.
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
	fi
	echo "TIME $name $(($(date +%s) - t0))s" | tee -a "$log"
	return $rc
}

abort() { "$ROOT/scripts/summary.sh" "$log" | tee "$BUILD/summary.txt"; exit 1; }
stage setup "$ROOT/scripts/setup.sh" || abort
stage base "$ROOT/scripts/base.sh" || abort
stage apply "$ROOT/scripts/apply.sh"
stage export "$ROOT/scripts/check-export.sh"
stage series "$ROOT/scripts/check-series.sh"
for s in "$ROOT"/scripts/stages/*.sh; do
	[ -e "$s" ] || continue
	n=$(basename "$s" .sh)
	stage "${n#[0-9][0-9]-}" "$s"
done

echo "TIME total $(($(date +%s) - T0))s" >>"$log"
"$ROOT/scripts/summary.sh" "$log" | tee "$BUILD/summary.txt"
exit "${PIPESTATUS[0]}"
