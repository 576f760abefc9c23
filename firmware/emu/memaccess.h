/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoding of the load and store instructions M-mode completes for S/U-mode
 * (misaligned accesses, emulated device registers): what is accessed, with
 * which width and register.  RV64 only (XLEN = 64).
 */
#ifndef FIRMWARE_MEMACCESS_H
#define FIRMWARE_MEMACCESS_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/core/trap_regs.h"

enum access_kind { ACCESS_LOAD, ACCESS_STORE };

struct mem_access {
	enum access_kind kind;
	bool fp;              /* register is in the FP register file */
	bool sign_extend;     /* integer loads: sign- rather than zero-extend */
	unsigned int width;   /* bytes: 1, 2, 4 or 8 */
	unsigned int reg;     /* rd of a load, rs2 of a store */
	unsigned long addr;   /* effective address */
};

enum decode_result {
	DECODE_ACCESS,    /* a load or store to emulate */
	DECODE_ATOMIC,    /* LR/SC/AMO: kind and addr are valid */
	DECODE_UNKNOWN,
};

/* Decode `insn` (16-bit ones zero-extended) with the operands in regs. */
enum decode_result memaccess_decode(uint32_t insn, const struct trap_regs *regs,
				    struct mem_access *acc);

static inline uint64_t sign_extend(uint64_t val, unsigned int bits)
{
	uint64_t sign;

	if (bits - 1 >= 64)   /* 0 or more than 64: nothing to extend */
		return val;
	sign = 1ULL << (bits - 1);
	if (bits < 64)
		val &= (sign << 1) - 1;
	return (val ^ sign) - sign;
}

static inline unsigned long xreg_read(const struct trap_regs *regs, unsigned int reg)
{
	return reg ? regs->x[reg] : 0;
}

static inline void xreg_write(struct trap_regs *regs, unsigned int reg, unsigned long val)
{
	if (reg)
		regs->x[reg] = val;
}

/* insn[1:0] != 3 marks a 16-bit instruction (unprivileged spec, "Expanded
 * Instruction-Length Encoding"). */
static inline unsigned int insn_length(uint32_t insn)
{
	return (insn & 3) == 3 ? 4 : 2;
}

#endif
