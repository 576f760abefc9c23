/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The hart's counter CSRs by hardware number (0 mcycle, 2 minstret, 3..31
 * mhpmcounterN, with mhpmeventN for 3..31), inline: the start and stop
 * paths stay leaf functions without a stack frame.  Callers pass only
 * numbers probing found implemented, so no trap guard is needed.  Host
 * tests define PMU_HW_FAKE and supply all of these.
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

#if defined(__riscv) && !defined(PMU_HW_FAKE)
/* A switch over the 32 numbers: a jump table without a bounds check.  The
 * numbers are stringified into CSR operands, hence no parentheses. */
// NOLINTBEGIN(bugprone-macro-parentheses)
#define PMU_HW_STR(x) #x
#define PMU_HW_REP8(M, b) M(b+0) M(b+1) M(b+2) M(b+3) M(b+4) M(b+5) M(b+6) M(b+7)
#define PMU_HW_REP32(M) PMU_HW_REP8(M, 0) PMU_HW_REP8(M, 8) PMU_HW_REP8(M, 16) \
	PMU_HW_REP8(M, 24)
#define PMU_HW_READ_CASE(i) case i: __asm__ __volatile__( \
	"csrr %0, " PMU_HW_STR(0xB00 + i) : "=r"(v)); break;
#define PMU_HW_WRITE_CASE(i) case i: __asm__ __volatile__( \
	"csrw " PMU_HW_STR(0xB00 + i) ", %0" :: "r"(value) : "memory"); break;
/* mhpmevent3..31 are 0x323..0x33F (0x320 is mcountinhibit: never passed). */
#define PMU_HW_EVENT_READ_CASE(i) case i: if (i >= 3) __asm__ __volatile__( \
	"csrr %0, " PMU_HW_STR(0x320 + i) : "=r"(v)); break;
#define PMU_HW_EVENT_WRITE_CASE(i) case i: if (i >= 3) __asm__ __volatile__( \
	"csrw " PMU_HW_STR(0x320 + i) ", %0" :: "r"(value) : "memory"); break;

static inline __attribute__((always_inline)) uint64_t pmu_hw_counter_read(unsigned int n)
{
	uint64_t v = 0;

	switch (n & 31) {
	PMU_HW_REP32(PMU_HW_READ_CASE)
	}
	return v;
}

static inline __attribute__((always_inline)) void pmu_hw_counter_write(unsigned int n, uint64_t value)
{
	switch (n & 31) {
	PMU_HW_REP32(PMU_HW_WRITE_CASE)
	}
}

static inline __attribute__((always_inline)) uint64_t pmu_hw_event_read(unsigned int n)
{
	uint64_t v = 0;

	switch (n & 31) {
	PMU_HW_REP32(PMU_HW_EVENT_READ_CASE)
	}
	return v;
}

static inline __attribute__((always_inline)) void pmu_hw_event_write(unsigned int n,
								     uint64_t value)
{
	switch (n & 31) {
	PMU_HW_REP32(PMU_HW_EVENT_WRITE_CASE)
	}
}

/*
 * Start counter n: its event (3..31; OF clear in `mhpmevent`), then
 * uninhibit, then the value — QEMU 7.2 takes a running counter's origin
 * from the write.  Stop: read the live value, inhibit, write it back (QEMU
 * 7.2 reads a stopped counter as its last written value).  One jump per
 * call, all CSR accesses in the case.
 *
 * Before an HPM counter starts, it is written once with PMU_HW_SCRUB
 * while still inhibited.  QEMU 7.2 (target/riscv/pmu.c) keeps, per
 * counter, a remainder `irq_overflow_left` for overflows more than
 * INT64_MAX ns away: a counter written with a value such as Linux's
 * counting start 0x8000000000000001 leaves a positive remainder that only
 * the overflow timer clears, and the first overflow of a later sampling
 * start on that counter is then spent re-arming the timer that far ahead:
 * no LCOFI, no sample (Linux perf record on a hart that had run perf stat
 * got none).  A written value v in (now, 2^62) makes the remainder
 * negative, i.e. none; the real value written next sets it afresh when it
 * needs one.  On hardware the extra write is overwritten before the
 * counter runs.  docs/PMU.md, "QEMU 7.2".
 */
#define PMU_HW_SCRUB (1ULL << 61)
#define PMU_HW_START_CASE(i) case i: __asm__ __volatile__( \
	".if " PMU_HW_STR(i) " >= 3\n csrw " PMU_HW_STR(0x320 + i) ", %0\n" \
	"csrw " PMU_HW_STR(0xB00 + i) ", %3\n .endif\n" \
	"csrc 0x320, %1\n csrw " PMU_HW_STR(0xB00 + i) ", %2" \
	:: "r"(mhpmevent), "r"(1UL << (i)), "r"(value), "r"(scrub) : "memory"); break;
#define PMU_HW_STOP_CASE(i) case i: __asm__ __volatile__( \
	"csrr %0, " PMU_HW_STR(0xB00 + i) "\n csrs 0x320, %1\n" \
	"csrw " PMU_HW_STR(0xB00 + i) ", %0" : "=&r"(v) : "r"(1UL << (i)) : "memory"); break;

/* PMU_HW_SCRUB in a register before the switch, not rebuilt in each case. */
static inline __attribute__((always_inline)) uint64_t pmu_hw_scrub_value(void)
{
	uint64_t v;

	__asm__("" : "=r"(v) : "0"(PMU_HW_SCRUB));
	return v;
}

static inline __attribute__((always_inline)) void
pmu_hw_counter_start(unsigned int n, uint64_t mhpmevent, uint64_t value)
{
	uint64_t scrub = pmu_hw_scrub_value();

	switch (n & 31) {
	PMU_HW_REP32(PMU_HW_START_CASE)
	}
}

/* Start counter n from the value it stopped at (QEMU 7.2: read while
 * inhibited, it is the last value written, which the stop wrote), with
 * the scrub write of PMU_HW_START_CASE between the read and the start. */
#define PMU_HW_RESUME_CASE(i) case i: __asm__ __volatile__( \
	".if " PMU_HW_STR(i) " >= 3\n csrw " PMU_HW_STR(0x320 + i) ", %1\n .endif\n" \
	"csrr %0, " PMU_HW_STR(0xB00 + i) "\n" \
	".if " PMU_HW_STR(i) " >= 3\n csrw " PMU_HW_STR(0xB00 + i) ", %3\n .endif\n" \
	"csrc 0x320, %2\n csrw " PMU_HW_STR(0xB00 + i) ", %0" \
	: "=&r"(v) : "r"(mhpmevent), "r"(1UL << (i)), "r"(scrub) : "memory"); break;

static inline __attribute__((always_inline)) void
pmu_hw_counter_resume(unsigned int n, uint64_t mhpmevent)
{
	uint64_t scrub = pmu_hw_scrub_value();
	uint64_t v;

	switch (n & 31) {
	PMU_HW_REP32(PMU_HW_RESUME_CASE)
	}
}

static inline __attribute__((always_inline)) uint64_t pmu_hw_counter_stop(unsigned int n)
{
	uint64_t v = 0;

	switch (n & 31) {
	PMU_HW_REP32(PMU_HW_STOP_CASE)
	}
	return v;
}

/* Stop and free counter n: the stop, then no event for 3..31, and for
 * mcycle/minstret uninhibit again (free ones run, as at boot). */
#define PMU_HW_STOP_FREE_CASE(i) case i: __asm__ __volatile__( \
	"csrr %0, " PMU_HW_STR(0xB00 + i) "\n csrs 0x320, %1\n" \
	"csrw " PMU_HW_STR(0xB00 + i) ", %0\n" \
	".if " PMU_HW_STR(i) " >= 3\n csrw " PMU_HW_STR(0x320 + i) ", zero\n" \
	".else\n csrc 0x320, %1\n .endif" : "=&r"(v) : "r"(1UL << (i)) : "memory"); break;

static inline __attribute__((always_inline)) uint64_t pmu_hw_counter_stop_free(unsigned int n)
{
	uint64_t v = 0;

	switch (n & 31) {
	PMU_HW_REP32(PMU_HW_STOP_FREE_CASE)
	}
	return v;
}

/* The stop sequence of counter i (3..31) with its number in the
 * instructions, for code unrolled over the counters (pmu.c). */
#define PMU_HW_STOP_N(i, v) __asm__ __volatile__( \
	"csrr %0, " PMU_HW_STR(0xB00 + i) "\n csrs 0x320, %1\n" \
	"csrw " PMU_HW_STR(0xB00 + i) ", %0" : "=&r"(v) : "r"(1UL << (i)) : "memory")
/* Counter i (3..31), already inhibited, read and written back: S-mode
 * reads of a stopped counter then return that value (what the write-back
 * of the stop sequence is for). */
#define PMU_HW_FREEZE_N(i, v) __asm__ __volatile__( \
	"csrr %0, " PMU_HW_STR(0xB00 + i) "\n csrw " PMU_HW_STR(0xB00 + i) ", %0" \
	: "=&r"(v) :: "memory")
// NOLINTEND(bugprone-macro-parentheses)

static inline void pmu_hw_inhibit(uint32_t counters)
{
	__asm__ __volatile__("csrs 0x320, %0" :: "r"((unsigned long)counters) : "memory");
}

/* pmu_hw_inhibit of a set already below bit 32 (no zero extension). */
static inline void pmu_hw_inhibit_set(unsigned long counters)
{
	__asm__ __volatile__("csrs 0x320, %0" :: "r"(counters) : "memory");
}

static inline void pmu_hw_uninhibit(uint32_t counters)
{
	__asm__ __volatile__("csrc 0x320, %0" :: "r"((unsigned long)counters) : "memory");
}

/* Sscofpmf: bit n set when mhpmeventN.OF is (scountovf as M-mode sees it:
 * every bit, mcounteren masks S-mode reads only). */
static inline unsigned long pmu_hw_overflowed(void)
{
	unsigned long v;

	__asm__ __volatile__("csrr %0, 0xDA0" : "=r"(v));
	return v;
}
#else
uint64_t pmu_hw_event_read(unsigned int n);          /* n >= 3 */
void pmu_hw_event_write(unsigned int n, uint64_t value);
uint64_t pmu_hw_counter_read(unsigned int n);
void pmu_hw_counter_write(unsigned int n, uint64_t value);
void pmu_hw_inhibit(uint32_t counters);
#define pmu_hw_inhibit_set(counters) pmu_hw_inhibit((uint32_t)(counters))
void pmu_hw_uninhibit(uint32_t counters);
unsigned long pmu_hw_overflowed(void);

static inline void pmu_hw_counter_start(unsigned int n, uint64_t mhpmevent, uint64_t value)
{
	if (n >= 3)
		pmu_hw_event_write(n, mhpmevent);
	pmu_hw_uninhibit(1u << n);
	pmu_hw_counter_write(n, value);
}

static inline void pmu_hw_counter_resume(unsigned int n, uint64_t mhpmevent)
{
	pmu_hw_counter_start(n, mhpmevent, pmu_hw_counter_read(n));
}

static inline uint64_t pmu_hw_counter_stop(unsigned int n)
{
	uint64_t v = pmu_hw_counter_read(n);

	pmu_hw_inhibit(1u << n);
	pmu_hw_counter_write(n, v);
	return v;
}

#define PMU_HW_STOP_N(i, v) ((v) = pmu_hw_counter_stop(i))
#define PMU_HW_FREEZE_N(i, v) ((v) = pmu_hw_counter_read(i), pmu_hw_counter_write(i, v))

static inline uint64_t pmu_hw_counter_stop_free(unsigned int n)
{
	uint64_t v = pmu_hw_counter_stop(n);

	if (n >= 3)
		pmu_hw_event_write(n, 0);
	else
		pmu_hw_uninhibit(1u << n);
	return v;
}
#endif

#endif
