/* Corpus: CLINT machine-timer interrupts.  The handler counts ticks and
 * re-arms mtimecmp; the main program computes, and later waits with WFI,
 * until enough ticks were seen.  Interrupted instructions have not retired:
 * the interrupt follows the last retired one. */
#include "../common/rt.h"

#define TICK_INTERVAL 40        /* mtime ticks (10 MHz: 100 instr each) */
#define TICKS_BUSY    16
#define TICKS_TOTAL   24

static volatile unsigned ticks;

static uint64_t mtime_read(void)
{
#if __riscv_xlen == 64
    return *(volatile uint64_t *)CLINT_MTIME;
#else
    volatile uint32_t *mt = (volatile uint32_t *)CLINT_MTIME;
    uint32_t hi, lo;

    do {
        hi = mt[1];
        lo = mt[0];
    } while (mt[1] != hi);
    return ((uint64_t)hi << 32) | lo;
#endif
}

static void mtimecmp_write(uint64_t when)
{
#if __riscv_xlen == 64
    *(volatile uint64_t *)CLINT_MTIMECMP0 = when;
#else
    volatile uint32_t *cmp = (volatile uint32_t *)CLINT_MTIMECMP0;

    /* Privileged spec 3.2.1: avoid a spurious match while updating. */
    cmp[0] = 0xffffffffu;
    cmp[1] = (uint32_t)(when >> 32);
    cmp[0] = (uint32_t)when;
#endif
}

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
