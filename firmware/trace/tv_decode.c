// SPDX-License-Identifier: BSD-2-Clause
/*
 * The data side of an RV64GC instruction for the tandem-verification trace
 * (tv_decode.h).  Encodings: the unprivileged ISA manual, chapters "RV32I",
 * "RV64I", "A", "F", "D", "Zicsr" and "C" (the compressed quadrants table);
 * control-flow targets come from lib/rvinsn.
 */
#include <string.h>
#include "lib/rvinsn/rvinsn.h"
#include "firmware/trace/tv_decode.h"

#define OPC_LOAD     0x03
#define OPC_LOAD_FP  0x07
#define OPC_MISC_MEM 0x0f
#define OPC_STORE    0x23
#define OPC_STORE_FP 0x27
#define OPC_AMO      0x2f
#define OPC_BRANCH   0x63
#define OPC_SYSTEM   0x73
#define OPC_OP_FP    0x53

#define INSN_ECALL 0x00000073u
#define INSN_SRET  0x10200073u

#define REG_SP 2

static unsigned int bits(uint32_t raw, unsigned int hi, unsigned int lo)
{
	return (raw >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static int64_t imm_i(uint32_t raw)
{
	return (int64_t)((int32_t)raw >> 20);
}

static int64_t imm_s(uint32_t raw)
{
	return (int64_t)(((int32_t)raw >> 25) * 32) | bits(raw, 11, 7);
}

static void set_mem(struct tv_insn *in, uint8_t kind, unsigned int size, unsigned int rs1,
		    int64_t imm)
{
	in->mem = kind;
	in->has_data = kind == TV_MEM_STORE;
	in->mem_size = (uint8_t)size;
	in->rs1 = (uint8_t)rs1;
	in->imm = imm;
}

static void set_dest(struct tv_insn *in, uint8_t dest, unsigned int rd)
{
	in->dest = rd || dest == TV_DEST_FPR ? dest : TV_DEST_NONE;
	in->rd = (uint8_t)rd;
}

/* OP-FP: the results that go to an integer register (compares, fclass,
 * fmv.x.*, fcvt to integer); fmv.x and fclass raise no flags. */
static void decode_op_fp(uint32_t raw, struct tv_insn *in)
{
	unsigned int f5 = bits(raw, 31, 27), rd = bits(raw, 11, 7);

	in->fp_flags = f5 != 0x1c;
	if (f5 == 0x14 || f5 == 0x18 || f5 == 0x1c)
		set_dest(in, TV_DEST_GPR, rd);
	else
		set_dest(in, TV_DEST_FPR, rd);
}

/* Zicsr: csrrw* always write the CSR, csrrs/csrrc only with rs1 (or the
 * immediate) not 0 ("Zicsr", CSR instructions table). */
static void decode_system(uint32_t raw, struct tv_insn *in)
{
	unsigned int f3 = bits(raw, 14, 12);

	if (raw == INSN_ECALL)
		in->flow = TV_FLOW_ECALL;
	else if (raw == INSN_SRET)
		in->flow = TV_FLOW_SRET;
	if (!f3)
		return;
	set_dest(in, TV_DEST_GPR, bits(raw, 11, 7));
	in->csr = (uint16_t)(raw >> 20);
	in->writes_csr = (f3 & 3) == 1 || bits(raw, 19, 15) != 0;
}

/* A: funct5 2 is lr, 3 sc, the rest AMOs; all write rd. */
static void decode_amo(uint32_t raw, struct tv_insn *in)
{
	set_mem(in, TV_MEM_AMO, bits(raw, 14, 12) & 3, bits(raw, 19, 15), 0);
	in->rs2 = (uint8_t)bits(raw, 24, 20);
	in->has_data = bits(raw, 31, 27) != 2;
	set_dest(in, TV_DEST_GPR, bits(raw, 11, 7));
}

static bool decode32(uint32_t raw, struct tv_insn *in)
{
	unsigned int rd = bits(raw, 11, 7), rs1 = bits(raw, 19, 15), f3 = bits(raw, 14, 12);

	switch (raw & 0x7f) {
	case OPC_LOAD:
		set_mem(in, TV_MEM_LOAD, f3 & 3, rs1, imm_i(raw));
		set_dest(in, TV_DEST_GPR, rd);
		return true;
	case OPC_LOAD_FP:
		set_mem(in, TV_MEM_LOAD, f3 & 3, rs1, imm_i(raw));
		set_dest(in, TV_DEST_FPR, rd);
		return true;
	case OPC_STORE:
	case OPC_STORE_FP:
		set_mem(in, TV_MEM_STORE, f3 & 3, rs1, imm_s(raw));
		in->rs2 = (uint8_t)bits(raw, 24, 20);
		in->data_fpr = (raw & 0x7f) == OPC_STORE_FP;
		return true;
	case OPC_AMO:
		decode_amo(raw, in);
		return true;
	case OPC_BRANCH:
		in->cond = (uint8_t)f3;
		in->rs1 = (uint8_t)rs1;
		in->rs2 = (uint8_t)bits(raw, 24, 20);
		return true;
	case OPC_SYSTEM:
		decode_system(raw, in);
		return true;
	case OPC_MISC_MEM:
		return true;
	case OPC_OP_FP:
		decode_op_fp(raw, in);
		return true;
	case 0x43: case 0x47: case 0x4b: case 0x4f:   /* fused multiply-add */
		in->fp_flags = true;
		set_dest(in, TV_DEST_FPR, rd);
		return true;
	case 0x13: case 0x1b: case 0x33: case 0x3b:   /* OP(-IMM)(-32) */
	case 0x37: case 0x17: case 0x6f: case 0x67:   /* lui, auipc, jal, jalr */
		set_dest(in, TV_DEST_GPR, rd);
		return true;
	default:
		return false;
	}
}

/* Quadrant 0: rd'/rs2' in bits 4:2, rs1' in 9:7 (x8-x15). */
static bool decode_q0(uint32_t raw, struct tv_insn *in)
{
	unsigned int f3 = bits(raw, 15, 13), r = 8 + bits(raw, 4, 2), rs1 = 8 + bits(raw, 9, 7);
	int64_t off4 = bits(raw, 12, 10) << 3 | bits(raw, 6, 6) << 2 | bits(raw, 5, 5) << 6;
	int64_t off8 = bits(raw, 12, 10) << 3 | bits(raw, 6, 5) << 6;

	switch (f3) {
	case 0:   /* c.addi4spn */
		set_dest(in, TV_DEST_GPR, r);
		return raw != 0;
	case 1: case 2: case 3:   /* c.fld, c.lw, c.ld */
		set_mem(in, TV_MEM_LOAD, f3 == 2 ? 2 : 3, rs1, f3 == 2 ? off4 : off8);
		set_dest(in, f3 == 1 ? TV_DEST_FPR : TV_DEST_GPR, r);
		return true;
	case 5: case 6: case 7:   /* c.fsd, c.sw, c.sd */
		set_mem(in, TV_MEM_STORE, f3 == 6 ? 2 : 3, rs1, f3 == 6 ? off4 : off8);
		in->rs2 = (uint8_t)r;
		in->data_fpr = f3 == 5;
		return true;
	default:
		return false;
	}
}

/* Quadrant 1: rd in bits 11:7 (arithmetic: rd' in 9:7); c.beqz/c.bnez
 * compare rs1' with x0. */
static bool decode_q1(uint32_t raw, struct tv_insn *in)
{
	unsigned int f3 = bits(raw, 15, 13);

	if (f3 <= 3)
		set_dest(in, TV_DEST_GPR, bits(raw, 11, 7));
	else if (f3 == 4)
		set_dest(in, TV_DEST_GPR, 8 + bits(raw, 9, 7));
	else if (f3 >= 6) {
		in->cond = f3 == 6 ? 0 : 1;
		in->rs1 = (uint8_t)(8 + bits(raw, 9, 7));
		in->rs2 = 0;
	}
	return true;
}

/* Quadrant 2: sp-relative loads and stores, c.slli, c.mv/c.add/c.jr/c.jalr. */
static bool decode_q2(uint32_t raw, struct tv_insn *in)
{
	unsigned int f3 = bits(raw, 15, 13), rd = bits(raw, 11, 7), rs2 = bits(raw, 6, 2);
	int64_t lw = bits(raw, 12, 12) << 5 | bits(raw, 6, 4) << 2 | bits(raw, 3, 2) << 6;
	int64_t ld = bits(raw, 12, 12) << 5 | bits(raw, 6, 5) << 3 | bits(raw, 4, 2) << 6;
	int64_t sw = bits(raw, 12, 9) << 2 | bits(raw, 8, 7) << 6;
	int64_t sd = bits(raw, 12, 10) << 3 | bits(raw, 9, 7) << 6;

	switch (f3) {
	case 0:   /* c.slli */
		set_dest(in, TV_DEST_GPR, rd);
		return true;
	case 1: case 2: case 3:   /* c.fldsp, c.lwsp, c.ldsp */
		set_mem(in, TV_MEM_LOAD, f3 == 2 ? 2 : 3, REG_SP, f3 == 2 ? lw : ld);
		set_dest(in, f3 == 1 ? TV_DEST_FPR : TV_DEST_GPR, rd);
		return true;
	case 4:   /* c.jr/c.jalr write ra through rvinsn's rd; c.mv, c.add */
		if (rs2)
			set_dest(in, TV_DEST_GPR, rd);
		return true;
	default:  /* c.fsdsp, c.swsp, c.sdsp */
		set_mem(in, TV_MEM_STORE, f3 == 6 ? 2 : 3, REG_SP, f3 == 6 ? sw : sd);
		in->rs2 = (uint8_t)rs2;
		in->data_fpr = f3 == 5;
		return true;
	}
}

/* Control flow and link register from lib/rvinsn. */
static void decode_flow(uint32_t raw, struct tv_insn *in)
{
	struct rv_insn ri;

	if (!rv_insn_decode(raw, 64, RV_EXT_C, &ri))
		return;
	switch (ri.kind) {
	case RV_INSN_BRANCH:
		in->flow = TV_FLOW_BRANCH;
		in->imm = ri.imm;
		return;
	case RV_INSN_JUMP:
		in->flow = TV_FLOW_JAL;
		in->imm = ri.imm;
		set_dest(in, TV_DEST_GPR, ri.rd);
		return;
	case RV_INSN_JUMP_REG:
		in->flow = TV_FLOW_JALR;
		in->imm = ri.imm;
		in->rs1 = ri.rs1;
		set_dest(in, TV_DEST_GPR, ri.rd);
		return;
	default:
		return;
	}
}

bool tv_decode(uint32_t raw, struct tv_insn *in)
{
	bool ok;

	memset(in, 0, sizeof(*in));
	in->len = (raw & 3) == 3 ? 4 : 2;
	switch (raw & 3) {
	case 0:
		ok = decode_q0(raw, in);
		break;
	case 1:
		ok = decode_q1(raw, in);
		break;
	case 2:
		ok = decode_q2(raw, in);
		break;
	default:
		ok = decode32(raw, in);
		break;
	}
	if (ok)
		decode_flow(raw, in);
	return ok;
}
