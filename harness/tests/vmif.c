// SPDX-License-Identifier: GPL-2.0
/*
 * The SPE VM interface (MaxBuffSize, caps/max_buff_size, the
 * buffer-size event) and the handler rules the series adds (disable the
 * buffer before clearing PMBSR_EL1): MaxBuffSize decode and
 * caps/max_buff_size, the per-CPU minimum, setup_aux refusing what can
 * never work, the buffer-size event, and what lets the v2 handler ignore
 * an interrupt with no AUX handle: no sequence of the driver's own leaves
 * one pending.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests.h"

TEST(caps_max_buff_size_decode, .flags = T_PATCHED)
{
	static const struct { u16 field; const char *bytes; } cases[] = {
		/* 0: no limit (spe-rules: maxbuffsize) */
		{ 0x0000, "0\n" },
		{ 0x0001, "4096\n" },
		{ 0x0100, "1048576\n" },
		{ 0x01ff, "2093056\n" },	/* 2 MiB - 4 KiB */
		{ 0x0200, "2097152\n" },
		{ 0x0300, "3145728\n" },
		{ 0x0400, "4194304\n" },
		{ 0x1800, "4294967296\n" },	/* 4 GiB: needs a u64 cap */
		{ 0x3fff, "4499201580859392\n" },	/* 4092 TiB */
		{ 0xc100, "1048576\n" },	/* reserved [15:14] ignored */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		hx_reset(4, spe.mode, spe.visibility);
		hx_set_max_buff_size_all(cases[i].field);
		ASSERT_EQ(0, hx_load());
		if (!cap_is(cases[i].bytes)) {
			fprintf(stderr, "  MaxBuffSize 0x%04x\n", cases[i].field);
			return false;
		}
		ASSERT_CLEAN();
		hx_unload();
	}
	return true;
}

TEST(caps_smallest_cpu_wins, .flags = T_PATCHED)
{
	spe_set_max_buff_size(0, 0x0400);	/* 4 MiB */
	spe_set_max_buff_size(1, 0x0100);	/* 1 MiB */
	spe_set_max_buff_size(2, 0x0000);	/* no limit: does not count */
	spe_set_max_buff_size(3, 0x0200);	/* 2 MiB */
	ASSERT_EQ(0, hx_load());
	ASSERT_TRUE(cap_is("1048576\n"));
	/* a vCPU comes online later with a smaller limit */
	hx_cpu_offline(3);
	spe_set_max_buff_size(3, 0x0080);	/* 512 KiB */
	hx_cpu_online(3);
	ASSERT_TRUE(cap_is("524288\n"));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/*
 * A vCPU that goes offline and comes back with a larger limit does not
 * lift the limit of the others (spe-rules: maxbuffsize-hint: set per
 * vCPU): the CPUs still online keep 1 MiB, so an AUX area of 2 MiB, which
 * could run on any of them, is still refused.
 */
TEST(caps_limit_kept_across_hotplug, .flags = T_PATCHED)
{
	struct hx_event *e;
	int err;

	hx_set_max_buff_size_all(0x0100);	/* 1 MiB */
	ASSERT_EQ(0, hx_load());
	ASSERT_TRUE(cap_is("1048576\n"));
	hx_cpu_offline(3);
	spe_set_max_buff_size(3, 0x0400);	/* 4 MiB */
	hx_cpu_online(3);
	ASSERT_TRUE(cap_is("1048576\n"));
	e = hx_open(-1, 0, PERIOD, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(-ENOMEM, hx_mmap_aux(e, 512, false));
	hx_close(e);
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

TEST(caps_unchanged, .flags = T_PATCHED, .fixture = FX_CLEAN)
{
	ASSERT_TRUE(!strcmp(hx_show_cap("count_size"), "16\n"));
	ASSERT_TRUE(!strcmp(hx_show_cap("min_interval"), "256\n"));
	ASSERT_TRUE(!strcmp(hx_show_cap("arch_inst"), "1\n"));
	ASSERT_TRUE(!strcmp(hx_show_cap("ernd"), "0\n"));
	ASSERT_TRUE(cap_is("0\n"));
	return true;
}

TEST(setup_aux_refusal, .flags = T_PATCHED)
{
	struct hx_event *e;
	int err;

	hx_set_max_buff_size_all(0x0100);	/* 1 MiB */
	ASSERT_EQ(0, hx_load());
	for (int snap = 0; snap < 2; snap++) {
		e = hx_open(0, 0, PERIOD, &err);
		ASSERT_TRUE(e);
		/* 512 pages = 2 MiB > limit: mmap fails as rb_alloc_aux() does */
		ASSERT_EQ(-ENOMEM, hx_mmap_aux(e, 512, snap));
		/* and the log says why, with both sizes (not at debug level) */
		ASSERT_TRUE(hx_log_has("info", " 2097152 bytes refused"));
		ASSERT_TRUE(hx_log_has("info", "(1048576 bytes)"));
		/* 256 pages = 1 MiB: the largest power of two that fits */
		ASSERT_EQ(0, hx_mmap_aux(e, 256, snap));
		ASSERT_EQ(0, hx_enable(e, 0));
		hx_run(0, 40 * PERIOD, e, 1000);
		hx_disable(e);
		ASSERT_TRUE(hx_check_data(e) || snap);
		hx_close(e);
	}
	/* the per-task path (cpu == -1) checks the same limit */
	e = hx_open(-1, 0, PERIOD, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(-ENOMEM, hx_mmap_aux(e, 512, false));
	hx_close(e);
	ASSERT_EQ(0, hx_irq.storms);
	ASSERT_CLEAN();
	hx_unload();

	/* a limit one page short of 2 MiB: 2 MiB is refused, 1 MiB is not */
	hx_reset(4, spe.mode, spe.visibility);
	hx_set_max_buff_size_all(0x01ff);
	ASSERT_EQ(0, hx_load());
	e = hx_open(-1, 0, PERIOD, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(-ENOMEM, hx_mmap_aux(e, 512, false));
	ASSERT_EQ(0, hx_mmap_aux(e, 256, false));
	hx_close(e);
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

/*
 * pmu::setup_aux() for an AUX area of @nr_pages pages, as rb_alloc_aux()
 * calls it: 1 if the area is accepted, 0 if refused.  setup_aux() only
 * vmap()s the pages and touches none, so an area of gigabytes is a list
 * of made-up page addresses, never memory.
 */
static int setup_aux_accepts(struct hx_event *e, long nr_pages)
{
	const uintptr_t base = (uintptr_t)1 << 44;
	int save = harness_cur_cpu;
	void **pages;
	void *priv;

	pages = calloc(nr_pages, sizeof(*pages));
	if (!pages)
		return -ENOMEM;
	for (long i = 0; i < nr_pages; i++)
		pages[i] = (void *)(base + (uintptr_t)i * PAGE_SIZE);
	harness_cur_cpu = e->ev.cpu;
	priv = e->ev.pmu->setup_aux(&e->ev, pages, nr_pages, false);
	harness_cur_cpu = save;
	free(pages);
	if (priv)
		e->ev.pmu->free_aux(priv);
	return !!priv;
}

/*
 * Limits of 2 GiB and more (spe-rules: maxbuffsize: E up to 31, sizes up
 * to 4092 TiB) are compared in full: an AUX area of 2 GiB or more, or a
 * limit of 4 GiB or more, overflows an int or a u32 on the way, which
 * would refuse an area that fits or accept one the hypervisor will refuse
 * (spe-rules: maxbuffsize-hint, spe-rules: buffer-size-event).
 */
TEST(setup_aux_limits_above_4g, .flags = T_PATCHED)
{
	static const struct { u16 field; long pages; int accepted; } cases[] = {
		{ 0x1600, 1L << 19, 1 },	/* 2 GiB limit, 2 GiB area */
		{ 0x1600, 1L << 20, 0 },	/* 2 GiB limit, 4 GiB area */
		{ 0x1800, 1L << 20, 1 },	/* 4 GiB limit, 4 GiB area */
		{ 0x1800, 1L << 21, 0 },	/* 4 GiB limit, 8 GiB area */
		{ 0x1801, 1L << 12, 1 },	/* 4 GiB + 8 MiB limit, 16 MiB area */
		{ 0x3fff, 1L << 21, 1 },	/* 4092 TiB limit, 8 GiB area */
	};
	struct hx_event *e;
	int err;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		hx_reset(4, spe.mode, spe.visibility);
		hx_set_max_buff_size_all(cases[i].field);
		ASSERT_EQ(0, hx_load());
		e = hx_open(0, 0, PERIOD, &err);
		ASSERT_TRUE(e);
		err = setup_aux_accepts(e, cases[i].pages);
		if (err != cases[i].accepted) {
			fprintf(stderr, "  MaxBuffSize 0x%04x, %ld pages\n",
				cases[i].field, cases[i].pages);
			ASSERT_EQ(cases[i].accepted, err);
		}
		hx_close(e);
		ASSERT_CLEAN();
		hx_unload();
	}
	return true;
}

static bool size_event_handled(struct hx_event *e, int cpu)
{
	ASSERT_TRUE(hx_irq.entries >= 1);
	ASSERT_EQ(0, hx_irq.storms);
	/* the unit raised it (R_TSJRP): claimed, not left to the spurious count */
	ASSERT_EQ(0, hx_irq.none);
	ASSERT_FALSE(spe_irq_level(cpu));
	ASSERT_FALSE(spe_peek(cpu, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	/* TRUNCATED reaches userspace and the core disables the event */
	ASSERT_TRUE(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED);
	ASSERT_TRUE(e->ev.hstate != HARNESS_EV_ACTIVE);
	ASSERT_TRUE(hx_log_count("err") >= 1);
	return true;
}

TEST(size_event_below_limit, .flags = T_PATCHED)
{
	struct hx_event *e;

	hx_set_max_buff_size_all(0x0400);	/* 4 MiB */
	ASSERT_EQ(0, hx_load());
	/* the hypervisor cannot pin this buffer although it fits the hint */
	spe_refuse_next_enable(0);
	e = open_running(0, 4, false);
	ASSERT_TRUE(e);
	hx_run(0, 10 * PERIOD, e, 1000);
	ASSERT_TRUE(size_event_handled(e, 0));
	/*
	 * The message names the limit and the programmed window: 4 pages,
	 * wakeup at half of them, so PMBPTR_EL1..LIMIT is 8192 bytes.
	 */
	ASSERT_TRUE(hx_log_has("err", "4194304") || hx_log_has("err", "4096K") ||
		    hx_log_has("err", "4 MiB") || hx_log_has("err", "0x400000") ||
		    hx_log_has("err", "4M"));
	ASSERT_TRUE(hx_log_has("err", " 8192 "));
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

TEST(size_event_above_limit, .flags = T_PATCHED, .fixture = FX_CLEAN)
{
	struct hx_event *e;
	int err;

	/* per-task event, 2 MiB AUX mapped while no CPU had a limit */
	e = hx_open(-1, 0, PERIOD, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(0, hx_mmap_aux(e, 512, false));
	/* then a vCPU with a 512 KiB limit comes online; the task runs there */
	hx_cpu_offline(1);
	spe_set_max_buff_size(1, 0x0080);
	hx_cpu_online(1);
	hx_enable(e, 1);
	hx_run(1, 10 * PERIOD, e, 1000);
	ASSERT_TRUE(size_event_handled(e, 1));
	/* the programmed window, up to the wakeup at half the area */
	ASSERT_TRUE(hx_log_has("err", " 1048576 "));
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	return true;
}

/*
 * The oracle of hx_deliver() (api/hx.c): PMBIRQ taken with PMBSR_EL1.S
 * set and no AUX handle on the CPU is reported, whatever the driver then does (the
 * v2 driver returns IRQ_NONE there and the line storms; v1 acknowledged
 * it).  A pending event poked into an idle CPU is the only way to get
 * there, so the violation is the point of this test.
 */
TEST(model_no_handle_oracle)
{
	ASSERT_EQ(0, hx_load());
	spe_poke(3, SPE_PMBSR, PMBSR_EL1_S |
		 FIELD_PREP(PMBSR_EL1_BUF_BSC_MASK, PMBSR_EL1_BUF_BSC_FULL));
	hx_deliver(3);
	ASSERT_TRUE(violation_seen("no-handle management event"));
	/* the violation was the point; leave the CPU as the driver would */
	spe_poke(3, SPE_PMBSR, 0);
	hx_set_irqs_masked(3, false);
	spe.nr_violations = 0;
	hx_irq.storms = 0;
	hx_unload();
	ASSERT_CLEAN();
	return true;
}

/*
 * Run the workload on @cpu with its PMBIRQ masked until a management
 * event is pending, as when the perf core reaches the CPU first.
 */
static bool run_until_pending(int cpu, struct hx_event *consumer)
{
	hx_set_irqs_masked(cpu, true);
	for (long n = 0; n < 40L * 4 * OPS_PER_PAGE && !spe_irq_level(cpu); n++) {
		hx_run(cpu, 1, NULL, 0);
		if (consumer && n % 1000 == 999)
			hx_consume(consumer);
	}
	return spe_irq_level(cpu);
}

/* The interrupt is taken now, if it is still pending */
static void take_irq(int cpu)
{
	hx_set_irqs_masked(cpu, false);
	hx_deliver(cpu);
}

/* Start the event again after a sequence, however the core left it */
static bool rerun(struct hx_event *e, int cpu)
{
	if (e->ev.hstate != HARNESS_EV_ACTIVE)
		ASSERT_EQ(0, hx_enable(e, cpu));
	else if (e->ev.hw.state & PERF_HES_STOPPED)
		hx_start(e, PERF_EF_RELOAD);
	ASSERT_TRUE(e->ev.hstate == HARNESS_EV_ACTIVE);
	ASSERT_FALSE(e->ev.hw.state & PERF_HES_STOPPED);
	hx_run(e->ev.oncpu, 2L * 4 * OPS_PER_PAGE, e, 1000);
	return true;
}

static bool step_clean(const char *what)
{
	if (!spe.nr_violations && !hx_irq.none && !hx_irq.storms)
		return true;
	fprintf(stderr, "  after %s: %d violation(s), %llu IRQ_NONE, %llu storm(s)\n",
		what, spe.nr_violations, (unsigned long long)hx_irq.none,
		(unsigned long long)hx_irq.storms);
	harness_print_violations();
	return false;
}

#define STEP(what, expr)						\
	do {								\
		if (!(expr) || !step_clean(what)) {			\
			fprintf(stderr, "  step: %s\n", what);		\
			return false;					\
		}							\
	} while (0)

/* pmu::stop(PERF_EF_UPDATE) with an event pending, then pmu::start() */
static bool seq_stop_start(enum spe_fault kind, bool fault, bool size)
{
	struct hx_event *e;

	e = open_running(0, 4, false);
	ASSERT_TRUE(e && e->ev.hstate == HARNESS_EV_ACTIVE);
	if (size) {
		/* the hypervisor refuses the buffer start() enables */
		hx_stop(e);
		hx_set_irqs_masked(0, true);
		spe_refuse_next_enable(0);
		hx_start(e, PERF_EF_RELOAD);
		hx_run(0, 1, NULL, 0);
	} else {
		if (fault)
			spe_inject_fault(0, kind, 10, 5);
		ASSERT_TRUE(run_until_pending(0, e));
	}
	ASSERT_TRUE(spe_irq_level(0));
	hx_stop(e);
	take_irq(0);
	ASSERT_FALSE(spe_irq_level(0));
	ASSERT_TRUE(rerun(e, 0));
	hx_close(e);
	return true;
}

/* pmu::del() (the event removed or switched out) with an event pending */
static bool seq_del(enum spe_fault kind, bool fault, bool unmap)
{
	struct hx_event *e;

	e = open_running(1, 4, false);
	ASSERT_TRUE(e && e->ev.hstate == HARNESS_EV_ACTIVE);
	if (fault)
		spe_inject_fault(1, kind, 10, 0);
	ASSERT_TRUE(run_until_pending(1, e));
	if (unmap) {
		/* perf_mmap_close(): stop with no restart, the area goes */
		hx_munmap_aux(e);
		take_irq(1);
		hx_disable(e);
		ASSERT_EQ(0, hx_mmap_aux(e, 4, false));
	} else {
		hx_disable(e);
		take_irq(1);
	}
	ASSERT_FALSE(spe_irq_level(1));
	ASSERT_TRUE(rerun(e, 1));
	hx_close(e);
	return true;
}

/* A per-task event switched out with an event pending, in on another CPU */
static bool seq_migrate(void)
{
	struct hx_event *e;

	e = open_running(-1, 4, false);
	ASSERT_TRUE(e && e->ev.hstate == HARNESS_EV_ACTIVE && e->ev.oncpu == 0);
	ASSERT_TRUE(run_until_pending(0, e));
	hx_disable(e);
	ASSERT_EQ(0, hx_enable(e, 2));
	take_irq(0);
	ASSERT_FALSE(spe_irq_level(0));
	hx_run(2, 2L * 4 * OPS_PER_PAGE, e, 1000);
	hx_disable(e);
	hx_close(e);
	return true;
}

/* The buffer fills with nobody reading while the interrupt is masked */
static bool seq_truncation(void)
{
	struct hx_event *e;

	e = open_running(2, 2, false);
	ASSERT_TRUE(e && e->ev.hstate == HARNESS_EV_ACTIVE);
	/* no consumer: the handler cannot restart and stops the event */
	for (int i = 0; i < 4; i++) {
		if (!run_until_pending(2, NULL))
			break;
		take_irq(2);
	}
	ASSERT_TRUE(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED);
	ASSERT_FALSE(spe_irq_level(2));
	hx_consume(e);
	ASSERT_TRUE(rerun(e, 2));
	hx_close(e);
	return true;
}

/* CPU hotplug: the core takes the event off first, then the CPU goes */
static bool seq_hotplug(void)
{
	struct hx_event *e;

	e = open_running(3, 4, false);
	ASSERT_TRUE(e && e->ev.hstate == HARNESS_EV_ACTIVE);
	ASSERT_TRUE(run_until_pending(3, e));
	hx_disable(e);
	hx_cpu_offline(3);
	spe_set_max_buff_size(3, 0x0100);
	hx_cpu_online(3);
	take_irq(3);
	ASSERT_FALSE(spe_irq_level(3));
	ASSERT_TRUE(rerun(e, 3));
	hx_close(e);
	return true;
}

/*
 * Discard mode runs with no AUX handle.  The unit raises no management event
 * there (spe-rules: discard-mode), the hypervisor checks no window; an event
 * left by a normal-mode event on the same CPU is acknowledged when that one is
 * removed, before the discard-mode event starts.
 */
static bool seq_discard(void)
{
	struct perf_event_attr attr = {
		.type = harness_pmu->type,
		.sample_period = PERIOD,
	};
	struct hx_event *n, *d;
	int err;

	ASSERT_TRUE(hx_set_format(&attr, "discard", 1));
	d = hx_open_attr(2, &attr, &err);
	ASSERT_TRUE(d);
	/* a normal event with a buffer-full pending, then the discard one */
	n = open_running(2, 4, false);
	ASSERT_TRUE(n && n->ev.hstate == HARNESS_EV_ACTIVE);
	ASSERT_TRUE(run_until_pending(2, n));
	hx_disable(n);
	ASSERT_EQ(0, hx_enable(d, 2));
	take_irq(2);
	ASSERT_FALSE(spe_irq_level(2));
	/* what would end a normal session does nothing in Discard mode */
	spe_refuse_next_enable(2);
	spe_inject_fault(2, SPE_FAULT_S2, 0, 0);
	hx_stop(d);
	hx_start(d, PERF_EF_RELOAD);
	hx_run(2, 8L * OPS_PER_PAGE, NULL, 0);
	ASSERT_FALSE(spe_irq_level(2));
	hx_disable(d);
	/* and a normal event after it, refused by the hypervisor at add() */
	hx_set_irqs_masked(2, true);
	ASSERT_EQ(0, hx_enable(n, 2));
	hx_run(2, 1, NULL, 0);
	ASSERT_TRUE(spe_irq_level(2));
	hx_disable(n);
	ASSERT_EQ(0, hx_enable(d, 2));
	take_irq(2);
	ASSERT_FALSE(spe_irq_level(2));
	hx_run(2, 8L * OPS_PER_PAGE, NULL, 0);
	hx_disable(d);
	hx_close(d);
	hx_close(n);
	return true;
}

/*
 * What makes it safe for the v2 driver to return IRQ_NONE when PMBIRQ
 * arrives with no AUX handle: no sequence the driver can reach leaves a
 * management event pending (PMBSR_EL1.S set) on a CPU with no handle.
 * Each sequence gets an event pending with PMBIRQ masked, then does what
 * the perf core may do first; the no-handle oracle of api/hx.c
 * watches every delivery, and no delivery may be left unclaimed.
 */
TEST(no_handle_event_unreachable)
{
	static const struct {
		const char *what;
		bool (*fn)(enum spe_fault kind, bool a, bool b);
		enum spe_fault kind;
		bool a, b;
	} seqs[] = {
		{ "stop/start, buffer-full pending", seq_stop_start, 0, false, false },
		{ "stop/start, stage 1 fault pending", seq_stop_start, SPE_FAULT_S1, true, false },
		{ "stop/start, access-not-allowed pending", seq_stop_start, SPE_FAULT_ANA,
		  true, false },
		{ "stop/start, buffer-size event pending", seq_stop_start, 0, false, true },
		{ "del, buffer-full pending", seq_del, 0, false, false },
		{ "del, IMPDEF fault pending", seq_del, SPE_FAULT_IMPDEF, true, false },
		{ "del, GPC fault pending", seq_del, SPE_FAULT_GPC, true, false },
		{ "munmap, buffer-full pending", seq_del, 0, false, true },
		{ "munmap, stage 2 fault pending", seq_del, SPE_FAULT_S2, true, true },
	};

	for (size_t i = 0; i < ARRAY_SIZE(seqs); i++) {
		hx_reset(4, spe.mode, spe.visibility);
		ASSERT_EQ(0, hx_load());
		STEP(seqs[i].what, seqs[i].fn(seqs[i].kind, seqs[i].a, seqs[i].b));
		hx_unload();
		STEP(seqs[i].what, true);
	}
	hx_reset(4, spe.mode, spe.visibility);
	ASSERT_EQ(0, hx_load());
	STEP("per-task event moved, buffer-full pending", seq_migrate());
	STEP("truncation with PMBIRQ masked", seq_truncation());
	STEP("CPU offline/online, buffer-full pending", seq_hotplug());
	if (harness_driver_features & HARNESS_DRV_DISCARD)
		STEP("discard-mode event after a pending event", seq_discard());
	hx_unload();
	ASSERT_CLEAN();
	return true;
}

/*
 * The series' handler (disable the buffer before clearing PMBSR_EL1)
 * keeps the isb() after re-enabling: profiling
 * resumes inside the handler, not only at the exception return, so
 * kernel samples are not lost in between.  Observable only with the
 * visibility assumption (without it every write lands at once).
 */
TEST(handler_resumes_before_eret, .flags = T_PATCHED)
{
	struct hx_event *e;

	NOT_FOR_MODE(!spe.visibility);
	ASSERT_EQ(0, hx_load());
	e = open_running(0, 4, false);
	ASSERT_TRUE(e);
	hx_run(0, 6L * 4 * OPS_PER_PAGE, e, 2000);
	ASSERT_TRUE(hx_irq.full_irqs >= 4);
	ASSERT_EQ(hx_irq.full_irqs, hx_irq.resumed_in_handler);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}
