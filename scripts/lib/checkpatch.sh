# SPDX-License-Identifier: GPL-2.0
# Part of lib.sh: the kernel's checkpatch.pl as the project counts it.
# Sourced by lib.sh, never run.
# shellcheck shell=bash
# shellcheck disable=SC2034 # its variables are for the scripts that source lib.sh

# checkpatch <tree> <patch>: the tree's checkpatch --strict on a patch;
# print the problems that count.
#  - UNKNOWN_COMMIT_ID is not checked: the base is an import without the
#    upstream history, so no Fixes: id can be looked up in it.
#  - FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is answered
#    here: it counts only if get_maintainer.pl finds no maintainer for a
#    file the patch adds.
checkpatch() {
	local t=$1 p=$2 f out dict
	# A missing checkpatch.pl is a problem that counts, never a clean run.
	if [ ! -x "$t/scripts/checkpatch.pl" ]; then
		echo "ERROR:NO_CHECKPATCH: $t has no scripts/checkpatch.pl"
		return 0
	fi
	# Debian keeps codespell's dictionary inside its Python package.
	dict=$(python3 -c 'import codespell_lib, os; print(os.path.join(os.path.dirname(codespell_lib.__file__), "data", "dictionary.txt"))')
	# checkpatch.pl's status says nothing its output does not
	out=$(cd "$t" && { scripts/checkpatch.pl --strict --codespell --codespellfile "$dict" --show-types \
		--ignore UNKNOWN_COMMIT_ID --no-summary -q "$p" 2>&1 || true; })
	if grep -q '^WARNING:FILE_PATH_CHANGES:' <<<"$out"; then
		local orphan=0
		while read -r f; do
			(cd "$t" && scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" 2>/dev/null) |
				grep -q '(maintainer:' || { echo "no maintainer for $f"; orphan=1; }
		done < <(awk '/^diff --git/ { f = $4 } /^new file mode/ { sub(/^b\//, "", f); print f }' "$p")
		if [ $orphan = 0 ]; then
			out=$(sed '/^WARNING:FILE_PATH_CHANGES:/,/^$/d' <<<"$out")
		fi
	fi
	[ -n "$out" ] && echo "$out"
	return 0
}
