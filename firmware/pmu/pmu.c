// SPDX-License-Identifier: BSD-2-Clause
/*
 * SBI PMU logical counters (SBI spec, "Performance Monitoring Unit
 * Extension"; the choices it leaves open are in docs/PMU.md).
 *
 * Logical counter i < hw_count is hardware counter hw_num[i]; the rest are
 * firmware counters.  A firmware counter reads a per-hart event count (its
 * `source`) and keeps value = count at stop, or value at start + (source
 * now − source at start) while running, so counting an event is one
 * increment wherever it happens (pmu_fw_event).
 *
 * QEMU 7.2 returns the last written value when a stopped counter is read,
 * so a stop reads the live value first and writes it back after
 * inhibiting, and a start writes the value after uninhibiting (a write is
 * where QEMU takes its new origin).  On hardware this costs two CSR
 * accesses and changes nothing.
 */
#include <stddef.h>
#include "firmware/pmu/pmu.h"
#include "firmware/pmu/pmu_hw.h"
#include "firmware/core/platform.h"

struct pmu_map pmu_event_map;

#define EVENT_TYPE(e) ((unsigned int)((e) >> 16) & 0xf)
#define EVENT_CODE(e) ((unsigned int)(e) & 0xffff)

/* Firmware counters: the type bit, and width 63 (64 bits) although the spec
 * says to ignore it: Linux 6.1 masks firmware counter deltas with it. */
#define COUNTER_INFO_FW ((1UL << 63) | (63UL << 12))
#define CSR_CYCLE_BASE  0xC00

enum event_check { EVENT_OK, EVENT_INVALID, EVENT_UNSUPPORTED };

static unsigned int counter_total(const struct pmu_hart *p)
{
	return p->hw_count + PMU_FW_COUNTERS;
}

/*
 * A counter set as a bitmap of logical indexes (at most 63 counters, so
 * one 64-bit word).  Any selected index past the last counter makes the
 * whole set invalid.
 */
static bool counter_set(const struct pmu_hart *p, unsigned long base, unsigned long mask,
			uint64_t *set)
{
	unsigned long total = counter_total(p);

	*set = 0;
	if (!mask)
		return true;
	if (base >= total || (mask >> (total - base)))
		return false;
	*set = (uint64_t)mask << base;
	return true;
}

/* Lowest set bit's index without Zbb (and without libgcc's loop): the
 * isolated bit times a de Bruijn constant puts a unique pattern in the
 * top six bits. */
static unsigned int lowest_bit(uint64_t x)
{
	static const uint8_t index_of[64] = {
		0, 1, 2, 53, 3, 7, 54, 27, 4, 38, 41, 8, 34, 55, 48, 28,
		62, 5, 39, 46, 44, 42, 22, 9, 24, 35, 59, 56, 49, 18, 29, 11,
		63, 52, 6, 26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
		51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
	};

	return index_of[((x & -x) * 0x022fdd63cc95386dULL) >> 58];
}

static unsigned int next_counter(uint64_t *set)
{
	unsigned int i = lowest_bit(*set);

	*set &= *set - 1;
	return i;
}

/* ---- events ---- */

static bool fw_event_known(unsigned int code)
{
	return code < PMU_FW_STD_COUNT || (code >= PMU_FW_SBI_CALLS && code <= PMU_FW_IMPL_LAST);
}

/* Is (event_idx, event_data) well formed, and one tracesbi can count? */
static enum event_check event_check(unsigned long event_idx, uint64_t data)
{
	unsigned int code = EVENT_CODE(event_idx);

	if (event_idx >> 20)
		return EVENT_INVALID;
	switch (EVENT_TYPE(event_idx)) {
	case 0:
		/* Non-zero event_data is reserved; code 0 is "unused event". */
		if (data)
			return EVENT_INVALID;
		return code >= 1 && code <= 10 ? EVENT_OK : EVENT_UNSUPPORTED;
	case 1:
		if (data)
			return EVENT_INVALID;
		/* cache_id 0..6, op_id 0..2 (SBI PMU "Hardware cache events") */
		return (code >> 3) <= 6 && ((code >> 1) & 3) <= 2 ? EVENT_OK : EVENT_UNSUPPORTED;
	case 2:
		/* code must be zero; event_data carries mhpmevent[47:0]. */
		return code || (data >> 48) ? EVENT_INVALID : EVENT_OK;
	case 3:
		/* raw v2: mhpmevent[55:0]. */
		return code || (data >> 56) ? EVENT_INVALID : EVENT_OK;
	case 15:
		if (code == PMU_FW_PLATFORM)
			return platform_pmu_event_valid(data) ? EVENT_OK : EVENT_UNSUPPORTED;
		if (data)
			return EVENT_INVALID;
		return fw_event_known(code) ? EVENT_OK : EVENT_UNSUPPORTED;
	default:
		return EVENT_UNSUPPORTED;
	}
}

static bool event_is_fw(unsigned long event_idx)
{
	return EVENT_TYPE(event_idx) == 15;
}

/* The logical counters of this hart that can count a (checked) event:
 * every firmware counter for a firmware event, else the hardware counters
 * the event map names.  Computed once per call. */
static uint64_t counters_for_event(const struct pmu_hart *p, unsigned long event_idx,
				   uint64_t data)
{
	uint64_t fits = 0;
	uint32_t ctrs;

	if (event_is_fw(event_idx))
		return ((1ULL << PMU_FW_COUNTERS) - 1) << p->hw_count;
	ctrs = pmu_map_counters(&pmu_event_map, (uint32_t)event_idx, data);
	/* cycle → 0, instret → 1; with mhpmcounter3..N all present, HPM
	 * counter n → n − 1 (as overflowed_counters). */
	if (p->hpm_contiguous)
		return (ctrs & 1u) | ((ctrs >> PMU_HW_INSTRET) & 1u) << 1 |
		       (uint64_t)(ctrs & p->hpm_mask) >> 1;
	for (unsigned int i = 0; i < p->hw_count; i++)
		if ((ctrs >> p->hw_num[i]) & 1)
			fits |= 1ULL << i;
	return fits;
}

/* ---- firmware counters ---- */

/*
 * A firmware counter's value is always *source + offset: while it runs,
 * source is the event's per-hart count and offset = value at start − count
 * at start; while stopped, source is a constant zero and offset the value.
 * So counter_fw_read is two loads and an add.  Platform events (source
 * NULL while running) ask the platform.
 */
const uint64_t pmu_zero_source;   /* (ecall_pmu_fast.S freezes with it too) */

static uint64_t fw_source_read(const struct pmu_fw_counter *c)
{
	return c->source ? *c->source : platform_pmu_event_read(c->event_data);
}

static uint64_t fw_counter_value(const struct pmu_fw_counter *c)
{
	return fw_source_read(c) + c->offset;
}

static bool fw_event_is_impl(uint32_t event_idx)
{
	unsigned int code = EVENT_CODE(event_idx);

	return code >= PMU_FW_SBI_CALLS && code <= PMU_FW_IMPL_LAST;
}

static void impl_running_changed(struct pmu_hart *p, int delta)
{
	uint32_t before = p->impl_running;

	p->impl_running = (uint32_t)((int)before + delta);
	if (!before != !p->impl_running)
		pmu_trap_counting(p->impl_running != 0);
}

static void fw_counter_configure(struct pmu_fw_counter *c, uint32_t event_idx, uint64_t data)
{
	c->event_idx = event_idx;
	c->event_data = data;
}

/* The count a running counter of this event reads. */
static const volatile uint64_t *fw_event_source(struct pmu_hart *p, uint32_t event_idx)
{
	unsigned int code = EVENT_CODE(event_idx);

	return code == PMU_FW_PLATFORM ? NULL : &p->fw_events.count[PMU_FW_SLOT(code)];
}

static void fw_counter_start(struct pmu_hart *p, struct pmu_fw_counter *c, uint64_t value)
{
	c->source = fw_event_source(p, c->event_idx);
	c->offset = value - fw_source_read(c);
	if (fw_event_is_impl(c->event_idx))
		impl_running_changed(p, 1);
}

/* Keep `value` from now on (a stopped counter). */
static void fw_counter_freeze(struct pmu_fw_counter *c, uint64_t value)
{
	c->source = &pmu_zero_source;
	c->offset = value;
}

static uint64_t fw_counter_stop(struct pmu_hart *p, struct pmu_fw_counter *c)
{
	uint64_t value = fw_counter_value(c);

	fw_counter_freeze(c, value);
	if (fw_event_is_impl(c->event_idx))
		impl_running_changed(p, -1);
	return value;
}

static void fw_counter_set_value(struct pmu_fw_counter *c, uint64_t value)
{
	c->offset = value - fw_source_read(c);
}

/* ---- hardware counters ---- */

static bool hw_is_hpm(unsigned int n)
{
	return n >= PMU_HPM_FIRST;
}

static uint64_t filter_bits(const struct pmu_hart *p, unsigned long flags)
{
	uint64_t bits = 0;

	/* config_flags[7:3] are hints; without Sscofpmf there is nowhere to
	 * put them (SBI PMU, counter_config_matching NOTE). */
	if (!p->sscofpmf)
		return 0;
	if (flags & PMU_CFG_SET_VUINH)
		bits |= MHPMEVENT_VUINH;
	if (flags & PMU_CFG_SET_VSINH)
		bits |= MHPMEVENT_VSINH;
	if (flags & PMU_CFG_SET_UINH)
		bits |= MHPMEVENT_UINH;
	if (flags & PMU_CFG_SET_SINH)
		bits |= MHPMEVENT_SINH;
	if (flags & PMU_CFG_SET_MINH)
		bits |= MHPMEVENT_MINH;
	return bits;
}

static void hw_counter_configure(struct pmu_hart *p, unsigned int i, uint32_t event_idx,
				 uint64_t data, unsigned long flags)
{
	struct pmu_hw_counter *c = &p->hw[i];
	unsigned int n = p->hw_num[i];

	/* A configured counter does not count until started, mcycle and
	 * minstret included. */
	pmu_hw_inhibit(1u << n);
	if (hw_is_hpm(n)) {
		/* The upper 8 bits are the firmware's (raw v2: "based on
		 * privilege specification definition"). */
		c->mhpmevent = (pmu_map_mhpmevent(&pmu_event_map, event_idx, data) &
				((1ULL << 56) - 1)) | filter_bits(p, flags);
		pmu_hw_event_write(n, c->mhpmevent);
	}
}

static void hw_counter_start(struct pmu_hart *p, unsigned int i, bool set, uint64_t value)
{
	unsigned int n = p->hw_num[i];

	if (!set)
		value = pmu_hw_counter_read(n);
	/* Sscofpmf: OF is cleared when the counter starts afresh, so the next
	 * overflow raises LCOFI again (c->mhpmevent has OF clear). */
	pmu_hw_counter_start(n, p->hw[i].mhpmevent, value);
}

static uint64_t hw_counter_stop(struct pmu_hart *p, unsigned int i)
{
	return pmu_hw_counter_stop(p->hw_num[i]);
}

static void hw_counter_reset(struct pmu_hart *p, unsigned int i)
{
	unsigned int n = p->hw_num[i];

	p->hw[i].mhpmevent = 0;
	if (hw_is_hpm(n))
		pmu_hw_event_write(n, 0);
	else
		pmu_hw_uninhibit(1u << n);   /* free mcycle/minstret run, as at boot */
}

/* OF bits by hardware number → by logical index.  With mhpmcounter3..N
 * all present (the usual case) logical index = hardware number − 1. */
static uint64_t overflowed_counters(const struct pmu_hart *p, unsigned long hw_overflow)
{
	uint64_t logical = 0;

	hw_overflow &= p->hpm_mask;
	if (p->hpm_contiguous)
		return (uint64_t)hw_overflow >> 1;
	if (!hw_overflow)
		return 0;
	for (unsigned int i = 2; i < p->hw_count; i++)
		if ((hw_overflow >> p->hw_num[i]) & 1)
			logical |= 1ULL << i;
	return logical;
}

/* ---- logical counters ---- */

static uint64_t counter_value(const struct pmu_hart *p, unsigned int idx)
{
	if (idx < p->hw_count)
		return pmu_hw_counter_read(p->hw_num[idx]);
	return fw_counter_value(&p->fw[idx - p->hw_count]);
}

static void counter_start(struct pmu_hart *p, unsigned int idx, bool set, uint64_t value)
{
	struct pmu_fw_counter *c;

	p->state[idx] = PMU_RUNNING;
	if (idx < p->hw_count) {
		hw_counter_start(p, idx, set, value);
		return;
	}
	c = &p->fw[idx - p->hw_count];
	fw_counter_start(p, c, set ? value : c->offset);
}

/* Stop a running counter; its value at the stop. */
static uint64_t counter_stop(struct pmu_hart *p, unsigned int idx)
{
	p->state[idx] = PMU_CONFIGURED;
	if (idx < p->hw_count)
		return hw_counter_stop(p, idx);
	return fw_counter_stop(p, &p->fw[idx - p->hw_count]);
}

static void counter_reset(struct pmu_hart *p, unsigned int idx)
{
	struct pmu_fw_counter *c;

	p->state[idx] = PMU_FREE;
	if (idx < p->hw_count) {
		hw_counter_reset(p, idx);
		return;
	}
	c = &p->fw[idx - p->hw_count];
	c->event_idx = 0;
	c->event_data = 0;
}

/* The lowest counter of `s` in `state`, or -1. */
static int lowest_in_state(const struct pmu_hart *p, uint64_t s, uint8_t state)
{
	while (s) {
		unsigned int idx = next_counter(&s);

		if (p->state[idx] == state)
			return (int)idx;
	}
	return -1;
}

/* Counters whose overflow raises LCOFI: with Sscofpmf, the HPM counters
 * (only mhpmevent3..31 have an OF bit; mcycle and minstret never overflow
 * into an interrupt). */
static uint64_t overflowing_counters(const struct pmu_hart *p)
{
	if (!p->sscofpmf || p->hw_count <= 2)
		return 0;
	return ((1ULL << p->hw_count) - 1) & ~3ULL;
}

/*
 * config_matching's choice among the counters of `set` that fit: a free
 * one, else a configured (stopped) one; with SKIP_MATCH the lowest of the
 * set.  Where counters can overflow (Sscofpmf), those are taken first: the
 * caller may sample with the counter (Linux perf does, starting it with
 * SET_INIT_VALUE and waiting for LCOFI), and cycle/instret would count
 * but never interrupt.  Without Sscofpmf the fixed counters go first,
 * which leaves the HPM counters to events only they can count.
 */
static int counter_pick(const struct pmu_hart *p, uint64_t set, bool skip_match, uint64_t fits)
{
	uint64_t first = set & fits & overflowing_counters(p);
	int idx;

	if (skip_match) {
		uint64_t s = set;

		idx = (int)next_counter(&s);
		if (p->state[idx] == PMU_RUNNING || !((fits >> idx) & 1))
			return -1;
		return idx;
	}
	set &= fits;
	idx = lowest_in_state(p, first, PMU_FREE);
	if (idx < 0)
		idx = lowest_in_state(p, set, PMU_FREE);
	if (idx < 0)
		idx = lowest_in_state(p, first, PMU_CONFIGURED);
	if (idx < 0)
		idx = lowest_in_state(p, set, PMU_CONFIGURED);
	return idx;
}

/* ---- snapshot page ---- */

static volatile uint64_t *snapshot_page(const struct pmu_hart *p)
{
	return (volatile uint64_t *)(uintptr_t)p->snapshot_addr;
}

/* ---- the SBI functions ---- */

struct sbiret pmu_num_counters(struct pmu_hart *p)
{
	return SBI_RET(SBI_SUCCESS, counter_total(p));
}

struct sbiret pmu_counter_get_info(unsigned long idx, struct pmu_hart *p)
{
	unsigned int n, width;

	if (idx >= counter_total(p))
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	if (idx >= p->hw_count)
		return SBI_RET(SBI_SUCCESS, COUNTER_INFO_FW);
	n = p->hw_num[idx];
	width = hw_is_hpm(n) ? p->hpm_width : 64;
	/* counter_info: [11:0] CSR, [17:12] width − 1 (the S-mode CSR number,
	 * which is what S-mode reads). */
	return SBI_RET(SBI_SUCCESS, (unsigned long)(CSR_CYCLE_BASE + n) |
				    (unsigned long)(width - 1) << 12);
}

struct sbiret pmu_counter_config_matching(unsigned long base,
					  unsigned long mask, unsigned long flags,
					  unsigned long event_idx, uint64_t event_data, struct pmu_hart *p)
{
	uint64_t set;
	int idx;

	if (flags & ~PMU_CFG_ALL)
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	if (!counter_set(p, base, mask, &set))
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	/* The error table has INVALID_PARAM for counters and flags only: an
	 * event nobody can count, malformed or not, is NOT_SUPPORTED. */
	if (event_check(event_idx, event_data) != EVENT_OK)
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	if (!set)
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);
	idx = counter_pick(p, set, flags & PMU_CFG_SKIP_MATCH,
			   counters_for_event(p, event_idx, event_data));
	if (idx < 0)
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);

	p->state[idx] = PMU_CONFIGURED;
	if ((unsigned int)idx < p->hw_count) {
		hw_counter_configure(p, (unsigned int)idx, (uint32_t)event_idx, event_data, flags);
		if (flags & PMU_CFG_CLEAR_VALUE)
			pmu_hw_counter_write(p->hw_num[idx], 0);
	} else {
		struct pmu_fw_counter *c = &p->fw[(unsigned int)idx - p->hw_count];

		fw_counter_configure(c, (uint32_t)event_idx, event_data);
		if (flags & PMU_CFG_CLEAR_VALUE)
			fw_counter_set_value(c, 0);
	}
	/* AUTO_START "has no impact on the counter value". */
	if (flags & PMU_CFG_AUTO_START)
		counter_start(p, (unsigned int)idx, false, 0);
	return SBI_RET(SBI_SUCCESS, idx);
}

static __attribute__((noinline)) struct sbiret
pmu_counter_start_set(unsigned long base, unsigned long mask,
		  unsigned long flags, uint64_t initial_value, struct pmu_hart *p)
{
	uint64_t set, s;
	long ret = SBI_SUCCESS;

	if (flags & ~(PMU_START_SET_INIT_VALUE | PMU_START_INIT_SNAPSHOT))
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	/* "mutually exclusive as the former is only valid for a single counter" */
	if ((flags & PMU_START_SET_INIT_VALUE) && (flags & PMU_START_INIT_SNAPSHOT))
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	if (!counter_set(p, base, mask, &set))
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	for (s = set; s;)
		if (p->state[next_counter(&s)] == PMU_FREE)
			return SBI_ERR(SBI_ERR_INVALID_PARAM);
	if ((flags & PMU_START_INIT_SNAPSHOT) && !p->snapshot_on)
		return SBI_ERR(SBI_ERR_NO_SHMEM);

	for (s = set; s;) {
		unsigned int idx = next_counter(&s);

		if (p->state[idx] == PMU_RUNNING) {
			ret = SBI_ERR_ALREADY_STARTED;
			continue;
		}
		if (flags & PMU_START_INIT_SNAPSHOT)
			counter_start(p, idx, true, snapshot_page(p)[1 + idx - base]);
		else
			counter_start(p, idx, flags & PMU_START_SET_INIT_VALUE, initial_value);
	}
	return SBI_ERR(ret);
}

/*
 * Stop a set of HPM counters (hardware numbers `hwset`, all within 3..31,
 * mhpmcounter3..N contiguous so logical index = number − 1), optionally
 * writing each value to page[n] (the caller offsets the page): one
 * mcountinhibit write stops them all at once, then straight-line code, one
 * block per counter number with the CSR numbers in the instructions,
 * entered at the highest block the set can need, reads each value and
 * writes it back.  A block whose bit is clear costs two instructions.  A
 * stopped counter goes through it too, which leaves its value as it is.
 * States: RUNNING 2 → CONFIGURED 1, CONFIGURED stays, FREE 0 stays, which
 * is "state != 0"; the AND of the old states keeps bit 1 (RUNNING) only
 * when every counter was running.  Returns whether every counter of the
 * set was running.
 */
_Static_assert(PMU_RUNNING == 2 && PMU_CONFIGURED == 1 && PMU_FREE == 0, "stop_hpm_blocks");
#define STOP_HPM_BLOCK(i)                                                      \
	do {                                                                   \
		if ((int64_t)bits < 0) {                                       \
			uint64_t v;                                            \
			unsigned long st = p->state[(i) - 1];                  \
			PMU_HW_FREEZE_N(i, v);                                 \
			if (snapshot)                                          \
				page[i] = v;                                   \
			states &= st;                                          \
			p->state[(i) - 1] = st != 0;                           \
		}                                                              \
		bits <<= 1;                                                    \
	} while (0)

static inline __attribute__((always_inline)) unsigned long
stop_hpm_blocks(struct pmu_hart *p, unsigned long hwset, bool snapshot, volatile uint64_t *page)
{
	uint64_t bits = (uint64_t)hwset << 32;   /* bit 31 at the top */
	unsigned long states = PMU_RUNNING;

	pmu_hw_inhibit_set(hwset);
	if (!(hwset >> 16)) {
		if (!(hwset >> 12)) {
			bits <<= 20;
			goto from_11;
		}
		bits <<= 16;
		goto from_15;
	}
	STOP_HPM_BLOCK(31); STOP_HPM_BLOCK(30); STOP_HPM_BLOCK(29); STOP_HPM_BLOCK(28);
	STOP_HPM_BLOCK(27); STOP_HPM_BLOCK(26); STOP_HPM_BLOCK(25); STOP_HPM_BLOCK(24);
	STOP_HPM_BLOCK(23); STOP_HPM_BLOCK(22); STOP_HPM_BLOCK(21); STOP_HPM_BLOCK(20);
	STOP_HPM_BLOCK(19); STOP_HPM_BLOCK(18); STOP_HPM_BLOCK(17); STOP_HPM_BLOCK(16);
from_15:
	STOP_HPM_BLOCK(15); STOP_HPM_BLOCK(14); STOP_HPM_BLOCK(13); STOP_HPM_BLOCK(12);
from_11:
	STOP_HPM_BLOCK(11); STOP_HPM_BLOCK(10); STOP_HPM_BLOCK(9); STOP_HPM_BLOCK(8);
	STOP_HPM_BLOCK(7); STOP_HPM_BLOCK(6); STOP_HPM_BLOCK(5); STOP_HPM_BLOCK(4);
	STOP_HPM_BLOCK(3);
	return states >> 1;
}

/* Whether counter_stop of (base, mask) may take stop_hpm_set: HPM
 * counters, no firmware counter, mhpmcounter3..N contiguous. */
static inline __attribute__((always_inline)) bool
hpm_set_fast(const struct pmu_hart *p, unsigned long base, unsigned long mask)
{
	return mask && p->hpm_contiguous && base >= 2 && base < p->hw_count &&
	       !(mask >> (p->hw_count - base));
}

/* counter_stop of a set of HPM counters, without RESET: what a kernel
 * stops at once, with the checks and results of pmu_counter_stop_set and
 * no stack frame.  page[1 + idx − base] is page[n − base] for hardware
 * number n = idx + 1. */
static __attribute__((noinline)) struct sbiret
stop_hpm_set(struct pmu_hart *p, unsigned long base, unsigned long mask, unsigned long flags)
{
	/* below bit 32: hpm_set_fast checked the mask against hw_count */
	unsigned long hwset = mask << (base + 1);
	unsigned long hw_overflow = 0;
	volatile uint64_t *page;
	unsigned long all_running;

	if (!flags)
		return SBI_ERR(stop_hpm_blocks(p, hwset, false, NULL) ?
			       SBI_SUCCESS : SBI_ERR_ALREADY_STOPPED);
	if (!p->snapshot_on)
		return SBI_ERR(SBI_ERR_NO_SHMEM);
	if (p->sscofpmf)
		hw_overflow = pmu_hw_overflowed();
	page = snapshot_page(p);
	all_running = stop_hpm_blocks(p, hwset, true,
				      (volatile uint64_t *)(uintptr_t)(p->snapshot_addr - 8 * base));
	page[0] = overflowed_counters(p, hw_overflow) >> base;
	return SBI_ERR(all_running ? SBI_SUCCESS : SBI_ERR_ALREADY_STOPPED);
}

static __attribute__((noinline)) struct sbiret
pmu_counter_stop_set(unsigned long base, unsigned long mask,
		 unsigned long flags, struct pmu_hart *p)
{
	volatile uint64_t *page = snapshot_page(p);
	bool snapshot = flags & PMU_STOP_TAKE_SNAPSHOT;
	uint64_t set, s;
	unsigned long hw_overflow = 0;
	long ret = SBI_SUCCESS;

	if (flags & ~(PMU_STOP_RESET | PMU_STOP_TAKE_SNAPSHOT))
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	if (!counter_set(p, base, mask, &set))
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	if (snapshot && !p->snapshot_on)
		return SBI_ERR(SBI_ERR_NO_SHMEM);
	if (!set)
		return SBI_ERR(SBI_SUCCESS);   /* and base may be anything */
	if (snapshot && p->sscofpmf)
		hw_overflow = pmu_hw_overflowed();

	for (s = set; s;) {
		unsigned int idx = next_counter(&s);
		uint64_t value;

		if (p->state[idx] == PMU_RUNNING) {
			value = counter_stop(p, idx);
		} else {
			ret = SBI_ERR_ALREADY_STOPPED;
			if (!snapshot)
				continue;
			value = counter_value(p, idx);
		}
		/* Every counter of the set, stopped now or before, is written
		 * at idx − base; nothing else of the page is. */
		if (snapshot)
			page[1 + idx - base] = value;
	}
	/* "A bitmap of all logical overflown counters relative to
	 * counter_idx_base", from OF of the HPM counters, written whole: the
	 * stopped set's counters and every other one (no bit for a counter
	 * that does not exist).  It is "valid only if the Sscofpmf ISA
	 * extension is available.  Otherwise, it must be zero." */
	if (snapshot)
		page[0] = overflowed_counters(p, hw_overflow) >> base;
	if (flags & PMU_STOP_RESET)
		for (s = set; s;)
			counter_reset(p, next_counter(&s));
	return SBI_ERR(ret);
}

static __attribute__((noinline)) uint64_t fw_platform_value(const struct pmu_fw_counter *c)
{
	return platform_pmu_event_read(c->event_data) + c->offset;
}

/* On every read of a firmware counter S-mode makes: kept to a bounds
 * check and two loads. */
struct sbiret pmu_counter_fw_read(unsigned long idx, struct pmu_hart *p)
{
	unsigned long fw = idx - p->hw_count;   /* wraps for a hardware idx */
	const struct pmu_fw_counter *c;

	if (fw >= PMU_FW_COUNTERS)
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	c = &p->fw[fw];
	if (!c->source)
		return SBI_RET(SBI_SUCCESS, fw_platform_value(c));
	return SBI_RET(SBI_SUCCESS, *c->source + c->offset);
}

struct sbiret pmu_counter_fw_read_hi(unsigned long idx, struct pmu_hart *p)
{
	if (idx < p->hw_count || idx >= counter_total(p))
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	return SBI_RET(SBI_SUCCESS, 0);   /* "always returns zero ... for RV64" */
}

struct sbiret pmu_snapshot_set_shmem(unsigned long lo, unsigned long hi,
				     unsigned long flags, struct pmu_hart *p)
{
	if (flags)
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	if (lo == (unsigned long)-1 && hi == (unsigned long)-1) {
		p->snapshot_on = false;
		p->snapshot_addr = 0;
		return SBI_ERR(SBI_SUCCESS);
	}
	if (lo & (PMU_SNAPSHOT_SIZE - 1))
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	/* RV64: a physical address has no upper half; then "accessible
	 * physical addresses" S-mode may use (binary encoding, shared memory
	 * physical address range parameter). */
	if (hi || !platform_smode_range_ok(lo, PMU_SNAPSHOT_SIZE))
		return SBI_ERR(SBI_ERR_INVALID_ADDRESS);
	p->snapshot_addr = lo;
	p->snapshot_on = true;
	return SBI_ERR(SBI_SUCCESS);
}

struct pmu_event_info {
	uint32_t event_idx;
	uint32_t output;
	uint64_t event_data;
};
_Static_assert(sizeof(struct pmu_event_info) == 16, "event info entry is 16 bytes");

struct sbiret pmu_event_get_info(unsigned long lo, unsigned long hi,
				 unsigned long num_entries, unsigned long flags, struct pmu_hart *p)
{
	volatile struct pmu_event_info *e = (volatile struct pmu_event_info *)(uintptr_t)lo;
	unsigned long i;

	if (flags || (lo & 15))
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	if (hi || num_entries > (unsigned long)-1 / sizeof(*e))
		return SBI_ERR(SBI_ERR_INVALID_ADDRESS);
	if (!num_entries)
		return SBI_ERR(SBI_SUCCESS);
	if (!platform_smode_range_ok(lo, num_entries * sizeof(*e)))
		return SBI_ERR(SBI_ERR_INVALID_ADDRESS);
	/* Reserved event_idx bits anywhere: nothing is written. */
	for (i = 0; i < num_entries; i++)
		if (e[i].event_idx >> 20)
			return SBI_ERR(SBI_ERR_INVALID_PARAM);
	for (i = 0; i < num_entries; i++) {
		uint32_t event_idx = e[i].event_idx;
		uint64_t data = e[i].event_data;
		unsigned int type = EVENT_TYPE(event_idx);
		enum event_check check;

		/* event_data is only defined for types 2, 3 and 15. */
		if (type != 2 && type != 3 && type != 15)
			data = 0;
		check = event_check(event_idx, data);
		/* Entries that are not a valid event_idx/event_data pair are
		 * left alone ("MUST update ... if valid"). */
		if (check == EVENT_INVALID)
			continue;
		e[i].output = check == EVENT_OK && counters_for_event(p, event_idx, data) != 0;
	}
	return SBI_ERR(SBI_SUCCESS);
}

/*
 * counter_start of one counter (a mask with one bit) is what a kernel does
 * on every context switch and overflow: those calls, whatever their
 * flags, are served here, with the checks, their order and the results of
 * the set path above; every other call goes there.  The usual case (start
 * a configured counter) runs in straight line without a stack frame; the
 * rest (errors, a started counter) costs one more jump.  A counter index
 * past the last counter has state PMU_FREE, so the state check is the
 * range check too.  (The stop of one counter: ecall_pmu_fast.S.)
 */
#define STATE_SLOTS sizeof(((struct pmu_hart *)0)->state)

/* The counter of a mask with one bit other than bit 0, or false. */
static inline __attribute__((always_inline)) bool
single_counter(unsigned long base, unsigned long mask, unsigned long *idx)
{
	if (!mask || (mask & (mask - 1)) || base >= STATE_SLOTS)
		return false;
	*idx = base + lowest_bit(mask);
	return true;
}

/* A firmware counter of a standard event (not a platform one, not one of
 * tracesbi's own, which change the trap vector): the only kind whose
 * start needs no call, so its path has no stack frame (and whose stop
 * ecall_pmu_fast.S serves). */
static bool fw_counter_is_plain(const struct pmu_fw_counter *c)
{
	return EVENT_CODE(c->event_idx) < PMU_FW_STD_COUNT;
}

static __attribute__((noinline)) struct sbiret
fw_counter_start_slow(struct pmu_hart *p, struct pmu_fw_counter *c, uint64_t value)
{
	fw_counter_start(p, c, value);
	return SBI_ERR(SBI_SUCCESS);
}

static inline __attribute__((always_inline)) struct sbiret
fw_counter_start_one(struct pmu_hart *p, unsigned long idx, bool set, uint64_t value)
{
	struct pmu_fw_counter *c = &p->fw[idx - p->hw_count];
	const volatile uint64_t *source;

	if (!set)
		value = c->offset;
	if (!fw_counter_is_plain(c))
		return fw_counter_start_slow(p, c, value);
	source = &p->fw_events.count[EVENT_CODE(c->event_idx)];
	c->source = source;
	c->offset = value - *source;
	return SBI_ERR(SBI_SUCCESS);
}

/* Start a configured counter: from `value` when `set`, else from where it
 * stopped. */
static inline __attribute__((always_inline)) struct sbiret
start_configured(struct pmu_hart *p, unsigned long idx, bool set, uint64_t value)
{
	p->state[idx] = PMU_RUNNING;
	if (idx >= p->hw_count)
		return fw_counter_start_one(p, idx, set, value);
	/* The event is rewritten: a new start clears OF (QEMU 7.2 sets OF of
	 * every counter counting cycles or instructions whenever any
	 * counter's overflow timer fires, so it often is set). */
	if (set)
		pmu_hw_counter_start(p->hw_num[idx], p->hw[idx].mhpmevent, value);
	else
		pmu_hw_counter_resume(p->hw_num[idx], p->hw[idx].mhpmevent);
	return SBI_ERR(SBI_SUCCESS);
}

/* Everything but a plain start of a configured counter. */
static __attribute__((noinline)) struct sbiret
start_one_other(struct pmu_hart *p, unsigned long base, unsigned long idx,
		unsigned long flags, uint64_t value)
{
	uint8_t state = p->state[idx];

	if (state == PMU_FREE)
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	if (flags & PMU_START_INIT_SNAPSHOT) {
		if (!p->snapshot_on)
			return SBI_ERR(SBI_ERR_NO_SHMEM);
		value = snapshot_page(p)[1 + idx - base];
	}
	if (state == PMU_RUNNING)
		return SBI_ERR(SBI_ERR_ALREADY_STARTED);
	return start_configured(p, idx, true, value);
}

struct sbiret pmu_counter_start(unsigned long base, unsigned long mask,
				unsigned long flags, uint64_t initial_value, struct pmu_hart *p)
{
	unsigned long idx = base;

	if ((mask != 1 && !single_counter(base, mask, &idx)) || idx >= STATE_SLOTS ||
	    flags > PMU_START_INIT_SNAPSHOT)
		return pmu_counter_start_set(base, mask, flags, initial_value, p);
	if (p->state[idx] != PMU_CONFIGURED)
		return start_one_other(p, base, idx, flags, initial_value);
	if (flags == PMU_START_INIT_SNAPSHOT) {
		if (!p->snapshot_on)
			return SBI_ERR(SBI_ERR_NO_SHMEM);
		initial_value = snapshot_page(p)[1 + idx - base];
	}
	return start_configured(p, idx, flags, initial_value);
}

/*
 * counter_stop.  ecall_pmu_fast.S is the rule for the stop of one running
 * counter (mask 1: a hardware counter, or a firmware counter of a
 * standard event without TAKE_SNAPSHOT) and comes here with everything
 * else: a set of HPM counters (one or several) without RESET takes
 * stop_hpm_set, the rest the general path.
 */
struct sbiret pmu_counter_stop(unsigned long base, unsigned long mask,
			       unsigned long flags, struct pmu_hart *p)
{
	if (!(flags & ~PMU_STOP_TAKE_SNAPSHOT) && hpm_set_fast(p, base, mask))
		return stop_hpm_set(p, base, mask, flags);
	return pmu_counter_stop_set(base, mask, flags, p);
}

/* The counter CSRs on the cold paths (event read-back, hart init,
 * suspend, resume): one out-of-line copy of each per-counter switch
 * instead of one inlined into every caller, as the hot paths have. */
static __attribute__((noinline)) uint64_t cold_counter_read(unsigned int n)
{
	return pmu_hw_counter_read(n);
}

static __attribute__((noinline)) void cold_counter_write(unsigned int n, uint64_t value)
{
	pmu_hw_counter_write(n, value);
}

static __attribute__((noinline)) uint64_t cold_event_read(unsigned int n)
{
	return pmu_hw_event_read(n);
}

static __attribute__((noinline)) void cold_event_write(unsigned int n, uint64_t value)
{
	pmu_hw_event_write(n, value);
}

/*
 * tracesbi's own extension (sbi/ecall_tracesbi.c): the mhpmevent value behind a
 * logical counter, OF and the filter bits included, so S-mode can check
 * what config_matching programmed (S-mode cannot read mhpmevent).
 */
struct sbiret pmu_counter_event_csr(unsigned long idx, struct pmu_hart *p)
{
	if (idx >= counter_total(p))
		return SBI_ERR(SBI_ERR_INVALID_PARAM);
	if (idx >= p->hw_count || !hw_is_hpm(p->hw_num[idx]))
		return SBI_ERR(SBI_ERR_NOT_SUPPORTED);   /* no event CSR */
	return SBI_RET(SBI_SUCCESS, cold_event_read(p->hw_num[idx]));
}

/* ---- per-hart life cycle ---- */

void pmu_hart_init(struct pmu_hart *p, uint32_t hpm_mask, unsigned int hpm_width,
		   bool sscofpmf, bool mcountinhibit)
{
	unsigned int i, n;

	if (p->impl_running)
		pmu_trap_counting(false);
	*p = (struct pmu_hart){ 0 };
	for (i = 0; i < PMU_FW_COUNTERS; i++)
		p->fw[i].source = &pmu_zero_source;
	/* Counters that cannot be stopped cannot be SBI PMU counters (start
	 * and stop are the interface): the firmware ones are all there is. */
	if (!mcountinhibit)
		return;
	p->sscofpmf = sscofpmf;
	p->hpm_width = (uint8_t)(hpm_width ? hpm_width : 64);
	p->hw_num[p->hw_count++] = PMU_HW_CYCLE;
	p->hw_num[p->hw_count++] = PMU_HW_INSTRET;
	for (n = PMU_HPM_FIRST; n < 32; n++)
		if ((hpm_mask >> n) & 1)
			p->hw_num[p->hw_count++] = (uint8_t)n;
	p->hpm_mask = hpm_mask & PMU_HPM_ALL;
	/* mhpmcounter3..N without holes (a mask of the form 0b1..1000). */
	p->hpm_contiguous = ((p->hpm_mask >> PMU_HPM_FIRST) & ((p->hpm_mask >> PMU_HPM_FIRST) + 1)) == 0;
	/* Every HPM counter stopped, no event, value 0; mcycle and minstret
	 * keep running for software that never asks the PMU. */
	pmu_hw_inhibit(p->hpm_mask);
	pmu_hw_uninhibit((1u << PMU_HW_CYCLE) | (1u << PMU_HW_INSTRET));
	for (i = 2; i < p->hw_count; i++) {
		cold_event_write(p->hw_num[i], 0);
		cold_counter_write(p->hw_num[i], 0);
	}
}

void pmu_hart_suspend(struct pmu_hart *p)
{
	for (unsigned int i = 0; i < p->hw_count; i++) {
		unsigned int n = p->hw_num[i];

		if (p->state[i] == PMU_FREE)
			continue;
		p->hw_saved[i].value = cold_counter_read(n);
		pmu_hw_inhibit(1u << n);
		if (hw_is_hpm(n))
			p->hw_saved[i].event = cold_event_read(n);   /* with OF */
	}
}

void pmu_hart_resume(struct pmu_hart *p)
{
	for (unsigned int i = 0; i < p->hw_count; i++) {
		unsigned int n = p->hw_num[i];

		if (p->state[i] == PMU_FREE)
			continue;
		if (hw_is_hpm(n))
			cold_event_write(n, p->hw_saved[i].event);
		if (p->state[i] == PMU_RUNNING)
			pmu_hw_uninhibit(1u << n);
		cold_counter_write(n, p->hw_saved[i].value);
	}
}

