// SPDX-License-Identifier: BSD-2-Clause
/*
 * SiFive FU540-C000 (HiFive Unleashed) and FU740-C000 (HiFive Unmatched):
 * Linux 6.1's DTs of these SoCs have no CLINT node (Linux takes its timer
 * and IPIs from SBI), so the CLINT's place comes from the SoC manuals'
 * memory maps: 0x0200_0000, one context per hartid.
 */
#include "firmware/core/platform.h"

#define SIFIVE_FU_CLINT_BASE 0x02000000

const struct platform_desc platform_sifive_fu540 = {
	.name = "sifive-fu540",
	.compatible = "sifive,fu540-c000",
	.clint_base = SIFIVE_FU_CLINT_BASE,
};

const struct platform_desc platform_sifive_fu740 = {
	.name = "sifive-fu740",
	.compatible = "sifive,fu740-c000",
	.clint_base = SIFIVE_FU_CLINT_BASE,
};
