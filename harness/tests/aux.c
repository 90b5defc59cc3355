// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX ring buffer arithmetic of the driver against the perf core's
 * ring buffer model: a wakeup at the head must not limit the buffer
 * (patch "Do not pad past the end of the AUX buffer").
 *
 * The perf core keeps aux_head and aux_wakeup when an AUX area is
 * unmapped and another one, of another size, is mapped; a snapshot
 * session moves aux_head and never aux_wakeup.  A new area can so start
 * its first session with the wakeup offset equal to a page-aligned head
 * offset.  The base driver then clamps the buffer to that wakeup, finds
 * no room, and pads handle->size bytes from the head: past the end of
 * the vmap()ed area.  The driver's memset() is bounds-checked in the
 * harness (custom.h), so the overflow is a reported violation.
 */
#include <stdio.h>
#include <string.h>

#include "tests.h"

#define KiB	1024UL

/* One sample on @cpu: the interval counter is brought to its end */
static void one_sample(int cpu)
{
	spe_poke(cpu, SPE_PMSICR, 1);
	hx_run(cpu, spe.sample_delay + 1, NULL, 0);
}

/* PMBPTR_EL1 or PMBLIMITR_EL1.LIMIT as the unit sees it, as an AUX offset */
static u64 unit_off(int cpu, enum spe_reg reg, struct hx_event *e)
{
	u64 v = spe_peek(cpu, reg);

	if (reg == SPE_PMBLIMITR)
		v &= PMBLIMITR_EL1_LIMIT_MASK;
	return v - (uintptr_t)e->rb.aux_base;
}

/*
 * Normal mode: a 16KiB area runs until aux_head is exactly 12KiB.  The
 * watermark is half the area, so aux_wakeup is 8KiB.  Records end where they
 * end, so the unit is stopped at 12KiB by a stage 1 fault part-way through the
 * record that would cross it (PMBPTR is then the faulting address, spe-rules:
 * fault-event), or by pmu::stop() if a record happens to end there.
 */
static bool fill_normal_to_12k(struct hx_event *e)
{
	const u64 target = 12 * KiB;

	for (long n = 0; n < 4000; n++) {
		u64 ptr = unit_off(0, SPE_PMBPTR, e);
		u64 lim = unit_off(0, SPE_PMBLIMITR, e);
		u64 len = spe_record_len(spe_next_seq(), false);

		if (e->ev.hstate != HARNESS_EV_ACTIVE)
			break;
		if (ptr == target) {
			hx_stop(e);
			break;
		}
		if (ptr < target && ptr + len > target && lim > target) {
			spe_inject_fault(0, SPE_FAULT_S1, 0, target - ptr);
			one_sample(0);
			break;
		}
		one_sample(0);
		/* the tool reads as it goes: later windows reach 16KiB */
		hx_consume(e);
	}
	if (e->rb.aux_head != target || e->rb.aux_wakeup != 8 * KiB) {
		fprintf(stderr, "  aux_head %lu, aux_wakeup %lu: wanted 12KiB and 8KiB\n",
			e->rb.aux_head, e->rb.aux_wakeup);
		return false;
	}
	return true;
}

/*
 * Snapshot mode: an 8KiB area runs until the first half is full; the
 * handler pads to the middle and programs the second half; the event is
 * stopped there, so aux_head is 4KiB.  aux_wakeup stays 0.
 */
static bool fill_snapshot_to_4k(struct hx_event *e)
{
	for (long n = 0; n < 100000 && !hx_irq.full_irqs; n++)
		hx_run(0, 1, NULL, 0);
	ASSERT_EQ(1, hx_irq.full_irqs);
	hx_stop(e);
	if (e->rb.aux_head != 4 * KiB || e->rb.aux_wakeup != 0) {
		fprintf(stderr, "  aux_head %lu, aux_wakeup %lu: wanted 4KiB and 0\n",
			e->rb.aux_head, e->rb.aux_wakeup);
		return false;
	}
	return true;
}

/*
 * Run the scenario up to the start of the first session on the new 8KiB
 * area (watermark 4KiB), with the consumer caught up: head and wakeup are
 * both at offset 4KiB of it.  Returns the event, NULL if the scenario
 * could not be set up.  Whatever the driver then did is in spe.violations.
 */
struct hx_event *aux_remap_wakeup_at_head(bool snapshot)
{
	struct hx_event *e;

	if (hx_load())
		return NULL;
	e = open_running(0, snapshot ? 2 : 4, snapshot);
	if (!e || e->ev.hstate != HARNESS_EV_ACTIVE)
		return NULL;
	if (snapshot ? !fill_snapshot_to_4k(e) : !fill_normal_to_12k(e))
		return NULL;
	hx_disable(e);
	hx_munmap_aux(e);
	if (hx_mmap_aux(e, 2, false))
		return NULL;
	if (e->rb.aux_watermark != 4 * KiB || e->rb.user_aux_tail != e->rb.aux_head ||
	    (e->rb.aux_head % (8 * KiB)) != (e->rb.aux_wakeup + 4 * KiB) % (8 * KiB)) {
		fprintf(stderr, "  not at the wakeup: head %lu wakeup %lu watermark %lu tail %lu\n",
			e->rb.aux_head, e->rb.aux_wakeup, e->rb.aux_watermark,
			e->rb.user_aux_tail);
		return NULL;
	}
	/* the violations so far are not about the new area */
	if (spe.nr_violations)
		return NULL;
	hx_enable(e, 0);
	return e;
}

/* The overflow the base driver makes here, as the shim reports it */
bool aux_pad_overflow_reported(void)
{
	return violation_seen(AUX_PAD_OVERFLOW);
}

static bool wakeup_at_head_case(bool snapshot)
{
	struct hx_event *e = aux_remap_wakeup_at_head(snapshot);

	ASSERT_TRUE(e);
	ASSERT_CLEAN();
	/* the whole new area but the byte CIRC_SPACE keeps is programmed */
	ASSERT_TRUE(e->ev.hstate == HARNESS_EV_ACTIVE);
	ASSERT_FALSE(e->ev.hw.state & PERF_HES_STOPPED);
	ASSERT_TRUE(spe_peek(0, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	ASSERT_EQ(4 * KiB, unit_off(0, SPE_PMBPTR, e));
	ASSERT_EQ(8 * KiB, unit_off(0, SPE_PMBLIMITR, e));
	ASSERT_FALSE(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED);
	/* and it goes on as usual */
	hx_run(0, 6L * 2 * OPS_PER_PAGE, e, 500);
	ASSERT_TRUE(hx_irq.full_irqs >= 2);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

TEST(pad_remap_wakeup_at_head, .flags = T_PATCHED)
{
	return wakeup_at_head_case(false);
}

TEST(pad_snapshot_remap_wakeup_at_head, .flags = T_PATCHED)
{
	return wakeup_at_head_case(true);
}
