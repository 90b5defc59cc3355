/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The funnel: every <linux/...> and <asm/...> the driver includes is a
 * generated one-line header that includes this file (prepare.sh).
 */
#ifndef HARNESS_KERNEL_H
#define HARNESS_KERNEL_H

#include "stubs.h"
#include "dup.h"
#include "custom.h"

/* Register definitions of the tree under test, generated, never copied */
#include "sysreg-defs.h"
#include "spe-sysreg.h"

#endif
