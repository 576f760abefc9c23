// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests for firmware/pmu/pmu.c, the SBI PMU logical counters, against the
 * contract in docs/PMU.md.  pmu.c is built with PMU_HW_FAKE: the counter
 * CSRs below are arrays, mcountinhibit a mask, OF bit 63 of the fake
 * mhpmevent; hw_tick() advances every uninhibited counter, so "counts only
 * while running" is observable.  S-mode memory is one 8 KiB host buffer
 * (two snapshot pages); addresses passed to the PMU are host pointers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/pmu/pmu.h"
#include "firmware/pmu/pmu_hw.h"
#include "firmware/core/platform.h"

/* ---- the fake hart ------------------------------------------------------ */

static uint64_t hw_ctr[32], hw_evt[32];
static uint32_t hw_inhibit;
static unsigned int hw_evt_writes[32];
static uint64_t platform_count;
static unsigned int trap_calls;
static bool trap_last;

#define RAM_SIZE 8192
static uint8_t *ram;

uint64_t pmu_hw_event_read(unsigned int n)
{
	assert_true(n >= 3 && n < 32);
	return hw_evt[n];
}

void pmu_hw_event_write(unsigned int n, uint64_t value)
{
	/* mcycle/minstret have no event CSR: never written. */
	assert_true(n >= 3 && n < 32);
	hw_evt[n] = value;
	hw_evt_writes[n]++;
}

uint64_t pmu_hw_counter_read(unsigned int n)
{
	assert_true(n < 32 && n != 1);
	return hw_ctr[n];
}

void pmu_hw_counter_write(unsigned int n, uint64_t value)
{
	assert_true(n < 32 && n != 1);
	hw_ctr[n] = value;
}

void pmu_hw_inhibit(uint32_t counters)
{
	hw_inhibit |= counters;
}

void pmu_hw_uninhibit(uint32_t counters)
{
	hw_inhibit &= ~counters;
}

unsigned long pmu_hw_overflowed(void)
{
	uint32_t of = 0;

	for (unsigned int n = 3; n < 32; n++)
		if (hw_evt[n] & MHPMEVENT_OF)
			of |= 1u << n;
	return of;
}

bool platform_smode_range_ok(uint64_t base, uint64_t size)
{
	uint64_t start = (uint64_t)(uintptr_t)ram;

	return base >= start && size <= RAM_SIZE && base - start <= RAM_SIZE - size;
}

bool platform_pmu_event_valid(uint64_t event_data)
{
	return event_data == 1;
}

uint64_t platform_pmu_event_read(uint64_t event_data)
{
	assert_int_equal(event_data, 1);
	return platform_count;
}

void pmu_trap_counting(bool on)
{
	trap_calls++;
	trap_last = on;
}

/* Every counter not inhibited counts d events. */
static void hw_tick(uint64_t d)
{
	for (unsigned int n = 0; n < 32; n++)
		if (n != 1 && !((hw_inhibit >> n) & 1))
			hw_ctr[n] += d;
}

/* ---- fixture ------------------------------------------------------------ */

#define QEMU_HPM   0x7fff8u   /* mhpmcounter3..18 */
#define NHW        18         /* cycle, instret, 16 HPM */
#define NTOTAL     (NHW + 32)
#define FW0        NHW        /* first firmware counter */

#define EV_CYCLES   0x00001UL
#define EV_INSTRET  0x00002UL
#define EV_L1D_READ_MISS 0x10001UL
#define EV_DTLB_READ_MISS 0x10019UL
#define EV_RAW      0x20000UL
#define EV_RAW2     0x30000UL
#define EV_FW(c)    (0xf0000UL | (c))

#define ALL_MASK    ((1UL << NTOTAL) - 1)
#define HW_MASK     ((1UL << NHW) - 1)
#define POISON      0xa5a5a5a5a5a5a5a5ULL

static struct pmu_hart P;

static void reset_fakes(void)
{
	memset(hw_ctr, 0, sizeof(hw_ctr));
	memset(hw_evt, 0, sizeof(hw_evt));
	memset(hw_evt_writes, 0, sizeof(hw_evt_writes));
	hw_inhibit = 0;
	platform_count = 0;
	trap_calls = 0;
	trap_last = false;
	memset(ram, 0xa5, RAM_SIZE);
}

/* The map QEMU 7.2 virt puts in its DT (tests/host/test_pmu_map.c checks
 * that the parser builds exactly this from the property). */
static void qemu72_map(void)
{
	static const struct pmu_map_range r[] = {
		{ 0x01, 0x01, 0x7fff9 }, { 0x02, 0x02, 0x7fffc },
		{ 0x10019, 0x10019, 0x7fff8 }, { 0x1001b, 0x1001b, 0x7fff8 },
		{ 0x10021, 0x10021, 0x7fff8 },
	};

	pmu_map_default(&pmu_event_map);
	pmu_event_map.from_dt = true;
	pmu_event_map.nranges = 5;
	memcpy(pmu_event_map.ranges, r, sizeof(r));
}

static void hart(uint32_t hpm_mask, unsigned int width, bool sscofpmf)
{
	memset(&P, 0, sizeof(P));
	pmu_hart_init(&P, hpm_mask, width, sscofpmf, true);
}

static int setup_qemu(void **state)
{
	(void)state;
	reset_fakes();
	qemu72_map();
	hart(QEMU_HPM, 48, true);
	return 0;
}

static int setup_default_map(void **state)
{
	(void)state;
	reset_fakes();
	pmu_map_default(&pmu_event_map);
	hart(QEMU_HPM, 48, true);
	return 0;
}

static int setup_no_sscofpmf(void **state)
{
	(void)state;
	reset_fakes();
	qemu72_map();
	hart(QEMU_HPM, 48, false);
	return 0;
}

#define assert_ret(r, err)    assert_int_equal((r).error, (err))
#define assert_ok(r, val) do { struct sbiret r_ = (r); \
	assert_int_equal(r_.error, SBI_SUCCESS); assert_int_equal(r_.value, (val)); } while (0)

static struct sbiret cfg(unsigned long base, unsigned long mask, unsigned long flags,
			 unsigned long event, uint64_t data)
{
	return pmu_counter_config_matching(base, mask, flags, event, data, &P);
}

static struct sbiret start(unsigned long base, unsigned long mask, unsigned long flags,
			   uint64_t v)
{
	return pmu_counter_start(base, mask, flags, v, &P);
}

static struct sbiret stop(unsigned long base, unsigned long mask, unsigned long flags)
{
	return pmu_counter_stop(base, mask, flags, &P);
}

static unsigned long addr(size_t off)
{
	return (unsigned long)(uintptr_t)(ram + off);
}

static uint64_t *page_word(size_t page_off, unsigned int i)
{
	return (uint64_t *)(ram + page_off) + i;
}

/* Hardware number of logical counter idx on the QEMU layout. */
static unsigned int hwn(unsigned int idx)
{
	return idx == 0 ? 0 : idx + 1;
}

/* ---- layout ------------------------------------------------------------- */

static void test_num_counters_and_info(void **state)
{
	(void)state;
	assert_ok(pmu_num_counters(&P), NTOTAL);
	assert_ok(pmu_counter_get_info(0, &P), 0xC00 | (63UL << 12));
	assert_ok(pmu_counter_get_info(1, &P), 0xC02 | (63UL << 12));
	for (unsigned int i = 2; i < NHW; i++)
		assert_ok(pmu_counter_get_info(i, &P), (0xC00 + i + 1) | (47UL << 12));
	for (unsigned int i = FW0; i < NTOTAL; i++)
		assert_ok(pmu_counter_get_info(i, &P), 1UL << 63 | 63UL << 12);
	assert_ret(pmu_counter_get_info(NTOTAL, &P), SBI_ERR_INVALID_PARAM);
	assert_ret(pmu_counter_get_info(~0UL, &P), SBI_ERR_INVALID_PARAM);
}

static void test_sparse_layout(void **state)
{
	(void)state;
	hart((1u << 3) | (1u << 5) | (1u << 31), 40, true);
	assert_ok(pmu_num_counters(&P), 5 + 32);
	assert_ok(pmu_counter_get_info(2, &P), 0xC03 | (39UL << 12));
	assert_ok(pmu_counter_get_info(3, &P), 0xC05 | (39UL << 12));
	assert_ok(pmu_counter_get_info(4, &P), 0xC1F | (39UL << 12));
	assert_ok(pmu_counter_get_info(5, &P), 1UL << 63 | 63UL << 12);
	assert_ret(pmu_counter_get_info(37, &P), SBI_ERR_INVALID_PARAM);
	/* No HPM counter at all: cycle, instret, 32 firmware. */
	hart(0, 0, false);
	assert_ok(pmu_num_counters(&P), 34);
	assert_ok(pmu_counter_get_info(2, &P), 1UL << 63 | 63UL << 12);
}

/* A privileged-1.10 hart (no mcountinhibit) cannot stop its counters: the
 * PMU offers the firmware counters only and never touches mcountinhibit. */
static void test_no_mcountinhibit_firmware_counters_only(void **state)
{
	(void)state;
	hw_inhibit = 0x5;
	memset(&P, 0, sizeof(P));
	pmu_hart_init(&P, 0, 0, false, false);
	assert_int_equal(hw_inhibit, 0x5);
	assert_ok(pmu_num_counters(&P), 32);
	assert_ok(pmu_counter_get_info(0, &P), 1UL << 63 | 63UL << 12);
	assert_ret(cfg(0, 0xffffffffUL, 0, EV_CYCLES, 0), SBI_ERR_NOT_SUPPORTED);
	assert_ok(cfg(0, 0xffffffffUL, 0, EV_FW(256), 0), 0);
	assert_int_equal(hw_inhibit, 0x5);
}

static void test_hart_init_state(void **state)
{
	(void)state;
	for (unsigned int n = 0; n < 32; n++) {
		hw_ctr[n] = 1000 + n;
		hw_evt[n] = 0xdead;
	}
	hw_inhibit = 0x5;
	hart(QEMU_HPM, 48, true);
	/* mcycle/minstret keep counting; every HPM counter inhibited, no event,
	 * value 0. */
	assert_int_equal(hw_inhibit & 0x5, 0);
	assert_int_equal(hw_inhibit & QEMU_HPM, QEMU_HPM);
	for (unsigned int n = 3; n <= 18; n++) {
		assert_int_equal(hw_evt[n], 0);
		assert_int_equal(hw_ctr[n], 0);
	}
	/* Every counter free: starting any is INVALID_PARAM. */
	for (unsigned int i = 0; i < NTOTAL; i++)
		assert_ret(start(i, 1, 0, 0), SBI_ERR_INVALID_PARAM);
}

/* ---- counter sets and flags --------------------------------------------- */

static void test_counter_set_validation(void **state)
{
	static const struct { unsigned long base, mask; } bad[] = {
		{ 0, 1UL << NTOTAL }, { NTOTAL - 1, 2 }, { NTOTAL, 1 }, { ~0UL, 1 },
		{ 1, ~0UL }, { 40, 1UL << 20 }, { 63, 1 }, { 64, 1 },
	};

	(void)state;
	assert_ok(cfg(0, 1, 0, EV_CYCLES, 0), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_ret(cfg(bad[i].base, bad[i].mask, 0, EV_FW(5), 0), SBI_ERR_INVALID_PARAM);
		assert_ret(start(bad[i].base, bad[i].mask | 1, 0, 0), SBI_ERR_INVALID_PARAM);
		assert_ret(stop(bad[i].base, bad[i].mask | 1, PMU_STOP_RESET),
			   SBI_ERR_INVALID_PARAM);
	}
	/* Nothing was done: counter 0 still configured (startable), no firmware
	 * counter was taken. */
	assert_ret(start(FW0, 1, 0, 0), SBI_ERR_INVALID_PARAM);
	assert_ok(start(0, 1, 0, 0), 0);
	/* The whole range is a valid set. */
	assert_ok(cfg(0, ALL_MASK, 0, EV_FW(5), 0), FW0);
	assert_ok(cfg(NTOTAL - 1, 1, 0, EV_FW(5), 0), NTOTAL - 1);
}

static void test_empty_mask(void **state)
{
	(void)state;
	assert_ret(cfg(0, 0, 0, EV_CYCLES, 0), SBI_ERR_NOT_SUPPORTED);
	assert_ret(cfg(1000, 0, 0, EV_CYCLES, 0), SBI_ERR_NOT_SUPPORTED);
	assert_ok(start(0, 0, 0, 0), 0);
	assert_ok(start(NTOTAL - 1, 0, PMU_START_SET_INIT_VALUE, 5), 0);
	assert_ok(stop(0, 0, 0), 0);
	assert_ok(stop(NTOTAL - 1, 0, PMU_STOP_RESET), 0);
	assert_int_equal(hw_inhibit & QEMU_HPM, QEMU_HPM);
}

/* An empty mask with any base, even one past every counter (Linux passes
 * base 0, but the base is S-mode's choice).  Last in the list: a sanitizer
 * report here ends the binary. */
static void test_empty_mask_large_base(void **state)
{
	(void)state;
	assert_ok(start(1000, 0, PMU_START_SET_INIT_VALUE, 5), 0);
	assert_ok(stop(64, 0, 0), 0);
	assert_ok(stop(1000, 0, PMU_STOP_RESET), 0);
	assert_ok(pmu_snapshot_set_shmem(addr(0), 0, 0, &P), 0);
	assert_ok(stop(~0UL, 0, PMU_STOP_TAKE_SNAPSHOT), 0);
	assert_int_equal(hw_inhibit & QEMU_HPM, QEMU_HPM);
}

static void test_reserved_flags(void **state)
{
	(void)state;
	assert_ret(cfg(0, ALL_MASK, 1UL << 8, EV_CYCLES, 0), SBI_ERR_INVALID_PARAM);
	assert_ret(cfg(0, ALL_MASK, 1UL << 63, EV_CYCLES, 0), SBI_ERR_INVALID_PARAM);
	assert_ok(cfg(0, 1, 0, EV_CYCLES, 0), 0);
	assert_ret(start(0, 1, 1UL << 2, 0), SBI_ERR_INVALID_PARAM);
	assert_ret(start(0, 1, PMU_START_SET_INIT_VALUE | PMU_START_INIT_SNAPSHOT, 0),
		   SBI_ERR_INVALID_PARAM);
	assert_ret(start(0, 1, PMU_START_INIT_SNAPSHOT, 0), SBI_ERR_NO_SHMEM);
	assert_ok(start(0, 1, 0, 0), 0);
	assert_ret(stop(0, 1, 1UL << 2), SBI_ERR_INVALID_PARAM);
	assert_ret(stop(0, 1, PMU_STOP_TAKE_SNAPSHOT), SBI_ERR_NO_SHMEM);
	/* Neither failed stop stopped it. */
	assert_ret(start(0, 1, 0, 0), SBI_ERR_ALREADY_STARTED);
	assert_ok(stop(0, 1, 0), 0);
}

/* ---- events ------------------------------------------------------------- */

static void test_event_validity(void **state)
{
	static const struct { unsigned long event; uint64_t data; } unsupported[] = {
		{ 0, 0 },                        /* "unused" */
		{ 11, 0 },                       /* past the general events */
		{ EV_CYCLES, 1 },                /* event_data must be 0 */
		{ 0x10038, 0 },                  /* cache_id 7 */
		{ 0x10006, 0 },                  /* op_id 3 */
		{ EV_L1D_READ_MISS, 1 },
		{ 0x100001, 0 },                 /* bits above 19 */
		{ 1UL << 32 | EV_CYCLES, 0 },
		{ 0x40001, 0 }, { 0xe0000, 0 },  /* unknown types */
		{ 0x20001, 0 },                  /* raw: code must be 0 */
		{ EV_RAW, 1ULL << 48 },
		{ EV_RAW2, 1ULL << 56 },
		{ EV_FW(22), 0 }, { EV_FW(255), 0 }, { EV_FW(259), 0 }, { EV_FW(65534), 0 },
		{ EV_FW(5), 1 },                 /* standard fw event with data */
		{ EV_FW(256), 1 },
		{ EV_FW(65535), 0 }, { EV_FW(65535), 2 },  /* platform says no */
	};
	static const struct { unsigned long event; uint64_t data; } supported[] = {
		{ EV_CYCLES, 0 }, { 10, 0 }, { 0x10000, 0 }, { 0x10035, 0 }, { 0x10034, 0 },
		{ EV_RAW, (1ULL << 48) - 1 }, { EV_RAW2, (1ULL << 56) - 1 },
		{ EV_FW(0), 0 }, { EV_FW(21), 0 }, { EV_FW(256), 0 }, { EV_FW(258), 0 },
		{ EV_FW(65535), 1 },
	};

	(void)state;
	/* Every general and cache event on every HPM counter, so that only
	 * the event's own validity decides. */
	pmu_event_map.ranges[0] = (struct pmu_map_range){ 1, 0x1ffff, QEMU_HPM };
	pmu_event_map.nranges = 1;
	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		assert_ret(cfg(0, ALL_MASK, 0, unsupported[i].event, unsupported[i].data),
			   SBI_ERR_NOT_SUPPORTED);
	for (size_t i = 0; i < sizeof(supported) / sizeof(supported[0]); i++) {
		struct sbiret r = cfg(0, ALL_MASK, 0, supported[i].event, supported[i].data);

		assert_int_equal(r.error, SBI_SUCCESS);
		assert_ret(stop(r.value, 1, PMU_STOP_RESET), SBI_ERR_ALREADY_STOPPED);
	}
}

/* ---- config_matching: which counter ------------------------------------- */

/* Without Sscofpmf nothing overflows into an interrupt: cycle and instret
 * first, the HPM counters left to events only they count. */
static void test_match_cycle_instret_fixed_first(void **state)
{
	(void)state;
	assert_ok(cfg(0, ALL_MASK, 0, EV_CYCLES, 0), 0);
	assert_ok(cfg(0, ALL_MASK, 0, EV_INSTRET, 0), 1);
	/* cycle taken but stopped: a free HPM counter comes first. */
	assert_ok(cfg(0, ALL_MASK, 0, EV_CYCLES, 0), 2);
	assert_ok(cfg(0, ALL_MASK, 0, EV_INSTRET, 0), 3);
}

/* With Sscofpmf only the HPM counters raise LCOFI: they go first (a
 * sampling caller such as Linux perf cannot say it samples); then a free
 * cycle/instret, then configured HPM, then configured fixed counters. */
static void test_match_cycle_instret_overflowing_first(void **state)
{
	(void)state;
	assert_ok(cfg(0, ALL_MASK, 0, EV_CYCLES, 0), 2);
	assert_ok(cfg(0, ALL_MASK, 0, EV_INSTRET, 0), 3);
	assert_ok(cfg(0, 1, 0, EV_CYCLES, 0), 0);
	assert_ret(stop(0, 1, PMU_STOP_RESET), SBI_ERR_ALREADY_STOPPED);
	/* Set {cycle, counter 4}: HPM free, then cycle free, then HPM again. */
	assert_ok(cfg(0, 0x11, 0, EV_CYCLES, 0), 4);
	assert_ok(cfg(0, 0x11, 0, EV_CYCLES, 0), 0);
	assert_ok(cfg(0, 0x11, 0, EV_CYCLES, 0), 4);
	assert_ok(start(4, 1, 0, 0), 0);
	assert_ok(cfg(0, 0x11, 0, EV_CYCLES, 0), 0);
}

static void test_match_cycle_instret(void **state)
{
	(void)state;
	/* cycle counts only cycles, instret only instructions, whatever the map. */
	assert_ret(cfg(0, 1, 0, EV_INSTRET, 0), SBI_ERR_NOT_SUPPORTED);
	assert_ret(cfg(1, 1, 0, EV_CYCLES, 0), SBI_ERR_NOT_SUPPORTED);
	assert_ret(cfg(0, 3, 0, EV_DTLB_READ_MISS, 0), SBI_ERR_NOT_SUPPORTED);
	assert_ret(cfg(0, 3, 0, EV_RAW, 0x12), SBI_ERR_NOT_SUPPORTED);
	assert_ret(cfg(0, 3, 0, EV_FW(5), 0), SBI_ERR_NOT_SUPPORTED);
}

static void test_match_lowest_free_then_stopped(void **state)
{
	(void)state;
	/* Counters 2..4 for a cache event, free first in order. */
	assert_ok(cfg(2, 7, 0, EV_DTLB_READ_MISS, 0), 2);
	assert_ok(cfg(2, 7, 0, EV_DTLB_READ_MISS, 0), 3);
	assert_ok(cfg(2, 7, 0, EV_DTLB_READ_MISS, 0), 4);
	/* None free: the lowest configured-but-stopped, skipping running ones. */
	assert_ok(start(2, 1, 0, 0), 0);
	assert_ok(cfg(2, 7, 0, EV_DTLB_READ_MISS, 0), 3);
	assert_ok(start(3, 1, 0, 0), 0);
	assert_ok(cfg(2, 7, 0, EV_DTLB_READ_MISS, 0), 4);
	assert_ok(start(4, 1, 0, 0), 0);
	assert_ret(cfg(2, 7, 0, EV_DTLB_READ_MISS, 0), SBI_ERR_NOT_SUPPORTED);
	/* A free counter beats a lower stopped one. */
	assert_ok(stop(3, 1, 0), 0);
	assert_ok(stop(4, 1, PMU_STOP_RESET), 0);
	assert_ok(cfg(2, 7, 0, EV_DTLB_READ_MISS, 0), 4);
	/* Unmapped events and counters outside the map. */
	assert_ret(cfg(0, ALL_MASK, 0, 0x1001a, 0), SBI_ERR_NOT_SUPPORTED);
	assert_ret(cfg(0, ALL_MASK, 0, 3, 0), SBI_ERR_NOT_SUPPORTED);
	assert_ret(cfg(FW0, 0xffff, 0, EV_DTLB_READ_MISS, 0), SBI_ERR_NOT_SUPPORTED);
}

static void test_match_firmware_only_on_fw_counters(void **state)
{
	(void)state;
	assert_ret(cfg(0, HW_MASK, 0, EV_FW(5), 0), SBI_ERR_NOT_SUPPORTED);
	assert_ok(cfg(0, ALL_MASK, 0, EV_FW(5), 0), FW0);
	assert_ok(cfg(0, ALL_MASK, 0, EV_FW(6), 0), FW0 + 1);
	assert_ok(cfg(FW0 + 10, 3, 0, EV_FW(65535), 1), FW0 + 10);
	assert_ret(cfg(FW0, 1UL << 31, 0, EV_CYCLES, 0), SBI_ERR_NOT_SUPPORTED);
}

static void test_match_raw_default(void **state)
{
	(void)state;
	/* No raw property: every HPM counter, never cycle/instret/firmware. */
	assert_ok(cfg(0, ALL_MASK, 0, EV_RAW, 0x1234), 2);
	assert_ok(cfg(17, 1, 0, EV_RAW2, 0xffffffffffffffULL), 17);
	assert_ret(cfg(0, 3, 0, EV_RAW, 1), SBI_ERR_NOT_SUPPORTED);
	assert_ret(cfg(FW0, 1, 0, EV_RAW, 1), SBI_ERR_NOT_SUPPORTED);
	/* With a raw property only the counters it names. */
	pmu_event_map.raw_from_dt = true;
	pmu_event_map.nraw = 1;
	pmu_event_map.raw[0] = (struct pmu_map_raw){ 0x100, 0xf00, 1u << 10 };
	assert_ok(cfg(0, ALL_MASK, 0, EV_RAW, 0x1ab), 9);
	assert_ret(cfg(0, ALL_MASK, 0, EV_RAW, 0x2ab), SBI_ERR_NOT_SUPPORTED);
}

static void test_skip_match(void **state)
{
	(void)state;
	/* The lowest counter of the set, even with a lower free one elsewhere. */
	assert_ok(cfg(5, 0xff, PMU_CFG_SKIP_MATCH, EV_DTLB_READ_MISS, 0), 5);
	/* Configured-but-stopped: taken again. */
	assert_ok(cfg(5, 0xff, PMU_CFG_SKIP_MATCH, EV_RAW, 0x77), 5);
	assert_int_equal(hw_evt[hwn(5)], 0x77);
	/* Running: NOT_SUPPORTED, no fallback to the next one. */
	assert_ok(start(5, 1, 0, 0), 0);
	assert_ret(cfg(5, 0xff, PMU_CFG_SKIP_MATCH, EV_DTLB_READ_MISS, 0), SBI_ERR_NOT_SUPPORTED);
	/* Cannot count the event: NOT_SUPPORTED. */
	assert_ret(cfg(0, 0xff, PMU_CFG_SKIP_MATCH, EV_INSTRET, 0), SBI_ERR_NOT_SUPPORTED);
	assert_ret(cfg(2, 0xff, PMU_CFG_SKIP_MATCH, EV_FW(1), 0), SBI_ERR_NOT_SUPPORTED);
	assert_ok(cfg(FW0 + 3, 0xff, PMU_CFG_SKIP_MATCH, EV_FW(1), 0), FW0 + 3);
}

static void test_auto_start_and_clear_value(void **state)
{
	unsigned int n = hwn(2);

	(void)state;
	hw_ctr[n] = 1234;
	assert_ok(cfg(2, 1, 0, EV_DTLB_READ_MISS, 0), 2);
	/* Configured, not running, value kept. */
	assert_int_equal(hw_ctr[n], 1234);
	assert_true((hw_inhibit >> n) & 1);
	hw_tick(10);
	assert_int_equal(hw_ctr[n], 1234);
	/* CLEAR_VALUE zeroes it; AUTO_START starts it from its value. */
	assert_ok(cfg(2, 1, PMU_CFG_CLEAR_VALUE | PMU_CFG_AUTO_START, EV_DTLB_READ_MISS, 0), 2);
	assert_int_equal(hw_ctr[n], 0);
	assert_false((hw_inhibit >> n) & 1);
	hw_tick(7);
	assert_int_equal(hw_ctr[n], 7);
	assert_ret(start(2, 1, 0, 0), SBI_ERR_ALREADY_STARTED);
	/* AUTO_START without CLEAR_VALUE keeps the value. */
	hw_ctr[hwn(3)] = 500;
	assert_ok(cfg(3, 1, PMU_CFG_AUTO_START, EV_DTLB_READ_MISS, 0), 3);
	hw_tick(1);
	assert_int_equal(hw_ctr[hwn(3)], 501);
	/* Configuring cycle stops it until it is started. */
	assert_ok(cfg(0, 1, 0, EV_CYCLES, 0), 0);
	assert_true(hw_inhibit & 1);
	/* Firmware counter: CLEAR_VALUE, AUTO_START. */
	assert_ok(cfg(FW0, 1, PMU_CFG_AUTO_START, EV_FW(5), 0), FW0);
	pmu_fw_event(&P, PMU_FW_SET_TIMER);
	pmu_fw_event(&P, PMU_FW_SET_TIMER);
	assert_ok(pmu_counter_fw_read(FW0, &P), 2);
	assert_ok(stop(FW0, 1, 0), 0);
	assert_ok(cfg(FW0, 1, 0, EV_FW(6), 0), FW0);
	assert_ok(pmu_counter_fw_read(FW0, &P), 2);
	assert_ok(cfg(FW0, 1, PMU_CFG_CLEAR_VALUE, EV_FW(6), 0), FW0);
	assert_ok(pmu_counter_fw_read(FW0, &P), 0);
}

static void test_mhpmevent_filter_bits(void **state)
{
	unsigned long all = PMU_CFG_SET_VUINH | PMU_CFG_SET_VSINH | PMU_CFG_SET_UINH |
			    PMU_CFG_SET_SINH | PMU_CFG_SET_MINH;

	(void)state;
	assert_ok(cfg(2, 1, PMU_CFG_SET_SINH | PMU_CFG_SET_UINH, EV_DTLB_READ_MISS, 0), 2);
	assert_int_equal(hw_evt[3], EV_DTLB_READ_MISS | MHPMEVENT_SINH | MHPMEVENT_UINH);
	assert_ok(cfg(3, 1, all, EV_RAW2, 0xffffffffffffffULL), 3);
	assert_int_equal(hw_evt[4], 0xffffffffffffffULL | (0x1fULL << 58));
	assert_ok(cfg(4, 1, PMU_CFG_SET_MINH, EV_CYCLES, 0), 4);
	assert_int_equal(hw_evt[5], EV_CYCLES | MHPMEVENT_MINH);
	/* Started: the same value, OF clear. */
	assert_ok(start(2, 1, PMU_START_SET_INIT_VALUE, 0), 0);
	assert_int_equal(hw_evt[3], EV_DTLB_READ_MISS | MHPMEVENT_SINH | MHPMEVENT_UINH);
	/* cycle/instret have no event CSR (the fake asserts none is written). */
	assert_ok(cfg(0, 1, all, EV_CYCLES, 0), 0);
	assert_ok(cfg(1, 1, all | PMU_CFG_AUTO_START, EV_INSTRET, 0), 1);
	/* A DT selector value replaces the event_idx. */
	pmu_event_map.nselectors = 1;
	pmu_event_map.selectors[0] = (struct pmu_map_selector){ 0x1001b, 0x100002345ULL };
	assert_ok(cfg(5, 1, PMU_CFG_SET_VUINH, 0x1001b, 0), 5);
	assert_int_equal(hw_evt[6], 0x100002345ULL | MHPMEVENT_VUINH);
}

/* tracesbi's read-back of mhpmevent: HPM counters only, indexes checked. */
static void test_event_csr_readback(void **state)
{
	(void)state;
	assert_ok(cfg(2, 1, PMU_CFG_SET_SINH, EV_DTLB_READ_MISS, 0), 2);
	assert_ok(pmu_counter_event_csr(2, &P), EV_DTLB_READ_MISS | MHPMEVENT_SINH);
	hw_evt[3] |= MHPMEVENT_OF;   /* the CSR as it is, OF included */
	assert_ok(pmu_counter_event_csr(2, &P), EV_DTLB_READ_MISS | MHPMEVENT_SINH | MHPMEVENT_OF);
	assert_ok(pmu_counter_event_csr(17, &P), 0);   /* free: no event */
	assert_ret(pmu_counter_event_csr(0, &P), SBI_ERR_NOT_SUPPORTED);
	assert_ret(pmu_counter_event_csr(1, &P), SBI_ERR_NOT_SUPPORTED);
	assert_ret(pmu_counter_event_csr(18, &P), SBI_ERR_NOT_SUPPORTED);   /* firmware */
	assert_ret(pmu_counter_event_csr(NTOTAL, &P), SBI_ERR_INVALID_PARAM);
	assert_ret(pmu_counter_event_csr(~0UL, &P), SBI_ERR_INVALID_PARAM);
}

static void test_mhpmevent_without_sscofpmf(void **state)
{
	unsigned long all = PMU_CFG_SET_VUINH | PMU_CFG_SET_VSINH | PMU_CFG_SET_UINH |
			    PMU_CFG_SET_SINH | PMU_CFG_SET_MINH;

	(void)state;
	assert_ok(cfg(2, 1, all, EV_DTLB_READ_MISS, 0), 2);
	assert_int_equal(hw_evt[3], EV_DTLB_READ_MISS);
	assert_ok(cfg(3, 1, all | PMU_CFG_AUTO_START, EV_RAW2, 0xffffffffffffffULL), 3);
	assert_int_equal(hw_evt[4], 0xffffffffffffffULL);
}

/* ---- start / stop ------------------------------------------------------- */

static void test_start_free_counter(void **state)
{
	(void)state;
	assert_ok(cfg(2, 1, 0, EV_DTLB_READ_MISS, 0), 2);
	/* 2 configured, 3 free: INVALID_PARAM and 2 not started. */
	assert_ret(start(2, 3, 0, 0), SBI_ERR_INVALID_PARAM);
	assert_true((hw_inhibit >> 3) & 1);
	assert_ret(start(FW0, 1, PMU_START_SET_INIT_VALUE, 3), SBI_ERR_INVALID_PARAM);
	assert_ok(start(2, 1, 0, 0), 0);
	assert_false((hw_inhibit >> 3) & 1);
}

static void test_start_clears_of_and_sets_value(void **state)
{
	(void)state;
	assert_ok(cfg(2, 3, 0, EV_DTLB_READ_MISS, 0), 2);
	assert_ok(cfg(2, 3, 0, EV_DTLB_READ_MISS, 0), 3);
	hw_evt[3] |= MHPMEVENT_OF;
	hw_evt[4] |= MHPMEVENT_OF;
	/* One counter, SET_INIT_VALUE (Linux's call). */
	assert_ok(start(2, 1, PMU_START_SET_INIT_VALUE, 0xfffffff0ULL), 0);
	assert_int_equal(hw_evt[3], EV_DTLB_READ_MISS);
	assert_int_equal(hw_ctr[3], 0xfffffff0ULL);
	assert_false((hw_inhibit >> 3) & 1);
	/* A set, no flag: the value is kept, OF cleared. */
	hw_ctr[4] = 99;
	assert_ret(start(2, 3, 0, 12345), SBI_ERR_ALREADY_STARTED);
	assert_int_equal(hw_evt[4], EV_DTLB_READ_MISS);
	assert_int_equal(hw_ctr[4], 99);
	assert_int_equal(hw_ctr[3], 0xfffffff0ULL);   /* the running one untouched */
	hw_tick(1);
	assert_int_equal(hw_ctr[4], 100);
	/* SET_INIT_VALUE on a set writes every counter of it. */
	assert_ok(stop(2, 3, 0), 0);
	assert_ok(start(2, 3, PMU_START_SET_INIT_VALUE, 42), 0);
	assert_int_equal(hw_ctr[3], 42);
	assert_int_equal(hw_ctr[4], 42);
}

static void test_stop_semantics(void **state)
{
	(void)state;
	assert_ok(cfg(2, 1, PMU_CFG_AUTO_START, EV_DTLB_READ_MISS, 0), 2);
	hw_tick(5);
	assert_ok(stop(2, 1, 0), 0);
	assert_true((hw_inhibit >> 3) & 1);
	hw_tick(5);
	assert_int_equal(hw_ctr[3], 5);
	assert_ret(stop(2, 1, 0), SBI_ERR_ALREADY_STOPPED);
	/* Still configured: it can be started again. */
	assert_ok(start(2, 1, 0, 0), 0);
	hw_tick(1);
	assert_int_equal(hw_ctr[3], 6);
	assert_ok(stop(2, 1, 0), 0);
	/* Stop, then stop with RESET (as Linux does): ALREADY_STOPPED, freed. */
	assert_ret(stop(2, 1, PMU_STOP_RESET), SBI_ERR_ALREADY_STOPPED);
	assert_int_equal(hw_evt[3], 0);
	assert_ret(start(2, 1, 0, 0), SBI_ERR_INVALID_PARAM);
	/* A set with one running and one stopped: the running one is stopped
	 * and the call says ALREADY_STOPPED. */
	assert_ok(cfg(2, 3, PMU_CFG_AUTO_START, EV_DTLB_READ_MISS, 0), 2);
	assert_ok(cfg(2, 3, 0, EV_DTLB_READ_MISS, 0), 3);
	assert_ret(stop(2, 3, 0), SBI_ERR_ALREADY_STOPPED);
	assert_true((hw_inhibit >> 3) & 1);
	/* RESET with a running counter stops and frees it. */
	assert_ok(start(2, 1, 0, 0), 0);
	assert_ok(stop(2, 1, PMU_STOP_RESET), 0);
	assert_true((hw_inhibit >> 3) & 1);
	assert_int_equal(hw_evt[3], 0);
	assert_ok(cfg(2, 3, 0, EV_RAW, 1), 2);
}

/* One-counter calls (pmu.c's straight-line paths) outside the usual case:
 * a mask bit above bit 0, indexes past the last counter, a base that would
 * wrap, firmware counters, and the HPM set path with a stopped member. */
static void test_single_counter_paths(void **state)
{
	const size_t pg = 4096;

	(void)state;
	/* base + bit must not wrap around to counter 0. */
	assert_ok(cfg(0, 1, PMU_CFG_AUTO_START, EV_CYCLES, 0), 0);
	assert_ret(start(~0UL, 2, 0, 0), SBI_ERR_INVALID_PARAM);
	assert_ret(stop(~0UL, 2, 0), SBI_ERR_INVALID_PARAM);
	assert_ret(stop(~0UL, 2, PMU_STOP_RESET), SBI_ERR_INVALID_PARAM);
	assert_ok(stop(0, 1, 0), 0);
	/* Past the last counter, in and beyond the state array. */
	for (unsigned long idx = NTOTAL; idx < 70; idx++) {
		assert_ret(start(idx, 1, 0, 0), SBI_ERR_INVALID_PARAM);
		assert_ret(stop(idx, 1, 0), SBI_ERR_INVALID_PARAM);
		assert_ret(stop(idx, 1, PMU_STOP_RESET | PMU_STOP_TAKE_SNAPSHOT),
			   SBI_ERR_INVALID_PARAM);
	}
	/* Counter 5 named by bit 5 from base 0, start without flags resumes
	 * from the stopped value. */
	assert_ok(cfg(5, 1, 0, EV_DTLB_READ_MISS, 0), 5);
	assert_ok(start(0, 1UL << 5, PMU_START_SET_INIT_VALUE, 40), 0);
	hw_tick(2);
	assert_ok(stop(1, 1UL << 4, 0), 0);
	hw_tick(7);
	assert_ok(start(0, 1UL << 5, 0, 999), 0);
	hw_tick(1);
	assert_int_equal(hw_ctr[6], 43);
	assert_ret(start(0, 1UL << 5, 0, 0), SBI_ERR_ALREADY_STARTED);
	/* A firmware counter: no-flag start resumes, snapshot of a stopped
	 * one says ALREADY_STOPPED and still writes the value, RESET frees. */
	assert_ok(pmu_snapshot_set_shmem(addr(pg), 0, 0, &P), 0);
	assert_ok(cfg(FW0, 1, 0, EV_FW(4), 0), FW0);
	assert_ok(start(FW0, 1, PMU_START_SET_INIT_VALUE, 10), 0);
	pmu_fw_event(&P, PMU_FW_ILLEGAL_INSN);
	assert_ok(stop(FW0, 1, 0), 0);
	pmu_fw_event(&P, PMU_FW_ILLEGAL_INSN);
	assert_ok(start(FW0, 1, 0, 0), 0);
	pmu_fw_event(&P, PMU_FW_ILLEGAL_INSN);
	assert_ok(pmu_counter_fw_read(FW0, &P), 12);
	assert_ok(stop(FW0, 1, 0), 0);
	assert_ret(stop(FW0, 1, PMU_STOP_TAKE_SNAPSHOT), SBI_ERR_ALREADY_STOPPED);
	assert_int_equal(*page_word(pg, 1), 12);
	assert_int_equal(*page_word(pg, 0), 0);
	assert_ret(stop(FW0, 1, PMU_STOP_RESET), SBI_ERR_ALREADY_STOPPED);
	assert_ret(start(FW0, 1, 0, 0), SBI_ERR_INVALID_PARAM);
	/* Several HPM counters with one of them stopped: every one is
	 * written, the stopped one stays configured, the others stop. */
	assert_ok(cfg(2, 1, 0, EV_DTLB_READ_MISS, 0), 2);
	assert_ok(cfg(3, 1, 0, EV_DTLB_READ_MISS, 0), 3);
	assert_ok(cfg(4, 1, 0, EV_DTLB_READ_MISS, 0), 4);
	assert_ok(start(2, 7, PMU_START_SET_INIT_VALUE, 100), 0);
	assert_ok(stop(3, 1, 0), 0);
	hw_tick(5);
	assert_ret(stop(2, 7, PMU_STOP_TAKE_SNAPSHOT), SBI_ERR_ALREADY_STOPPED);
	assert_int_equal(*page_word(pg, 1), 105);
	assert_int_equal(*page_word(pg, 2), 100);
	assert_int_equal(*page_word(pg, 3), 105);
	assert_int_equal(hw_inhibit & (7u << 3), 7u << 3);
	assert_ret(stop(2, 7, 0), SBI_ERR_ALREADY_STOPPED);
	assert_ok(start(2, 7, 0, 0), 0);
	hw_tick(1);
	assert_int_equal(hw_ctr[3], 106);
	assert_int_equal(hw_ctr[4], 101);
	assert_ok(stop(2, 7, 0), 0);
	assert_ok(stop(0, 1UL << 5, PMU_STOP_RESET), 0);
	assert_int_equal(hw_evt[6], 0);
}

static void test_reset_cycle_instret_uninhibits(void **state)
{
	(void)state;
	assert_ok(cfg(0, 3, 0, EV_CYCLES, 0), 0);
	assert_ok(cfg(0, 3, 0, EV_INSTRET, 0), 1);
	assert_int_equal(hw_inhibit & 5, 5);
	assert_ok(start(0, 3, 0, 0), 0);
	assert_ok(stop(0, 3, 0), 0);
	assert_int_equal(hw_inhibit & 5, 5);
	/* Freed: counting again for rdcycle/rdinstret, as at boot. */
	assert_ret(stop(0, 3, PMU_STOP_RESET), SBI_ERR_ALREADY_STOPPED);
	assert_int_equal(hw_inhibit & 5, 0);
	assert_ret(start(0, 1, 0, 0), SBI_ERR_INVALID_PARAM);
}

/* ---- snapshot ------------------------------------------------------------ */

static void test_snapshot_set_shmem(void **state)
{
	(void)state;
	assert_ret(pmu_snapshot_set_shmem(addr(0), 0, 1, &P), SBI_ERR_INVALID_PARAM);
	assert_ret(pmu_snapshot_set_shmem(addr(8), 0, 0, &P), SBI_ERR_INVALID_PARAM);
	assert_ret(pmu_snapshot_set_shmem(addr(2048), 0, 0, &P), SBI_ERR_INVALID_PARAM);
	assert_ret(pmu_snapshot_set_shmem(addr(0), 1, 0, &P), SBI_ERR_INVALID_ADDRESS);
	assert_ret(pmu_snapshot_set_shmem(addr(RAM_SIZE), 0, 0, &P), SBI_ERR_INVALID_ADDRESS);
	assert_ret(pmu_snapshot_set_shmem(addr(0) - 4096, 0, 0, &P), SBI_ERR_INVALID_ADDRESS);
	assert_ret(pmu_snapshot_set_shmem(0, 0, 0, &P), SBI_ERR_INVALID_ADDRESS);
	assert_ret(pmu_snapshot_set_shmem(0, ~0UL, 0, &P), SBI_ERR_INVALID_ADDRESS);
	/* None of those enabled it. */
	assert_ok(cfg(2, 1, PMU_CFG_AUTO_START, EV_RAW, 1), 2);
	assert_ret(stop(2, 1, PMU_STOP_TAKE_SNAPSHOT), SBI_ERR_NO_SHMEM);
	assert_ok(pmu_snapshot_set_shmem(addr(4096), 0, 0, &P), 0);
	assert_ok(pmu_snapshot_set_shmem(addr(0), 0, 0, &P), 0);
	/* The page is not touched by the call. */
	for (size_t i = 0; i < RAM_SIZE; i++)
		assert_int_equal(ram[i], 0xa5);
	/* Disabled by all-ones. */
	assert_ok(pmu_snapshot_set_shmem(~0UL, ~0UL, 0, &P), 0);
	assert_ret(stop(2, 1, PMU_STOP_TAKE_SNAPSHOT), SBI_ERR_NO_SHMEM);
	assert_ret(start(2, 1, PMU_START_INIT_SNAPSHOT, 0), SBI_ERR_NO_SHMEM);
	assert_ret(pmu_snapshot_set_shmem(~0UL, ~0UL, 1, &P), SBI_ERR_INVALID_PARAM);
	assert_ok(stop(2, 1, 0), 0);
}

static void test_snapshot_take(void **state)
{
	const size_t pg = 4096;

	(void)state;
	assert_ok(pmu_snapshot_set_shmem(addr(pg), 0, 0, &P), 0);
	assert_ok(cfg(2, 1, PMU_CFG_AUTO_START, EV_DTLB_READ_MISS, 0), 2);
	assert_ok(cfg(3, 1, 0, EV_DTLB_READ_MISS, 0), 3);
	assert_ok(cfg(4, 1, PMU_CFG_AUTO_START, EV_DTLB_READ_MISS, 0), 4);
	assert_ok(cfg(FW0, 1, PMU_CFG_AUTO_START, EV_FW(4), 0), FW0);
	hw_ctr[4] = 1000;
	hw_tick(3);
	pmu_fw_event(&P, PMU_FW_ILLEGAL_INSN);
	/* idx 4 overflowed, idx 2 did not. */
	hw_evt[5] |= MHPMEVENT_OF;
	/* Set {2, 4}: slots 1+0 and 1+2; the bitmap is written whole (every
	 * logical counter relative to base 2): only idx 4 overflowed. */
	assert_ok(stop(2, 5, PMU_STOP_TAKE_SNAPSHOT), 0);
	assert_int_equal(*page_word(pg, 1), 3);
	assert_int_equal(*page_word(pg, 3), 3);
	assert_int_equal(*page_word(pg, 0), 4);
	for (unsigned int i = 0; i < 512; i++)
		if (i != 0 && i != 1 && i != 3)
			assert_int_equal(*page_word(pg, i), POISON);
	for (size_t i = 0; i < pg; i++)
		assert_int_equal(ram[i], 0xa5);
	/* Already stopped counters are written too (3 configured, value 1000),
	 * and firmware counters, at idx − base. */
	memset(ram + pg, 0xa5, pg);
	assert_ret(stop(3, 1UL | 1UL << (FW0 - 3), PMU_STOP_TAKE_SNAPSHOT),
		   SBI_ERR_ALREADY_STOPPED);
	assert_int_equal(*page_word(pg, 1), 1000);
	assert_int_equal(*page_word(pg, 1 + FW0 - 3), 1);
	/* idx 4 (OF still set, outside this set) is bit 1 from base 3 */
	assert_int_equal(*page_word(pg, 0), 2);
	for (unsigned int i = 2; i < 512; i++)
		if (i != 1 + FW0 - 3)
			assert_int_equal(*page_word(pg, i), POISON);
	/* INIT_SNAPSHOT loads counter_values[idx − base]. */
	*page_word(pg, 1) = 777;
	*page_word(pg, 3) = 888;
	hw_evt[5] |= MHPMEVENT_OF;
	assert_ok(start(2, 5, PMU_START_INIT_SNAPSHOT, 0), 0);
	assert_int_equal(hw_ctr[3], 777);
	assert_int_equal(hw_ctr[5], 888);
	assert_int_equal(hw_evt[5], EV_DTLB_READ_MISS);
	/* TAKE_SNAPSHOT with RESET: written, then freed. */
	hw_tick(2);
	assert_ok(stop(2, 1, PMU_STOP_TAKE_SNAPSHOT | PMU_STOP_RESET), 0);
	assert_int_equal(*page_word(pg, 1), 779);
	assert_ret(start(2, 1, 0, 0), SBI_ERR_INVALID_PARAM);
}

static void test_snapshot_overflow_sparse(void **state)
{
	(void)state;
	/* mhpmcounter3, 5, 31: logical 2, 3, 4. */
	hart((1u << 3) | (1u << 5) | (1u << 31), 48, true);
	assert_ok(pmu_snapshot_set_shmem(addr(0), 0, 0, &P), 0);
	assert_ok(cfg(2, 7, PMU_CFG_AUTO_START, EV_RAW, 1), 2);
	assert_ok(cfg(2, 7, PMU_CFG_AUTO_START, EV_RAW, 1), 3);
	assert_ok(cfg(2, 7, PMU_CFG_AUTO_START, EV_RAW, 1), 4);
	hw_evt[5] |= MHPMEVENT_OF;
	hw_evt[31] |= MHPMEVENT_OF;
	*page_word(0, 0) = 0;
	assert_ok(stop(1, 0xe, PMU_STOP_TAKE_SNAPSHOT), 0);
	/* base 1: idx 3 → bit 2, idx 4 → bit 3; idx 2 (mhpmcounter3) clear. */
	assert_int_equal(*page_word(0, 0), (1ULL << 2) | (1ULL << 3));
}

static void test_snapshot_without_sscofpmf(void **state)
{
	(void)state;
	assert_ok(pmu_snapshot_set_shmem(addr(0), 0, 0, &P), 0);
	assert_ok(cfg(2, 1, PMU_CFG_AUTO_START, EV_DTLB_READ_MISS, 0), 2);
	hw_evt[3] |= MHPMEVENT_OF;
	assert_ok(stop(2, 1, PMU_STOP_TAKE_SNAPSHOT), 0);
	assert_int_equal(*page_word(0, 0), 0);
	assert_int_equal(*page_word(0, 1), 0);
	assert_int_equal(*page_word(0, 2), POISON);
}

/* ---- firmware counters -------------------------------------------------- */

static void test_fw_counter_counts_only_while_running(void **state)
{
	(void)state;
	assert_ok(cfg(0, ALL_MASK, 0, EV_FW(PMU_FW_SET_TIMER), 0), FW0);
	pmu_fw_event(&P, PMU_FW_SET_TIMER);
	pmu_fw_event(&P, PMU_FW_SET_TIMER);
	assert_ok(pmu_counter_fw_read(FW0, &P), 0);
	assert_ok(start(FW0, 1, 0, 0), 0);
	pmu_fw_event(&P, PMU_FW_SET_TIMER);
	pmu_fw_event(&P, PMU_FW_IPI_SENT);      /* another event */
	assert_ok(pmu_counter_fw_read(FW0, &P), 1);
	pmu_fw_event(&P, PMU_FW_SET_TIMER);
	assert_ok(stop(FW0, 1, 0), 0);
	pmu_fw_event(&P, PMU_FW_SET_TIMER);
	assert_ok(pmu_counter_fw_read(FW0, &P), 2);
	/* Restart continues from the value; SET_INIT_VALUE replaces it. */
	assert_ok(start(FW0, 1, 0, 0), 0);
	pmu_fw_event(&P, PMU_FW_SET_TIMER);
	assert_ok(pmu_counter_fw_read(FW0, &P), 3);
	assert_ok(stop(FW0, 1, 0), 0);
	assert_ok(start(FW0, 1, PMU_START_SET_INIT_VALUE, 100), 0);
	pmu_fw_event(&P, PMU_FW_SET_TIMER);
	assert_ok(pmu_counter_fw_read(FW0, &P), 101);
	/* Two counters of one event both count. */
	assert_ok(cfg(0, ALL_MASK, PMU_CFG_AUTO_START, EV_FW(PMU_FW_SET_TIMER), 0), FW0 + 1);
	pmu_fw_event(&P, PMU_FW_SET_TIMER);
	assert_ok(pmu_counter_fw_read(FW0, &P), 102);
	assert_ok(pmu_counter_fw_read(FW0 + 1, &P), 1);
	assert_ok(pmu_counter_fw_read_hi(FW0, &P), 0);
	/* RESET frees it: it can no longer be started. */
	assert_ok(stop(FW0, 1, PMU_STOP_RESET), 0);
	assert_ret(start(FW0, 1, 0, 0), SBI_ERR_INVALID_PARAM);
}

static void test_fw_read_index_checks(void **state)
{
	(void)state;
	for (unsigned long i = 0; i < NHW; i++) {
		assert_ret(pmu_counter_fw_read(i, &P), SBI_ERR_INVALID_PARAM);
		assert_ret(pmu_counter_fw_read_hi(i, &P), SBI_ERR_INVALID_PARAM);
	}
	for (unsigned long i = FW0; i < NTOTAL; i++) {
		assert_ok(pmu_counter_fw_read(i, &P), 0);
		assert_ok(pmu_counter_fw_read_hi(i, &P), 0);
	}
	assert_ret(pmu_counter_fw_read(NTOTAL, &P), SBI_ERR_INVALID_PARAM);
	assert_ret(pmu_counter_fw_read(~0UL, &P), SBI_ERR_INVALID_PARAM);
	assert_ret(pmu_counter_fw_read_hi(NTOTAL, &P), SBI_ERR_INVALID_PARAM);
	assert_ret(pmu_counter_fw_read_hi(~0UL, &P), SBI_ERR_INVALID_PARAM);
}

static void test_fw_platform_event(void **state)
{
	(void)state;
	platform_count = 1000;
	assert_ok(cfg(0, ALL_MASK, 0, EV_FW(65535), 1), FW0);
	assert_ok(start(FW0, 1, PMU_START_SET_INIT_VALUE, 0), 0);
	platform_count += 25;
	assert_ok(pmu_counter_fw_read(FW0, &P), 25);
	assert_ok(stop(FW0, 1, 0), 0);
	platform_count += 25;
	assert_ok(pmu_counter_fw_read(FW0, &P), 25);
	assert_ok(start(FW0, 1, 0, 0), 0);
	platform_count += 5;
	assert_ok(pmu_counter_fw_read(FW0, &P), 30);
}

static void test_fw_impl_events_trap_counting(void **state)
{
	(void)state;
	assert_ok(cfg(0, ALL_MASK, 0, EV_FW(256), 0), FW0);
	assert_ok(cfg(0, ALL_MASK, 0, EV_FW(258), 0), FW0 + 1);
	assert_ok(cfg(0, ALL_MASK, 0, EV_FW(5), 0), FW0 + 2);
	assert_int_equal(trap_calls, 0);
	assert_ok(start(FW0 + 2, 1, 0, 0), 0);
	assert_int_equal(trap_calls, 0);
	assert_ok(start(FW0, 1, 0, 0), 0);
	assert_int_equal(trap_calls, 1);
	assert_true(trap_last);
	assert_ok(start(FW0 + 1, 1, 0, 0), 0);
	assert_int_equal(trap_calls, 1);
	P.fw_events.count[PMU_FW_SLOT(PMU_FW_SBI_CALLS)] += 4;   /* what trap.S does */
	assert_ok(pmu_counter_fw_read(FW0, &P), 4);
	assert_ok(stop(FW0, 1, 0), 0);
	assert_int_equal(trap_calls, 1);
	/* Stopping an already stopped one does not count down twice. */
	assert_ret(stop(FW0, 1, PMU_STOP_RESET), SBI_ERR_ALREADY_STOPPED);
	assert_int_equal(trap_calls, 1);
	assert_ok(stop(FW0 + 1, 1, 0), 0);
	assert_int_equal(trap_calls, 2);
	assert_false(trap_last);
	/* AUTO_START of one turns it on; hart re-init turns it off. */
	assert_ok(cfg(0, ALL_MASK, PMU_CFG_AUTO_START, EV_FW(257), 0), FW0);
	assert_int_equal(trap_calls, 3);
	assert_true(trap_last);
	pmu_hart_init(&P, QEMU_HPM, 48, true, true);
	assert_int_equal(trap_calls, 4);
	assert_false(trap_last);
}

/* ---- event_get_info ----------------------------------------------------- */

struct info {
	uint32_t event_idx;
	uint32_t output;
	uint64_t event_data;
};

static struct info *info_at(size_t off)
{
	return (struct info *)(ram + off);
}

static void test_event_info_checks(void **state)
{
	struct info *e = info_at(0);

	(void)state;
	e[0] = (struct info){ EV_CYCLES, 0x77, 0 };
	assert_ret(pmu_event_get_info(addr(0), 0, 1, 1, &P), SBI_ERR_INVALID_PARAM);
	assert_ret(pmu_event_get_info(addr(8), 0, 1, 0, &P), SBI_ERR_INVALID_PARAM);
	assert_ret(pmu_event_get_info(addr(0), 1, 1, 0, &P), SBI_ERR_INVALID_ADDRESS);
	assert_ret(pmu_event_get_info(addr(RAM_SIZE - 16), 0, 2, 0, &P),
		   SBI_ERR_INVALID_ADDRESS);
	assert_ret(pmu_event_get_info(addr(0) - 16, 0, 1, 0, &P), SBI_ERR_INVALID_ADDRESS);
	assert_ret(pmu_event_get_info(addr(0), 0, ~0UL, 0, &P), SBI_ERR_INVALID_ADDRESS);
	assert_ret(pmu_event_get_info(addr(0), 0, RAM_SIZE / 16 + 1, 0, &P),
		   SBI_ERR_INVALID_ADDRESS);
	assert_int_equal(e[0].output, 0x77);
	assert_ok(pmu_event_get_info(addr(0), 0, 0, 0, &P), 0);
	assert_int_equal(e[0].output, 0x77);
	/* A reserved bit in any entry: INVALID_PARAM, nothing written. */
	e[1] = (struct info){ 0x100001, 0x77, 0 };
	assert_ret(pmu_event_get_info(addr(0), 0, 2, 0, &P), SBI_ERR_INVALID_PARAM);
	assert_int_equal(e[0].output, 0x77);
	assert_int_equal(e[1].output, 0x77);
	/* The whole buffer is fine. */
	assert_ok(pmu_event_get_info(addr(0), 0, 1, 0, &P), 0);
	assert_int_equal(e[0].output, 1);
	for (unsigned int i = 0; i < RAM_SIZE / 16; i++)
		info_at(0)[i] = (struct info){ EV_INSTRET, 5, 0 };
	assert_ok(pmu_event_get_info(addr(0), 0, RAM_SIZE / 16, 0, &P), 0);
	for (unsigned int i = 0; i < RAM_SIZE / 16; i++)
		assert_int_equal(info_at(0)[i].output, 1);
}

static void test_event_info_outputs(void **state)
{
	static const struct { uint32_t event; uint64_t data; int64_t want; } c[] = {
		{ EV_CYCLES, 0, 1 },
		{ EV_INSTRET, 0, 1 },
		{ EV_DTLB_READ_MISS, 0, 1 },
		{ 0x1001a, 0, 0 },                  /* valid, not in the map */
		{ 3, 0, 0 },
		{ 0, 0, 0 },                        /* unsupported: written 0 */
		{ 11, 0, 0 },
		{ 0x40000, 0, 0 },
		{ EV_CYCLES, 0x1234, 1 },           /* event_data ignored for type 0 */
		{ EV_DTLB_READ_MISS, ~0ULL, 1 },    /* and type 1 */
		{ EV_RAW, 0x1234, 1 },
		{ EV_RAW2, (1ULL << 56) - 1, 1 },
		{ EV_RAW, 1ULL << 48, -1 },         /* invalid pair: untouched */
		{ EV_RAW2, 1ULL << 56, -1 },
		{ 0x20001, 0, -1 },
		{ EV_FW(5), 0, 1 },
		{ EV_FW(256), 0, 1 },
		{ EV_FW(5), 1, -1 },
		{ EV_FW(22), 0, 0 },
		{ EV_FW(65535), 1, 1 },
		{ EV_FW(65535), 2, 0 },
	};
	const size_t n = sizeof(c) / sizeof(c[0]);
	struct info *e = info_at(4096);

	(void)state;
	for (size_t i = 0; i < n; i++)
		e[i] = (struct info){ c[i].event, 0x77777777, c[i].data };
	assert_ok(pmu_event_get_info(addr(4096), 0, n, 0, &P), 0);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(e[i].event_idx, c[i].event);
		assert_int_equal(e[i].event_data, c[i].data);
		if (c[i].want < 0)
			assert_int_equal(e[i].output, 0x77777777);
		else
			assert_int_equal(e[i].output, c[i].want);
	}
	/* Bytes around the array untouched. */
	for (size_t i = 0; i < 4096; i++)
		assert_int_equal(ram[i], 0xa5);
	for (size_t i = 4096 + 16 * n; i < RAM_SIZE; i++)
		assert_int_equal(ram[i], 0xa5);
	/* Without HPM counters no cache or raw event can be counted here. */
	hart(0, 0, false);
	e[0] = (struct info){ EV_DTLB_READ_MISS, 9, 0 };
	e[1] = (struct info){ EV_RAW, 9, 5 };
	e[2] = (struct info){ EV_CYCLES, 9, 0 };
	assert_ok(pmu_event_get_info(addr(4096), 0, 3, 0, &P), 0);
	assert_int_equal(e[0].output, 0);
	assert_int_equal(e[1].output, 0);
	assert_int_equal(e[2].output, 1);
}

#define T(f)    cmocka_unit_test_setup(f, setup_qemu)
#define TD(f)   cmocka_unit_test_setup(f, setup_default_map)
#define TN(f)   cmocka_unit_test_setup(f, setup_no_sscofpmf)

static int group_setup(void **state)
{
	(void)state;
	ram = aligned_alloc(4096, RAM_SIZE);
	return ram ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	free(ram);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_num_counters_and_info),
		T(test_sparse_layout),
		T(test_no_mcountinhibit_firmware_counters_only),
		T(test_hart_init_state),
		T(test_counter_set_validation),
		T(test_empty_mask),
		T(test_reserved_flags),
		T(test_event_validity),
		T(test_match_cycle_instret),
		TN(test_match_cycle_instret_fixed_first),
		T(test_match_cycle_instret_overflowing_first),
		T(test_match_lowest_free_then_stopped),
		T(test_match_firmware_only_on_fw_counters),
		TD(test_match_raw_default),
		T(test_skip_match),
		T(test_auto_start_and_clear_value),
		T(test_mhpmevent_filter_bits),
		TN(test_mhpmevent_without_sscofpmf),
		T(test_event_csr_readback),
		T(test_start_free_counter),
		T(test_start_clears_of_and_sets_value),
		T(test_stop_semantics),
		T(test_single_counter_paths),
		T(test_reset_cycle_instret_uninhibits),
		T(test_snapshot_set_shmem),
		T(test_snapshot_take),
		T(test_snapshot_overflow_sparse),
		TN(test_snapshot_without_sscofpmf),
		T(test_fw_counter_counts_only_while_running),
		T(test_fw_read_index_checks),
		T(test_fw_platform_event),
		T(test_fw_impl_events_trap_counting),
		T(test_event_info_checks),
		T(test_event_info_outputs),
		T(test_empty_mask_large_base),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
