// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX ring buffer of the perf core as an AUX PMU driver sees it
 * (kernel/events/ring_buffer.c), reduced to one thread.  Behaviour
 * follows 6.12:
 *  - perf_aux_output_begin(): no AUX or a nested handle -> NULL; in
 *    normal mode size = free space, and no space sets pending_disable;
 *  - perf_aux_output_end(): advances aux_head (or takes handle->head in
 *    overwrite mode), emits PERF_RECORD_AUX when there is data or a
 *    flag, and TRUNCATED sets pending_disable;
 *  - pending_disable runs as irq_work (shim/kernel.c): pmu::del(event, 0).
 * Oracles (spe-rules: aux-unread-data): the unit never writes over data
 * published and not read yet, the driver never reports more than the
 * free space it was given, and data is published only once the unit's
 * writes are complete (I_MLGHW).
 */
#include "aux.h"
#include "shim.h"

static void output_wakeup(struct perf_output_handle *h)
{
	h->rb->wakeups++;
}

void *perf_get_aux(struct perf_output_handle *handle)
{
	if (!handle->event)
		return NULL;
	return handle->rb->aux_priv;
}

void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags)
{
	if (WARN_ON_ONCE(flags & PERF_AUX_FLAG_OVERWRITE))
		return;
	handle->aux_flags |= flags;
}

void *perf_aux_output_begin(struct perf_output_handle *handle, struct perf_event *event)
{
	struct perf_buffer *rb = event->rb;
	unsigned long head, tail;

	if (!rb || !rb->aux_nr_pages || !rb->aux_mmap_count || !rb->aux_refcount)
		goto err;
	if (WARN_ON_ONCE(rb->aux_nest))
		goto err;
	rb->aux_refcount++;
	rb->aux_nest = 1;
	head = rb->aux_head;
	handle->rb = rb;
	handle->event = event;
	handle->head = head;
	handle->size = 0;
	handle->aux_flags = 0;
	if (!rb->aux_overwrite) {
		tail = rb->user_aux_tail;
		handle->wakeup = rb->aux_wakeup + rb->aux_watermark;
		if (head - tail < perf_aux_size(rb))
			/* CIRC_SPACE: one byte always stays free */
			handle->size = (tail - (head + 1)) & (perf_aux_size(rb) - 1);
		if (!handle->size) {
			event->pending_disable = harness_cur_cpu;
			output_wakeup(handle);
			rb->aux_nest = 0;
			rb->aux_refcount--;
			goto err;
		}
	}
	return rb->aux_priv;
err:
	handle->event = NULL;
	return NULL;
}

static bool need_aux_wakeup(struct perf_buffer *rb)
{
	if (rb->aux_overwrite)
		return false;
	if (rb->aux_head - rb->aux_wakeup >= rb->aux_watermark) {
		rb->aux_wakeup = rounddown(rb->aux_head, rb->aux_watermark);
		return true;
	}
	return false;
}

/* the last reference to the AUX area is gone: free it (rb_free_aux()) */
void rb_free_aux(struct perf_buffer *rb)
{
	if (--rb->aux_refcount)
		return;
	rb->event->pmu->free_aux(rb->aux_priv);
	rb->aux_priv = NULL;
	spe_del_region(rb->aux_base);
	free(rb->aux_base);
	free(rb->aux_pages);
	rb->aux_base = NULL;
	rb->aux_pages = NULL;
	rb->aux_nr_pages = 0;
}

void perf_aux_output_end(struct perf_output_handle *handle, unsigned long size)
{
	bool wakeup = handle->aux_flags & PERF_AUX_FLAG_TRUNCATED;
	struct perf_buffer *rb = handle->rb;
	unsigned long head;

	/* spe-rules: aux-unread-data: no more than the space it was given */
	if (!rb->aux_overwrite && size > handle->size)
		spe_violation("spe-rules: aux-unread-data: driver reports %lu bytes of AUX data, more than the %lu bytes of free space perf_aux_output_begin() left",
			      size, handle->size);
	/*
	 * I_MLGHW, spe-rules: psb-drain: data handed to userspace must be in
	 * memory, which only a PSB CSYNC followed by a DSB guarantees for the
	 * unit's writes
	 */
	if (size && !spe_writes_complete(harness_cur_cpu))
		spe_violation("I_MLGHW: %lu bytes of AUX data published on CPU%d before a PSB CSYNC and a DSB completed the unit's writes",
			      size, harness_cur_cpu);

	if (rb->aux_overwrite) {
		handle->aux_flags |= PERF_AUX_FLAG_OVERWRITE;
		head = handle->head;
		rb->aux_head = head;
	} else {
		handle->aux_flags &= ~PERF_AUX_FLAG_OVERWRITE;
		head = rb->aux_head;
		rb->aux_head += size;
	}
	if (size || (handle->aux_flags & ~(u64)(PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK |
						PERF_AUX_FLAG_OVERWRITE))) {
		if (rb->nr_recs == rb->cap_recs) {
			rb->cap_recs = rb->cap_recs ? 2 * rb->cap_recs : 64;
			rb->recs = realloc(rb->recs, rb->cap_recs * sizeof(*rb->recs));
		}
		rb->recs[rb->nr_recs++] = (struct aux_rec){ head, size, handle->aux_flags };
		rb->all_flags |= handle->aux_flags;
	}
	rb->user_aux_head = rb->aux_head;
	if (need_aux_wakeup(rb))
		wakeup = true;
	if (wakeup) {
		if (handle->aux_flags & PERF_AUX_FLAG_TRUNCATED)
			handle->event->pending_disable = harness_cur_cpu;
		output_wakeup(handle);
	}
	handle->event = NULL;
	rb->aux_nest = 0;
	rb_free_aux(rb);
}

int perf_aux_output_skip(struct perf_output_handle *handle, unsigned long size)
{
	struct perf_buffer *rb = handle->rb;

	if (size > handle->size)
		return -ENOSPC;
	rb->aux_head += size;
	rb->user_aux_head = rb->aux_head;
	if (need_aux_wakeup(rb)) {
		output_wakeup(handle);
		handle->wakeup = rb->aux_wakeup + rb->aux_watermark;
	}
	handle->head = rb->aux_head;
	handle->size -= size;
	return 0;
}

/*
 * spe-rules: aux-unread-data: in normal mode the bytes between the
 * consumer's aux_tail and aux_head are published and not read yet;
 * nothing may write them (the AUX ABI perf_aux_output_begin() keeps with
 * handle->size, and the driver with its window).  TRUNCATED does not
 * excuse it: it says the session ended early, not that data userspace
 * was given has changed.
 */
void aux_check_unit_write(int cpu, uintptr_t addr, size_t len)
{
	for (int i = 0; i < HARNESS_MAX_EVENTS; i++) {
		struct perf_buffer *rb = harness_events[i] ? harness_events[i]->rb : NULL;
		unsigned long bufsz, unread;
		uintptr_t base;

		if (!rb || !rb->aux_base || rb->aux_overwrite || !len)
			continue;
		base = (uintptr_t)rb->aux_base;
		bufsz = perf_aux_size(rb);
		if (addr < base || addr >= base + bufsz)
			continue;
		unread = rb->aux_head - rb->user_aux_tail;
		for (unsigned long b = 0; b < len; b++) {
			unsigned long off = addr - base + b;
			unsigned long from_tail = (off - rb->user_aux_tail) & (bufsz - 1);

			if (from_tail < unread) {
				spe_violation("spe-rules: aux-unread-data: unit on CPU%d writes at offset %lu of a %lu-byte AUX area, over data userspace has not read [%lu, %lu)",
					      cpu, off, bufsz, rb->user_aux_tail % bufsz,
					      rb->aux_head % bufsz);
				return;
			}
		}
	}
}
