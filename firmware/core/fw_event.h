/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The firmware events the SBI PMU counts (ext-pmu.adoc, "Event: Firmware
 * Events (Type #15)"), counted where they happen: the core's IPIs, fences
 * and traps, the SBI front ends.  The counts are the PMU's
 * (pmu_hart.fw_events, pmu/pmu.h); a hart reaches them through
 * hart.fw_events.
 */
#ifndef FIRMWARE_CORE_FW_EVENT_H
#define FIRMWARE_CORE_FW_EVENT_H

#include <stdint.h>

/* Firmware event codes (event type 15). */
enum pmu_fw_event {
	PMU_FW_MISALIGNED_LOAD = 0,
	PMU_FW_MISALIGNED_STORE,
	PMU_FW_ACCESS_LOAD,
	PMU_FW_ACCESS_STORE,
	PMU_FW_ILLEGAL_INSN,
	PMU_FW_SET_TIMER,
	PMU_FW_IPI_SENT,
	PMU_FW_IPI_RECEIVED,
	PMU_FW_FENCE_I_SENT,
	PMU_FW_FENCE_I_RECEIVED,
	PMU_FW_SFENCE_VMA_SENT,
	PMU_FW_SFENCE_VMA_RECEIVED,
	PMU_FW_SFENCE_VMA_ASID_SENT,
	PMU_FW_SFENCE_VMA_ASID_RECEIVED,
	PMU_FW_HFENCE_GVMA_SENT,
	PMU_FW_HFENCE_GVMA_RECEIVED,
	PMU_FW_HFENCE_GVMA_VMID_SENT,
	PMU_FW_HFENCE_GVMA_VMID_RECEIVED,
	PMU_FW_HFENCE_VVMA_SENT,
	PMU_FW_HFENCE_VVMA_RECEIVED,
	PMU_FW_HFENCE_VVMA_ASID_SENT,
	PMU_FW_HFENCE_VVMA_ASID_RECEIVED,
	PMU_FW_STD_COUNT,
	/* tracesbi's own (implementation-specific range 256..65534). */
	PMU_FW_SBI_CALLS = 256,
	PMU_FW_M_TRAPS = 257,
	PMU_FW_M_INSTRET = 258,
	PMU_FW_IMPL_LAST = PMU_FW_M_INSTRET,
	PMU_FW_PLATFORM = 65535,
};

/* Slots of struct fw_events: the standard events, then 256.. */
#define PMU_FW_SLOT(code) ((code) < PMU_FW_STD_COUNT ? (code) : \
			   (code) - PMU_FW_SBI_CALLS + PMU_FW_STD_COUNT)
#define PMU_FW_SLOTS (PMU_FW_STD_COUNT + PMU_FW_IMPL_LAST - PMU_FW_SBI_CALLS + 1)

struct fw_events {
	volatile uint64_t count[PMU_FW_SLOTS];
};

/* Count one firmware event. */
static inline void fw_event_count(struct fw_events *e, unsigned int code)
{
	e->count[PMU_FW_SLOT(code)]++;
}

#endif
