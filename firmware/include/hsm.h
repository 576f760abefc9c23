/* SPDX-License-Identifier: BSD-2-Clause */
/* Hart state management: the subsystem behind sbi/hsm.c. */
#ifndef FIRMWARE_HSM_H
#define FIRMWARE_HSM_H

#include "hart.h"

long hsm_hart_start(unsigned long hartid, unsigned long addr, unsigned long opaque);
long hsm_hart_stop(void);
long hsm_hart_get_status(unsigned long hartid);
long hsm_hart_suspend(uint32_t type, unsigned long resume_addr, unsigned long opaque);

/* Where a hart waits while STOPPED; starts S-mode when asked. */
void __attribute__((noreturn)) hsm_stopped_loop(struct hart *self);
/* The address S-mode may start or resume at. */
bool hsm_entry_addr_ok(unsigned long addr);

#endif
