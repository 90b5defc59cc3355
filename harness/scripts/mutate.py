#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mutation check: make one plausible mistake at a time in the functions
the series touches, build the harness on the mutated driver, run every
test, and list the tests that catch it.

  mutate.py [TREE] [REV]     (defaults: ../build/linux and $WORK)
  O=DIR mutate.py ...        build under DIR/mut (default ../build/harness)
  BASE_TAG=rev mutate.py ... the unpatched revision, for mutations of
                             code the series adds (BASE=rev overrides)
WORK (when REV is not given) and BASE_TAG are required, as scripts/lib.sh
sets them; a missing one is an error.
  ONLY=substring mutate.py   run the mutations whose name contains it

Each mutation has alternatives, tried in order; the first whose steps all
match is applied.  A step is a regular expression and its replacement,
optionally restricted to the body of one function, so the catalogue finds
the same mistake in v1 (6.12.y work) and v2 (7.3 v2), and after the
arithmetic is moved into a helper.  A mutation none of whose alternatives
matches is reported as n/a.  A mutation marked equivalent carries the
reason it cannot change behaviour; it is still run, and reported if some
test catches it after all.

Prints one line per mutation and, last,
  mutation score: killed/total (equivalent: names)
where total counts the applicable mutations not marked equivalent."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '..', 'build', 'linux')
REV = sys.argv[2] if len(sys.argv) > 2 else os.environ.get('WORK')
BASE = os.environ.get('BASE', os.environ.get('BASE_TAG'))
if not REV or not BASE:
    sys.exit('mutate.py: WORK (or a REV argument) and BASE_TAG must name the revisions')
ONLY = os.environ.get('ONLY', '')
O = os.path.join(os.environ.get('O', os.path.join(HERE, '..', 'build', 'harness')), 'mut')
DRV = 'drivers/perf/arm_spe_pmu.c'
HDR = 'drivers/perf/arm_spe_pmu.h'
FILES = [DRV, 'arch/arm64/tools/sysreg', 'arch/arm64/tools/gen-sysreg.awk',
         'arch/arm64/include/asm/sysreg.h']

# One optional one-line comment at the given indentation
C1 = r'(?:\t/\*[^\n]*\*/\n)?'
C2 = r'(?:\t\t/\*[^\n]*\*/\n)?'
# One optional comment block, one or more lines, two tabs in
CB2 = r'(?:\t\t/\*.*?\*/\n)?'


def S(pat, rep, fn=None):
    """A step: pattern and replacement, within function fn if given."""
    return (fn, pat, rep)


def M(name, *alts, equivalent=None, series_only=False):
    """A mutation: alternatives, each a list of steps."""
    return {'name': name, 'alts': [a if isinstance(a, list) else [a] for a in alts],
            'equivalent': equivalent, 'series_only': series_only}


HANDLER = 'arm_spe_pmu_irq_handler'
DRAIN = 'arm_spe_pmu_disable_and_drain_local'

MUTATIONS = [
    # --- "Do not pad past the end of the AUX buffer" ---
    # wherever the comparison lives (a pure helper may take it), in any
    # of its four spellings
    M('pad: clamp to a wakeup at the head (head <= wakeup)',
      S(r'\b(\w*head\w*) < (\w*wake\w*)\b', r'\1 <= \2'),
      S(r'\b(\w*wake\w*) > (\w*head\w*)\b', r'\1 >= \2'),
      S(r'\b(\w*wake\w*) <= (\w*head\w*)\b', r'\1 < \2'),
      S(r'\b(\w*head\w*) >= (\w*wake\w*)\b', r'\1 > \2')),

    # --- 1a: "Synchronise PMBPTR_EL1 before enabling the buffer" ---
    M('1a: no isb between PMBPTR and the enabling PMBLIMITR write',
      S(r'(write_sysreg_s\([^;]*SYS_PMBPTR_EL1\);\n)' + C1 + r'\tisb\(\);\n', r'\1',
        'arm_spe_perf_aux_output_begin')),

    # --- 1b: "Disable the buffer before clearing PMBSR_EL1" ---
    M('1b: OK path clears PMBSR with E still set (no disable)',
      S(r'(case SPE_PMU_BUF_FAULT_ACT_OK:\n' + CB2 + r')\t\twrite_sysreg_s\(0, SYS_PMBLIMITR_EL1\);\n'
        + C2 + r'\t\tisb\(\);\n', r'\1', HANDLER),
      S(r'\telse\n\t\tarm_spe_pmu_disable_buffer_local\(\);\n', '', HANDLER)),
    M('1b: OK path disables without the isb before PMBSR',
      S(r'(case SPE_PMU_BUF_FAULT_ACT_OK:\n' + CB2 + r'\t\twrite_sysreg_s\(0, SYS_PMBLIMITR_EL1\);\n)'
        + C2 + r'\t\tisb\(\);\n', r'\1', HANDLER),
      S(r'(\twrite_sysreg_s\(0, SYS_PMBLIMITR_EL1\);\n)' + C1 + r'\tisb\(\);\n', r'\1',
        'arm_spe_pmu_disable_buffer_local')),
    M('1b: kept isb after re-enabling removed',
      S(r'(\t\t\treturn IRQ_HANDLED;\n\t\t\}\n)' + C2 + r'\t\tisb\(\);\n', r'\1', HANDLER)),
    M('1b: PMBSR cleared before the buffer is disabled',
      [S(C1 + r'\twrite_sysreg_s\(0, SYS_PMBSR_EL1\);\n', '', HANDLER),
       S(r'(\tirq_work_run\(\);\n)', r'\1\twrite_sysreg_s(0, SYS_PMBSR_EL1);\n', HANDLER)]),
    M('1b: fatal fault leaves PMSCR_EL1 on (buffer disabled only)',
      S(r'(case SPE_PMU_BUF_FAULT_ACT_FATAL:\n' + CB2 + r')\t\tarm_spe_pmu_disable_and_drain_local\(\);\n',
        r'\1\t\twrite_sysreg_s(0, SYS_PMBLIMITR_EL1);\n\t\tisb();\n', HANDLER),
      S(r'\tif \(act == SPE_PMU_BUF_FAULT_ACT_FATAL\)\n\t\tarm_spe_pmu_disable_and_drain_local\(\);\n\telse\n',
        '\tif (0)\n\t\tarm_spe_pmu_disable_and_drain_local();\n\telse\n', HANDLER)),
    M('1b: handler restarts a session marked TRUNCATED',
      S(r'act == SPE_PMU_BUF_FAULT_ACT_OK &&\n\s*!\(handle->aux_flags & PERF_AUX_FLAG_TRUNCATED\)',
        'act == SPE_PMU_BUF_FAULT_ACT_OK', HANDLER),
      equivalent='TRUNCATED is set in the OK path only by PMBSR_EL1.DL on a '
                 'buffer-full event, and DL is UNCHANGED by one (R66) after the '
                 'driver wrote PMBSR_EL1 = 0 with E clear: unreachable'),
    M('1b: handler ignores a failed aux_output_begin()',
      S(r'\t\t\tarm_spe_pmu_stop\(event, PERF_EF_UPDATE\);\n(?=\t\t\treturn IRQ_HANDLED;)', '',
        HANDLER)),
    M('start() ignores a failed aux_output_begin()',
      S(r'\tif \(arm_spe_perf_aux_output_begin\(handle, event\)\) \{\n\t\tarm_spe_pmu_stop\(event, 0\);\n'
        r'\t\treturn;\n\t\}\n', '\tarm_spe_perf_aux_output_begin(handle, event);\n',
        'arm_spe_pmu_start')),
    M('1b: interrupt with no AUX handle ignored (v1)',
      S(r'\treturn arm_spe_pmu_irq_no_aux\(\);', '\treturn IRQ_NONE;', HANDLER),
      equivalent='no sequence the driver can reach leaves PMBSR_EL1.S set with no '
                 'AUX handle (no_handle_event_unreachable, the no-handle oracle of '
                 'the fuzzer); v2 drops the acknowledgement'),

    # --- the drain: sampling off, isb, PSB CSYNC, DSB, buffer off, isb ---
    M('drain: no isb after PMSCR_EL1 = 0',
      S(r'(write_sysreg_s\(0, SYS_PMSCR_EL1\);\n)' + C1 + r'\tisb\(\);\n', r'\1', DRAIN)),
    M('drain: no PSB CSYNC/DSB before the buffer is disabled',
      S(C1 + r'\tpsb_csync\(\);\n\tdsb\(nsh\);\n', '', DRAIN)),
    M('drain: PMBLIMITR_EL1 cleared before the drain',
      [S(C1 + r'\twrite_sysreg_s\(0, SYS_PMBLIMITR_EL1\);\n', '', DRAIN),
       S(r'(\tpsb_csync\(\);\n)', r'\twrite_sysreg_s(0, SYS_PMBLIMITR_EL1);\n\1', DRAIN)],
      [S(r'\tarm_spe_pmu_disable_buffer_local\(\);\n', '', DRAIN),
       S(r'(\tpsb_csync\(\);\n)', r'\tarm_spe_pmu_disable_buffer_local();\n\1', DRAIN)]),
    M('fault_act: no isb between the drain and reading PMBSR/PMBPTR',
      S(r'(\tdsb\(nsh\);\n\n?)' + C1 + r'\tisb\(\);\n', r'\1', 'arm_spe_pmu_buf_get_fault_act'),
      S(r'(\tdsb\(nsh\);\n\n?)' + C1 + r'\tisb\(\);\n', r'\1', 'arm_spe_pmu_sync_and_read_status')),

    # --- 1c: MaxBuffSize decode ---
    M('1c: decode drops the implicit top bit',
      S(r'\(BIT_ULL\(9\) \| m\) << \(e \+ 11\)', 'm << (e + 11)')),
    M('1c: decode shifts by e + 12',
      S(r'<< \(e \+ 11\)', '<< (e + 12)')),
    M('1c: decode scales M by 1KiB for E == 0',
      S(r'return m \* SZ_4K;', 'return m * SZ_1K;'),
      S(r'return m << 12;', 'return m << 10;')),
    M('1c: decode keeps the reserved bits [15:14] in E',
      S(r'FIELD_GET\(\w*MAXBUFFSIZE_E, field\)', 'field >> 9')),

    # --- 1c: the per-CPU minimum ---
    M('1c: max instead of min',
      S(r'return min\(a, b\);', 'return max(a, b);', 'arm_spe_pmu_min_buff_size')),
    M('1c: 0 (no limit) treated as a limit',
      S(r'\tif \(!a \|\| !b\)\n\t\treturn a \| b;\n\n?', '', 'arm_spe_pmu_min_buff_size')),
    M('1c: last CPU wins instead of the smallest',
      S(r'\treturn min\(a, b\);\n', '\treturn b;\n', 'arm_spe_pmu_min_buff_size')),
    M('1c: the first limit seen is kept',
      S(r'if \(size == cur\)', 'if (cur)', 'arm_spe_pmu_update_max_buff_size')),
    M('1c: MaxBuffSize not read when a CPU comes online',
      S(r'\tarm_spe_pmu_update_max_buff_size\(spe_pmu\);\n(?=\t__arm_spe_pmu_reset_local\(\);)',
        '', '__arm_spe_pmu_setup_one')),

    # --- 1c: setup_aux ---
    # the check as v1 wrote it, or with the discard flag passed in (v2)
    M('1c: setup_aux accepts an AUX area above the limit',
      S(r'!arm_spe_pmu_aux_size_ok\(max_buff_size, \(u64\)nr_pages \* PAGE_SIZE\)', '0',
        'arm_spe_pmu_setup_aux'),
      S(r'!arm_spe_pmu_aux_size_ok\(max_buff_size, \(u64\)nr_pages \* PAGE_SIZE,\s*'
        r'ATTR_CFG_GET_FLD\(&event->attr, discard\)\)', '0', 'arm_spe_pmu_setup_aux'),
      S(r'!arm_spe_pmu_aux_size_ok\(max_buff_size, \(u64\)nr_pages \* PAGE_SIZE,\s*false\)',
        '0', 'arm_spe_pmu_setup_aux')),
    M('1c: setup_aux limit one page short (nr_pages - 1)',
      S(r'\(u64\)nr_pages \* PAGE_SIZE([,)])', r'(u64)(nr_pages - 1) * PAGE_SIZE\1',
        'arm_spe_pmu_setup_aux')),
    M('1c: setup_aux limit one page over (nr_pages + 1)',
      S(r'\(u64\)nr_pages \* PAGE_SIZE([,)])', r'(u64)(nr_pages + 1) * PAGE_SIZE\1',
        'arm_spe_pmu_setup_aux')),
    M('1c: setup_aux refuses an area equal to the limit (< for <=)',
      S(r'size <= max_buff_size', 'size < max_buff_size', 'arm_spe_pmu_aux_size_ok')),
    M('1c: setup_aux applies the limit to a discard-mode event',
      S(r'!ATTR_CFG_GET_FLD\(&event->attr, discard\) &&\n\s*', '', 'arm_spe_pmu_setup_aux'),
      S(r'return discard \|\| ', 'return ', 'arm_spe_pmu_aux_size_ok')),

    # --- 1c: the buffer-size event ---
    M('1c: size event without TRUNCATED',
      S(r'(case PMBSR_EL1_BUF_BSC_SIZE:.*?)\t\tperf_aux_output_flag\(handle, PERF_AUX_FLAG_TRUNCATED\);\n',
        r'\1', 'arm_spe_pmu_buf_get_fault_act')),
    M('1c: size event not fatal (TRUNCATED kept)',
      S(r'(case PMBSR_EL1_BUF_BSC_SIZE:.*?)ret = SPE_PMU_BUF_FAULT_ACT_FATAL;',
        r'\1ret = SPE_PMU_BUF_FAULT_ACT_OK;', 'arm_spe_pmu_buf_get_fault_act'),
      equivalent='with TRUNCATED set the OK path does not restart, and the core\'s '
                 'pending disable, run by irq_work_run() in the handler before the '
                 'switch, stops the event and drains: the same state as FATAL'),
    M('1c: size event reports PMBLIMITR_EL1 unmasked as the programmed size',
      S(r' & PMBLIMITR_EL1_LIMIT;', ';', 'arm_spe_pmu_programmed_size')),
    M('1c: caps value truncated to u32',
      S(r'static u64 arm_spe_pmu_cap_get', 'static u32 arm_spe_pmu_cap_get'),
      series_only=True),
]


def show(rev, path):
    return subprocess.run(['git', '-C', TREE, 'show', f'{rev}:{path}'],
                          check=True, capture_output=True, text=True).stdout


def function_span(src, fn):
    """Start and end of the definition of function fn in src, or None."""
    m = re.search(r'^[^\n;#]*\b' + re.escape(fn) + r'\((?:[^;{)]|\n)*\)\n\{\n', src, re.M)
    if not m:
        return None
    end = src.find('\n}\n', m.end())
    return (m.start(), end + 3) if end >= 0 else None


def apply_step(src, step):
    fn, pat, rep = step
    span = function_span(src, fn) if fn else (0, len(src))
    if not span:
        return None
    body = src[span[0]:span[1]]
    new, n = re.subn(pat, rep, body, count=1, flags=re.S if '.*?' in pat else 0)
    if not n or new == body:
        return None
    return src[:span[0]] + new + src[span[1]:]


def mutate(src, mut):
    for alt in mut['alts']:
        out = src
        for step in alt:
            out = apply_step(out, step)
            if out is None:
                break
        if out is not None:
            return out, alt
    return None, None


def run(i, src, text):
    d = os.path.join(O, f'm{i:02d}')
    for f, t in src.items():
        os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
        with open(os.path.join(d, f), 'w') as fh:
            fh.write(text if f == DRV else t)
    b = subprocess.run(['make', '-s', '-j1', '-C', HERE, f'REV={d}', 'PATCHED=1',
                        f'O={O}/build'], capture_output=True, text=True)
    if b.returncode:
        return None, b.stderr[-2000:]
    out = subprocess.run([os.path.join(O, 'build', f'm{i:02d}', 'main'), '-r', f'm{i:02d}'],
                         capture_output=True, text=True).stdout
    return sorted({l.split()[2].split('/', 2)[2] for l in out.splitlines()
                   if l.startswith('RESULT fail')}), None


def main():
    src = {f: show(REV, f) for f in FILES}
    # the driver's private header, where the revision has one
    try:
        src[HDR] = show(REV, HDR)
    except subprocess.CalledProcessError:
        pass
    try:
        base = show(BASE, DRV)
    except subprocess.CalledProcessError:
        sys.exit(f'mutate.py: no revision {BASE} in {TREE}')
    killed, total, equiv, survivors, wrong = 0, 0, [], [], []
    for i, mut in enumerate(MUTATIONS):
        name = mut['name']
        if ONLY and ONLY not in name:
            continue
        text, alt = mutate(src[DRV], mut)
        if text is None:
            print(f'MUTATION n/a      {name} (no pattern matches {REV})')
            continue
        if mut['series_only'] and base and mutate(base, mut)[0] is not None:
            print(f'MUTATION n/a      {name} ({BASE} has the same code: not the series)')
            continue
        failed, err = run(i, src, text)
        if failed is None:
            print(f'MUTATION BUILD    {name}: the mutant does not build\n{err}')
            survivors.append(name)
            total += 1
            continue
        tests = sorted({f.split('/')[1] for f in failed})
        modes = sorted({f.split('/')[0] for f in failed})
        if mut['equivalent']:
            equiv.append(name)
            if failed:
                wrong.append(name)
                status = 'KILLED-EQ'
            else:
                status = 'equiv'
        else:
            total += 1
            killed += bool(failed)
            status = 'killed' if failed else 'SURVIVED'
            if not failed:
                survivors.append(name)
        print(f'MUTATION {status:9} {name}')
        if failed:
            print(f'    tests: {", ".join(tests)}')
            print(f'    in:    {", ".join(modes)}')
        elif mut['equivalent']:
            print(f'    why:   {mut["equivalent"]}')
        sys.stdout.flush()
    print(f'mutation score: {killed}/{total} (equivalent: {", ".join(equiv) or "none"})')
    if wrong:
        print(f'declared equivalent but caught: {", ".join(wrong)}')
    if survivors:
        print(f'survivors: {", ".join(survivors)}')
    return 1 if survivors or wrong else 0


if __name__ == '__main__':
    sys.exit(main())
