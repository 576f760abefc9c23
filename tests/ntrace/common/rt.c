// SPDX-License-Identifier: BSD-2-Clause
/* Runtime of the N-Trace corpus programs (see rt.h). */
#include "rt.h"

void rt_exit(int code)
{
    volatile uint32_t *test = (volatile uint32_t *)VIRT_TEST_BASE;

    *test = code == 0 ? VIRT_TEST_PASS
                      : ((uint32_t)code << 16) | VIRT_TEST_FAIL;
    for (;;)
        ;
}

void rt_puts(const char *s)
{
    volatile uint8_t *uart = (volatile uint8_t *)VIRT_UART_BASE;

    /* QEMU's 16550 transmits at once: no need to poll LSR. */
    while (*s)
        *uart = (uint8_t)*s++;
}

__attribute__((weak)) uintptr_t prog_trap(uintptr_t cause, uintptr_t epc,
                                          uintptr_t tval)
{
    (void)epc;
    (void)tval;
    /* An unexpected trap: report the cause in the exit code. */
    rt_exit(0x100 | (int)(cause & 0xff));
}

uintptr_t rt_trap(uintptr_t cause, uintptr_t epc, uintptr_t tval)
{
    return prog_trap(cause, epc, tval);
}

unsigned rt_insn_len(uintptr_t pc)
{
    /* Base ISA: the two low bits are 11 for 32-bit encodings. */
    return (*(volatile uint16_t *)pc & 3u) == 3u ? 4u : 2u;
}

uint32_t rt_rand(uint32_t *state)
{
    uint32_t x = *state;

    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

void *memset(void *d, int c, size_t n)
{
    uint8_t *p = d;

    while (n--)
        *p++ = (uint8_t)c;
    return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
    uint8_t *p = d;
    const uint8_t *q = s;

    while (n--)
        *p++ = *q++;
    return d;
}

uint64_t mtime_read(void)
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

void mtimecmp_write(uint64_t when)
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
