// SPDX-License-Identifier: BSD-2-Clause
/*
 * The machine as the firmware knows it (platform.h), which the platform
 * code fills from the DTB, and the check of every address range S-mode
 * passes in: inside RAM, outside the firmware's region, no wrap.
 */
#include "firmware/core/platform.h"

struct platform platform;

void platform_register_mtime(volatile uint64_t *mtime, bool in_time_csr)
{
	platform.mtime = mtime;
	platform.mtime_in_time_csr = in_time_csr;
}

void platform_register_reset(enum platform_reset which, const struct reset_action *act,
			     bool fallback)
{
	struct reset_action *slot = which == PLATFORM_POWEROFF ? &platform.poweroff
							       : &platform.reboot;

	if (!fallback || !slot->present)
		*slot = *act;
}

void platform_register_exit_status(void (*exit_with_status)(uint32_t status))
{
	platform.exit_with_status = exit_with_status;
}

bool platform_range_in_ram(uint64_t base, uint64_t size)
{
	unsigned int i;

	if (base + size < base)
		return false;
	for (i = 0; i < platform.ram_count; i++) {
		const struct mem_region *r = &platform.ram[i];

		if (base >= r->base && base + size <= r->base + r->size)
			return true;
	}
	return false;
}

bool platform_range_overlaps_fw(uint64_t base, uint64_t size)
{
	uint64_t end = base + size;

	return base < platform.fw_base + platform.fw_size && end > platform.fw_base;
}

bool platform_smode_range_ok(uint64_t base, uint64_t size)
{
	/* platform_range_in_ram refuses a range that wraps. */
	return platform_range_in_ram(base, size) && !platform_range_overlaps_fw(base, size);
}
