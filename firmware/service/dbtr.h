/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SBI Debug Triggers (ext-debug-triggers.adoc): S-mode's use of the hart's
 * Sdtrig triggers, behind sbi/ecall_dbtr.c.  Logical trigger i is hardware
 * trigger i (so a chain is contiguous in both).  All state is per hart.
 */
#ifndef FIRMWARE_DBTR_H
#define FIRMWARE_DBTR_H

#include "firmware/core/hart.h"
#include "firmware/core/sbi_spec.h"
#include "firmware/core/sbiret.h"

long dbtr_num_triggers(struct hart *self, unsigned long tdata1);
long dbtr_set_shmem(struct hart *self, unsigned long lo, unsigned long hi, unsigned long flags);
long dbtr_read_triggers(struct hart *self, unsigned long base, unsigned long count);
struct sbiret dbtr_install_triggers(struct hart *self, unsigned long count);
struct sbiret dbtr_update_triggers(struct hart *self, unsigned long count);
long dbtr_uninstall_triggers(struct hart *self, unsigned long base, unsigned long mask);
long dbtr_enable_triggers(struct hart *self, unsigned long base, unsigned long mask, bool on);

/* Hart reset (boot, HSM stop): every trigger uninstalled, no shared
 * memory.  Probes the hart's triggers the first time. */
void dbtr_hart_reset(struct hart *self);
/* S-mode holds triggers on this hart through DBTR: the trace engine, which
 * steps a hart with triggers 0 and 1, must not take them. */
bool dbtr_triggers_in_use(const struct hart *self);

#endif
