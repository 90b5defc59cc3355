/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state of the kernel stand-ins (shim/kernel.c) that the test API
 * (api/hx.c) reads or drives: the per-CPU IRQ the driver requested, the
 * perf core's events, the captured log, CPU hotplug.
 */
#ifndef HARNESS_SHIM_H
#define HARNESS_SHIM_H

#include "harness_kernel.h"
#include "aux.h"

/* INTID of PMBIRQ on the FVP (I_SMLLS) */
#define SPE_PPI			21
#define HARNESS_MAX_EVENTS	8	/* perf events open at once */
#define HARNESS_MAX_DEVM	64	/* devm allocations freed at reset */
#define HARNESS_DEVM_STR_LEN	64	/* one devm_kasprintf() string */
#define HARNESS_LOG_LINES	256	/* driver messages kept per test */
#define HARNESS_LOG_LINE_LEN	256	/* characters of one message */

/* What the perf core believes of an event (perf_event::hstate) */
enum harness_ev_state {
	HARNESS_EV_OFF,
	HARNESS_EV_ACTIVE,
	HARNESS_EV_ERROR,
};

/* The per-CPU PMBIRQ as the driver requested and enabled it */
struct harness_irq {
	irq_handler_t handler;
	void *dev;
	bool enabled[NR_CPUS];
	bool masked[NR_CPUS];		/* by a test, or after a storm */
	cpumask_t ppi_affinity;		/* the PPI's partition: every CPU */
};

/* printk() and friends; a message that does not fit is a violation */
struct harness_log {
	char lines[HARNESS_LOG_LINES][HARNESS_LOG_LINE_LEN];
	int nr;
	int dropped;			/* messages after the log was full */
	int truncated;			/* messages cut at HARNESS_LOG_LINE_LEN */
};

extern struct harness_irq harness_irq;
extern struct harness_log harness_log;
extern struct perf_event *harness_events[HARNESS_MAX_EVENTS];
extern struct device harness_pmu_dev;	/* the PMU's device, for sysfs */
extern int (*harness_module_init)(void);
extern void (*harness_module_exit)(void);

void harness_shim_reset(int nr_cpus);
/* the hotplug core: online/offline @cpu and run the driver's callbacks */
void harness_cpu_up(int cpu);
void harness_cpu_down(int cpu);

#endif
