// SPDX-License-Identifier: BSD-2-Clause
/*
 * PMU extension: decodes the call for firmware/pmu/pmu.c, which checks every
 * argument.  The calling hart's own PMU state is the one used: the SBI PMU
 * counters are per hart.
 *
 * eid_table holds pmu_fast_handle (sbi/ecall_pmu_fast.S): it serves the
 * stop of one running counter itself and sends
 * counter_start, counter_fw_read and every other stop straight to their
 * functions in pmu.c; the remaining functions come here.
 */
#include "firmware/sbi/ecall.h"
#include "firmware/core/hart.h"
#include "firmware/pmu/pmu.h"

struct sbiret pmu_fast_handle(unsigned long a0, unsigned long a1, unsigned long a2,
			      unsigned long a3, unsigned long a4, unsigned long a5,
			      unsigned long fid, struct hart *self);
struct sbiret pmu_handle(unsigned long a0, unsigned long a1, unsigned long a2,
			 unsigned long a3, unsigned long a4, unsigned long a5,
			 unsigned long fid, struct hart *self);

struct sbiret pmu_handle(unsigned long a0, unsigned long a1, unsigned long a2,
			 unsigned long a3, unsigned long a4, unsigned long a5,
			 unsigned long fid, struct hart *self)
{
	/* The PMU state goes last, so the caller's arguments stay where the
	 * ecall left them. */
	struct pmu_hart *p = self->pmu;

	(void)a5;
	switch (fid) {
	case SBI_PMU_NUM_COUNTERS:
		return pmu_num_counters(p);
	case SBI_PMU_COUNTER_GET_INFO:
		return pmu_counter_get_info(a0, p);
	case SBI_PMU_COUNTER_CONFIG_MATCHING:
		/* RV64: event_data is a4 alone. */
		return pmu_counter_config_matching(a0, a1, a2, a3, a4, p);
	case SBI_PMU_COUNTER_START:
		return pmu_counter_start(a0, a1, a2, a3, p);
	case SBI_PMU_COUNTER_STOP:
		return pmu_counter_stop(a0, a1, a2, p);
	case SBI_PMU_COUNTER_FW_READ:
		return pmu_counter_fw_read(a0, p);
	case SBI_PMU_COUNTER_FW_READ_HI:
		return pmu_counter_fw_read_hi(a0, p);
	case SBI_PMU_SNAPSHOT_SET_SHMEM:
		return pmu_snapshot_set_shmem(a0, a1, a2, p);
	case SBI_PMU_EVENT_GET_INFO:
		return pmu_event_get_info(a0, a1, a2, a3, p);
	default:
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	}
}

static const struct sbi_extension sbi_pmu = {
	.name = "PMU",
	.eid_first = SBI_EXT_PMU,
	.eid_last = SBI_EXT_PMU,
	.handle = pmu_fast_handle,
};
SBI_EXTENSION(sbi_pmu);
