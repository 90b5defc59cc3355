/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the test runner and the fuzzer use of the driver (driver.c, the
 * only translation unit that includes it).
 */
#ifndef HARNESS_DRIVER_H
#define HARNESS_DRIVER_H

#include "harness_kernel.h"

/*
 * Features of the driver under test, found by its own feature macros
 * (never by kernel version).
 */
#define HARNESS_DRV_DISCARD	BIT(0)	/* discard=1, PMBLIMITR_EL1.FM */
#define HARNESS_DRV_EFT		BIT(1)	/* FEAT_SPE_EFT filters */
#define HARNESS_DRV_FDS		BIT(2)	/* FEAT_SPE_FDS, config4 */
extern const unsigned int harness_driver_features;

/* arm_spe_pmu_irq_handler() on @cpu, as the PPI would call it */
irqreturn_t harness_driver_irq_handler(int cpu);

#endif
