// SPDX-License-Identifier: GPL-2.0
/*
 * Expectations about the unpatched driver: the harness must catch it
 * where the series says it is wrong.  These pass when the base is
 * caught.  The "caught:" messages name the driver function and line the
 * model recorded for the access; no assertion depends on a line.
 */
#include <stdio.h>

#include "tests.h"

/*
 * DEN0154 (SFDXJJ, R_TSJRP, spe-rules: storm-check): the buffer-full handler
 * reprograms and clears PMBSR_EL1.S with E still set; the writes are ignored
 * and the level interrupt never drops.  Needs no visibility assumption.
 */
TEST(base_den0154_is_caught, .flags = T_BASE)
{
	const struct spe_access *a;
	struct hx_event *e;

	NOT_FOR_MODE(spe.mode != SPE_MODE_DEN0154);
	ASSERT_EQ(0, hx_load());
	e = open_running(0, 4, false);
	ASSERT_TRUE(e);
	hx_run(0, 2L * 4 * OPS_PER_PAGE, e, 1000);
	if (harness_verbose)
		harness_print_violations();
	a = ignored_write("arm_spe_perf_aux_output_begin", SPE_PMBPTR);
	if (spe.visibility && a && !hx_irq.storms) {
		/*
		 * With the visibility assumption the start path is caught
		 * first (the missing isb between the PMBPTR_EL1 and the
		 * enabling PMBLIMITR_EL1 write): the pointer never lands,
		 * the unit writes outside the buffer and the fault ends the
		 * session.
		 */
		fprintf(stderr, "  caught: PMBPTR_EL1 write ignored in start() at %s:%d\n",
			a->fn, a->line);
		return true;
	}
	ASSERT_TRUE(hx_irq.storms >= 1);
	/* the handler's write clearing PMBSR_EL1, and only that one, is lost */
	a = ignored_write("arm_spe_pmu_irq_handler", SPE_PMBSR);
	ASSERT_TRUE(a);
	for (int i = 0; i < spe.nr_ignored; i++) {
		const struct spe_access *w = &spe.ignored[i];

		if (w->reg == SPE_PMBSR && !strcmp(w->fn, "arm_spe_pmu_irq_handler"))
			ASSERT_EQ(0, w->val);
	}
	fprintf(stderr, "  caught: storm, PMBSR_EL1 write ignored at %s:%d\n",
		a->fn, a->line);
	return true;
}

/*
 * R24557 plus the visibility assumption: start() writes PMBPTR_EL1 and
 * then PMBLIMITR_EL1 with E set and no isb between them (R24557, under
 * spe-rules: write-visibility); the unit
 * may see E first and then drop the pointer.
 */
TEST(base_start_pointer_unsynchronised, .flags = T_BASE)
{
	const struct spe_access *a;
	struct hx_event *e;

	/* not observable without the visibility assumption */
	NOT_FOR_MODE(spe.mode == SPE_MODE_BARE || !spe.visibility);
	ASSERT_EQ(0, hx_load());
	e = open_running(0, 4, false);
	ASSERT_TRUE(e);
	hx_run(0, 10 * PERIOD, e, 1000);
	a = ignored_write("arm_spe_perf_aux_output_begin", SPE_PMBPTR);
	ASSERT_TRUE(a);
	fprintf(stderr, "  caught: PMBPTR_EL1 write ignored at %s:%d (%s, visibility on)\n",
		a->fn, a->line, spe_mode_name(spe.mode));
	return true;
}

/*
 * The base treats a buffer-size event (BSC 0b000100) as an unknown code:
 * it ends profiling without telling userspace (spe-rules: buffer-size-event).
 */
TEST(base_size_event_unflagged, .flags = T_BASE)
{
	struct hx_event *e;

	NOT_FOR_MODE(spe.mode != SPE_MODE_BARE);
	ASSERT_EQ(0, hx_load());
	spe_refuse_next_enable(0);
	e = open_running(0, 4, false);
	ASSERT_TRUE(e);
	hx_run(0, 10 * PERIOD, e, 1000);
	ASSERT_TRUE(hx_log_has("err", "Unknown buffer status code"));
	ASSERT_FALSE(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED);
	ASSERT_TRUE(e->ev.hstate == HARNESS_EV_ACTIVE);
	return true;
}

/*
 * The padding overflow: a new 8KiB AUX area whose first session starts
 * with head and wakeup both at offset 4KiB (tests/aux.c).  The base
 * clamps the buffer to the wakeup, finds no room and pads the whole free
 * space, 8191 bytes, from offset 4096: 4095 bytes past the end.  Run
 * where the base is otherwise correct (elsewhere it is caught earlier).
 */
static bool base_pad_case(bool snapshot)
{
	NOT_FOR_MODE(spe.mode == SPE_MODE_DEN0154 ||
		     (spe.mode == SPE_MODE_R24557 && spe.visibility));
	ASSERT_TRUE(aux_remap_wakeup_at_head(snapshot));
	if (harness_verbose)
		harness_print_violations();
	ASSERT_TRUE(aux_pad_overflow_reported());
	fprintf(stderr, "  caught: %s: %s\n",
		snapshot ? "snapshot then normal" : "16KiB then 8KiB",
		violation_text(AUX_PAD_OVERFLOW));
	return true;
}

TEST(base_pad_remap_wakeup_at_head, .flags = T_BASE)
{
	return base_pad_case(false);
}

TEST(base_pad_snapshot_remap_wakeup_at_head, .flags = T_BASE)
{
	return base_pad_case(true);
}
