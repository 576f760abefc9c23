// SPDX-License-Identifier: BSD-2-Clause
/* Corpus: synchronous exceptions (ECALL, EBREAK, an illegal instruction)
 * taken to the trap handler, which skips the trapping instruction and
 * returns with MRET.  Per the N-Trace ingress port these instructions do not
 * retire: the trap follows the previous retired instruction. */
#include "../common/rt.h"

#define ROUNDS 80

static unsigned ecalls, ebreaks, illegals;
static uintptr_t ecall_arg_sum;

uintptr_t prog_trap(uintptr_t cause, uintptr_t epc, uintptr_t tval)
{
    (void)tval;
    switch (cause) {
    case CAUSE_ECALL_M:
        ecalls++;
        break;
    case CAUSE_BREAKPOINT:
        ebreaks++;
        break;
    case CAUSE_ILLEGAL_INSN:
        illegals++;
        break;
    default:
        rt_exit(0x100 | (int)(cause & 0xff));
    }
    return epc + rt_insn_len(epc);
}

static __attribute__((noinline)) void do_ecall(uintptr_t arg)
{
    register uintptr_t a0 __asm__("a0") = arg;

    ecall_arg_sum += arg;
    __asm__ volatile("ecall" : "+r"(a0) :: "memory");
}

static __attribute__((noinline)) void do_ebreak(void)
{
    /* A 32-bit EBREAK; c.ebreak is tested by the next one. */
    __asm__ volatile(".option push\n.option norvc\nebreak\n.option pop"
                     ::: "memory");
}

static __attribute__((noinline)) void do_c_ebreak(void)
{
    __asm__ volatile("c.ebreak" ::: "memory");
}

static __attribute__((noinline)) void do_illegal(void)
{
    /* All-zero 16-bit encoding: defined to be illegal. */
    __asm__ volatile(".2byte 0" ::: "memory");
}

static __attribute__((noinline)) unsigned work(unsigned n)
{
    unsigned s = 0;

    for (unsigned i = 0; i < n; i++)
        s += i ^ (s >> 3);
    return s;
}

int main(void)
{
    unsigned sink = 0;

    for (unsigned i = 0; i < ROUNDS; i++) {
        sink += work(20 + i);
        do_ecall(i);
        if (i % 3 == 0)
            do_ebreak();
        if (i % 4 == 1)
            do_c_ebreak();
        if (i % 5 == 2)
            do_illegal();
    }
    /* Back-to-back traps: an ECALL right after another one returned. */
    __asm__ volatile("ecall\n ecall" ::: "memory");
    if (ecalls != ROUNDS + 2 || ebreaks != 27 + 20 || illegals != 16)
        return 1;
    if (ecall_arg_sum != ROUNDS * (ROUNDS - 1) / 2)
        return 2;
    return sink == 0 ? 3 : 0;
}
