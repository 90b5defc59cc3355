// SPDX-License-Identifier: GPL-2.0
/*
 * The one translation unit that holds the driver: the
 * drivers/perf/arm_spe_pmu.c of the revision under test is #included
 * below, built against the kernel stand-ins of include/ (its system
 * register accesses go to the model with the function and line that made
 * them).  The test runner (main.c) and the fuzzer (fuzz/fuzz.c) link
 * against this object; what they need of the driver's static functions
 * and feature macros is exported through driver.h.
 */
#define HARNESS_DRIVER_CU
#include "arm_spe_pmu.c"
#undef memset

#include "driver.h"

/* What the driver source has, by its own feature macros */
const unsigned int harness_driver_features = 0
#ifdef SPE_PMU_FEAT_DISCARD
	| HARNESS_DRV_DISCARD
#endif
#ifdef SPE_PMU_FEAT_EFT
	| HARNESS_DRV_EFT
#endif
#ifdef SPE_PMU_FEAT_FDS
	| HARNESS_DRV_FDS
#endif
	;

/* The handler is static in the driver: reachable here only */
irqreturn_t harness_driver_irq_handler(int cpu)
{
	struct arm_spe_pmu *spe_pmu = to_spe_pmu(harness_pmu);

	return arm_spe_pmu_irq_handler(spe_pmu->irq,
				       per_cpu_ptr(spe_pmu->handle, cpu));
}
