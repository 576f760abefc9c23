/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Drivers found through the DTB by compatible string.  Each probe returns 0
 * when it took the device, a negative value when the node is unusable.
 */
#ifndef FIRMWARE_DRIVERS_H
#define FIRMWARE_DRIVERS_H

#include <stdint.h>
#include "fdt.h"

/* drivers/serial/ns16550.c */
int ns16550_probe(const struct fdt *fdt, int node);
void ns16550_init_early(uintptr_t base, unsigned int reg_shift);

/* drivers/ipi/aclint_mswi.c: fills hart->msip for the harts it serves. */
int aclint_mswi_probe_all(const struct fdt *fdt);
void aclint_mswi_send(volatile uint32_t *msip);
void aclint_mswi_clear(volatile uint32_t *msip);

/* drivers/timer/aclint_mtimer.c: fills hart->mtimecmp and platform.mtime. */
int aclint_mtimer_probe_all(const struct fdt *fdt);

/* drivers/reset/syscon_reset.c: fills platform.poweroff / reboot. */
int syscon_reset_probe_all(const struct fdt *fdt);

/* Helpers shared by the ACLINT drivers: the hartid of the cpu whose
 * interrupt controller has this phandle, or -1. */
long fdt_intc_phandle_to_hartid(const struct fdt *fdt, uint32_t phandle);

#endif
