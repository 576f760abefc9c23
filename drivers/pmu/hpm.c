// SPDX-License-Identifier: BSD-2-Clause
/*
 * Counter CSR access by number.  CSR numbers are immediates, so each number
 * is a case of a switch the compiler turns into a jump table.  Only numbers
 * probing found implemented reach here, so no trap guard is needed.
 */
#include "pmu_hw.h"
#include "riscv_csr.h"

#define REP8(M, b)  M(b+0) M(b+1) M(b+2) M(b+3) M(b+4) M(b+5) M(b+6) M(b+7)
#define REP32(M, b) REP8(M, b) REP8(M, b+8) REP8(M, b+16) REP8(M, b+24)

#define STR(x) #x
#define CSR_READ(csr) ({ uint64_t __v; \
	__asm__ __volatile__("csrr %0, " STR(csr) : "=r"(__v)); __v; })
#define CSR_WRITE(csr, v) \
	__asm__ __volatile__("csrw " STR(csr) ", %0" :: "r"(v) : "memory")

#define COUNTER_READ(n)  case (n) - 0xB00: return CSR_READ(n);
#define COUNTER_WRITE(n) case (n) - 0xB00: CSR_WRITE(n, value); return;
#define EVENT_READ(n)    case (n) - 0x320: return CSR_READ(n);
#define EVENT_WRITE(n)   case (n) - 0x320: CSR_WRITE(n, value); return;

uint64_t pmu_hw_counter_read(unsigned int n)
{
	switch (n) {
	REP32(COUNTER_READ, 0xB00)
	}
	return 0;
}

void pmu_hw_counter_write(unsigned int n, uint64_t value)
{
	switch (n) {
	REP32(COUNTER_WRITE, 0xB00)
	}
}

/* mhpmevent3..31 are 0x323..0x33F; 0x320 is mcountinhibit, not an event. */
uint64_t pmu_hw_event_read(unsigned int n)
{
	switch (n) {
	REP8(EVENT_READ, 0x323) REP8(EVENT_READ, 0x32B) REP8(EVENT_READ, 0x333)
	EVENT_READ(0x33B) EVENT_READ(0x33C) EVENT_READ(0x33D) EVENT_READ(0x33E)
	EVENT_READ(0x33F)
	}
	return 0;
}

void pmu_hw_event_write(unsigned int n, uint64_t value)
{
	switch (n) {
	REP8(EVENT_WRITE, 0x323) REP8(EVENT_WRITE, 0x32B) REP8(EVENT_WRITE, 0x333)
	EVENT_WRITE(0x33B) EVENT_WRITE(0x33C) EVENT_WRITE(0x33D) EVENT_WRITE(0x33E)
	EVENT_WRITE(0x33F)
	}
}

void pmu_hw_inhibit(uint32_t counters)
{
	csr_set(CSR_MCOUNTINHIBIT, (unsigned long)counters);
}

void pmu_hw_uninhibit(uint32_t counters)
{
	csr_clear(CSR_MCOUNTINHIBIT, (unsigned long)counters);
}
