#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mutation check: make one plausible mistake at a time in the functions
the series touches, build the harness on the mutated driver, run every
test, and list the tests that catch it.

  TREE=DIR WORK=rev BASE_TAG=rev mutate.py [--results] [TREE] [REV]
  O=DIR mutate.py ...        build under DIR/mut (default ../build/harness)
  (BASE_TAG is the unpatched revision, for mutations of code the series
  adds)
  ONLY=substring mutate.py   run the mutations whose name contains it
  RESULTS=1 or --results     one "RESULT pass|fail|skip mutant/<name>" line
                             per mutation (pass: killed; fail: survived, or
                             declared equivalent and caught; skip: n/a or
                             equivalent, with the reason), the score last
  DRY=1 mutate.py ...        only say which mutations apply
  JOBS=n mutate.py ...       mutants built and run n at a time, each in its
                             own build directory (default: the CPUs)
TREE (or a TREE argument), WORK (or a REV argument) and BASE_TAG are
required, as scripts/lib.sh sets them; a missing one is an error.

The unmutated revision is prepared and built once and must pass every
test; each mutant then replaces the driver copy in that build directory,
so only driver.o (driver.c is the one unit that #includes the driver) is
rebuilt and the runner relinked.  With JOBS=n there are n such build
directories ($O/mut/0, $O/mut/1, ...), prepared side by side, and n
mutants in flight; the lines still come in catalogue order.

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
import queue
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = [a for a in sys.argv[1:] if not a.startswith('--')]
TREE = ARGS[0] if len(ARGS) > 0 else os.environ.get('TREE')
REV = ARGS[1] if len(ARGS) > 1 else os.environ.get('WORK')
BASE = os.environ.get('BASE_TAG')
if not TREE:
    sys.exit('mutate.py: TREE (or a TREE argument) must name the kernel tree')
if not REV or not BASE:
    sys.exit('mutate.py: WORK (or a REV argument) and BASE_TAG must name the revisions')
ONLY = os.environ.get('ONLY', '')
try:
    JOBS = max(1, int(os.environ.get('JOBS', str(os.cpu_count() or 1))))
except ValueError:
    sys.exit('mutate.py: JOBS must be a number')
O = os.path.join(os.environ.get('O', os.path.join(HERE, '..', 'build', 'harness')), 'mut')
DRV = 'drivers/perf/arm_spe_pmu.c'
HDR = 'drivers/perf/arm_spe_pmu.h'
FILES = [DRV, 'arch/arm64/tools/sysreg', 'arch/arm64/tools/gen-sysreg.awk',
         'arch/arm64/include/asm/sysreg.h']
# the tools/include headers prepare.sh takes the generic helpers from
with open(os.path.join(HERE, 'scripts', 'tools-include.list')) as fh:
    FILES += ['tools/include/' + h for h in fh.read().split()]

# One optional one-line comment at the given indentation
C1 = r'(?:\t/\*[^\n]*\*/\n)?'
C2 = r'(?:\t\t/\*[^\n]*\*/\n)?'
# One optional comment block, one or more lines, two tabs in
CB2 = r'(?:\t\t/\*.*?\*/\n)?'


def S(pat, rep, fn=None):
    """A step: pattern and replacement, within function fn if given."""
    return (fn, pat, rep)


def M(name, *alts, equivalent=None, series_only=False, requires=None):
    """A mutation: alternatives, each a list of steps.  requires: a pattern
    the driver must contain for the mutation to apply (so that a mutant
    does not fail to build only because the tree lacks a macro)."""
    return {'name': name, 'alts': [a if isinstance(a, list) else [a] for a in alts],
            'equivalent': equivalent, 'series_only': series_only, 'requires': requires}


HANDLER = 'arm_spe_pmu_irq_handler'
DRAIN = 'arm_spe_pmu_disable_and_drain_local'
NEXT = 'arm_spe_pmu_next_limit'
DECODE = 'arm_spe_pmu_decode_max_buff_size'

MUTATIONS = [
    # --- "Do not pad past the end of the AUX buffer" ---
    # wherever the comparison lives (a pure helper may take it), in any
    # of its four spellings
    M('pad: clamp to a wakeup at the head (head <= wakeup)',
      S(r'\b(\w*head\w*) < (\w*wake\w*)\b', r'\1 <= \2'),
      S(r'\b(\w*wake\w*) > (\w*head\w*)\b', r'\1 >= \2'),
      S(r'\b(\w*wake\w*) <= (\w*head\w*)\b', r'\1 < \2'),
      S(r'\b(\w*head\w*) >= (\w*wake\w*)\b', r'\1 > \2')),

    # --- "Synchronise PMBPTR_EL1 before enabling the buffer" (start) ---
    M('enable: no isb between PMBPTR and the enabling PMBLIMITR write',
      S(r'(write_sysreg_s\([^;]*SYS_PMBPTR_EL1\);\n)' + C1 + r'\tisb\(\);\n', r'\1',
        'arm_spe_perf_aux_output_begin')),

    # --- "Disable the buffer before clearing PMBSR_EL1" (the handler) ---
    M('handler: OK path clears PMBSR with E still set (no disable)',
      S(r'(case SPE_PMU_BUF_FAULT_ACT_OK:\n' + CB2 + r')\t\twrite_sysreg_s\(0, SYS_PMBLIMITR_EL1\);\n'
        + C2 + r'\t\tisb\(\);\n', r'\1', HANDLER),
      S(r'\telse\n\t\tarm_spe_pmu_disable_buffer_local\(\);\n', '', HANDLER)),
    M('handler: OK path disables without the isb before PMBSR',
      S(r'(case SPE_PMU_BUF_FAULT_ACT_OK:\n' + CB2 + r'\t\twrite_sysreg_s\(0, SYS_PMBLIMITR_EL1\);\n)'
        + C2 + r'\t\tisb\(\);\n', r'\1', HANDLER),
      S(r'(\twrite_sysreg_s\(0, SYS_PMBLIMITR_EL1\);\n)' + C1 + r'\tisb\(\);\n', r'\1',
        'arm_spe_pmu_disable_buffer_local')),
    M('handler: kept isb after re-enabling removed',
      S(r'(\t\t\treturn IRQ_HANDLED;\n\t\t\}\n)' + C2 + r'\t\tisb\(\);\n', r'\1', HANDLER)),
    M('handler: PMBSR cleared before the buffer is disabled',
      [S(C1 + r'\twrite_sysreg_s\(0, SYS_PMBSR_EL1\);\n', '', HANDLER),
       S(r'(\tirq_work_run\(\);\n)', r'\1\twrite_sysreg_s(0, SYS_PMBSR_EL1);\n', HANDLER)]),
    M('handler: fatal fault leaves PMSCR_EL1 on (buffer disabled only)',
      S(r'(case SPE_PMU_BUF_FAULT_ACT_FATAL:\n' + CB2 + r')\t\tarm_spe_pmu_disable_and_drain_local\(\);\n',
        r'\1\t\twrite_sysreg_s(0, SYS_PMBLIMITR_EL1);\n\t\tisb();\n', HANDLER),
      S(r'\tif \(act == SPE_PMU_BUF_FAULT_ACT_FATAL\)\n\t\tarm_spe_pmu_disable_and_drain_local\(\);\n\telse\n',
        '\tif (0)\n\t\tarm_spe_pmu_disable_and_drain_local();\n\telse\n', HANDLER)),
    M('handler: restarts a session marked TRUNCATED',
      S(r'act == SPE_PMU_BUF_FAULT_ACT_OK &&\n\s*!\(handle->aux_flags & PERF_AUX_FLAG_TRUNCATED\)',
        'act == SPE_PMU_BUF_FAULT_ACT_OK', HANDLER),
      equivalent='TRUNCATED is set in the OK path only by PMBSR_EL1.DL on a '
                 'buffer-full event, and DL is UNCHANGED by one (spe-rules: buffer-full) after the '
                 'driver wrote PMBSR_EL1 = 0 with E clear: unreachable'),
    M('handler: ignores a failed aux_output_begin()',
      S(r'\t\t\tarm_spe_pmu_stop\(event, PERF_EF_UPDATE\);\n(?=\t\t\treturn IRQ_HANDLED;)', '',
        HANDLER)),
    M('start() ignores a failed aux_output_begin()',
      S(r'\tif \(arm_spe_perf_aux_output_begin\(handle, event\)\) \{\n\t\tarm_spe_pmu_stop\(event, 0\);\n'
        r'\t\treturn;\n\t\}\n', '\tarm_spe_perf_aux_output_begin(handle, event);\n',
        'arm_spe_pmu_start')),
    M('handler: interrupt with no AUX handle ignored (v1)',
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

    # --- the SPE VM interface: MaxBuffSize decode ---
    M('MaxBuffSize decode: drops the implicit top bit',
      S(r'\(BIT_ULL\(9\) \| m\) << \(e \+ 11\)', 'm << (e + 11)')),
    M('MaxBuffSize decode: shifts by e + 12',
      S(r'<< \(e \+ 11\)', '<< (e + 12)')),
    M('MaxBuffSize decode: scales M by 1KiB for E == 0',
      S(r'return m \* SZ_4K;', 'return m * SZ_1K;'),
      S(r'return m << 12;', 'return m << 10;')),
    M('MaxBuffSize decode: keeps the reserved bits [15:14] in E',
      S(r'FIELD_GET\(\w*MAXBUFFSIZE_E, field\)', 'field >> 9')),

    # --- the SPE VM interface: the per-CPU minimum ---
    M('per-CPU minimum: max instead of min',
      S(r'return min\(a, b\);', 'return max(a, b);', 'arm_spe_pmu_min_buff_size')),
    M('per-CPU minimum: 0 (no limit) treated as a limit',
      S(r'\tif \(!a \|\| !b\)\n\t\treturn a \| b;\n\n?', '', 'arm_spe_pmu_min_buff_size')),
    M('per-CPU minimum: last CPU wins instead of the smallest',
      S(r'\treturn min\(a, b\);\n', '\treturn b;\n', 'arm_spe_pmu_min_buff_size')),
    M('per-CPU minimum: the first limit seen is kept',
      S(r'if \(size == cur\)', 'if (cur)', 'arm_spe_pmu_update_max_buff_size')),
    M('per-CPU minimum: MaxBuffSize not read when a CPU comes online',
      S(r'\tarm_spe_pmu_update_max_buff_size\(spe_pmu\);\n(?=\t__arm_spe_pmu_reset_local\(\);)',
        '', '__arm_spe_pmu_setup_one')),

    # --- the SPE VM interface: setup_aux ---
    # the check as v1 wrote it, or with the discard flag passed in (v2)
    M('setup_aux: accepts an AUX area above the limit',
      S(r'!arm_spe_pmu_aux_size_ok\(max_buff_size, \(u64\)nr_pages \* PAGE_SIZE\)', '0',
        'arm_spe_pmu_setup_aux'),
      S(r'!arm_spe_pmu_aux_size_ok\(max_buff_size, \(u64\)nr_pages \* PAGE_SIZE,\s*'
        r'ATTR_CFG_GET_FLD\(&event->attr, discard\)\)', '0', 'arm_spe_pmu_setup_aux'),
      S(r'!arm_spe_pmu_aux_size_ok\(max_buff_size, \(u64\)nr_pages \* PAGE_SIZE,\s*false\)',
        '0', 'arm_spe_pmu_setup_aux')),
    M('setup_aux: limit one page short (nr_pages - 1)',
      S(r'\(u64\)nr_pages \* PAGE_SIZE([,)])', r'(u64)(nr_pages - 1) * PAGE_SIZE\1',
        'arm_spe_pmu_setup_aux')),
    M('setup_aux: limit one page over (nr_pages + 1)',
      S(r'\(u64\)nr_pages \* PAGE_SIZE([,)])', r'(u64)(nr_pages + 1) * PAGE_SIZE\1',
        'arm_spe_pmu_setup_aux')),
    M('setup_aux: refuses an area equal to the limit (< for <=)',
      S(r'size <= max_buff_size', 'size < max_buff_size', 'arm_spe_pmu_aux_size_ok')),
    M('setup_aux: applies the limit to a discard-mode event',
      S(r'!ATTR_CFG_GET_FLD\(&event->attr, discard\) &&\n\s*', '', 'arm_spe_pmu_setup_aux'),
      S(r'return discard \|\| ', 'return ', 'arm_spe_pmu_aux_size_ok')),

    # --- the SPE VM interface: the buffer-size event ---
    M('size event: without TRUNCATED',
      S(r'(case PMBSR_EL1_BUF_BSC_SIZE:.*?)\t\tperf_aux_output_flag\(handle, PERF_AUX_FLAG_TRUNCATED\);\n',
        r'\1', 'arm_spe_pmu_buf_get_fault_act')),
    M('size event: not fatal (TRUNCATED kept)',
      S(r'(case PMBSR_EL1_BUF_BSC_SIZE:.*?)ret = SPE_PMU_BUF_FAULT_ACT_FATAL;',
        r'\1ret = SPE_PMU_BUF_FAULT_ACT_OK;', 'arm_spe_pmu_buf_get_fault_act'),
      equivalent='with TRUNCATED set the OK path does not restart, and the core\'s '
                 'pending disable, run by irq_work_run() in the handler before the '
                 'switch, stops the event and drains: the same state as FATAL'),
    M('size event: the recorded window keeps the E bit',
      S(r'\(limit & PMBLIMITR_EL1_LIMIT\) - base', '(limit) - base',
        'arm_spe_perf_aux_output_begin')),
    M('caps: value truncated to u32',
      S(r'static u64 arm_spe_pmu_cap_get', 'static u32 arm_spe_pmu_cap_get'),
      series_only=True),

    # --- the handler: which interrupts it claims, what it leaves behind ---
    M('handler: no-handle interrupt claimed (IRQ_HANDLED)',
      S(r'(if \(!perf_get_aux\(handle\)\)\n\t\treturn )IRQ_NONE;', r'\1IRQ_HANDLED;', HANDLER)),
    M('handler: spurious interrupt (PMBSR_EL1.S clear) claimed',
      S(r'(if \(act == SPE_PMU_BUF_FAULT_ACT_SPURIOUS\)\n\t\treturn )IRQ_NONE;', r'\1IRQ_HANDLED;',
        HANDLER)),
    M('handler: spurious interrupt not returned early (PMBSR_EL1 written)',
      S(r'\tif \(act == SPE_PMU_BUF_FAULT_ACT_SPURIOUS\)\n\t\treturn IRQ_NONE;\n', '', HANDLER)),
    M('handler: irq_work_run() dropped',
      S(r'\tirq_work_run\(\);\n', '', HANDLER),
      equivalent='the perf core\'s pending disable is irq_work, which the kernel runs as the '
                 'handler returns anyway (the self-IPI; the harness runs it after every entry); '
                 'run inside, it only matters on the OK path with TRUNCATED set, unreachable '
                 '(see "handler restarts a session marked TRUNCATED"); on the FATAL path the '
                 'handler disables and drains itself, and the later stop() drains an empty '
                 'unit and saves the same interval: the same end state'),
    M('handler: fatal event leaves the buffer enabled',
      S(r'(case SPE_PMU_BUF_FAULT_ACT_FATAL:\n' + CB2 + r')\t\tarm_spe_pmu_disable_and_drain_local\(\);\n',
        r'\1', HANDLER)),
    M('handler: PMBSR_EL1 never cleared',
      S(C1 + r'\twrite_sysreg_s\(0, SYS_PMBSR_EL1\);\n', '', HANDLER)),
    M('handler: failed restart stopped without PERF_EF_UPDATE',
      S(r'arm_spe_pmu_stop\(event, PERF_EF_UPDATE\);\n(?=\t\t\treturn IRQ_HANDLED;)',
        'arm_spe_pmu_stop(event, 0);\n', HANDLER)),
    M('handler: restarts after a fatal event (act == OK test dropped)',
      S(r'if \(act == SPE_PMU_BUF_FAULT_ACT_OK &&\n\s*!\(handle', 'if (!(handle', HANDLER)),
    M('enable: isb after the enabling PMBLIMITR write instead of before',
      [S(r'(write_sysreg_s\([^;]*SYS_PMBPTR_EL1\);\n)' + C1 + r'\tisb\(\);\n', r'\1',
         'arm_spe_perf_aux_output_begin'),
       S(r'(out_write_limit:\n\twrite_sysreg_s\(limit, SYS_PMBLIMITR_EL1\);\n)', r'\1\tisb();\n',
         'arm_spe_perf_aux_output_begin')]),

    # --- the drain, each step alone ---
    M('drain: sampling left on (no PMSCR_EL1 = 0)',
      S(r'\twrite_sysreg_s\(0, SYS_PMSCR_EL1\);\n', '', DRAIN)),
    M('drain: DSB without the PSB CSYNC',
      S(r'\tpsb_csync\(\);\n(?=\tdsb\(nsh\);)', '', DRAIN)),
    M('drain: PSB CSYNC without the DSB',
      S(r'(\tpsb_csync\(\);\n)\tdsb\(nsh\);\n', r'\1', DRAIN),
      equivalent='the DSB completes the buffer writes (I_MLGHW) before the PE uses the data; '
                 'the only caller that then hands data to userspace, stop(PERF_EF_UPDATE), '
                 'first runs arm_spe_pmu_buf_get_fault_act(), whose own PSB CSYNC; DSB '
                 'complete them; the FATAL path ran those before the drain, and '
                 'reset_local() and stop(0) publish nothing'),
    M('drain: no isb after clearing PMBLIMITR_EL1',
      S(r'(\twrite_sysreg_s\(0, SYS_PMBLIMITR_EL1\);\n)' + C1 + r'\tisb\(\);\n', r'\1', DRAIN)),

    # --- fault_act: the synchronisation before the reads, the size event ---
    M('fault_act: no PSB CSYNC before reading PMBSR/PMBPTR',
      S(r'\tpsb_csync\(\);\n(?=\tdsb\(nsh\);)', '', 'arm_spe_pmu_buf_get_fault_act')),
    M('fault_act: no DSB after the PSB CSYNC',
      S(r'(\tpsb_csync\(\);\n)\tdsb\(nsh\);\n', r'\1', 'arm_spe_pmu_buf_get_fault_act')),
    M('size event: falls through to "Unknown buffer status code"',
      S(r'(case PMBSR_EL1_BUF_BSC_SIZE:.*?ret = SPE_PMU_BUF_FAULT_ACT_FATAL;\n)\t\tgoto out_stop;\n',
        r'\1', 'arm_spe_pmu_buf_get_fault_act')),
    M('size event: flagged PARTIAL (no record was cut)',
      S(r'(case PMBSR_EL1_BUF_BSC_SIZE:.*?perf_aux_output_flag\(handle, PERF_AUX_FLAG_TRUNCATED)\);',
        r'\1 | PERF_AUX_FLAG_PARTIAL);', 'arm_spe_pmu_buf_get_fault_act')),
    M('size event: message measures the window from the buffer base, not the head',
      S(r'\(limit & PMBLIMITR_EL1_LIMIT\) - base', '(limit & PMBLIMITR_EL1_LIMIT) - (u64)buf->base',
        'arm_spe_perf_aux_output_begin')),

    # --- the normal-mode limit (arm_spe_pmu_next_limit and its caller) ---
    M('next_limit: head == tail taken as data to protect (<= for <)',
      S(r'if \(head_off < tail\)', 'if (head_off <= tail)', NEXT),
      equivalent='the perf core gives handle->size as CIRC_SPACE(), the free space less '
                 'one byte, and padding moves head and size together, so (head + size) '
                 '% bufsize == head % bufsize only when size is 0, which returns before the '
                 'comparison: head_off == tail never occurs'),
    M('next_limit: tail rounded up (into unconsumed data)',
      S(r'round_down\(tail, PAGE_SIZE\)', 'round_up(tail, PAGE_SIZE)', NEXT)),
    M('next_limit: tail not rounded down to a page',
      S(r'round_down\(tail, PAGE_SIZE\)', 'tail', NEXT)),
    M('next_limit: wakeup counted when exactly size away (<= for <)',
      S(r'\(wakeup - head\) < size', '(wakeup - head) <= size', NEXT),
      equivalent='wakeup - head == size puts the wakeup at the tail: when head_off < tail '
                 'the tail limit round_down(tail) is already at or below round_up(wakeup_off); '
                 'otherwise wakeup_off == tail <= head_off and head_off < wakeup_off is false: '
                 'the limit is the same for every input'),
    M('next_limit: max instead of min with the wakeup boundary',
      S(r'limit = min\(limit, (round_up\(wakeup_off, PAGE_SIZE\))\);', r'limit = max(limit, \1);', NEXT)),
    M('next_limit: wakeup boundary replaces the tail limit',
      S(r'limit = min\(limit, (round_up\(wakeup_off, PAGE_SIZE\))\);', r'limit = \1;', NEXT)),
    M('next_limit: wakeup rounded down to a page',
      S(r'round_up\(wakeup_off, PAGE_SIZE\)', 'round_down(wakeup_off, PAGE_SIZE)', NEXT)),
    M('next_limit: a limit equal to the head accepted (>= for >)',
      S(r'if \(limit > head_off\)', 'if (limit >= head_off)', NEXT)),
    M('next_limit: no padding when there is no room',
      S(r'\t\*pad = size;\n', '', NEXT),
      equivalent='there is no room only when the unread data starts in the same page '
                 'as the head; the bytes between are left unwritten instead of filled '
                 'with PAD bytes and aux_head stays, but the session still ends '
                 'TRUNCATED (the core disables the event and wakes the consumer) and '
                 'no record is lost, moved or overwritten; a later start computes the '
                 'same from the space then free'),
    M('next_limit: no free space not checked',
      S(r'\tif \(!size\)\n\t\treturn 0;\n\n?', '', NEXT)),
    M('next_limit: tail not wrapped at the buffer end',
      S(r'tail = \(head \+ size\) % bufsize;', 'tail = head % bufsize + size;', NEXT)),
    M('next_limit: wakeup not wrapped at the buffer end',
      S(r'wakeup_off = wakeup % bufsize;', 'wakeup_off = wakeup;', NEXT)),
    M('next_limit: head not wrapped at the buffer end',
      S(r'head_off = head % bufsize;', 'head_off = head;', NEXT)),
    M('next_off: the head offset passed as the free-running head',
      S(r'arm_spe_pmu_next_limit\(bufsize, handle->head,',
        'arm_spe_pmu_next_limit(bufsize, PERF_IDX2OFF(handle->head, buf),', '__arm_spe_pmu_next_off')),
    M('next_off: no room reported without TRUNCATED',
      S(r'\tperf_aux_output_flag\(handle, PERF_AUX_FLAG_TRUNCATED\);\n(?=\tperf_aux_output_end\(handle, 0\);)',
        '', '__arm_spe_pmu_next_off')),

    # --- the SPE VM interface: more decode and limit variants ---
    M('MaxBuffSize decode: tests M instead of E for the 4KiB scale',
      S(r'if \(!e\)', 'if (!m)', DECODE)),
    M('MaxBuffSize decode: M field one bit short [7:0]',
      S(r'(#define SPE_MAXBUFFSIZE_M\s+)GENMASK\(8, 0\)', r'\1GENMASK(7, 0)')),
    M('MaxBuffSize decode: E field into the reserved bits [14:9]',
      S(r'(#define SPE_MAXBUFFSIZE_E\s+)GENMASK\(13, 9\)', r'\1GENMASK(14, 9)')),
    M('MaxBuffSize decode: E field one bit short [12:9]',
      S(r'(#define SPE_MAXBUFFSIZE_E\s+)GENMASK\(13, 9\)', r'\1GENMASK(12, 9)')),
    M('MaxBuffSize decode: shifts by e + 10',
      S(r'<< \(e \+ 11\)', '<< (e + 10)')),
    M('MaxBuffSize decode: implicit top bit at 10',
      S(r'BIT_ULL\(9\) \| m', 'BIT_ULL(10) | m')),
    M('MaxBuffSize decode: field narrowed to u8',
      S(r'(\bu64 arm_spe_pmu_decode_max_buff_size\()u16 field\)', r'\1u8 field)')),
    M('MaxBuffSize: reserved bits not reported',
      S(r'\tif \(field & SPE_MAXBUFFSIZE_RES0\)\n\t\tdev_warn_once\(.*?\);\n\n?', '',
        'arm_spe_pmu_update_max_buff_size')),
    M('MaxBuffSize: reserved bits make the CPU\'s limit ignored',
      S(r'(\tif \(field & SPE_MAXBUFFSIZE_RES0\))\n(\t\tdev_warn_once\(.*?\);\n)',
        r'\1 {\n\2\t\treturn;\n\t}\n', 'arm_spe_pmu_update_max_buff_size')),
    M('MaxBuffSize: limit below two pages not reported',
      S(r'\tif \(size < min_size\)\n\t\tdev_warn\([^;]*;\n', '', 'arm_spe_pmu_update_max_buff_size')),
    M('MaxBuffSize: limit of exactly two pages reported as too small (<= for <)',
      S(r'if \(size < min_size\)', 'if (size <= min_size)', 'arm_spe_pmu_update_max_buff_size')),
    M('per-CPU minimum: 0 absorbs a limit (a & b)',
      S(r'return a \| b;', 'return a & b;', 'arm_spe_pmu_min_buff_size')),
    M('per-CPU minimum: "no limit" only when both are 0 (&& for ||)',
      S(r'if \(!a \|\| !b\)', 'if (!a && !b)', 'arm_spe_pmu_min_buff_size')),
    M('setup_aux: compares pages with bytes',
      S(r'\(u64\)nr_pages \* PAGE_SIZE([,)])', r'(u64)nr_pages\1', 'arm_spe_pmu_setup_aux')),
    M('setup_aux: accepts a one-page AUX area (minimum 1 page)',
      S(r'(#define ARM_SPE_PMU_MIN_AUX_PAGES\s+)2', r'\g<1>1')),
    M('caps/max_buff_size: printed in hex',
      S(r'SPE_CAP_EXT_ATTR_ENTRY\(max_buff_size', 'SPE_CAP_EXT_ATTR_ENTRY_HEX(max_buff_size'),
      requires=r'#define SPE_CAP_EXT_ATTR_ENTRY_HEX'),
    M('caps/max_buff_size: entry missing',
      S(r'\tSPE_CAP_EXT_ATTR_ENTRY\w*\(max_buff_size, SPE_PMU_CAP_MAX_BUFF_SIZE\),\n', '')),

    # --- what each fatal event leaves switched on ---
    M('size event: no case of its own (an unknown buffer status code, no TRUNCATED)',
      S(r'\tcase PMBSR_EL1_BUF_BSC_SIZE:.*?\t\tgoto out_stop;\n', '',
        'arm_spe_pmu_buf_get_fault_act')),
    M('size event: flagged COLLISION instead of TRUNCATED',
      S(r'(case PMBSR_EL1_BUF_BSC_SIZE:.*?perf_aux_output_flag\(handle, )PERF_AUX_FLAG_TRUNCATED\)',
        r'\1PERF_AUX_FLAG_COLLISION)', 'arm_spe_pmu_buf_get_fault_act')),
    M('size event: TRUNCATED flagged after the session was ended',
      [S(r'(case PMBSR_EL1_BUF_BSC_SIZE:.*?)\t\tperf_aux_output_flag\(handle, PERF_AUX_FLAG_TRUNCATED\);\n',
         r'\1', 'arm_spe_pmu_buf_get_fault_act'),
       S(r'(case PMBSR_EL1_BUF_BSC_SIZE:.*?ret = SPE_PMU_BUF_FAULT_ACT_FATAL;\n)\t\tgoto out_stop;\n',
         r'\1\t\tarm_spe_perf_aux_output_end(handle);\n'
         r'\t\tperf_aux_output_flag(handle, PERF_AUX_FLAG_TRUNCATED);\n\t\treturn ret;\n',
         'arm_spe_pmu_buf_get_fault_act')]),
    M('size event: session left open (no perf_aux_output_end())',
      S(r'(case PMBSR_EL1_BUF_BSC_SIZE:.*?ret = SPE_PMU_BUF_FAULT_ACT_FATAL;\n\t\t)goto out_stop;',
        r'\1return ret;', 'arm_spe_pmu_buf_get_fault_act')),
    M('size event: reported as spurious',
      S(r'(case PMBSR_EL1_BUF_BSC_SIZE:.*?ret = )SPE_PMU_BUF_FAULT_ACT_FATAL;',
        r'\1SPE_PMU_BUF_FAULT_ACT_SPURIOUS;', 'arm_spe_pmu_buf_get_fault_act')),
    M('size event: message reads PMBLIMITR_EL1, which stop() has cleared',
      S(r'buf->window,',
        '(read_sysreg_s(SYS_PMBLIMITR_EL1) & PMBLIMITR_EL1_LIMIT) -\n'
        '\t\t\t\t   ((u64)buf->base + PERF_IDX2OFF(handle->head, buf)),',
        'arm_spe_pmu_buf_get_fault_act')),
    M('handler: fatal event returns with PMBSR_EL1 still set',
      S(r'(case SPE_PMU_BUF_FAULT_ACT_FATAL:\n' + CB2 + r'\t\tarm_spe_pmu_disable_and_drain_local\(\);\n)'
        r'\t\tbreak;', r'\1\t\treturn IRQ_HANDLED;', HANDLER)),
    M('handler: fatal event switches sampling off but leaves the buffer enabled',
      S(r'(case SPE_PMU_BUF_FAULT_ACT_FATAL:\n' + CB2 + r')\t\tarm_spe_pmu_disable_and_drain_local\(\);\n',
        r'\1\t\twrite_sysreg_s(0, SYS_PMSCR_EL1);\n\t\tisb();\n', HANDLER)),
    M('stop: a fatal event pending at stop(PERF_EF_UPDATE) left in PMBSR_EL1',
      S(r'\t\t\telse\n\t\t\t\twrite_sysreg_s\(0, SYS_PMBSR_EL1\);\n', '', 'arm_spe_pmu_stop')),

    # --- the limit across the whole range MaxBuffSize encodes ---
    M('MaxBuffSize decode: no E == 0 case (the 4KiB scale)',
      S(r'\tif \(!e\)\n\t\treturn m \* SZ_4K;\n\n?', '', DECODE)),
    M('MaxBuffSize decode: E == 0 scales the whole field (reserved bits kept)',
      S(r'return m \* SZ_4K;', 'return field * SZ_4K;', DECODE)),
    M('MaxBuffSize decode: computed in 32 bits (sizes of 4GiB and up wrap)',
      S(r'\(BIT_ULL\(9\) \| m\) << \(e \+ 11\)', '(u32)((BIT(9) | m) << (e + 11))', DECODE)),
    M('MaxBuffSize decode: the exponent applied as a 32-bit power of two',
      S(r'\(BIT_ULL\(9\) \| m\) << \(e \+ 11\)', '(BIT_ULL(9) | m) * (1U << (e + 11))', DECODE)),
    M('max_buff_size kept in a u32',
      S(r'(\n\t)u64(\t+max_buff_size;)', r'\1u32\2')),
    M('per-CPU minimum: forgotten when a CPU goes offline (re-read from the next one only)',
      S(r'(\tdisable_percpu_irq\(spe_pmu->irq\);\n)',
        r'\1\tWRITE_ONCE(spe_pmu->max_buff_size, 0);\n', '__arm_spe_pmu_stop_one')),
    M('setup_aux: AUX size computed in int (nr_pages << PAGE_SHIFT)',
      S(r'\(u64\)nr_pages \* PAGE_SIZE([,)])', r'(nr_pages << PAGE_SHIFT)\1', 'arm_spe_pmu_setup_aux')),
    M('setup_aux: snapshot mode compares half the area (the window it programs)',
      S(r'\(u64\)nr_pages \* PAGE_SIZE([,)])', r'((u64)nr_pages * PAGE_SIZE >> snapshot)\1',
        'arm_spe_pmu_setup_aux')),
    M('setup_aux: no limit (0) taken as a limit of 0',
      S(r'!max_buff_size \|\| ', '', 'arm_spe_pmu_aux_size_ok')),
    M('setup_aux: the limit read into a u32',
      S(r'\tu64 max_buff_size = READ_ONCE', '\tu32 max_buff_size = READ_ONCE', 'arm_spe_pmu_setup_aux')),
    M('setup_aux: the limit compared as a u32',
      S(r'(bool arm_spe_pmu_aux_size_ok\()u64 max_buff_size', r'\1u32 max_buff_size')),
    M('setup_aux: the AUX size compared as a u32',
      S(r'(bool arm_spe_pmu_aux_size_ok\(u64 max_buff_size, )u64 size', r'\1u32 size')),
    M('setup_aux: snapshot passed for discard (snapshot areas exempt)',
      S(r'ATTR_CFG_GET_FLD\(&event->attr, discard\)\)\)', 'snapshot))', 'arm_spe_pmu_setup_aux')),
    M('MaxBuffSize: "no limit" on every CPU reported as too small (no early return)',
      S(r'\tif \(size == cur\)\n\t\treturn;\n\n?', '', 'arm_spe_pmu_update_max_buff_size')),
    M('handler: fatal event not claimed (IRQ_NONE)',
      S(r'(case SPE_PMU_BUF_FAULT_ACT_FATAL:\n' + CB2 + r'\t\tarm_spe_pmu_disable_and_drain_local\(\);\n)'
        r'\t\tbreak;', r'\1\t\twrite_sysreg_s(0, SYS_PMBSR_EL1);\n\t\treturn IRQ_NONE;', HANDLER)),
    M('caps/max_buff_size: in pages, not bytes',
      S(r'return READ_ONCE\(spe_pmu->max_buff_size\);', 'return READ_ONCE(spe_pmu->max_buff_size) >> PAGE_SHIFT;',
        'arm_spe_pmu_cap_get')),
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
    if mut['requires'] and not re.search(mut['requires'], src):
        return None, None
    for alt in mut['alts']:
        out = src
        for step in alt:
            out = apply_step(out, step)
            if out is None:
                break
        if out is not None:
            return out, alt
    return None, None


def slug(name):
    """The name in a RESULT line: no spaces."""
    return re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')


class Harness:
    """One build directory: the unmutated revision is prepared and built
    once; a mutant replaces only the driver copy there ($OUT/arm_spe_pmu.c,
    which the Makefile names as the one extra prerequisite of driver.o),
    so only driver.o is rebuilt and main relinked.  make -o keeps the
    prepare step, which would touch .prepared and so rebuild every object,
    from running again."""

    def __init__(self, src, k):
        self.rev = os.path.join(O, str(k), 'src')
        self.build = os.path.join(O, str(k), 'build')
        self.out = os.path.join(self.build, 'src')
        for f, t in src.items():
            os.makedirs(os.path.dirname(os.path.join(self.rev, f)), exist_ok=True)
            with open(os.path.join(self.rev, f), 'w') as fh:
                fh.write(t)
        self.ref = src[DRV]

    def make(self, keep_prepared):
        cmd = ['make', '-s', '-j1', '-C', HERE, f'REV={self.rev}', 'PATCHED=1',
               f'O={self.build}']
        if keep_prepared:
            cmd.append('-o' + os.path.join(self.out, '.prepared'))
        b = subprocess.run(cmd, capture_output=True, text=True)
        return None if b.returncode == 0 else (b.stdout + b.stderr)[-2000:]

    def prepare(self):
        return self.make(False)

    def load(self, text):
        with open(os.path.join(self.out, 'arm_spe_pmu.c'), 'w') as fh:
            fh.write(text)
        return self.make(True)

    def run(self, tag, first_fail):
        """Names (mode/test) of the failing runs; with first_fail, stop at
        the first one (enough to know the mutant is killed)."""
        p = subprocess.Popen([os.path.join(self.out, 'main'), '-r', tag],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        failed, n = set(), 0
        for line in p.stdout:
            if line.startswith('RESULT '):
                n += 1
            if line.startswith('RESULT fail'):
                failed.add(line.split()[2].split('/', 2)[2])
                if first_fail:
                    p.kill()
                    break
        p.wait()
        # a runner that dies (an ASan report exits 1, an abort is a signal)
        # before printing a failure has failed all the same
        if not failed and p.returncode:
            failed.add(f'crash/exit status {p.returncode}')
        return sorted(failed), n


def main():
    results = os.environ.get('RESULTS', '') not in ('', '0') or '--results' in sys.argv
    dry = os.environ.get('DRY', '') not in ('', '0')
    t0 = time.time()
    try:
        src = {f: show(REV, f) for f in FILES}
    except subprocess.CalledProcessError:
        sys.exit(f'mutate.py: no revision {REV} (or no {DRV} in it) in {TREE}')
    # the driver's private header, where the revision has one
    try:
        src[HDR] = show(REV, HDR)
    except subprocess.CalledProcessError:
        pass
    try:
        base = show(BASE, DRV)
    except subprocess.CalledProcessError:
        sys.exit(f'mutate.py: no revision {BASE} in {TREE}')
    pool = [Harness(src, k) for k in range(JOBS)]
    free = queue.Queue()
    for h in pool:
        free.put(h)
    ex = ThreadPoolExecutor(max_workers=JOBS)
    if not dry:
        # every build directory prepared and built at once, the reference
        # run in the first (the others hold the same build)
        errs = list(ex.map(lambda h: h.prepare() or h.load(src[DRV]), pool))
        err = next((e for e in errs if e), None)
        ref_failed, ref_n = ([], 0) if err else pool[0].run('ref', False)
        if err or ref_failed or not ref_n:
            print(f'RESULT fail mutant/reference (the unmutated {REV} must build and pass: '
                  f'{err or ", ".join(ref_failed) or "no tests ran"})')
            return 1

    def attempt(i, mut, text):
        """Build and run one mutant in a free build directory."""
        h = free.get()
        try:
            err = h.load(text)
            if err:
                return None, err
            return h.run(f'm{i:02d}', results and not mut['equivalent'])[0], None
        finally:
            free.put(h)

    killed, total, equiv, survivors, wrong = 0, 0, [], [], []
    # decide n/a in catalogue order, then run the rest JOBS at a time
    plan = []
    for i, mut in enumerate(MUTATIONS):
        name = mut['name']
        if ONLY and ONLY not in name:
            continue
        text, alt = mutate(src[DRV], mut)
        if text is None:
            why = f'no pattern matches {REV}'
        elif mut['series_only'] and base and mutate(base, mut)[0] is not None:
            why = f'{BASE} has the same code: not the series'
        else:
            why = None
        fut = None if why or dry else ex.submit(attempt, i, mut, text)
        plan.append((mut, why, fut))
    for mut, why, fut in plan:
        name = mut['name']
        tag = 'mutant/' + slug(name)
        if why:
            print(f'RESULT skip {tag} (n/a: {why})' if results else
                  f'MUTATION n/a      {name} ({why})')
            continue
        if dry:
            print(f'MUTATION applies  {name}')
            continue
        failed, err = fut.result()
        if err:
            print(f'RESULT fail {tag} (the mutant does not build)' if results else
                  f'MUTATION BUILD    {name}: the mutant does not build\n{err}')
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
        if results:
            if mut['equivalent'] and not failed:
                print(f'RESULT skip {tag} (equivalent: {mut["equivalent"]})')
            elif mut['equivalent']:
                print(f'RESULT fail {tag} (declared equivalent, but {", ".join(tests)} catch it)')
            else:
                print(f'RESULT {"pass" if failed else "fail"} {tag}'
                      + (f' (killed by {tests[0]})' if failed else ' (survives every test)'))
        else:
            print(f'MUTATION {status:9} {name}')
            if failed:
                print(f'    tests: {", ".join(tests)}')
                print(f'    in:    {", ".join(modes)}')
            elif mut['equivalent']:
                print(f'    why:   {mut["equivalent"]}')
        sys.stdout.flush()
    # leave the build directories with the unmutated driver
    if not dry:
        list(ex.map(lambda h: h.load(src[DRV]), pool))
    ex.shutdown()
    print(f'mutation score: {killed}/{total} (equivalent: {", ".join(equiv) or "none"})'
          f' [{REV}, {JOBS} at a time, {time.time() - t0:.0f} s]')
    if wrong:
        print(f'declared equivalent but caught: {", ".join(wrong)}')
    if survivors:
        print(f'survivors: {", ".join(survivors)}')
    return 1 if survivors or wrong else 0


if __name__ == '__main__':
    sys.exit(main())
