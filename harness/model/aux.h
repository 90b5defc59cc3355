/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AUX ring buffer (model/aux.c), as kernel/events/internal.h
 * describes it, plus the PERF_RECORD_AUX entries it emitted, which the
 * perf tool's side of the test API (hx_consume()) reads.
 */
#ifndef HARNESS_AUX_H
#define HARNESS_AUX_H

#include "harness_kernel.h"

/* One PERF_RECORD_AUX */
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

static inline unsigned long perf_aux_size(struct perf_buffer *rb)
{
	return (unsigned long)rb->aux_nr_pages << PAGE_SHIFT;
}

/* drop one reference to the AUX area; the last one frees it */
void rb_free_aux(struct perf_buffer *rb);

/* A unit's buffer write, checked against unread AUX data (spe.h) */
void aux_check_unit_write(int cpu, uintptr_t addr, size_t len);

#endif
