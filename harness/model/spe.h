/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Executable model of one SPE unit per CPU plus the hypervisor in front of
 * it.  Rules are cited by the labels of docs/spe-rules.md (an Arm ID
 * such as R_HXSYK or SFDXJJ, or "spe-rules: <name>").
 */
#ifndef HARNESS_SPE_MODEL_H
#define HARNESS_SPE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPE_MAX_CPUS		4
#define SPE_MAX_PENDING		64	/* writes waiting for a context sync */
#define SPE_MAX_IGNORED		64	/* ignored writes kept with their site */
#define SPE_MAX_VIOLATIONS	32	/* violation texts kept (all counted) */
#define SPE_VIOLATION_LEN	320	/* characters of one violation text */

enum spe_mode {
	SPE_MODE_BARE,		/* Arm ARM as the driver was written for */
	SPE_MODE_R24557,	/* PMB* writes ignored while E && !S && !discard */
	/* PMB* writes ignored while E, whatever S (SFDXJJ) */
	SPE_MODE_DEN0154,
	SPE_NR_MODES,
};

enum spe_reg {
	SPE_PMSCR, SPE_PMSNEVFR, SPE_PMSICR, SPE_PMSIRR, SPE_PMSFCR,
	SPE_PMSEVFR, SPE_PMSLATFR, SPE_PMSIDR,
	SPE_PMBLIMITR, SPE_PMBPTR, SPE_PMBSR, SPE_PMBIDR,
	SPE_ID_DFR0,
	SPE_PMSDSFR,		/* FEAT_SPE_FDS, where the revision describes it */
	SPE_NR_REGS,
};

enum spe_fault {
	/* EC 0b100100, translation fault L3 (spe-rules: pmbsr-ec) */
	SPE_FAULT_S1,
	SPE_FAULT_S2,		/* EC 0b100101 */
	SPE_FAULT_GPC,		/* EC 0b011110 */
	SPE_FAULT_IMPDEF,	/* EC 0b011111 (spe-rules: impdef-event) */
	/*
	 * EC 0, BSC 0, DL=1: access not allowed (spe-rules: access-not-allowed)
	 */
	SPE_FAULT_ANA,
	SPE_FAULT_BSC_RESERVED,	/* EC 0 with a reserved BSC: "unknown status" */
};

struct spe_stats {
	uint64_t reads, writes, isbs, drains, dsbs;
	/*
	 * PMB* accesses: one VM exit each under KVM (spe-rules:
	 * hypervisor-traps)
	 */
	uint64_t trapped;
	uint64_t ignored;	/* writes dropped by the mode */
	uint64_t ops;		/* model operations: accesses, barriers, workload ops */
	uint64_t full_events, gap_ops, gaps;
	/* buffer-size events raised (spe-rules: buffer-size-event) */
	uint64_t size_events;
	uint64_t discarded;	/* records dropped in Discard mode (FM 0b10) */
	unsigned int size_event_cpus;	/* mask of CPUs that raised one */
};

struct spe_access {
	enum spe_reg reg;
	uint64_t val;
	const char *fn;
	int line;
	int cpu;
	bool e, s;		/* PMBLIMITR.E and PMBSR.S when it landed */
	bool in_irq;
};

struct spe_record {
	uint64_t seq;
	uintptr_t addr;
	unsigned int len;
	int cpu;
};

struct spe_model {
	enum spe_mode mode;
	bool visibility;	/* writes reach the unit only at a context sync */
	int nr_cpus;
	/*
	 * ops between selection and the record write (spe-rules: sample-life)
	 */
	int sample_delay;
	int el;			/* exception level the workload runs at (0 or 1) */
	bool feat_eft, feat_fds;	/* FEAT_SPE_EFT, FEAT_SPE_FDS in PMSIDR_EL1 */
	bool in_irq;		/* set by the harness while the handler runs */
	struct spe_stats stats;
	/* writes the mode ignored, in order */
	struct spe_access ignored[SPE_MAX_IGNORED];
	int nr_ignored;
	int nr_ignored_lost;	/* ignored writes past SPE_MAX_IGNORED */
	/* every record the unit wrote to memory */
	struct spe_record *records;
	size_t nr_records, cap_records;
	/*
	 * PMBLIMITR_EL1.LIMIT - PMBPTR_EL1 of the last window refused
	 * (spe-rules: buffer-size-event)
	 */
	uint64_t size_event_window;
	/* rule violations, as text */
	char violations[SPE_MAX_VIOLATIONS][SPE_VIOLATION_LEN];
	int nr_violations;	/* all of them, kept or not */
};

extern struct spe_model spe;

void spe_model_reset(int nr_cpus, enum spe_mode mode, bool visibility);
const char *spe_mode_name(enum spe_mode mode);
const char *spe_reg_name(enum spe_reg reg);

/* Direct accesses and barriers by the PE; fn/line name the driver code */
uint64_t spe_read(int cpu, uint32_t enc, const char *fn, int line);
void spe_write(int cpu, uint32_t enc, uint64_t val, const char *fn, int line);
void spe_isb(int cpu, const char *fn, int line);
void spe_psb_csync(int cpu, const char *fn, int line);
void spe_dsb(int cpu, const char *fn, int line);
/*
 * Exception entry or return: a context synchronisation event (spe-rules:
 * context-sync-events)
 */
void spe_context_sync(int cpu);

/*
 * Every record the unit wrote on @cpu is complete in memory: a PSB CSYNC,
 * then a DSB, since the last one was written (I_MLGHW, spe-rules:
 * psb-drain)
 */
bool spe_writes_complete(int cpu);

/*
 * What the unit tells of each buffer write before it makes it, to whoever
 * observes them: the AUX ring model checks it against the data userspace
 * has not read yet (aux_check_unit_write(), spe-rules: aux-unread-data).
 * The unit does not know the ring: hx_reset() connects the two, so that
 * model/spe.c calls nothing of model/aux.c.
 */
typedef void spe_write_observer(int cpu, uintptr_t addr, size_t len);
void spe_observe_writes(spe_write_observer *fn);

/* The level of PMBIRQ (R_TSJRP): PMBSR_EL1.S as the unit sees it */
bool spe_irq_level(int cpu);
/* One operation of the workload on @cpu */
void spe_op(int cpu);

/* Hypervisor and test knobs */
void spe_set_max_buff_size(int cpu, uint16_t field);	/* PMBIDR[47:32] */
uint64_t spe_decode_max_buff_size(uint16_t field);
/* PMSEVFR_EL1/PMSNEVFR_EL1 bits the unit implements (the rest RAZ/WI) */
uint64_t spe_pmsevfr_implemented(void);
void spe_refuse_next_enable(int cpu);		/* size event below the limit */
/* Optional features, where the revision's sysreg describes their fields */
void spe_set_features(bool eft, bool fds);
void spe_inject_fault(int cpu, enum spe_fault kind, int after_records, int at_byte);
void spe_inject_collision(int cpu);
void spe_force_event(int cpu, uint64_t pmbsr);	/* set S and a syndrome */
uint64_t spe_peek(int cpu, enum spe_reg reg);	/* unit view, no side effect */
void spe_poke(int cpu, enum spe_reg reg, uint64_t val);
void spe_add_region(const void *base, size_t len);
void spe_del_region(const void *base);
/* Sequence number the next sample selected on any CPU will carry */
uint64_t spe_next_seq(void);

/*
 * memset() of the driver (custom.h maps it here in the driver's
 * compilation unit): a write that starts in an AUX area, or right at its
 * end, and runs past the end is a violation; only the part inside the
 * area is written, so the run goes on and the test or fuzzer reports it.
 */
void *spe_driver_memset(void *s, int c, size_t n, const char *fn, int line);

void spe_violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Record format written by the model (format 0 packets, spe-rules:
 * record-format)
 */
unsigned int spe_record_len(uint64_t seq, bool ts);
/*
 * Parse one record at p (n bytes available); returns its length, 0 if
 * truncated, -1 if garbled.  *seq receives the sequence number.
 */
int spe_parse_record(const uint8_t *p, size_t n, uint64_t *seq);

#endif
