/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CSRs the CTR hardware path touches, by number, each under a trap
 * guard (a hart may lack any of them): 0 or 1 + mcause, like guard.h's
 * csr_read_num.  Host tests define CTR_HW_FAKE and supply both functions
 * (a fake CSR file, as the PMU's tests do).
 */
#ifndef DRIVERS_CTR_HW_CSR_H
#define DRIVERS_CTR_HW_CSR_H

#include "drivers/ctr/ctr_spec.h"

#define CSR_HSTATEEN0 0x60C
#define CSR_MSTATEEN0_NUM 0x30C

#if defined(__riscv) && !defined(CTR_HW_FAKE)
#include "firmware/core/guard.h"

/* One case per CSR: the number is an operand of the instruction. */
// NOLINTBEGIN(bugprone-macro-parentheses)
#define CTR_HW_CSRS(X) X(0x14E) X(0x14F) X(0x15F) X(0x24E) X(0x34E) X(0x150) X(0x151) \
	X(0x152) X(0x153) X(0x250) X(0x30C) X(0x60C)
#define CTR_HW_READ_CASE(n) case n: return csr_read_guarded(n, v);
#define CTR_HW_WRITE_CASE(n) case n: return csr_write_guarded(n, v);

static inline unsigned long ctr_hw_csr_read(unsigned int csr, unsigned long *v)
{
	switch (csr) {
	CTR_HW_CSRS(CTR_HW_READ_CASE)
	default:
		*v = 0;
		return 1 + 2;
	}
}

static inline unsigned long ctr_hw_csr_write(unsigned int csr, unsigned long v)
{
	switch (csr) {
	CTR_HW_CSRS(CTR_HW_WRITE_CASE)
	default:
		return 1 + 2;
	}
}
// NOLINTEND(bugprone-macro-parentheses)
#else
unsigned long ctr_hw_csr_read(unsigned int csr, unsigned long *v);
unsigned long ctr_hw_csr_write(unsigned int csr, unsigned long v);
#endif

#endif
