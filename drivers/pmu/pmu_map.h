/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which hardware counters can count which event, and what goes into
 * mhpmeventN for it: the platform's PMU description, from the DT node
 * compatible "riscv,pmu" (drivers/pmu/pmu_map.c) or the platform default.
 * Counter bitmaps use hardware numbering: bit 0 mcycle, bit 2 minstret,
 * bit N mhpmcounterN.
 */
#ifndef FIRMWARE_PMU_MAP_H
#define FIRMWARE_PMU_MAP_H

#include <stdint.h>
#include <stdbool.h>
#include "lib/fdt/fdt.h"

#define PMU_MAP_MAX_RANGES    128
#define PMU_MAP_MAX_SELECTORS 128
#define PMU_MAP_MAX_RAW       64

#define PMU_HW_CYCLE   0
#define PMU_HW_INSTRET 2
#define PMU_HPM_FIRST  3
/* Every possible mhpmcounter (3..31). */
#define PMU_HPM_ALL    0xfffffff8u

#define PMU_EVENT_CPU_CYCLES   0x00001
#define PMU_EVENT_INSTRUCTIONS 0x00002

struct pmu_map_range {
	uint32_t first, last;        /* event_idx range, inclusive */
	uint32_t counters;
};

struct pmu_map_selector {
	uint32_t event_idx;
	uint64_t mhpmevent;
};

struct pmu_map_raw {
	uint64_t select, mask;       /* matches when (event_data & mask) == select */
	uint32_t counters;
};

struct pmu_map {
	bool from_dt;
	const char *error_prop;      /* after a parse error: the property ... */
	int error_cell;              /* ... and the cell (from 0) */
	bool raw_from_dt;            /* else raw events may use every HPM counter */
	unsigned int nranges, nselectors, nraw;
	struct pmu_map_range ranges[PMU_MAP_MAX_RANGES];
	struct pmu_map_selector selectors[PMU_MAP_MAX_SELECTORS];
	struct pmu_map_raw raw[PMU_MAP_MAX_RAW];
};

/* The platform default: cycles on mcycle, instructions on minstret, raw
 * events on every HPM counter, nothing else. */
void pmu_map_default(struct pmu_map *m);

/*
 * Fill `m` from the first enabled "riscv,pmu" node.  Returns NULL when the
 * map came from the DT or there is no such node (m = the default), else
 * what is wrong, with m->error_prop and m->error_cell saying where (and m
 * reset to the default).
 */
const char *pmu_map_from_fdt(struct pmu_map *m, const struct fdt *fdt);

/* Hardware counters that can count a general, cache or raw event (types
 * 0..3); the caller has checked event_idx and event_data. */
uint32_t pmu_map_counters(const struct pmu_map *m, uint32_t event_idx, uint64_t event_data);

/* The mhpmevent value (without the Sscofpmf bits 63:56) for the event. */
uint64_t pmu_map_mhpmevent(const struct pmu_map *m, uint32_t event_idx, uint64_t event_data);

#endif
