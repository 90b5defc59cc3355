#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The userspace model harness: the real driver of branch work (all
# modes) and of the base (caught under den0154), see harness/README.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
t=$(ktree)
WORK=$WORK BASE_TAG=$BASE_TAG TREE=$t O=$BUILD/harness-$(basename "$(series_dir "$t")") "$ROOT/harness/run.sh"
