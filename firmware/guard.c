// SPDX-License-Identifier: BSD-2-Clause
/*
 * Guarded access to numbered CSRs.  CSR numbers are immediates in the
 * instruction, so each supported number gets its own case.
 */
#include "guard.h"

/* The numbers are stringified into the instructions, which an assembler
 * reads as expressions: "0x3A0+0" yes, parentheses not everywhere. */
// NOLINTBEGIN(bugprone-macro-parentheses)
#define CASE_R(n) case n: return csr_read_guarded(n, val);
#define CASE_W(n) case n: return csr_write_guarded(n, v);

#define REP8(M, b)  M(b+0) M(b+1) M(b+2) M(b+3) M(b+4) M(b+5) M(b+6) M(b+7)
#define REP16(M, b) REP8(M, b) REP8(M, b+8)
#define REP32(M, b) REP16(M, b) REP16(M, b+16)
#define REP64(M, b) REP32(M, b) REP32(M, b+32)
// NOLINTEND(bugprone-macro-parentheses)

/* 0x3A0..0x3AF pmpcfg, 0x3B0..0x3EF pmpaddr, 0xB00..0xB1F mcycle/minstret/
 * mhpmcounter, 0x320..0x33F mcountinhibit/mhpmevent, 0x7A0..0x7A4 triggers. */
#define ALL_CSRS(M) REP16(M, 0x3A0) REP64(M, 0x3B0) REP32(M, 0xB00) \
	REP32(M, 0x320) M(0x7A0) M(0x7A1) M(0x7A2) M(0x7A3) M(0x7A4)

unsigned long csr_read_num(unsigned int csr, unsigned long *val)
{
	switch (csr) {
	ALL_CSRS(CASE_R)
	default:
		*val = 0;
		return 1 + 2;
	}
}

unsigned long csr_write_num(unsigned int csr, unsigned long v)
{
	switch (csr) {
	ALL_CSRS(CASE_W)
	default:
		return 1 + 2;
	}
}
