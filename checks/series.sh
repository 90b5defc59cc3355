#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Per-patch checks of a series folder, on top of the base, in order:
#   git am; W=1 and sparse (C=2) on arm_spe_pmu.o and on the object of
#   every kernel .c file the patch touches, warnings compared with the
#   same objects at the base; scripts/checkpatch.pl --strict --codespell;
#   and, for the whole series, the tree's ABI validator on new ABI files
#   and the full Image of branch work (scripts/image.sh).
# The patches are applied in a checkout of their own (lib.sh: checkout
# steps) with its own object directory, so the patched and the base
# trees keep their objects.
#
# A patch's result is kept under build/cache/series-<folder>/, keyed by
# the base commit, that patch and every patch before it, the project's
# scripts and the tools' versions: a patch whose key has passed before
# is not built again, and its RESULT line says so ("kept").  Failures are
# never kept.
#
# Prints a table and RESULT lines; exits non-zero if any check failed.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

t=$(ktree)
d=$(series_dir)
name=$(basename "$d")
log=$BUILD/check-$name
cache=$BUILD/cache/series-$name
mkdir -p "$log" "$cache"
rm -rf "${log:?}"/*

mapfile -t patches < <(series_patches "$d" | grep -v '/0000-' || true)
if [ ${#patches[@]} -eq 0 ]; then
	result fail "series-$name: the folder has no patches"
	exit 1
fi
fail=0

# The whole series first: the Image of branch work, whose object
# directory also tells which sources the configuration builds.
if "$ROOT/scripts/image.sh" work >"$log/image.log" 2>&1; then
	result pass "$name: full Image build"
else
	result fail "$name: full Image build (see $log/image.log)"
	exit 1
fi
ow=$(kernel_objdir "$t")

# objs_for <patch>: the objects to build for a patch: the driver always,
# and for every kernel .c file the patch touches, the object the full
# build compiled it into (itself, or the file that #includes it).  A
# source the configuration does not build is printed as "-<file>": the
# patch would go unchecked, which is a failure.
objs_for() {
	local c o cmd
	echo drivers/perf/arm_spe_pmu.o
	while read -r c; do
		o=${c%.c}.o
		if [ -f "$ow/$(dirname "$o")/.$(basename "$o").cmd" ]; then
			echo "$o"
			continue
		fi
		cmd=$(grep -lsF "/$c" "$ow/$(dirname "$c")"/.*.o.cmd | head -n1 || true)
		if [ -n "$cmd" ]; then
			cmd=$(basename "$cmd" .cmd)
			echo "$(dirname "$c")/${cmd#.}"
		else
			echo "-$c"
		fi
	done < <(sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$1" | grep -v '^tools/') | sort -u
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

# Cache keys: k[0] for the base, k[i] for patch i (1-based).
declare -a k
k[0]=$( (git -C "$t" rev-parse "$BASE_TAG"; tool_key checks/series.sh scripts/kconfig.sh; echo "$SPARSE_CF") | sha1sum | cut -c1-40)
for i in "${!patches[@]}"; do
	k[i + 1]=$( (echo "${k[i]}"; cat "${patches[i]}") | sha1sum | cut -c1-40)
done
first=0	# index of the first patch without a kept result
while [ $first -lt ${#patches[@]} ] && [ -f "$cache/${k[first + 1]}" ]; do
	first=$((first + 1))
done

printf '%-70s %-10s %-8s %-6s\n' patch checkpatch warn-d builds >"$log/table"
for ((i = 0; i < first; i++)); do
	sed -n "s/^RESULT pass \(.*\)/RESULT pass \1 $KEPT/p" "$cache/${k[i + 1]}"
	sed -n 's/^TABLE //p' "$cache/${k[i + 1]}" >>"$log/table"
done

if [ $first -lt ${#patches[@]} ]; then
	s=$(checkout steps "$BASE_TAG")
	o=$(kernel_objdir "$s")
	"$ROOT/scripts/kconfig.sh" "$s"

	# warnings <object>: build it with W=1 and sparse, print the count
	# of warning lines for that object's source.
	warnings() {
		local obj=$1 src=${1%.o}.c f mine
		f=$log/build.$(git -C "$s" rev-parse --short HEAD).$(echo "$1" | tr / _)
		[ -f "$s/$src" ] || { echo 0; return; }
		# Always compile: git am can leave a source with the same
		# timestamp as its object, which make then takes as up to date.
		rm -f "$o/$obj"
		if ! kmake "$s" W=1 C=2 ${SPARSE_CF:+CF="$SPARSE_CF"} "$obj" >"$f" 2>&1; then
			echo FAIL
			return
		fi
		# The kernel turns sparse off, with only a warning, when it is
		# too old for the tree: a build sparse did not check fails.
		if ! grep -q "^  CHECK .*${src}\$" "$f"; then
			echo FAIL
			return
		fi
		# Count what is reported in the object's source and in the
		# files the series has changed so far; the rest (the vdso
		# that a build may regenerate on the way, say) is the tree's.
		mine=$( (echo "$src"; git -C "$s" diff --name-only "$BASE_TAG" HEAD) | sort -u)
		grep ': \(warning\|error\):' "$f" | while IFS=: read -r file line rest; do
			grep -qxF "${file#"$s"/}" <<<"$mine" || continue
			# With the stand-in above, sparse 0.6.4 reports "bad
			# constant expression" on every MODULE_*() line of a 7.x
			# file (any module, not only this driver): not counted.
			case "$rest" in
			*"error: bad constant expression"*)
				[ -n "$SPARSE_CF" ] && sed -n "${line}p" "$s/${file#"$s"/}" 2>/dev/null |
					grep -q '^MODULE_' && continue ;;
			esac
			echo "$file:$line:$rest"
		done | wc -l
	}

	declare -A base_warn
	all_objs=$(for p in "${patches[@]}"; do objs_for "$p"; done | grep -v '^-' | sort -u)
	for obj in $all_objs; do
		bk=$cache/base.${k[0]}.$(echo "$obj" | tr / _)
		if [ -f "$bk" ]; then
			base_warn[$obj]=$(cat "$bk")
			continue
		fi
		w=$(warnings "$obj")
		# An object the base does not have yet counts from zero.
		[ "$w" = FAIL ] && w=0
		base_warn[$obj]=$w
		echo "$w" >"$bk"
	done

	am() { git -C "$s" -c user.name=check -c user.email=check@localhost am -q "$1"; }
	for ((i = 0; i < first; i++)); do
		am "${patches[i]}" >/dev/null 2>&1 || die "$(basename "${patches[i]}") no longer applies"
	done
	for ((i = first; i < ${#patches[@]}; i++)); do
		p=${patches[i]}
		pn=$(basename "$p")
		if ! am "$p" >"$log/am.$pn" 2>&1; then
			printf '%-70s %-10s %-8s %-6s\n' "$pn" - - "no(am)" >>"$log/table"
			result fail "$name/$pn: git am (see $log/am.$pn)"
			fail=1
			git -C "$s" am --abort >/dev/null 2>&1 || true
			break
		fi
		# A patch may add Kconfig options the fragment asks for.
		"$ROOT/scripts/kconfig.sh" "$s" >"$log/kconfig.$pn" 2>&1 || true

		checkpatch "$s" "$p" >"$log/checkpatch.$pn"
		cp_n=$(grep -c '^\(ERROR\|WARNING\|CHECK\|no maintainer\)' "$log/checkpatch.$pn" || true)

		builds=yes
		delta=0
		unbuilt=
		for obj in $(objs_for "$p"); do
			case "$obj" in
			-*)
				unbuilt="$unbuilt ${obj#-}"
				continue ;;
			esac
			w=$(warnings "$obj")
			if [ "$w" = FAIL ]; then
				builds=no
				continue
			fi
			extra=$((w - ${base_warn[$obj]:-0}))
			[ $extra -gt 0 ] && delta=$((delta + extra))
		done
		row=$(printf '%-70s %-10s %-8s %-6s' "$pn" "$cp_n" "+$delta" "$builds")
		echo "$row" >>"$log/table"
		if [ -n "$unbuilt" ]; then
			result fail "$name/$pn: not built by config/qemu.config, so not checked:$unbuilt"
			fail=1
		elif [ "$cp_n" = 0 ] && [ "$delta" = 0 ] && [ "$builds" = yes ]; then
			line="$name/$pn: checkpatch, W=1, sparse, build"
			result pass "$line"
			printf 'RESULT pass %s\nTABLE %s\n' "$line" "$row" >"$cache/${k[i + 1]}"
		else
			result fail "$name/$pn: checkpatch $cp_n, new warnings $delta, builds $builds (see $log)"
			fail=1
		fi
	done
fi

# New ABI files must validate (in the patched tree), with the tree's own
# validator: scripts/get_abi.pl (6.x) or tools/docs/get_abi.py (7.x); a
# tree with neither is a failure.  The validator only warns (exit 0), so
# what counts is whether it names the file; a copy with its Description:
# tag broken must be named, or the check could not fail.
abi_validate() {	# abi_validate DIR: the validator's output for DIR
	if [ -f "$t/scripts/get_abi.pl" ]; then
		(cd "$t" && perl scripts/get_abi.pl validate --dir "$1" 2>&1)
	elif [ -f "$t/tools/docs/get_abi.py" ]; then
		(cd "$t" && python3 tools/docs/get_abi.py --dir "$1" validate 2>&1)
	else
		echo "no ABI validator in $t"
		return 1
	fi
}
for f in $(git -C "$t" diff --name-only --diff-filter=A "$BASE_TAG" "$WORK" -- Documentation/ABI); do
	b=$(basename "$f")
	mkdir -p "$log/abi-broken"
	sed 's/^Description:/Descriptio:/' "$t/$f" >"$log/abi-broken/$b"
	if ! abi_validate "$log/abi-broken" >"$log/abi-broken.out" || ! grep -q "$b" "$log/abi-broken.out"; then
		result fail "$name: the ABI validator did not flag a broken copy of $f (see $log/abi-broken.out)"
		fail=1
	elif ! abi_validate "$(dirname "$f")" >"$log/abi.out"; then
		result fail "$name: ABI validator for $f (see $log/abi.out)"
		fail=1
	elif grep -i "$b" "$log/abi.out" >"$log/abi"; then
		result fail "$name: ABI validate $f (see $log/abi)"
		fail=1
	else
		result pass "$name: ABI validate $f (a broken copy is flagged)"
	fi
done

cat "$log/table"
exit $fail
