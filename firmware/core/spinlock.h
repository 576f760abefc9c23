/* SPDX-License-Identifier: BSD-2-Clause */
/* Ticket lock: fair, so no hart is starved under QEMU's round-robin. */
#ifndef FIRMWARE_SPINLOCK_H
#define FIRMWARE_SPINLOCK_H

#include <stdint.h>

typedef struct {
	volatile uint32_t next, owner;
} spinlock_t;

static inline void spin_lock(spinlock_t *l)
{
	uint32_t me = __atomic_fetch_add(&l->next, 1, __ATOMIC_ACQUIRE);
	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me)
		__asm__ __volatile__("nop");
}

static inline void spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}

#endif
