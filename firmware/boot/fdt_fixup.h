/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_BOOT_FDT_FIXUP_H
#define FIRMWARE_BOOT_FDT_FIXUP_H

#include <stdint.h>

/* The DT handed to the next stage: the firmware region reserved, the
 * harts without S-mode disabled, the trace components added.  0 or a
 * negative FDT error. */
int fdt_fixup(void *dtb, uint32_t totalsize);

#endif
