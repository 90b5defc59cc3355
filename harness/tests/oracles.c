// SPDX-License-Identifier: GPL-2.0
/*
 * Scenarios the mutation check (scripts/mutate.py) needed: each pins down
 * a behaviour that a plausible mistake in a function the series touches
 * would change, and that no other test looked at.
 *
 *  - an interrupt the unit did not raise is not claimed, with or without
 *    an AUX handle (the kernel's spurious-interrupt detection relies on
 *    IRQ_NONE);
 *  - a buffer-size event (spe-rules: buffer-size-event: EC 0, BSC
 *    0b000100, DL 0) is one event: one message, TRUNCATED but not PARTIAL
 *    (no record was cut), and the message measures the window the
 *    hypervisor refused, from the head of the session, not from the start
 *    of the AUX area;
 *  - MaxBuffSize with reserved bits, and limits below and at the two
 *    pages the driver needs, are reported as documented (spe-rules:
 *    maxbuffsize), and no limit is not reported at all;
 *  - a buffer-size event pending when the core stops the event is
 *    handled there as in the handler, and its message does not wrap;
 *  - an AUX area of one page is refused;
 *  - the interval counter survives the driver's own stop;
 *  - the AUX watermark is honoured, and data userspace has not read is
 *    never written over (spe-rules: aux-unread-data).
 */
#include <stdio.h>
#include <string.h>

#include "tests.h"

/* PMBIRQ taken with PMBSR_EL1.S clear: not claimed, nothing written */
static bool spurious_not_claimed(int cpu)
{
	u64 writes = spe.stats.writes;
	int save = harness_cur_cpu;
	irqreturn_t ret;

	ASSERT_FALSE(spe_irq_level(cpu));
	harness_cur_cpu = cpu;
	spe_context_sync(cpu);		/* exception entry */
	ret = harness_driver_irq_handler(cpu);
	spe_context_sync(cpu);		/* exception return */
	harness_cur_cpu = save;
	ASSERT_EQ(IRQ_NONE, ret);
	ASSERT_EQ(writes, spe.stats.writes);
	return true;
}

TEST(no_handle_spurious_not_claimed, .fixture = FX_CLEAN)
{
	struct hx_event *e;

	/* no event was ever added on CPU1 */
	ASSERT_TRUE(spurious_not_claimed(1));
	/* an event ran on CPU0 and was deleted: its handle is gone */
	e = open_running(0, 4, false);
	ASSERT_TRUE(e);
	hx_run(0, 10 * PERIOD, e, 1000);
	hx_disable(e);
	ASSERT_TRUE(spurious_not_claimed(0));
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_EQ(0, hx_irq.storms);
	return true;
}

/* One size event: one message, TRUNCATED, not PARTIAL, event stopped */
TEST(size_event_one_event, .flags = T_PATCHED)
{
	struct hx_event *e;

	hx_set_max_buff_size_all(0x0400);	/* 4 MiB */
	ASSERT_EQ(0, hx_load());
	ASSERT_EQ(0, hx_log_count("err"));
	spe_refuse_next_enable(0);
	e = open_running(0, 4, false);
	ASSERT_TRUE(e);
	hx_run(0, 10 * PERIOD, e, 1000);
	ASSERT_EQ(1, spe.stats.size_events);
	ASSERT_EQ(0, hx_irq.storms);
	ASSERT_TRUE(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED);
	/* spe-rules: buffer-size-event: DL is 0, no record is partial */
	ASSERT_FALSE(e->rb.all_flags & PERF_AUX_FLAG_PARTIAL);
	/* a known status code: reported once, as what it is */
	ASSERT_EQ(1, hx_log_count("err"));
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/*
 * A window refused in the middle of the AUX area: the session starts at
 * the head the first one left, and the message gives the size of the
 * window PMBPTR_EL1..LIMIT that the hypervisor refused.
 */
TEST(size_event_window_at_head, .flags = T_PATCHED)
{
	char want[32];
	struct hx_event *e;

	hx_set_max_buff_size_all(0x0400);	/* 4 MiB */
	ASSERT_EQ(0, hx_load());
	e = open_running(0, 8, false);
	ASSERT_TRUE(e);
	hx_run(0, 40 * PERIOD, e, 1000);
	hx_stop(e);
	/* the first session wrote something: the next one starts above 0 */
	ASSERT_TRUE(e->rb.aux_head % (8 * PAGE_SIZE));
	spe_refuse_next_enable(0);
	hx_start(e, 0);
	hx_run(0, 10 * PERIOD, e, 1000);
	ASSERT_EQ(1, spe.stats.size_events);
	ASSERT_EQ(0, hx_irq.storms);
	ASSERT_TRUE(spe.size_event_window > 0);
	snprintf(want, sizeof(want), " %llu ",
		 (unsigned long long)spe.size_event_window);
	if (!hx_log_has("err", want)) {
		fprintf(stderr, "  no message names the refused window of%sbytes\n", want);
		hx_log_dump();
		return false;
	}
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/*
 * A buffer-size event still pending when the core stops the event
 * (pmu::stop(PERF_EF_UPDATE) reaches it before PMBIRQ): stop() handles it
 * as the handler would (spe-rules: buffer-size-event: fatal, TRUNCATED),
 * leaves sampling and the buffer off with no syndrome (R_TSJRP: PMBIRQ
 * drops), and its message names the window the hypervisor refused.
 * stop() has disabled the buffer before it reads the fault, so
 * PMBLIMITR_EL1 reads 0 there: a size computed from the register says
 * "0 bytes", or wraps below the head.
 */
TEST(size_event_pending_at_stop, .flags = T_PATCHED)
{
	unsigned long long bytes;
	const char *line;
	struct hx_event *e;
	int n;

	hx_set_max_buff_size_all(0x0400);	/* 4 MiB */
	ASSERT_EQ(0, hx_load());
	e = open_running(0, 4, false);
	ASSERT_TRUE(e);
	hx_run(0, 10 * PERIOD, e, 1000);
	hx_stop(e);
	/* the hypervisor refuses the buffer start() enables; PMBIRQ waits */
	hx_set_irqs_masked(0, true);
	spe_refuse_next_enable(0);
	hx_start(e, PERF_EF_RELOAD);
	hx_run(0, 1, NULL, 0);
	ASSERT_EQ(1, spe.stats.size_events);
	ASSERT_TRUE(spe_irq_level(0));
	hx_stop(e);
	ASSERT_FALSE(spe_irq_level(0));
	ASSERT_TRUE(handler_left_unit_quiet(0));
	ASSERT_TRUE(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED);
	line = hx_log_line("err", "Buffer of ");
	ASSERT_TRUE(line);
	n = sscanf(strstr(line, "Buffer of "), "Buffer of %llu", &bytes);
	ASSERT_EQ(1, n);
	ASSERT_TRUE(spe.size_event_window > 0);
	if (bytes != spe.size_event_window) {
		fprintf(stderr, "  the hypervisor refused %llu bytes: %s",
			(unsigned long long)spe.size_event_window, line);
		return false;
	}
	hx_set_irqs_masked(0, false);
	hx_deliver(0);
	ASSERT_EQ(0, hx_irq.storms);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/* Load with every CPU at @field; the number of warnings printed */
static int warnings_at_load(u16 field)
{
	hx_reset(4, spe.mode, spe.visibility);
	hx_set_max_buff_size_all(field);
	if (hx_load())
		return -1;
	return hx_log_count("warn");
}

/* Reserved MaxBuffSize bits [15:14]: ignored for the size, but reported */
TEST(caps_reserved_bits_reported, .flags = T_PATCHED)
{
	ASSERT_EQ(0, warnings_at_load(0x0100));
	ASSERT_TRUE(cap_is("1048576\n"));
	ASSERT_CLEAN();
	hx_unload();
	ASSERT_TRUE(warnings_at_load(0xc100) >= 1);
	ASSERT_TRUE(cap_is("1048576\n"));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/*
 * No limit (MaxBuffSize 0 on every CPU, as hardware reads it: spe-rules:
 * maxbuffsize) is not a limit below two pages: nothing is reported, on one
 * CPU or many, and a CPU without a limit among limited ones adds nothing.
 */
TEST(caps_no_limit_no_warning, .flags = T_PATCHED)
{
	ASSERT_EQ(0, warnings_at_load(0x0000));
	ASSERT_TRUE(cap_is("0\n"));
	ASSERT_CLEAN();
	hx_unload();
	hx_reset(4, spe.mode, spe.visibility);
	spe_set_max_buff_size(0, 0x0100);	/* 1 MiB */
	ASSERT_EQ(0, hx_load());
	ASSERT_EQ(0, hx_log_count("warn"));
	ASSERT_TRUE(cap_is("1048576\n"));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/* A limit below the two pages SPE needs is reported; two pages are not */
TEST(caps_small_limit_reported, .flags = T_PATCHED)
{
	struct hx_event *e;
	int err;

	ASSERT_EQ(0, warnings_at_load(0x0002));		/* 8 KiB: two pages */
	e = hx_open(0, 0, PERIOD, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(0, hx_mmap_aux(e, 2, false));
	hx_close(e);
	ASSERT_CLEAN();
	hx_unload();
	ASSERT_TRUE(warnings_at_load(0x0001) >= 1);	/* 4 KiB */
	e = hx_open(0, 0, PERIOD, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(-ENOMEM, hx_mmap_aux(e, 2, false));
	hx_close(e);
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/* The driver needs two pages: one is refused in either mode */
TEST(aux_one_page_refused, .fixture = FX_CLEAN)
{
	struct hx_event *e;
	int err;

	for (int snap = 0; snap < 2; snap++) {
		e = hx_open(0, 0, PERIOD, &err);
		ASSERT_TRUE(e);
		ASSERT_EQ(-ENOMEM, hx_mmap_aux(e, 1, snap));
		ASSERT_EQ(0, hx_mmap_aux(e, 2, snap));
		hx_close(e);
	}
	return true;
}

/*
 * perf_event.h: "->start() with PERF_EF_RELOAD will reprogram the counter
 * value, must be preceded by a ->stop() with PERF_EF_UPDATE".  When the
 * driver stops the event itself (no room left for a new session), the
 * interval counter it held (spe-rules: interval: PMSICR_EL1 holds its
 * value while sampling is off) must be where sampling resumes once the
 * event is enabled again.
 */
TEST(truncation_keeps_interval, .fixture = FX_RUNNING)
{
	struct hx_event *e = fx->event;
	u64 icr, earlier;

	/* a stop and restart in place part-way through an interval */
	hx_run(0, 10 * PERIOD + PERIOD / 3, e, 500);
	hx_stop(e);
	earlier = local64_read(&e->ev.hw.period_left);
	hx_start(e, 0);
	/* nobody reads the buffer: it fills and the driver stops the event */
	hx_run(0, 4L * FX_PAGES * OPS_PER_PAGE, NULL, 0);
	ASSERT_TRUE(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED);
	ASSERT_TRUE(e->ev.hw.state & PERF_HES_STOPPED);
	icr = spe_peek(0, SPE_PMSICR);
	/* the scenario tells the interval now from the one saved earlier */
	ASSERT_NE(icr, earlier);
	hx_consume(e);
	hx_disable(e);
	ASSERT_EQ(0, hx_enable(e, 0));
	ASSERT_EQ(icr, spe_peek(0, SPE_PMSICR));
	hx_run(0, 10 * PERIOD, e, 500);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_EQ(0, hx_irq.storms);
	return true;
}

/*
 * The AUX watermark (perf_event_attr.aux_watermark): userspace is woken
 * each time aux_head crosses a multiple of it, which for SPE means the
 * driver must end the session by the page boundary that follows the
 * wakeup point (PMBLIMITR_EL1.LIMIT is page granular, spe-rules:
 * pmblimitr), whenever that point lies in the free space.  Every chunk of
 * data published (PERF_RECORD_AUX) is checked against the first wakeup
 * point above its start.  With a consumer that keeps up, nothing is
 * truncated; with one that lags, nothing unread is overwritten.
 */
static bool wakeups_kept(struct hx_event *e, unsigned long wm)
{
	struct perf_buffer *rb = &e->rb;

	for (int i = 0; i < rb->nr_recs; i++) {
		unsigned long s = rb->recs[i].offset, end = s + rb->recs[i].size;
		unsigned long w = (s / wm + 1) * wm;

		if (!rb->recs[i].size)
			continue;
		if (end > ((w + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1))) {
			fprintf(stderr, "  watermark %lu: data [%lu, %lu) runs past the page after the wakeup at %lu\n",
				wm, s, end, w);
			return false;
		}
	}
	return true;
}

/* An event with aux_watermark @wm on a 4-page area, running on CPU0 */
static struct hx_event *open_watermark(unsigned long wm)
{
	struct perf_event_attr attr = {
		.sample_period = PERIOD,
		.aux_watermark = wm,
	};
	struct hx_event *e;
	int err;

	hx_reset(4, spe.mode, spe.visibility);
	if (hx_load())
		return NULL;
	attr.type = harness_pmu->type;
	e = hx_open_attr(0, &attr, &err);
	if (!e)
		return NULL;
	if (hx_mmap_aux(e, 4, false) || hx_enable(e, 0))
		return NULL;
	return e;
}

static bool watermark_run(unsigned long wm, long every, bool keeps_up)
{
	struct hx_event *e = open_watermark(wm);

	ASSERT_TRUE(e);
	/* ten times round the 16KiB area */
	hx_run(0, 10L * 4 * OPS_PER_PAGE, e, every);
	hx_disable(e);
	if (keeps_up && (e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED)) {
		fprintf(stderr, "  watermark %lu, consumer every %ld ops: TRUNCATED\n", wm, every);
		return false;
	}
	if (keeps_up && !wakeups_kept(e, wm))
		return false;
	if (!hx_check_data(e)) {
		fprintf(stderr, "  watermark %lu, consumer every %ld ops\n", wm, every);
		return false;
	}
	ASSERT_EQ(0, hx_irq.storms);
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

TEST(aux_watermark_wakeups)
{
	/* page-aligned and unaligned watermarks, a consumer that keeps up */
	static const unsigned long wms[] = { 8192, 4096, 1000, 3000, 5000, 6100 };

	for (size_t i = 0; i < ARRAY_SIZE(wms); i++)
		if (!watermark_run(wms[i], 300, true))
			return false;
	return true;
}

TEST(aux_watermark_lagging_consumer)
{
	static const unsigned long wms[] = { 1000, 3000, 5000, 6100, 8192 };
	static const long every[] = { 2000, 20000, 100000, 180000, 200000, 260000 };

	for (size_t i = 0; i < ARRAY_SIZE(wms); i++)
		for (size_t j = 0; j < ARRAY_SIZE(every); j++)
			if (!watermark_run(wms[i], every[j], false))
				return false;
	return true;
}

/*
 * The consumer reads once, part-way into the area (after a stop and
 * restart in place, so the data read ends mid-page), then stops: the next
 * sessions run up to the data it has not read, which starts mid-page,
 * with wakeup points (small and unaligned watermarks) in that page.  The
 * unit must not write over it (spe-rules: aux-unread-data, checked by
 * aux_check_unit_write()).
 */
TEST(aux_unread_data_kept)
{
	static const unsigned long wms[] = { 1000, 3000, 6100 };
	static const long first[] = { 50000, 70000, 90000, 110000, 130000 };

	for (size_t i = 0; i < ARRAY_SIZE(wms); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(first); j++) {
			struct hx_event *e = open_watermark(wms[i]);

			ASSERT_TRUE(e);
			hx_run(0, first[j], NULL, 0);
			/* a session ended by a stop ends mid-page */
			hx_stop(e);
			hx_start(e, 0);
			hx_consume(e);
			hx_run(0, 6L * OPS_PER_PAGE, NULL, 0);
			hx_disable(e);
			if (!hx_check_data(e) || spe.nr_violations) {
				fprintf(stderr, "  watermark %lu, read once after %ld ops\n",
					wms[i], first[j]);
				ASSERT_CLEAN();
				return false;
			}
			ASSERT_EQ(0, hx_irq.storms);
			hx_unload();
		}
	}
	return true;
}

/*
 * Unread data that starts one byte into a page: the consumer reads up to
 * there, so the free space ends exactly on the page boundary.  The next
 * lap's sessions stop at that boundary, less than a record below it,
 * and the padding to it leaves no free space at all: the driver must end
 * the session there (TRUNCATED), not start a window over the unread
 * data.  The first session is cut at that byte by a stage 1 fault in the
 * record that spans it (spe-rules: fault-event: PMBPTR_EL1 is the
 * faulting address); which record that is, a dry run of the same
 * deterministic sequence tells.
 */
#define UNREAD_AT	(PAGE_SIZE + 1)

static struct hx_event *unread_at_open(void)
{
	hx_reset(4, spe.mode, spe.visibility);
	if (hx_load())
		return NULL;
	return open_running(0, 4, false);
}

TEST(aux_free_space_ends_on_a_page)
{
	long ops = 2 * OPS_PER_PAGE;
	struct hx_event *e;
	uintptr_t base, off;
	size_t i;

	/* dry run: the record that spans UNREAD_AT */
	e = unread_at_open();
	ASSERT_TRUE(e);
	base = (uintptr_t)e->rb.aux_base;
	hx_run(0, ops, NULL, 0);
	for (i = 0; i < spe.nr_records; i++)
		if (spe.records[i].addr - base + spe.records[i].len > UNREAD_AT)
			break;
	ASSERT_TRUE(i < spe.nr_records);
	off = spe.records[i].addr - base;
	ASSERT_TRUE(off <= UNREAD_AT);
	hx_disable(e);
	hx_unload();

	e = unread_at_open();
	ASSERT_TRUE(e);
	spe_inject_fault(0, SPE_FAULT_S1, i, UNREAD_AT - off);
	hx_run(0, ops, NULL, 0);
	ASSERT_EQ(UNREAD_AT, e->rb.aux_head);
	hx_consume(e);
	ASSERT_EQ(UNREAD_AT, e->rb.user_aux_tail);
	hx_disable(e);
	ASSERT_EQ(0, hx_enable(e, 0));
	/* a lap and a half with nobody reading */
	hx_run(0, 6 * OPS_PER_PAGE, NULL, 0);
	hx_disable(e);
	ASSERT_TRUE(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_EQ(0, hx_irq.storms);
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/*
 * The control of spe-rules: aux-unread-data.  The unit, its pointer moved
 * back to the start of the AUX area behind the driver's back, writes over
 * data userspace has not read: the model must report it.  Without this
 * test the check could be disconnected with every test still passing (the
 * mutation check's catalogue has no mutant that only this check catches).
 */
TEST(oracle_aux_unread_data_caught)
{
	struct hx_event *e;

	ASSERT_EQ(0, hx_load());
	e = open_running(0, FX_PAGES, false);
	ASSERT_TRUE(e);
	/* records at the start of the area, published by the stop, unread */
	hx_run(0, OPS_PER_PAGE, NULL, 0);
	hx_stop(e);
	ASSERT_TRUE(e->rb.aux_head > 0);
	hx_start(e, 0);
	ASSERT_EQ(0, spe.nr_violations);
	spe_poke(0, SPE_PMBPTR, (uintptr_t)e->rb.aux_base);
	hx_run(0, OPS_PER_PAGE / 4, NULL, 0);
	ASSERT_TRUE(violation_seen("spe-rules: aux-unread-data"));
	hx_disable(e);
	hx_close(e);
	hx_unload();
	return true;
}
