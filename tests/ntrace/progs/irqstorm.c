// SPDX-License-Identifier: BSD-2-Clause
/* Corpus: frequent machine-timer interrupts at pseudo-random intervals over
 * a call-heavy workload (recursive Fibonacci), so that interrupts land right
 * after every kind of instruction: calls, returns, taken and not-taken
 * branches, jumps.  The interrupted program must still compute the right
 * values. */
#include "../common/rt.h"

#define TICKS_WANTED 300

static volatile unsigned ticks;
static uint32_t interval_seed = 12345;

uintptr_t prog_trap(uintptr_t cause, uintptr_t epc, uintptr_t tval)
{
    (void)tval;
    if (cause != (MCAUSE_INTERRUPT | IRQ_M_TIMER))
        rt_exit(0x100 | (int)(cause & 0xff));
    ticks++;
    /* 1..4 mtime ticks = about 100..400 instructions. */
    mtimecmp_write(mtime_read() + 1 + rt_rand(&interval_seed) % 4);
    return epc;
}

static __attribute__((noinline)) unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
    unsigned rounds = 0;

    mtimecmp_write(mtime_read() + 2);
    csr_set(mie, MIP_MTIP);
    csr_set(mstatus, MSTATUS_MIE);
    while (ticks < TICKS_WANTED) {
        if (fib(10) != 55)
            return 1;
        rounds++;
    }
    csr_clear(mstatus, MSTATUS_MIE);
    mtimecmp_write(UINT64_MAX);
    return rounds ? 0 : 2;
}
