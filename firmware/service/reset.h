/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_CORE_RESET_H
#define FIRMWARE_CORE_RESET_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/fdt/fdt.h"

/* Cold boot: the boot option tracesbi.sysfail=<poweroff|status>. */
void reset_cold_init(const struct fdt *fdt);
/* A warning for a boot option it did not understand. */
void reset_print_banner(void);
/* The platform has a device that powers off or reboots. */
bool system_reset_available(void);
/* SRST's system reset (type, reason as the spec's; ext-sys-reset.adoc):
 * returns only on an error (SBI_ERR_*), after every subsystem's
 * before_reset hook (fw_hooks.h). */
long system_reset(uint32_t type, uint32_t reason);
/* Power off with a failure reason where the platform can say so, else
 * plainly; returns only if the platform has no way to power off. */
void system_failure_shutdown(void);

#endif
