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
