#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series' KUnit suite the way a maintainer runs it, with the kernel's
# own tool, on branch work of the tree:
#   tools/testing/kunit/kunit.py run --arch=arm64 --kunitconfig=drivers/perf
# In two steps, so that make check builds one 7.3 kernel, not two:
#  1. kunit.py config with that .kunitconfig into an empty directory:
#     the .kunitconfig alone must give a configuration holding every
#     option it names (kunit.py's own check, "unsatisfied dependencies");
#  2. kunit.py run on a copy of the boot Image's object directory
#     (scripts/image.sh work, config/qemu.config, which holds every option
#     kunit.py's arm64 configuration asks for).  kunit.py keeps a build
#     directory whose .config has all its options and records what it
#     asked for in <build_dir>/last_used_kunitconfig, taken here from step 1; it
#     then runs make (nothing to rebuild but Image.gz) and boots the
#     kernel on the machine's qemu-system-aarch64 (Debian's).
# So the suite runs in the boot configuration (KVM, CoreSight, the rest
# of config/qemu.config beside it), not in kunit.py's minimal one: a
# .kunitconfig that configures but does not build alone would go unseen.
# kunit.py parses the KTAP and gives the verdict; its JSON is printed as
# one RESULT line per test case.  The suite must have run every case its
# source declares (KUNIT_CASE*): a run of none, or of fewer, fails.  The
# control: the same JSON without the suite must fail that check.
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
need_image work >/dev/null

# kunit SUBCOMMAND BUILD_DIR LOG: kunit.py as a maintainer runs it
kunit() {
	(cd "$t" && python3 tools/testing/kunit/kunit.py "$1" --arch=arm64 \
		--cross_compile=aarch64-linux-gnu- --kunitconfig=drivers/perf \
		--build_dir="$2" --make_options "CC=ccache aarch64-linux-gnu-gcc" \
		"${@:4}") >"$3" 2>&1
}
rm -rf "$out/alone" "$out/build"
if kunit config "$out/alone" "$out/config.log" && [ -f "$out/alone/last_used_kunitconfig" ]; then
	result pass "kunit-py/$NAME: drivers/perf/.kunitconfig alone configures every option it names"
else
	tail -n 5 "$out/config.log"
	result fail "kunit-py/$NAME: kunit.py config with drivers/perf/.kunitconfig alone (see $out/config.log)"
	exit 1
fi
cp -a "$(kernel_objdir "$t")" "$out/build"
cp "$out/alone/last_used_kunitconfig" "$out/build/last_used_kunitconfig"
rc=0
kunit run "$out/build" "$out/run.log" --jobs="$JOBS" --timeout=900 \
	--json="$out/results.json" || rc=$?
tail -n 3 "$out/run.log"
# A configuration kunit.py regenerates is a second full kernel build,
# which make check's time is not planned for.
if grep -q 'Regenerating .config' "$out/run.log"; then
	result fail "kunit-py/$NAME: kunit.py regenerated the boot configuration: config/qemu.config lacks an option of drivers/perf/.kunitconfig or of kunit.py's arm64 configuration"
	rc=1
fi

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
