// SPDX-License-Identifier: GPL-2.0
/*
 * Every class of buffer management event the unit can raise while writing
 * (spe-rules: pmbsr-ec, spe-rules: pmbsr-bsc, spe-rules: fault-event,
 * spe-rules: access-not-allowed, R_JFYNW, R_DTGVZ, spe-rules: impdef-event):
 * the driver must treat it as fatal, leave sampling and the buffer off with no
 * syndrome pending (no storm), hand userspace what was written before, and flag
 * a partial record.
 */
#include "tests.h"

/* @e runs on CPU0 (FX_RUNNING); the fixture checks it ends clean */
static bool fault_case(struct hx_event *e, enum spe_fault kind, int at_byte,
		       bool expect_partial)
{
	spe_inject_fault(0, kind, 20, at_byte);
	hx_run(0, 100 * PERIOD, e, 1000);
	ASSERT_TRUE(hx_irq.entries >= 1);
	ASSERT_EQ(0, hx_irq.storms);
	/*
	 * The unit raised PMBIRQ (R_TSJRP): the handler claims it, or the
	 * kernel counts it as spurious and may disable the line
	 */
	ASSERT_EQ(0, hx_irq.none);
	ASSERT_TRUE(handler_left_unit_quiet(0));
	ASSERT_TRUE(hx_log_count("err") >= 1);
	/* nothing is written after a fatal event */
	ASSERT_TRUE(spe.nr_records <= 20);
	hx_disable(e);
	if (expect_partial)
		ASSERT_TRUE((e->rb.all_flags & (PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL)) ==
			    (PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL));
	ASSERT_TRUE(hx_check_data(e));
	return true;
}

TEST(fault_stage1, .fixture = FX_RUNNING)
{
	return fault_case(fx->event, SPE_FAULT_S1, 0, false);
}

TEST(fault_stage1_partial, .fixture = FX_RUNNING)
{
	return fault_case(fx->event, SPE_FAULT_S1, 5, true);
}

TEST(fault_stage2, .fixture = FX_RUNNING)
{
	return fault_case(fx->event, SPE_FAULT_S2, 0, false);
}

TEST(fault_stage2_partial, .fixture = FX_RUNNING)
{
	return fault_case(fx->event, SPE_FAULT_S2, 11, true);
}

TEST(fault_gpc, .fixture = FX_RUNNING)
{
	return fault_case(fx->event, SPE_FAULT_GPC, 0, false);
}

TEST(fault_impdef, .fixture = FX_RUNNING)
{
	return fault_case(fx->event, SPE_FAULT_IMPDEF, 0, false);
}

TEST(fault_access_not_allowed, .fixture = FX_RUNNING)
{
	return fault_case(fx->event, SPE_FAULT_ANA, 0, true);
}

TEST(fault_reserved_bsc, .fixture = FX_RUNNING)
{
	return fault_case(fx->event, SPE_FAULT_BSC_RESERVED, 0, false);
}
