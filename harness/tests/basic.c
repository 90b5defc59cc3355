// SPDX-License-Identifier: GPL-2.0
/*
 * Scenarios every driver must pass in the architecture it was written
 * for: probe, start/stop, buffer full, wrap, snapshot, truncation,
 * spurious interrupts, stop with an interrupt pending, hotplug.
 */
#include "tests.h"

#define BUF_PAGES	FX_PAGES	/* the area of the FX_RUNNING event */

TEST(probe, .fixture = FX_CLEAN)
{
	ASSERT_TRUE(harness_pmu);
	ASSERT_TRUE(hx_show_cap("count_size"));
	ASSERT_TRUE(!strcmp(hx_show_cap("count_size"), "16\n"));
	ASSERT_TRUE(!strcmp(hx_show_cap("min_interval"), "256\n"));
	/* probe reset every CPU and left it idle: PMBLIMITR_EL1.E clear */
	for (int cpu = 0; cpu < 4; cpu++)
		ASSERT_FALSE(spe_peek(cpu, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	return true;
}

TEST(kpti_refuses_probe)
{
	harness_kpti = true;
	ASSERT_NE(hx_load(), 0);
	ASSERT_FALSE(harness_pmu);
	ASSERT_CLEAN();
	return true;
}

TEST(start_stop, .fixture = FX_CLEAN)
{
	struct hx_event *e;

	e = open_running(0, BUF_PAGES, false);
	ASSERT_TRUE(e && e->ev.hstate == HARNESS_EV_ACTIVE);
	ASSERT_TRUE(spe_peek(0, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	ASSERT_TRUE(spe_peek(0, SPE_PMSCR) & PMSCR_EL1_E0SPE);
	hx_run(0, 20 * PERIOD, NULL, 0);
	hx_disable(e);
	ASSERT_FALSE(spe_peek(0, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	ASSERT_EQ(0, spe_peek(0, SPE_PMSCR));
	ASSERT_TRUE(spe.nr_records >= 15);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_EQ(0, hx_irq.entries);
	/* and again: restart the same event */
	ASSERT_EQ(0, hx_enable(e, 0));
	hx_run(0, 20 * PERIOD, NULL, 0);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	return true;
}

/*
 * No AUX area mapped: start() cannot begin an AUX session, so add()
 * fails and leaves nothing sampling (a normal-mode event; discard mode
 * needs no area, features.c).
 */
TEST(add_without_aux_area, .fixture = FX_CLEAN)
{
	struct hx_event *e;
	int err;

	e = hx_open(1, 0, PERIOD, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(-EINVAL, hx_enable(e, 1));
	ASSERT_FALSE(spe_peek(1, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	ASSERT_EQ(0, spe_peek(1, SPE_PMSCR));
	hx_run(1, 10 * PERIOD, NULL, 0);
	ASSERT_EQ(0, spe.nr_records);
	ASSERT_EQ(0, hx_irq.entries);
	hx_close(e);
	return true;
}

TEST(buffer_full_reprogram, .fixture = FX_RUNNING)
{
	struct hx_event *e = fx->event;

	/* the perf tool drains the buffer often: profiling never stops */
	hx_run(0, 6L * BUF_PAGES * OPS_PER_PAGE, e, 2000);
	ASSERT_TRUE(hx_irq.full_irqs >= 4);
	ASSERT_EQ(0, hx_irq.storms);
	ASSERT_TRUE(e->ev.hstate == HARNESS_EV_ACTIVE);
	ASSERT_FALSE(e->ev.hw.state & PERF_HES_STOPPED);
	ASSERT_TRUE(spe_peek(0, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	ASSERT_FALSE(spe_peek(0, SPE_PMBSR) & PMBSR_EL1_S);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_FALSE(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED);
	return true;
}

TEST(wrap, .fixture = FX_RUNNING)
{
	struct hx_event *e = fx->event;
	unsigned long size = BUF_PAGES * PAGE_SIZE;

	hx_run(0, 10L * BUF_PAGES * OPS_PER_PAGE, e, 1000);
	hx_disable(e);
	/* aux_head went round the buffer at least twice */
	ASSERT_TRUE(e->rb.aux_head > 2 * size);
	ASSERT_TRUE(hx_check_data(e));
	return true;
}

TEST(snapshot, .fixture = FX_CLEAN)
{
	struct hx_event *e;
	unsigned long size = BUF_PAGES * PAGE_SIZE;
	uintptr_t base;
	struct spe_record *last = NULL;

	e = open_running(0, BUF_PAGES, true);
	ASSERT_TRUE(e);
	base = (uintptr_t)e->rb.aux_base;
	hx_run(0, 6L * BUF_PAGES * OPS_PER_PAGE, NULL, 0);
	/* snapshot mode programs half the buffer at a time */
	ASSERT_TRUE(hx_irq.full_irqs >= 6);
	ASSERT_EQ(0, hx_irq.storms);
	ASSERT_TRUE(e->ev.hstate == HARNESS_EV_ACTIVE);
	hx_disable(e);
	ASSERT_TRUE(e->rb.nr_recs > 0);
	ASSERT_TRUE(e->rb.recs[e->rb.nr_recs - 1].flags & PERF_AUX_FLAG_OVERWRITE);
	for (size_t i = 0; i < spe.nr_records; i++)
		if (spe.records[i].addr >= base && spe.records[i].addr < base + size)
			last = &spe.records[i];
	ASSERT_TRUE(last);
	/* aux_head is where the newest record ends */
	ASSERT_EQ((last->addr + last->len - base) % size, e->rb.aux_head % size);
	return true;
}

TEST(truncation, .fixture = FX_RUNNING)
{
	struct hx_event *e = fx->event;

	/* nobody reads the buffer: it fills, the event must stop, flagged */
	hx_run(0, 4L * BUF_PAGES * OPS_PER_PAGE, NULL, 0);
	ASSERT_TRUE(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED);
	ASSERT_TRUE(e->ev.hstate != HARNESS_EV_ACTIVE ||
		    (e->ev.hw.state & PERF_HES_STOPPED));
	ASSERT_FALSE(spe_peek(0, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	ASSERT_FALSE(spe_peek(0, SPE_PMBSR) & PMBSR_EL1_S);
	ASSERT_EQ(0, hx_irq.storms);
	ASSERT_TRUE(hx_check_data(e));
	return true;
}

TEST(spurious_irq)
{
	struct hx_event *e;
	u64 writes;
	irqreturn_t ret;

	ASSERT_EQ(0, hx_load());
	e = open_running(0, BUF_PAGES, false);
	ASSERT_TRUE(e);
	hx_run(0, 10 * PERIOD, NULL, 0);
	/* the GIC delivers PMBIRQ although PMBSR.S is 0 */
	writes = spe.stats.writes;
	harness_cur_cpu = 0;
	spe_context_sync(0);
	ret = harness_driver_irq_handler(0);
	spe_context_sync(0);
	ASSERT_EQ(IRQ_NONE, ret);
	ASSERT_EQ(writes, spe.stats.writes);
	ASSERT_TRUE(spe_peek(0, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	hx_run(0, 10 * PERIOD, NULL, 0);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

TEST(stop_with_irq_pending, .fixture = FX_RUNNING)
{
	struct hx_event *e = fx->event;
	long n;

	/* interrupts masked: the buffer fills, PMBIRQ stays pending */
	hx_set_irqs_masked(0, true);
	for (n = 0; n < 4L * BUF_PAGES * OPS_PER_PAGE && !spe_irq_level(0); n++)
		hx_run(0, 1, NULL, 0);
	ASSERT_TRUE(spe_irq_level(0));
	/* perf core schedules the event out before the IRQ is taken */
	hx_disable(e);
	hx_set_irqs_masked(0, false);
	hx_deliver(0);
	ASSERT_EQ(0, hx_irq.entries);
	ASSERT_FALSE(spe_irq_level(0));
	ASSERT_FALSE(spe_peek(0, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	ASSERT_TRUE(hx_check_data(e));
	/* the event can run again afterwards */
	ASSERT_EQ(0, hx_enable(e, 0));
	hx_run(0, 10 * PERIOD, e, 1000);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	return true;
}

TEST(per_task_migrate, .fixture = FX_CLEAN)
{
	struct hx_event *e;

	e = open_running(-1, BUF_PAGES, false);
	ASSERT_TRUE(e);
	for (int i = 0; i < 6; i++) {
		int cpu = i % 3;

		if (i)
			ASSERT_EQ(0, hx_enable(e, cpu));
		hx_run(cpu, BUF_PAGES * OPS_PER_PAGE, e, 1000);
		hx_disable(e);	/* context switch out */
	}
	ASSERT_TRUE(hx_irq.full_irqs >= 2);
	ASSERT_TRUE(hx_check_data(e));
	return true;
}

TEST(cpu_offline_online, .fixture = FX_CLEAN)
{
	struct hx_event *e;

	hx_cpu_offline(2);
	ASSERT_FALSE(spe_peek(2, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	hx_cpu_online(2);
	e = open_running(2, BUF_PAGES, false);
	ASSERT_TRUE(e);
	hx_run(2, 3L * BUF_PAGES * OPS_PER_PAGE, e, 1000);
	ASSERT_TRUE(hx_irq.full_irqs >= 2);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	return true;
}

TEST(collision_flag, .fixture = FX_RUNNING)
{
	struct hx_event *e = fx->event;
	bool seen = false;

	spe_inject_collision(0);
	hx_run(0, 2L * BUF_PAGES * OPS_PER_PAGE, e, 1000);
	hx_disable(e);
	for (int i = 0; i < e->rb.nr_recs; i++)
		seen |= e->rb.recs[i].flags & PERF_AUX_FLAG_COLLISION;
	ASSERT_TRUE(seen);
	ASSERT_TRUE(hx_check_data(e));
	return true;
}

TEST(kernel_samples)
{
	struct hx_event *e;

	/* the workload runs at EL1: E1SPE selects, records flow the same */
	ASSERT_EQ(0, hx_load());
	spe.el = 1;
	e = open_running(0, BUF_PAGES, false);
	ASSERT_TRUE(e);
	hx_run(0, 3L * BUF_PAGES * OPS_PER_PAGE, e, 1000);
	hx_disable(e);
	ASSERT_TRUE(hx_irq.full_irqs >= 2);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}
