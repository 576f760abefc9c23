// SPDX-License-Identifier: BSD-2-Clause
/*
 * tracesbi's firmware-specific extension (EID SBI_EXT_TRACESBI, in the SBI
 * spec's Firmware Specific Extension Space): read-only views of M-mode state
 * that S-mode tests and debuggers need and no standard extension gives.
 * Callers check sbi_get_impl_id() == SBI_IMPL_ID first (ext-firmware.adoc:
 * the space is defined per implementation).
 */
#include "firmware/sbi/ecall.h"
#include "firmware/core/hart.h"
#include "firmware/pmu/pmu.h"

#ifdef TRACESBI_FAULT_INJECT
#include "firmware/core/console.h"
#include "firmware/service/panic.h"

/* No device answers here on QEMU virt (between its MROM and test device):
 * a load is an access fault. */
#define NO_DEVICE_ADDR 0x80000UL

static __attribute__((noinline)) unsigned long fault_inject_load(unsigned long addr)
{
	return *(volatile unsigned long *)addr;
}

static __attribute__((noinline)) unsigned long fault_inject_deep(unsigned long addr)
{
	/* Not a tail call: this frame must be on the stack at the fault. */
	return fault_inject_load(addr) + 1;
}

static struct sbiret fault_inject(unsigned long kind, struct hart *self)
{
	switch (kind) {
	case FAULT_INJECT_LOAD:
		return SBI_RET(SBI_SUCCESS, fault_inject_deep(NO_DEVICE_ADDR));
	case FAULT_INJECT_ILLEGAL:
		__asm__ __volatile__("unimp");
		return SBI_RET(SBI_SUCCESS, 0);
	case FAULT_INJECT_CANARY:
		*hart_stack_canary(self) = 0;
		return SBI_RET(SBI_SUCCESS, 0);
	case FAULT_INJECT_PANIC:
		panic("fault injection on hart %lu\n", self->hartid);
	default:
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	}
}
#endif

static struct sbiret tracesbi_handle(unsigned long a0, unsigned long a1, unsigned long a2,
				     unsigned long a3, unsigned long a4, unsigned long a5,
				     unsigned long fid, struct hart *self)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	switch (fid) {
	case SBI_TRACESBI_PMU_EVENT_CSR:
		return pmu_counter_event_csr(a0, self->pmu);
#ifdef TRACESBI_FAULT_INJECT
	case SBI_TRACESBI_FAULT_INJECT:
		return fault_inject(a0, self);
#endif
	default:
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	}
}

static const struct sbi_extension sbi_tracesbi = {
	.name = "tracesbi",
	.eid_first = SBI_EXT_TRACESBI,
	.eid_last = SBI_EXT_TRACESBI,
	.handle = tracesbi_handle,
};
SBI_EXTENSION(sbi_tracesbi);
