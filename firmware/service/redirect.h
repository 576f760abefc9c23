/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_CORE_REDIRECT_H
#define FIRMWARE_CORE_REDIRECT_H

#include "firmware/core/trap_regs.h"

/* Deliver `trap` to S-mode as if delegation had: sepc/scause/stval, sstatus
 * SPP/SPIE/SIE, then continue at stvec (VS-mode's registers for a trap
 * hedeleg gives a guest). */
void trap_redirect(struct trap_regs *regs, const struct trap_info *trap);

#endif
