// SPDX-License-Identifier: GPL-2.0
/*
 * Every class of buffer management event the unit can raise while
 * writing (R11-R13, R68-R75): the driver must treat it as fatal, leave
 * sampling and the buffer off with no syndrome pending (no storm), hand
 * userspace what was written before, and flag a partial record.
 */
#include "tests.h"

static bool fault_case(enum spe_fault kind, int at_byte, bool expect_partial)
{
	struct hx_event *e;

	ASSERT_EQ(hx_load(), 0);
	e = open_running(0, 4, false);
	ASSERT_TRUE(e);
	spe_inject_fault(0, kind, 20, at_byte);
	hx_run(0, 100 * PERIOD, e, 1000);
	ASSERT_TRUE(hx_irq.entries >= 1);
	ASSERT_EQ(hx_irq.storms, 0);
	ASSERT_TRUE(handler_left_unit_quiet(0));
	ASSERT_TRUE(hx_log_count("err") >= 1);
	/* nothing is written after a fatal event */
	ASSERT_TRUE(spe.nr_records <= 20);
	hx_disable(e);
	if (expect_partial)
		ASSERT_TRUE((e->rb.all_flags & (PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL)) ==
			    (PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL));
	ASSERT_TRUE(hx_check_data(e));
	ASSERT_CLEAN();
	hx_unload();
	return true;
}

static bool test_fault_stage1(void) { return fault_case(SPE_FAULT_S1, 0, false); }
static bool test_fault_stage1_partial(void) { return fault_case(SPE_FAULT_S1, 5, true); }
static bool test_fault_stage2(void) { return fault_case(SPE_FAULT_S2, 0, false); }
static bool test_fault_stage2_partial(void) { return fault_case(SPE_FAULT_S2, 11, true); }
static bool test_fault_gpc(void) { return fault_case(SPE_FAULT_GPC, 0, false); }
static bool test_fault_impdef(void) { return fault_case(SPE_FAULT_IMPDEF, 0, false); }
static bool test_fault_access_not_allowed(void) { return fault_case(SPE_FAULT_ANA, 0, true); }
static bool test_fault_reserved_bsc(void) { return fault_case(SPE_FAULT_BSC_RESERVED, 0, false); }

const struct harness_test fault_tests[] = {
	{ "fault_stage1", test_fault_stage1 },
	{ "fault_stage1_partial", test_fault_stage1_partial },
	{ "fault_stage2", test_fault_stage2 },
	{ "fault_stage2_partial", test_fault_stage2_partial },
	{ "fault_gpc", test_fault_gpc },
	{ "fault_impdef", test_fault_impdef },
	{ "fault_access_not_allowed", test_fault_access_not_allowed },
	{ "fault_reserved_bsc", test_fault_reserved_bsc },
	{ NULL },
};
