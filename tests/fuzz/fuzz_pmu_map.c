// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for drivers/pmu/pmu_map.c, the "riscv,pmu" DT map.
 *
 * The input is turned into a devicetree with one "riscv,pmu" node whose
 * three properties take their cells from the input (so the parser sees
 * tuples of every length and value, not mostly-invalid blobs):
 *   byte 0: bits 1:0 select how many properties follow (0..3), bit 2 adds
 *           status = "disabled", bit 3 a second, enabled node after it;
 *   then per property: one length byte (bytes, 0..255, any alignment) and
 *           that many bytes of value.
 * What is left after the properties is a list of 12-byte event queries
 * (event_idx, event_data) run against the map.
 *
 * Checked: a map that parsed lies within the array bounds and only names
 * counters that exist (bits 0, 2..31; never the time bit 1); a map that did
 * not parse is the platform default with the failing property and cell
 * named; mcycle/minstret count only cycles/instructions.
 * Built by mk/70-ntrace-tests.mk (suite fuzz).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fdt/fdt.h"
#include "drivers/pmu/pmu_map.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static const char *const prop_names[3] = {
	"riscv,event-to-mhpmcounters",
	"riscv,event-to-mhpmevent",
	"riscv,raw-event-to-mhpmcounters",
};

/* ---- a small devicetree writer (version 17 layout) ---------------------- */

struct blob {
	uint8_t strct[4096];
	size_t slen;
	char strings[512];
	size_t strlen_;
};

static void put(struct blob *b, const void *p, size_t n)
{
	memcpy(b->strct + b->slen, p, n);
	b->slen += n;
	while (b->slen & 3)
		b->strct[b->slen++] = 0;
}

static void put32(struct blob *b, uint32_t v)
{
	uint8_t be[4] = { v >> 24, v >> 16, v >> 8, v };

	put(b, be, 4);
}

static uint32_t string_offset(struct blob *b, const char *name)
{
	for (size_t off = 0; off < b->strlen_; off += strlen(b->strings + off) + 1)
		if (!strcmp(b->strings + off, name))
			return (uint32_t)off;
	size_t off = b->strlen_;

	memcpy(b->strings + off, name, strlen(name) + 1);
	b->strlen_ += strlen(name) + 1;
	return (uint32_t)off;
}

static void prop(struct blob *b, const char *name, const void *val, size_t len)
{
	put32(b, FDT_PROP);
	put32(b, (uint32_t)len);
	put32(b, string_offset(b, name));
	if (len)
		put(b, val, len);
}

static void begin_node(struct blob *b, const char *name)
{
	put32(b, FDT_BEGIN_NODE);
	put(b, name, strlen(name) + 1);
}

/* Appends one pmu node; returns the input bytes it used. */
static size_t pmu_node(struct blob *b, const char *name, unsigned nprops, bool disabled,
		       const uint8_t *in, size_t len)
{
	size_t used = 0;

	begin_node(b, name);
	prop(b, "compatible", "riscv,pmu", sizeof("riscv,pmu"));
	if (disabled)
		prop(b, "status", "disabled", sizeof("disabled"));
	for (unsigned i = 0; i < nprops && used < len; i++) {
		size_t n = in[used++];

		if (n > len - used)
			n = len - used;
		prop(b, prop_names[i], in + used, n);
		used += n;
	}
	put32(b, FDT_END_NODE);
	return used;
}

static uint8_t *finish(struct blob *b, size_t *total)
{
	size_t off_struct = 40 + 16, off_strings = off_struct + b->slen;
	uint8_t *out;

	*total = off_strings + b->strlen_;
	out = calloc(1, *total);
	CHECK(out);
	const uint32_t hdr[10] = { 0xd00dfeed, (uint32_t)*total, (uint32_t)off_struct,
				   (uint32_t)off_strings, 40, 17, 16, 0,
				   (uint32_t)b->strlen_, (uint32_t)b->slen };
	for (int i = 0; i < 10; i++)
		fdt_put_be32(out + 4 * i, hdr[i]);
	memcpy(out + off_struct, b->strct, b->slen);
	memcpy(out + off_strings, b->strings, b->strlen_);
	return out;
}

/* ---- checks -------------------------------------------------------------- */

#define NO_TIME_BIT (~(1u << 1))

static void check_map(const struct pmu_map *m, const char *err)
{
	CHECK(m->nranges <= PMU_MAP_MAX_RANGES);
	CHECK(m->nselectors <= PMU_MAP_MAX_SELECTORS);
	CHECK(m->nraw <= PMU_MAP_MAX_RAW);
	if (err) {
		CHECK(!m->from_dt && m->error_prop && m->error_cell >= 0);
		CHECK(m->nranges == 2 && m->nselectors == 0 && m->nraw == 0 && !m->raw_from_dt);
		return;
	}
	for (unsigned i = 0; i < m->nranges; i++) {
		CHECK(m->ranges[i].first <= m->ranges[i].last);
		CHECK(!(m->ranges[i].counters & ~NO_TIME_BIT));
	}
	for (unsigned i = 0; i < m->nraw; i++) {
		CHECK(!(m->raw[i].counters & ~NO_TIME_BIT));
		CHECK((m->raw[i].select & ~m->raw[i].mask) == 0);
	}
}

static void query(const struct pmu_map *m, uint32_t event_idx, uint64_t event_data)
{
	uint32_t ctrs = pmu_map_counters(m, event_idx, event_data);
	uint32_t type = event_idx >> 16;

	CHECK(!(ctrs & (1u << 1)));
	if (type != 2 && type != 3) {
		CHECK(!!(ctrs & 1u) == (event_idx == PMU_EVENT_CPU_CYCLES));
		CHECK(!!(ctrs & 4u) == (event_idx == PMU_EVENT_INSTRUCTIONS));
	} else {
		CHECK(!(ctrs & 5u));
		CHECK(pmu_map_mhpmevent(m, event_idx, event_data) == event_data);
	}
	(void)pmu_map_mhpmevent(m, event_idx, event_data);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pmu_map map;   /* ~4 KiB: not on the fuzzer's stack */
	struct blob b = { .slen = 0, .strlen_ = 0 };
	struct fdt fdt;
	size_t used = 1, total;
	uint8_t *blob;
	const char *err;

	if (size < 1)
		return 0;
	begin_node(&b, "");
	prop(&b, "#address-cells", "\0\0\0\2", 4);
	used += pmu_node(&b, "pmu", data[0] & 3, data[0] & 4, data + used, size - used);
	if (data[0] & 8)
		used += pmu_node(&b, "pmu2", 3, false, data + used, size - used);
	put32(&b, FDT_END_NODE);
	put32(&b, FDT_END);
	blob = finish(&b, &total);
	CHECK(fdt_open(&fdt, blob, total) == 0);

	memset(&map, 0x5a, sizeof(map));
	err = pmu_map_from_fdt(&map, &fdt);
	check_map(&map, err);
	query(&map, PMU_EVENT_CPU_CYCLES, 0);
	query(&map, PMU_EVENT_INSTRUCTIONS, 0);
	for (; used + 12 <= size; used += 12)
		query(&map, le32(data + used) & 0xfffff,
		      (uint64_t)le32(data + used + 4) << 32 | le32(data + used + 8));
	free(blob);
	return 0;
}
