// SPDX-License-Identifier: BSD-2-Clause
/*
 * Microchip PolarFire SoC (the Icicle kit and its kin).  Its MSS shows the
 * 32-bit DDR window at 0x8000_0000 (cached) again through the non-cached
 * window at 0xC000_0000 (PolarFire SoC MSS memory map; QEMU 7.2's
 * microchip-icicle-kit aliases the whole low GiB there).  The DT describes
 * only the first, so S-mode could reach the firmware through the second:
 * PMP keeps it there too (platform.fw_aliases).
 */
#include "firmware/core/platform.h"

static const struct ram_alias mpfs_ram_aliases[] = {
	{ .ram_base = 0x80000000, .size = 0x40000000, .alias = 0xc0000000 },
};

const struct platform_desc platform_mpfs = {
	.name = "mpfs",
	.compatible = "microchip,mpfs",
	.ram_aliases = mpfs_ram_aliases,
	.ram_alias_count = sizeof(mpfs_ram_aliases) / sizeof(mpfs_ram_aliases[0]),
};
