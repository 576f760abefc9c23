// SPDX-License-Identifier: BSD-2-Clause
/* Corpus: CLINT machine-timer interrupts.  The handler counts ticks and
 * re-arms mtimecmp; the main program computes, and later waits with WFI,
 * until enough ticks were seen.  Interrupted instructions have not retired:
 * the interrupt follows the last retired one. */
#include "../common/rt.h"

#define TICK_INTERVAL 40        /* mtime ticks (10 MHz: 100 instr each) */
#define TICKS_BUSY    16
#define TICKS_TOTAL   24

static volatile unsigned ticks;

uintptr_t prog_trap(uintptr_t cause, uintptr_t epc, uintptr_t tval)
{
    (void)tval;
    if (cause != (MCAUSE_INTERRUPT | IRQ_M_TIMER))
        rt_exit(0x100 | (int)(cause & 0xff));
    ticks++;
    if (ticks >= TICKS_TOTAL)
        mtimecmp_write(UINT64_MAX);
    else
        mtimecmp_write(mtime_read() + TICK_INTERVAL);
    return epc;
}

static __attribute__((noinline)) uint32_t busy_step(uint32_t x)
{
    for (int i = 0; i < 16; i++)
        x = x * 1103515245u + 12345u;
    return x;
}

int main(void)
{
    uint32_t x = 1;

    mtimecmp_write(mtime_read() + TICK_INTERVAL);
    csr_set(mie, MIP_MTIP);
    csr_set(mstatus, MSTATUS_MIE);
    while (ticks < TICKS_BUSY)
        x = busy_step(x);
    while (ticks < TICKS_TOTAL)
        __asm__ volatile("wfi");
    csr_clear(mstatus, MSTATUS_MIE);
    return x == 0 ? 1 : 0;
}
