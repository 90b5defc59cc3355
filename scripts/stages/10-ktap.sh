#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The KTAP parser that counts every guest result (scripts/ktap.py) against
# crafted logs (scripts/tests/ktap/): KUnit's nested suites, SKIP
# directives, a truncated log, a plan mismatch... Cheap; it runs before
# the stages whose counts it makes.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
"$ROOT/scripts/tests/ktap/run.sh"
