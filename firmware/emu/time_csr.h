/* SPDX-License-Identifier: BSD-2-Clause */
/* The time CSR on harts that trap it. */
#ifndef FIRMWARE_EMU_TIME_CSR_H
#define FIRMWARE_EMU_TIME_CSR_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/core/trap_regs.h"

/* The time CSR's value, also on harts that do not have it. */
uint64_t time_now(void);
/* Whether time_now() has a source on this hart: *mmio is then the mtime
 * it reads, or NULL for the time CSR (step_fast.S reads it itself). */
bool time_now_source(const volatile uint64_t **mmio);
/* A read of the time CSR on a hart that traps it. */
bool time_csr_emulate(struct trap_regs *regs, unsigned long tval);

#endif
