/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Duplicates: definitions whose values or layout must stay in sync with
 * the kernel (include/uapi/linux/perf_event.h, include/linux/perf_event.h,
 * include/linux/device.h, include/linux/platform_device.h,
 * include/linux/perf/arm_pmu.h).  Only the members the driver or the
 * harness touch are present.  Check them when the base tree moves.
 */
#ifndef HARNESS_DUP_H
#define HARNESS_DUP_H

/* uapi perf_event.h: AUX record flags */
#define PERF_AUX_FLAG_TRUNCATED			0x01
#define PERF_AUX_FLAG_OVERWRITE			0x02
#define PERF_AUX_FLAG_PARTIAL			0x04
#define PERF_AUX_FLAG_COLLISION			0x08
#define PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK	0xff00

/* linux/perf_event.h: pmu::add/start/stop flags and hw state */
#define PERF_EF_START		0x01
#define PERF_EF_RELOAD		0x02
#define PERF_EF_UPDATE		0x04
#define PERF_HES_STOPPED	0x01
#define PERF_HES_UPTODATE	0x02
#define PERF_HES_ARCH		0x04
#define PERF_EVENT_FLAG_ARCH	0x0fffffff

#define PERF_PMU_CAP_NO_INTERRUPT	0x0001
#define PERF_PMU_CAP_NO_NMI		0x0002
#define PERF_PMU_CAP_AUX_NO_SG		0x0004
#define PERF_PMU_CAP_EXTENDED_REGS	0x0008
#define PERF_PMU_CAP_EXCLUSIVE		0x0010
#define PERF_PMU_CAP_ITRACE		0x0020
#define PERF_PMU_CAP_NO_EXCLUDE		0x0040
#define PERF_PMU_CAP_AUX_OUTPUT		0x0080

enum perf_event_task_context { perf_invalid_context = -1, perf_hw_context = 0, perf_sw_context };

struct perf_event_attr {
	u32 type;
	u32 size;
	u64 config;
	union { u64 sample_period; u64 sample_freq; };
	u64 sample_type;
	u64 read_format;
	u64 disabled : 1, inherit : 1, pinned : 1, exclusive : 1,
	    exclude_user : 1, exclude_kernel : 1, exclude_hv : 1,
	    exclude_idle : 1, mmap : 1, comm : 1, freq : 1;
	u64 config1;
	u64 config2;
	u32 aux_watermark;
	u64 config3;
	u64 config4;		/* 7.x: extension of config3 */
};

struct hw_perf_event {
	int state;
	u64 flags;
	u64 sample_period;
	local64_t period_left;
};

struct perf_buffer;
struct perf_event;
struct perf_output_handle;
struct device;

struct pmu {
	struct module *module;
	struct device *parent;
	const struct attribute_group **attr_groups;
	const struct attribute_group **attr_update;
	const char *name;
	int type;
	int capabilities;
	int task_ctx_nr;
	int (*event_init)(struct perf_event *event);
	int (*add)(struct perf_event *event, int flags);
	void (*del)(struct perf_event *event, int flags);
	void (*start)(struct perf_event *event, int flags);
	void (*stop)(struct perf_event *event, int flags);
	void (*read)(struct perf_event *event);
	void *(*setup_aux)(struct perf_event *event, void **pages, int nr_pages, bool overwrite);
	void (*free_aux)(void *aux);
	/* harness: the sysfs device perf core creates for the PMU */
	struct device *dev;
};

struct perf_event {
	struct perf_event_attr attr;
	struct hw_perf_event hw;
	struct pmu *pmu;
	struct perf_event *parent;
	int cpu;
	int pending_disable;
	/* harness */
	struct perf_buffer *rb;
	int oncpu;
	int hstate;
};

struct perf_output_handle {
	struct perf_event *event;
	struct perf_buffer *rb;
	unsigned long wakeup;
	unsigned long size;
	u64 aux_flags;
	union { void *addr; unsigned long head; };
	int page;
};

/* linux/sysfs.h, linux/device.h */
struct attribute {
	const char *name;
	umode_t mode;
};

struct attribute_group {
	const char *name;
	umode_t (*is_visible)(struct kobject *kobj, struct attribute *attr, int n);
	struct attribute **attrs;
};

struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr, char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count);
};

struct dev_ext_attribute {
	struct device_attribute attr;
	void *var;
};

#define __ATTR(_name, _mode, _show, _store)				\
	{ .attr = { .name = __stringify(_name), .mode = (_mode) },	\
	  .show = (_show), .store = (_store) }
#define __ATTR_RO(_name)	__ATTR(_name, 0444, _name##_show, NULL)
#define DEVICE_ATTR_RO(_name)						\
	struct device_attribute dev_attr_##_name = __ATTR_RO(_name)

struct device_driver {
	const char *name;
	const struct of_device_id *of_match_table;
	bool suppress_bind_attrs;
};

struct device {
	struct kobject kobj;
	struct device *parent;
	void *driver_data;
};

#define kobj_to_dev(k)		container_of(k, struct device, kobj)
#define dev_get_drvdata(d)	((d)->driver_data)
#define dev_set_drvdata(d, v)	((d)->driver_data = (v))

struct of_device_id {
	char name[32];
	char type[32];
	char compatible[128];
	const void *data;
};

#define of_match_ptr(p)		(p)

struct platform_device_id {
	char name[20];
	unsigned long driver_data;
};

struct platform_device {
	const char *name;
	int id;
	struct device dev;
	/* harness */
	int irq;
};

struct platform_driver {
	int (*probe)(struct platform_device *pdev);
	void (*remove)(struct platform_device *pdev);
	void (*remove_new)(struct platform_device *pdev);
	struct device_driver driver;
	const struct platform_device_id *id_table;
};

#define platform_set_drvdata(p, d)	((p)->dev.driver_data = (d))
#define platform_get_drvdata(p)		((p)->dev.driver_data)

/* linux/perf/arm_pmu.h */
#define ARMV8_SPE_PDEV_NAME	"arm,spe-v1"

#define HARNESS_CFG_GET(val, lo, hi)					\
	(((val) >> (lo)) & GENMASK_ULL((hi) - (lo), 0))
#define ATTR_CFG_GET_FLD(attr, name)					\
	HARNESS_CFG_GET((attr)->ATTR_CFG_FLD_##name##_CFG,		\
			ATTR_CFG_FLD_##name##_LO, ATTR_CFG_FLD_##name##_HI)
/* The format attribute shows what perf parses: "<configN>:<lo>-<hi>" */
#define GEN_PMU_FORMAT_ATTR(_name)					\
	static ssize_t format_attr_##_name##_show(struct device *dev,	\
						  struct device_attribute *attr, \
						  char *buf)		\
	{								\
		return sysfs_emit(buf, "%s\n",				\
				  __stringify(ATTR_CFG_FLD_##_name##_CFG) ":" \
				  __stringify(ATTR_CFG_FLD_##_name##_LO) "-" \
				  __stringify(ATTR_CFG_FLD_##_name##_HI)); \
	}								\
	static struct device_attribute format_attr_##_name =		\
		__ATTR(_name, 0444, format_attr_##_name##_show, NULL)

/* linux/irqreturn.h, linux/irq.h */
typedef enum { IRQ_NONE = 0, IRQ_HANDLED = 1, IRQ_WAKE_THREAD = 2 } irqreturn_t;
typedef irqreturn_t (*irq_handler_t)(int irq, void *dev);
#define IRQ_TYPE_NONE		0

/* linux/cpuhotplug.h */
enum cpuhp_state { CPUHP_INVALID = -1, CPUHP_AP_ONLINE_DYN = 100 };

#endif
