/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Load/store instruction decoding (contract in memaccess.h), shared by the
 * misaligned access emulation and the emulated trace registers.
 */
#include "firmware/emu/memaccess.h"

_Static_assert(sizeof(unsigned long) == 8, "memaccess.c assumes XLEN = 64");

/* Major opcodes, insn[6:0] (unprivileged spec, "RV32/64G Instruction Set
 * Listings"). */
#define OPCODE_LOAD      0x03
#define OPCODE_LOAD_FP   0x07
#define OPCODE_STORE     0x23
#define OPCODE_STORE_FP  0x27
#define OPCODE_AMO       0x2f

/* funct3 values that are not a scalar access of 1 << funct3 bytes. */
#define FUNCT3_LOAD_RESERVED  7   /* LDU exists only on RV128 */
#define FUNCT3_FP_HALF        1   /* FLH/FSH (Zfh) */
#define FUNCT3_FP_DOUBLE      3   /* FLD/FSD */

/* AMO funct5, insn[31:27]: LR is the only one that is a pure load. */
#define AMO_FUNCT5_LR  0x02

/* Compressed quadrants, insn[1:0], and funct3, insn[15:13] (unprivileged
 * spec, "RVC Instruction Set Listings", RV64 column). */
#define C_QUADRANT_0  0
#define C_QUADRANT_2  2
#define C0_FLD    1
#define C0_LW     2
#define C0_LD     3
#define C0_FSD    5
#define C0_SW     6
#define C0_SD     7
#define C2_FLDSP  1
#define C2_LWSP   2
#define C2_LDSP   3
#define C2_FSDSP  5
#define C2_SWSP   6
#define C2_SDSP   7

/* The 3-bit register fields of CL/CS formats name x8..x15 / f8..f15. */
#define C_REG_BASE  8
#define REG_SP      2





static uint32_t insn_field(uint32_t insn, unsigned int hi, unsigned int lo)
{
	return (insn >> lo) & ((1U << (hi - lo + 1)) - 1);
}




static enum decode_result set_access(struct mem_access *acc,
				     enum access_kind kind, bool fp,
				     unsigned int width, bool sign_extend,
				     unsigned int reg, unsigned long addr)
{
	acc->kind = kind;
	acc->fp = fp;
	acc->width = width;
	acc->sign_extend = sign_extend;
	acc->reg = reg;
	acc->addr = addr;
	return DECODE_ACCESS;
}

static bool is_fp_scalar_width(unsigned int funct3)
{
	return funct3 >= FUNCT3_FP_HALF && funct3 <= FUNCT3_FP_DOUBLE;
}

/* 32-bit encodings: I-type loads, S-type stores, AMOs. */
static enum decode_result decode_standard(uint32_t insn,
					  const struct trap_regs *regs,
					  struct mem_access *acc)
{
	unsigned int opcode = insn_field(insn, 6, 0);
	unsigned int funct3 = insn_field(insn, 14, 12);
	unsigned int rd = insn_field(insn, 11, 7);
	unsigned int rs2 = insn_field(insn, 24, 20);
	unsigned long base = xreg_read(regs, insn_field(insn, 19, 15));
	unsigned long imm_i = sign_extend(insn_field(insn, 31, 20), 12);
	unsigned long imm_s = sign_extend(insn_field(insn, 31, 25) << 5 |
					  insn_field(insn, 11, 7), 12);

	switch (opcode) {
	case OPCODE_LOAD:
		if (funct3 == FUNCT3_LOAD_RESERVED)
			return DECODE_UNKNOWN;
		/* funct3[2] set: LBU/LHU/LWU */
		return set_access(acc, ACCESS_LOAD, false, 1U << (funct3 & 3),
				  !(funct3 & 4), rd, base + imm_i);
	case OPCODE_STORE:
		if (funct3 > 3)
			return DECODE_UNKNOWN;
		return set_access(acc, ACCESS_STORE, false, 1U << funct3,
				  false, rs2, base + imm_s);
	case OPCODE_LOAD_FP:
		/* other widths are FLQ (FLEN 128) or vector loads */
		if (!is_fp_scalar_width(funct3))
			return DECODE_UNKNOWN;
		return set_access(acc, ACCESS_LOAD, true, 1U << funct3, false,
				  rd, base + imm_i);
	case OPCODE_STORE_FP:
		if (!is_fp_scalar_width(funct3))
			return DECODE_UNKNOWN;
		return set_access(acc, ACCESS_STORE, true, 1U << funct3, false,
				  rs2, base + imm_s);
	case OPCODE_AMO:
		acc->kind = insn_field(insn, 31, 27) == AMO_FUNCT5_LR ?
			    ACCESS_LOAD : ACCESS_STORE;
		acc->addr = base;
		return DECODE_ATOMIC;
	default:
		return DECODE_UNKNOWN;
	}
}

/* CL/CS formats: offset of a word access, uimm[5:3|2|6] in insn[12:10|6|5]. */
static unsigned long c_word_offset(uint32_t insn)
{
	return insn_field(insn, 12, 10) << 3 | insn_field(insn, 6, 6) << 2 |
	       insn_field(insn, 5, 5) << 6;
}

/* CL/CS formats: offset of a doubleword access, uimm[5:3|7:6] in
 * insn[12:10|6:5]. */
static unsigned long c_double_offset(uint32_t insn)
{
	return insn_field(insn, 12, 10) << 3 | insn_field(insn, 6, 5) << 6;
}

/* Quadrant 0: CL/CS formats, rs1' in insn[9:7], rd'/rs2' in insn[4:2]. */
static enum decode_result decode_quadrant0(uint32_t insn,
					   const struct trap_regs *regs,
					   struct mem_access *acc)
{
	unsigned int reg = C_REG_BASE + insn_field(insn, 4, 2);
	unsigned long base = xreg_read(regs, C_REG_BASE + insn_field(insn, 9, 7));

	switch (insn_field(insn, 15, 13)) {
	case C0_LW:
		return set_access(acc, ACCESS_LOAD, false, 4, true, reg,
				  base + c_word_offset(insn));
	case C0_LD:
		return set_access(acc, ACCESS_LOAD, false, 8, true, reg,
				  base + c_double_offset(insn));
	case C0_FLD:
		return set_access(acc, ACCESS_LOAD, true, 8, false, reg,
				  base + c_double_offset(insn));
	case C0_SW:
		return set_access(acc, ACCESS_STORE, false, 4, false, reg,
				  base + c_word_offset(insn));
	case C0_SD:
		return set_access(acc, ACCESS_STORE, false, 8, false, reg,
				  base + c_double_offset(insn));
	case C0_FSD:
		return set_access(acc, ACCESS_STORE, true, 8, false, reg,
				  base + c_double_offset(insn));
	default:
		return DECODE_UNKNOWN;
	}
}

/* Quadrant 2, sp-relative: CI loads (rd in insn[11:7]) and CSS stores (rs2
 * in insn[6:2]). */
static enum decode_result decode_quadrant2(uint32_t insn,
					   const struct trap_regs *regs,
					   struct mem_access *acc)
{
	unsigned int rd = insn_field(insn, 11, 7);
	unsigned int rs2 = insn_field(insn, 6, 2);
	unsigned long sp = xreg_read(regs, REG_SP);
	/* CI: uimm[5|4:2|7:6] in insn[12|6:4|3:2] */
	unsigned long lwsp = insn_field(insn, 12, 12) << 5 |
			     insn_field(insn, 6, 4) << 2 |
			     insn_field(insn, 3, 2) << 6;
	/* CI: uimm[5|4:3|8:6] in insn[12|6:5|4:2] */
	unsigned long ldsp = insn_field(insn, 12, 12) << 5 |
			     insn_field(insn, 6, 5) << 3 |
			     insn_field(insn, 4, 2) << 6;
	/* CSS: uimm[5:2|7:6] in insn[12:9|8:7] */
	unsigned long swsp = insn_field(insn, 12, 9) << 2 |
			     insn_field(insn, 8, 7) << 6;
	/* CSS: uimm[5:3|8:6] in insn[12:10|9:7] */
	unsigned long sdsp = insn_field(insn, 12, 10) << 3 |
			     insn_field(insn, 9, 7) << 6;

	switch (insn_field(insn, 15, 13)) {
	case C2_LWSP:
		if (!rd)	/* reserved encoding */
			return DECODE_UNKNOWN;
		return set_access(acc, ACCESS_LOAD, false, 4, true, rd,
				  sp + lwsp);
	case C2_LDSP:
		if (!rd)	/* reserved encoding */
			return DECODE_UNKNOWN;
		return set_access(acc, ACCESS_LOAD, false, 8, true, rd,
				  sp + ldsp);
	case C2_FLDSP:
		return set_access(acc, ACCESS_LOAD, true, 8, false, rd,
				  sp + ldsp);
	case C2_SWSP:
		return set_access(acc, ACCESS_STORE, false, 4, false, rs2,
				  sp + swsp);
	case C2_SDSP:
		return set_access(acc, ACCESS_STORE, false, 8, false, rs2,
				  sp + sdsp);
	case C2_FSDSP:
		return set_access(acc, ACCESS_STORE, true, 8, false, rs2,
				  sp + sdsp);
	default:
		return DECODE_UNKNOWN;
	}
}


enum decode_result memaccess_decode(uint32_t insn, const struct trap_regs *regs,
				    struct mem_access *acc)
{
	switch (insn & 3) {
	case C_QUADRANT_0:
		return decode_quadrant0(insn, regs, acc);
	case C_QUADRANT_2:
		return decode_quadrant2(insn, regs, acc);
	case 3:
		return decode_standard(insn, regs, acc);
	default:	/* quadrant 1 has no loads or stores */
		return DECODE_UNKNOWN;
	}
}
