/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef DRIVERS_TIMER_ACLINT_MTIMER_H
#define DRIVERS_TIMER_ACLINT_MTIMER_H

#include <stdint.h>

/* A CLINT the DTB does not describe: context n is hartid n. */
void clint_mtimer_at(uint64_t base);

#endif
