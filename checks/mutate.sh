#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The mutation check of the driver on branch work
# (harness/scripts/mutate.py): one plausible mistake at a time in the
# functions the series touches, the harness run on each mutant.  A killed
# mutant is a pass, a survivor a failure, an equivalent one (or one whose
# code this tree does not have) a skip that says why.
# Its verdict depends on nothing but the driver and headers of both
# revisions, the harness and the compilers: with those unchanged it is
# not run again (lib.sh: cached).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
harness_env
# shellcheck disable=SC2153 # TREE: set by harness_env
key=$( (for r in "$WORK" "$BASE_TAG"; do
		git -C "$TREE" rev-parse "$r:drivers/perf" "$r:arch/arm64/tools" \
			"$r:arch/arm64/include/asm/sysreg.h"
	done
	(cd "$ROOT" && git ls-files -s harness docs/spe-rules.md)
	(cd "$ROOT" && git diff HEAD -- harness docs/spe-rules.md)
	gcc --version | head -n1
	"${FUZZ_CC:-clang-14}" --version 2>/dev/null | head -n1) | sha1sum | cut -c1-40)
cached "mutate-$(basename "$O")" "$key" python3 "$ROOT/harness/scripts/mutate.py" --results
