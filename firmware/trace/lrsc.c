// SPDX-License-Identifier: BSD-2-Clause
/*
 * Constrained LR/SC sequences: decode, check, replay (lrsc.h).
 * Encodings: the unprivileged ISA manual, chapters "RV32I", "RV64I",
 * "Zalrsc" and "C" (the compressed quadrants); what a constrained loop may
 * hold: "Zalrsc", "Eventual Success of Store-Conditional Instructions".
 */
#include "firmware/trace/lrsc.h"
#include "lib/rvinsn/rvinsn.h"

#define OPC_AMO       0x2f
#define OPC_OP_IMM    0x13
#define OPC_OP_IMM_32 0x1b
#define OPC_OP        0x33
#define OPC_OP_32     0x3b

#define REG_SP 2

/* LRSC_ALU operations; the W forms (32-bit result, sign-extended) are
 * ALU_W | op. */
enum lrsc_alu {
	ALU_ADD, ALU_SUB, ALU_SLL, ALU_SLT, ALU_SLTU, ALU_XOR, ALU_SRL, ALU_SRA, ALU_OR, ALU_AND,
	ALU_LUI, ALU_AUIPC,
	ALU_W = 0x10,
};

/* funct3 of OP / OP-IMM -> the operation (SRL/SRA and ADD/SUB by funct7). */
static const uint8_t alu_of_funct3[8] = {
	ALU_ADD, ALU_SLL, ALU_SLT, ALU_SLTU, ALU_XOR, ALU_SRL, ALU_OR, ALU_AND,
};

static uint32_t bits(uint32_t raw, unsigned int hi, unsigned int lo)
{
	return (raw >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static int64_t sext(uint64_t v, unsigned int width)
{
	return (int64_t)(v << (64 - width)) >> (64 - width);
}

static bool set_alu(struct lrsc_op *op, unsigned int alu, unsigned int rd, unsigned int rs1,
		    unsigned int rs2, bool use_imm, int64_t imm)
{
	op->kind = LRSC_ALU;
	op->alu = (uint8_t)alu;
	op->rd = (uint8_t)rd;
	op->rs1 = (uint8_t)rs1;
	op->rs2 = (uint8_t)(use_imm ? 0 : rs2);
	op->use_imm = use_imm;
	op->imm = imm;
	return true;
}

static bool set_branch(struct lrsc_op *op, unsigned int cond, unsigned int rs1, unsigned int rs2,
		       int64_t off)
{
	op->kind = LRSC_BRANCH;
	op->cond = (uint8_t)cond;
	op->rs1 = (uint8_t)rs1;
	op->rs2 = (uint8_t)rs2;
	op->imm = off;
	return cond != 2 && cond != 3;
}

static bool set_jal(struct lrsc_op *op, unsigned int rd, int64_t off)
{
	op->kind = LRSC_JAL;
	op->rd = (uint8_t)rd;
	op->imm = off;
	return true;
}

/* OP-IMM, OP-IMM-32 (w): the shifts by their funct6/funct7. */
static bool decode_op_imm(uint32_t raw, bool w, struct lrsc_op *op)
{
	unsigned int f3 = bits(raw, 14, 12), rd = bits(raw, 11, 7), rs1 = bits(raw, 19, 15);
	unsigned int top = w ? bits(raw, 31, 25) : bits(raw, 31, 26) << 1;
	int64_t imm = (int32_t)raw >> 20;
	unsigned int shamt = w ? bits(raw, 24, 20) : bits(raw, 25, 20);
	unsigned int wf = w ? ALU_W : 0;

	switch (f3) {
	case 1:
		return top == 0 && set_alu(op, ALU_SLL | wf, rd, rs1, 0, true, shamt);
	case 5:
		if (top != 0 && top != 0x20)
			return false;
		return set_alu(op, (top ? ALU_SRA : ALU_SRL) | wf, rd, rs1, 0, true, shamt);
	case 0:
		return set_alu(op, ALU_ADD | wf, rd, rs1, 0, true, imm);
	default:
		return !w && set_alu(op, alu_of_funct3[f3], rd, rs1, 0, true, imm);
	}
}

/* OP, OP-32 (w): funct7 0 or 0x20 only (the M extension and the bit
 * manipulation extensions are not base I). */
static bool decode_op(uint32_t raw, bool w, struct lrsc_op *op)
{
	unsigned int f3 = bits(raw, 14, 12), f7 = bits(raw, 31, 25), alu;

	if (f7 == 0x20) {
		if (f3 != 0 && f3 != 5)
			return false;
		alu = f3 ? ALU_SRA : ALU_SUB;
	} else if (f7 == 0) {
		alu = alu_of_funct3[f3];
		if (w && f3 != 0 && f3 != 1 && f3 != 5)
			return false;
	} else {
		return false;
	}
	return set_alu(op, alu | (w ? ALU_W : 0), bits(raw, 11, 7), bits(raw, 19, 15),
		       bits(raw, 24, 20), false, 0);
}

/* 32-bit: OP-IMM, OP, their -32 forms, lr/sc (lui, auipc, branches and
 * jal are decode()'s). */
static bool decode_32(uint32_t raw, struct lrsc_op *op)
{
	unsigned int rd = bits(raw, 11, 7), rs1 = bits(raw, 19, 15), rs2 = bits(raw, 24, 20);

	switch (raw & 0x7f) {
	case OPC_OP_IMM:
		return decode_op_imm(raw, false, op);
	case OPC_OP_IMM_32:
		return decode_op_imm(raw, true, op);
	case OPC_OP:
		return decode_op(raw, false, op);
	case OPC_OP_32:
		return decode_op(raw, true, op);
	case OPC_AMO:
		/* lr.w/d (rs2 0) and sc.w/d; the AMOs are stores */
		if ((bits(raw, 14, 12) & 6) != 2)
			return false;
		op->rd = (uint8_t)rd;
		op->rs1 = (uint8_t)rs1;
		op->rs2 = (uint8_t)rs2;
		if (lrsc_is_lr(raw)) {
			op->kind = LRSC_LR;
			op->rs2 = 0;
			return true;
		}
		op->kind = LRSC_SC;
		return bits(raw, 31, 27) == 3;
	default:
		return false;
	}
}

/* The compressed immediates (the "C" chapter's instruction formats). */
static int64_t ci_imm(uint32_t raw)
{
	return sext(bits(raw, 12, 12) << 5 | bits(raw, 6, 2), 6);
}

/* Quadrant 1, funct3 4: c.srli, c.srai, c.andi and the register forms. */
static bool decode_c_arith(uint32_t raw, struct lrsc_op *op)
{
	static const uint8_t reg_alu[8] = { ALU_SUB, ALU_XOR, ALU_OR, ALU_AND,
					    ALU_SUB | ALU_W, ALU_ADD | ALU_W, 0xff, 0xff };
	unsigned int rd = 8 + bits(raw, 9, 7), rs2 = 8 + bits(raw, 4, 2);
	unsigned int shamt = bits(raw, 12, 12) << 5 | bits(raw, 6, 2);

	switch (bits(raw, 11, 10)) {
	case 0:
		return set_alu(op, ALU_SRL, rd, rd, 0, true, shamt);
	case 1:
		return set_alu(op, ALU_SRA, rd, rd, 0, true, shamt);
	case 2:
		return set_alu(op, ALU_AND, rd, rd, 0, true, ci_imm(raw));
	default: {
		uint8_t alu = reg_alu[bits(raw, 12, 12) << 2 | bits(raw, 6, 5)];

		return alu != 0xff && set_alu(op, alu, rd, rd, rs2, false, 0);
	}
	}
}

/* Quadrant 1 (c.lui, c.j, c.beqz, c.bnez are decode()'s). */
static bool decode_c1(uint32_t raw, struct lrsc_op *op)
{
	unsigned int rd = bits(raw, 11, 7);
	int64_t sp16 = sext(bits(raw, 12, 12) << 9 | bits(raw, 4, 3) << 7 | bits(raw, 5, 5) << 6 |
			    bits(raw, 2, 2) << 5 | bits(raw, 6, 6) << 4, 10);

	switch (bits(raw, 15, 13)) {
	case 0:   /* c.addi, c.nop */
		return set_alu(op, ALU_ADD, rd, rd, 0, true, ci_imm(raw));
	case 1:   /* c.addiw (RV64) */
		return rd && set_alu(op, ALU_ADD | ALU_W, rd, rd, 0, true, ci_imm(raw));
	case 2:   /* c.li */
		return set_alu(op, ALU_ADD, rd, 0, 0, true, ci_imm(raw));
	case 3:   /* c.addi16sp */
		return rd == REG_SP && sp16 && set_alu(op, ALU_ADD, REG_SP, REG_SP, 0, true, sp16);
	case 4:
		return decode_c_arith(raw, op);
	default:
		return false;
	}
}

static bool decode_16(uint32_t raw, struct lrsc_op *op)
{
	unsigned int rd = bits(raw, 11, 7), rs2 = bits(raw, 6, 2);
	unsigned int f3 = bits(raw, 15, 13);

	switch (raw & 3) {
	case 0: {   /* c.addi4spn; the rest are loads and stores */
		unsigned int imm = bits(raw, 10, 7) << 6 | bits(raw, 12, 11) << 4 |
				   bits(raw, 5, 5) << 3 | bits(raw, 6, 6) << 2;

		return f3 == 0 && imm && set_alu(op, ALU_ADD, 8 + bits(raw, 4, 2), REG_SP, 0, true, imm);
	}
	case 1:
		return decode_c1(raw, op);
	default:
		if (f3 == 0)   /* c.slli */
			return set_alu(op, ALU_SLL, rd, rd, 0, true, bits(raw, 12, 12) << 5 | rs2);
		/* c.mv, c.add (rs2 0: c.jr, c.jalr, c.ebreak); the rest are
		 * loads and stores */
		if (f3 != 4 || !rs2)
			return false;
		return set_alu(op, ALU_ADD, rd, bits(raw, 12, 12) ? rd : 0, rs2, false, 0);
	}
}

/*
 * One instruction a constrained sequence may hold: the control flow, lui
 * and auipc from lib/rvinsn (with their immediates), the rest here.
 */
static bool decode(uint32_t raw, bool rvc, struct lrsc_op *op)
{
	struct rv_insn in;
	bool c = (raw & 3) != 3;

	if (!rv_insn_decode(raw, 64, rvc ? RV_EXT_C : 0, &in))
		return false;
	op->size = in.size;
	switch (in.kind) {
	case RV_INSN_BRANCH:   /* c.beqz/c.bnez: rs1' against x0 */
		return set_branch(op, c ? bits(raw, 13, 13) : bits(raw, 14, 12),
				  c ? 8 + bits(raw, 9, 7) : bits(raw, 19, 15), c ? 0 : bits(raw, 24, 20),
				  in.imm);
	case RV_INSN_JUMP:
		return set_jal(op, in.rd, in.imm);
	case RV_INSN_LINEAR:
		if (in.flags & (RV_INSN_F_LUI | RV_INSN_F_AUIPC))
			return set_alu(op, in.flags & RV_INSN_F_LUI ? ALU_LUI : ALU_AUIPC, in.rd, 0, 0,
				       true, in.imm);
		return c ? decode_16(raw & 0xffff, op) : decode_32(raw, op);
	default:
		return false;
	}
}

/* ---- The check ------------------------------------------------------------ */

static uint32_t reg_bit(unsigned int r)
{
	return r ? 1u << r : 0;
}

static uint32_t written(const struct lrsc_op *op)
{
	return op->kind == LRSC_BRANCH ? 0 : reg_bit(op->rd);
}

static uint32_t read(const struct lrsc_op *op)
{
	switch (op->kind) {
	case LRSC_ALU:
		if (op->alu == ALU_LUI || op->alu == ALU_AUIPC)
			return 0;
		return reg_bit(op->rs1) | (op->use_imm ? 0 : reg_bit(op->rs2));
	case LRSC_JAL:
		return 0;
	case LRSC_LR:
		return reg_bit(op->rs1);
	default:
		return reg_bit(op->rs1) | reg_bit(op->rs2);
	}
}

static bool is_transfer(const struct lrsc_op *op)
{
	return op->kind == LRSC_BRANCH || op->kind == LRSC_JAL;
}

/* The index of the instruction at offset off, or -1. */
static int index_at(const struct lrsc_seq *seq, uint64_t off)
{
	unsigned int i;

	for (i = 0; i < seq->n; i++)
		if (seq->off[i] == off)
			return (int)i;
	return -1;
}

/* Every forward transfer goes to an instruction of the sequence, to end,
 * or to one address past it (seq->exit); none goes backward. */
static enum lrsc_refusal check_targets(struct lrsc_seq *seq, bool rvc)
{
	unsigned int i;

	seq->exit = LRSC_NO_EXIT;
	for (i = 0; i < seq->n; i++) {
		const struct lrsc_op *op = &seq->op[i];
		uint64_t off;

		if (!is_transfer(op))
			continue;
		if (op->imm <= 0 || (op->imm & (rvc ? 1 : 3)))
			return LRSC_NOT_CONSTRAINED;
		off = seq->off[i] + (uint64_t)op->imm;
		if (off < seq->end - seq->lr) {
			if (index_at(seq, off) < 0)
				return LRSC_NOT_CONSTRAINED;
		} else if (off > seq->end - seq->lr) {
			if (seq->exit != LRSC_NO_EXIT && seq->exit != seq->lr + off)
				return LRSC_TWO_EXITS;
			seq->exit = seq->lr + off;
		}
	}
	return LRSC_OK;
}

/*
 * The registers after the sequence tell its path and values (lrsc.h):
 * the LR's rd is not written again, and a register an instruction reads
 * that is not written on every path to it (must[i]) is not written by it
 * or any later instruction (then it still holds, after the sequence, what
 * it held before).  With forward transfers only, the instructions reach
 * each other in address order, so one pass computes must[].
 */
static enum lrsc_refusal check_replayable(const struct lrsc_seq *seq)
{
	uint32_t must[LRSC_MAX], later[LRSC_MAX + 1];
	unsigned int i, j;

	later[seq->n] = 0;
	for (i = seq->n; i-- > 0;)
		later[i] = later[i + 1] | written(&seq->op[i]);
	if (later[1] & reg_bit(seq->op[0].rd))
		return LRSC_NOT_REPLAYABLE;
	must[0] = 0;
	for (i = 1; i < seq->n; i++) {
		uint32_t m = ~0u;
		bool reached = false;

		if (seq->op[i - 1].kind != LRSC_JAL) {
			m = must[i - 1] | written(&seq->op[i - 1]);
			reached = true;
		}
		for (j = 0; j < i; j++) {
			const struct lrsc_op *op = &seq->op[j];

			if (is_transfer(op) && seq->off[j] + (uint64_t)op->imm == seq->off[i]) {
				m &= must[j] | written(op);
				reached = true;
			}
		}
		must[i] = reached ? m : ~0u;
	}
	for (i = 0; i < seq->n; i++)
		if (read(&seq->op[i]) & ~must[i] & later[i])
			return LRSC_NOT_REPLAYABLE;
	return LRSC_OK;
}

enum lrsc_refusal lrsc_scan(lrsc_fetch_fn fetch, void *ctx, uint64_t lr, bool rvc,
			    struct lrsc_seq *seq)
{
	uint64_t addr = lr;
	enum lrsc_refusal r;
	unsigned int i;

	seq->lr = lr;
	seq->n = 0;
	for (i = 0; i < LRSC_MAX; i++) {
		struct lrsc_op *op = &seq->op[i];
		uint32_t raw;
		bool ok;

		if (fetch(ctx, addr, &raw))
			return LRSC_UNREADABLE;
		ok = decode(raw, rvc, op);
		if (i == 0 && (!ok || op->kind != LRSC_LR))
			return LRSC_NOT_LR;
		if (!ok || (i && op->kind == LRSC_LR))
			return LRSC_NOT_CONSTRAINED;
		seq->raw[i] = (raw & 3) == 3 ? raw : raw & 0xffff;
		seq->off[i] = (uint8_t)(addr - lr);
		seq->n = (uint8_t)(i + 1);
		addr += op->size;
		if (op->kind == LRSC_SC) {
			seq->end = addr;
			r = check_targets(seq, rvc);
			return r ? r : check_replayable(seq);
		}
	}
	return LRSC_NO_SC;
}

/* ---- The replay ------------------------------------------------------------ */

static uint64_t alu(const struct lrsc_op *op, uint64_t pc, uint64_t a, uint64_t b)
{
	unsigned int sh = (unsigned int)b & (op->alu & ALU_W ? 31 : 63);
	uint64_t v;

	switch (op->alu & ~ALU_W) {
	case ALU_ADD:  v = a + b; break;
	case ALU_SUB:  v = a - b; break;
	case ALU_SLL:  v = a << sh; break;
	case ALU_SLT:  v = (int64_t)a < (int64_t)b; break;
	case ALU_SLTU: v = a < b; break;
	case ALU_XOR:  v = a ^ b; break;
	case ALU_SRL:  v = op->alu & ALU_W ? (uint32_t)a >> sh : a >> sh; break;
	case ALU_SRA:  v = op->alu & ALU_W ? (uint64_t)((int32_t)a >> sh)
					   : (uint64_t)((int64_t)a >> sh); break;
	case ALU_OR:   v = a | b; break;
	case ALU_AND:  v = a & b; break;
	case ALU_LUI:  v = (uint64_t)op->imm; break;
	default:       v = pc + (uint64_t)op->imm; break;   /* ALU_AUIPC */
	}
	return op->alu & ALU_W ? (uint64_t)sext(v, 32) : v;
}

/* What the instruction does to sim (its step in *st); the next pc. */
static uint64_t run_op(const struct lrsc_op *op, uint64_t pc, uint64_t sim[32],
		       const uint64_t x[32], struct lrsc_step *st)
{
	uint64_t next = pc + op->size;

	switch (op->kind) {
	case LRSC_ALU:
		st->value = alu(op, pc, sim[op->rs1], op->use_imm ? (uint64_t)op->imm : sim[op->rs2]);
		break;
	case LRSC_BRANCH:
		st->taken = rv_branch_taken(op->cond, sim[op->rs1], sim[op->rs2]);
		return st->taken ? pc + (uint64_t)op->imm : next;
	case LRSC_JAL:
		st->value = next;
		st->taken = true;
		next = pc + (uint64_t)op->imm;
		break;
	default:   /* LR, SC: the loaded value and the outcome are the hart's */
		st->eaddr = sim[op->rs1];
		st->sdata = op->kind == LRSC_SC ? sim[op->rs2] : 0;
		st->value = op->rd ? x[op->rd] : 0;
		break;
	}
	if (op->rd)
		sim[op->rd] = st->value;
	return next;
}

int lrsc_replay(const struct lrsc_seq *seq, const uint64_t x[32], uint64_t stop,
		struct lrsc_step steps[LRSC_MAX])
{
	uint64_t sim[32], pc = seq->lr;
	int i = 0, n = 0, r;

	for (r = 0; r < 32; r++)
		sim[r] = r ? x[r] : 0;
	while (pc != stop) {
		struct lrsc_step *st;

		if (i < 0 || n == LRSC_MAX)
			return -1;   /* left the sequence, not at stop */
		st = &steps[n++];
		*st = (struct lrsc_step){ .pc = pc, .index = (uint8_t)i };
		pc = run_op(&seq->op[i], pc, sim, x, st);
		i = pc < seq->end ? index_at(seq, pc - seq->lr) : -1;
	}
	/* every value the path computed is where it left it */
	for (r = 1; r < 32; r++)
		if (sim[r] != x[r])
			return -1;
	return n;
}
