/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test API (api/hx.c): the perf core's event life cycle, the perf
 * tool's consumer, the level-triggered PMBIRQ and CPU hotplug, driven by
 * tests and the fuzzer, and the oracles they check.
 */
#ifndef HARNESS_HX_H
#define HARNESS_HX_H

#include "harness_kernel.h"
#include "aux.h"
#include "shim.h"

/* Handler entries in one delivery without the level dropping: a storm */
#define HX_STORM_BOUND		16

struct hx_event {
	struct perf_event ev;
	struct perf_buffer rb;
	bool mapped;
	int last_err;
};

struct hx_irq_stats {
	u64 entries, none, storms;
	/* bench: accesses made by handler entries that serviced a buffer full */
	u64 full_irqs, reads, writes, isbs, drains, trapped;
	/* buffer-full entries after which profiling ran before the ERET */
	u64 resumed_in_handler;
};

extern struct hx_irq_stats hx_irq;

void hx_reset(int nr_cpus, enum spe_mode mode, bool visibility);
int hx_load(void);			/* module_init + probe */
void hx_unload(void);
void hx_cpu_online(int cpu);
void hx_cpu_offline(int cpu);

struct hx_event *hx_open(int cpu, u64 config, u64 period, int *err);
struct hx_event *hx_open_attr(int cpu, const struct perf_event_attr *attr, int *err);
extern bool hx_unmap_check;		/* hx_munmap_aux() runs hx_check_data() */
int hx_mmap_aux(struct hx_event *e, int nr_pages, bool snapshot);
void hx_munmap_aux(struct hx_event *e);
int hx_enable(struct hx_event *e, int cpu);	/* pmu::add(PERF_EF_START) */
void hx_disable(struct hx_event *e);		/* pmu::del(0) */
void hx_stop(struct hx_event *e);		/* pmu::stop(PERF_EF_UPDATE) */
void hx_start(struct hx_event *e, int flags);	/* pmu::start(flags) */
void hx_close(struct hx_event *e);
void hx_run(int cpu, long nops, struct hx_event *consume_every, long every);
void hx_deliver(int cpu);			/* take PMBIRQ while it is high */
/* back to user space on @cpu: exception return, irq_work, pending IRQs */
void hx_settle(int cpu, const char *when);
/* oracle: no event left running with sampling on into a disabled buffer */
void hx_check_running(int cpu, const char *when);
void hx_consume(struct hx_event *e);
bool hx_check_data(struct hx_event *e);	/* no loss without a flag */
void hx_set_irqs_masked(int cpu, bool masked);
void hx_set_max_buff_size_all(u16 field);	/* PMBIDR_EL1.MaxBuffSize, every CPU */

const char *hx_show_cap(const char *name);	/* caps/<name> */
const char *hx_show_format(const char *name);	/* format/<name> */
/* set format term @name of @attr to @val, as perf does; false: no such term */
bool hx_set_format(struct perf_event_attr *attr, const char *name, u64 val);
/* the first line of @level containing @needle, or NULL */
const char *hx_log_line(const char *level, const char *needle);
bool hx_log_has(const char *level, const char *needle);
int hx_log_count(const char *level);
void hx_log_dump(void);

#endif
