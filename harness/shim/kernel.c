// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel stand-ins the driver calls: printk and WARN (captured for the
 * oracles), devm allocation, vmap, sysfs, cross-CPU calls, the per-CPU
 * IRQ, irq_work (the perf core's pending disable), CPU hotplug, the
 * platform bus and PMU registration.  One thread; the CPU the code runs
 * on is harness_cur_cpu.  The AUX ring buffer is model/aux.c, the test
 * API that drives all of it is api/hx.c.
 */
#include <stdarg.h>
#include <stdio.h>

#include "shim.h"

int harness_nr_cpus;
int harness_cur_cpu;
bool harness_kpti;
bool harness_deny_kernel;
cpumask_t harness_online_mask;
struct pmu *harness_pmu;
struct device harness_pmu_dev;
struct harness_irq harness_irq;
struct perf_event *harness_events[HARNESS_MAX_EVENTS];
struct harness_log harness_log;

static struct platform_device pdev;
static struct platform_driver *pdrv;
static int (*hp_startup)(unsigned int, struct hlist_node *);
static int (*hp_teardown)(unsigned int, struct hlist_node *);
static struct hlist_node *hp_node;

static void *devm_list[HARNESS_MAX_DEVM];
static int nr_devm;

/* --- printk, WARN, allocation, sysfs --- */

/*
 * Every message is kept for the oracles; one that does not fit (a full
 * log, a cut line) is a violation, so no test reads a short log unaware.
 */
void harness_printk(const char *level, const char *fmt, ...)
{
	char *line;
	va_list ap;
	int n;

	if (harness_log.nr == HARNESS_LOG_LINES) {
		if (!harness_log.dropped++)
			spe_violation("harness: more than %d driver messages, raise HARNESS_LOG_LINES",
				      HARNESS_LOG_LINES);
		return;
	}
	line = harness_log.lines[harness_log.nr];
	n = snprintf(line, HARNESS_LOG_LINE_LEN, "%s: ", level);
	va_start(ap, fmt);
	if (vsnprintf(line + n, HARNESS_LOG_LINE_LEN - n, fmt, ap) >=
	    HARNESS_LOG_LINE_LEN - n && !harness_log.truncated++)
		spe_violation("harness: a driver message longer than %d characters, raise HARNESS_LOG_LINE_LEN",
			      HARNESS_LOG_LINE_LEN - 1);
	va_end(ap);
	harness_log.nr++;
}

void harness_warn(const char *fn, int line)
{
	spe_violation("WARN at %s:%d", fn, line);
}

void *harness_devm_zalloc(size_t size)
{
	void *p = calloc(1, size);

	if (nr_devm == HARNESS_MAX_DEVM)
		spe_violation("harness: more than %d devm allocations, raise HARNESS_MAX_DEVM",
			      HARNESS_MAX_DEVM);
	else
		devm_list[nr_devm++] = p;
	return p;
}

char *devm_kasprintf(struct device *dev, gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	char *p = harness_devm_zalloc(HARNESS_DEVM_STR_LEN);
	int n;

	(void)dev; (void)gfp;
	va_start(ap, fmt);
	n = vsnprintf(p, HARNESS_DEVM_STR_LEN, fmt, ap);
	va_end(ap);
	if (n >= HARNESS_DEVM_STR_LEN)
		spe_violation("harness: devm_kasprintf() of %d characters truncated to %d",
			      n, HARNESS_DEVM_STR_LEN - 1);
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

int request_percpu_irq_affinity(unsigned int irq, irq_handler_t handler,
				const char *name, const cpumask_t *affinity,
				void *dev)
{
	(void)name;
	if (irq != SPE_PPI)
		return -EINVAL;
	/* the partition asked for must be the one the firmware described */
	if (affinity && affinity->bits[0] != harness_irq.ppi_affinity.bits[0])
		return -EINVAL;
	harness_irq.handler = handler;
	harness_irq.dev = dev;
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
	harness_irq.handler = NULL;
}

void enable_percpu_irq(unsigned int irq, unsigned int type)
{
	(void)irq; (void)type;
	harness_irq.enabled[harness_cur_cpu] = true;
}

void disable_percpu_irq(unsigned int irq)
{
	(void)irq;
	harness_irq.enabled[harness_cur_cpu] = false;
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
	*affinity = harness_irq.ppi_affinity;
	return 0;
}

int platform_get_irq_affinity(struct platform_device *p, unsigned int n,
			      const cpumask_t **affinity)
{
	if (n)
		return -ENXIO;
	*affinity = &harness_irq.ppi_affinity;
	return p->irq;
}

/* pending_disable, as perf_pending_disable() -> perf_event_disable_local() */
void irq_work_run(void)
{
	for (int i = 0; i < HARNESS_MAX_EVENTS; i++) {
		struct perf_event *ev = harness_events[i];

		if (!ev || ev->pending_disable < 0)
			continue;
		if (ev->pending_disable != harness_cur_cpu)
			continue;
		ev->pending_disable = -1;
		if (ev->hstate == HARNESS_EV_ACTIVE && ev->oncpu == harness_cur_cpu) {
			ev->pmu->del(ev, 0);
			ev->hstate = HARNESS_EV_OFF;
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
	hp_startup = NULL;
	hp_teardown = NULL;
}

/* The hotplug core bringing @cpu up or down: the driver's callbacks */
void harness_cpu_up(int cpu)
{
	cpumask_set_cpu(cpu, &harness_online_mask);
	if (hp_node)
		hp_call(hp_startup, cpu);
}

void harness_cpu_down(int cpu)
{
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
	harness_pmu_dev.driver_data = pmu;
	pmu->dev = &harness_pmu_dev;
	harness_pmu = pmu;
	return 0;
}

void perf_pmu_unregister(struct pmu *pmu)
{
	(void)pmu;
	harness_pmu = NULL;
}

void harness_shim_reset(int nr_cpus)
{
	harness_nr_cpus = nr_cpus;
	harness_cur_cpu = 0;
	harness_kpti = false;
	harness_deny_kernel = false;
	harness_online_mask.bits[0] = (1UL << nr_cpus) - 1;
	memset(&harness_irq, 0, sizeof(harness_irq));
	harness_irq.ppi_affinity.bits[0] = (1UL << nr_cpus) - 1;
	memset(harness_events, 0, sizeof(harness_events));
	memset(&harness_log, 0, sizeof(harness_log));
	harness_pmu = NULL;
	for (int i = 0; i < nr_devm; i++)
		free(devm_list[i]);
	nr_devm = 0;
}
