#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series' KUnit suite the way a maintainer runs it, with the kernel's
# own tool:
#   tools/testing/kunit/kunit.py run --arch=arm64 --kunitconfig=drivers/perf
# on branch work of the tree, cross-compiled through ccache into
# build/kunit-<name>/ and booted by kunit.py on the machine's
# qemu-system-aarch64 (Debian's).  kunit.py parses the KTAP and gives the
# verdict; its JSON is printed as one RESULT line per test case.  The
# suite must have run every case its source declares (KUNIT_CASE*): a run
# of none, or of fewer, fails.  The control: the same JSON without the
# suite must fail that check.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

t=$(work_ktree)
out=$BUILD/kunit-$NAME
src=$t/drivers/perf/arm_spe_pmu_kunit.c
mkdir -p "$out"
if [ ! -f "$t/tools/testing/kunit/kunit.py" ] || [ ! -f "$t/drivers/perf/.kunitconfig" ] ||
   [ ! -f "$src" ]; then
	result fail "kunit/$NAME: no kunit.py, drivers/perf/.kunitconfig or $src in $t"
	exit 1
fi
want=$(grep -c '^[[:space:]]*KUNIT_CASE' "$src" || true)

rc=0
(cd "$t" && python3 tools/testing/kunit/kunit.py run --arch=arm64 \
	--cross_compile=aarch64-linux-gnu- --kunitconfig=drivers/perf \
	--build_dir="$out/build" --jobs="$JOBS" --timeout=900 \
	--make_options "CC=ccache aarch64-linux-gnu-gcc" \
	--json="$out/results.json") >"$out/run.log" 2>&1 || rc=$?
tail -n 3 "$out/run.log"

# verdict JSON SUITE WANT: a RESULT line per test case of SUITE in
# kunit.py's JSON, and a failure when it has fewer than WANT cases.
verdict() {
	python3 - "$@" <<'EOF'
import json
import sys

path, suite, want, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
try:
    with open(path) as f:
        top = json.load(f)
except (OSError, ValueError) as e:
    print(f"RESULT fail kunit-py/{name}: no JSON from kunit.py ({e})")
    sys.exit(1)


def find(g):
    if g.get("name") == suite:
        return g
    for s in g.get("sub_groups", []):
        f = find(s)
        if f:
            return f
    return None


# leaves(G, PATH): every test case under G, a parameterised case being a
# group of its parameters' cases
def leaves(g, path):
    for c in g.get("test_cases", []):
        yield f"{path}.{c.get('name')}", c.get("status", "?")
    for s in g.get("sub_groups", []):
        yield from leaves(s, f"{path}.{s.get('name')}")


top_suite = find(top) or {}
# the cases the suite declares: its plain cases and its parameterised ones
cases = top_suite.get("test_cases", []) + top_suite.get("sub_groups", [])
bad = 0
for case, status in leaves(top_suite, suite):
    word = {"PASS": "pass", "SKIP": "skip"}.get(status, "fail")
    why = "" if word == "pass" else f" ({status})"
    bad += word == "fail"
    print(f"RESULT {word} kunit-py/{name}/{case}{why}")
if len(cases) < want:
    print(f"RESULT fail kunit-py/{name}: {len(cases)} test cases of {suite} in kunit.py's "
          f"results, the source declares {want}")
    bad += 1
sys.exit(1 if bad else 0)
EOF
}

v=0
verdict "$out/results.json" arm_spe_pmu "$want" "$NAME" || v=1
if [ $rc != 0 ] && [ $v = 0 ]; then
	result fail "kunit-py/$NAME: kunit.py exit status $rc with every case passed (see $out/run.log)"
fi
# The control: kunit.py's results without the suite
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
def strip(g):
    g["sub_groups"] = [strip(s) for s in g.get("sub_groups", []) if s.get("name") != "arm_spe_pmu"]
    return g
json.dump(strip(d), open(sys.argv[2], "w"))' "$out/results.json" "$out/control.json" 2>/dev/null ||
	rm -f "$out/control.json"
if [ ! -f "$out/control.json" ]; then
	result fail "kunit-py/$NAME: control: no JSON from kunit.py to take the suite out of"
elif verdict "$out/control.json" arm_spe_pmu "$want" "$NAME-control" >/dev/null; then
	result fail "kunit-py/$NAME: control: results without the suite pass the check"
else
	result pass "kunit-py/$NAME: control: results without the suite are caught"
fi
