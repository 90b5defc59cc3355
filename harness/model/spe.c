// SPDX-License-Identifier: GPL-2.0
/*
 * SPE unit + hypervisor model.  Plain C, no kernel types.
 *
 * State is the unit's view of the registers.  With the visibility switch on, a
 * direct write is queued and reaches the unit only at the next context
 * synchronisation event (an ISB, exception entry or return; I_NDWCG, R_PVRNK,
 * spe-rules: context-sync-events).  Writes queued in one window may reach the
 * unit in any order (spe-rules: write-visibility); the model picks the order
 * that hurts most: PMBLIMITR writes that set E first, writes that clear E last.
 * Whether a PMB* write is ignored is decided when it reaches the unit (SFDXJJ
 * in a guest, R24557 on bare metal).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_bits.h"
/*
 * Every encoding the model uses is its own (arch.h, generated from
 * docs/spe-rules.md).  The revision's headers are here for two things
 * only: which optional features it names (#ifdef), and arch.h's checks
 * that the revision agrees with the table.
 */
#include "sysreg-defs.h"
#include "spe-sysreg.h"
#include "arch.h"
#include "spe.h"

struct spe_model spe;

struct spe_pending {
	enum spe_reg reg;
	uint64_t val;
	const char *fn;
	int line;
};

struct spe_cpu {
	uint64_t r[SPE_NR_REGS];
	struct spe_pending pend[SPE_MAX_PENDING];
	int npend;
	bool enabled;		/* ProfilingBufferEnabled() at last evaluation */
	bool inflight;
	uint64_t inflight_seq;
	int inflight_delay;
	uint16_t max_buff;
	bool refuse_next;
	bool fault_armed;
	enum spe_fault fault_kind;
	int fault_after, fault_byte;
	bool gap_open;
	uint64_t full_at;
	/*
	 * I_MLGHW: sampling may have selected an op since the last PSB CSYNC
	 * that ran with sampling off in the unit's view (a record may be in
	 * flight or about to be); cleared by such a PSB CSYNC.
	 */
	bool undrained;
	/*
	 * spe-rules: read-after-psb: PSB CSYNC executed, no context
	 * synchronisation since
	 */
	bool psb_unsynced;
	/*
	 * I_MLGHW, spe-rules: read-after-psb: what a direct read of
	 * PMBPTR_EL1/PMBSR_EL1 returns.  The unit's own (indirect) updates
	 * reach it only at a context synchronisation event after a PSB CSYNC;
	 * until then a read may return the older value, and the model returns
	 * it.  The PE's own direct writes are seen as they land.
	 */
	uint64_t pe_ptr, pe_sr;
	/*
	 * I_MLGHW, spe-rules: psb-drain: records written to memory, and how
	 * many of them a PSB CSYNC then a DSB are known to have completed.  A
	 * PSB CSYNC only starts the writes; the DSB after it waits for them.
	 */
	uint64_t nr_written, nr_psb, nr_complete;
	/* last direct write to PMBPTR, for reports */
	const char *ptr_fn;
	int ptr_line;
};

static struct spe_cpu cpus[SPE_MAX_CPUS];
static uint64_t next_seq;

#define MAX_REGIONS 16
static struct { uintptr_t base; size_t len; } regions[MAX_REGIONS];

/* Kept across spe_model_reset(): the harness sets it once per reset */
static spe_write_observer *write_observer;

/*
 * PMBSR_EL1 syndromes that arch.h (docs/spe-rules.md, section L) does
 * not name: values the model injects.
 */
#define MODEL_BUF_BSC_NONE	0x0UL	/* EC BUF, BSC 0: with DL, access not allowed */
#define MODEL_BUF_BSC_RESERVED	0x3UL	/* a BSC value the architecture reserves */
#define MODEL_FSC_TRANS_L3	0x07UL	/* FSC: translation fault, level 3 */
#define MODEL_FSC_GPF		0x28UL	/* FSC: granule protection fault */
#define MODEL_IMPDEF_SYNDROME	0x1UL	/* any IMPLEMENTATION DEFINED syndrome */

/*
 * PMSIDR.MaxSize = 6: records are at most 64 bytes
 * (spe-rules: model-id-values)
 */
#define MODEL_MAXSIZE_LOG2	6
#define MODEL_MAX_RECORD	BIT(MODEL_MAXSIZE_LOG2)

/*
 * Event filter bits of an SPEv1p2 unit: retired (1), L1D refill (3), TLB
 * walk (5), not taken (6), mispredicted (7), misaligned (11), the IMPDEF
 * events 12-15, 24-31 and 48-63, partial and empty predicate (17, 18).
 * The other bits are RES0 and read as zero whatever is written, which is
 * what the 7.x driver probes with a write of all ones.
 */
#define MODEL_PMSEVFR_IMP						\
	(BIT_ULL(1) | BIT_ULL(3) | BIT_ULL(5) | BIT_ULL(6) | BIT_ULL(7) |	\
	 BIT_ULL(11) | GENMASK_ULL(15, 12) | BIT_ULL(17) | BIT_ULL(18) |	\
	 GENMASK_ULL(31, 24) | GENMASK_ULL(63, 48))

/* Where the revision spells out the v1p2 RES0 bits (6.12), they agree */
#ifdef PMSEVFR_EL1_RES0_V1P2
_Static_assert(MODEL_PMSEVFR_IMP == ~PMSEVFR_EL1_RES0_V1P2,
	       "model PMSEVFR_EL1 bits differ from the kernel's v1p2 RES0");
#endif

static const char *const reg_names[SPE_NR_REGS] = {
	[SPE_PMSCR] = "PMSCR_EL1", [SPE_PMSNEVFR] = "PMSNEVFR_EL1",
	[SPE_PMSICR] = "PMSICR_EL1", [SPE_PMSIRR] = "PMSIRR_EL1",
	[SPE_PMSFCR] = "PMSFCR_EL1", [SPE_PMSEVFR] = "PMSEVFR_EL1",
	[SPE_PMSLATFR] = "PMSLATFR_EL1", [SPE_PMSIDR] = "PMSIDR_EL1",
	[SPE_PMBLIMITR] = "PMBLIMITR_EL1", [SPE_PMBPTR] = "PMBPTR_EL1",
	[SPE_PMBSR] = "PMBSR_EL1", [SPE_PMBIDR] = "PMBIDR_EL1",
	[SPE_ID_DFR0] = "ID_AA64DFR0_EL1", [SPE_PMSDSFR] = "PMSDSFR_EL1",
};

const char *spe_reg_name(enum spe_reg reg)
{
	return reg < SPE_NR_REGS ? reg_names[reg] : "?";
}

const char *spe_mode_name(enum spe_mode mode)
{
	switch (mode) {
	case SPE_MODE_BARE: return "bare";
	case SPE_MODE_R24557: return "r24557";
	case SPE_MODE_DEN0154: return "den0154";
	case SPE_NR_MODES:
		break;
	}
	return "?";
}

void spe_violation(const char *fmt, ...)
{
	va_list ap;

	if (spe.nr_violations < SPE_MAX_VIOLATIONS) {
		va_start(ap, fmt);
		vsnprintf(spe.violations[spe.nr_violations],
			  sizeof(spe.violations[0]), fmt, ap);
		va_end(ap);
	}
	spe.nr_violations++;
}

static enum spe_reg decode(uint32_t enc)
{
	switch (enc) {
	case ARCH_SYS_PMSCR_EL1: return SPE_PMSCR;
	case ARCH_SYS_PMSNEVFR_EL1: return SPE_PMSNEVFR;
	case ARCH_SYS_PMSICR_EL1: return SPE_PMSICR;
	case ARCH_SYS_PMSIRR_EL1: return SPE_PMSIRR;
	case ARCH_SYS_PMSFCR_EL1: return SPE_PMSFCR;
	case ARCH_SYS_PMSEVFR_EL1: return SPE_PMSEVFR;
	case ARCH_SYS_PMSLATFR_EL1: return SPE_PMSLATFR;
	case ARCH_SYS_PMSIDR_EL1: return SPE_PMSIDR;
	case ARCH_SYS_PMBLIMITR_EL1: return SPE_PMBLIMITR;
	case ARCH_SYS_PMBPTR_EL1: return SPE_PMBPTR;
	case ARCH_SYS_PMBSR_EL1: return SPE_PMBSR;
	case ARCH_SYS_PMBIDR_EL1: return SPE_PMBIDR;
	case ARCH_SYS_ID_AA64DFR0_EL1: return SPE_ID_DFR0;
#ifdef SYS_PMSDSFR_EL1
	case ARCH_SYS_PMSDSFR_EL1: return SPE_PMSDSFR;
#endif
	}
	return SPE_NR_REGS;
}

static bool is_pmb(enum spe_reg r)
{
	return r == SPE_PMBLIMITR || r == SPE_PMBPTR || r == SPE_PMBSR ||
	       r == SPE_PMBIDR;
}

static bool bit_e(struct spe_cpu *c)
{
	return c->r[SPE_PMBLIMITR] & ARCH_PMBLIMITR_EL1_E;
}

static bool bit_s(struct spe_cpu *c)
{
	return c->r[SPE_PMBSR] & ARCH_PMBSR_EL1_S;
}

static bool discard_mode(struct spe_cpu *c)
{
	/* FM == 0b10 (spe-rules: pmblimitr, spe-rules: discard-mode) */
	return HB_FIELD_GET(ARCH_PMBLIMITR_EL1_FM_MASK, c->r[SPE_PMBLIMITR]) == 2;
}

/* PMSCR_EL1 lets the unit select ops at some EL (spe-rules: sample-life) */
static bool sampling_on(struct spe_cpu *c)
{
	return c->r[SPE_PMSCR] & (ARCH_PMSCR_EL1_E0SPE | ARCH_PMSCR_EL1_E1SPE);
}

static uint64_t limit_addr(struct spe_cpu *c)
{
	return c->r[SPE_PMBLIMITR] & ARCH_PMBLIMITR_EL1_LIMIT_MASK;
}

/* PMSFCR_EL1 bits of optional filters the unit lacks, where named */
static uint64_t pmsfcr_unimplemented(void)
{
	uint64_t res0 = 0;

#ifdef PMSFCR_EL1_Bm
	if (!spe.feat_eft)
		res0 |= ARCH_PMSFCR_EL1_Bm | ARCH_PMSFCR_EL1_LDm | ARCH_PMSFCR_EL1_STm |
			ARCH_PMSFCR_EL1_SIMD | ARCH_PMSFCR_EL1_SIMDm | ARCH_PMSFCR_EL1_FP |
			ARCH_PMSFCR_EL1_FPm;
#endif
#ifdef PMSFCR_EL1_FDS
	if (!spe.feat_fds)
		res0 |= ARCH_PMSFCR_EL1_FDS;
#endif
	return res0;
}

uint64_t spe_pmsevfr_implemented(void)
{
	return MODEL_PMSEVFR_IMP;
}

uint64_t spe_decode_max_buff_size(uint16_t field)
{
	/* spe-rules: maxbuffsize: M = [8:0], E = [13:9], [15:14] reserved */
	uint64_t m = field & 0x1ff, e = (field >> 9) & 0x1f;

	return e ? ((1ULL << 9) | m) << (e + 11) : m << 12;
}

static void id_regs(struct spe_cpu *c)
{
	/*
	 * spe-rules: model-id-values: SPEv1p2, FE/FT/FL/FnE/ArchInst, 256
	 * interval, 64B records
	 */
	c->r[SPE_ID_DFR0] = HB_FIELD_PREP(ARCH_ID_AA64DFR0_EL1_PMSVer_MASK,
					  ARCH_ID_AA64DFR0_EL1_PMSVer_V1P2);
	c->r[SPE_PMSIDR] = ARCH_PMSIDR_EL1_FE | ARCH_PMSIDR_EL1_FT | ARCH_PMSIDR_EL1_FL |
			   ARCH_PMSIDR_EL1_ARCHINST | ARCH_PMSIDR_EL1_FnE |
			   HB_FIELD_PREP(ARCH_PMSIDR_EL1_INTERVAL_MASK,
					 ARCH_PMSIDR_EL1_INTERVAL_256) |
			   HB_FIELD_PREP(ARCH_PMSIDR_EL1_MAXSIZE_MASK, MODEL_MAXSIZE_LOG2) |
			   HB_FIELD_PREP(ARCH_PMSIDR_EL1_COUNTSIZE_MASK,
					 ARCH_PMSIDR_EL1_COUNTSIZE_16_BIT_SAT);
	/* optional filters (off by default): only where the revision names them */
#ifdef PMSIDR_EL1_EFT
	if (spe.feat_eft)
		c->r[SPE_PMSIDR] |= ARCH_PMSIDR_EL1_EFT;
#endif
#ifdef PMSIDR_EL1_FDS
	if (spe.feat_fds)
		c->r[SPE_PMSIDR] |= ARCH_PMSIDR_EL1_FDS;
#endif
	/*
	 * Align 0, P 0, F 1, EA ignored; MaxBuffSize in [47:32] (spe-rules:
	 * pmbidr, spe-rules: maxbuffsize)
	 */
	c->r[SPE_PMBIDR] = ARCH_PMBIDR_EL1_F |
			   HB_FIELD_PREP(ARCH_PMBIDR_EL1_EA_MASK, ARCH_PMBIDR_EL1_EA_Ignored) |
			   HB_FIELD_PREP(ARCH_PMBIDR_EL1_MAXBUFFSIZE_MASK, c->max_buff);
}

void spe_observe_writes(spe_write_observer *fn)
{
	write_observer = fn;
}

void spe_model_reset(int nr_cpus, enum spe_mode mode, bool visibility)
{
	free(spe.records);
	memset(&spe, 0, sizeof(spe));
	memset(cpus, 0, sizeof(cpus));
	memset(regions, 0, sizeof(regions));
	spe.mode = mode;
	spe.visibility = visibility;
	spe.nr_cpus = nr_cpus;
	spe.sample_delay = 2;
	next_seq = 1;
	for (int i = 0; i < SPE_MAX_CPUS; i++) {
		id_regs(&cpus[i]);
		/*
		 * spe-rules: pmblimitr, spe-rules: pmbsr: UNKNOWN after reset;
		 * pick values that hurt
		 */
		cpus[i].r[SPE_PMBPTR] = 0xdead0000;
		cpus[i].r[SPE_PMBSR] = 0;
		cpus[i].pe_ptr = cpus[i].r[SPE_PMBPTR];
		cpus[i].pe_sr = cpus[i].r[SPE_PMBSR];
	}
}

void spe_set_max_buff_size(int cpu, uint16_t field)
{
	cpus[cpu].max_buff = field;
	id_regs(&cpus[cpu]);
}

void spe_set_features(bool eft, bool fds)
{
	spe.feat_eft = eft;
	spe.feat_fds = fds;
	for (int i = 0; i < SPE_MAX_CPUS; i++)
		id_regs(&cpus[i]);
}

void spe_refuse_next_enable(int cpu)
{
	cpus[cpu].refuse_next = true;
}

void spe_inject_fault(int cpu, enum spe_fault kind, int after, int at_byte)
{
	struct spe_cpu *c = &cpus[cpu];

	c->fault_armed = true;
	c->fault_kind = kind;
	c->fault_after = after;
	c->fault_byte = at_byte;
}

void spe_inject_collision(int cpu)
{
	/* spe-rules: collision: COLL is set without S */
	cpus[cpu].r[SPE_PMBSR] |= ARCH_PMBSR_EL1_COLL;
}

uint64_t spe_peek(int cpu, enum spe_reg reg)
{
	return cpus[cpu].r[reg];
}

void spe_poke(int cpu, enum spe_reg reg, uint64_t val)
{
	cpus[cpu].r[reg] = val;
	cpus[cpu].enabled = bit_e(&cpus[cpu]) && !bit_s(&cpus[cpu]);
}

void spe_add_region(const void *base, size_t len)
{
	for (int i = 0; i < MAX_REGIONS; i++) {
		if (!regions[i].base) {
			regions[i].base = (uintptr_t)base;
			regions[i].len = len;
			return;
		}
	}
	spe_violation("model: too many AUX regions");
}

void spe_del_region(const void *base)
{
	for (int i = 0; i < MAX_REGIONS; i++)
		if (regions[i].base == (uintptr_t)base)
			regions[i].base = 0;
}

uint64_t spe_next_seq(void)
{
	return next_seq;
}

void *spe_driver_memset(void *s, int c, size_t n, const char *fn, int line)
{
	uintptr_t p = (uintptr_t)s;

	for (int i = 0; i < MAX_REGIONS && n; i++) {
		uintptr_t base = regions[i].base, end = base + regions[i].len;

		if (!base || p < base || p > end || p + n <= end)
			continue;
		spe_violation("driver memset() of %zu bytes at offset %zu of a %zu-byte AUX buffer at %s:%d writes %zu bytes past its end",
			      n, (size_t)(p - base), regions[i].len, fn, line,
			      (size_t)(p + n - end));
		n = end - p;
		break;
	}
	return memset(s, c, n);
}

static bool in_region(uint64_t addr, uint64_t len)
{
	for (int i = 0; i < MAX_REGIONS; i++) {
		if (!regions[i].base)
			continue;
		if (addr >= regions[i].base &&
		    addr + len <= regions[i].base + regions[i].len)
			return true;
	}
	return false;
}

/* spe-rules: event-record: a management event is recorded only while S == 0 */
static void raise_event(struct spe_cpu *c, uint64_t ec, uint64_t mss, bool dl)
{
	uint64_t sr = c->r[SPE_PMBSR];

	if (sr & ARCH_PMBSR_EL1_S)
		return;
	sr &= ~(ARCH_PMBSR_EL1_EC_MASK | ARCH_PMBSR_EL1_MSS_MASK);
	sr |= ARCH_PMBSR_EL1_S | HB_FIELD_PREP(ARCH_PMBSR_EL1_EC_MASK, ec) |
	      HB_FIELD_PREP(ARCH_PMBSR_EL1_MSS_MASK, mss);
	if (dl)
		sr |= ARCH_PMBSR_EL1_DL;
	c->r[SPE_PMBSR] = sr;
	c->enabled = false;
	/*
	 * spe-rules: profiling-enabled: a record not yet written is discarded
	 * once profiling stops
	 */
	c->inflight = false;
}

void spe_force_event(int cpu, uint64_t pmbsr)
{
	cpus[cpu].r[SPE_PMBSR] = pmbsr | ARCH_PMBSR_EL1_S;
	cpus[cpu].enabled = false;
	cpus[cpu].inflight = false;
}

/*
 * Called after every change of the unit's state: detects the 0 -> 1 transition
 * of ProfilingBufferEnabled() (spe-rules: profiling-enabled) and checks what
 * must hold at that moment.
 */
static void evaluate(int cpu, bool e_was)
{
	struct spe_cpu *c = &cpus[cpu];
	bool now = bit_e(c) && !bit_s(c);
	uint64_t ptr = c->r[SPE_PMBPTR], lim = limit_addr(c);

	if (now && !c->enabled) {
		/*
		 * spe-rules: buffer-size-event: a hypervisor checks the window
		 * when the buffer is enabled
		 */
		uint64_t max = spe_decode_max_buff_size(c->max_buff);

		if (!e_was && !discard_mode(c) &&
		    (c->refuse_next || (max && lim - ptr > max))) {
			c->refuse_next = false;
			spe.size_event_window = lim - ptr;
			raise_event(c, ARCH_PMBSR_EL1_EC_BUF, ARCH_PMBSR_EL1_BUF_BSC_SIZE, false);
			spe.stats.size_events++;
			spe.stats.size_event_cpus |= 1u << cpu;
			return;
		}
		/*
		 * R_HXSYK, spe-rules: window-in-aux: pointer within the buffer,
		 * a record's room below LIMIT
		 */
		if (!discard_mode(c)) {
			if (ptr > lim - MODEL_MAX_RECORD || lim < MODEL_MAX_RECORD)
				spe_violation("R_HXSYK: profiling enabled on CPU%d with PMBPTR=0x%llx LIMIT=0x%llx (PMBPTR last written at %s:%d)",
					      cpu, (unsigned long long)ptr,
					      (unsigned long long)lim,
					      c->ptr_fn ? c->ptr_fn : "reset", c->ptr_line);
			else if (!in_region(ptr, lim - ptr))
				spe_violation("spe-rules: window-in-aux: profiling enabled on CPU%d with window [0x%llx, 0x%llx) outside any AUX buffer (PMBPTR last written at %s:%d)",
					      cpu, (unsigned long long)ptr,
					      (unsigned long long)lim,
					      c->ptr_fn ? c->ptr_fn : "reset", c->ptr_line);
		}
		if (c->gap_open) {
			c->gap_open = false;
			spe.stats.gap_ops += spe.stats.ops - c->full_at;
			spe.stats.gaps++;
		}
	}
	c->enabled = now;
}

static void apply(int cpu, enum spe_reg reg, uint64_t val, const char *fn, int line)
{
	struct spe_cpu *c = &cpus[cpu];
	bool e = bit_e(c), s = bit_s(c);

	if (reg == SPE_PMBPTR || reg == SPE_PMBSR || reg == SPE_PMBLIMITR) {
		bool clears_e = reg == SPE_PMBLIMITR && !(val & ARCH_PMBLIMITR_EL1_E);
		bool ignore = false;

		if (!clears_e) {
			if (spe.mode == SPE_MODE_DEN0154 && e)
				ignore = true;		/* SFDXJJ */
			if (spe.mode == SPE_MODE_R24557 && e && !s && !discard_mode(c))
				ignore = true;		/* R24557 */
		}
		if (ignore) {
			if (spe.nr_ignored < SPE_MAX_IGNORED)
				spe.ignored[spe.nr_ignored++] = (struct spe_access){
					reg, val, fn, line, cpu, e, s, spe.in_irq };
			else
				spe.nr_ignored_lost++;
			spe.stats.ignored++;
			spe_violation("%s: write %s=0x%llx ignored on CPU%d (E=%d S=%d) at %s:%d%s",
				      spe_mode_name(spe.mode), spe_reg_name(reg),
				      (unsigned long long)val, cpu, e, s, fn, line,
				      spe.in_irq ? " (in the IRQ handler)" : "");
			return;
		}
		/*
		 * R_SXWCP: disabling with a record in flight is CONSTRAINED
		 * UNPREDICTABLE
		 */
		if (clears_e && e && !s && c->inflight)
			spe_violation("R_SXWCP: PMBLIMITR_EL1.E cleared on CPU%d with a record in flight at %s:%d",
				      cpu, fn, line);
		/*
		 * I_MLGHW: outside a management event (S == 0) the buffer may
		 * only be disabled once sampling is off and a PSB CSYNC ran
		 * after that was synchronised, whether or not a record happens
		 * to be in flight now.  Discard mode writes nothing.
		 */
		else if (clears_e && e && !s && !discard_mode(c) && c->undrained)
			spe_violation("I_MLGHW: PMBLIMITR_EL1.E cleared on CPU%d at %s:%d without sampling off, ISB, PSB CSYNC first",
				      cpu, fn, line);
		if (reg == SPE_PMBPTR) {
			c->ptr_fn = fn;
			c->ptr_line = line;
		}
	}
	if (reg == SPE_PMBLIMITR && HB_FIELD_GET(ARCH_PMBLIMITR_EL1_FM_MASK, val) & 1)
		spe_violation("spe-rules: reserved-encodings: reserved PMBLIMITR_EL1.FM in 0x%llx at %s:%d",
			      (unsigned long long)val, fn, line);
	c->r[reg] = val;
	if (reg == SPE_PMBPTR)
		c->pe_ptr = val;
	if (reg == SPE_PMBSR)
		c->pe_sr = val;
	if (reg == SPE_PMSCR && sampling_on(c))
		c->undrained = true;
}

/*
 * All writes of one window land at the context synchronisation event;
 * R_HXSYK applies to the values after it, so evaluate once at the end.
 */
static void commit(int cpu)
{
	struct spe_cpu *c = &cpus[cpu];
	int n = c->npend;
	bool e_was = bit_e(c);

	if (!n)
		return;
	c->npend = 0;
	/* enabling PMBLIMITR writes first, other writes, disabling ones last */
	for (int pass = 0; pass < 3; pass++) {
		for (int i = 0; i < n; i++) {
			struct spe_pending *p = &c->pend[i];
			int cls = 1;

			if (p->reg == SPE_PMBLIMITR)
				cls = (p->val & ARCH_PMBLIMITR_EL1_E) ? 0 : 2;
			if (cls == pass)
				apply(cpu, p->reg, p->val, p->fn, p->line);
		}
	}
	evaluate(cpu, e_was);
}

/*
 * A context synchronisation event: the PE's direct reads now observe the
 * unit's PMBPTR_EL1/PMBSR_EL1 updates that a PSB CSYNC before it
 * synchronised (I_MLGHW, spe-rules: read-after-psb).
 */
static void sync_reads(struct spe_cpu *c)
{
	if (c->psb_unsynced) {
		c->pe_ptr = c->r[SPE_PMBPTR];
		c->pe_sr = c->r[SPE_PMBSR];
	}
	c->psb_unsynced = false;
}

void spe_context_sync(int cpu)
{
	sync_reads(&cpus[cpu]);
	commit(cpu);
}

uint64_t spe_read(int cpu, uint32_t enc, const char *fn, int line)
{
	struct spe_cpu *c = &cpus[cpu];
	enum spe_reg reg = decode(enc);

	spe.stats.ops++;
	spe.stats.reads++;
	if (reg == SPE_NR_REGS) {
		spe_violation("read of unmodelled register 0x%x at %s:%d", enc, fn, line);
		return 0;
	}
	if (is_pmb(reg))
		spe.stats.trapped++;
	/*
	 * spe-rules: read-after-psb: PSB; ISB; MRS to observe the unit's own
	 * PMBPTR/PMBSR updates
	 */
	if ((reg == SPE_PMBPTR || reg == SPE_PMBSR) && c->psb_unsynced)
		spe_violation("spe-rules: read-after-psb: %s read on CPU%d at %s:%d after PSB CSYNC with no ISB in between",
			      spe_reg_name(reg), cpu, fn, line);
	/* The PE sees its own writes in program order */
	for (int i = c->npend - 1; i >= 0; i--)
		if (c->pend[i].reg == reg)
			return c->pend[i].val;
	/* and the unit's updates only once synchronised (I_MLGHW) */
	if (reg == SPE_PMBPTR)
		return c->pe_ptr;
	if (reg == SPE_PMBSR)
		return c->pe_sr;
	return c->r[reg];
}

void spe_write(int cpu, uint32_t enc, uint64_t val, const char *fn, int line)
{
	struct spe_cpu *c = &cpus[cpu];
	enum spe_reg reg = decode(enc);

	spe.stats.ops++;
	spe.stats.writes++;
	if (reg == SPE_NR_REGS) {
		spe_violation("write of unmodelled register 0x%x at %s:%d", enc, fn, line);
		return;
	}
	if (is_pmb(reg))
		spe.stats.trapped++;
	if (reg == SPE_PMSIDR || reg == SPE_PMBIDR || reg == SPE_ID_DFR0) {
		spe_violation("write to read-only %s at %s:%d", spe_reg_name(reg), fn, line);
		return;
	}
	if (reg == SPE_PMSDSFR && !spe.feat_fds) {
		spe_violation("write to %s without FEAT_SPE_FDS at %s:%d (UNDEFINED)",
			      spe_reg_name(reg), fn, line);
		return;
	}
	if (reg == SPE_PMSFCR && (val & pmsfcr_unimplemented()))
		spe_violation("PMSFCR_EL1=0x%llx enables filters the unit lacks (RES0 0x%llx) at %s:%d",
			      (unsigned long long)val,
			      (unsigned long long)pmsfcr_unimplemented(), fn, line);
	/* unimplemented event filter bits are RAZ/WI */
	if (reg == SPE_PMSEVFR || reg == SPE_PMSNEVFR)
		val &= MODEL_PMSEVFR_IMP;
	if (!spe.visibility) {
		bool e_was = bit_e(c);

		apply(cpu, reg, val, fn, line);
		evaluate(cpu, e_was);
		return;
	}
	if (c->npend == SPE_MAX_PENDING) {
		spe_violation("model: more than %d writes without a context sync at %s:%d",
			      SPE_MAX_PENDING, fn, line);
		commit(cpu);
	}
	c->pend[c->npend++] = (struct spe_pending){ reg, val, fn, line };
}

void spe_isb(int cpu, const char *fn, int line)
{
	(void)fn; (void)line;
	spe.stats.ops++;
	spe.stats.isbs++;
	sync_reads(&cpus[cpu]);
	commit(cpu);
}

static void write_record(int cpu);

void spe_psb_csync(int cpu, const char *fn, int line)
{
	(void)fn; (void)line;
	spe.stats.ops++;
	spe.stats.drains++;
	/*
	 * spe-rules: psb-drain: everything selected so far is formatted and
	 * written
	 */
	if (cpus[cpu].inflight)
		write_record(cpu);
	cpus[cpu].psb_unsynced = true;
	/* spe-rules: psb-drain: the writes so far are started; a DSB completes them */
	cpus[cpu].nr_psb = cpus[cpu].nr_written;
	/*
	 * I_MLGHW: with sampling off (as the unit sees it) nothing is selected
	 * after
	 */
	if (!sampling_on(&cpus[cpu]))
		cpus[cpu].undrained = false;
}

void spe_dsb(int cpu, const char *fn, int line)
{
	(void)fn; (void)line;
	spe.stats.ops++;
	spe.stats.dsbs++;
	/* I_MLGHW: the writes a PSB CSYNC started have completed */
	cpus[cpu].nr_complete = cpus[cpu].nr_psb;
}

bool spe_writes_complete(int cpu)
{
	return cpus[cpu].nr_complete == cpus[cpu].nr_written;
}

bool spe_irq_level(int cpu)
{
	return bit_s(&cpus[cpu]);
}

/*
 * Record layout (spe-rules: record-format): PC address packet carrying the
 * sequence number, total latency counter, events, operation type, a data VA for
 * odd sequence numbers, then End (or Timestamp when PMSCR.TS is set).
 */
unsigned int spe_record_len(uint64_t seq, bool ts)
{
	return 9 + 3 + 3 + 2 + ((seq & 1) ? 9 : 0) + (ts ? 9 : 1);
}

static unsigned int build_record(uint8_t *p, uint64_t seq, bool ts)
{
	unsigned int n = 0;

	p[n++] = 0xb0;				/* Address, index 0: PC */
	memcpy(p + n, &seq, 8);
	p[n + 7] |= 0x80;			/* NS */
	n += 8;
	p[n++] = 0x99;				/* Counter, index 1 */
	p[n++] = 0x10;
	p[n++] = 0x00;
	p[n++] = 0x52;				/* Events, 2 bytes */
	p[n++] = 0x02;				/* retired */
	p[n++] = 0x00;
	p[n++] = 0x49;				/* Operation type: load/store */
	p[n++] = 0x00;
	if (seq & 1) {
		uint64_t va = 0xffff000012340000ULL + seq * 8;

		p[n++] = 0xb2;			/* Address, index 2: data VA */
		memcpy(p + n, &va, 8);
		n += 8;
	}
	if (ts) {
		uint64_t t = seq * 100;

		p[n++] = 0x71;
		memcpy(p + n, &t, 8);
		n += 8;
	} else {
		p[n++] = 0x01;			/* End */
	}
	return n;
}

int spe_parse_record(const uint8_t *p, size_t n, uint64_t *seq)
{
	size_t i = 0;
	bool have_pc = false;

	while (i < n) {
		uint8_t h = p[i];
		size_t len;

		if (h == 0x01)
			return have_pc ? (int)(i + 1) : -1;
		/* only the packets build_record() emits are expected */
		if (h != 0xb0 && h != 0xb2 && h != 0x99 && h != 0x52 &&
		    h != 0x49 && h != 0x71)
			return -1;
		len = 1u << ((h >> 4) & 3);	/* spe-rules: record-format */
		if (i + 1 + len > n)
			return 0;
		if (h == 0xb0) {
			uint64_t v;

			memcpy(&v, p + i + 1, 8);
			*seq = v & ~(1ULL << 63);
			have_pc = true;
		}
		i += 1 + len;
		if (h == 0x71)
			return have_pc ? (int)i : -1;
	}
	return 0;
}

static void write_record(int cpu)
{
	struct spe_cpu *c = &cpus[cpu];
	uint64_t seq = c->inflight_seq, ptr, lim;
	bool ts = c->r[SPE_PMSCR] & ARCH_PMSCR_EL1_TS;
	uint8_t rec[MODEL_MAX_RECORD];
	unsigned int len;

	c->inflight = false;
	/*
	 * spe-rules: profiling-enabled: not written unless the buffer is
	 * enabled and not stopped
	 */
	if (!c->enabled)
		return;
	/*
	 * Discard mode: the buffer is enabled, the record is formatted and
	 * dropped.  Nothing reaches memory, PMBPTR_EL1 does not move, and
	 * with no write there is no buffer-full or fault event.
	 */
	if (discard_mode(c)) {
		spe.stats.discarded++;
		return;
	}
	ptr = c->r[SPE_PMBPTR];
	lim = limit_addr(c);
	len = build_record(rec, seq, ts);
	if (ptr + len > lim) {
		/*
		 * spe-rules: never-past-limit: the unit never writes past LIMIT
		 */
		spe_violation("spe-rules: never-past-limit: record of %u bytes at 0x%llx would cross LIMIT 0x%llx on CPU%d",
			      len, (unsigned long long)ptr, (unsigned long long)lim, cpu);
		raise_event(c, ARCH_PMBSR_EL1_EC_BUF, ARCH_PMBSR_EL1_BUF_BSC_FULL, false);
		return;
	}
	if (!in_region(ptr, len)) {
		spe_violation("record written outside the AUX buffer at 0x%llx on CPU%d (PMBPTR last written at %s:%d)",
			      (unsigned long long)ptr, cpu,
			      c->ptr_fn ? c->ptr_fn : "reset", c->ptr_line);
		raise_event(c, ARCH_PMBSR_EL1_EC_FAULT_S1, MODEL_FSC_TRANS_L3, true);
		return;
	}
	if (c->fault_armed && c->fault_after-- == 0) {
		unsigned int part = c->fault_byte < (int)len ? c->fault_byte : 0;

		c->fault_armed = false;
		if (write_observer)
			write_observer(cpu, ptr, part);
		memcpy((void *)(uintptr_t)ptr, rec, part);
		c->nr_written += part != 0;
		/* spe-rules: fault-event: PMBPTR = faulting address */
		c->r[SPE_PMBPTR] = ptr + part;
		switch (c->fault_kind) {
		case SPE_FAULT_S1:
			raise_event(c, ARCH_PMBSR_EL1_EC_FAULT_S1, MODEL_FSC_TRANS_L3, part);
			break;
		case SPE_FAULT_S2:
			raise_event(c, ARCH_PMBSR_EL1_EC_FAULT_S2, MODEL_FSC_TRANS_L3, part);
			break;
		case SPE_FAULT_GPC:
			raise_event(c, ARCH_PMBSR_EL1_EC_FAULT_GPC, MODEL_FSC_GPF, part);
			break;
		case SPE_FAULT_IMPDEF:
			raise_event(c, ARCH_PMBSR_EL1_EC_IMP_DEF, MODEL_IMPDEF_SYNDROME, part);
			break;
		case SPE_FAULT_ANA:
			raise_event(c, ARCH_PMBSR_EL1_EC_BUF, MODEL_BUF_BSC_NONE, true);
			break;
		case SPE_FAULT_BSC_RESERVED:
			raise_event(c, ARCH_PMBSR_EL1_EC_BUF, MODEL_BUF_BSC_RESERVED, part);
			break;
		}
		return;
	}
	if (write_observer)
		write_observer(cpu, ptr, len);
	memcpy((void *)(uintptr_t)ptr, rec, len);
	c->nr_written++;
	if (spe.nr_records == spe.cap_records) {
		spe.cap_records = spe.cap_records ? spe.cap_records * 2 : 1024;
		spe.records = realloc(spe.records, spe.cap_records * sizeof(*spe.records));
	}
	spe.records[spe.nr_records++] = (struct spe_record){ seq, ptr, len, cpu };
	c->r[SPE_PMBPTR] = ptr + len;
	/* spe-rules: buffer-full: full when PMBPTR > LIMIT - 2^MaxSize */
	if (c->r[SPE_PMBPTR] > lim - MODEL_MAX_RECORD) {
		raise_event(c, ARCH_PMBSR_EL1_EC_BUF, ARCH_PMBSR_EL1_BUF_BSC_FULL, false);
		spe.stats.full_events++;
		c->gap_open = true;
		c->full_at = spe.stats.ops;
	}
}

void spe_op(int cpu)
{
	struct spe_cpu *c = &cpus[cpu];
	uint64_t scr = c->r[SPE_PMSCR], icr;
	bool sampling;

	spe.stats.ops++;
	if (c->inflight && --c->inflight_delay <= 0)
		write_record(cpu);
	sampling = c->enabled &&
		   (spe.el ? (scr & ARCH_PMSCR_EL1_E1SPE) : (scr & ARCH_PMSCR_EL1_E0SPE));
	if (!sampling)
		/* spe-rules: profiling-enabled: counters hold their value */
		return;
	/* spe-rules: interval: the interval counter */
	icr = c->r[SPE_PMSICR] & GENMASK_ULL(31, 0);
	if (!icr) {
		icr = c->r[SPE_PMSIRR] & ARCH_PMSIRR_EL1_INTERVAL_MASK;
		if (!icr)
			spe_violation("spe-rules: interval: PMSIRR_EL1.INTERVAL is 0 on CPU%d",
				      cpu);
		c->r[SPE_PMSICR] = icr;
		return;
	}
	c->r[SPE_PMSICR] = --icr;
	if (icr)
		return;
	if (c->inflight) {
		/* spe-rules: sample-life */
		c->r[SPE_PMBSR] |= ARCH_PMBSR_EL1_COLL;
		return;
	}
	c->inflight = true;
	c->inflight_seq = next_seq++;
	c->inflight_delay = spe.sample_delay;
	if (!c->inflight_delay)
		write_record(cpu);
}
