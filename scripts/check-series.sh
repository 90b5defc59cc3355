#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Per-patch checks of a series folder, on top of the base, in order:
#   git am; W=1 and sparse (C=2) on arm_spe_pmu.o and every kernel .c
#   file the patch touches, warnings compared with the same objects at
#   the base; scripts/checkpatch.pl --strict --codespell; and, after the
#   last patch, get_abi.pl on new ABI files and a full Image build.
# Runs in the kernel tree itself (detached HEAD), then returns to the
# branch it was on.  Prints a table and RESULT lines.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t=$(ktree)
d=$(series_dir "$t")
name=$(basename "$d")
o=$(kout "$t")
log=$BUILD/check-$name
mkdir -p "$log"
rm -f "$log"/*

mapfile -t patches < <(series_patches "$d" | grep -v '/0000-' || true)
if [ ${#patches[@]} -eq 0 ]; then
	note "series/$name has no patches"
	result skip "series-$name: no patches"
	exit 0
fi

[ -z "$(git -C "$t" status --porcelain --untracked-files=no)" ] ||
	die "$t has uncommitted changes"
orig=$(git -C "$t" symbolic-ref -q --short HEAD || git -C "$t" rev-parse HEAD)
trap 'git -C "$t" am --abort >/dev/null 2>&1 || true; git -C "$t" checkout -q "$orig"' EXIT
git -C "$t" checkout -q --detach "$BASE_TAG"

# objs_for <patch>: objects to build for a patch: the driver always, and
# every kernel .c file the patch touches that its Makefile builds (a .c
# file included by another, like the KUnit test, is built with that one).
objs_for() {
	local o
	echo drivers/perf/arm_spe_pmu.o
	for o in $(sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "$1" | grep -v '^tools/'); do
		grep -qs "\<$(basename "$o")\>" "$t/$(dirname "$o")/Makefile" && echo "$o"
	done | sort -u
}

# warnings <object>: build it with W=1 and sparse, print the count of
# warning lines for that object's source.
warnings() {
	local obj=$1 src=${1%.o}.c f
	f=$log/build.$(git -C "$t" rev-parse --short HEAD).$(echo "$1" | tr / _)
	[ -f "$t/$src" ] || { echo 0; return; }
	# Always compile: git am can leave a source with the same timestamp as
	# its object, which make then takes as up to date.
	rm -f "$o/$obj"
	if ! kmake "$t" W=1 C=2 ${SPARSE_CF:+CF="$SPARSE_CF"} "$obj" >"$f" 2>&1; then
		echo FAIL
		return
	fi
	# The kernel turns sparse off, with only a warning, when it is too
	# old for the tree: a build that sparse did not check is a failure.
	if ! grep -q "^  CHECK .*${src}\$" "$f"; then
		echo FAIL
		return
	fi
	# Count what is reported in the object's source and in the files the
	# series has changed so far; the rest (the vdso that a build may
	# regenerate on the way, say) is the tree's, not the series'.
	local mine
	mine=$( (echo "$src"; git -C "$t" diff --name-only "$BASE_TAG" HEAD) | sort -u)
	grep ': \(warning\|error\):' "$f" | while IFS=: read -r file line rest; do
		grep -qxF "${file#"$t"/}" <<<"$mine" || continue
		# With the stand-in below, sparse 0.6.4 reports "bad constant
		# expression" on every MODULE_*() line of a 7.x file (any
		# module, not only this driver): not counted.
		case "$rest" in
		*"error: bad constant expression"*)
			[ -n "$SPARSE_CF" ] && sed -n "${line}p" "$file" 2>/dev/null | grep -q '^MODULE_' &&
				continue ;;
		esac
		echo "$file:$line:$rest"
	done | wc -l
}

# Debian bookworm's sparse (0.6.4) predates __typeof_unqual__, which
# newer trees use when the checker runs (scripts/checker-valid.sh); for
# those, sparse reads it as __typeof__ (qualifiers kept, so sparse may
# warn more, never less).
SPARSE_CF=
if [ -f "$t/scripts/checker-valid.sh" ] &&
   [ "$(sh "$t/scripts/checker-valid.sh" sparse 2>/dev/null)" != 1 ]; then
	SPARSE_CF=-D__typeof_unqual__=__typeof__
	note "sparse $(sparse --version 2>/dev/null) lacks __typeof_unqual__: checking with CF=$SPARSE_CF"
fi

"$ROOT/scripts/kconfig.sh"
note "base: building Image"
kmake "$t" Image >"$log/base-image.log" 2>&1 || die "base Image does not build: $log/base-image.log"
mkdir -p "$BUILD/images"
cp "$o/arch/arm64/boot/Image" "$BUILD/images/$name-base-Image"

declare -A base_warn
all_objs=$(for p in "${patches[@]}"; do objs_for "$p"; done | sort -u)
for obj in $all_objs; do
	base_warn[$obj]=$(warnings "$obj")
	[ "${base_warn[$obj]}" = FAIL ] && base_warn[$obj]=0
done

fail=0
printf '%-70s %-10s %-8s %-6s\n' patch checkpatch warn-d builds >"$log/table"
for p in "${patches[@]}"; do
	pn=$(basename "$p")
	if ! git -C "$t" -c user.name=check -c user.email=check@localhost am -q "$p" >"$log/am.$pn" 2>&1; then
		printf '%-70s %-10s %-8s %-6s\n' "$pn" - - "no(am)" >>"$log/table"
		result fail "$name/$pn: git am"
		fail=1
		break
	fi
	# A patch may add Kconfig options the fragment asks for.
	"$ROOT/scripts/kconfig.sh" >"$log/kconfig.$pn" 2>&1 || true

	checkpatch "$t" "$p" >"$log/checkpatch.$pn"
	cp_n=$(grep -c '^\(ERROR\|WARNING\|CHECK\|no maintainer\)' "$log/checkpatch.$pn" || true)

	builds=yes
	delta=0
	for obj in $(objs_for "$p"); do
		w=$(warnings "$obj")
		if [ "$w" = FAIL ]; then
			builds=no
			continue
		fi
		extra=$((w - ${base_warn[$obj]:-0}))
		[ $extra -gt 0 ] && delta=$((delta + extra))
	done
	printf '%-70s %-10s %-8s %-6s\n' "$pn" "$cp_n" "+$delta" "$builds" >>"$log/table"
	if [ "$cp_n" = 0 ] && [ "$delta" = 0 ] && [ "$builds" = yes ]; then
		result pass "$name/$pn: checkpatch, W=1, sparse, build"
	else
		result fail "$name/$pn: checkpatch $cp_n, new warnings $delta, builds $builds (see $log)"
		fail=1
	fi
done

# New ABI files must validate.
for f in $(git -C "$t" diff --name-only --diff-filter=A "$BASE_TAG" HEAD -- Documentation/ABI); do
	if (cd "$t" && scripts/get_abi.pl validate --dir "$(dirname "$f")" 2>&1) |
		grep -i "$(basename "$f")" >"$log/abi" 2>&1; then
		result fail "$name: get_abi.pl validate $f (see $log/abi)"
		fail=1
	else
		result pass "$name: get_abi.pl validate $f"
	fi
done

if kmake "$t" Image >"$log/image.log" 2>&1; then
	cp "$o/arch/arm64/boot/Image" "$BUILD/images/$name-Image"
	result pass "$name: full Image build"
else
	result fail "$name: full Image build (see $log/image.log)"
	fail=1
fi
cat "$log/table"
exit 0
