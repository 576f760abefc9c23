/* SPDX-License-Identifier: BSD-2-Clause */
/* The S-mode timer on harts without Sstc: mtimecmp for S-mode's deadline. */
#ifndef FIRMWARE_CORE_TIMER_H
#define FIRMWARE_CORE_TIMER_H

#include "firmware/core/hart.h"

void timer_set_smode_deadline(struct hart *self, uint64_t stime);
void timer_handle_mtip(struct hart *self);
void timer_cancel(struct hart *self);
bool timer_boot_wake_at(struct hart *self, uint64_t time);

#endif
