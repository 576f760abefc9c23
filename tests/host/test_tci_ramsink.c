// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests for firmware/trace/tci_ramsink.c, the emulated RAM sink's
 * registers and data path, against docs/TRACE.md ("RAM sink registers")
 * and the Trace Control Interface 1.0 ("Trace RAM Sink").
 *
 * S-mode memory is a fake: ram[] stands for RAM_SIZE bytes at RAM_BASE,
 * with a "firmware" hole that range_ok() refuses.  The env's write() checks
 * every store against the fake RAM and against the sink's own buffer
 * [Start, Limit + 4), and the tests check guard bytes: everything outside
 * the buffer keeps its fill pattern, around the SRAM array too.  One test
 * per rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "firmware/trace/tci_ramsink.h"

/* ---- fake S-mode memory -------------------------------------------------- */

#define RAM_BASE   0x80100000ull
#define RAM_SIZE   0x4000u
#define HOLE_OFF   0x1000u          /* range_ok refuses [HOLE, HOLE + HOLE_SIZE) */
#define HOLE_SIZE  0x1000u
#define RAM_MIN    RAM_BASE
#define RAM_MAX    (RAM_BASE + RAM_SIZE - 4)
#define FILL       0xA5u

#define SRAM_SIZE  4096u            /* the firmware's TRACE_SRAM_SIZE */
#define GUARD      64u

static uint8_t ram[RAM_SIZE];
static uint8_t sram_area[GUARD + SRAM_SIZE + GUARD];
static uint8_t *const sram = sram_area + GUARD;

static struct tci_ramsink sink;
static unsigned writes;              /* env->write calls */
static unsigned range_calls;
static uint64_t range_base, range_size;

static bool fake_range_ok(uint64_t base, uint64_t size)
{
	uint64_t hole = RAM_BASE + HOLE_OFF;

	range_calls++;
	range_base = base;
	range_size = size;
	if (!size || base < RAM_BASE || base + size < base || base + size > RAM_BASE + RAM_SIZE)
		return false;
	return base + size <= hole || base >= hole + HOLE_SIZE;
}

static void fake_write(uint64_t addr, const uint8_t *data, size_t len)
{
	/* Inside the fake RAM, and inside the sink's buffer (a zero-length
	 * store, which the stop-on-wrap path makes, must be in it too). */
	assert_true(addr >= RAM_BASE && addr + len <= RAM_BASE + RAM_SIZE);
	assert_true(addr >= sink.start && addr + len <= sink.limit + 4);
	memcpy(ram + (addr - RAM_BASE), data, len);
	writes++;
}

static const struct tci_ramsink_env env = {
	.range_ok = fake_range_ok,
	.addr_min = RAM_MIN,
	.addr_max = RAM_MAX,
	.write = fake_write,
};

static int setup(void **state)
{
	(void)state;
	memset(ram, FILL, sizeof(ram));
	memset(sram_area, FILL, sizeof(sram_area));
	writes = range_calls = 0;
	range_base = range_size = 0;
	memset(&sink, 0x5A, sizeof(sink));
	tci_ramsink_init(&sink, sram, SRAM_SIZE, &env);
	return 0;
}

static uint32_t rd(uint32_t off)
{
	return tci_ramsink_read(&sink, off);
}

static uint32_t wr(uint32_t off, uint32_t val)
{
	return tci_ramsink_write(&sink, off, val);
}

static uint64_t rd64(uint32_t low)
{
	return (uint64_t)rd(low + 4) << 32 | rd(low);
}

#define IMPL_VALUE 0x00003901u
#define SMEM       TRRAM_MODE_SMEM
#define ACT        TRRAM_ACTIVE
#define EN         TRRAM_ENABLE
#define SOW        TRRAM_STOP_ON_WRAP

static void release(void)
{
	assert_int_equal(wr(TRRAM_CONTROL, ACT), 0);
	assert_int_equal(rd(TRRAM_CONTROL) & ACT, ACT);
}

/* SMEM mode with the buffer [start, start + size), WP at wp_off. */
static void smem_buffer(uint64_t start, uint32_t size, uint32_t wp_off)
{
	release();
	wr(TRRAM_CONTROL, ACT | SMEM);
	wr(TRRAM_START_HIGH, (uint32_t)(start >> 32));
	wr(TRRAM_START_LOW, (uint32_t)start);
	wr(TRRAM_LIMIT_HIGH, (uint32_t)((start + size - 4) >> 32));
	wr(TRRAM_LIMIT_LOW, (uint32_t)(start + size - 4));
	wr(TRRAM_WP_HIGH, (uint32_t)((start + wp_off) >> 32));
	wr(TRRAM_WP_LOW, (uint32_t)(start + wp_off));
	assert_int_equal(rd64(TRRAM_START_LOW), start);
	assert_int_equal(rd64(TRRAM_LIMIT_LOW), start + size - 4);
	assert_int_equal(rd64(TRRAM_WP_LOW), start + wp_off);
}

/* SRAM mode, Limit trimmed to size - 4, WP at wp_off. */
static void sram_buffer(uint32_t size, uint32_t wp_off)
{
	release();
	wr(TRRAM_LIMIT_LOW, size - 4);
	wr(TRRAM_WP_LOW, wp_off);
	assert_int_equal(rd(TRRAM_LIMIT_LOW), size - 4);
	assert_int_equal(rd(TRRAM_WP_LOW), wp_off);
}

static void enable(uint32_t extra)
{
	uint32_t mode = rd(TRRAM_CONTROL) & SMEM;

	assert_int_equal(wr(TRRAM_CONTROL, ACT | EN | mode | extra), RAM_FX_ENABLED);
	assert_true(tci_ramsink_enabled(&sink));
}

static void disable(void)
{
	uint32_t keep = rd(TRRAM_CONTROL) & (SMEM | SOW);

	assert_int_equal(wr(TRRAM_CONTROL, ACT | keep), RAM_FX_DISABLED);
	assert_false(tci_ramsink_enabled(&sink));
}

/* Every fake-RAM byte outside [lo, hi) still holds the fill pattern. */
static void check_ram_outside(uint64_t lo, uint64_t hi)
{
	for (uint32_t i = 0; i < RAM_SIZE; i++) {
		uint64_t a = RAM_BASE + i;

		if (a < lo || a >= hi)
			assert_int_equal(ram[i], FILL);
	}
}

/* The SRAM guards, and SRAM bytes at or past `end`, hold the fill. */
static void check_sram_outside(uint32_t end)
{
	for (uint32_t i = 0; i < GUARD; i++) {
		assert_int_equal(sram_area[i], FILL);
		assert_int_equal(sram_area[GUARD + SRAM_SIZE + i], FILL);
	}
	for (uint32_t i = end; i < SRAM_SIZE; i++)
		assert_int_equal(sram[i], FILL);
}

/* A message of n bytes: MSEO 00 everywhere but the last byte (11). */
static size_t message(uint8_t *out, size_t n, unsigned tag)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (uint8_t)(((tag + i) % 60) << 2 | (i + 1 == n ? 3 : 0));
	return n;
}

static uint8_t *mem_at(bool smem_mode, uint64_t addr)
{
	return smem_mode ? ram + (addr - RAM_BASE) : sram + addr;
}

/* ---- reset and identity ---------------------------------------------------- */

static void test_power_on_reads_zero_except_impl(void **state)
{
	(void)state;
	/* trRamEmpty's TCI reset value is 1; Active (and the rest) 0. */
	assert_int_equal(rd(TRRAM_CONTROL), TRRAM_EMPTY);
	assert_int_equal(rd(TRRAM_IMPL), IMPL_VALUE);
	for (uint32_t off = 8; off < 0x1000; off += 4)
		assert_int_equal(rd(off), 0);
	assert_false(tci_ramsink_enabled(&sink));
}

static void test_reset_ignores_writes(void **state)
{
	(void)state;
	for (uint32_t off = 4; off < 0x1000; off += 4)
		assert_int_equal(wr(off, 0x100), 0);
	for (uint32_t off = 8; off < 0x1000; off += 4)
		assert_int_equal(rd(off), 0);
	release();
	assert_int_equal(rd(TRRAM_LIMIT_LOW), SRAM_SIZE - 4);
	assert_int_equal(rd(TRRAM_WP_LOW), 0);
	assert_int_equal(rd(TRRAM_RP_LOW), 0);
	/* A Data read in reset does not advance anything. */
	assert_int_equal(wr(TRRAM_CONTROL, 0), 0);
	assert_int_equal(rd(TRRAM_DATA), 0);
	release();
	assert_int_equal(rd(TRRAM_RP_LOW), 0);
}

static void test_impl_value(void **state)
{
	(void)state;
	assert_int_equal(TCI_IMPL_VER_MAJOR(IMPL_VALUE), 1);
	assert_int_equal(TCI_IMPL_VER_MINOR(IMPL_VALUE), 0);
	assert_int_equal(TCI_IMPL_COMP_TYPE(IMPL_VALUE), TRCOMP_RAMSINK);
	assert_int_equal(IMPL_VALUE & (TRRAM_HAS_SRAM | TRRAM_HAS_SMEM), TRRAM_HAS_SRAM | TRRAM_HAS_SMEM);
	release();
	wr(TRRAM_IMPL, 0);
	assert_int_equal(rd(TRRAM_IMPL), IMPL_VALUE);
	wr(TRRAM_CONTROL, ACT | SMEM);
	assert_int_equal(rd(TRRAM_IMPL), IMPL_VALUE);
}

static void test_release_selects_sram_defaults(void **state)
{
	(void)state;
	release();
	assert_int_equal(rd(TRRAM_CONTROL), ACT | TRRAM_EMPTY);
	assert_int_equal(rd(TRRAM_START_LOW), 0);
	assert_int_equal(rd(TRRAM_START_HIGH), 0);
	assert_int_equal(rd(TRRAM_LIMIT_LOW), 0xFFC);
	assert_int_equal(rd(TRRAM_LIMIT_HIGH), 0);
	assert_int_equal(rd(TRRAM_WP_LOW), 0);
	assert_int_equal(rd(TRRAM_WP_HIGH), 0);
	assert_int_equal(rd(TRRAM_RP_LOW), 0);
	assert_int_equal(rd(TRRAM_RP_HIGH), 0);
}

/* Reset after use: registers read 0 again; release restores SRAM
 * defaults, trRamWrap included. */
static void test_reset_then_release_restores_defaults(void **state)
{
	uint8_t m[20];

	(void)state;
	smem_buffer(RAM_BASE + 0x2000, 16, 0);
	enable(0);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 20, 1)), 0);
	assert_int_equal(rd(TRRAM_WP_LOW) & TRRAM_WP_WRAP, TRRAM_WP_WRAP);
	assert_int_equal(wr(TRRAM_CONTROL, 0), RAM_FX_DISABLED);
	for (uint32_t off = 8; off < 0x1000; off += 4)
		assert_int_equal(rd(off), 0);
	release();
	assert_int_equal(rd(TRRAM_CONTROL), ACT | TRRAM_EMPTY);
	assert_int_equal(rd(TRRAM_LIMIT_LOW), 0xFFC);
	assert_int_equal(rd(TRRAM_WP_LOW), 0);
}

/* MemFormat, AsyncFreq and reserved bits read 0; Empty is RO; StopOnWrap
 * and Mode are RW. */
static void test_control_fields(void **state)
{
	(void)state;
	release();
	wr(TRRAM_CONTROL, ACT | TRRAM_EMPTY | 1u << 2 | 7u << 5 | TRRAM_MEM_FORMAT_MASK | 1u << 11 |
				  TRRAM_ASYNC_FREQ_MASK | 0xFFFF8000u);
	assert_int_equal(rd(TRRAM_CONTROL), ACT | TRRAM_EMPTY);
	wr(TRRAM_CONTROL, ACT | SOW);
	assert_int_equal(rd(TRRAM_CONTROL), ACT | SOW | TRRAM_EMPTY);
	wr(TRRAM_CONTROL, ACT | SMEM | SOW);
	assert_int_equal(rd(TRRAM_CONTROL), ACT | SMEM | SOW | TRRAM_EMPTY);
	wr(TRRAM_CONTROL, ACT | SMEM);
	assert_int_equal(rd(TRRAM_CONTROL), ACT | SMEM | TRRAM_EMPTY);
	wr(TRRAM_CONTROL, ACT);
	assert_int_equal(rd(TRRAM_CONTROL), ACT | TRRAM_EMPTY);
}

/* ---- modes ------------------------------------------------------------------ */

/* Switching mode (while disabled) selects the new mode's defaults: SRAM
 * Start 0, Limit 0xFFC, WP 0; SMEM Start = Limit = WP = the lowest S-mode
 * RAM word (docs/TRACE.md does not fix SMEM defaults: this pins legal
 * ones). */
static void test_mode_switch_defaults(void **state)
{
	(void)state;
	release();
	wr(TRRAM_LIMIT_LOW, 0x100);
	wr(TRRAM_WP_LOW, 0x40);
	wr(TRRAM_RP_LOW, 0x20);
	wr(TRRAM_CONTROL, ACT | SMEM);
	assert_int_equal(rd64(TRRAM_START_LOW), RAM_MIN);
	assert_int_equal(rd64(TRRAM_LIMIT_LOW), RAM_MIN);
	assert_int_equal(rd64(TRRAM_WP_LOW), RAM_MIN);
	assert_int_equal(rd64(TRRAM_RP_LOW), 0);
	wr(TRRAM_START_LOW, (uint32_t)RAM_BASE + 0x2000);
	wr(TRRAM_LIMIT_LOW, (uint32_t)RAM_BASE + 0x3000);
	wr(TRRAM_CONTROL, ACT);
	assert_int_equal(rd64(TRRAM_START_LOW), 0);
	assert_int_equal(rd64(TRRAM_LIMIT_LOW), 0xFFC);
	assert_int_equal(rd64(TRRAM_WP_LOW), 0);
	assert_int_equal(rd64(TRRAM_RP_LOW), 0);
}

static void test_mode_ignored_while_enabled(void **state)
{
	(void)state;
	release();
	enable(0);
	assert_int_equal(wr(TRRAM_CONTROL, ACT | EN | SMEM), 0);
	assert_int_equal(rd(TRRAM_CONTROL) & (SMEM | EN), EN);
	assert_int_equal(rd(TRRAM_LIMIT_LOW), 0xFFC);
	tci_ramsink_init(&sink, sram, SRAM_SIZE, &env);
	smem_buffer(RAM_BASE + 0x2000, 64, 0);
	enable(0);
	assert_int_equal(wr(TRRAM_CONTROL, ACT | EN), 0);
	assert_int_equal(rd(TRRAM_CONTROL) & (SMEM | EN), SMEM | EN);
	assert_int_equal(rd64(TRRAM_START_LOW), RAM_BASE + 0x2000);
}

/* ---- address registers: clamping (WARL) ------------------------------------- */

/* SMEM: Start, Limit, WP clamped to the S-mode RAM words: 0 -> lowest,
 * all-ones -> highest, 4-byte aligned; values inside are kept. */
static void test_smem_addresses_clamped(void **state)
{
	static const uint32_t regs[] = { TRRAM_START_LOW, TRRAM_LIMIT_LOW, TRRAM_WP_LOW };

	(void)state;
	release();
	wr(TRRAM_CONTROL, ACT | SMEM);
	for (unsigned i = 0; i < 3; i++) {
		uint32_t lo = regs[i];

		wr(lo + 4, 0);
		wr(lo, 0);
		assert_int_equal(rd64(lo), RAM_MIN);
		wr(lo, 0xFFFFFFFFu);
		assert_int_equal(rd64(lo) & ~(uint64_t)TRRAM_WP_WRAP, RAM_MAX);
		wr(lo + 4, 0xFFFFFFFFu);
		assert_int_equal(rd64(lo) & ~(uint64_t)TRRAM_WP_WRAP, RAM_MAX);
		wr(lo + 4, 0);
		wr(lo, 0);
		assert_int_equal(rd64(lo), RAM_MIN);
		wr(lo, (uint32_t)RAM_BASE + 0x2346);
		assert_int_equal(rd64(lo), RAM_BASE + 0x2344);
		wr(lo, (uint32_t)RAM_BASE - 4);
		assert_int_equal(rd64(lo), RAM_MIN);
		wr(lo, (uint32_t)(RAM_BASE + RAM_SIZE));
		assert_int_equal(rd64(lo), RAM_MAX);
	}
}

/* The TCI's range detection: after writing all-ones to a High half, the
 * highest legal value's High half is 0 (< 4 GiB): "not implemented". */
static void test_smem_high_halves_read_zero(void **state)
{
	(void)state;
	release();
	wr(TRRAM_CONTROL, ACT | SMEM);
	for (uint32_t off = TRRAM_START_HIGH; off <= TRRAM_WP_HIGH; off += 8) {
		wr(off, 0xFFFFFFFFu);
		assert_int_equal(rd(off), 0);
		wr(off, 1);
		assert_int_equal(rd(off), 0);
	}
	assert_int_equal(rd(TRRAM_RP_HIGH), 0);
}

static void test_sram_start_fixed_zero(void **state)
{
	(void)state;
	release();
	wr(TRRAM_START_LOW, 0x100);
	wr(TRRAM_START_HIGH, 0xFFFFFFFFu);
	assert_int_equal(rd(TRRAM_START_LOW), 0);
	assert_int_equal(rd(TRRAM_START_HIGH), 0);
}

/* SRAM Limit: 0xFFC at most, can be trimmed, aligned; High reads 0. */
static void test_sram_limit_clamped_and_trimmable(void **state)
{
	(void)state;
	release();
	wr(TRRAM_LIMIT_LOW, 0xFFFFFFFFu);
	assert_int_equal(rd(TRRAM_LIMIT_LOW), 0xFFC);
	wr(TRRAM_LIMIT_LOW, 0);
	assert_int_equal(rd(TRRAM_LIMIT_LOW), 0);
	wr(TRRAM_LIMIT_LOW, 0x103);
	assert_int_equal(rd(TRRAM_LIMIT_LOW), 0x100);
	wr(TRRAM_LIMIT_LOW, 0x2000);
	assert_int_equal(rd(TRRAM_LIMIT_LOW), 0xFFC);
	wr(TRRAM_LIMIT_HIGH, 0xFFFFFFFFu);
	assert_int_equal(rd(TRRAM_LIMIT_HIGH), 0);
	assert_int_equal(rd(TRRAM_LIMIT_LOW), 0xFFC);
}

/* SRAM mode: "WP and RP are within [0, Limit]" (Limit possibly trimmed). */
static void test_sram_wp_within_limit(void **state)
{
	(void)state;
	release();
	wr(TRRAM_WP_LOW, 0xFFFFFFFFu);
	assert_int_equal(rd(TRRAM_WP_LOW) & ~TRRAM_WP_WRAP, 0xFFC);
	wr(TRRAM_WP_LOW, 0x20);
	assert_int_equal(rd(TRRAM_WP_LOW), 0x20);
	wr(TRRAM_WP_LOW, 0x23);
	assert_int_equal(rd(TRRAM_WP_LOW), 0x20 | TRRAM_WP_WRAP);
	wr(TRRAM_LIMIT_LOW, 0x100);
	wr(TRRAM_WP_LOW, 0x800);
	assert_int_equal(rd(TRRAM_WP_LOW), 0x100);
	wr(TRRAM_WP_HIGH, 1);
	assert_int_equal(rd64(TRRAM_WP_LOW), 0x100);
}

static void test_sram_rp_within_limit(void **state)
{
	(void)state;
	release();
	wr(TRRAM_RP_LOW, 0xFFFFFFFFu);
	assert_int_equal(rd(TRRAM_RP_LOW), 0xFFC);
	wr(TRRAM_RP_LOW, 0x47);
	assert_int_equal(rd(TRRAM_RP_LOW), 0x44);
	wr(TRRAM_LIMIT_LOW, 0x100);
	wr(TRRAM_RP_LOW, 0x800);
	assert_int_equal(rd(TRRAM_RP_LOW), 0x100);
	wr(TRRAM_RP_HIGH, 0xFFFFFFFFu);
	assert_int_equal(rd(TRRAM_RP_HIGH), 0);
	assert_int_equal(rd(TRRAM_RP_LOW), 0x100);
}

/* ---- enabling ---------------------------------------------------------------- */

/* The check covers [Start, Limit + 4) through range_ok. */
static void test_enable_checks_buffer_with_range_ok(void **state)
{
	(void)state;
	smem_buffer(RAM_BASE + 0x2000, 0x800, 0x10);
	range_calls = 0;
	enable(0);
	assert_true(range_calls >= 1);
	assert_int_equal(range_base, RAM_BASE + 0x2000);
	assert_int_equal(range_size, 0x800);
	assert_int_equal(rd(TRRAM_CONTROL) & EN, EN);
}

/* A buffer range_ok refuses (the hole: firmware memory) is not enabled:
 * Enable stays 0, nothing is ever written. */
static void test_enable_refused_outside_range_ok(void **state)
{
	static const struct { uint32_t start, size; } bad[] = {
		{ HOLE_OFF, 0x100 },               /* inside the hole */
		{ HOLE_OFF - 0x10, 0x20 },         /* runs into it    */
		{ HOLE_OFF + HOLE_SIZE - 4, 8 },   /* runs out of it  */
		{ 0, RAM_SIZE },                   /* covers it       */
	};
	uint8_t m[8];

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		tci_ramsink_init(&sink, sram, SRAM_SIZE, &env);
		smem_buffer(RAM_BASE + bad[i].start, bad[i].size, 0);
		assert_int_equal(wr(TRRAM_CONTROL, ACT | SMEM | EN), 0);
		assert_int_equal(rd(TRRAM_CONTROL) & EN, 0);
		assert_false(tci_ramsink_enabled(&sink));
		assert_int_equal(tci_ramsink_put(&sink, m, message(m, 8, 3)), -1);
		assert_int_equal(wr(TRRAM_CONTROL, ACT | SMEM), 0);   /* nothing to flush */
	}
	assert_int_equal(writes, 0);
	check_ram_outside(0, 0);
}

/* WP outside [Start, Limit]: refused, in both modes. */
static void test_enable_refused_wp_outside_buffer(void **state)
{
	(void)state;
	smem_buffer(RAM_BASE + 0x2000, 0x100, 0);
	wr(TRRAM_WP_LOW, (uint32_t)RAM_BASE + 0x2000 - 4);
	assert_int_equal(wr(TRRAM_CONTROL, ACT | SMEM | EN), 0);
	assert_int_equal(rd(TRRAM_CONTROL) & EN, 0);
	wr(TRRAM_WP_LOW, (uint32_t)RAM_BASE + 0x2100);
	assert_int_equal(wr(TRRAM_CONTROL, ACT | SMEM | EN), 0);
	assert_int_equal(rd(TRRAM_CONTROL) & EN, 0);
	/* At Limit itself: accepted. */
	wr(TRRAM_WP_LOW, (uint32_t)RAM_BASE + 0x20FC);
	assert_int_equal(wr(TRRAM_CONTROL, ACT | SMEM | EN), RAM_FX_ENABLED);
	wr(TRRAM_CONTROL, ACT | SMEM);

	tci_ramsink_init(&sink, sram, SRAM_SIZE, &env);
	release();
	wr(TRRAM_WP_LOW, 0x200);
	wr(TRRAM_LIMIT_LOW, 0x100);   /* now WP > Limit */
	assert_int_equal(wr(TRRAM_CONTROL, ACT | EN), 0);
	assert_int_equal(rd(TRRAM_CONTROL) & EN, 0);
	assert_int_equal(writes, 0);
}

static void test_enable_refused_start_above_limit(void **state)
{
	(void)state;
	release();
	wr(TRRAM_CONTROL, ACT | SMEM);
	wr(TRRAM_START_LOW, (uint32_t)RAM_BASE + 0x3000);
	wr(TRRAM_LIMIT_LOW, (uint32_t)RAM_BASE + 0x2FF8);
	wr(TRRAM_WP_LOW, (uint32_t)RAM_BASE + 0x3000);
	assert_int_equal(wr(TRRAM_CONTROL, ACT | SMEM | EN), 0);
	assert_int_equal(rd(TRRAM_CONTROL) & EN, 0);
	wr(TRRAM_LIMIT_LOW, (uint32_t)RAM_BASE + 0x3000);   /* one word: fine */
	assert_int_equal(wr(TRRAM_CONTROL, ACT | SMEM | EN), RAM_FX_ENABLED);
}

/* "Enabling trace CANNOT change any of trRamStart/Limit/WP/RP". */
static void test_enable_never_changes_pointers(void **state)
{
	uint64_t before[4];
	static const uint32_t regs[4] = { TRRAM_START_LOW, TRRAM_LIMIT_LOW, TRRAM_WP_LOW, TRRAM_RP_LOW };

	(void)state;
	for (int mode = 0; mode < 2; mode++) {
		tci_ramsink_init(&sink, sram, SRAM_SIZE, &env);
		if (mode)
			smem_buffer(RAM_BASE + 0x2400, 0x200, 0x48);
		else {
			sram_buffer(0x400, 0x48);
			wr(TRRAM_RP_LOW, 0x24);
		}
		for (int i = 0; i < 4; i++)
			before[i] = rd64(regs[i]);
		enable(0);
		for (int i = 0; i < 4; i++)
			assert_int_equal(rd64(regs[i]), before[i]);
	}
}

/* Start, Limit and WP ignore writes while enabled (both halves). */
static void test_addresses_ignore_writes_while_enabled(void **state)
{
	(void)state;
	smem_buffer(RAM_BASE + 0x2000, 0x100, 8);
	enable(0);
	for (uint32_t off = TRRAM_START_LOW; off <= TRRAM_WP_HIGH; off += 4)
		wr(off, off & 4 ? 0 : (uint32_t)RAM_BASE + 0x3000);
	assert_int_equal(rd64(TRRAM_START_LOW), RAM_BASE + 0x2000);
	assert_int_equal(rd64(TRRAM_LIMIT_LOW), RAM_BASE + 0x20FC);
	assert_int_equal(rd64(TRRAM_WP_LOW), RAM_BASE + 0x2008);
	disable();
	/* Disabled again: writes are taken. */
	wr(TRRAM_LIMIT_LOW, (uint32_t)RAM_BASE + 0x2200);
	assert_int_equal(rd64(TRRAM_LIMIT_LOW), RAM_BASE + 0x2200);

	tci_ramsink_init(&sink, sram, SRAM_SIZE, &env);
	sram_buffer(0x100, 8);
	enable(0);
	wr(TRRAM_LIMIT_LOW, 0x40);
	wr(TRRAM_WP_LOW, 0x10);
	assert_int_equal(rd(TRRAM_LIMIT_LOW), 0xFC);
	assert_int_equal(rd(TRRAM_WP_LOW), 8);
}

/* ---- data path --------------------------------------------------------------- */

static void test_put_refused_while_disabled(void **state)
{
	uint8_t m[8];

	(void)state;
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 8, 1)), -1);   /* in reset */
	release();
	assert_int_equal(tci_ramsink_put(&sink, m, 8), -1);
	smem_buffer(RAM_BASE + 0x2000, 0x40, 0);
	assert_int_equal(tci_ramsink_put(&sink, m, 8), -1);
	assert_int_equal(rd64(TRRAM_WP_LOW), RAM_BASE + 0x2000);
	assert_int_equal(writes, 0);
	check_ram_outside(0, 0);
	check_sram_outside(0);
}

/* Bytes go in stream order from WP; the WP register shows the last whole
 * word; trRamEmpty is 0 while a word is incomplete. */
static void test_data_in_order_from_wp(void **state)
{
	(void)state;
	for (int smem_mode = 0; smem_mode < 2; smem_mode++) {
		uint64_t start = smem_mode ? RAM_BASE + 0x2000 : 0;
		uint8_t m[32];
		size_t n = 0;

		setup(NULL);
		if (smem_mode)
			smem_buffer(start, 0x40, 8);
		else
			sram_buffer(0x40, 8);
		enable(0);
		n += message(m + n, 5, 1);
		assert_int_equal(tci_ramsink_put(&sink, m, 5), 0);
		assert_int_equal(rd64(TRRAM_WP_LOW), start + 12);
		assert_int_equal(rd(TRRAM_CONTROL) & TRRAM_EMPTY, 0);
		n += message(m + n, 3, 7);
		assert_int_equal(tci_ramsink_put(&sink, m + 5, 3), 0);
		assert_int_equal(rd64(TRRAM_WP_LOW), start + 16);
		assert_int_equal(rd(TRRAM_CONTROL) & TRRAM_EMPTY, TRRAM_EMPTY);
		assert_memory_equal(mem_at(smem_mode, start + 8), m, n);
		if (smem_mode)
			check_ram_outside(start + 8, start + 8 + n);
		else
			for (uint32_t i = 0; i < 8; i++)
				assert_int_equal(sram[i], FILL);
		check_sram_outside(smem_mode ? 0 : 16);
	}
}

/* Disabling pads the last word with idle bytes (0xFF), then Empty = 1. */
static void test_disable_pads_last_word_with_idle(void **state)
{
	(void)state;
	for (int smem_mode = 0; smem_mode < 2; smem_mode++) {
		uint64_t start = smem_mode ? RAM_BASE + 0x2000 : 0;
		uint8_t m[8];

		setup(NULL);
		if (smem_mode)
			smem_buffer(start, 0x40, 4);
		else
			sram_buffer(0x40, 4);
		enable(0);
		assert_int_equal(tci_ramsink_put(&sink, m, message(m, 5, 9)), 0);
		assert_int_equal(rd(TRRAM_CONTROL) & TRRAM_EMPTY, 0);
		disable();
		assert_int_equal(rd(TRRAM_CONTROL) & TRRAM_EMPTY, TRRAM_EMPTY);
		assert_int_equal(rd64(TRRAM_WP_LOW), start + 12);
		assert_memory_equal(mem_at(smem_mode, start + 4), m, 5);
		for (int i = 9; i < 12; i++)
			assert_int_equal(*mem_at(smem_mode, start + i), 0xFF);
		if (smem_mode)
			check_ram_outside(start + 4, start + 12);
		check_sram_outside(smem_mode ? 0 : 12);
	}
}

/* A whole last word needs no padding: disabling writes nothing. */
static void test_disable_aligned_writes_nothing(void **state)
{
	uint8_t m[8];

	(void)state;
	smem_buffer(RAM_BASE + 0x2000, 0x40, 0);
	enable(0);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 8, 2)), 0);
	writes = 0;
	disable();
	assert_int_equal(writes, 0);
	assert_int_equal(rd64(TRRAM_WP_LOW), RAM_BASE + 0x2008);
	check_ram_outside(RAM_BASE + 0x2000, RAM_BASE + 0x2008);
}

/* Padding that completes the word at Limit wraps WP to Start. */
static void test_disable_padding_at_limit_wraps(void **state)
{
	uint8_t m[16];

	(void)state;
	smem_buffer(RAM_BASE + 0x2000, 16, 0);
	enable(0);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 14, 4)), 0);
	disable();
	assert_int_equal(rd64(TRRAM_WP_LOW), (RAM_BASE + 0x2000) | TRRAM_WP_WRAP);
	assert_int_equal(ram[0x200E], 0xFF);
	assert_int_equal(ram[0x200F], 0xFF);
	check_ram_outside(RAM_BASE + 0x2000, RAM_BASE + 0x2010);
}

/* Reset (Active = 0) while enabled flushes like a disable. */
static void test_reset_while_enabled_flushes(void **state)
{
	uint8_t m[8];

	(void)state;
	sram_buffer(0x40, 0);
	enable(0);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 6, 5)), 0);
	assert_int_equal(wr(TRRAM_CONTROL, 0), RAM_FX_DISABLED);
	assert_false(tci_ramsink_enabled(&sink));
	assert_int_equal(rd(TRRAM_CONTROL), TRRAM_EMPTY);
	assert_memory_equal(sram, m, 6);
	assert_int_equal(sram[6], 0xFF);
	assert_int_equal(sram[7], 0xFF);
	check_sram_outside(8);
}

/* Wrap (StopOnWrap = 0): after the word at Limit, Start; trRamWrap set. */
static void test_wrap_continues_at_start(void **state)
{
	(void)state;
	for (int smem_mode = 0; smem_mode < 2; smem_mode++) {
		uint64_t start = smem_mode ? RAM_BASE + 0x2000 : 0;
		uint8_t m[64], want[16];

		setup(NULL);
		if (smem_mode)
			smem_buffer(start, 16, 8);
		else
			sram_buffer(16, 8);
		enable(0);
		/* 8 bytes to the end, then 12 from Start. */
		assert_int_equal(tci_ramsink_put(&sink, m, message(m, 20, 11)), 0);
		assert_true(tci_ramsink_enabled(&sink));
		assert_int_equal(rd64(TRRAM_WP_LOW), (start + 12) | TRRAM_WP_WRAP);
		memcpy(want + 8, m, 8);
		memcpy(want, m + 8, 12);
		assert_memory_equal(mem_at(smem_mode, start), want, 16);
		/* One put of more than twice the buffer. */
		assert_int_equal(tci_ramsink_put(&sink, m, message(m, 37, 20)), 0);
		/* 12 + 37 = 49 = 3 * 16 + 1: WP at Start + 1 (register: Start). */
		assert_int_equal(rd64(TRRAM_WP_LOW), start | TRRAM_WP_WRAP);
		for (int i = 0; i < 16; i++) {
			/* byte at offset i was last written by stream byte k with
			 * (12 + k) % 16 == i and k largest < 37 */
			int k = (i - 12 + 16) % 16;

			while (k + 16 < 37)
				k += 16;
			assert_int_equal(*mem_at(smem_mode, start + i), m[k]);
		}
		if (smem_mode)
			check_ram_outside(start, start + 16);
		check_sram_outside(smem_mode ? 0 : 16);
	}
}

/* trRamWrap "is only set to 0 if trRamWPLow is written". */
static void test_wrap_flag_cleared_only_by_wplow_write(void **state)
{
	uint8_t m[24];

	(void)state;
	sram_buffer(16, 0);
	enable(0);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 20, 3)), 0);
	assert_int_equal(rd(TRRAM_WP_LOW) & TRRAM_WP_WRAP, TRRAM_WP_WRAP);
	disable();
	wr(TRRAM_WP_HIGH, 0);
	wr(TRRAM_RP_LOW, 4);
	wr(TRRAM_LIMIT_LOW, 0xC);
	wr(TRRAM_CONTROL, ACT | SOW);
	(void)rd(TRRAM_DATA);
	enable(0);
	disable();
	assert_int_equal(rd(TRRAM_WP_LOW) & TRRAM_WP_WRAP, TRRAM_WP_WRAP);
	wr(TRRAM_WP_LOW, 8);
	assert_int_equal(rd(TRRAM_WP_LOW), 8);
}

/* "A write of WPLow sets it (trRamWrap) to bit 0 of the value"; bit 1
 * reads 0. */
static void test_wplow_write_sets_wrap_from_bit0(void **state)
{
	(void)state;
	for (int smem_mode = 0; smem_mode < 2; smem_mode++) {
		uint64_t start = smem_mode ? RAM_BASE + 0x2000 : 0;

		setup(NULL);
		if (smem_mode)
			smem_buffer(start, 0x40, 0);
		else
			sram_buffer(0x40, 0);
		wr(TRRAM_WP_LOW, (uint32_t)start + 0x13);
		assert_int_equal(rd64(TRRAM_WP_LOW), (start + 0x10) | TRRAM_WP_WRAP);
		wr(TRRAM_WP_LOW, (uint32_t)start + 0x12);
		assert_int_equal(rd64(TRRAM_WP_LOW), start + 0x10);
		wr(TRRAM_WP_LOW, (uint32_t)start + 0x11);
		wr(TRRAM_WP_HIGH, (uint32_t)(start >> 32));   /* High: wrap kept */
		assert_int_equal(rd64(TRRAM_WP_LOW), (start + 0x10) | TRRAM_WP_WRAP);
		/* Enabling keeps it; the data path sees WP without it. */
		enable(0);
		assert_int_equal(rd64(TRRAM_WP_LOW), (start + 0x10) | TRRAM_WP_WRAP);
		uint8_t m[4];

		assert_int_equal(tci_ramsink_put(&sink, m, message(m, 4, 1)), 0);
		assert_memory_equal(mem_at(smem_mode, start + 0x10), m, 4);
		assert_int_equal(rd64(TRRAM_WP_LOW), (start + 0x14) | TRRAM_WP_WRAP);
		if (smem_mode)
			check_ram_outside(start + 0x10, start + 0x14);
		else
			check_sram_outside(0x40);
	}
}

/* Stop on wrap, exact fit: everything stored, WP = Start, Wrap = 1,
 * Enable cleared; the next put is refused. */
static void test_stop_on_wrap_exact_fit(void **state)
{
	uint8_t m[16];

	(void)state;
	smem_buffer(RAM_BASE + 0x2000, 16, 0);
	enable(SOW);
	message(m, 10, 1);
	message(m + 10, 6, 2);
	assert_int_equal(tci_ramsink_put(&sink, m, 16), 0);
	assert_false(tci_ramsink_enabled(&sink));
	assert_int_equal(rd(TRRAM_CONTROL) & (EN | SOW | TRRAM_EMPTY), SOW | TRRAM_EMPTY);
	assert_int_equal(rd64(TRRAM_WP_LOW), (RAM_BASE + 0x2000) | TRRAM_WP_WRAP);
	assert_memory_equal(ram + 0x2000, m, 16);
	assert_int_equal(tci_ramsink_put(&sink, m, 6), -1);
	assert_memory_equal(ram + 0x2000, m, 16);
	check_ram_outside(RAM_BASE + 0x2000, RAM_BASE + 0x2010);
}

/* Stop on wrap, the next message does not fit: the whole messages that fit
 * are stored, the rest of the buffer is idle, WP = Start, Wrap = 1, Enable
 * cleared; nothing outside the buffer. */
static void test_stop_on_wrap_keeps_whole_messages(void **state)
{
	(void)state;
	for (int smem_mode = 0; smem_mode < 2; smem_mode++) {
		uint64_t start = smem_mode ? RAM_BASE + 0x2000 : 0;
		uint8_t m[32];

		setup(NULL);
		if (smem_mode)
			smem_buffer(start, 32, 4);
		else
			sram_buffer(32, 4);
		enable(SOW);
		message(m, 7, 1);
		assert_int_equal(tci_ramsink_put(&sink, m, 7), 0);
		/* 21 bytes left: a 9-byte and an 8-byte message fit, a
		 * 6-byte one does not (9 + 8 + 6 = 23). */
		message(m + 7, 9, 2);
		message(m + 16, 8, 3);
		message(m + 24, 6, 4);
		assert_int_equal(tci_ramsink_put(&sink, m + 7, 23), -1);
		assert_false(tci_ramsink_enabled(&sink));
		assert_int_equal(rd(TRRAM_CONTROL) & EN, 0);
		assert_int_equal(rd64(TRRAM_WP_LOW), start | TRRAM_WP_WRAP);
		assert_memory_equal(mem_at(smem_mode, start + 4), m, 24);
		for (int i = 28; i < 32; i++)
			assert_int_equal(*mem_at(smem_mode, start + i), 0xFF);
		if (smem_mode) {
			check_ram_outside(start + 4, start + 32);
		} else {
			for (int i = 0; i < 4; i++)
				assert_int_equal(sram[i], FILL);
			check_sram_outside(32);
		}
	}
}

/* Stop on wrap when not even the first message fits: idle to the end. */
static void test_stop_on_wrap_nothing_fits(void **state)
{
	uint8_t m[16];

	(void)state;
	smem_buffer(RAM_BASE + 0x2000, 16, 0);
	enable(SOW);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 13, 1)), 0);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 5, 2)), -1);
	for (int i = 13; i < 16; i++)
		assert_int_equal(ram[0x2000 + i], 0xFF);
	assert_int_equal(rd64(TRRAM_WP_LOW), (RAM_BASE + 0x2000) | TRRAM_WP_WRAP);
	assert_false(tci_ramsink_enabled(&sink));
	check_ram_outside(RAM_BASE + 0x2000, RAM_BASE + 0x2010);
}

/* After a stop on wrap, enabling again stores from Start (WP), and
 * trRamWrap stays set. */
static void test_stop_on_wrap_reenable_resumes_at_start(void **state)
{
	uint8_t m[16];

	(void)state;
	sram_buffer(16, 0);
	enable(SOW);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 12, 1)), 0);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 8, 2)), -1);
	assert_false(tci_ramsink_enabled(&sink));
	enable(SOW);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 4, 3)), 0);
	assert_memory_equal(sram, m, 4);
	assert_int_equal(rd(TRRAM_WP_LOW), 4 | TRRAM_WP_WRAP);
	check_sram_outside(16);
}

/* ---- SRAM read-back ------------------------------------------------------------ */

/* trRamData: the word at RP (first byte in the LSBs), then RP += 4. */
static void test_sram_data_reads_word_at_rp(void **state)
{
	uint8_t m[12];

	(void)state;
	sram_buffer(0x40, 0);
	enable(0);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 10, 5)), 0);
	disable();
	wr(TRRAM_RP_LOW, 0);
	for (uint32_t w = 0; w < 3; w++) {
		uint32_t want = 0;

		for (int b = 3; b >= 0; b--)
			want = want << 8 | (4 * w + b < 10 ? m[4 * w + b] : 0xFF);
		assert_int_equal(rd(TRRAM_DATA), want);
		assert_int_equal(rd(TRRAM_RP_LOW), 4 * (w + 1));
	}
}

/* After the word at Limit, RP goes back to Start (0). */
static void test_sram_rp_wraps_at_limit(void **state)
{
	uint8_t m[16];

	(void)state;
	sram_buffer(16, 0);
	enable(0);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 16, 6)), 0);
	wr(TRRAM_RP_LOW, 0xC);
	assert_int_equal(rd(TRRAM_DATA), (uint32_t)m[12] | m[13] << 8 | m[14] << 16 | (uint32_t)m[15] << 24);
	assert_int_equal(rd(TRRAM_RP_LOW), 0);
	assert_int_equal(rd(TRRAM_DATA), (uint32_t)m[0] | m[1] << 8 | m[2] << 16 | (uint32_t)m[3] << 24);
	assert_int_equal(rd(TRRAM_RP_LOW), 4);
}

/* SMEM: RP and Data are not implemented: read 0, RP ignores writes, Data
 * does not advance. */
static void test_smem_rp_and_data_read_zero(void **state)
{
	uint8_t m[8];

	(void)state;
	smem_buffer(RAM_BASE + 0x2000, 0x40, 0);
	enable(0);
	assert_int_equal(tci_ramsink_put(&sink, m, message(m, 8, 8)), 0);
	wr(TRRAM_RP_LOW, (uint32_t)RAM_BASE + 0x2000);
	assert_int_equal(rd(TRRAM_RP_LOW), 0);
	assert_int_equal(rd(TRRAM_RP_HIGH), 0);
	assert_int_equal(rd(TRRAM_DATA), 0);
	assert_int_equal(rd(TRRAM_DATA), 0);
	assert_int_equal(rd(TRRAM_RP_LOW), 0);
	disable();
	assert_int_equal(rd(TRRAM_DATA), 0);
}

/* ---- nothing outside the buffer, ever ------------------------------------------- */

struct rng { uint64_t s; };

static uint32_t rnd(struct rng *r, uint32_t n)
{
	r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(r->s >> 33) % n;
}

/*
 * Random buffers, message sizes, put chunks, disables and re-enables, in
 * both modes, with and without stop-on-wrap, against a byte-level
 * reference; after every step the memory outside the buffer holds the
 * fill pattern and the buffer holds what the reference says.
 */
static void test_random_streams_stay_in_buffer(void **state)
{
	struct rng r = { 12345 };

	(void)state;
	for (int round = 0; round < 400; round++) {
		bool smem_mode = round & 1, sow = round & 2;
		uint32_t size = 4 * (1 + rnd(&r, 24));
		uint32_t wp = 4 * rnd(&r, size / 4);
		uint64_t start = smem_mode ? RAM_BASE + 0x2000 + 4 * rnd(&r, 0x200) : 0;
		uint8_t ref[96];
		uint64_t refwp = wp;         /* offset of the next byte */
		bool on = true, refwrap = false;

		setup(NULL);
		if (smem_mode)
			smem_buffer(start, size, wp);
		else
			sram_buffer(size, wp);
		memcpy(ref, mem_at(smem_mode, start), size);
		enable(sow ? SOW : 0);
		for (int step = 0; step < 40; step++) {
			uint8_t chunk[64];
			size_t len = 0, lens[8];
			unsigned nmsg = 1 + rnd(&r, 3);

			if (rnd(&r, 8) == 0) {
				/* disable (pads) and enable again */
				if (on) {
					disable();
					while (refwp % 4) {
						ref[refwp++] = 0xFF;
						if (refwp == size) {
							refwp = 0;
							refwrap = true;
						}
					}
				}
				enable(sow ? SOW : 0);
				on = true;
			} else {
				for (unsigned k = 0; k < nmsg; k++) {
					lens[k] = 1 + rnd(&r, 12);
					len += message(chunk + len, lens[k], rnd(&r, 60));
				}
				int rc = tci_ramsink_put(&sink, chunk, len);

				if (!on) {
					assert_int_equal(rc, -1);
				} else if (!sow) {
					assert_int_equal(rc, 0);
					for (size_t i = 0; i < len; i++) {
						ref[refwp++] = chunk[i];
						if (refwp == size) {
							refwp = 0;
							refwrap = true;
						}
					}
				} else {
					size_t room = size - refwp, keep = 0, k;

					for (k = 0; k < nmsg && keep + lens[k] <= room; k++)
						keep += lens[k];
					memcpy(ref + refwp, chunk, keep);
					if (len < room) {
						assert_int_equal(rc, 0);
						refwp += len;
					} else {
						assert_int_equal(rc, len == room ? 0 : -1);
						memset(ref + refwp + keep, 0xFF, room - keep);
						refwp = 0;
						refwrap = true;
						on = false;
					}
				}
			}
			assert_int_equal(tci_ramsink_enabled(&sink), on);
			assert_memory_equal(mem_at(smem_mode, start), ref, size);
			assert_int_equal(rd64(TRRAM_WP_LOW),
					 (start + (refwp & ~3ull)) | (refwrap ? TRRAM_WP_WRAP : 0));
			if (smem_mode)
				check_ram_outside(start, start + size);
			else
				check_sram_outside(size);
		}
		if (on) {
			disable();
			if (smem_mode)
				check_ram_outside(start, start + size);
			else
				check_sram_outside(size);
		}
	}
}

#define T(f) cmocka_unit_test_setup(f, setup)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_power_on_reads_zero_except_impl),
		T(test_reset_ignores_writes),
		T(test_impl_value),
		T(test_release_selects_sram_defaults),
		T(test_reset_then_release_restores_defaults),
		T(test_control_fields),
		T(test_mode_switch_defaults),
		T(test_mode_ignored_while_enabled),
		T(test_smem_addresses_clamped),
		T(test_smem_high_halves_read_zero),
		T(test_sram_start_fixed_zero),
		T(test_sram_limit_clamped_and_trimmable),
		T(test_sram_wp_within_limit),
		T(test_sram_rp_within_limit),
		T(test_enable_checks_buffer_with_range_ok),
		T(test_enable_refused_outside_range_ok),
		T(test_enable_refused_wp_outside_buffer),
		T(test_enable_refused_start_above_limit),
		T(test_enable_never_changes_pointers),
		T(test_addresses_ignore_writes_while_enabled),
		T(test_put_refused_while_disabled),
		T(test_data_in_order_from_wp),
		T(test_disable_pads_last_word_with_idle),
		T(test_disable_aligned_writes_nothing),
		T(test_disable_padding_at_limit_wraps),
		T(test_reset_while_enabled_flushes),
		T(test_wrap_continues_at_start),
		T(test_wrap_flag_cleared_only_by_wplow_write),
		T(test_wplow_write_sets_wrap_from_bit0),
		T(test_stop_on_wrap_exact_fit),
		T(test_stop_on_wrap_keeps_whole_messages),
		T(test_stop_on_wrap_nothing_fits),
		T(test_stop_on_wrap_reenable_resumes_at_start),
		T(test_sram_data_reads_word_at_rp),
		T(test_sram_rp_wraps_at_limit),
		T(test_smem_rp_and_data_read_zero),
		T(test_random_streams_stay_in_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
