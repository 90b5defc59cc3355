#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run a goal of harness/Makefile (bench, fuzz-long, mutate...) on the
# chosen tree: the harness gets the tree, its two revisions and its
# output folder from here (lib.sh), as make check gives them.
#   scripts/harness.sh GOAL [VAR=value...]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 GOAL [VAR=value...]"
[ -d "$(ktree)" ] || die "no tree $(ktree): run make first"
harness_env
exec make -s -C "$ROOT/harness" "$@"
