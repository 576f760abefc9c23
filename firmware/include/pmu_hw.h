/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The hart's counter CSRs by hardware number (0 mcycle, 2 minstret, 3..31
 * mhpmcounterN) — drivers/pmu/hpm.c.  Callers pass only numbers probing
 * found implemented.
 */
#ifndef FIRMWARE_PMU_HW_H
#define FIRMWARE_PMU_HW_H

#include <stdint.h>

/* Sscofpmf bits of mhpmeventN. */
#define MHPMEVENT_OF    (1ULL << 63)
#define MHPMEVENT_MINH  (1ULL << 62)
#define MHPMEVENT_SINH  (1ULL << 61)
#define MHPMEVENT_UINH  (1ULL << 60)
#define MHPMEVENT_VSINH (1ULL << 59)
#define MHPMEVENT_VUINH (1ULL << 58)

uint64_t pmu_hw_counter_read(unsigned int n);
void pmu_hw_counter_write(unsigned int n, uint64_t value);
uint64_t pmu_hw_event_read(unsigned int n);          /* n >= 3 */
void pmu_hw_event_write(unsigned int n, uint64_t value);
void pmu_hw_inhibit(uint32_t counters);              /* bit n: counter n */
void pmu_hw_uninhibit(uint32_t counters);

#endif
