/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_CORE_PMP_H
#define FIRMWARE_CORE_PMP_H

#include "firmware/core/hart.h"
#include "firmware/core/platform.h"

/* S/U-mode may use everything but the firmware region: deny S/U-mode the
 * n regions (NAPOT each), allow everything else. */
int pmp_protect(const struct hart_features *f, const struct mem_region *deny, unsigned int n);

#endif
