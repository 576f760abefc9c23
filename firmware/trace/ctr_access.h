/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_TRACE_CTR_ACCESS_H
#define FIRMWARE_TRACE_CTR_ACCESS_H

#include <stdbool.h>
#include "firmware/core/trap_regs.h"

/*
 * The illegal-instruction hook (trap.c): true when the instruction was a
 * CTR access that is now emulated (mepc advanced); false otherwise, with
 * `trap` turned into a virtual-instruction exception where the spec says
 * so.
 */
bool ctr_emulate_illegal(struct trap_regs *regs, struct trap_info *trap);

#endif
