/* SPDX-License-Identifier: BSD-2-Clause */
/* Tiny runtime of the N-Trace corpus programs: exit through the sifive,test
 * device, a polled UART, memory helpers and the trap hook. */
#ifndef NTRACE_CORPUS_RT_H
#define NTRACE_CORPUS_RT_H

#include <stddef.h>
#include <stdint.h>

/* QEMU virt devices. */
#define VIRT_TEST_BASE     0x100000UL
#define VIRT_TEST_PASS     0x5555u
#define VIRT_TEST_FAIL     0x3333u
#define VIRT_UART_BASE     0x10000000UL
#define CLINT_MTIMECMP0    0x2004000UL
#define CLINT_MTIME        0x200bff8UL

#define MCAUSE_INTERRUPT   ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))
#define CAUSE_ILLEGAL_INSN 2u
#define CAUSE_BREAKPOINT   3u
#define CAUSE_ECALL_M      11u
#define IRQ_M_TIMER        7u
#define MIP_MTIP           (1u << IRQ_M_TIMER)
#define MSTATUS_MIE        (1u << 3)

/* main() returns 0 on success, or a small failure code. */
int main(void);
__attribute__((noreturn)) void rt_exit(int code);
/* CLINT machine timer of hart 0 (torn-read/-write safe on RV32). */
uint64_t mtime_read(void);
void mtimecmp_write(uint64_t when);
void rt_puts(const char *s);

/* Called by the trap entry; returns the pc to resume at.  A program that
 * expects traps defines prog_trap(); the default one fails the run. */
uintptr_t rt_trap(uintptr_t cause, uintptr_t epc, uintptr_t tval);
uintptr_t prog_trap(uintptr_t cause, uintptr_t epc, uintptr_t tval);

/* Length in bytes of the instruction at pc (2 or 4). */
unsigned rt_insn_len(uintptr_t pc);

/* Deterministic pseudo-random numbers (xorshift32). */
uint32_t rt_rand(uint32_t *state);

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);

#define csr_read(name) ({ uintptr_t v_; \
    __asm__ volatile("csrr %0, " #name : "=r"(v_)); v_; })
#define csr_write(name, val) \
    __asm__ volatile("csrw " #name ", %0" :: "r"((uintptr_t)(val)))
#define csr_set(name, val) \
    __asm__ volatile("csrs " #name ", %0" :: "r"((uintptr_t)(val)))
#define csr_clear(name, val) \
    __asm__ volatile("csrc " #name ", %0" :: "r"((uintptr_t)(val)))

#endif
