// SPDX-License-Identifier: BSD-2-Clause
/*
 * RISC-V instruction length and control-flow classification.
 * itype values follow N-Trace 1.0.0-rc7 Table 2.
 */
#include "rvinsn.h"

/* Bits hi..lo of x, shifted down. */
static inline uint32_t bits(uint32_t x, unsigned hi, unsigned lo)
{
	return (x >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

static inline int64_t sext(uint64_t v, unsigned width)
{
	uint64_t m = 1ull << (width - 1);
	v &= (width == 64) ? ~0ull : ((1ull << width) - 1);
	return (int64_t)((v ^ m) - m);
}

unsigned rv_insn_length(uint16_t parcel, unsigned ext)
{
	if ((parcel & 0x3) != 0x3)
		return (ext & RV_EXT_C) ? 2 : 0;
	if ((parcel & 0x1c) != 0x1c)
		return 4;
	if ((parcel & 0x3f) == 0x1f)
		return 6;
	if ((parcel & 0x7f) == 0x3f)
		return 8;
	return 0; /* >= 80-bit encodings: reserved */
}

/* Table 2, jalr rd, rs1 rows (4-bit itype). */
static uint8_t jalr_itype4(unsigned rd, unsigned rs1)
{
	bool rd_link = rv_is_link_reg(rd), rs1_link = rv_is_link_reg(rs1);

	if (rd_link && !rs1_link)
		return RV_ITYPE_UNINFERABLE_CALL;
	if (rd_link && rs1_link)
		return rd != rs1 ? RV_ITYPE_COROUTINE_SWAP : RV_ITYPE_UNINFERABLE_CALL;
	if (rs1_link)
		return RV_ITYPE_RETURN;
	return RV_ITYPE_OTHER_UNINFERABLE_JUMP;
}

static void set_jump(struct rv_insn *out, unsigned rd, int64_t off)
{
	out->kind = RV_INSN_JUMP;
	out->rd = (uint8_t)rd;
	out->imm = off;
	out->itype3 = RV_ITYPE_NONE;
	out->itype4 = rv_is_link_reg(rd) ? RV_ITYPE_INFERABLE_CALL : RV_ITYPE_OTHER_INFERABLE_JUMP;
	if (rd)
		out->flags |= RV_INSN_F_WRITES_RD;
}

static void set_jump_reg(struct rv_insn *out, unsigned rd, unsigned rs1, int64_t off)
{
	out->kind = RV_INSN_JUMP_REG;
	out->rd = (uint8_t)rd;
	out->rs1 = (uint8_t)rs1;
	out->imm = off;
	out->itype3 = RV_ITYPE_UNINFERABLE_JUMP;
	out->itype4 = jalr_itype4(rd, rs1);
	if (rd)
		out->flags |= RV_INSN_F_WRITES_RD;
}

static void set_branch(struct rv_insn *out, unsigned rs1, int64_t off)
{
	out->kind = RV_INSN_BRANCH;
	out->rs1 = (uint8_t)rs1;
	out->imm = off;
	out->itype3 = out->itype4 = RV_ITYPE_NOT_TAKEN_BRANCH;
}

static void set_kind(struct rv_insn *out, unsigned kind, unsigned itype3, unsigned itype4)
{
	out->kind = (uint8_t)kind;
	out->itype3 = (uint8_t)itype3;
	out->itype4 = (uint8_t)itype4;
}

static void decode_system(uint32_t raw, struct rv_insn *out)
{
	switch (raw) {
	case 0x00000073: /* ecall: Table 2, reported after retirement as exception */
	case 0x00100073: /* ebreak */
		set_kind(out, RV_INSN_TRAP, RV_ITYPE_EXCEPTION, RV_ITYPE_EXCEPTION);
		return;
	case 0x30200073: /* mret */
	case 0x10200073: /* sret */
	case 0x00200073: /* uret */
	case 0x7b200073: /* dret */
	case 0x70200073: /* mnret (Smrnmi) */
		set_kind(out, RV_INSN_TRAP_RETURN, RV_ITYPE_TRAP_RETURN, RV_ITYPE_TRAP_RETURN);
		return;
	default:
		return; /* csr*, wfi, fences: linear */
	}
}

static void decode32(uint32_t raw, unsigned xlen, struct rv_insn *out)
{
	unsigned rd = bits(raw, 11, 7), rs1 = bits(raw, 19, 15);
	int64_t upper = sext(raw & 0xfffff000u, 32);

	switch (raw & 0x7f) {
	case 0x6f: /* jal */
		set_jump(out, rd, sext((bits(raw, 31, 31) << 20) | (bits(raw, 19, 12) << 12) |
				       (bits(raw, 20, 20) << 11) | (bits(raw, 30, 21) << 1), 21));
		break;
	case 0x67: /* jalr */
		if (bits(raw, 14, 12) == 0)
			set_jump_reg(out, rd, rs1, sext(bits(raw, 31, 20), 12));
		else
			out->kind = RV_INSN_INVALID;
		break;
	case 0x63: /* beq, bne, blt, bge, bltu, bgeu */
		if (bits(raw, 14, 12) == 2 || bits(raw, 14, 12) == 3) {
			out->kind = RV_INSN_INVALID;
			break;
		}
		set_branch(out, rs1, sext((bits(raw, 31, 31) << 12) | (bits(raw, 7, 7) << 11) |
					  (bits(raw, 30, 25) << 5) | (bits(raw, 11, 8) << 1), 13));
		break;
	case 0x37: /* lui */
		out->rd = (uint8_t)rd;
		out->imm = xlen == 32 ? (int64_t)(uint32_t)upper : upper;
		out->flags |= RV_INSN_F_LUI | (rd ? RV_INSN_F_WRITES_RD : 0);
		break;
	case 0x17: /* auipc */
		out->rd = (uint8_t)rd;
		out->imm = upper;
		out->flags |= RV_INSN_F_AUIPC | (rd ? RV_INSN_F_WRITES_RD : 0);
		break;
	case 0x73:
		decode_system(raw, out);
		break;
	default:
		break;
	}
}

/* CJ-format offset of c.j / c.jal. */
static int64_t cj_offset(uint32_t raw)
{
	uint32_t off = (bits(raw, 12, 12) << 11) | (bits(raw, 11, 11) << 4) |
		       (bits(raw, 10, 9) << 8) | (bits(raw, 8, 8) << 10) |
		       (bits(raw, 7, 7) << 6) | (bits(raw, 6, 6) << 7) |
		       (bits(raw, 5, 3) << 1) | (bits(raw, 2, 2) << 5);
	return sext(off, 12);
}

/* CB-format offset of c.beqz / c.bnez. */
static int64_t cb_offset(uint32_t raw)
{
	uint32_t off = (bits(raw, 12, 12) << 8) | (bits(raw, 11, 10) << 3) |
		       (bits(raw, 6, 5) << 6) | (bits(raw, 4, 3) << 1) | (bits(raw, 2, 2) << 5);
	return sext(off, 9);
}

static void decode_q1(uint32_t raw, unsigned xlen, struct rv_insn *out)
{
	unsigned rd = bits(raw, 11, 7);

	switch (bits(raw, 15, 13)) {
	case 1: /* c.jal on RV32, c.addiw on RV64 */
		if (xlen == 32)
			set_jump(out, 1, cj_offset(raw));
		break;
	case 5: /* c.j */
		set_jump(out, 0, cj_offset(raw));
		break;
	case 6: /* c.beqz */
	case 7: /* c.bnez */
		set_branch(out, 8 + bits(raw, 9, 7), cb_offset(raw));
		break;
	case 3: /* c.lui (rd != 0, 2) / c.addi16sp */
		if (rd != 0 && rd != 2) {
			int64_t v = sext((bits(raw, 12, 12) << 17) | (bits(raw, 6, 2) << 12), 18);

			if (v == 0) {
				out->kind = RV_INSN_INVALID;
				break;
			}
			out->rd = (uint8_t)rd;
			out->imm = xlen == 32 ? (int64_t)(uint32_t)v : v;
			out->flags |= RV_INSN_F_LUI | RV_INSN_F_WRITES_RD;
		}
		break;
	default:
		break;
	}
}

/* Zcmp/Zcmt share funct3=101 of quadrant 2 with c.fsdsp. */
static void decode_q2_101(uint32_t raw, unsigned ext, struct rv_insn *out)
{
	unsigned b12_8 = bits(raw, 12, 8);

	if ((ext & RV_EXT_ZCMT) && bits(raw, 12, 10) == 0) {
		unsigned index = bits(raw, 9, 2);

		out->kind = RV_INSN_TABLE_JUMP;
		out->table_index = (uint8_t)index;
		out->itype3 = RV_ITYPE_NONE; /* Table 2: cm.jt and cm.jalt = 0 */
		if (index < 32) {
			out->itype4 = RV_ITYPE_NONE;
		} else {
			out->rd = 1;
			out->flags |= RV_INSN_F_WRITES_RD;
			out->itype4 = RV_ITYPE_INFERABLE_CALL;
		}
		return;
	}
	if ((ext & RV_EXT_ZCMP) && (b12_8 == 0x1e || b12_8 == 0x1c)) {
		if (bits(raw, 7, 4) < 4) { /* rlist 0..3 reserved */
			out->kind = RV_INSN_INVALID;
			return;
		}
		out->kind = RV_INSN_POPRET;
		out->rs1 = 1;
		/* Table 2: cm.popret* = 13 (4-bit), 6 (3-bit) */
		out->itype3 = RV_ITYPE_UNINFERABLE_JUMP;
		out->itype4 = RV_ITYPE_RETURN;
	}
}

static void decode_q2(uint32_t raw, unsigned ext, struct rv_insn *out)
{
	unsigned r1 = bits(raw, 11, 7), r2 = bits(raw, 6, 2);

	switch (bits(raw, 15, 13)) {
	case 4:
		if (bits(raw, 12, 12) == 0) {
			if (r2 == 0) { /* c.jr */
				if (r1 == 0)
					out->kind = RV_INSN_INVALID;
				else
					set_jump_reg(out, 0, r1, 0);
			}
		} else if (r2 == 0) {
			if (r1 == 0) /* c.ebreak */
				set_kind(out, RV_INSN_TRAP, RV_ITYPE_EXCEPTION, RV_ITYPE_EXCEPTION);
			else /* c.jalr: writes x1 */
				set_jump_reg(out, 1, r1, 0);
		}
		break;
	case 5:
		decode_q2_101(raw, ext, out);
		break;
	default:
		break;
	}
}

unsigned rv_insn_decode(uint32_t raw, unsigned xlen, unsigned ext, struct rv_insn *out)
{
	unsigned size = rv_insn_length((uint16_t)raw, ext);

	*out = (struct rv_insn){ .size = (uint8_t)size, .kind = RV_INSN_LINEAR };
	if (size == 0) {
		out->kind = RV_INSN_INVALID;
		return 0;
	}
	if (size == 2) {
		out->flags |= RV_INSN_F_COMPRESSED;
		raw &= 0xffff;
		if (raw == 0) { /* defined illegal instruction */
			out->kind = RV_INSN_INVALID;
		} else if ((raw & 3) == 1) {
			decode_q1(raw, xlen, out);
		} else if ((raw & 3) == 2) {
			decode_q2(raw, ext, out);
		}
	} else if (size == 4) {
		decode32(raw, xlen, out);
	}
	if (out->kind == RV_INSN_INVALID) {
		out->size = 0;
		return 0;
	}
	return size;
}

unsigned rv_insn_itype(const struct rv_insn *in, bool taken, bool itype4, bool all_jumps)
{
	if (in->kind == RV_INSN_BRANCH)
		return taken ? RV_ITYPE_TAKEN_BRANCH : RV_ITYPE_NOT_TAKEN_BRANCH;
	if (all_jumps && (in->kind == RV_INSN_JUMP || in->kind == RV_INSN_TABLE_JUMP)) {
		/* Table 4 note on trTeInstEnAllJumps: inferable jumps report "taken";
		 * the 4-bit form keeps the call/jump code so the call stack works. */
		if (!itype4)
			return RV_ITYPE_TAKEN_BRANCH;
		return in->itype4 == RV_ITYPE_NONE ? RV_ITYPE_OTHER_INFERABLE_JUMP : in->itype4;
	}
	return itype4 ? in->itype4 : in->itype3;
}

uint64_t rv_insn_direct_target(const struct rv_insn *in, uint64_t pc, unsigned xlen)
{
	return rv_xlen_mask(pc + (uint64_t)in->imm, xlen);
}

bool rv_insn_seq_inferable(const struct rv_insn *prev, const struct rv_insn *jump)
{
	if (jump->kind != RV_INSN_JUMP_REG)
		return false;
	if (!(prev->flags & (RV_INSN_F_LUI | RV_INSN_F_AUIPC)) || prev->rd == 0)
		return false;
	return prev->rd == jump->rs1;
}

uint64_t rv_insn_seq_target(const struct rv_insn *prev, uint64_t prev_pc,
			    const struct rv_insn *jump, unsigned xlen)
{
	uint64_t base = (uint64_t)prev->imm;

	if (prev->flags & RV_INSN_F_AUIPC)
		base += prev_pc;
	return rv_xlen_mask((base + (uint64_t)jump->imm) & ~1ull, xlen);
}
