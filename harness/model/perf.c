// SPDX-License-Identifier: GPL-2.0
/*
 * Perf core shim: what kernel/events/ring_buffer.c and core.c do for an
 * AUX PMU, reduced to one thread, plus the platform, IRQ and hotplug
 * plumbing the driver registers with.  Behaviour follows 6.12:
 *  - perf_aux_output_begin(): no AUX or a nested handle -> NULL; in
 *    normal mode size = free space, and no space sets pending_disable;
 *  - perf_aux_output_end(): advances aux_head (or takes handle->head in
 *    overwrite mode), emits PERF_RECORD_AUX when there is data or a
 *    flag, and TRUNCATED sets pending_disable;
 *  - pending_disable runs as irq_work: pmu::del(event, 0).
 */
#include <stdarg.h>
#include <stdio.h>

#include "perf.h"

int harness_nr_cpus;
int harness_cur_cpu;
bool harness_kpti;
bool harness_deny_kernel;
cpumask_t harness_online_mask;
struct pmu *harness_pmu;
struct harness_irq_stats hirq;
bool hx_unmap_check;

static struct device pmu_dev;
static struct platform_device pdev;
static struct platform_driver *pdrv;
static irq_handler_t irq_handler;
static void *irq_dev;
static bool irq_enabled[NR_CPUS], irq_masked[NR_CPUS];
static int (*hp_startup)(unsigned int, struct hlist_node *);
static int (*hp_teardown)(unsigned int, struct hlist_node *);
static struct hlist_node *hp_node;
static struct hx_event *events[8];

static char logbuf[256][256];
static int nr_log;

#define SPE_PPI		21	/* INTID of PMBIRQ on the FVP (R78) */

/* --- printk, WARN, allocation, sysfs --- */

void harness_printk(const char *level, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (nr_log == 256)
		return;
	n = snprintf(logbuf[nr_log], sizeof(logbuf[0]), "%s: ", level);
	va_start(ap, fmt);
	vsnprintf(logbuf[nr_log] + n, sizeof(logbuf[0]) - n, fmt, ap);
	va_end(ap);
	nr_log++;
}

bool hx_log_has(const char *level, const char *needle)
{
	size_t l = strlen(level);

	for (int i = 0; i < nr_log; i++)
		if (!strncmp(logbuf[i], level, l) && strstr(logbuf[i], needle))
			return true;
	return false;
}

int hx_log_count(const char *level)
{
	int n = 0;

	for (int i = 0; i < nr_log; i++)
		n += !strncmp(logbuf[i], level, strlen(level));
	return n;
}

void hx_log_dump(void)
{
	for (int i = 0; i < nr_log; i++)
		fprintf(stderr, "    log %s", logbuf[i]);
}

void harness_warn(const char *fn, int line)
{
	spe_violation("WARN at %s:%d", fn, line);
}

static void *devm_list[64];
static int nr_devm;

void *harness_devm_zalloc(size_t size)
{
	void *p = calloc(1, size);

	if (nr_devm < 64)
		devm_list[nr_devm++] = p;
	return p;
}

char *devm_kasprintf(struct device *dev, gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	char *p = harness_devm_zalloc(64);

	(void)dev; (void)gfp;
	va_start(ap, fmt);
	vsnprintf(p, 64, fmt, ap);
	va_end(ap);
	return p;
}

void *vmap(struct page **pages, unsigned int count, unsigned long flags, int prot)
{
	(void)flags; (void)prot;
	/* the harness hands out one contiguous block: check, then alias it */
	for (unsigned int i = 1; i < count; i++)
		if ((char *)pages[i] != (char *)pages[0] + i * PAGE_SIZE)
			return NULL;
	return pages[0];
}

void vunmap(const void *addr)
{
	(void)addr;
}

int sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PAGE_SIZE, fmt, ap);
	va_end(ap);
	return n;
}

ssize_t cpumap_print_to_pagebuf(bool list, char *buf, const cpumask_t *mask)
{
	(void)list;
	return sprintf(buf, "0x%lx\n", mask->bits[0]);
}

int harness_perf_allow_kernel(void)
{
	return harness_deny_kernel ? -13 /* EACCES */ : 0;
}

/* --- CPUs --- */

int smp_call_function_single(int cpu, void (*fn)(void *), void *info, int wait)
{
	int save = harness_cur_cpu;

	(void)wait;
	harness_cur_cpu = cpu;
	fn(info);
	spe_context_sync(cpu);
	harness_cur_cpu = save;
	return 0;
}

int smp_call_function_any(const cpumask_t *mask, void (*fn)(void *), void *info, int wait)
{
	int cpu;

	if (cpumask_test_cpu(harness_cur_cpu, mask) &&
	    cpumask_test_cpu(harness_cur_cpu, &harness_online_mask))
		return smp_call_function_single(harness_cur_cpu, fn, info, wait);
	for_each_cpu(cpu, mask)
		if (cpumask_test_cpu(cpu, &harness_online_mask))
			return smp_call_function_single(cpu, fn, info, wait);
	return -ENXIO;
}

void on_each_cpu_mask(const cpumask_t *mask, void (*fn)(void *), void *info, bool wait)
{
	int cpu;

	for_each_cpu(cpu, mask)
		if (cpumask_test_cpu(cpu, &harness_online_mask))
			smp_call_function_single(cpu, fn, info, wait);
}

/* --- IRQ --- */

/* The PPI's partition: every CPU of the harness */
static cpumask_t ppi_affinity;

int request_percpu_irq_affinity(unsigned int irq, irq_handler_t handler,
				const char *name, const cpumask_t *affinity,
				void *dev)
{
	(void)name;
	if (irq != SPE_PPI)
		return -EINVAL;
	/* the partition asked for must be the one the firmware described */
	if (affinity && affinity->bits[0] != ppi_affinity.bits[0])
		return -EINVAL;
	irq_handler = handler;
	irq_dev = dev;
	return 0;
}

int request_percpu_irq(unsigned int irq, irq_handler_t handler, const char *name,
		       void *dev)
{
	return request_percpu_irq_affinity(irq, handler, name, NULL, dev);
}

void free_percpu_irq(unsigned int irq, void *dev)
{
	(void)irq; (void)dev;
	irq_handler = NULL;
}

void enable_percpu_irq(unsigned int irq, unsigned int type)
{
	(void)irq; (void)type;
	irq_enabled[harness_cur_cpu] = true;
}

void disable_percpu_irq(unsigned int irq)
{
	(void)irq;
	irq_enabled[harness_cur_cpu] = false;
}

int platform_get_irq(struct platform_device *p, unsigned int n)
{
	return n ? -ENXIO : p->irq;
}

bool irq_is_percpu(unsigned int irq)
{
	return irq < 32;
}

int irq_get_percpu_devid_partition(unsigned int irq, cpumask_t *affinity)
{
	(void)irq;
	*affinity = ppi_affinity;
	return 0;
}

int platform_get_irq_affinity(struct platform_device *p, unsigned int n,
			      const cpumask_t **affinity)
{
	if (n)
		return -ENXIO;
	*affinity = &ppi_affinity;
	return p->irq;
}

void hx_set_irqs_masked(int cpu, bool masked)
{
	irq_masked[cpu] = masked;
}

/* pending_disable, as perf_pending_disable() -> perf_event_disable_local() */
void irq_work_run(void)
{
	for (int i = 0; i < 8; i++) {
		struct hx_event *e = events[i];

		if (!e || e->ev.pending_disable < 0)
			continue;
		if (e->ev.pending_disable != harness_cur_cpu)
			continue;
		e->ev.pending_disable = -1;
		if (e->ev.hstate == HX_ACTIVE && e->ev.oncpu == harness_cur_cpu) {
			e->ev.pmu->del(&e->ev, 0);
			e->ev.hstate = HX_OFF;
		}
	}
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
	for (int i = 0; i < 8; i++) {
		struct hx_event *e = events[i];

		if (!e || e->ev.hstate != HX_ACTIVE || e->ev.oncpu != cpu ||
		    (e->ev.hw.state & PERF_HES_STOPPED))
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
		per_cpu_ptr((struct perf_output_handle *)irq_dev, cpu);

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

	while (irq_handler && irq_enabled[cpu] && !irq_masked[cpu] &&
	       spe_irq_level(cpu)) {
		struct spe_stats before = spe.stats;
		bool full = is_full_event(spe_peek(cpu, SPE_PMBSR));
		irqreturn_t ret;

		if (++n > HARNESS_STORM_BOUND) {
			const struct spe_access *ig = spe.nr_ignored ?
				&spe.ignored[spe.nr_ignored - 1] : NULL;

			hirq.storms++;
			spe_violation("storm: PMBIRQ still high on CPU%d after %d handler entries, PMBSR=0x%llx%s%s:%d",
				      cpu, HARNESS_STORM_BOUND,
				      (unsigned long long)spe_peek(cpu, SPE_PMBSR),
				      ig ? ", last ignored write at " : "",
				      ig ? ig->fn : "", ig ? ig->line : 0);
			/* mask the line so the test can finish */
			irq_masked[cpu] = true;
			break;
		}
		harness_cur_cpu = cpu;
		spe_context_sync(cpu);		/* exception entry */
		if (!no_handle)
			no_handle = check_no_handle(cpu);
		spe.in_irq = true;
		ret = irq_handler(SPE_PPI, per_cpu_ptr((struct perf_output_handle *)irq_dev, cpu));
		if (full && (spe_peek(cpu, SPE_PMBLIMITR) & PMBLIMITR_EL1_E) &&
		    !spe_irq_level(cpu))
			hirq.resumed_in_handler++;
		spe_context_sync(cpu);		/* exception return */
		spe.in_irq = false;
		hx_check_running(cpu, "after the interrupt handler");
		irq_work_run();
		harness_cur_cpu = save;
		hirq.entries++;
		if (ret == IRQ_NONE)
			hirq.none++;
		if (full) {
			hirq.full_irqs++;
			hirq.reads += spe.stats.reads - before.reads;
			hirq.writes += spe.stats.writes - before.writes;
			hirq.isbs += spe.stats.isbs - before.isbs;
			hirq.drains += spe.stats.drains - before.drains;
			hirq.trapped += spe.stats.trapped - before.trapped;
		}
	}
}

/* --- hotplug --- */

int cpuhp_setup_state_multi(enum cpuhp_state state, const char *name,
			    int (*startup)(unsigned int cpu, struct hlist_node *node),
			    int (*teardown)(unsigned int cpu, struct hlist_node *node))
{
	(void)state; (void)name;
	hp_startup = startup;
	hp_teardown = teardown;
	return CPUHP_AP_ONLINE_DYN + 1;
}

static void hp_call(int (*fn)(unsigned int, struct hlist_node *), int cpu)
{
	int save = harness_cur_cpu;

	harness_cur_cpu = cpu;
	fn(cpu, hp_node);
	spe_context_sync(cpu);
	harness_cur_cpu = save;
}

int cpuhp_state_add_instance(enum cpuhp_state state, struct hlist_node *node)
{
	int cpu;

	(void)state;
	hp_node = node;
	for_each_cpu(cpu, &harness_online_mask)
		hp_call(hp_startup, cpu);
	return 0;
}

int cpuhp_state_remove_instance(enum cpuhp_state state, struct hlist_node *node)
{
	int cpu;

	(void)state; (void)node;
	for_each_cpu(cpu, &harness_online_mask)
		hp_call(hp_teardown, cpu);
	hp_node = NULL;
	return 0;
}

void cpuhp_remove_multi_state(enum cpuhp_state state)
{
	(void)state;
	hp_startup = hp_teardown = NULL;
}

void harness_cpu_online(int cpu)
{
	cpumask_set_cpu(cpu, &harness_online_mask);
	if (hp_node)
		hp_call(hp_startup, cpu);
	hx_deliver(cpu);
}

void harness_cpu_offline(int cpu)
{
	/* perf migrates or stops events first; tests keep the CPU idle */
	if (hp_node)
		hp_call(hp_teardown, cpu);
	cpumask_clear_cpu(cpu, &harness_online_mask);
}

/* --- platform bus --- */

int platform_driver_register(struct platform_driver *drv)
{
	pdrv = drv;
	pdev.name = drv->id_table ? drv->id_table[0].name : "arm,spe-v1";
	pdev.irq = SPE_PPI;
	return drv->probe(&pdev);
}

void platform_driver_unregister(struct platform_driver *drv)
{
	if (drv->remove_new)
		drv->remove_new(&pdev);
	else if (drv->remove)
		drv->remove(&pdev);
	pdrv = NULL;
}

int perf_pmu_register(struct pmu *pmu, const char *name, int type)
{
	(void)type;
	pmu->name = name;
	pmu->type = 42;		/* a dynamic PMU type */
	pmu_dev.driver_data = pmu;
	pmu->dev = &pmu_dev;
	harness_pmu = pmu;
	return 0;
}

void perf_pmu_unregister(struct pmu *pmu)
{
	(void)pmu;
	harness_pmu = NULL;
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
			    !(*g)->is_visible(&pmu_dev.kobj, *a, 0))
				return NULL;
			buf[0] = 0;
			da->show(&pmu_dev, da, buf);
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

/* --- ring buffer (kernel/events/ring_buffer.c) --- */

static void output_wakeup(struct perf_output_handle *h)
{
	h->rb->wakeups++;
}

static unsigned long aux_size(struct perf_buffer *rb)
{
	return (unsigned long)rb->aux_nr_pages << PAGE_SHIFT;
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
		if (head - tail < aux_size(rb))
			/* CIRC_SPACE: one byte always stays free */
			handle->size = (tail - (head + 1)) & (aux_size(rb) - 1);
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

static void free_aux_ref(struct perf_buffer *rb)
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
	free_aux_ref(rb);
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

/* --- the harness side of perf core: event life cycle --- */

void harness_reset(int nr_cpus, enum spe_mode mode, bool visibility)
{
	spe_model_reset(nr_cpus, mode, visibility);
	harness_nr_cpus = nr_cpus;
	harness_cur_cpu = 0;
	harness_kpti = false;
	harness_deny_kernel = false;
	harness_online_mask.bits[0] = (1UL << nr_cpus) - 1;
	memset(&hirq, 0, sizeof(hirq));
	memset(irq_enabled, 0, sizeof(irq_enabled));
	memset(irq_masked, 0, sizeof(irq_masked));
	ppi_affinity.bits[0] = (1UL << nr_cpus) - 1;
	memset(events, 0, sizeof(events));
	nr_log = 0;
	harness_pmu = NULL;
	for (int i = 0; i < nr_devm; i++)
		free(devm_list[i]);
	nr_devm = 0;
}

int harness_load(void)
{
	int ret = harness_module_init();

	for (int cpu = 0; cpu < harness_nr_cpus; cpu++)
		hx_deliver(cpu);
	return ret;
}

void harness_unload(void)
{
	for (int i = 0; i < 8; i++)
		if (events[i])
			hx_close(events[i]);
	harness_module_exit();
}

static void settle(int cpu)
{
	int save = harness_cur_cpu;

	/* return to user space: exception return, then pending irq_work and IRQs */
	spe_context_sync(cpu);
	harness_cur_cpu = cpu;
	irq_work_run();
	harness_cur_cpu = save;
	hx_deliver(cpu);
	hx_check_running(cpu, "after a perf core call");
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

	for (slot = 0; slot < 8 && events[slot]; slot++)
		;
	if (slot == 8 || !harness_pmu) {
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
	events[slot] = e;
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
	rb->aux_watermark = snapshot ? 0 : (unsigned long)nr_pages << (PAGE_SHIFT - 1);
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
	if (e->ev.hstate == HX_ACTIVE && !(e->ev.hw.state & PERF_HES_STOPPED)) {
		int save = harness_cur_cpu;

		harness_cur_cpu = e->ev.oncpu;
		e->ev.pmu->stop(&e->ev, PERF_EF_UPDATE);
		harness_cur_cpu = save;
		settle(e->ev.oncpu);
	}
	hx_consume(e);
	/* the fuzzer checks for unflagged loss while the data is still there */
	if (hx_unmap_check)
		hx_check_data(e);
	rb->aux_mmap_count = 0;
	e->mapped = false;
	free_aux_ref(rb);
}

int hx_enable(struct hx_event *e, int cpu)
{
	int save = harness_cur_cpu, ret;

	if (e->ev.cpu >= 0)
		cpu = e->ev.cpu;
	if (e->ev.hstate == HX_ACTIVE)
		return 0;
	harness_cur_cpu = cpu;
	ret = e->ev.pmu->add(&e->ev, PERF_EF_START);
	harness_cur_cpu = save;
	e->ev.oncpu = cpu;
	e->ev.hstate = ret ? HX_ERROR : HX_ACTIVE;
	e->last_err = ret;
	settle(cpu);
	return ret;
}

void hx_disable(struct hx_event *e)
{
	int save = harness_cur_cpu, cpu = e->ev.oncpu;

	if (e->ev.hstate != HX_ACTIVE)
		return;
	harness_cur_cpu = cpu;
	e->ev.pmu->del(&e->ev, 0);
	harness_cur_cpu = save;
	e->ev.hstate = HX_OFF;
	settle(cpu);
}

/* perf_event_stop() and restart in place: pmu::stop(UPDATE), pmu::start() */
void hx_stop(struct hx_event *e)
{
	int save = harness_cur_cpu, cpu = e->ev.oncpu;

	if (e->ev.hstate != HX_ACTIVE || (e->ev.hw.state & PERF_HES_STOPPED))
		return;
	harness_cur_cpu = cpu;
	e->ev.pmu->stop(&e->ev, PERF_EF_UPDATE);
	harness_cur_cpu = save;
	settle(cpu);
}

void hx_start(struct hx_event *e, int flags)
{
	int save = harness_cur_cpu, cpu = e->ev.oncpu;

	if (e->ev.hstate != HX_ACTIVE || !(e->ev.hw.state & PERF_HES_STOPPED))
		return;
	harness_cur_cpu = cpu;
	e->ev.pmu->start(&e->ev, flags);
	harness_cur_cpu = save;
	settle(cpu);
}

void hx_close(struct hx_event *e)
{
	hx_disable(e);
	hx_munmap_aux(e);
	for (int i = 0; i < 8; i++)
		if (events[i] == e)
			events[i] = NULL;
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
	settle(cpu);
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
	unsigned long bufsz = aux_size(rb);

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

			if (!lin[i]) {			/* padding (R130) */
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
	size_t bufsz = aux_size(rb), lost = 0;
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
