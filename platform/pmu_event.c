// SPDX-License-Identifier: BSD-2-Clause
/*
 * The platform's SBI PMU firmware events, apart from the DT parsing of
 * generic.c so that file builds for the host (tests/host/test_board_dtbs.c):
 * these read the running hart's state.
 */
#include "firmware/core/platform.h"
#include "firmware/core/hart.h"
#include "firmware/pmu/pmu.h"

/*
 * SBI_PMU_FW_PLATFORM events (event_data selects one).  Both platforms
 * count the same thing: 1 = console bytes the firmware wrote for S-mode on
 * this hart (DBCN writes, legacy putchar).
 */
#define PLATFORM_EVENT_SMODE_CONSOLE_BYTES 1

bool platform_pmu_event_valid(uint64_t event_data)
{
	return event_data == PLATFORM_EVENT_SMODE_CONSOLE_BYTES;
}

uint64_t platform_pmu_event_read(uint64_t event_data)
{
	if (event_data == PLATFORM_EVENT_SMODE_CONSOLE_BYTES)
		return hart_self()->smode_console_bytes;
	return 0;
}
