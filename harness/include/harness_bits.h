/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bit helpers shared by the driver shim and the model.  The generated
 * sysreg-defs.h and the SPE block of asm/sysreg.h only need these.
 * UL, ULL, BIT and BIT_ULL are the revision's own tools/include ones
 * (prepare.sh).  GENMASK is written here, with the semantics of
 * include/linux/bits.h: tools/include/linux/bits.h brings compiler.h,
 * build_bug.h and overflow.h, whose definitions would replace the stubs.
 */
#ifndef HARNESS_BITS_H
#define HARNESS_BITS_H

#include <stdint.h>
#include <tools/include/vdso/bits.h>

#define GENMASK(h, l)		((~0UL << (l)) & (~0UL >> (63 - (h))))
#define GENMASK_ULL(h, l)	((~0ULL << (l)) & (~0ULL >> (63 - (h))))

/* Encoding of an MRS/MSR operand, as arch/arm64/include/asm/sysreg.h packs it */
#define sys_reg(op0, op1, crn, crm, op2)				\
	(((op0) << 19) | ((op1) << 16) | ((crn) << 12) | ((crm) << 8) | ((op2) << 5))

#define HB_FIELD_GET(mask, reg)	(((reg) & (mask)) >> __builtin_ctzll(mask))
#define HB_FIELD_PREP(mask, v)	(((uint64_t)(v) << __builtin_ctzll(mask)) & (mask))

#endif
