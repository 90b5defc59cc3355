#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot an arm64 Image in QEMU with an initramfs holding init/init.c and
# the given test programs, and turn what the guest prints into RESULT
# lines: KUnit (parsed by the tree's own tools/testing/kunit/kunit.py)
# and each program's TAP, kept apart by the markers init prints.
#
# boot.sh [options] NAME IMAGE
#   --test FILE        run FILE in the guest (copied to /tests, run in
#                      name order)
#   --file SRC:DEST    also put SRC at DEST in the initramfs
#   --kunit            KUnit results are expected on the console
#   --qemu BIN         QEMU binary (default: qemu-system-aarch64)
#   --cpu CPU          -cpu value (default: max)
#   --append ARGS      extra kernel command line
#   --timeout SECS     host-side limit for the whole boot (default 600)
#   --tag TAG          prefix the programs' result names with TAG:
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tests=() files=() kunit=0 qemu=qemu-system-aarch64 cpu=max append="" timeout=600 tag=""
while [ $# -gt 2 ]; do
	case "$1" in
	--test) tests+=("$2"); shift 2 ;;
	--file) files+=("$2"); shift 2 ;;
	--kunit) kunit=1; shift ;;
	--qemu) qemu=$2; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--tag) tag=$2; shift 2 ;;
	*) die "unknown option $1" ;;
	esac
done
[ $# -eq 2 ] || die "usage: boot.sh [options] NAME IMAGE"
name=$1 image=$2
[ -f "$image" ] || die "no Image at $image"

out=$BUILD/boot/$name
rm -rf "$out"
mkdir -p "$out/root/tests" "$out/root/bin" "$out/tests"

${CROSS_COMPILE}gcc -static -O2 -Wall -o "$out/root/init" "$ROOT/init/init.c"
for f in "${tests[@]}"; do
	install -m 0755 "$f" "$out/root/tests/"
done
for f in "${files[@]}"; do
	mkdir -p "$out/root/$(dirname "${f#*:}")"
	cp -a "${f%%:*}" "$out/root/${f#*:}"
done
(cd "$out/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$out/initramfs.cpio.gz"

rc=0
timeout -k 10 "$timeout" "$qemu" -M virt -cpu "$cpu" -smp 2 -m 1G \
	-nographic -no-reboot -nic none -kernel "$image" -initrd "$out/initramfs.cpio.gz" \
	-append "console=ttyAMA0 kpti=off panic=-1 $append" \
	>"$out/console.log" 2>"$out/qemu.stderr" </dev/null || rc=$?
tr -d '\r' <"$out/console.log" >"$out/console.txt"

if ! grep -q '^==== spe-tests end ====' "$out/console.txt"; then
	why="did not reach the end of the tests (qemu rc=$rc)"
	[ $rc = 124 ] && why="timed out after ${timeout}s"
	grep -q 'Kernel panic' "$out/console.txt" && why="kernel panic"
	result fail "boot/$name: $why (see $out/console.txt)"
fi

# KUnit: everything before the tests' first marker.
if [ $kunit = 1 ]; then
	sed '/^==== spe-tests begin ====/,$d' "$out/console.txt" >"$out/kunit.log"
	t=$(ktree)
	python3 "$t/tools/testing/kunit/kunit.py" parse --json="$out/kunit.json" \
		"$out/kunit.log" >"$out/kunit.txt" 2>&1 || true
	python3 - "$out/kunit.json" "$name" <<'PY'
import json, sys
try:
    data = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"RESULT fail kunit/{sys.argv[2]}: no KUnit results ({e})")
    sys.exit(0)
n = 0
def walk(group, prefix):
    global n
    for sub in group.get("sub_groups", []):
        walk(sub, prefix + [sub["name"]])
    for case in group.get("test_cases", []):
        n += 1
        status = case.get("status", "FAIL")
        word = {"PASS": "pass", "SKIP": "skip"}.get(status, "fail")
        print(f"RESULT {word} kunit/" + ".".join(prefix + [case["name"]]))
walk(data, [])
if n == 0:
    print(f"RESULT fail kunit/{sys.argv[2]}: no KUnit test cases ran")
PY
fi

# Each program's TAP, between its markers.
python3 - "$out/console.txt" "$out/tests" "$tag" <<'PY'
import re, sys
tag = sys.argv[3] + ":" if sys.argv[3] else ""
lines = open(sys.argv[1], errors="replace").read().splitlines()
cur, buf = None, []
tap = re.compile(r"^(not ok|ok) \d+ (.*?)(?:\s+#\s*(SKIP|skip|TODO)\b(.*))?$")
for line in lines:
    m = re.match(r"^==== test (\S+) ====$", line)
    if m:
        cur, buf = m.group(1), []
        continue
    m = re.match(r"^==== end (\S+) rc=(\S+?)(?: secs=\d+)? ====$", line)
    if m and cur == m.group(1):
        rc = m.group(2)
        open(f"{sys.argv[2]}/{cur}.log", "w").write("\n".join(buf) + "\n")
        results = []
        for l in buf:
            t = tap.match(l)
            if not t:
                continue
            word = "pass" if t.group(1) == "ok" else "fail"
            if t.group(3) and t.group(3).lower() == "skip":
                word = "skip"
            results.append((word, t.group(2).strip() + (f" ({t.group(4).strip()})" if word == "skip" and t.group(4) else "")))
        for word, what in results:
            print(f"RESULT {word} {tag}{cur}/{what}")
        if rc not in ("0", "4") and not any(w == "fail" for w, _ in results):
            print(f"RESULT fail {tag}{cur}: exit status {rc}")
        elif not results:
            print(f"RESULT {'pass' if rc == '0' else 'skip'} {tag}{cur}: exit status {rc}, no TAP")
        cur = None
        continue
    if cur is not None:
        buf.append(line)
if cur is not None:
    print(f"RESULT fail {tag}{cur}: did not finish")
PY
