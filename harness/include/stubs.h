/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stubs: kernel types and helpers the driver needs, reduced to what a
 * single-threaded userspace program can honour.  Nothing here is a test
 * hook; see custom.h for those.
 */
#ifndef HARNESS_STUBS_H
#define HARNESS_STUBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "harness_bits.h"

/*
 * Generic helpers from the revision's own tools/include (prepare.sh):
 * SZ_*, ALIGN, IS_ALIGNED, round_up/down, roundup, DIV_ROUND_UP,
 * __stringify.
 */
#include <tools/include/linux/align.h>
#include <tools/include/linux/math.h>
#include <tools/include/linux/sizes.h>
#include <tools/include/linux/stringify.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned short umode_t;
typedef unsigned int gfp_t;
typedef long long loff_t_h;

/* errno values are those of include/uapi/asm-generic/errno*.h */
#define EPERM		1
#define ENOENT		2
#define EIO		5
#define ENXIO		6
#define ENOMEM		12
#define EBUSY		16
#define ENODEV		19
#define EINVAL		22
#define ENOSPC		28
#define EDOM		33
#define EOPNOTSUPP	95

#define __init
#define __exit
#define __percpu
#define __iomem
#ifndef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#endif
#define __maybe_unused		__attribute__((unused))
#define __must_check
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define fallthrough		__attribute__((__fallthrough__))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, v)	((x) = (v))
#define barrier()		__asm__ __volatile__("" ::: "memory")

#define static_assert(expr, ...)	_Static_assert(expr, #expr)

/* IS_ENABLED(CONFIG_FOO) is 1 only when CONFIG_FOO is defined to 1 */
#define HARNESS_PROBE_1		~, 1
#define HARNESS_SECOND(a, b, ...)	b
#define HARNESS_SECOND_(...)	HARNESS_SECOND(__VA_ARGS__)
#define HARNESS_IS_ONE(x)	HARNESS_SECOND_(HARNESS_PROBE_##x, 0)
#define HARNESS_IS_ONE_(x)	HARNESS_IS_ONE(x)
#define IS_ENABLED(opt)		HARNESS_IS_ONE_(opt)
#define IS_BUILTIN(opt)		IS_ENABLED(opt)

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member)					\
	((type *)((char *)(ptr) - offsetof(type, member)))

#define min(a, b)	({ __typeof__(a) __mn_a = (a); __typeof__(b) __mn_b = (b); \
			   __mn_a < __mn_b ? __mn_a : __mn_b; })
#define max(a, b)	({ __typeof__(a) __mx_a = (a); __typeof__(b) __mx_b = (b); \
			   __mx_a > __mx_b ? __mx_a : __mx_b; })
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define min_not_zero(a, b)						\
	({ __typeof__(a) __mnz_a = (a); __typeof__(b) __mnz_b = (b);	\
	   __mnz_a == 0 ? __mnz_b : (__mnz_b == 0 ? __mnz_a : min(__mnz_a, __mnz_b)); })
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi)	clamp((t)(v), (t)(lo), (t)(hi))
#define rounddown(x, y)		((x) - ((x) % (y)))
#define is_power_of_2(n)	((n) != 0 && (((n) & ((n) - 1)) == 0))
#define ilog2(n)		(63 - __builtin_clzll((u64)(n)))
#define __ffs(x)		((unsigned long)__builtin_ctzl(x))
#define __fls(x)		((unsigned long)(63 - __builtin_clzl(x)))
#define fls64(x)		((x) ? 64 - __builtin_clzll(x) : 0)
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))
#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))

#define FIELD_GET(mask, reg)						\
	((__typeof__(mask))(((reg) & (mask)) >> __builtin_ctzll(mask)))
#define FIELD_PREP(mask, val)						\
	((__typeof__(mask))(((u64)(val) << __builtin_ctzll(mask)) & (mask)))
#define FIELD_MAX(mask)		((__typeof__(mask))((mask) >> __builtin_ctzll(mask)))
#define FIELD_FIT(mask, val)	(!((((u64)(val)) << __builtin_ctzll(mask)) & ~(mask)))

#define U16_MAX			((u16)~0U)
#define U32_MAX			((u32)~0U)
#define U64_MAX			((u64)~0ULL)

#define GFP_KERNEL		0
#define VM_MAP			0
#define PAGE_KERNEL		0
#define NUMA_NO_NODE		(-1)
#define S_IRUGO			0444
#define THIS_MODULE		((struct module *)NULL)

typedef struct { int counter; } atomic_t;
#define ATOMIC_INIT(i)		{ (i) }
#define atomic_inc_return(v)	(++(v)->counter)
#define atomic_read(v)		((v)->counter)
#define atomic_set(v, i)	((v)->counter = (i))

typedef struct { s64 v; } local64_t;
#define local64_read(l)		((l)->v)
#define local64_set(l, i)	((l)->v = (i))

struct hlist_node { struct hlist_node *next, **pprev; };
#define hlist_entry_safe(ptr, type, member)				\
	({ __typeof__(ptr) ____p = (ptr); ____p ? container_of(____p, type, member) : NULL; })

struct module;
struct page;
struct kobject { const char *name; };
struct lock_class_key { int unused; };

#define might_sleep()		do { } while (0)
#define lockdep_assert_irqs_disabled()	do { } while (0)
#define preempt_disable()	do { } while (0)
#define preempt_enable()	do { } while (0)
#define local_irq_save(f)	((void)(f))
#define local_irq_restore(f)	((void)(f))

/* Module boilerplate expands to declarations so the trailing ';' is legal */
#define MODULE_DESCRIPTION(s)	extern int harness_module_info
#define MODULE_AUTHOR(s)	extern int harness_module_info
#define MODULE_LICENSE(s)	extern int harness_module_info
#define MODULE_ALIAS(s)		extern int harness_module_info
#define MODULE_DEVICE_TABLE(type, name)	extern int harness_module_info
#define MODULE_IMPORT_NS(ns)	extern int harness_module_info
#define EXPORT_SYMBOL_GPL(s)	extern int harness_module_info
#define EXPORT_SYMBOL(s)	extern int harness_module_info
/* <kunit/visibility.h> without CONFIG_KUNIT, as the harness builds it */
#define VISIBLE_IF_KUNIT		static
#define EXPORT_SYMBOL_IF_KUNIT(s)	extern int harness_module_info

#endif
