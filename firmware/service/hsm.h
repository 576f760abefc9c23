/* SPDX-License-Identifier: BSD-2-Clause */
/* Hart state management: the subsystem behind sbi/ecall_hsm.c. */
#ifndef FIRMWARE_HSM_H
#define FIRMWARE_HSM_H

#include "firmware/core/hart.h"

long hsm_hart_start(unsigned long hartid, unsigned long addr, unsigned long opaque);
long hsm_hart_stop(void);
long hsm_hart_get_status(unsigned long hartid);
long hsm_hart_suspend(uint32_t type, unsigned long resume_addr, unsigned long opaque);
/* SUSP system_suspend: returns only on an error. */
long hsm_system_suspend(uint32_t sleep_type, unsigned long resume_addr, unsigned long opaque);

/* Where a STOPPED hart (one it claimed) starts, then START_PENDING is
 * published; the caller wakes it (IPI_EVENT_WAKE). */
static inline void hsm_set_start_pending(struct hart *target, unsigned long addr,
					 unsigned long arg1, unsigned long mode)
{
	target->next_addr = addr;
	target->next_arg1 = arg1;
	target->next_mode = mode;
	__atomic_store_n(&target->hsm_state, SBI_HSM_STATE_START_PENDING, __ATOMIC_RELEASE);
}
/* Where a hart waits while STOPPED; starts S-mode when asked. */
void __attribute__((noreturn)) hsm_stopped_loop(struct hart *self);
/* The address S-mode may start or resume at. */
bool hsm_entry_addr_ok(unsigned long addr);

#endif
