/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf core as the driver sees it, driven by the tests: event life
 * cycle, the AUX ring buffer, CPU hotplug and the level-triggered PMBIRQ.
 */
#ifndef HARNESS_PERF_H
#define HARNESS_PERF_H

#include "harness_kernel.h"

/* Handler entries in one delivery without the level dropping: a storm */
#define HARNESS_STORM_BOUND	16

enum hx_state { HX_OFF, HX_ACTIVE, HX_ERROR };

struct aux_rec {
	unsigned long offset, size;
	u64 flags;
};

struct perf_buffer {
	struct perf_event *event;
	void *aux_base;
	void **aux_pages;
	int aux_nr_pages;
	bool aux_overwrite;
	void *aux_priv;
	unsigned long aux_head, aux_wakeup, aux_watermark;
	unsigned long user_aux_head, user_aux_tail;
	int aux_nest, aux_refcount, aux_mmap_count;
	struct aux_rec *recs;
	int nr_recs, cap_recs, consumed_recs;
	int wakeups;
	u64 all_flags;
	/* consumer */
	size_t first_record;	/* spe.records index when the area was mapped */
	unsigned char *seen;	/* indexed by record sequence number */
	size_t seen_cap;
};

struct hx_event {
	struct perf_event ev;
	struct perf_buffer rb;
	bool mapped;
	int last_err;
};

struct harness_irq_stats {
	u64 entries, none, storms;
	/* bench: accesses made by handler entries that serviced a buffer full */
	u64 full_irqs, reads, writes, isbs, drains, trapped;
	/* buffer-full entries after which profiling ran before the ERET */
	u64 resumed_in_handler;
};

extern struct harness_irq_stats hirq;

extern int (*harness_module_init)(void);
extern void (*harness_module_exit)(void);

void harness_reset(int nr_cpus, enum spe_mode mode, bool visibility);
int harness_load(void);			/* module_init + probe */
void harness_unload(void);
void harness_cpu_online(int cpu);
void harness_cpu_offline(int cpu);

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
/* oracle: no event left running with sampling on into a disabled buffer */
void hx_check_running(int cpu, const char *when);
void hx_consume(struct hx_event *e);
bool hx_check_data(struct hx_event *e);	/* no loss without a flag */
void hx_set_irqs_masked(int cpu, bool masked);

const char *hx_show_cap(const char *name);	/* caps/<name> */
const char *hx_show_format(const char *name);	/* format/<name> */
/* set format term @name of @attr to @val, as perf does; false: no such term */
bool hx_set_format(struct perf_event_attr *attr, const char *name, u64 val);
bool hx_log_has(const char *level, const char *needle);
int hx_log_count(const char *level);
void hx_log_dump(void);

#endif
