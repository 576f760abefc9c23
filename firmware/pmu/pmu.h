/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SBI PMU: per-hart logical counters (docs/PMU.md).  firmware/pmu/pmu.c holds
 * the counter state machine and every argument check; it reaches the
 * hardware only through pmu_hw.h and memory only through the checks of
 * platform.h, so host tests run it against a fake PMU.
 */
#ifndef FIRMWARE_PMU_PMU_H
#define FIRMWARE_PMU_PMU_H

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "firmware/core/sbi_spec.h"
#include "firmware/core/sbiret.h"
#include "drivers/pmu/pmu_map.h"
#include "firmware/core/fw_event.h"

#define PMU_HW_MAX      31    /* cycle, instret, mhpmcounter3..31 */
#define PMU_FW_COUNTERS 32
#define PMU_MAX         (PMU_HW_MAX + PMU_FW_COUNTERS)
#define PMU_SNAPSHOT_SIZE 4096

enum pmu_counter_state {
	PMU_FREE = 0,        /* no event */
	PMU_CONFIGURED,      /* event set, stopped */
	PMU_RUNNING,
};

struct pmu_hw_counter {
	uint64_t mhpmevent;          /* value written while running (OF clear) */
};

struct pmu_hw_saved {                /* across non-retentive suspend */
	uint64_t value, event;
};

struct pmu_fw_counter {
	const volatile uint64_t *source;  /* value = *source + offset (pmu.c) */
	uint64_t offset;
	uint64_t event_data;         /* PMU_FW_PLATFORM only */
	uint32_t event_idx;
};

/*
 * Everything PMU of one hart.  The firmware keeps one per hart slot
 * (pmu_hart_of); struct hart points at it.
 */
struct pmu_hart {
	/* Counts of every firmware event on this hart, always kept (where
	 * they happen: fw_event.h). */
	struct fw_events fw_events;
	/* Instrumented trap entry (trap.S): minstret at entry. */
	uint64_t trap_entry_instret;
	/* Running counters of events 256..258: the instrumented trap entry is
	 * installed while non-zero. */
	uint32_t impl_running;

	/* Counter layout: logical hardware counter i is hardware counter
	 * hw_num[i] (0 cycle, 2 instret, 3.. mhpmcounterN). */
	uint8_t hw_count;
	uint8_t hw_num[PMU_HW_MAX];
	uint8_t hpm_width;
	bool sscofpmf;
	bool hpm_contiguous;         /* hw_num[i] == i + 1 for every HPM counter */
	uint32_t hpm_mask;

	/* enum pmu_counter_state by logical index, one array for both kinds
	 * so that a call checks a counter with one load; past the last
	 * counter it stays PMU_FREE.  Aligned: stop_hpm_set updates eight at
	 * a time. */
	uint8_t state[64] __attribute__((aligned(8)));
	uint64_t snapshot_addr;      /* physical; valid when snapshot_on */
	bool snapshot_on;
	/* Above this point everything is within a 12-bit offset of the
	 * struct: the start/stop paths reach it with one instruction. */

	struct pmu_hw_counter hw[PMU_HW_MAX];
	struct pmu_hw_saved hw_saved[PMU_HW_MAX];
	struct pmu_fw_counter fw[PMU_FW_COUNTERS];
};
_Static_assert(offsetof(struct pmu_hart, snapshot_on) < 2048, "pmu_hart hot fields");

#define PMU_FW_EVENT_OFFSET(code) \
	(offsetof(struct pmu_hart, fw_events) + (size_t)PMU_FW_SLOT(code) * sizeof(uint64_t))


/* Count one firmware event on this hart. */
static inline void pmu_fw_event(struct pmu_hart *p, unsigned int code)
{
	fw_event_count(&p->fw_events, code);
}

/* Boot: the event map every hart uses (parsed from the DT by the platform). */
extern struct pmu_map pmu_event_map;

/* Per hart, at (re)start: lay out the counters from what probing found and
 * reset every counter; stop everything the hardware has running.  A hart
 * that cannot stop its counters (no mcountinhibit) gets firmware counters
 * only. */
void pmu_hart_init(struct pmu_hart *p, uint32_t hpm_mask, unsigned int hpm_width,
		   bool sscofpmf, bool mcountinhibit);
/* Non-retentive suspend: keep HPM values over the (possibly) lost state. */
void pmu_hart_suspend(struct pmu_hart *p);
void pmu_hart_resume(struct pmu_hart *p);

/* The SBI functions, every argument checked (sbi/ecall_pmu.c decodes the call).
 * The hart's state comes last, so a0.. stay where the ecall put them. */
struct sbiret pmu_num_counters(struct pmu_hart *p);
struct sbiret pmu_counter_get_info(unsigned long idx, struct pmu_hart *p);
struct sbiret pmu_counter_config_matching(unsigned long base,
					  unsigned long mask, unsigned long flags,
					  unsigned long event_idx, uint64_t event_data, struct pmu_hart *p);
struct sbiret pmu_counter_start(unsigned long base, unsigned long mask,
				unsigned long flags, uint64_t initial_value, struct pmu_hart *p);
struct sbiret pmu_counter_stop(unsigned long base, unsigned long mask,
			       unsigned long flags, struct pmu_hart *p);
struct sbiret pmu_counter_fw_read(unsigned long idx, struct pmu_hart *p);
/* What a stopped firmware counter's source points at (pmu.c). */
extern const uint64_t pmu_zero_source;
struct sbiret pmu_counter_fw_read_hi(unsigned long idx, struct pmu_hart *p);
struct sbiret pmu_snapshot_set_shmem(unsigned long lo, unsigned long hi,
				     unsigned long flags, struct pmu_hart *p);
struct sbiret pmu_event_get_info(unsigned long lo, unsigned long hi,
				 unsigned long num_entries, unsigned long flags, struct pmu_hart *p);
/* Not SBI PMU: the mhpmevent of a logical HPM counter (sbi/ecall_tracesbi.c). */
struct sbiret pmu_counter_event_csr(unsigned long idx, struct pmu_hart *p);

/* Flags of config_matching, counter_start and counter_stop. */
#define PMU_CFG_SKIP_MATCH       (1UL << 0)
#define PMU_CFG_CLEAR_VALUE      (1UL << 1)
#define PMU_CFG_AUTO_START       (1UL << 2)
#define PMU_CFG_SET_VUINH        (1UL << 3)
#define PMU_CFG_SET_VSINH        (1UL << 4)
#define PMU_CFG_SET_UINH         (1UL << 5)
#define PMU_CFG_SET_SINH         (1UL << 6)
#define PMU_CFG_SET_MINH         (1UL << 7)
#define PMU_CFG_ALL              0xffUL
#define PMU_START_SET_INIT_VALUE (1UL << 0)
#define PMU_START_INIT_SNAPSHOT  (1UL << 1)
#define PMU_STOP_RESET           (1UL << 0)
#define PMU_STOP_TAKE_SNAPSHOT   (1UL << 1)

/* Platform firmware events (SBI_PMU_FW_PLATFORM): whether event_data names
 * one, and its count on the calling hart. */
bool platform_pmu_event_valid(uint64_t event_data);
uint64_t platform_pmu_event_read(uint64_t event_data);

/* Switch this hart's trap entry to count events 256..258 (trap.S;
 * pmu_hart.c, which host tests fake). */
void pmu_trap_counting(bool on);

#endif /* __ASSEMBLER__ */
#endif
