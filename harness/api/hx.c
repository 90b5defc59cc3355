// SPDX-License-Identifier: GPL-2.0
/*
 * The test API: what tests and the fuzzer call to play the perf core, the
 * perf tool, the interrupt controller and CPU hotplug around the driver,
 * and the oracles they check.  Every symbol it exports starts with hx_.
 */
#include <stdarg.h>
#include <stdio.h>

#include "hx.h"
#include "shim.h"

struct hx_irq_stats hx_irq;
bool hx_unmap_check;

static struct hx_event *hx_of(struct perf_event *ev)
{
	return ev ? container_of(ev, struct hx_event, ev) : NULL;
}

/* --- the driver's messages, as harness_printk() captured them --- */

const char *hx_log_line(const char *level, const char *needle)
{
	size_t l = strlen(level);

	for (int i = 0; i < harness_log.nr; i++) {
		const char *line = harness_log.lines[i];

		if (!strncmp(line, level, l) && strstr(line, needle))
			return line;
	}
	return NULL;
}

bool hx_log_has(const char *level, const char *needle)
{
	return hx_log_line(level, needle);
}

int hx_log_count(const char *level)
{
	int n = 0;

	for (int i = 0; i < harness_log.nr; i++)
		n += !strncmp(harness_log.lines[i], level, strlen(level));
	return n;
}

void hx_log_dump(void)
{
	for (int i = 0; i < harness_log.nr; i++)
		fprintf(stderr, "    log %s", harness_log.lines[i]);
}

/* What a hypervisor advertises to every CPU of the machine */
void hx_set_max_buff_size_all(u16 field)
{
	for (int cpu = 0; cpu < spe.nr_cpus; cpu++)
		spe_set_max_buff_size(cpu, field);
}

void hx_set_irqs_masked(int cpu, bool masked)
{
	harness_irq.masked[cpu] = masked;
}

static bool is_full_event(u64 sr)
{
	return (sr & PMBSR_EL1_S) &&
	       FIELD_GET(PMBSR_EL1_EC_MASK, sr) == PMBSR_EL1_EC_BUF &&
	       FIELD_GET(PMBSR_EL1_MSS_MASK, sr) == PMBSR_EL1_BUF_BSC_FULL;
}

/*
 * An event the perf core believes is running (active, not stopped) while
 * the unit has sampling on and the buffer disabled, with no management
 * event pending, records nothing and nothing tells the core or the user:
 * the driver must either keep a buffer enabled or stop the event.
 */
void hx_check_running(int cpu, const char *when)
{
	u64 scr = spe_peek(cpu, SPE_PMSCR), lim = spe_peek(cpu, SPE_PMBLIMITR);

	if (!(scr & (PMSCR_EL1_E0SPE | PMSCR_EL1_E1SPE)) ||
	    (lim & PMBLIMITR_EL1_E) || spe_irq_level(cpu))
		return;
	for (int i = 0; i < HARNESS_MAX_EVENTS; i++) {
		struct perf_event *ev = harness_events[i];

		if (!ev || ev->hstate != HARNESS_EV_ACTIVE || ev->oncpu != cpu ||
		    (ev->hw.state & PERF_HES_STOPPED))
			continue;
		spe_violation("sampling with no buffer: the event on CPU%d is running %s with PMSCR_EL1=0x%llx and PMBLIMITR_EL1.E clear (nothing is recorded, nothing says so)",
			      cpu, when, (unsigned long long)scr);
	}
}

/*
 * The driver's own no-handle path: PMBIRQ is taken with PMBSR_EL1.S set
 * and no AUX output in progress on the CPU.  The v2 driver returns
 * IRQ_NONE there (the level would stay up), on the claim that no sequence
 * of its own leaves a management event pending without a handle.
 */
static bool check_no_handle(int cpu)
{
	struct perf_output_handle *h =
		per_cpu_ptr((struct perf_output_handle *)harness_irq.dev, cpu);

	if (perf_get_aux(h))
		return false;
	spe_violation("no-handle management event: PMBIRQ taken on CPU%d with PMBSR_EL1=0x%llx (S set) and no AUX handle",
		      cpu, (unsigned long long)spe_peek(cpu, SPE_PMBSR));
	return true;
}

void hx_deliver(int cpu)
{
	int save = harness_cur_cpu, n = 0;
	bool no_handle = false;

	while (harness_irq.handler && harness_irq.enabled[cpu] &&
	       !harness_irq.masked[cpu] && spe_irq_level(cpu)) {
		struct spe_stats before = spe.stats;
		bool full = is_full_event(spe_peek(cpu, SPE_PMBSR));
		irqreturn_t ret;

		if (++n > HX_STORM_BOUND) {
			const struct spe_access *ig = spe.nr_ignored ?
				&spe.ignored[spe.nr_ignored - 1] : NULL;

			hx_irq.storms++;
			spe_violation("storm: PMBIRQ still high on CPU%d after %d handler entries, PMBSR=0x%llx%s%s:%d",
				      cpu, HX_STORM_BOUND,
				      (unsigned long long)spe_peek(cpu, SPE_PMBSR),
				      ig ? ", last ignored write at " : "",
				      ig ? ig->fn : "", ig ? ig->line : 0);
			/* mask the line so the test can finish */
			harness_irq.masked[cpu] = true;
			break;
		}
		harness_cur_cpu = cpu;
		spe_context_sync(cpu);		/* exception entry */
		if (!no_handle)
			no_handle = check_no_handle(cpu);
		spe.in_irq = true;
		ret = harness_irq.handler(SPE_PPI,
					  per_cpu_ptr((struct perf_output_handle *)harness_irq.dev,
						      cpu));
		if (full && (spe_peek(cpu, SPE_PMBLIMITR) & PMBLIMITR_EL1_E) &&
		    !spe_irq_level(cpu))
			hx_irq.resumed_in_handler++;
		spe_context_sync(cpu);		/* exception return */
		spe.in_irq = false;
		hx_check_running(cpu, "after the interrupt handler");
		irq_work_run();
		harness_cur_cpu = save;
		hx_irq.entries++;
		if (ret == IRQ_NONE)
			hx_irq.none++;
		if (full) {
			hx_irq.full_irqs++;
			hx_irq.reads += spe.stats.reads - before.reads;
			hx_irq.writes += spe.stats.writes - before.writes;
			hx_irq.isbs += spe.stats.isbs - before.isbs;
			hx_irq.drains += spe.stats.drains - before.drains;
			hx_irq.trapped += spe.stats.trapped - before.trapped;
		}
	}
}

void hx_cpu_online(int cpu)
{
	harness_cpu_up(cpu);
	hx_deliver(cpu);
}

void hx_cpu_offline(int cpu)
{
	/* perf migrates or stops events first; tests keep the CPU idle */
	harness_cpu_down(cpu);
}

/* Read sysfs attribute @name of group @group; NULL if absent or hidden */
static const char *show_attr(const char *group, const char *name)
{
	static char buf[4096];

	if (!harness_pmu)
		return NULL;
	for (const struct attribute_group **g = harness_pmu->attr_groups; *g; g++) {
		if (!(*g)->name || strcmp((*g)->name, group))
			continue;
		for (struct attribute **a = (*g)->attrs; *a; a++) {
			struct device_attribute *da =
				container_of(*a, struct device_attribute, attr);

			if (strcmp((*a)->name, name))
				continue;
			if ((*g)->is_visible &&
			    !(*g)->is_visible(&harness_pmu_dev.kobj, *a, 0))
				return NULL;
			buf[0] = 0;
			da->show(&harness_pmu_dev, da, buf);
			return buf;
		}
	}
	return NULL;
}

const char *hx_show_cap(const char *name)
{
	return show_attr("caps", name);
}

const char *hx_show_format(const char *name)
{
	return show_attr("format", name);
}

/*
 * What the perf tool does with a format term "name=val": find the
 * attribute, parse "configN:lo[-hi]" and put val in those bits.
 */
bool hx_set_format(struct perf_event_attr *attr, const char *name, u64 val)
{
	const char *f = hx_show_format(name);
	unsigned int lo, hi;
	char cfg[16];
	u64 *word, mask;
	int n;

	if (!f)
		return false;
	n = sscanf(f, "%15[a-z0-9]:%u-%u", cfg, &lo, &hi);
	if (n == 2)
		hi = lo;
	else if (n != 3)
		return false;
	if (hi < lo || hi > 63)
		return false;
	if (!strcmp(cfg, "config"))
		word = &attr->config;
	else if (!strcmp(cfg, "config1"))
		word = &attr->config1;
	else if (!strcmp(cfg, "config2"))
		word = &attr->config2;
	else if (!strcmp(cfg, "config3"))
		word = &attr->config3;
	else if (!strcmp(cfg, "config4"))
		word = &attr->config4;
	else
		return false;
	mask = GENMASK_ULL(hi, lo);
	*word = (*word & ~mask) | ((val << lo) & mask);
	return true;
}

/* --- the harness side of perf core: event life cycle --- */

void hx_reset(int nr_cpus, enum spe_mode mode, bool visibility)
{
	spe_model_reset(nr_cpus, mode, visibility);
	spe_observe_writes(aux_check_unit_write);
	harness_shim_reset(nr_cpus);
	memset(&hx_irq, 0, sizeof(hx_irq));
}

int hx_load(void)
{
	int ret = harness_module_init();

	for (int cpu = 0; cpu < harness_nr_cpus; cpu++)
		hx_deliver(cpu);
	return ret;
}

void hx_unload(void)
{
	for (int i = 0; i < HARNESS_MAX_EVENTS; i++)
		if (harness_events[i])
			hx_close(hx_of(harness_events[i]));
	harness_module_exit();
}

void hx_settle(int cpu, const char *when)
{
	int save = harness_cur_cpu;

	/* return to user space: exception return, then pending irq_work and IRQs */
	spe_context_sync(cpu);
	harness_cur_cpu = cpu;
	irq_work_run();
	harness_cur_cpu = save;
	hx_deliver(cpu);
	hx_check_running(cpu, when);
}

struct hx_event *hx_open(int cpu, u64 config, u64 period, int *err)
{
	struct perf_event_attr attr = { .config = config, .sample_period = period };

	if (harness_pmu)
		attr.type = harness_pmu->type;
	return hx_open_attr(cpu, &attr, err);
}

/* perf_event_open() with a whole attr: the type is taken as given */
struct hx_event *hx_open_attr(int cpu, const struct perf_event_attr *attr, int *err)
{
	struct hx_event *e = calloc(1, sizeof(*e));
	u64 period = attr->sample_period;
	int slot, ret;

	for (slot = 0; slot < HARNESS_MAX_EVENTS && harness_events[slot]; slot++)
		;
	if (slot == HARNESS_MAX_EVENTS || !harness_pmu) {
		free(e);
		*err = -EBUSY;
		return NULL;
	}
	e->ev.attr = *attr;
	e->ev.pmu = harness_pmu;
	e->ev.cpu = cpu;
	e->ev.pending_disable = -1;
	e->ev.oncpu = -1;
	e->ev.hw.sample_period = period;
	local64_set(&e->ev.hw.period_left, period);
	e->rb.event = &e->ev;
	e->ev.rb = &e->rb;
	ret = harness_pmu->event_init(&e->ev);
	*err = ret;
	if (ret) {
		free(e);
		return NULL;
	}
	harness_events[slot] = &e->ev;
	return e;
}

int hx_mmap_aux(struct hx_event *e, int nr_pages, bool snapshot)
{
	struct perf_buffer *rb = &e->rb;
	int save = harness_cur_cpu;

	if (nr_pages <= 0 || !is_power_of_2(nr_pages))
		return -EINVAL;		/* perf_mmap() */
	rb->aux_base = aligned_alloc(PAGE_SIZE, (size_t)nr_pages * PAGE_SIZE);
	memset(rb->aux_base, 0xa5, (size_t)nr_pages * PAGE_SIZE);
	rb->aux_pages = calloc(nr_pages, sizeof(void *));
	for (int i = 0; i < nr_pages; i++)
		rb->aux_pages[i] = (char *)rb->aux_base + (size_t)i * PAGE_SIZE;
	if (e->ev.cpu >= 0)
		harness_cur_cpu = e->ev.cpu;
	rb->aux_priv = e->ev.pmu->setup_aux(&e->ev, rb->aux_pages, nr_pages, snapshot);
	harness_cur_cpu = save;
	if (!rb->aux_priv) {
		free(rb->aux_base);
		free(rb->aux_pages);
		rb->aux_base = NULL;
		return -ENOMEM;		/* rb_alloc_aux() */
	}
	rb->aux_nr_pages = nr_pages;
	/*
	 * A new AUX area on an event mapped before: the tool has read (or
	 * dropped) what the old area held, so its PERF_RECORD_AUXes and
	 * flags do not describe the new one, and the tail catches up.
	 */
	rb->consumed_recs = rb->nr_recs;
	rb->all_flags = 0;
	rb->user_aux_tail = rb->aux_head;
	rb->aux_overwrite = snapshot;
	/* rb_alloc_aux(): the event's aux_watermark, by default half the area */
	rb->aux_watermark = snapshot ? 0 : e->ev.attr.aux_watermark ?
			    e->ev.attr.aux_watermark :
			    (unsigned long)nr_pages << (PAGE_SHIFT - 1);
	rb->aux_refcount = 1;
	rb->aux_mmap_count = 1;
	rb->first_record = spe.nr_records;
	e->mapped = true;
	spe_add_region(rb->aux_base, (size_t)nr_pages * PAGE_SIZE);
	return 0;
}

void hx_munmap_aux(struct hx_event *e)
{
	struct perf_buffer *rb = &e->rb;

	if (!e->mapped)
		return;
	/* perf_mmap_close() -> perf_pmu_output_stop(): stop, no restart */
	if (e->ev.hstate == HARNESS_EV_ACTIVE && !(e->ev.hw.state & PERF_HES_STOPPED)) {
		int save = harness_cur_cpu;

		harness_cur_cpu = e->ev.oncpu;
		e->ev.pmu->stop(&e->ev, PERF_EF_UPDATE);
		harness_cur_cpu = save;
		hx_settle(e->ev.oncpu, "after a perf core call");
	}
	hx_consume(e);
	/* the fuzzer checks for unflagged loss while the data is still there */
	if (hx_unmap_check)
		hx_check_data(e);
	rb->aux_mmap_count = 0;
	e->mapped = false;
	rb_free_aux(rb);
}

int hx_enable(struct hx_event *e, int cpu)
{
	int save = harness_cur_cpu, ret;

	if (e->ev.cpu >= 0)
		cpu = e->ev.cpu;
	if (e->ev.hstate == HARNESS_EV_ACTIVE)
		return 0;
	harness_cur_cpu = cpu;
	ret = e->ev.pmu->add(&e->ev, PERF_EF_START);
	harness_cur_cpu = save;
	e->ev.oncpu = cpu;
	e->ev.hstate = ret ? HARNESS_EV_ERROR : HARNESS_EV_ACTIVE;
	e->last_err = ret;
	hx_settle(cpu, "after a perf core call");
	return ret;
}

void hx_disable(struct hx_event *e)
{
	int save = harness_cur_cpu, cpu = e->ev.oncpu;

	if (e->ev.hstate != HARNESS_EV_ACTIVE)
		return;
	harness_cur_cpu = cpu;
	e->ev.pmu->del(&e->ev, 0);
	harness_cur_cpu = save;
	e->ev.hstate = HARNESS_EV_OFF;
	hx_settle(cpu, "after a perf core call");
}

/* perf_event_stop() and restart in place: pmu::stop(UPDATE), pmu::start() */
void hx_stop(struct hx_event *e)
{
	int save = harness_cur_cpu, cpu = e->ev.oncpu;

	if (e->ev.hstate != HARNESS_EV_ACTIVE || (e->ev.hw.state & PERF_HES_STOPPED))
		return;
	harness_cur_cpu = cpu;
	e->ev.pmu->stop(&e->ev, PERF_EF_UPDATE);
	harness_cur_cpu = save;
	hx_settle(cpu, "after a perf core call");
}

void hx_start(struct hx_event *e, int flags)
{
	int save = harness_cur_cpu, cpu = e->ev.oncpu;

	if (e->ev.hstate != HARNESS_EV_ACTIVE || !(e->ev.hw.state & PERF_HES_STOPPED))
		return;
	harness_cur_cpu = cpu;
	e->ev.pmu->start(&e->ev, flags);
	harness_cur_cpu = save;
	hx_settle(cpu, "after a perf core call");
}

void hx_close(struct hx_event *e)
{
	hx_disable(e);
	hx_munmap_aux(e);
	for (int i = 0; i < HARNESS_MAX_EVENTS; i++)
		if (harness_events[i] == &e->ev)
			harness_events[i] = NULL;
	free(e->rb.recs);
	free(e->rb.seen);
	free(e);
}

void hx_run(int cpu, long nops, struct hx_event *consumer, long every)
{
	int save = harness_cur_cpu;

	for (long i = 0; i < nops; i++) {
		harness_cur_cpu = cpu;
		spe_op(cpu);
		harness_cur_cpu = save;
		if (spe_irq_level(cpu))
			hx_deliver(cpu);
		if (consumer && every && i % every == every - 1)
			hx_consume(consumer);
	}
	hx_settle(cpu, "after a perf core call");
}

static void mark_seen(struct perf_buffer *rb, u64 seq)
{
	if (seq >= rb->seen_cap) {
		size_t n = rb->seen_cap ? rb->seen_cap : 4096;

		while (n <= seq)
			n *= 2;
		rb->seen = realloc(rb->seen, n);
		memset(rb->seen + rb->seen_cap, 0, n - rb->seen_cap);
		rb->seen_cap = n;
	}
	if (rb->seen[seq]++)
		spe_violation("record %llu delivered twice to userspace", (unsigned long long)seq);
}

/* The perf tool's side: read PERF_RECORD_AUX areas, then move aux_tail */
void hx_consume(struct hx_event *e)
{
	struct perf_buffer *rb = &e->rb;
	unsigned long bufsz = perf_aux_size(rb);

	if (!rb->aux_base || rb->aux_overwrite)
		return;
	for (; rb->consumed_recs < rb->nr_recs; rb->consumed_recs++) {
		struct aux_rec *r = &rb->recs[rb->consumed_recs];
		unsigned char *lin;
		size_t i = 0;

		if (r->size > bufsz) {
			spe_violation("PERF_RECORD_AUX of %lu bytes at offset %lu in a %lu-byte buffer",
				      r->size, r->offset, bufsz);
			continue;
		}
		lin = malloc(r->size + 1);

		for (unsigned long k = 0; k < r->size; k++)
			lin[k] = ((unsigned char *)rb->aux_base)[(r->offset + k) % bufsz];
		while (i < r->size) {
			u64 seq = 0;
			int n;

			/* padding (spe-rules: record-format) */
			if (!lin[i]) {
				i++;
				continue;
			}
			n = spe_parse_record(lin + i, r->size - i, &seq);
			if (n <= 0) {
				if (!(r->flags & PERF_AUX_FLAG_PARTIAL))
					spe_violation("AUX data at offset %lu (+%zu of %lu) does not parse (%s), flags 0x%llx",
						      r->offset, i, r->size,
						      n ? "garbled" : "cut record",
						      (unsigned long long)r->flags);
				break;
			}
			mark_seen(rb, seq);
			i += n;
		}
		free(lin);
	}
	rb->user_aux_tail = rb->user_aux_head;
}

bool hx_check_data(struct hx_event *e)
{
	struct perf_buffer *rb = &e->rb;
	uintptr_t base = (uintptr_t)rb->aux_base;
	size_t bufsz = perf_aux_size(rb), lost = 0;
	int before = spe.nr_violations;

	hx_consume(e);
	/* snapshot mode overwrites by design; loss was flagged otherwise */
	if (rb->aux_overwrite ||
	    (rb->all_flags & (PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL)))
		return spe.nr_violations == before;
	for (size_t i = rb->first_record; i < spe.nr_records; i++) {
		struct spe_record *r = &spe.records[i];

		if (r->addr < base || r->addr >= base + bufsz)
			continue;
		if (r->seq < rb->seen_cap && rb->seen[r->seq])
			continue;
		if (!lost)
			spe_violation("record %llu written at offset 0x%llx never reached userspace and no flag says so",
				      (unsigned long long)r->seq,
				      (unsigned long long)(r->addr - base));
		lost++;
	}
	return !lost && spe.nr_violations == before;
}
