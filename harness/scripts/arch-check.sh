#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The control of arch.h's checks: a revision whose headers get an encoding
# wrong must not build with the model.  For each case, a copy of the
# revision's generated headers with one definition changed is put in
# front of the real ones and model/spe.c compiled against it: the build
# must fail, naming the definition.  The unchanged headers must build.
#
#   arch-check.sh OUT NAME CC CPPFLAGS...
#
# OUT is a prepared build directory (make: $(OUT)), NAME the revision's
# name in RESULT lines.
set -u

OUT=$1
NAME=$2
CC=$3
shift 3
HERE=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

build() {	# build GEN CPPFLAGS...: the model, with GEN's headers first
	g=$1
	shift
	(cd "$HERE" && $CC -fsyntax-only -I"$g" "$@" model/spe.c) >"$tmp/out" 2>&1
}
build "$OUT/gen" "$@" ||
	{ echo "RESULT fail harness/$NAME/arch/control (the model does not build with the real headers)"; exit 1; }

# case_ DEF WRONG CPPFLAGS...: redefine DEF as WRONG after the header that defines it
case_() {
	def=$1 wrong=$2
	shift 2
	f=$(grep -l "^#define[[:space:]]*${def}[[:space:]]" "$OUT"/gen/*.h | tail -n 1)
	if [ -z "$f" ]; then
		echo "RESULT skip harness/$NAME/arch/$def (this revision does not define it)"
		return
	fi
	rm -rf "$tmp/gen"
	cp -r "$OUT/gen" "$tmp/gen"
	printf '#undef %s\n#define %s %s\n' "$def" "$def" "$wrong" >>"$tmp/gen/$(basename "$f")"
	if build "$tmp/gen" "$@"; then
		echo "RESULT fail harness/$NAME/arch/$def (a wrong $def builds with the model)"
		rc=1
	elif grep -q "$def: the revision differs from docs/spe-rules.md" "$tmp/out"; then
		echo "RESULT pass harness/$NAME/arch/$def (a wrong value stops the build)"
	else
		echo "RESULT fail harness/$NAME/arch/$def (the build failed, but not on the check)"
		sed 's/^/    /' "$tmp/out" | head -n 20
		rc=1
	fi
}
case_ PMBSR_EL1_BUF_BSC_SIZE '0x5UL' "$@"
case_ PMBIDR_EL1_MAXBUFFSIZE_MASK 'GENMASK(47, 31)' "$@"
case_ SYS_PMBIDR_EL1 'sys_reg(3, 0, 9, 10, 6)' "$@"
case_ PMBSR_EL1_EC_BUF 'UL(0b000001)' "$@"
exit $rc
