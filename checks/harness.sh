#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The userspace model harness: the real driver of branch work (all
# modes) and of the base (caught under den0154), see harness/README.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
harness_env
exec "$ROOT/harness/run.sh"
