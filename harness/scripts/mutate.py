#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mutation check: undo each fix of the series in a copy of the patched
driver, run the harness on it, and list the tests that catch it.

  mutate.py [TREE] [REV]     (defaults: ../build/linux work)
  O=DIR mutate.py ...        build under DIR/mut (default ../build/harness)

Each mutation is a literal text replacement in the REV driver; one that
no longer applies is reported as such (the series changed shape)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '..', 'build', 'linux')
REV = sys.argv[2] if len(sys.argv) > 2 else 'work'
O = os.path.join(os.environ.get('O', os.path.join(HERE, '..', 'build', 'harness')), 'mut')
DRV = 'drivers/perf/arm_spe_pmu.c'
FILES = [DRV, 'arch/arm64/tools/sysreg', 'arch/arm64/tools/gen-sysreg.awk',
         'arch/arm64/include/asm/sysreg.h']

MUTATIONS = [
    ('1a: no isb between PMBPTR and enabling PMBLIMITR',
     '\twrite_sysreg_s(base, SYS_PMBPTR_EL1);\n'
     '\t/* Make the new PMBPTR_EL1 visible before PMBLIMITR_EL1.E is set */\n\tisb();\n',
     '\twrite_sysreg_s(base, SYS_PMBPTR_EL1);\n'),
    ('1b: PMBSR cleared with E still set (no disable in the OK path)',
     '\telse\n\t\tarm_spe_pmu_disable_buffer_local();\n',
     '\telse\n\t\t;\n'),
    ('1b: no isb between clearing E and writing PMBSR',
     '\twrite_sysreg_s(0, SYS_PMBLIMITR_EL1);\n'
     '\t/* Complete the disable before PMBPTR_EL1 or PMBSR_EL1 is written */\n\tisb();\n',
     '\twrite_sysreg_s(0, SYS_PMBLIMITR_EL1);\n'),
    ('1b: kept isb after re-enabling removed',
     '\t\t/* Enable the new buffer now, not at the exception return */\n\t\tisb();\n',
     ''),
    ('1b: fatal fault leaves PMSCR_EL1 on',
     '\tif (act == SPE_PMU_BUF_FAULT_ACT_FATAL)\n'
     '\t\tarm_spe_pmu_disable_and_drain_local();\n\telse\n',
     '\tif (0)\n\t\tarm_spe_pmu_disable_and_drain_local();\n\telse\n'),
    ('1b: interrupt with no AUX handle ignored',
     '\t\treturn arm_spe_pmu_irq_no_aux();', '\t\treturn IRQ_NONE;'),
    ('1c: MaxBuffSize decode drops the implicit top bit',
     'return (BIT_ULL(9) | m) << (e + 11);', 'return m << (e + 11);'),
    ('1c: last CPU wins instead of the smallest',
     '\treturn min(a, b);\n}', '\treturn b;\n}'),
    ('1c: MaxBuffSize not read when a CPU comes online',
     '\tarm_spe_pmu_update_max_buff_size(spe_pmu);\n\t__arm_spe_pmu_reset_local();',
     '\t__arm_spe_pmu_reset_local();'),
    ('1c: setup_aux accepts an AUX area above the limit',
     'if (!arm_spe_pmu_aux_size_ok(max_buff_size, (u64)nr_pages * PAGE_SIZE)) {',
     'if (0) {'),
    # the same check where the driver has discard mode (7.x)
    ('1c: setup_aux accepts an AUX area above the limit (discard-aware)',
     '\t    !arm_spe_pmu_aux_size_ok(max_buff_size, (u64)nr_pages * PAGE_SIZE)) {',
     '\t    0) {'),
    ('1c: setup_aux applies the limit to a discard-mode event',
     'if (!ATTR_CFG_GET_FLD(&event->attr, discard) &&\n\t    !arm_spe_pmu_aux_size_ok(',
     'if (!arm_spe_pmu_aux_size_ok('),
    ('1c: size event without TRUNCATED',
     '\t\tperf_aux_output_flag(handle, PERF_AUX_FLAG_TRUNCATED);\n\t\tpr_err_ratelimited("Buffer of',
     '\t\tpr_err_ratelimited("Buffer of'),
    ('1c: caps still u32',
     'static u64 arm_spe_pmu_cap_get', 'static u32 arm_spe_pmu_cap_get'),
]


def show(path):
    return subprocess.run(['git', '-C', TREE, 'show', f'{REV}:{path}'],
                          check=True, capture_output=True, text=True).stdout


def main():
    src = {f: show(f) for f in FILES}
    bad = 0
    for i, (name, old, new) in enumerate(MUTATIONS):
        if old not in src[DRV]:
            print(f'MUTATION n/a   {name} (pattern not in {REV})')
            continue
        d = os.path.join(O, f'm{i:02d}')
        for f, text in src.items():
            os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
            with open(os.path.join(d, f), 'w') as fh:
                fh.write(text.replace(old, new, 1) if f == DRV else text)
        subprocess.run(['make', '-s', '-C', HERE, f'REV={d}', 'PATCHED=1',
                        f'O={O}/build'], check=True, capture_output=True)
        out = subprocess.run([os.path.join(O, 'build', f'm{i:02d}', 'main'),
                              '-r', f'm{i:02d}'], capture_output=True, text=True).stdout
        failed = sorted({l.split()[2].split('/', 2)[2] for l in out.splitlines()
                         if l.startswith('RESULT fail')})
        tests = sorted({f.split('/')[1] for f in failed})
        modes = sorted({f.split('/')[0] for f in failed})
        status = 'caught' if failed else 'MISSED'
        bad += not failed
        print(f'MUTATION {status:6} {name}')
        if failed:
            print(f'    tests: {", ".join(tests)}')
            print(f'    in:    {", ".join(modes)}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
