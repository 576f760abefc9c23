// SPDX-License-Identifier: BSD-2-Clause
/*
 * tvtrace check: an instruction that retired without a trap.  Its next pc
 * must follow from the instruction and the register values the trace told
 * before it; the values it links (jal, jalr) or builds (lui, auipc) must be
 * the ones the ISA defines.
 */
#include <inttypes.h>

#include "check.h"

#define INSN_SRET 0x10200073u
#define INSN_MRET 0x30200073u
#define INSN_ECALL 0x00000073u

/* ISA manual, "Conditional Branches": funct3 0 beq, 1 bne, 4 blt, 5 bge,
 * 6 bltu, 7 bgeu; signed comparisons are at XLEN. */
static bool branch_taken(unsigned cond, uint64_t a, uint64_t b, unsigned xlen)
{
	int64_t sa = xlen == 32 ? (int32_t)a : (int64_t)a;
	int64_t sb = xlen == 32 ? (int32_t)b : (int64_t)b;

	switch (cond) {
	case 0: return a == b;
	case 1: return a != b;
	case 4: return sa < sb;
	case 5: return sa >= sb;
	case 6: return a < b;
	default: return a >= b;
	}
}

static struct tv_known known(bool k, uint64_t v, unsigned xlen)
{
	return (struct tv_known){ k, rv_xlen_mask(v, xlen) };
}

struct tv_known tv_next_pc(const struct tv_checker *c, const struct tv_group *g)
{
	uint64_t pc = g->pc0.v;
	bool k = g->pc0.known;

	switch (g->in.kind) {
	case RV_INSN_TRAP:      /* an ecall serviced below the traced privilege */
		/* An SBI call may resume elsewhere (SSE, ext-sse.adoc: an event's
		 * handler or the context it interrupted); its group then says
		 * the sepc the firmware set. */
		if (tv_group_write(c, g, CSR_SEPC) >= 0)
			return known(false, 0, c->xlen);
		return known(k, pc + g->len, c->xlen);
	case RV_INSN_LINEAR:
		return known(k, pc + g->len, c->xlen);
	case RV_INSN_BRANCH:
		if (!g->rs1.known || !g->rs2.known)
			return known(false, 0, c->xlen);
		if (branch_taken(g->ops.branch_cond, g->rs1.v, g->rs2.v, c->xlen))
			return known(k, rv_insn_direct_target(&g->in, pc, c->xlen), c->xlen);
		return known(k, pc + g->len, c->xlen);
	case RV_INSN_JUMP:
		return known(k, rv_insn_direct_target(&g->in, pc, c->xlen), c->xlen);
	case RV_INSN_JUMP_REG:
		return known(g->rs1.known, (g->rs1.v + (uint64_t)g->in.imm) & ~1ull, c->xlen);
	case RV_INSN_TRAP_RETURN:
		/* Privileged spec: xepc[0] is always zero */
		if (g->raw == INSN_SRET)
			return known(g->sepc.known, g->sepc.v & ~1ull, c->xlen);
		if (g->raw == INSN_MRET)
			return known(g->mepc.known, g->mepc.v & ~1ull, c->xlen);
		return known(false, 0, c->xlen);
	default:                /* table jumps, pops: values the trace has not */
		return known(false, 0, c->xlen);
	}
}

/* What decided the expected pc, for the message. */
static void describe_flow(const struct tv_checker *c, const struct tv_group *g, char *buf, size_t size)
{
	switch (g->in.kind) {
	case RV_INSN_BRANCH:
		snprintf(buf, size, "branch %s (x%u = 0x%" PRIx64 ", x%u = 0x%" PRIx64 ")",
			 branch_taken(g->ops.branch_cond, g->rs1.v, g->rs2.v, c->xlen) ? "taken" : "not taken",
			 g->ops.rs1, g->rs1.v, g->ops.rs2, g->rs2.v);
		break;
	case RV_INSN_JUMP:
		snprintf(buf, size, "jump by %" PRId64, g->in.imm);
		break;
	case RV_INSN_JUMP_REG:
		snprintf(buf, size, "jump to x%u (0x%" PRIx64 ") + %" PRId64, g->in.rs1, g->rs1.v, g->in.imm);
		break;
	case RV_INSN_TRAP_RETURN:
		snprintf(buf, size, "%s", g->raw == INSN_SRET ? "sret to sepc" : "mret to mepc");
		break;
	default:
		snprintf(buf, size, "sequential");
		break;
	}
}

/* A branch whose operands are unknown still goes to one of two places. */
static int check_branch_unknown(struct tv_checker *c, const struct tv_group *g)
{
	uint64_t taken = rv_insn_direct_target(&g->in, g->pc0.v, c->xlen);
	uint64_t fall = rv_xlen_mask(g->pc0.v + g->len, c->xlen);

	if (!g->pc0.known || !c->s.pc.known || c->s.pc.v == taken || c->s.pc.v == fall)
		return 0;
	return tv_check_fail(c, g, (size_t)g->pc_update,
			     "branch goes to 0x%" PRIx64 ", neither its target 0x%" PRIx64 " nor 0x%" PRIx64,
			     c->s.pc.v, taken, fall);
}

static int check_flow(struct tv_checker *c, const struct tv_group *g)
{
	struct tv_known want = tv_next_pc(c, g);
	char why[160];

	if (g->in.kind == RV_INSN_INVALID)
		return tv_check_fail(c, g, (size_t)g->insn,
				     "0x%0*" PRIx32 " is not a valid instruction, yet it retired without a trap",
				     (int)g->len * 2, g->raw);
	if (g->in.kind == RV_INSN_BRANCH && !want.known)
		return check_branch_unknown(c, g);
	if (!want.known || !c->s.pc.known || want.v == c->s.pc.v)
		return 0;
	describe_flow(c, g, why, sizeof(why));
	return tv_check_fail(c, g, (size_t)g->pc_update, "%s: next pc 0x%" PRIx64 ", but the trace has 0x%" PRIx64,
			     why, want.v, c->s.pc.v);
}

/* The value the instruction must leave in rd, when the ISA fixes it. */
static struct tv_known rd_value(const struct tv_checker *c, const struct tv_group *g)
{
	bool pc = g->pc0.known;

	if (g->in.kind == RV_INSN_JUMP || g->in.kind == RV_INSN_JUMP_REG)
		return known(pc, g->pc0.v + g->len, c->xlen);
	if (g->in.flags & RV_INSN_F_LUI)
		return known(true, (uint64_t)g->in.imm, c->xlen);
	if (g->in.flags & RV_INSN_F_AUIPC)
		return known(pc, g->pc0.v + (uint64_t)g->in.imm, c->xlen);
	return known(false, 0, c->xlen);
}

static int check_rd(struct tv_checker *c, const struct tv_group *g)
{
	struct tv_known want = rd_value(c, g);
	uint16_t rd = (uint16_t)TVTRACE_REG_GPR(g->in.rd);
	struct tv_known got = tv_shadow_get(&c->s, rd);
	long w;

	if (!(g->in.flags & RV_INSN_F_WRITES_RD) || !want.known || !got.known)
		return 0;
	w = tv_group_write(c, g, rd);
	if (w < 0 || got.v == want.v)
		return 0;
	return tv_check_fail(c, g, (size_t)w, "x%u = 0x%" PRIx64 ", but the instruction makes it 0x%" PRIx64,
			     g->in.rd, got.v, want.v);
}

/* sret/mret return to the privilege in sstatus.SPP / mstatus.MPP. */
static int check_return_priv(struct tv_checker *c, const struct tv_group *g)
{
	bool sret = g->raw == INSN_SRET;
	struct tv_known status = sret ? g->sstatus : g->mstatus;
	uint64_t want = sret ? (status.v >> 8) & 1 : (status.v >> 11) & 3;

	c->sum->trap_returns++;
	if ((!sret && g->raw != INSN_MRET) || !status.known)
		return 0;
	for (size_t i = g->first; i < g->end; i++) {
		const struct tvtrace_record *r = &c->t->v[i].rec;

		if (r->opcode == TVTRACE_OP_STATE && r->state_id == TVTRACE_STATE_PRIV && r->value != want)
			return tv_check_fail(c, g, i, "%s returns to privilege %" PRIu64 ", but %s says %" PRIu64,
					     sret ? "sret" : "mret", r->value, sret ? "sstatus.SPP" : "mstatus.MPP",
					     want);
	}
	return 0;
}

int tv_check_retired(struct tv_checker *c, const struct tv_group *g)
{
	int rc = check_flow(c, g);

	if (!rc)
		rc = check_rd(c, g);
	if (!rc && g->in.kind == RV_INSN_TRAP_RETURN)
		rc = check_return_priv(c, g);
	if (!rc && g->raw == INSN_ECALL)
		c->sum->ecalls_serviced++;
	if (!rc)
		rc = tv_check_csr(c, g);
	return rc ? rc : tv_check_memory(c, g);
}
