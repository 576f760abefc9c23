/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvinsn: RISC-V instruction length and control-flow classification for
 * trace encoders and decoders (RV32 and RV64, with C, Zcmp and Zcmt).
 *
 * The classification follows the N-Trace specification (1.0.0-rc7), chapter 2,
 * Table 2 "Generating itype for different instructions": every instruction is
 * mapped to the itype value a hart reports on the Trace Ingress Port when the
 * instruction retires normally, in both the 3-bit form and the 4-bit form
 * (the latter needed for Implicit Return Optimization, chapter 9.2).
 *
 * Freestanding: no allocation, no libc.  All functions are pure.
 */
#ifndef RVINSN_H
#define RVINSN_H

#include <stdbool.h>
#include <stdint.h>

/* ISA extensions that change how an encoding is read (flags for `ext`). */
#define RV_EXT_C    (1u << 0) /* compressed instructions (16-bit) */
#define RV_EXT_ZCMP (1u << 1) /* cm.push/cm.pop/cm.popret/cm.popretz/cm.mv* */
#define RV_EXT_ZCMT (1u << 2) /* cm.jt/cm.jalt (table jumps through jvt)   */

/*
 * itype values of the Trace Ingress Port (N-Trace Table 2, Tables 3 and 4).
 * Values 0..7 are the 3-bit form, 8..15 exist only in the 4-bit form.
 */
enum rv_itype {
	RV_ITYPE_NONE = 0,               /* no special type (linear, direct jump) */
	RV_ITYPE_EXCEPTION = 1,
	RV_ITYPE_INTERRUPT = 2,
	RV_ITYPE_TRAP_RETURN = 3,        /* exception or interrupt return       */
	RV_ITYPE_NOT_TAKEN_BRANCH = 4,
	RV_ITYPE_TAKEN_BRANCH = 5,
	RV_ITYPE_UNINFERABLE_JUMP = 6,   /* 3-bit form only                     */
	RV_ITYPE_RESERVED7 = 7,          /* may mean "0 or 5" (trTeInstEnAllJumps) */
	RV_ITYPE_UNINFERABLE_CALL = 8,
	RV_ITYPE_INFERABLE_CALL = 9,
	RV_ITYPE_UNINFERABLE_TAIL_CALL = 10, /* cannot be generated (Table 4)   */
	RV_ITYPE_INFERABLE_TAIL_CALL = 11,   /* cannot be generated (Table 4)   */
	RV_ITYPE_COROUTINE_SWAP = 12,
	RV_ITYPE_RETURN = 13,
	RV_ITYPE_OTHER_UNINFERABLE_JUMP = 14,
	RV_ITYPE_OTHER_INFERABLE_JUMP = 15,
};

/* What an instruction does to the control flow (decoder's view). */
enum rv_insn_kind {
	RV_INSN_INVALID = 0,   /* not a valid encoding (or length not supported) */
	RV_INSN_LINEAR,        /* next PC = PC + size (includes lui/auipc)        */
	RV_INSN_BRANCH,        /* direct conditional branch: PC + imm if taken    */
	RV_INSN_JUMP,          /* direct unconditional jump (jal, c.j, c.jal)     */
	RV_INSN_JUMP_REG,      /* indirect jump (jalr, c.jr, c.jalr)              */
	RV_INSN_TABLE_JUMP,    /* cm.jt / cm.jalt: target read from jvt table     */
	RV_INSN_POPRET,        /* cm.popret / cm.popretz: return through ra       */
	RV_INSN_TRAP_RETURN,   /* mret, sret, uret, dret, mnret                   */
	RV_INSN_TRAP,          /* ecall, ebreak, c.ebreak: always raise exception */
};

/* Flags in struct rv_insn.flags. */
#define RV_INSN_F_COMPRESSED (1u << 0) /* 16-bit encoding                     */
#define RV_INSN_F_LUI        (1u << 1) /* lui / c.lui: rd = imm               */
#define RV_INSN_F_AUIPC      (1u << 2) /* auipc: rd = pc + imm                */
#define RV_INSN_F_WRITES_RD  (1u << 3) /* instruction writes register rd      */

/* One decoded instruction: only what tracing needs. */
struct rv_insn {
	uint8_t size;   /* bytes: 2 or 4 (6/8 for longer encodings), 0 = invalid */
	uint8_t kind;   /* enum rv_insn_kind                                     */
	uint8_t itype3; /* 3-bit itype on normal retirement (branches: 4)         */
	uint8_t itype4; /* 4-bit itype on normal retirement (branches: 4)         */
	uint8_t rd;     /* destination register (jal/jalr link, lui/auipc), or 0  */
	uint8_t rs1;    /* source register of jalr/c.jr/c.jalr, or 0              */
	uint8_t flags;  /* RV_INSN_F_*                                           */
	uint8_t table_index; /* cm.jt/cm.jalt index into the jump table           */
	/*
	 * Immediate: branch/jal offset (signed, bytes); jalr offset; lui/c.lui
	 * value already shifted and sign-extended to 64 bits; auipc offset.
	 */
	int64_t imm;
};

/*
 * Length in bytes of the instruction whose first 16-bit parcel is `parcel`
 * (ISA manual "Base Instruction-Length Encoding"): 2, 4, 6 or 8; 0 for the
 * reserved >= 80-bit encodings.  A 16-bit parcel counts as 2 only when the C
 * extension is present (`ext` & RV_EXT_C), otherwise it is invalid (0).
 */
unsigned rv_insn_length(uint16_t parcel, unsigned ext);

/*
 * Decode one instruction.  `raw` holds the instruction bits (the upper 16 bits
 * are ignored for 16-bit instructions); `xlen` is 32 or 64 (c.jal exists only
 * on RV32); `ext` is a set of RV_EXT_* flags.  Returns the size in bytes
 * (out->size), or 0 for an invalid encoding (out->kind = RV_INSN_INVALID).
 * Instructions longer than 32 bits are reported with their size and kind
 * RV_INSN_LINEAR (N-Trace 10.1: unknown instructions are plain linear).
 */
unsigned rv_insn_decode(uint32_t raw, unsigned xlen, unsigned ext, struct rv_insn *out);

/* x1 and x5 are the link registers (ISA manual, Table "Return-address stack"). */
static inline bool rv_is_link_reg(unsigned reg)
{
	return reg == 1 || reg == 5;
}

/*
 * itype reported when `in` retires normally (no trap), per Table 2.
 * `taken` selects 5 vs 4 for branches; `itype4` selects the 4-bit form
 * (codes 8..15 for jumps); `all_jumps` (trTeInstEnAllJumps) makes inferable
 * unconditional jumps (jal, c.j, c.jal, cm.jt, cm.jalt) report 5 = taken
 * branch (Table 4 note).  In the 4-bit form with `all_jumps` they report 9
 * (call) or 15 (other inferable jump, also for cm.jt), which the encoder then
 * treats as taken branches as well (see ntrace.h).
 */
unsigned rv_insn_itype(const struct rv_insn *in, bool taken, bool itype4, bool all_jumps);

/* True when the target of `in` is known from the opcode and PC alone
 * (branch, jal, c.j, c.jal). */
static inline bool rv_insn_is_direct(const struct rv_insn *in)
{
	return in->kind == RV_INSN_BRANCH || in->kind == RV_INSN_JUMP;
}

/* Target of a direct branch/jump at `pc` (wrapped to `xlen` bits). */
uint64_t rv_insn_direct_target(const struct rv_insn *in, uint64_t pc, unsigned xlen);

/*
 * Sequential Jump Optimization (N-Trace 9.1): true when `jump` is an
 * indirect jump (jalr, c.jr, c.jalr) whose rs1 was written by `prev`, an
 * lui / c.lui / auipc retired immediately before it.
 */
bool rv_insn_seq_inferable(const struct rv_insn *prev, const struct rv_insn *jump);

/*
 * Target of a sequentially inferable jump: (value of rs1 + jalr offset) & ~1,
 * where rs1 = prev->imm (lui) or prev_pc + prev->imm (auipc), wrapped to xlen.
 */
uint64_t rv_insn_seq_target(const struct rv_insn *prev, uint64_t prev_pc,
			    const struct rv_insn *jump, unsigned xlen);

/*
 * The size (2 or 4) of an instruction its opcode alone shows that
 * rv_insn_decode() takes as RV_INSN_LINEAR, not lui/auipc/c.lui (which
 * 9.1 looks at) and not SYSTEM; 0 when only the full decode can tell.  For
 * decoders that need nothing else of a linear instruction (the firmware's
 * block stepper sizes runs with it).
 */
static inline unsigned rv_insn_plain_length(uint32_t raw, unsigned ext)
{
	unsigned f3 = (raw >> 13) & 7;
	bool c = ext & RV_EXT_C;

	switch (raw & 3) {
	case 3:
		if ((raw & 0x1c) == 0x1c)
			return 0; /* 48 bits or longer */
		switch (raw & 0x7f) {
		case 0x63: case 0x67: case 0x6f: case 0x37: case 0x17: case 0x73:
			return 0; /* branch, jalr, jal, lui, auipc, SYSTEM */
		default:
			return 4;
		}
	case 0: /* 0x0000 is the defined illegal instruction */
		return c && (raw & 0xffff) ? 2 : 0;
	case 1: /* c.lui/c.addi16sp, c.j, c.beqz, c.bnez (c.jal: RV32 only) */
		return c && f3 != 3 && f3 < 5 ? 2 : 0;
	default: /* c.jr/c.mv/c.add/c.jalr/c.ebreak; Zcmp/Zcmt's funct3 101 */
		return c && f3 != 4 && f3 != 5 ? 2 : 0;
	}
}

/* Whether a branch with this funct3 is taken for operands a, b: bit 2 an
 * order (bit 1 unsigned) else equality, bit 0 the negation (beq/bne,
 * blt/bge, bltu/bgeu); 2 and 3 are not branches.  No jump table. */
static inline bool rv_branch_taken(unsigned funct3, uint64_t a, uint64_t b)
{
	bool r;

	if (funct3 & 4)
		r = funct3 & 2 ? a < b : (int64_t)a < (int64_t)b;
	else
		r = a == b;
	return r ^ (funct3 & 1);
}

/* Mask an address to xlen bits. */
static inline uint64_t rv_xlen_mask(uint64_t v, unsigned xlen)
{
	return xlen == 32 ? (uint64_t)(uint32_t)v : v;
}

#endif /* RVINSN_H */
