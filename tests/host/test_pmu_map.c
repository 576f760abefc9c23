// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests for drivers/pmu/pmu_map.c: the "riscv,pmu" device-tree map
 * (docs/PMU.md, "Event → counter map").  Test blobs are built here, cell by
 * cell, so malformed properties (odd lengths, partial tuples) are exact;
 * the blob QEMU 7.2 itself dumps (mk/20-fdt.mk) is parsed too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/pmu/pmu_map.h"

#ifndef FDT_TEST_DIR
#error "FDT_TEST_DIR: directory of the QEMU-dumped blobs (build/host/fdt)"
#endif

#define RANGES "riscv,event-to-mhpmcounters"
#define SELECTORS "riscv,event-to-mhpmevent"
#define RAW "riscv,raw-event-to-mhpmcounters"

/* ---- a minimal DTB writer ------------------------------------------------ */

struct buf {
	uint8_t *d;
	size_t n, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->d = realloc(b->d, b->cap);
		assert_non_null(b->d);
	}
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

static void put32(struct buf *b, uint32_t v)
{
	uint8_t be[4] = { v >> 24, v >> 16, v >> 8, v };

	put(b, be, 4);
}

static void pad4(struct buf *b)
{
	static const uint8_t z[4];

	put(b, z, (4 - b->n % 4) % 4);
}

struct prop {
	const char *name;
	const void *data;
	size_t len;
};

struct dt {
	struct buf structure, strings;
	uint8_t *blob;
	struct fdt fdt;
};

static void dt_begin(struct dt *t, const char *name)
{
	put32(&t->structure, FDT_BEGIN_NODE);
	put(&t->structure, name, strlen(name) + 1);
	pad4(&t->structure);
}

static void dt_prop(struct dt *t, const char *name, const void *data, size_t len)
{
	uint32_t nameoff = (uint32_t)t->strings.n;

	put(&t->strings, name, strlen(name) + 1);
	put32(&t->structure, FDT_PROP);
	put32(&t->structure, (uint32_t)len);
	put32(&t->structure, nameoff);
	put(&t->structure, data, len);
	pad4(&t->structure);
}

static void dt_str(struct dt *t, const char *name, const char *s)
{
	dt_prop(t, name, s, strlen(s) + 1);
}

/* Cells in big-endian order, as a property value. */
static uint8_t *cells_be(const uint32_t *c, size_t n)
{
	uint8_t *p = calloc(n ? n : 1, 4);

	assert_non_null(p);
	for (size_t i = 0; i < n; i++) {
		p[4 * i] = c[i] >> 24;
		p[4 * i + 1] = c[i] >> 16;
		p[4 * i + 2] = c[i] >> 8;
		p[4 * i + 3] = c[i];
	}
	return p;
}

static void dt_cells(struct dt *t, const char *name, const uint32_t *c, size_t n)
{
	uint8_t *p = cells_be(c, n);

	dt_prop(t, name, p, 4 * n);
	free(p);
}

static void dt_end_node(struct dt *t)
{
	put32(&t->structure, FDT_END_NODE);
}

/* Close the tree and open it with lib/fdt (exact-size heap copy). */
static const struct fdt *dt_finish(struct dt *t)
{
	struct buf out = { 0 };
	uint32_t off_rsv = 40, off_struct = off_rsv + 16;
	uint32_t off_strings, total;
	static const uint8_t rsv_end[16];

	put32(&t->structure, FDT_END);
	off_strings = off_struct + (uint32_t)t->structure.n;
	total = off_strings + (uint32_t)t->strings.n;
	put32(&out, FDT_MAGIC);
	put32(&out, total);
	put32(&out, off_struct);
	put32(&out, off_strings);
	put32(&out, off_rsv);
	put32(&out, 17);
	put32(&out, 16);
	put32(&out, 0);
	put32(&out, (uint32_t)t->strings.n);
	put32(&out, (uint32_t)t->structure.n);
	put(&out, rsv_end, sizeof(rsv_end));
	put(&out, t->structure.d, t->structure.n);
	put(&out, t->strings.d, t->strings.n);
	assert_int_equal(out.n, total);
	t->blob = malloc(total);
	assert_non_null(t->blob);
	memcpy(t->blob, out.d, total);
	free(out.d);
	assert_int_equal(fdt_open(&t->fdt, t->blob, total), 0);
	return &t->fdt;
}

static void dt_free(struct dt *t)
{
	free(t->structure.d);
	free(t->strings.d);
	free(t->blob);
	memset(t, 0, sizeof(*t));
}

/* A tree with one node "pmu" (compatible "riscv,pmu") holding `props`. */
static const struct fdt *pmu_tree(struct dt *t, const struct prop *props, size_t n)
{
	memset(t, 0, sizeof(*t));
	dt_begin(t, "");
	dt_str(t, "compatible", "test,board");
	dt_begin(t, "soc");
	dt_begin(t, "pmu");
	dt_str(t, "compatible", "riscv,pmu");
	for (size_t i = 0; i < n; i++)
		dt_prop(t, props[i].name, props[i].data, props[i].len);
	dt_end_node(t);
	dt_end_node(t);
	dt_end_node(t);
	return dt_finish(t);
}

/* ---- checks ------------------------------------------------------------- */

static struct pmu_map map;   /* large: not on the stack */

/* QEMU 7.2 virt, -cpu rv64 (16 HPM counters): the exact property. */
static const uint32_t qemu72_ranges[20] = {
	0x01, 0x01, 0x7fff9, 0x02, 0x02, 0x7fffc, 0x10019, 0x10019, 0x7fff8,
	0x1001b, 0x1001b, 0x7fff8, 0x10021, 0x10021, 0x7fff8, 0x00, 0x00, 0x00, 0x00, 0x00,
};

#define RAW_EVENT   0x20000u
#define RAW2_EVENT  0x30000u

/* The platform default: cycles → mcycle, instructions → minstret, raw →
 * every HPM counter, nothing else. */
static void assert_default_map(const struct pmu_map *m)
{
	assert_false(m->from_dt);
	assert_false(m->raw_from_dt);
	assert_int_equal(pmu_map_counters(m, 0x00001, 0), 1u << 0);
	assert_int_equal(pmu_map_counters(m, 0x00002, 0), 1u << 2);
	for (uint32_t e = 3; e <= 10; e++)
		assert_int_equal(pmu_map_counters(m, e, 0), 0);
	assert_int_equal(pmu_map_counters(m, 0x10019, 0), 0);
	assert_int_equal(pmu_map_counters(m, 0x10021, 0), 0);
	assert_int_equal(pmu_map_counters(m, RAW_EVENT, 0x1234), PMU_HPM_ALL);
	assert_int_equal(pmu_map_counters(m, RAW2_EVENT, 0xabcdef), PMU_HPM_ALL);
	assert_int_equal(pmu_map_mhpmevent(m, 0x10019, 0), 0x10019);
	assert_int_equal(pmu_map_mhpmevent(m, RAW2_EVENT, 0xabcdef), 0xabcdef);
}

static void assert_qemu72_map(const struct pmu_map *m)
{
	assert_true(m->from_dt);
	assert_false(m->raw_from_dt);
	assert_null(m->error_prop);
	/* Cycles also on mhpmcounter3..18; instructions on 3..18 (bit 2 is
	 * minstret); the three cache events on 3..18 only. */
	assert_int_equal(pmu_map_counters(m, 0x00001, 0), 0x7fff9);
	assert_int_equal(pmu_map_counters(m, 0x00002, 0), 0x7fffc);
	assert_int_equal(pmu_map_counters(m, 0x10019, 0), 0x7fff8);
	assert_int_equal(pmu_map_counters(m, 0x1001b, 0), 0x7fff8);
	assert_int_equal(pmu_map_counters(m, 0x10021, 0), 0x7fff8);
	assert_int_equal(pmu_map_counters(m, 0x1001a, 0), 0);
	assert_int_equal(pmu_map_counters(m, 0x10020, 0), 0);
	assert_int_equal(pmu_map_counters(m, 0x00003, 0), 0);
	/* No raw property: raw events may use every HPM counter. */
	assert_int_equal(pmu_map_counters(m, RAW_EVENT, 0x55), PMU_HPM_ALL);
	/* No event-to-mhpmevent: mhpmevent is the event_idx. */
	assert_int_equal(pmu_map_mhpmevent(m, 0x10019, 0), 0x10019);
	assert_int_equal(pmu_map_mhpmevent(m, 0x00001, 0), 0x00001);
}

static void test_qemu72_property(void **state)
{
	struct dt t;
	struct prop props[] = { { RANGES, NULL, 0 } };
	uint8_t *cells = cells_be(qemu72_ranges, 20);

	(void)state;
	props[0].data = cells;
	props[0].len = 80;
	assert_null(pmu_map_from_fdt(&map, pmu_tree(&t, props, 1)));
	assert_qemu72_map(&map);
	free(cells);
	dt_free(&t);
}

static void test_qemu72_dumped_dtb(void **state)
{
	static const char *const names[] = { "qemu-virt.dtb", "qemu-virt-aclint.dtb" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		char path[512];
		FILE *f;
		uint8_t *blob;
		long size;
		struct fdt fdt;

		snprintf(path, sizeof(path), "%s/%s", FDT_TEST_DIR, names[i]);
		f = fopen(path, "rb");
		if (!f)
			fail_msg("cannot open %s", path);
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		fseek(f, 0, SEEK_SET);
		blob = malloc((size_t)size);
		assert_non_null(blob);
		assert_int_equal(fread(blob, 1, (size_t)size, f), (size_t)size);
		fclose(f);
		assert_int_equal(fdt_open(&fdt, blob, (size_t)size), 0);
		assert_null(pmu_map_from_fdt(&map, &fdt));
		assert_qemu72_map(&map);
		free(blob);
	}
}

static void test_no_pmu_node(void **state)
{
	struct dt t;

	(void)state;
	memset(&t, 0, sizeof(t));
	memset(&map, 0x5a, sizeof(map));
	dt_begin(&t, "");
	dt_str(&t, "compatible", "test,board");
	dt_begin(&t, "pmu");
	dt_str(&t, "compatible", "vendor,other-pmu");
	dt_cells(&t, RANGES, qemu72_ranges, 20);
	dt_end_node(&t);
	dt_end_node(&t);
	assert_null(pmu_map_from_fdt(&map, dt_finish(&t)));
	assert_null(map.error_prop);
	assert_default_map(&map);
	dt_free(&t);
}

/* A disabled riscv,pmu node is skipped; the next enabled one is used. */
static void test_disabled_node_skipped(void **state)
{
	static const uint32_t other[] = { 0x3, 0x5, 0x18 };
	struct dt t;

	(void)state;
	memset(&t, 0, sizeof(t));
	dt_begin(&t, "");
	dt_begin(&t, "pmu0");
	dt_str(&t, "compatible", "riscv,pmu");
	dt_str(&t, "status", "disabled");
	dt_cells(&t, RANGES, qemu72_ranges, 20);
	dt_end_node(&t);
	dt_begin(&t, "pmu1");
	dt_str(&t, "compatible", "riscv,pmu");
	dt_cells(&t, RANGES, other, 3);
	dt_end_node(&t);
	dt_end_node(&t);
	assert_null(pmu_map_from_fdt(&map, dt_finish(&t)));
	assert_true(map.from_dt);
	assert_int_equal(pmu_map_counters(&map, 0x10019, 0), 0);
	for (uint32_t e = 3; e <= 5; e++)
		assert_int_equal(pmu_map_counters(&map, e, 0), 0x18);
	assert_int_equal(pmu_map_counters(&map, 6, 0), 0);
	/* cycle/instret keep their one event whatever the DT lists. */
	assert_int_equal(pmu_map_counters(&map, 1, 0), 1);
	assert_int_equal(pmu_map_counters(&map, 2, 0), 4);
	dt_free(&t);
}

static void test_event_to_mhpmevent(void **state)
{
	static const uint32_t sel[] = {
		0x10019, 0x00000001, 0x00002345,
		0x00000, 0x00000000, 0x00000000,      /* padding */
		0x00005, 0x00000000, 0x000000c5,
	};
	static const uint32_t ranges[] = { 0x5, 0x5, 0x30, 0x10019, 0x10019, 0x7fff8 };
	struct dt t;
	uint8_t *a = cells_be(sel, 9), *b = cells_be(ranges, 6);
	struct prop props[] = { { RANGES, b, 24 }, { SELECTORS, a, 36 } };

	(void)state;
	assert_null(pmu_map_from_fdt(&map, pmu_tree(&t, props, 2)));
	assert_true(map.from_dt);
	assert_int_equal(pmu_map_mhpmevent(&map, 0x10019, 0), 0x100002345ULL);
	assert_int_equal(pmu_map_mhpmevent(&map, 0x00005, 0), 0xc5);
	assert_int_equal(pmu_map_mhpmevent(&map, 0x00006, 0), 0x00006);
	assert_int_equal(pmu_map_counters(&map, 0x00005, 0), 0x30);
	/* Raw events are their event_data, whatever the selectors say. */
	assert_int_equal(pmu_map_mhpmevent(&map, RAW_EVENT, 0x10019), 0x10019);
	free(a);
	free(b);
	dt_free(&t);
}

static void test_raw_event_to_mhpmcounters(void **state)
{
	static const uint32_t raw[] = {
		0x0, 0x00000100, 0x0, 0x00000f00, 0x00000018,
		0x0, 0x00000000, 0x0, 0x00000000, 0x00000000,   /* padding */
		0x1, 0x00000000, 0xff, 0x00000000, 0x00000060,
		0x0, 0x00000100, 0x0, 0x0000ff00, 0x00000080,
	};
	struct dt t;
	uint8_t *r = cells_be(raw, 20);
	struct prop props[] = { { RAW, r, 80 } };

	(void)state;
	assert_null(pmu_map_from_fdt(&map, pmu_tree(&t, props, 1)));
	assert_true(map.from_dt);
	assert_true(map.raw_from_dt);
	assert_int_equal(pmu_map_counters(&map, RAW_EVENT, 0x1ab), 0x18 | 0x80);
	assert_int_equal(pmu_map_counters(&map, RAW2_EVENT, 0x2ab), 0);
	assert_int_equal(pmu_map_counters(&map, RAW_EVENT, 0x11ab), 0x18);
	assert_int_equal(pmu_map_counters(&map, RAW2_EVENT, 0x100000100ULL), 0x18 | 0x60 | 0x80);
	assert_int_equal(pmu_map_counters(&map, RAW2_EVENT, 0x100000000ULL), 0x60);
	/* The ranges property is absent: no general event on any HPM counter. */
	assert_int_equal(pmu_map_counters(&map, 0x00003, 0), 0);
	assert_int_equal(pmu_map_counters(&map, 0x00001, 0), 1);
	free(r);
	dt_free(&t);
}

/* ---- malformed maps: error where, and the default map ------------------- */

struct bad_case {
	const char *prop;            /* property holding the bad cells */
	const uint32_t *cells;
	size_t ncells;
	size_t len;                  /* bytes; 0 = 4 * ncells */
	const char *want_prop;
	int want_cell;
};

static void check_bad(const struct bad_case *c)
{
	/* A valid ranges property beside the bad one must be dropped too. */
	static const uint32_t good[] = { 0x3, 0x3, 0x8, 0x10019, 0x10019, 0x7fff8 };
	struct dt t;
	uint8_t *bad = cells_be(c->cells, c->ncells), *ok = cells_be(good, 6);
	struct prop props[2] = { { c->prop, bad, c->len ? c->len : 4 * c->ncells } };
	size_t n = 1;
	const char *err;

	if (strcmp(c->prop, RANGES)) {
		props[1] = (struct prop){ RANGES, ok, sizeof(good) };
		n = 2;
	}
	memset(&map, 0x5a, sizeof(map));
	err = pmu_map_from_fdt(&map, pmu_tree(&t, props, n));
	assert_non_null(err);
	assert_non_null(map.error_prop);
	assert_string_equal(map.error_prop, c->want_prop);
	assert_int_equal(map.error_cell, c->want_cell);
	assert_default_map(&map);
	assert_int_equal(map.nselectors, 0);
	free(bad);
	free(ok);
	dt_free(&t);
}

static void test_bad_length(void **state)
{
	static const uint32_t c[] = { 0x1, 0x1, 0x1, 0x0 };
	const struct bad_case r = { RANGES, c, 4, 13, RANGES, 3 };
	const struct bad_case s = { SELECTORS, c, 4, 6, SELECTORS, 1 };
	const struct bad_case w = { RAW, c, 4, 15, RAW, 3 };

	(void)state;
	check_bad(&r);
	check_bad(&s);
	check_bad(&w);
}

static void test_first_after_last(void **state)
{
	static const uint32_t c[] = { 0x1, 0x1, 0x1, 0x10021, 0x10019, 0x8 };
	const struct bad_case b = { RANGES, c, 6, 0, RANGES, 3 };

	(void)state;
	check_bad(&b);
}

static void test_event_zero_with_counters(void **state)
{
	static const uint32_t c[] = { 0x2, 0x2, 0x4, 0x0, 0x0, 0x8 };
	static const uint32_t s[] = { 0x0, 0x0, 0x11 };
	const struct bad_case b = { RANGES, c, 6, 0, RANGES, 3 };
	const struct bad_case d = { SELECTORS, s, 3, 0, SELECTORS, 0 };

	(void)state;
	check_bad(&b);
	check_bad(&d);
}

static void test_event_wider_than_20_bits(void **state)
{
	static const uint32_t c[] = { 0x1, 0x100000, 0x8 };
	static const uint32_t s[] = { 0x5, 0x0, 0x5, 0x100005, 0x0, 0x5 };
	const struct bad_case b = { RANGES, c, 3, 0, RANGES, 0 };
	const struct bad_case d = { SELECTORS, s, 6, 0, SELECTORS, 3 };

	(void)state;
	check_bad(&b);
	check_bad(&d);
}

static void test_time_bit(void **state)
{
	static const uint32_t c[] = { 0x1, 0x1, 0x1, 0x3, 0x4, 0x8 | 0x2 };
	const struct bad_case b = { RANGES, c, 6, 0, RANGES, 5 };

	(void)state;
	check_bad(&b);
}

static void test_partial_tuple(void **state)
{
	static const uint32_t c[] = { 0x1, 0x1, 0x1, 0x0, 0x5 };
	static const uint32_t s[] = { 0x5, 0x0, 0x5, 0x6 };
	static const uint32_t w[] = { 0x0, 0x1, 0x0, 0x1, 0x8, 0x0, 0x0, 0x0, 0x1 };
	const struct bad_case b = { RANGES, c, 5, 0, RANGES, 4 };
	const struct bad_case d = { SELECTORS, s, 4, 0, SELECTORS, 3 };
	const struct bad_case e = { RAW, w, 9, 0, RAW, 8 };

	(void)state;
	check_bad(&b);
	check_bad(&d);
	check_bad(&e);
}

static void test_raw_selector_outside_mask(void **state)
{
	static const uint32_t c[] = { 0x0, 0x100, 0x0, 0xf00, 0x8,
				      0x0, 0x1ff, 0x0, 0x0f0, 0x8 };
	const struct bad_case b = { RAW, c, 10, 0, RAW, 5 };

	(void)state;
	check_bad(&b);
}

static void test_raw_on_cycle_or_instret(void **state)
{
	static const uint32_t c[] = { 0x0, 0x1, 0x0, 0x1, 0x1 | 0x8 };
	static const uint32_t d[] = { 0x0, 0x1, 0x0, 0x1, 0x4 };
	const struct bad_case b = { RAW, c, 5, 0, RAW, 4 };
	const struct bad_case e = { RAW, d, 5, 0, RAW, 4 };

	(void)state;
	check_bad(&b);
	check_bad(&e);
}

static void test_too_many_entries(void **state)
{
	uint32_t *c = calloc(5 * (PMU_MAP_MAX_RAW + 1) + 3 * (PMU_MAP_MAX_RANGES + 1) +
			     3 * (PMU_MAP_MAX_SELECTORS + 1), 4);
	size_t i;

	(void)state;
	assert_non_null(c);
	for (i = 0; i <= PMU_MAP_MAX_RANGES; i++) {
		c[3 * i] = 3 + (uint32_t)i;
		c[3 * i + 1] = 3 + (uint32_t)i;
		c[3 * i + 2] = 0x8;
	}
	check_bad(&(struct bad_case){ RANGES, c, 3 * (PMU_MAP_MAX_RANGES + 1), 0,
				      RANGES, 3 * PMU_MAP_MAX_RANGES });
	/* Exactly the maximum is fine. */
	{
		struct dt t;
		uint8_t *p = cells_be(c, 3 * PMU_MAP_MAX_RANGES);
		struct prop props[] = { { RANGES, p, 12 * PMU_MAP_MAX_RANGES } };

		assert_null(pmu_map_from_fdt(&map, pmu_tree(&t, props, 1)));
		assert_true(map.from_dt);
		assert_int_equal(pmu_map_counters(&map, 3 + PMU_MAP_MAX_RANGES - 1, 0), 0x8);
		free(p);
		dt_free(&t);
	}
	for (i = 0; i <= PMU_MAP_MAX_SELECTORS; i++) {
		c[3 * i] = 3 + (uint32_t)i;
		c[3 * i + 1] = 0;
		c[3 * i + 2] = 0x40 + (uint32_t)i;
	}
	check_bad(&(struct bad_case){ SELECTORS, c, 3 * (PMU_MAP_MAX_SELECTORS + 1), 0,
				      SELECTORS, 3 * PMU_MAP_MAX_SELECTORS });
	for (i = 0; i <= PMU_MAP_MAX_RAW; i++) {
		c[5 * i] = 0;
		c[5 * i + 1] = (uint32_t)i;
		c[5 * i + 2] = 0;
		c[5 * i + 3] = 0xffff;
		c[5 * i + 4] = 0x8;
	}
	check_bad(&(struct bad_case){ RAW, c, 5 * (PMU_MAP_MAX_RAW + 1), 0,
				      RAW, 5 * PMU_MAP_MAX_RAW });
	free(c);
}

/* Padding in the middle and a zero partial tuple at the end are accepted. */
static void test_zero_padding_accepted(void **state)
{
	static const uint32_t c[] = { 0x0, 0x0, 0x0, 0x4, 0x4, 0x10, 0x0, 0x0 };
	struct dt t;
	uint8_t *p = cells_be(c, 8);
	struct prop props[] = { { RANGES, p, 32 } };

	(void)state;
	assert_null(pmu_map_from_fdt(&map, pmu_tree(&t, props, 1)));
	assert_true(map.from_dt);
	assert_int_equal(pmu_map_counters(&map, 4, 0), 0x10);
	free(p);
	dt_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu72_property),
		cmocka_unit_test(test_qemu72_dumped_dtb),
		cmocka_unit_test(test_no_pmu_node),
		cmocka_unit_test(test_disabled_node_skipped),
		cmocka_unit_test(test_event_to_mhpmevent),
		cmocka_unit_test(test_raw_event_to_mhpmcounters),
		cmocka_unit_test(test_zero_padding_accepted),
		cmocka_unit_test(test_bad_length),
		cmocka_unit_test(test_first_after_last),
		cmocka_unit_test(test_event_zero_with_counters),
		cmocka_unit_test(test_event_wider_than_20_bits),
		cmocka_unit_test(test_time_bit),
		cmocka_unit_test(test_partial_tuple),
		cmocka_unit_test(test_raw_selector_outside_mask),
		cmocka_unit_test(test_raw_on_cycle_or_instret),
		cmocka_unit_test(test_too_many_entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
