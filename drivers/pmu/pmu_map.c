// SPDX-License-Identifier: BSD-2-Clause
/*
 * The "riscv,pmu" device-tree node (Linux binding perf/riscv,pmu.yaml, the
 * properties QEMU 7.2 generates):
 *   riscv,event-to-mhpmcounters     <first last counters> ...
 *   riscv,event-to-mhpmevent        <event value_hi value_lo> ...
 *   riscv,raw-event-to-mhpmcounters <sel_hi sel_lo mask_hi mask_lo counters> ...
 * QEMU pads event-to-mhpmcounters with zero cells (20 cells for 5 triples),
 * so all-zero tuples and a trailing all-zero partial tuple are padding.
 * Anything else malformed makes the whole map fall back to the default: a
 * half-read map would hand S-mode counters that count the wrong thing.
 */
#include <stddef.h>
#include "drivers/pmu/pmu_map.h"

#define EVENT_IDX_MAX 0xfffffu

void pmu_map_default(struct pmu_map *m)
{
	m->from_dt = false;
	m->raw_from_dt = false;
	m->error_prop = NULL;
	m->error_cell = 0;
	m->nselectors = 0;
	m->nraw = 0;
	m->nranges = 2;
	m->ranges[0] = (struct pmu_map_range){ PMU_EVENT_CPU_CYCLES, PMU_EVENT_CPU_CYCLES,
					       1u << PMU_HW_CYCLE };
	m->ranges[1] = (struct pmu_map_range){ PMU_EVENT_INSTRUCTIONS, PMU_EVENT_INSTRUCTIONS,
					       1u << PMU_HW_INSTRET };
}

/* Records where the map is malformed; returns why. */
static const char *fail(struct pmu_map *m, const char *prop, int cellno, const char *why)
{
	m->error_prop = prop;
	m->error_cell = cellno;
	return why;
}

struct cells {
	const uint8_t *p;
	int n;                       /* number of cells */
};

static bool prop_cells(const struct fdt *fdt, int node, const char *name, struct cells *c,
		       struct pmu_map *m, const char **err)
{
	int len;

	c->p = fdt_getprop(fdt, node, name, &len);
	c->n = 0;
	if (!c->p)
		return true;             /* absent: nothing to add */
	if (len % 4) {
		*err = fail(m, name, len / 4, "length is not a whole number of cells");
		return false;
	}
	c->n = len / 4;
	return true;
}

static uint32_t cell(const struct cells *c, int i)
{
	return fdt_be32(c->p + 4 * (size_t)i);
}

/* Tuples of `width` cells; returns the number of whole tuples, after
 * checking that a trailing partial tuple is zero padding. */
static int whole_tuples(const struct cells *c, int width, const char *name, struct pmu_map *m,
			const char **err)
{
	int n = c->n / width, i;

	for (i = n * width; i < c->n; i++) {
		if (cell(c, i)) {
			*err = fail(m, name, i, "incomplete tuple at the end");
			return -1;
		}
	}
	return n;
}

static bool tuple_is_zero(const struct cells *c, int first, int width)
{
	for (int i = 0; i < width; i++)
		if (cell(c, first + i))
			return false;
	return true;
}

static const char *parse_ranges(struct pmu_map *m, const struct cells *c)
{
	static const char prop[] = "riscv,event-to-mhpmcounters";
	const char *err = NULL;
	int n = whole_tuples(c, 3, prop, m, &err);

	for (int t = 0; t < n; t++) {
		int at = 3 * t;
		uint32_t first = cell(c, at), last = cell(c, at + 1), ctrs = cell(c, at + 2);

		if (tuple_is_zero(c, at, 3))
			continue;
		if (first == 0 || first > EVENT_IDX_MAX || last > EVENT_IDX_MAX)
			return fail(m, prop, at, "event index is 0 or wider than 20 bits");
		if (first > last)
			return fail(m, prop, at, "first event after last");
		if (ctrs & 2u)
			return fail(m, prop, at + 2, "counter bitmap names the time CSR");
		if (m->nranges == PMU_MAP_MAX_RANGES)
			return fail(m, prop, at, "too many entries");
		m->ranges[m->nranges++] = (struct pmu_map_range){ first, last, ctrs };
	}
	return err;
}

static const char *parse_selectors(struct pmu_map *m, const struct cells *c)
{
	static const char prop[] = "riscv,event-to-mhpmevent";
	const char *err = NULL;
	int n = whole_tuples(c, 3, prop, m, &err);

	for (int t = 0; t < n; t++) {
		int at = 3 * t;
		uint32_t event = cell(c, at);

		if (tuple_is_zero(c, at, 3))
			continue;
		if (event == 0 || event > EVENT_IDX_MAX)
			return fail(m, prop, at, "event index is 0 or wider than 20 bits");
		if (m->nselectors == PMU_MAP_MAX_SELECTORS)
			return fail(m, prop, at, "too many entries");
		m->selectors[m->nselectors++] = (struct pmu_map_selector){
			event, (uint64_t)cell(c, at + 1) << 32 | cell(c, at + 2) };
	}
	return err;
}

static const char *parse_raw(struct pmu_map *m, const struct cells *c)
{
	static const char prop[] = "riscv,raw-event-to-mhpmcounters";
	const char *err = NULL;
	int n = whole_tuples(c, 5, prop, m, &err);

	for (int t = 0; t < n; t++) {
		int at = 5 * t;
		uint64_t sel = (uint64_t)cell(c, at) << 32 | cell(c, at + 1);
		uint64_t mask = (uint64_t)cell(c, at + 2) << 32 | cell(c, at + 3);
		uint32_t ctrs = cell(c, at + 4);

		if (tuple_is_zero(c, at, 5))
			continue;
		if (sel & ~mask)
			return fail(m, prop, at, "selector has bits outside its mask");
		if (ctrs & ~PMU_HPM_ALL)
			return fail(m, prop, at + 4, "raw events only on mhpmcounter3..31");
		if (m->nraw == PMU_MAP_MAX_RAW)
			return fail(m, prop, at, "too many entries");
		m->raw[m->nraw++] = (struct pmu_map_raw){ sel, mask, ctrs };
	}
	return err;
}

const char *pmu_map_from_fdt(struct pmu_map *m, const struct fdt *fdt)
{
	struct cells ranges, selectors, raw;
	const char *err = NULL;
	int node = -1;

	pmu_map_default(m);
	for (;;) {
		node = fdt_find_compatible(fdt, node, "riscv,pmu");
		if (node < 0)
			return NULL;
		if (fdt_node_is_enabled(fdt, node))
			break;
	}
	if (!prop_cells(fdt, node, "riscv,event-to-mhpmcounters", &ranges, m, &err) ||
	    !prop_cells(fdt, node, "riscv,event-to-mhpmevent", &selectors, m, &err) ||
	    !prop_cells(fdt, node, "riscv,raw-event-to-mhpmcounters", &raw, m, &err))
		goto bad;
	m->nranges = 0;
	err = parse_ranges(m, &ranges);
	if (!err)
		err = parse_selectors(m, &selectors);
	if (!err)
		err = parse_raw(m, &raw);
	if (err)
		goto bad;
	m->from_dt = true;
	m->raw_from_dt = raw.n > 0;
	return NULL;
bad: {
	const char *prop = m->error_prop;
	int at = m->error_cell;

	pmu_map_default(m);
	m->error_prop = prop;
	m->error_cell = at;
	return err;
}
}

static bool is_raw(uint32_t event_idx)
{
	uint32_t type = event_idx >> 16;

	return type == 2 || type == 3;
}

uint32_t pmu_map_counters(const struct pmu_map *m, uint32_t event_idx, uint64_t event_data)
{
	uint32_t ctrs = 0;
	unsigned int i;

	if (is_raw(event_idx)) {
		if (!m->raw_from_dt)
			return PMU_HPM_ALL;
		for (i = 0; i < m->nraw; i++)
			if ((event_data & m->raw[i].mask) == m->raw[i].select)
				ctrs |= m->raw[i].counters;
		return ctrs;
	}
	for (i = 0; i < m->nranges; i++)
		if (event_idx >= m->ranges[i].first && event_idx <= m->ranges[i].last)
			ctrs |= m->ranges[i].counters;
	/* mcycle and minstret count one thing each, whatever a DT says. */
	ctrs &= ~((1u << PMU_HW_CYCLE) | (1u << PMU_HW_INSTRET) | 2u);
	if (event_idx == PMU_EVENT_CPU_CYCLES)
		ctrs |= 1u << PMU_HW_CYCLE;
	if (event_idx == PMU_EVENT_INSTRUCTIONS)
		ctrs |= 1u << PMU_HW_INSTRET;
	return ctrs;
}

uint64_t pmu_map_mhpmevent(const struct pmu_map *m, uint32_t event_idx, uint64_t event_data)
{
	if (is_raw(event_idx))
		return event_data;
	for (unsigned int i = 0; i < m->nselectors; i++)
		if (m->selectors[i].event_idx == event_idx)
			return m->selectors[i].mhpmevent;
	/* The SBI spec's suggestion, and what QEMU counts: the event_idx. */
	return event_idx;
}
