// SPDX-License-Identifier: GPL-2.0
/*
 * The SPE VM interface (SPEC 1c) and the handler rules the series adds
 * (1b): MaxBuffSize decode and caps/max_buff_size, the per-CPU minimum,
 * setup_aux refusing what can never work, the buffer-size event, and an
 * interrupt that arrives with no AUX handle.
 */
#include <stdio.h>

#include "tests.h"

static bool cap_is(const char *want)
{
	const char *got = hx_show_cap("max_buff_size");

	if (!got || strcmp(got, want)) {
		fprintf(stderr, "  caps/max_buff_size: got '%s', want '%s'\n",
			got ? got : "(none)", want);
		return false;
	}
	return true;
}

static bool test_caps_max_buff_size_decode(void)
{
	static const struct { u16 field; const char *bytes; } cases[] = {
		{ 0x0000, "0\n" },		/* no limit (R26) */
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
		harness_reset(4, spe.mode, spe.visibility);
		for (int cpu = 0; cpu < 4; cpu++)
			spe_set_max_buff_size(cpu, cases[i].field);
		ASSERT_EQ(harness_load(), 0);
		if (!cap_is(cases[i].bytes)) {
			fprintf(stderr, "  MaxBuffSize 0x%04x\n", cases[i].field);
			return false;
		}
		ASSERT_CLEAN();
		harness_unload();
	}
	return true;
}

static bool test_caps_smallest_cpu_wins(void)
{
	spe_set_max_buff_size(0, 0x0400);	/* 4 MiB */
	spe_set_max_buff_size(1, 0x0100);	/* 1 MiB */
	spe_set_max_buff_size(2, 0x0000);	/* no limit: does not count */
	spe_set_max_buff_size(3, 0x0200);	/* 2 MiB */
	ASSERT_EQ(harness_load(), 0);
	ASSERT_TRUE(cap_is("1048576\n"));
	/* a vCPU comes online later with a smaller limit */
	harness_cpu_offline(3);
	spe_set_max_buff_size(3, 0x0080);	/* 512 KiB */
	harness_cpu_online(3);
	ASSERT_TRUE(cap_is("524288\n"));
	ASSERT_CLEAN();
	harness_unload();
	return true;
}

static bool test_caps_unchanged(void)
{
	ASSERT_EQ(harness_load(), 0);
	ASSERT_TRUE(!strcmp(hx_show_cap("count_size"), "16\n"));
	ASSERT_TRUE(!strcmp(hx_show_cap("min_interval"), "256\n"));
	ASSERT_TRUE(!strcmp(hx_show_cap("arch_inst"), "1\n"));
	ASSERT_TRUE(!strcmp(hx_show_cap("ernd"), "0\n"));
	ASSERT_TRUE(cap_is("0\n"));
	ASSERT_CLEAN();
	harness_unload();
	return true;
}

static bool test_setup_aux_refusal(void)
{
	struct hx_event *e;
	int err;

	for (int cpu = 0; cpu < 4; cpu++)
		spe_set_max_buff_size(cpu, 0x0100);	/* 1 MiB */
	ASSERT_EQ(harness_load(), 0);
	for (int snap = 0; snap < 2; snap++) {
		e = hx_open(0, 0, PERIOD, &err);
		ASSERT_TRUE(e);
		/* 512 pages = 2 MiB > limit: mmap fails as rb_alloc_aux() does */
		ASSERT_EQ(hx_mmap_aux(e, 512, snap), -ENOMEM);
		/* 256 pages = 1 MiB: the largest power of two that fits */
		ASSERT_EQ(hx_mmap_aux(e, 256, snap), 0);
		ASSERT_EQ(hx_enable(e, 0), 0);
		hx_run(0, 40 * PERIOD, e, 1000);
		hx_disable(e);
		ASSERT_TRUE(hx_check_data(e) || snap);
		hx_close(e);
	}
	/* the per-task path (cpu == -1) checks the same limit */
	e = hx_open(-1, 0, PERIOD, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(hx_mmap_aux(e, 512, false), -ENOMEM);
	hx_close(e);
	ASSERT_EQ(hirq.storms, 0);
	ASSERT_CLEAN();
	harness_unload();
	return true;
}

static bool size_event_handled(struct hx_event *e, int cpu)
{
	ASSERT_TRUE(hirq.entries >= 1);
	ASSERT_EQ(hirq.storms, 0);
	ASSERT_FALSE(spe_irq_level(cpu));
	ASSERT_FALSE(spe_peek(cpu, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	/* TRUNCATED reaches userspace and the core disables the event */
	ASSERT_TRUE(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED);
	ASSERT_TRUE(e->ev.hstate != HX_ACTIVE);
	ASSERT_TRUE(hx_log_count("err") >= 1);
	return true;
}

static bool test_size_event_below_limit(void)
{
	struct hx_event *e;

	for (int cpu = 0; cpu < 4; cpu++)
		spe_set_max_buff_size(cpu, 0x0400);	/* 4 MiB */
	ASSERT_EQ(harness_load(), 0);
	/* the hypervisor cannot pin this buffer although it fits the hint */
	spe_refuse_next_enable(0);
	e = open_running(0, 4, false);
	ASSERT_TRUE(e);
	hx_run(0, 10 * PERIOD, e, 1000);
	ASSERT_TRUE(size_event_handled(e, 0));
	/* the message names the programmed size and the limit */
	ASSERT_TRUE(hx_log_has("err", "4194304") || hx_log_has("err", "4096K") ||
		    hx_log_has("err", "4 MiB") || hx_log_has("err", "0x400000") ||
		    hx_log_has("err", "4M"));
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	harness_unload();
	return true;
}

static bool test_size_event_above_limit(void)
{
	struct hx_event *e;
	int err;

	ASSERT_EQ(harness_load(), 0);
	/* per-task event, 2 MiB AUX mapped while no CPU had a limit */
	e = hx_open(-1, 0, PERIOD, &err);
	ASSERT_TRUE(e);
	ASSERT_EQ(hx_mmap_aux(e, 512, false), 0);
	/* then a vCPU with a 512 KiB limit comes online; the task runs there */
	harness_cpu_offline(1);
	spe_set_max_buff_size(1, 0x0080);
	harness_cpu_online(1);
	hx_enable(e, 1);
	hx_run(1, 10 * PERIOD, e, 1000);
	ASSERT_TRUE(size_event_handled(e, 1));
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	harness_unload();
	return true;
}

static bool test_irq_without_handle(void)
{
	uintptr_t fake = 0x7f0000000000ULL;

	ASSERT_EQ(harness_load(), 0);
	/*
	 * A management event is pending with the buffer enabled but no AUX
	 * handle on this CPU (the event went away, or a discard-mode event).
	 */
	spe_poke(3, SPE_PMBPTR, fake);
	spe_poke(3, SPE_PMBLIMITR, (fake + 0x4000) | PMBLIMITR_EL1_E);
	spe_poke(3, SPE_PMBSR, PMBSR_EL1_S | PMBSR_EL1_BUF_BSC_FULL);
	hx_deliver(3);
	ASSERT_EQ(hirq.storms, 0);
	ASSERT_FALSE(spe_irq_level(3));
	ASSERT_FALSE(spe_peek(3, SPE_PMBLIMITR) & PMBLIMITR_EL1_E);
	ASSERT_CLEAN();
	harness_unload();
	return true;
}

/*
 * SPEC 1b keeps the isb() after re-enabling in the handler: profiling
 * resumes inside the handler, not only at the exception return, so
 * kernel samples are not lost in between.  Observable only with the
 * visibility assumption (without it every write lands at once).
 */
static bool test_handler_resumes_before_eret(void)
{
	struct hx_event *e;

	SKIP_IF(!spe.visibility);
	ASSERT_EQ(harness_load(), 0);
	e = open_running(0, 4, false);
	ASSERT_TRUE(e);
	hx_run(0, 6L * 4 * OPS_PER_PAGE, e, 2000);
	ASSERT_TRUE(hirq.full_irqs >= 4);
	ASSERT_EQ(hirq.resumed_in_handler, hirq.full_irqs);
	hx_disable(e);
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	harness_unload();
	return true;
}

const struct harness_test vmif_tests[] = {
	{ "handler_resumes_before_eret", test_handler_resumes_before_eret, T_PATCHED },
	{ "caps_max_buff_size_decode", test_caps_max_buff_size_decode, T_PATCHED },
	{ "caps_smallest_cpu_wins", test_caps_smallest_cpu_wins, T_PATCHED },
	{ "caps_unchanged", test_caps_unchanged, T_PATCHED },
	{ "setup_aux_refusal", test_setup_aux_refusal, T_PATCHED },
	{ "size_event_below_limit", test_size_event_below_limit, T_PATCHED },
	{ "size_event_above_limit", test_size_event_above_limit, T_PATCHED },
	{ "irq_without_handle", test_irq_without_handle, T_PATCHED },
	{ NULL },
};
