#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bounded fuzzing of the work branch's driver against the SPE +
# hypervisor model, see harness/README "Fuzzing".  RESULT lines come
# from harness/fuzz/run-bounded.sh only, which also sets the duration
# (FUZZ_SECONDS; the corpus under build/ grows from run to run;
# scripts/harness.sh fuzz-long for a campaign).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
harness_env
exec "$ROOT/harness/fuzz/run-bounded.sh"
