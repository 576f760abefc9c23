// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the check reads beyond lib/rvinsn's control-flow view: the operands
 * of branches (both sources and the condition), loads, stores, AMOs and CSR
 * instructions, in RV32/RV64 G and C (ISA manual, unprivileged volume,
 * chapters "RV32I", "A" and "C").
 */
#include "tvtrace_tool.h"

static uint32_t bits(uint32_t x, unsigned hi, unsigned lo)
{
	return (x >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

static int64_t sext12(uint32_t v)
{
	return (int64_t)(int32_t)(v << 20) >> 20;
}

static void set_access(struct tv_operands *o, unsigned access, unsigned mem_op, unsigned size_log2)
{
	o->access = (uint8_t)access;
	o->mem_op = (uint8_t)mem_op;
	o->size_log2 = (uint8_t)size_log2;
}

/* lb lh lw ld lbu lhu lwu (funct3 0..6; ld only on RV64). */
static void decode_load(uint32_t raw, unsigned xlen, struct tv_operands *o)
{
	unsigned f3 = bits(raw, 14, 12);

	if (f3 == 7 || (f3 == 3 && xlen == 32) || (f3 == 6 && xlen == 32))
		return;
	set_access(o, TV_ACCESS_LOAD, TVTRACE_MEM_LOAD, f3 & 3);
	o->load_signed = f3 < 4;
	o->imm = sext12(bits(raw, 31, 20));
}

static void decode_store(uint32_t raw, unsigned xlen, struct tv_operands *o, bool fp)
{
	unsigned f3 = bits(raw, 14, 12);

	if (fp ? (f3 != 2 && f3 != 3) : (f3 > 3 || (f3 == 3 && xlen == 32)))
		return;
	set_access(o, TV_ACCESS_STORE, TVTRACE_MEM_STORE, f3);
	o->rs2_fp = fp;
	o->imm = sext12(bits(raw, 31, 25) << 5 | bits(raw, 11, 7));
}

/* A extension: funct5 in bits 31:27, width in funct3 (2 = .w, 3 = .d). */
static void decode_amo(uint32_t raw, unsigned xlen, struct tv_operands *o)
{
	static const int8_t ops[32] = {
		[0x00] = TVTRACE_MEM_AMO_ADD,  [0x01] = TVTRACE_MEM_AMO_SWAP,
		[0x02] = TVTRACE_MEM_LR,       [0x03] = TVTRACE_MEM_SC,
		[0x04] = TVTRACE_MEM_AMO_XOR,  [0x08] = TVTRACE_MEM_AMO_OR,
		[0x0c] = TVTRACE_MEM_AMO_AND,  [0x10] = TVTRACE_MEM_AMO_MIN,
		[0x14] = TVTRACE_MEM_AMO_MAX,  [0x18] = TVTRACE_MEM_AMO_MINU,
		[0x1c] = TVTRACE_MEM_AMO_MAXU,
	};
	unsigned f3 = bits(raw, 14, 12), f5 = bits(raw, 31, 27);
	bool known = f5 == 0 || ops[f5] != 0;

	if (!known || (f3 != 2 && f3 != 3) || (f3 == 3 && xlen == 32))
		return;
	unsigned access = ops[f5] == TVTRACE_MEM_LR ? TV_ACCESS_LR :
			  ops[f5] == TVTRACE_MEM_SC ? TV_ACCESS_SC : TV_ACCESS_AMO;
	set_access(o, access, (unsigned)ops[f5], f3);
	o->load_signed = true;
}

static void decode32(uint32_t raw, unsigned xlen, struct tv_operands *o)
{
	o->rd = (uint8_t)bits(raw, 11, 7);
	o->rs1 = (uint8_t)bits(raw, 19, 15);
	o->rs2 = (uint8_t)bits(raw, 24, 20);
	switch (raw & 0x7f) {
	case 0x63:
		o->is_branch = bits(raw, 14, 12) != 2 && bits(raw, 14, 12) != 3;
		o->branch_cond = (uint8_t)bits(raw, 14, 12);
		break;
	case 0x03:
		decode_load(raw, xlen, o);
		break;
	case 0x07: /* flw, fld */
		if (bits(raw, 14, 12) == 2 || bits(raw, 14, 12) == 3) {
			set_access(o, TV_ACCESS_LOAD, TVTRACE_MEM_LOAD, bits(raw, 14, 12));
			o->rd_fp = true;
			o->imm = sext12(bits(raw, 31, 20));
		}
		break;
	case 0x23:
		decode_store(raw, xlen, o, false);
		break;
	case 0x27:
		decode_store(raw, xlen, o, true);
		break;
	case 0x2f:
		decode_amo(raw, xlen, o);
		break;
	case 0x73:
		if (bits(raw, 14, 12) != 0 && bits(raw, 14, 12) != 4) {
			o->is_csr = true;
			o->csr = (uint16_t)bits(raw, 31, 20);
		}
		break;
	default:
		break;
	}
}

/* Quadrant 0: c.fld c.lw c.ld/c.flw c.fsd c.sw c.sd/c.fsw, registers x8-x15. */
static void decode_q0(uint32_t raw, unsigned xlen, struct tv_operands *o)
{
	unsigned f3 = bits(raw, 15, 13);
	bool rv32 = xlen == 32;
	/* uimm[5:3] = 12:10; .w forms uimm[2] = 6, uimm[6] = 5; .d forms uimm[7:6] = 6:5 */
	int64_t off_w = bits(raw, 12, 10) << 3 | bits(raw, 6, 6) << 2 | bits(raw, 5, 5) << 6;
	int64_t off_d = bits(raw, 12, 10) << 3 | bits(raw, 6, 5) << 6;
	bool word = f3 == 2 || f3 == 6 || (rv32 && (f3 == 3 || f3 == 7));

	if (f3 == 0 || f3 == 4)
		return;
	o->rs1 = (uint8_t)(8 + bits(raw, 9, 7));
	o->rd = o->rs2 = (uint8_t)(8 + bits(raw, 4, 2));
	o->imm = word ? off_w : off_d;
	set_access(o, f3 < 4 ? TV_ACCESS_LOAD : TV_ACCESS_STORE,
		   f3 < 4 ? TVTRACE_MEM_LOAD : TVTRACE_MEM_STORE, word ? 2 : 3);
	o->load_signed = true;
	/* c.fld / c.fsd, and c.flw / c.fsw on RV32 */
	bool fp = (f3 & 3) == 1 || (rv32 && (f3 & 3) == 3);
	o->rd_fp = o->rs2_fp = fp;
}

/* Quadrant 2 stack-pointer loads and stores, and c.mv/c.add's neighbours. */
static void decode_q2(uint32_t raw, unsigned xlen, struct tv_operands *o)
{
	unsigned f3 = bits(raw, 15, 13);
	bool rv32 = xlen == 32;
	bool word = f3 == 2 || f3 == 6 || (rv32 && (f3 == 3 || f3 == 7));
	bool fp = (f3 & 3) == 1 || (rv32 && (f3 & 3) == 3);

	if (f3 == 0 || f3 == 4)
		return;
	o->rs1 = 2;
	if (f3 < 4) {
		o->rd = (uint8_t)bits(raw, 11, 7);
		/* lwsp: uimm[5] = 12, [4:2] = 6:4, [7:6] = 3:2; ldsp: [4:3] = 6:5, [8:6] = 4:2 */
		o->imm = word ? (bits(raw, 12, 12) << 5 | bits(raw, 6, 4) << 2 | bits(raw, 3, 2) << 6)
			      : (bits(raw, 12, 12) << 5 | bits(raw, 6, 5) << 3 | bits(raw, 4, 2) << 6);
		if (o->rd == 0 && !fp)
			return;         /* reserved */
	} else {
		o->rs2 = (uint8_t)bits(raw, 6, 2);
		/* swsp: uimm[5:2] = 12:9, [7:6] = 8:7; sdsp: [5:3] = 12:10, [8:6] = 9:7 */
		o->imm = word ? (bits(raw, 12, 9) << 2 | bits(raw, 8, 7) << 6)
			      : (bits(raw, 12, 10) << 3 | bits(raw, 9, 7) << 6);
	}
	set_access(o, f3 < 4 ? TV_ACCESS_LOAD : TV_ACCESS_STORE,
		   f3 < 4 ? TVTRACE_MEM_LOAD : TVTRACE_MEM_STORE, word ? 2 : 3);
	o->load_signed = true;
	o->rd_fp = o->rs2_fp = fp;
}

void tv_operands_decode(uint32_t raw, unsigned xlen, struct tv_operands *out)
{
	*out = (struct tv_operands){ 0 };
	if ((raw & 3) == 3) {
		decode32(raw, xlen, out);
		return;
	}
	raw &= 0xffff;
	if ((raw & 3) == 0) {
		decode_q0(raw, xlen, out);
	} else if ((raw & 3) == 2) {
		decode_q2(raw, xlen, out);
	} else if (bits(raw, 15, 13) >= 6) {   /* c.beqz, c.bnez: compare with x0 */
		out->is_branch = true;
		out->branch_cond = (uint8_t)(bits(raw, 15, 13) - 6);
		out->rs1 = (uint8_t)(8 + bits(raw, 9, 7));
		out->rs2 = 0;
	}
}
