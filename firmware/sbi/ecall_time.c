// SPDX-License-Identifier: BSD-2-Clause
/* TIME extension: set_timer, served by timer.c. */
#include "firmware/sbi/ecall.h"
#include "firmware/service/ipi.h"
#include "firmware/service/timer.h"
#include "firmware/core/fw_event.h"

static struct sbiret time_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				 unsigned long a3, unsigned long a4, unsigned long a5,
				 unsigned long fid, struct hart *self)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	if (fid != SBI_TIME_SET_TIMER)
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	fw_event_count(self->fw_events, PMU_FW_SET_TIMER);
	timer_set_smode_deadline(self, a0);
	return SBI_ERR(SBI_SUCCESS);
}

static const struct sbi_extension sbi_time = {
	.name = "TIME",
	.eid_first = SBI_EXT_TIME,
	.eid_last = SBI_EXT_TIME,
	.handle = time_handle,
};
SBI_EXTENSION(sbi_time);
