#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bounded fuzzing (~60 s) of the work branch's driver against the SPE +
# hypervisor model, see harness/README "Fuzzing".  RESULT lines come
# from harness/fuzz/run-bounded.sh only.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
t=$(ktree)
WORK=$WORK BASE_TAG=$BASE_TAG TREE=$t O=$BUILD/harness-$(basename "$(series_dir "$t")") "$ROOT/harness/fuzz/run-bounded.sh"
