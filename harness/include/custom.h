/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Custom: the deliberate test hooks.  System register accesses and
 * barriers go to the SPE model (model/spe.c) together with the driver
 * function and line that made them; perf core, IRQ, CPU hotplug and
 * platform calls go to the kernel stand-ins (shim/kernel.c) and the AUX
 * ring buffer (model/aux.c).
 */
#ifndef HARNESS_CUSTOM_H
#define HARNESS_CUSTOM_H

#include "spe.h"

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define NR_CPUS		SPE_MAX_CPUS
#define nr_cpu_ids	harness_nr_cpus

extern int harness_nr_cpus;
extern int harness_cur_cpu;		/* the CPU the code runs on */
extern bool harness_kpti;
extern bool harness_deny_kernel;	/* perf_allow_kernel() fails */

/* --- system registers and barriers: asm/sysreg.h, asm/barrier.h --- */
#define read_sysreg_s(r)	spe_read(harness_cur_cpu, (r), __func__, __LINE__)
#define write_sysreg_s(v, r)	spe_write(harness_cur_cpu, (r), (u64)(v), __func__, __LINE__)
#define read_cpuid(r)		spe_read(harness_cur_cpu, SYS_##r, __func__, __LINE__)
#define isb()			spe_isb(harness_cur_cpu, __func__, __LINE__)
#define psb_csync()		spe_psb_csync(harness_cur_cpu, __func__, __LINE__)
#define dsb(opt)		spe_dsb(harness_cur_cpu, __func__, __LINE__)
#define tsb_csync()		do { } while (0)

static inline unsigned int cpuid_feature_extract_unsigned_field(u64 features, int field)
{
	return (features >> field) & 0xf;
}

static inline bool arm64_kernel_unmapped_at_el0(void)
{
	return harness_kpti;
}

/* --- CPUs, per-CPU data, cpumasks --- */
#define smp_processor_id()	harness_cur_cpu
#define raw_smp_processor_id()	harness_cur_cpu
#define cpu_to_node(cpu)	0
#define alloc_percpu(type)	((type *)calloc(NR_CPUS, sizeof(type)))
#define free_percpu(p)		free(p)
#define this_cpu_ptr(p)		(&(p)[harness_cur_cpu])
#define per_cpu_ptr(p, cpu)	(&(p)[cpu])

typedef struct cpumask { unsigned long bits[1]; } cpumask_t;
#define cpumask_bits(m)		((m)->bits)
#define cpumask_pr_args(m)	nr_cpu_ids, cpumask_bits(m)
#define cpumask_test_cpu(c, m)	(!!((m)->bits[0] & (1UL << (c))))
#define cpumask_set_cpu(c, m)	((m)->bits[0] |= 1UL << (c))
#define cpumask_clear_cpu(c, m)	((m)->bits[0] &= ~(1UL << (c)))
#define cpumask_empty(m)	(!(m)->bits[0])
#define cpumask_first(m)	((m)->bits[0] ? __builtin_ctzl((m)->bits[0]) : nr_cpu_ids)
#define for_each_cpu(cpu, m)						\
	for ((cpu) = 0; (cpu) < nr_cpu_ids; (cpu)++)			\
		if (cpumask_test_cpu(cpu, m))
extern cpumask_t harness_online_mask;
#define cpu_online_mask		(&harness_online_mask)
#define cpu_possible_mask	(&harness_online_mask)
#define for_each_online_cpu(cpu)	for_each_cpu(cpu, cpu_online_mask)
#define cpumask_copy(dst, src)	(*(dst) = *(src))

int smp_call_function_any(const cpumask_t *mask, void (*fn)(void *), void *info, int wait);
int smp_call_function_single(int cpu, void (*fn)(void *), void *info, int wait);
void on_each_cpu_mask(const cpumask_t *mask, void (*fn)(void *), void *info, bool wait);
ssize_t cpumap_print_to_pagebuf(bool list, char *buf, const cpumask_t *mask);

/* --- printk and WARN: captured for the oracles --- */
void harness_printk(const char *level, const char *fmt, ...);
void harness_warn(const char *fn, int line);
#define pr_err(fmt, ...)		harness_printk("err", pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)		harness_printk("warn", pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)		harness_printk("info", pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)		harness_printk("debug", pr_fmt(fmt), ##__VA_ARGS__)
/* rate limiting is not modelled: every message is kept, tests count them */
#define pr_err_ratelimited		pr_err
#define pr_warn_ratelimited		pr_warn
#define pr_err_once			pr_err
#define pr_warn_once			pr_warn
#define pr_info_once			pr_info
#define dev_err(d, fmt, ...)		harness_printk("err", fmt, ##__VA_ARGS__)
#define dev_warn(d, fmt, ...)		harness_printk("warn", fmt, ##__VA_ARGS__)
#define dev_info(d, fmt, ...)		harness_printk("info", fmt, ##__VA_ARGS__)
#define dev_dbg(d, fmt, ...)		harness_printk("debug", fmt, ##__VA_ARGS__)
#define dev_warn_once			dev_warn
#define dev_err_once			dev_err
#define dev_err_ratelimited		dev_err
#define dev_warn_ratelimited		dev_warn
#define dev_info_ratelimited		dev_info
#define WARN(c, fmt, ...)						\
	({ int __w = !!(c); if (__w) harness_warn(__func__, __LINE__); __w; })
#define WARN_ON(c)		WARN(c, "")
#define WARN_ONCE(c, ...)	WARN(c, "")
#define WARN_ON_ONCE(c)		WARN(c, "")
#define BUG_ON(c)		((void)WARN(c, ""))
#define BUILD_BUG_ON(c)		_Static_assert(!(c), #c)

/* --- memory --- */
#define PAGE_SHIFT		12
#define PAGE_SIZE		BIT(PAGE_SHIFT)
#define kzalloc(s, g)		calloc(1, (s))
#define kzalloc_node(s, g, n)	calloc(1, (s))
#define kmalloc(s, g)		malloc(s)
#define kcalloc(n, s, g)	calloc((n), (s))
/* 7.x: an array of @n objects of the type of @p (an lvalue or a type) */
#define kzalloc_objs(p, n, ...)						\
	((__typeof__(p) *)calloc((n), sizeof(__typeof__(p))))
#define kmalloc_objs(p, n, ...)						\
	((__typeof__(p) *)malloc((n) * sizeof(__typeof__(p))))
#define kfree(p)		free(p)
#define devm_kzalloc(d, s, g)	harness_devm_zalloc(s)
#define virt_to_page(p)		((struct page *)(p))
#define page_address(p)		((void *)(p))
void *harness_devm_zalloc(size_t size);
char *devm_kasprintf(struct device *dev, gfp_t gfp, const char *fmt, ...);
void *vmap(struct page **pages, unsigned int count, unsigned long flags, int prot);
/*
 * In the driver's own compilation unit (driver.c defines
 * HARNESS_DRIVER_CU before #including it), memset() is bounds-checked
 * against the AUX areas: arm_spe_pmu_pad_buf() writing past the end of
 * the vmap()ed buffer is a reported violation, not only an ASan abort.
 */
#ifdef HARNESS_DRIVER_CU
#define memset(s, c, n)		spe_driver_memset((s), (c), (n), __func__, __LINE__)
#endif
void vunmap(const void *addr);
int sysfs_emit(char *buf, const char *fmt, ...);

/* --- perf core: ring buffer in model/aux.c, the rest in shim/kernel.c --- */
void *perf_aux_output_begin(struct perf_output_handle *handle, struct perf_event *event);
void perf_aux_output_end(struct perf_output_handle *handle, unsigned long size);
int perf_aux_output_skip(struct perf_output_handle *handle, unsigned long size);
void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags);
void *perf_get_aux(struct perf_output_handle *handle);
int perf_pmu_register(struct pmu *pmu, const char *name, int type);
extern struct pmu *harness_pmu;		/* the PMU perf_pmu_register() was given */
void perf_pmu_unregister(struct pmu *pmu);
int harness_perf_allow_kernel(void);
#define perf_allow_kernel(...)	harness_perf_allow_kernel()
void irq_work_run(void);

/* --- IRQs, CPU hotplug, platform bus --- */
int request_percpu_irq(unsigned int irq, irq_handler_t handler, const char *name,
		       void __percpu *dev);
/* 7.x: the PPI may be requested for a partition of the CPUs only */
int request_percpu_irq_affinity(unsigned int irq, irq_handler_t handler,
				const char *name, const cpumask_t *affinity,
				void __percpu *dev);
void free_percpu_irq(unsigned int irq, void __percpu *dev);
void enable_percpu_irq(unsigned int irq, unsigned int type);
void disable_percpu_irq(unsigned int irq);
int platform_get_irq(struct platform_device *pdev, unsigned int n);
int platform_get_irq_affinity(struct platform_device *pdev, unsigned int n,
			      const cpumask_t **affinity);
bool irq_is_percpu(unsigned int irq);
int irq_get_percpu_devid_partition(unsigned int irq, cpumask_t *affinity);

int cpuhp_setup_state_multi(enum cpuhp_state state, const char *name,
			    int (*startup)(unsigned int cpu, struct hlist_node *node),
			    int (*teardown)(unsigned int cpu, struct hlist_node *node));
int cpuhp_state_add_instance(enum cpuhp_state state, struct hlist_node *node);
int cpuhp_state_remove_instance(enum cpuhp_state state, struct hlist_node *node);
void cpuhp_remove_multi_state(enum cpuhp_state state);

int platform_driver_register(struct platform_driver *drv);
void platform_driver_unregister(struct platform_driver *drv);

/* module_init/exit name the functions the harness calls to load/unload */
#define module_init(fn)	int (*harness_module_init)(void) = fn
#define module_exit(fn)	void (*harness_module_exit)(void) = fn

#endif
