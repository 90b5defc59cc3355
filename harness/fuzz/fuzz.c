// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the real SPE driver (driver.c, the object the test
 * runner links as well) against the SPE + hypervisor model, driven by a
 * byte string read as a sequence of perf core calls interleaved with
 * hardware and hypervisor events.  The oracles are the harness's (every
 * spe_violation(): ignored writes, spe-rules: never-past-limit, R_HXSYK,
 * spe-rules: window-in-aux, R_SXWCP, storms, records outside an AUX
 * buffer, AUX data that does not parse or reaches userspace twice, WARNs;
 * data lost without a flag), plus the errno of every refused request, checked
 * against a reference written from the driver's documented behaviour.
 *
 * Input layout (see harness/README, "Fuzzing"):
 *   byte 0      mode (% 3: bare, r24557, den0154), bit 2 visibility,
 *               bit 3 workload at EL1, bit 4 perf_allow_kernel() denied,
 *               bit 5 FEAT_SPE_EFT, bit 6 FEAT_SPE_FDS (where described)
 *   bytes 1-4   PMBIDR_EL1.MaxBuffSize of CPUs 0-3 (mbs_field())
 *   then ops    one opcode byte and its argument bytes each (op_*)
 * Missing bytes read as 0.  A violation prints the trace and aborts, so
 * libFuzzer saves the input as a reproducer; FUZZ_TRACE=1 in the
 * environment prints every op as it runs, FUZZ_MODE=bare|r24557|den0154
 * and FUZZ_VIS=on|off pin the mode and the visibility switch.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hx.h"
#include "driver.h"

#ifndef EACCES
#define EACCES		13	/* perf_allow_kernel() in shim/kernel.c */
#endif

#define NCPU		SPE_MAX_CPUS		/* CPUs of the model */
#define NEV		HARNESS_MAX_EVENTS	/* events open at once */

#define FUZZ_MAX_OPS	64			/* ops of one input */

/* Does the driver carry the series (the Makefile's PATCHED)? */
static const bool harness_tree_patched = HARNESS_TREE_PATCHED;

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	/* devm allocations and the driver's own lifetime are not tracked */
	return "detect_leaks=0";
}

struct in {
	const uint8_t *p;
	size_t n, i;
};

static u8 get8(struct in *in)
{
	return in->i < in->n ? in->p[in->i++] : 0;
}

static u16 get16(struct in *in)
{
	return get8(in) | (u16)get8(in) << 8;
}

static u64 get64(struct in *in)
{
	u64 v = 0;

	for (int i = 0; i < 8; i++)
		v |= (u64)get8(in) << (8 * i);
	return v;
}

/*
 * MaxBuffSize values worth hitting: none, below two pages, around the
 * AUX sizes perf uses, the E=0/E=1 boundary, large ones, reserved bits.
 */
static const u16 mbs_table[32] = {
	0x0000, 0x0000, 0x0000, 0x0001, 0x0002, 0x0003, 0x0004, 0x0008,
	0x0010, 0x0020, 0x0040, 0x0080, 0x0100, 0x01ff, 0x0200, 0x0201,
	0x0300, 0x0400, 0x0600, 0x1800, 0x3fff, 0xc000, 0xc004, 0x4010,
	0x8100, 0x0005, 0x0007, 0x000c, 0x0011, 0x00ff, 0x0101, 0x0000,
};

static u16 mbs_field(struct in *in)
{
	u8 b = get8(in);

	return (b & 0x80) ? get16(in) : mbs_table[b & 31];
}

/* --- the fuzzer's view of the world: perf core bookkeeping ---------- */

static struct {
	struct hx_event *ev[NEV];
	bool online[NCPU];
	u64 ref_limit;		/* reference: smallest non-zero limit seen */
	char trace[4096];
	size_t tlen;
	bool print_trace;
	int force_mode, force_vis;	/* 0: from the input, else value + 1 */
} w;

static void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void trace(const char *fmt, ...)
{
	va_list ap;

	if (w.tlen < sizeof(w.trace) - 1) {
		va_start(ap, fmt);
		w.tlen += vsnprintf(w.trace + w.tlen, sizeof(w.trace) - w.tlen, fmt, ap);
		va_end(ap);
		if (w.tlen > sizeof(w.trace) - 1)
			w.tlen = sizeof(w.trace) - 1;
	}
	if (w.print_trace) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\n==== SPE fuzz violation (driver %s, mode %s, vis %s)\n",
		HARNESS_REV, spe_mode_name(spe.mode), spe.visibility ? "on" : "off");
	if (fmt) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fprintf(stderr, "%d violation(s), %llu PMBIRQ storm(s); the first %d:\n",
		spe.nr_violations, (unsigned long long)hx_irq.storms,
		spe.nr_violations < SPE_MAX_VIOLATIONS ? spe.nr_violations :
		SPE_MAX_VIOLATIONS);
	for (int i = 0; i < spe.nr_violations && i < SPE_MAX_VIOLATIONS; i++)
		fprintf(stderr, "  %s\n", spe.violations[i]);
	fprintf(stderr, "---- ops:\n%s---- driver log:\n", w.trace);
	hx_log_dump();
	abort();
}

static void check(void)
{
	if (spe.nr_violations)
		fail(NULL);
}

/* Record what a mapping of this CPU's limit does to the reference */
static void ref_cpu_online(int cpu, u16 field)
{
	u64 sz = spe_decode_max_buff_size(field);

	if (sz && (!w.ref_limit || sz < w.ref_limit))
		w.ref_limit = sz;
}

static struct hx_event *ev_on(int cpu)
{
	for (int i = 0; i < NEV; i++)
		if (w.ev[i] && w.ev[i]->ev.hstate == HARNESS_EV_ACTIVE && w.ev[i]->ev.oncpu == cpu)
			return w.ev[i];
	return NULL;
}

static int picked;

static struct hx_event *pick(struct in *in)
{
	picked = get8(in) % NEV;
	return w.ev[picked];
}

/*
 * Format terms the driver under test documents (perf-arm-spe.txt, the
 * sysfs format group), present where the driver has the feature:
 * discard=1 (config:35, PMBLIMITR_EL1.FM = DISCARD, SPEv1p2), the EFT
 * terms branch/load/store_filter_mask, simd_filter(_mask) and
 * float_filter(_mask) (config:36-42), inv_data_src_filter (config4).
 */
#define REF_DISCARD							\
	(harness_driver_features & HARNESS_DRV_DISCARD ? BIT_ULL(35) : 0ULL)
#define REF_EFT_TERMS							\
	(harness_driver_features & HARNESS_DRV_EFT ? GENMASK_ULL(42, 36) : 0ULL)
#define REF_HAS_FDS	(!!(harness_driver_features & HARNESS_DRV_FDS))

/* A discard-mode event: runs with no AUX area, writes nothing */
static bool ref_discard(const struct perf_event_attr *a)
{
	return a->config & REF_DISCARD;
}

/*
 * Reference for pmu::event_init(): the errno the driver documents, in
 * the order the driver checks (a request with several faults reports
 * the first).  The model's PMSIDR_EL1 has FE, FT, FL and FnE, EFT and
 * FDS as the input says, and PMSVer is v1p2 (discard mode).
 */
static int ref_event_init(const struct perf_event_attr *a, int cpu)
{
	u64 res0 = ~spe_pmsevfr_implemented();

	if (a->type != harness_pmu->type)
		return -ENOENT;
	if (cpu >= NCPU)
		return -ENOENT;
	/* event_filter (config1), inv_event_filter (config3): RES0 bits */
	if (a->config1 & res0)
		return -EOPNOTSUPP;
	if (a->config3 & res0)
		return -EOPNOTSUPP;
	/* inv_data_src_filter (config4) needs FEAT_SPE_FDS */
	if (REF_HAS_FDS && a->config4 && !spe.feat_fds)
		return -EOPNOTSUPP;
	if (a->exclude_idle)
		return -EOPNOTSUPP;
	if (a->freq)
		return -EINVAL;
	/* the AND masks and the SIMD/FP filters need FEAT_SPE_EFT */
	if ((a->config & REF_EFT_TERMS) && !spe.feat_eft)
		return -EOPNOTSUPP;
	/* pa_enable (bit 1) or pct_enable (bit 2) need perf_allow_kernel() */
	if ((a->config & (BIT_ULL(1) | BIT_ULL(2))) && harness_deny_kernel)
		return -EACCES;
	return 0;
}

static void op_open(struct in *in)
{
	struct perf_event_attr a = { 0 };
	u8 f = get8(in), g = get8(in), c;
	int cpu = (int)(g % 6) - 1, err, want;
	struct hx_event *e;
	int slot;

	for (slot = 0; slot < NEV && w.ev[slot]; slot++)
		;
	if (slot == NEV)
		return;
	a.type = (g & 0x80) ? harness_pmu->type + 1 : harness_pmu->type;
	if (f & 1) {
		a.config = get64(in);		/* any bit, documented or not */
	} else {
		/* ts/pa/pct, jitter, branch/load/store, discard, one EFT term */
		c = get8(in);
		a.config = (c & 0x07) | (u64)(g & 0x08) << 13 |
			   (u64)((g >> 4) & 7) << 32 | (u64)((c >> 3) & 1) << 35;
		if ((c >> 4) & 7)
			a.config |= BIT_ULL(35 + ((c >> 4) & 7));
		if (c & 0x80)
			a.config4 = get64(in);
	}
	if (f & 2)
		a.config1 = get64(in);
	if (f & 4)
		a.config2 = get16(in);
	if (f & 8)
		a.config3 = get64(in);
	a.exclude_idle = !!(f & 0x10);
	a.freq = !!(f & 0x20);
	a.exclude_user = !!(f & 0x40);
	a.exclude_kernel = !!(f & 0x80);
	a.sample_period = 256 + (get8(in) & 3) * 128;
	want = ref_event_init(&a, cpu);
	/* the perf core refuses a CPU that does not exist before any PMU */
	if (cpu >= NCPU)
		return;
	e = hx_open_attr(cpu, &a, &err);
	trace("open(cpu %d, type %s, config 0x%llx/0x%llx/0x%llx/0x%llx/0x%llx, f 0x%02x) = %d -> ev%d%s\n",
	      cpu, a.type == harness_pmu->type ? "spe" : "other",
	      a.config, a.config1, a.config2, a.config3, a.config4, f, err,
	      e ? slot : -1, ref_discard(&a) ? " (discard)" : "");
	if (err != want)
		fail("event_init returned %d, the driver documents %d", err, want);
	if (e)
		w.ev[slot] = e;
	check();
}

static void op_mmap(struct in *in)
{
	struct hx_event *e = pick(in);
	u8 b = get8(in);
	int nr_pages = 1 << (b % 10), err, want = 0;
	bool snapshot = b & 0x80;
	u64 size;

	if (!e || e->mapped)
		return;
	if (b & 0x40)
		nr_pages += 1 + (b & 1);	/* not a power of two */
	size = (u64)nr_pages * PAGE_SIZE;
	/* perf_mmap() -> rb_alloc_aux() -> pmu::setup_aux() */
	if (!is_power_of_2(nr_pages))
		want = -EINVAL;
	else if (nr_pages < 2 || (snapshot && (nr_pages & 1)))
		want = -ENOMEM;
	else if (harness_tree_patched && w.ref_limit && size > w.ref_limit &&
		 !ref_discard(&e->ev.attr))
		want = -ENOMEM;		/* discard mode writes nothing: any size */
	err = hx_mmap_aux(e, nr_pages, snapshot);
	trace("mmap(ev%d, %d pages, %s) = %d (limit %llu)\n", picked, nr_pages,
	      snapshot ? "snapshot" : "normal", err, w.ref_limit);
	if (err != want)
		fail("AUX mmap of %d pages returned %d, the driver documents %d (max_buff_size %llu)",
		     nr_pages, err, want, w.ref_limit);
	check();
}

static void op_munmap(struct in *in)
{
	struct hx_event *e = pick(in);

	if (!e || !e->mapped)
		return;
	trace("munmap(ev%d)\n", picked);
	hx_munmap_aux(e);
	check();
}

static void op_add(struct in *in)
{
	struct hx_event *e = pick(in);
	int cpu = get8(in) % NCPU, err;
	u64 irqs;

	if (!e || e->ev.hstate == HARNESS_EV_ACTIVE)
		return;
	if (e->ev.cpu >= 0)
		cpu = e->ev.cpu;
	/* the SPE PMU is exclusive: one event per CPU; only online CPUs */
	if (!w.online[cpu] || ev_on(cpu))
		return;
	irqs = hx_irq.entries;
	err = hx_enable(e, cpu);
	trace("add(ev%d, cpu %d, START) = %d\n", picked, cpu, err);
	check();
	if (err && err != -EINVAL)
		fail("pmu::add returned %d: only -EINVAL (start failed) is documented", err);
	/* stopped since by an interrupt taken on the way out is fine */
	if (!err && (e->ev.hw.state & PERF_HES_STOPPED) && hx_irq.entries == irqs)
		fail("pmu::add succeeded but left the event stopped");
	if (ref_discard(&e->ev.attr)) {
		u64 lim = spe_peek(cpu, SPE_PMBLIMITR);

		/* discard mode needs no AUX area and cannot fail to start */
		if (err)
			fail("pmu::add of a discard-mode event returned %d", err);
		if (!spe.visibility && !(lim & PMBLIMITR_EL1_E))
			fail("discard-mode event added but PMBLIMITR_EL1.E is clear on CPU%d", cpu);
		if ((lim & PMBLIMITR_EL1_E) &&
		    FIELD_GET(PMBLIMITR_EL1_FM, lim) != PMBLIMITR_EL1_FM_DISCARD)
			fail("discard-mode event enabled the buffer with PMBLIMITR_EL1=0x%llx",
			     lim);
	} else if (!e->mapped && !err) {
		fail("pmu::add succeeded with no AUX buffer");
	}
	if (err && (spe_peek(cpu, SPE_PMBLIMITR) & PMBLIMITR_EL1_E))
		fail("pmu::add failed but left PMBLIMITR_EL1.E set on CPU%d", cpu);
	/* a failed add leaves the event off, as the perf core would */
	if (err)
		e->ev.hstate = HARNESS_EV_OFF;
}

static void op_del(struct in *in)
{
	struct hx_event *e = pick(in);

	if (!e || e->ev.hstate != HARNESS_EV_ACTIVE)
		return;
	trace("del(ev%d)\n", picked);
	hx_disable(e);
	check();
}

static void on_cpu(int cpu, void (*fn)(struct hx_event *, int), struct hx_event *e, int flags)
{
	int save = harness_cur_cpu;

	harness_cur_cpu = cpu;
	fn(e, flags);
	harness_cur_cpu = save;
	hx_settle(cpu, "after pmu::stop/start");
}

static void do_stop(struct hx_event *e, int flags)
{
	e->ev.pmu->stop(&e->ev, flags);
}

static void do_start(struct hx_event *e, int flags)
{
	e->ev.pmu->start(&e->ev, flags);
}

/*
 * perf_event_stop(), PERF_EVENT_IOC_PERIOD: stop and start an event in
 * place.  The core stops an AUX event that cannot be throttled (no
 * sampling overflows, no freq mode) only with PERF_EF_UPDATE: stop(0)
 * would keep the AUX handle open, and the next start() would nest it.
 */
static void op_stop(struct in *in)
{
	struct hx_event *e = pick(in);
	int flags = PERF_EF_UPDATE;

	get8(in);
	if (!e || e->ev.hstate != HARNESS_EV_ACTIVE || (e->ev.hw.state & PERF_HES_STOPPED))
		return;
	trace("stop(ev%d, UPDATE)\n", picked);
	on_cpu(e->ev.oncpu, do_stop, e, flags);
	check();
}

static void op_start(struct in *in)
{
	struct hx_event *e = pick(in);
	int flags = (get8(in) & 1) ? PERF_EF_RELOAD : 0;

	if (!e || e->ev.hstate != HARNESS_EV_ACTIVE || !(e->ev.hw.state & PERF_HES_STOPPED))
		return;
	/* the core reloads only what an UPDATE saved */
	if (flags && !(e->ev.hw.state & PERF_HES_UPTODATE))
		flags = 0;
	trace("start(ev%d, %s)\n", picked, flags ? "RELOAD" : "0");
	on_cpu(e->ev.oncpu, do_start, e, flags);
	check();
}

/* Samples: the interval counter is brought to its end so each selects */
static void op_samples(struct in *in)
{
	int cpu = get8(in) % NCPU, n = 1 + get8(in) * 4;
	u8 c = get8(in);
	struct hx_event *e = ev_on(cpu);
	long every = c & 0x80 ? 0 : 1 + (c & 0x7f) * 4;

	if (!w.online[cpu])
		return;
	trace("samples(cpu %d, %d, consume every %ld)\n", cpu, n, every);
	for (int i = 0; i < n; i++) {
		if (spe_peek(cpu, SPE_PMSICR) > 1)
			spe_poke(cpu, SPE_PMSICR, 1);
		hx_run(cpu, spe.sample_delay + 1, NULL, 0);
		if (e && every && i % every == every - 1)
			hx_consume(e);
		if (spe.nr_violations)
			break;
	}
	check();
}

static void op_run(struct in *in)
{
	int cpu = get8(in) % NCPU, n = 1 + get8(in);

	if (!w.online[cpu])
		return;
	trace("run(cpu %d, %d ops)\n", cpu, n);
	hx_run(cpu, n, NULL, 0);
	check();
}

static void op_consume(struct in *in)
{
	struct hx_event *e = pick(in);

	if (!e || !e->mapped)
		return;
	trace("consume(ev%d)\n", picked);
	hx_consume(e);
	check();
}

static void op_fault(struct in *in)
{
	int cpu = get8(in) % NCPU;
	u8 k = get8(in), a = get8(in);

	trace("fault(cpu %d, kind %d, after %d records, at byte %d)\n",
	      cpu, k % 6, a & 31, (a >> 5) * 5);
	spe_inject_fault(cpu, k % 6, a & 31, (a >> 5) * 5);
}

static void op_size_event(struct in *in)
{
	int cpu = get8(in) % NCPU;

	trace("hypervisor refuses the next buffer on cpu %d\n", cpu);
	spe_refuse_next_enable(cpu);
}

static void op_spurious(struct in *in)
{
	int cpu = get8(in) % NCPU, save = harness_cur_cpu;

	if (!w.online[cpu] || !harness_pmu)
		return;
	trace("irq(cpu %d)%s\n", cpu, spe_irq_level(cpu) ? "" : " spurious");
	if (spe_irq_level(cpu)) {
		hx_deliver(cpu);
	} else {
		spe_context_sync(cpu);
		harness_cur_cpu = cpu;
		spe.in_irq = true;
		harness_driver_irq_handler(cpu);
		spe.in_irq = false;
		spe_context_sync(cpu);
		irq_work_run();
		harness_cur_cpu = save;
		hx_deliver(cpu);
	}
	check();
}

static void op_collision(struct in *in)
{
	int cpu = get8(in) % NCPU;

	trace("collision(cpu %d)\n", cpu);
	spe_inject_collision(cpu);
}

/* A CPU goes away and comes back with another MaxBuffSize (a vCPU) */
static void op_hotplug(struct in *in)
{
	int cpu = get8(in) % NCPU;
	u16 field = mbs_field(in);
	struct hx_event *e;

	/* CPU 0 stays: the harness runs its own calls there */
	if (!cpu)
		return;
	trace("cpu %d offline, online with MaxBuffSize 0x%04x\n", cpu, field);
	/* the perf core takes events off a CPU before it goes */
	while ((e = ev_on(cpu)))
		hx_disable(e);
	check();
	hx_cpu_offline(cpu);
	w.online[cpu] = false;
	spe_set_max_buff_size(cpu, field);
	hx_cpu_online(cpu);
	w.online[cpu] = true;
	ref_cpu_online(cpu, field);
	check();
}

static void op_close(struct in *in)
{
	u8 i = get8(in) % NEV;
	struct hx_event *e = w.ev[i];

	if (!e)
		return;
	trace("close(ev%d)\n", i);
	hx_close(e);
	w.ev[i] = NULL;
	check();
}

static void op_el(struct in *in)
{
	spe.el = get8(in) & 1;
	trace("workload at EL%d\n", spe.el);
}

static void (*const ops[])(struct in *) = {
	op_open, op_mmap, op_add, op_samples, op_samples, op_consume,
	op_del, op_stop, op_start, op_munmap, op_fault, op_size_event,
	op_spurious, op_collision, op_hotplug, op_close, op_run, op_el,
};

/*
 * Patched driver: a buffer-size event is fatal for the event, flagged
 * TRUNCATED, and the core disables the event (the SPE VM interface
 * part of the series).
 */
static void check_size_events(unsigned int before_mask, struct hx_event *const on[NCPU])
{
	unsigned int m = spe.stats.size_event_cpus & ~before_mask;

	if (!harness_tree_patched)
		return;
	for (int cpu = 0; cpu < NCPU; cpu++) {
		struct hx_event *e = on[cpu];
		bool open = false;

		for (int i = 0; i < NEV; i++)
			open |= e && w.ev[i] == e;
		if (!(m & (1u << cpu)) || !open)
			continue;
		if (!(e->rb.all_flags & PERF_AUX_FLAG_TRUNCATED))
			fail("buffer-size event on CPU%d did not flag the AUX data TRUNCATED", cpu);
		if (e->ev.hstate == HARNESS_EV_ACTIVE && !(e->ev.hw.state & PERF_HES_STOPPED))
			fail("buffer-size event on CPU%d: the event is still running", cpu);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *m = getenv("FUZZ_MODE"), *v = getenv("FUZZ_VIS");

	(void)argc; (void)argv;
	w.print_trace = !!getenv("FUZZ_TRACE");
	/* pin the mode or the visibility switch instead of byte 0 */
	for (int i = 0; m && i < 3; i++)
		if (!strcmp(m, spe_mode_name(i)))
			w.force_mode = i + 1;
	if (v)
		w.force_vis = !strcmp(v, "on") ? 2 : 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size, 0 };
	u8 h = get8(&in);
	int nops = 0;

	hx_reset(NCPU, w.force_mode ? w.force_mode - 1 : h % 3,
		 w.force_vis ? w.force_vis - 1 : !!(h & 4));
	spe.el = !!(h & 8);
	harness_deny_kernel = h & 16;
	spe_set_features(h & 32, h & 64);
	w.tlen = 0;
	w.trace[0] = 0;
	w.ref_limit = 0;
	memset(w.ev, 0, sizeof(w.ev));
	hx_unmap_check = true;
	for (int cpu = 0; cpu < NCPU; cpu++) {
		u16 field = mbs_field(&in);

		spe_set_max_buff_size(cpu, field);
		ref_cpu_online(cpu, field);
		w.online[cpu] = true;
	}
	trace("mode %s vis %s el %d deny_kernel %d eft %d fds %d MaxBuffSize %04llx %04llx %04llx %04llx\n",
	      spe_mode_name(spe.mode), spe.visibility ? "on" : "off", spe.el,
	      harness_deny_kernel, spe.feat_eft, spe.feat_fds,
	      spe_peek(0, SPE_PMBIDR) >> 32,
	      spe_peek(1, SPE_PMBIDR) >> 32, spe_peek(2, SPE_PMBIDR) >> 32,
	      spe_peek(3, SPE_PMBIDR) >> 32);
	if (hx_load())
		fail("probe failed");
	/* the reference's discard term is where the driver's sysfs says */
	if (REF_DISCARD && (!hx_show_format("discard") ||
			    strcmp(hx_show_format("discard"), "config:35-35\n")))
		fail("format/discard is not config:35, the reference is stale");
	check();
	while (in.i < in.n && nops++ < FUZZ_MAX_OPS) {
		struct hx_event *on[NCPU];
		unsigned int before = spe.stats.size_event_cpus;

		for (int cpu = 0; cpu < NCPU; cpu++)
			on[cpu] = ev_on(cpu);
		ops[get8(&in) % ARRAY_SIZE(ops)](&in);
		check_size_events(before, on);
	}
	/* the end: every event off, data checked at unmap, the module goes */
	for (int i = 0; i < NEV; i++) {
		if (w.ev[i]) {
			hx_close(w.ev[i]);
			w.ev[i] = NULL;
			check();
		}
	}
	hx_unload();
	check();
	return 0;
}
