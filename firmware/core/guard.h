/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Trap guards: run one instruction that may trap (probing a CSR that may not
 * exist, an MPRV access to S-mode memory) with mtvec pointed at
 * guard_trap_handler (guard_handler.S), which skips the instruction and
 * reports mcause + 1 in t1 and mtval in t2 (not t3..t6, which the firmware
 * never touches: see mk/80-firmware.mk).  A guarded sequence must be built
 * only of 4-byte instructions (.option norvc) so the skip is exact.
 */
#ifndef FIRMWARE_GUARD_H
#define FIRMWARE_GUARD_H

void guard_trap_handler(void);

/* Evaluates to 0 when the CSR read worked, or 1 + mcause. */
#define csr_read_guarded(csr, out) __csr_read_guarded(csr, out)
#define csr_write_guarded(csr, val) __csr_write_guarded(csr, val)
#define __csr_read_guarded(csr, out) ({                                        \
	register unsigned long __flag __asm__("t1");                         \
	register unsigned long __tval __asm__("t2");                         \
	unsigned long __v = 0, __old;                                        \
	__asm__ __volatile__(".option push\n.option norvc\n"                 \
		"li t1, 0\n"                                                  \
		"csrrw %[old], mtvec, %[g]\n"                                 \
		"csrr %[v], " #csr "\n"                                       \
		"csrw mtvec, %[old]\n"                                        \
		".option pop\n"                                               \
		: [v] "+&r"(__v), [old] "=&r"(__old), "=&r"(__flag),         \
		  "=&r"(__tval)                                               \
		: [g] "r"(guard_trap_handler) : "memory");                    \
	(void)__tval;                                                         \
	*(out) = __v;                                                         \
	__flag; })

#define __csr_write_guarded(csr, val) ({                                       \
	register unsigned long __flag __asm__("t1");                         \
	register unsigned long __tval __asm__("t2");                         \
	unsigned long __old;                                                  \
	__asm__ __volatile__(".option push\n.option norvc\n"                 \
		"li t1, 0\n"                                                  \
		"csrrw %[old], mtvec, %[g]\n"                                 \
		"csrw " #csr ", %[v]\n"                                       \
		"csrw mtvec, %[old]\n"                                        \
		".option pop\n"                                               \
		: [old] "=&r"(__old), "=&r"(__flag), "=&r"(__tval)           \
		: [g] "r"(guard_trap_handler), [v] "r"((unsigned long)(val))  \
		: "memory");                                                  \
	(void)__tval;                                                         \
	__flag; })

/* Numbered CSRs (pmpaddrN, mhpmcounterN, ...) by number: 0 or 1 + mcause.
 * Only the ranges listed in guard.c are supported; others return 1 + 2. */
unsigned long csr_read_num(unsigned int csr, unsigned long *val);
unsigned long csr_write_num(unsigned int csr, unsigned long val);

/* A 64-bit physical load that may fault: 0 or 1 + mcause. */
static inline unsigned long load_u64_guarded(unsigned long addr, unsigned long *out)
{
	register unsigned long flag __asm__("t1");
	register unsigned long tval __asm__("t2");
	unsigned long v = 0, old;

	__asm__ __volatile__(".option push\n.option norvc\n"
		"li t1, 0\n"
		"csrrw %[old], mtvec, %[g]\n"
		"ld %[v], 0(%[a])\n"
		"csrw mtvec, %[old]\n"
		".option pop\n"
		: [v] "+&r"(v), [old] "=&r"(old), "=&r"(flag), "=&r"(tval)
		: [g] "r"(guard_trap_handler), [a] "r"(addr) : "memory");
	(void)tval;
	*out = v;
	return flag;
}

#endif
