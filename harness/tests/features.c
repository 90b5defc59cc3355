// SPDX-License-Identifier: GPL-2.0
/*
 * Features of newer drivers (7.x): Discard mode (PMBLIMITR_EL1.FM =
 * DISCARD: the buffer is enabled, records are formatted and dropped, no
 * AUX area is needed), caps/event_filter probed from PMSEVFR_EL1, and the
 * FEAT_SPE_EFT and FEAT_SPE_FDS filters.  A driver without the feature
 * reports RESULT skip: the feature is found in the driver source (main.c)
 * or its sysfs, never by kernel version.
 */
#include <stdio.h>

#include "tests.h"

#define BUF_PAGES	FX_PAGES	/* the area of the FX_RUNNING event */

/* PMSFCR_EL1 fields of the optional filters, where the revision names them */
#ifdef PMSFCR_EL1_Bm
#define FCR_EFT		(PMSFCR_EL1_Bm | PMSFCR_EL1_LDm | PMSFCR_EL1_SIMD | \
			 PMSFCR_EL1_FPm)
#else
#define FCR_EFT		0ULL
#endif
#ifdef PMSFCR_EL1_FDS
#define FCR_FDS		PMSFCR_EL1_FDS
#else
#define FCR_FDS		0ULL
#endif

/* perf record -e arm_spe/discard/ : the term as the sysfs format gives it */
static struct hx_event *open_discard(int cpu, int *err)
{
	struct perf_event_attr attr = {
		.type = harness_pmu->type,
		.sample_period = PERIOD,
	};

	if (!hx_set_format(&attr, "discard", 1)) {
		fprintf(stderr, "  no format/discard\n");
		*err = -ENOENT;
		return NULL;
	}
	return hx_open_attr(cpu, &attr, err);
}

/* The buffer is enabled in Discard mode on @cpu */
static bool discarding(int cpu)
{
	u64 lim = spe_peek(cpu, SPE_PMBLIMITR);

	return (lim & PMBLIMITR_EL1_E) &&
	       FIELD_GET(PMBLIMITR_EL1_FM, lim) == PMBLIMITR_EL1_FM_DISCARD &&
	       !(spe_peek(cpu, SPE_PMBSR) & PMBSR_EL1_S);
}

/*
 * The model in Discard mode, without a driver: records are formatted and
 * dropped, PMBPTR_EL1 stays, no buffer-full event.  R24557 (PMB* writes
 * ignored while E && !S) does not apply in Discard mode; DEN0154 SFDXJJ
 * (ignored while E) does.  Clearing E is never ignored.
 */
TEST(model_discard_rules)
{
	u64 lim = FIELD_PREP(PMBLIMITR_EL1_FM, PMBLIMITR_EL1_FM_DISCARD) |
		  PMBLIMITR_EL1_E;

	spe_poke(0, SPE_PMBPTR, 0x1000);
	spe_poke(0, SPE_PMBLIMITR, lim);
	spe_poke(0, SPE_PMSIRR, PERIOD);
	spe_poke(0, SPE_PMSCR, PMSCR_EL1_E0SPE);
	for (int i = 0; i < 20 * PERIOD; i++)
		spe_op(0);
	ASSERT_TRUE(spe.stats.discarded >= 10);
	ASSERT_EQ(0, spe.nr_records);
	ASSERT_EQ(0x1000, spe_peek(0, SPE_PMBPTR));
	ASSERT_FALSE(spe_irq_level(0));

	spe_write(0, SYS_PMBPTR_EL1, 0x2000, __func__, __LINE__);
	spe_isb(0, __func__, __LINE__);
	if (spe.mode == SPE_MODE_DEN0154) {
		ASSERT_EQ(1, spe.nr_ignored);
		ASSERT_EQ(0x1000, spe_peek(0, SPE_PMBPTR));
		/* the violation is the point here */
		spe.nr_violations = 0;
	} else {
		ASSERT_EQ(0, spe.nr_ignored);
		ASSERT_EQ(0x2000, spe_peek(0, SPE_PMBPTR));
	}
	spe_write(0, SYS_PMBLIMITR_EL1, 0, __func__, __LINE__);
	spe_isb(0, __func__, __LINE__);
	ASSERT_FALSE(spe_peek(0, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	ASSERT_CLEAN();
	return true;
}

/* An event with discard=1 opens and runs with no AUX area; nothing is written */
TEST(discard_no_aux_area, .fixture = FX_CLEAN)
{
	struct hx_event *e;
	u64 ptr;
	int err;

	SKIP_UNLESS_DRIVER(HARNESS_DRV_DISCARD, "driver has no discard mode");
	/* the unit is SPEv1p2: the driver offers the term */
	ASSERT_TRUE(hx_show_format("discard"));
	e = open_discard(0, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(0, err);
	ptr = spe_peek(0, SPE_PMBPTR);
	/* no mmap of an AUX area: add() starts it all the same */
	ASSERT_EQ(0, hx_enable(e, 0));
	ASSERT_TRUE(e->ev.hstate == HARNESS_EV_ACTIVE);
	ASSERT_FALSE(e->ev.hw.state & PERF_HES_STOPPED);
	ASSERT_TRUE(discarding(0));
	ASSERT_TRUE(spe_peek(0, SPE_PMSCR) & PMSCR_EL1_E0SPE);
	/* as many samples as would fill a 4-page buffer six times over */
	hx_run(0, 6L * BUF_PAGES * OPS_PER_PAGE, NULL, 0);
	ASSERT_TRUE(spe.stats.discarded >= 1000);
	ASSERT_TRUE(discarding(0));
	/* nothing reached memory, the pointer never moved, no interrupt */
	ASSERT_EQ(0, spe.nr_records);
	ASSERT_EQ(ptr, spe_peek(0, SPE_PMBPTR));
	ASSERT_EQ(0, hx_irq.entries);
	ASSERT_EQ(0, spe.stats.full_events);
	hx_disable(e);
	ASSERT_FALSE(spe_peek(0, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	ASSERT_EQ(0, spe_peek(0, SPE_PMSCR));
	return true;
}

/*
 * Start and stop: per-task, across CPUs (add/del), and in place
 * (stop(UPDATE)/start(RELOAD), as perf_event_stop() and the period ioctl
 * do).  The interval counter is saved and reloaded; no sample is taken
 * while stopped.
 */
TEST(discard_start_stop, .fixture = FX_CLEAN)
{
	struct hx_event *e;
	u64 before, icr;
	int err;

	SKIP_UNLESS_DRIVER(HARNESS_DRV_DISCARD, "driver has no discard mode");
	e = open_discard(-1, &err);
	ASSERT_TRUE(e);
	for (int cpu = 0; cpu < 3; cpu++) {
		before = spe.stats.discarded;
		ASSERT_EQ(0, hx_enable(e, cpu));
		ASSERT_TRUE(discarding(cpu));
		hx_run(cpu, 20 * PERIOD + 7, NULL, 0);
		ASSERT_TRUE(spe.stats.discarded > before);

		hx_stop(e);
		ASSERT_TRUE(e->ev.hw.state & PERF_HES_STOPPED);
		ASSERT_FALSE(spe_peek(cpu, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
		ASSERT_EQ(0, spe_peek(cpu, SPE_PMSCR));
		icr = spe_peek(cpu, SPE_PMSICR);
		ASSERT_EQ(icr, local64_read(&e->ev.hw.period_left));
		before = spe.stats.discarded;
		hx_run(cpu, 20 * PERIOD, NULL, 0);
		ASSERT_EQ(before, spe.stats.discarded);

		hx_start(e, PERF_EF_RELOAD);
		ASSERT_FALSE(e->ev.hw.state & PERF_HES_STOPPED);
		ASSERT_TRUE(discarding(cpu));
		ASSERT_EQ(icr, spe_peek(cpu, SPE_PMSICR));
		hx_run(cpu, 20 * PERIOD, NULL, 0);
		ASSERT_TRUE(spe.stats.discarded > before);

		hx_disable(e);		/* context switch out */
		ASSERT_FALSE(spe_peek(cpu, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
		ASSERT_EQ(0, spe_peek(cpu, SPE_PMSCR));
	}
	ASSERT_EQ(0, spe.nr_records);
	ASSERT_EQ(0, hx_irq.entries);
	return true;
}

/*
 * An AUX area mapped on a discard-mode event stays untouched: no byte
 * written, no PERF_RECORD_AUX, and the hypervisor's buffer checks do not
 * apply (no buffer-size event).  A normal event on another CPU at the
 * same time does write, so the model is not simply idle.
 */
TEST(discard_aux_area_untouched, .fixture = FX_CLEAN)
{
	struct hx_event *d, *n;
	const unsigned char *p;
	int err;

	SKIP_UNLESS_DRIVER(HARNESS_DRV_DISCARD, "driver has no discard mode");
	d = open_discard(0, &err);
	ASSERT_TRUE(d);
	ASSERT_EQ(0, hx_mmap_aux(d, BUF_PAGES, false));
	spe_refuse_next_enable(0);
	ASSERT_EQ(0, hx_enable(d, 0));
	n = open_running(1, BUF_PAGES, false);
	ASSERT_TRUE(n && n->ev.hstate == HARNESS_EV_ACTIVE);
	for (int i = 0; i < 6; i++) {
		hx_run(0, BUF_PAGES * OPS_PER_PAGE, NULL, 0);
		hx_run(1, BUF_PAGES * OPS_PER_PAGE, n, 1000);
	}
	ASSERT_TRUE(discarding(0));
	ASSERT_EQ(0, spe.stats.size_events);
	ASSERT_TRUE(spe.stats.discarded >= 1000);
	hx_disable(d);
	hx_disable(n);
	ASSERT_EQ(0, d->rb.nr_recs);
	ASSERT_EQ(0, d->rb.aux_head);
	p = d->rb.aux_base;
	for (size_t i = 0; i < BUF_PAGES * PAGE_SIZE; i++)
		ASSERT_EQ(0xa5, p[i]);
	/* every record the unit wrote went to the normal event's area */
	ASSERT_TRUE(spe.nr_records > 0);
	for (size_t i = 0; i < spe.nr_records; i++)
		ASSERT_EQ(1, spe.records[i].cpu);
	ASSERT_TRUE(hx_check_data(n));
	return true;
}

/*
 * No interrupt at all in Discard mode (no buffer-full, no size event, no
 * fault), so no storm under DEN0154 either, even with a hypervisor that
 * would refuse any buffer; a spurious PMBIRQ is not claimed and writes
 * nothing.
 */
TEST(discard_no_irq_storm)
{
	struct hx_event *e;
	u64 writes;
	int err;

	hx_set_max_buff_size_all(0x0001);	/* 4 KiB: below 2 pages */
	ASSERT_EQ(0, hx_load());
	SKIP_UNLESS_DRIVER(HARNESS_DRV_DISCARD, "driver has no discard mode");
	e = open_discard(2, &err);
	ASSERT_TRUE(e);
	spe_refuse_next_enable(2);
	ASSERT_EQ(0, hx_enable(e, 2));
	for (int i = 0; i < 8; i++) {
		hx_run(2, BUF_PAGES * OPS_PER_PAGE, NULL, 0);
		ASSERT_FALSE(spe_irq_level(2));
		ASSERT_TRUE(discarding(2));
	}
	writes = spe.stats.writes;
	harness_cur_cpu = 2;
	spe_context_sync(2);
	ASSERT_EQ(IRQ_NONE, harness_driver_irq_handler(2));
	spe_context_sync(2);
	harness_cur_cpu = 0;
	ASSERT_EQ(writes, spe.stats.writes);
	ASSERT_TRUE(discarding(2));
	ASSERT_EQ(0, hx_irq.entries);
	ASSERT_EQ(0, hx_irq.storms);
	ASSERT_EQ(0, spe.stats.size_events);
	hx_disable(e);
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/* caps/max_buff_size limits what is written; a discard AUX area may be larger */
TEST(discard_ignores_max_buff_size, .flags = T_PATCHED)
{
	struct hx_event *e;
	int err;

	hx_set_max_buff_size_all(0x0100);	/* 1 MiB */
	ASSERT_EQ(0, hx_load());
	SKIP_UNLESS_DRIVER(HARNESS_DRV_DISCARD, "driver has no discard mode");
	e = hx_open(0, 0, PERIOD, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(-ENOMEM, hx_mmap_aux(e, 512, false));
	hx_close(e);
	e = open_discard(0, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(0, hx_mmap_aux(e, 512, false));	/* 2 MiB */
	ASSERT_EQ(0, hx_enable(e, 0));
	hx_run(0, 40 * PERIOD, NULL, 0);
	ASSERT_TRUE(discarding(0));
	ASSERT_EQ(0, spe.stats.size_events);
	hx_disable(e);
	ASSERT_EQ(0, e->rb.nr_recs);
	ASSERT_EQ(0, spe.nr_records);
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/*
 * caps/event_filter: the PMSEVFR_EL1 bits the unit implements, probed by
 * the driver with a write of all ones (the RES0 bits are RAZ/WI); an
 * event or inverse event filter on a RES0 bit is refused.
 */
TEST(caps_event_filter, .fixture = FX_CLEAN)
{
	struct perf_event_attr attr = { .sample_period = PERIOD };
	const char *cap;
	struct hx_event *e;
	char want[32];
	int err;

	cap = hx_show_cap("event_filter");
	SKIP(!cap, "driver has no caps/event_filter");
	snprintf(want, sizeof(want), "0x%llx\n",
		 (unsigned long long)spe_pmsevfr_implemented());
	if (strcmp(cap, want)) {
		fprintf(stderr, "  caps/event_filter: got '%s', want '%s'\n", cap, want);
		return false;
	}
	attr.type = harness_pmu->type;
	/* bit 0 is RES0, bit 1 (retired) is implemented */
	ASSERT_TRUE(hx_set_format(&attr, "event_filter", BIT_ULL(0)));
	ASSERT_FALSE(hx_open_attr(0, &attr, &err));
	ASSERT_EQ(-EOPNOTSUPP, err);
	attr.config1 = 0;
	ASSERT_TRUE(hx_set_format(&attr, "inv_event_filter", BIT_ULL(8)));
	ASSERT_FALSE(hx_open_attr(0, &attr, &err));
	ASSERT_EQ(-EOPNOTSUPP, err);
	attr.config3 = 0;
	ASSERT_TRUE(hx_set_format(&attr, "event_filter", BIT_ULL(1)));
	e = hx_open_attr(0, &attr, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(0, hx_mmap_aux(e, BUF_PAGES, false));
	ASSERT_EQ(0, hx_enable(e, 0));
	ASSERT_EQ(BIT_ULL(1), spe_peek(0, SPE_PMSEVFR));
	ASSERT_TRUE(spe_peek(0, SPE_PMSFCR) & PMSFCR_EL1_FE);
	hx_run(0, 20 * PERIOD, e, 1000);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	return true;
}

/*
 * FEAT_SPE_EFT: the AND masks and the SIMD/FP filters are offered and
 * programmed on a unit that has it, hidden and refused on one that does
 * not (the model flags PMSFCR_EL1 bits of filters it lacks).
 */
TEST(filters_eft)
{
	struct perf_event_attr attr = { .sample_period = PERIOD };
	static const char *const terms[] = {
		"branch_filter", "branch_filter_mask", "load_filter",
		"load_filter_mask", "simd_filter", "float_filter_mask",
	};
	struct hx_event *e;
	int err;

	spe_set_features(true, false);
	ASSERT_EQ(0, hx_load());
	SKIP_UNLESS_DRIVER(HARNESS_DRV_EFT, "driver has no FEAT_SPE_EFT filters");
	SKIP(!FCR_EFT, "sysreg has no PMSFCR_EL1 EFT fields");
	attr.type = harness_pmu->type;
	for (size_t i = 0; i < ARRAY_SIZE(terms); i++)
		ASSERT_TRUE(hx_set_format(&attr, terms[i], 1));
	e = hx_open_attr(0, &attr, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(0, hx_mmap_aux(e, BUF_PAGES, false));
	ASSERT_EQ(0, hx_enable(e, 0));
	ASSERT_EQ(FCR_EFT, spe_peek(0, SPE_PMSFCR) & FCR_EFT);
	ASSERT_TRUE(spe_peek(0, SPE_PMSFCR) & PMSFCR_EL1_FT);
	hx_run(0, 20 * PERIOD, e, 1000);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	hx_unload();

	/* the same request on a unit without FEAT_SPE_EFT */
	hx_reset(4, spe.mode, spe.visibility);
	ASSERT_EQ(0, hx_load());
	ASSERT_FALSE(hx_show_format("branch_filter_mask"));
	ASSERT_TRUE(hx_show_format("branch_filter"));
	attr.type = harness_pmu->type;
	ASSERT_FALSE(hx_open_attr(0, &attr, &err));
	ASSERT_EQ(-EOPNOTSUPP, err);
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/*
 * FEAT_SPE_FDS: inv_data_src_filter (config4) is written inverted to
 * PMSDSFR_EL1 with PMSFCR_EL1.FDS; without the term every source is
 * kept.  Without the feature the term is hidden, refused, and
 * PMSDSFR_EL1 (UNDEFINED then) is never touched.
 */
TEST(filters_fds)
{
	struct perf_event_attr attr = { .sample_period = PERIOD };
	struct hx_event *e;
	int err;

	spe_set_features(false, true);
	ASSERT_EQ(0, hx_load());
	SKIP_UNLESS_DRIVER(HARNESS_DRV_FDS, "driver has no FEAT_SPE_FDS filter");
	SKIP(!FCR_FDS, "sysreg has no PMSFCR_EL1.FDS");
	attr.type = harness_pmu->type;
	ASSERT_TRUE(hx_set_format(&attr, "inv_data_src_filter", 0xf0));
	ASSERT_EQ(0xf0, attr.config4);
	e = hx_open_attr(0, &attr, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(0, hx_mmap_aux(e, BUF_PAGES, false));
	ASSERT_EQ(0, hx_enable(e, 0));
	ASSERT_EQ(~0xf0ULL, spe_peek(0, SPE_PMSDSFR));
	ASSERT_TRUE(spe_peek(0, SPE_PMSFCR) & FCR_FDS);
	hx_run(0, 20 * PERIOD, e, 1000);
	hx_close(e);
	/* no term: no filtering */
	e = open_running(1, BUF_PAGES, false);
	ASSERT_TRUE(e && e->ev.hstate == HARNESS_EV_ACTIVE);
	ASSERT_EQ(~0ULL, spe_peek(1, SPE_PMSDSFR));
	ASSERT_FALSE(spe_peek(1, SPE_PMSFCR) & FCR_FDS);
	hx_close(e);
	ASSERT_CLEAN();
	hx_unload();

	hx_reset(4, spe.mode, spe.visibility);
	ASSERT_EQ(0, hx_load());
	ASSERT_FALSE(hx_show_format("inv_data_src_filter"));
	attr.type = harness_pmu->type;
	ASSERT_FALSE(hx_open_attr(0, &attr, &err));
	ASSERT_EQ(-EOPNOTSUPP, err);
	e = open_running(0, BUF_PAGES, false);
	ASSERT_TRUE(e && e->ev.hstate == HARNESS_EV_ACTIVE);
	hx_run(0, 20 * PERIOD, e, 1000);
	hx_close(e);
	ASSERT_CLEAN();
	hx_unload();
	return true;
}
