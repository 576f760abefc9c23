/* SPDX-License-Identifier: BSD-2-Clause */
/* The time CSR on harts that trap it. */
#ifndef FIRMWARE_EMU_TIME_CSR_H
#define FIRMWARE_EMU_TIME_CSR_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/core/trap_regs.h"

/* The time CSR's value, also on harts that do not have it. */
uint64_t time_now(void);
/* A read of the time CSR on a hart that traps it. */
bool time_csr_emulate(struct trap_regs *regs, unsigned long tval);

#endif
