// SPDX-License-Identifier: BSD-2-Clause
/*
 * tvtrace check: replays a trace group by group against a shadow state (the
 * spec's chapter 3.1) and checks that each group is explained by what came
 * before it.  A group's records are the state after its instruction or trap
 * (Appendix C: "new pc value"), so the instruction of a group sits at the
 * pc the previous groups left.  Values never told are unknown, and a rule
 * that needs an unknown value is not applied.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int tv_check_fail(struct tv_checker *c, const struct tv_group *g, size_t rec,
		  const char *fmt, ...)
{
	char what[384], where[96] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (g && g->pc0.known)
		snprintf(where, sizeof(where), " (group %zu, pc 0x%" PRIx64 ")", g->number, g->pc0.v);
	else if (g)
		snprintf(where, sizeof(where), " (group %zu)", g->number);
	nt_err_set(c->err, "record %zu at byte 0x%zx%s: %s", rec, c->t->v[rec].offset, where, what);
	return -1;
}

struct tv_known tv_shadow_get(const struct tv_shadow *s, uint16_t reg)
{
	if (reg == TVTRACE_REG_GPR(0))
		return (struct tv_known){ true, 0 };
	if (reg >= TV_REG_COUNT || !s->known[reg])
		return (struct tv_known){ false, 0 };
	return (struct tv_known){ true, s->reg[reg] };
}

long tv_group_write(const struct tv_checker *c, const struct tv_group *g, uint16_t reg)
{
	long found = -1;

	for (size_t i = g->first; i < g->end; i++) {
		const struct tvtrace_record *r = &c->t->v[i].rec;

		if ((r->opcode == TVTRACE_OP_FULL_REG || r->opcode == TVTRACE_OP_INCR_REG_ADD ||
		     r->opcode == TVTRACE_OP_INCR_REG_OR) && r->reg == reg)
			found = (long)i;
	}
	return found;
}

static uint64_t xlen_mask(const struct tv_checker *c, uint64_t v)
{
	return rv_xlen_mask(v, c->xlen);
}

/* ---- Applying records to the shadow ---------------------------------- */

static void apply_reg(struct tv_checker *c, const struct tvtrace_record *r)
{
	struct tv_shadow *s = &c->s;

	if (r->reg >= TV_REG_COUNT)
		return;         /* Debug spec numbers the check does not follow */
	if (r->opcode == TVTRACE_OP_FULL_REG) {
		s->reg[r->reg] = r->value;
		s->known[r->reg] = true;
	} else if (r->opcode == TVTRACE_OP_INCR_REG_ADD) {
		s->reg[r->reg] = xlen_mask(c, s->reg[r->reg] + (uint64_t)(int64_t)r->reg_offset);
	} else {
		s->reg[r->reg] |= r->reg_mask;
	}
}

static void apply_record(struct tv_checker *c, const struct tv_group *g,
			 const struct tvtrace_record *r)
{
	struct tv_shadow *s = &c->s;

	switch (r->opcode) {
	case TVTRACE_OP_FULL_REG:
	case TVTRACE_OP_INCR_REG_ADD:
	case TVTRACE_OP_INCR_REG_OR:
		apply_reg(c, r);
		break;
	case TVTRACE_OP_INCR_PC:
		if (g)
			s->pc = (struct tv_known){ g->pc0.known, xlen_mask(c, g->pc0.v + g->len) };
		break;
	case TVTRACE_OP_STATE:
		if (r->state_id == TVTRACE_STATE_PC)
			s->pc = (struct tv_known){ true, r->value };
		else if (r->state_id == TVTRACE_STATE_PRIV)
			s->priv = (struct tv_known){ true, r->value };
		break;
	default:
		break;
	}
}

static void apply_group(struct tv_checker *c, const struct tv_group *g)
{
	if (g->reset)           /* reset state is not told: forget everything */
		memset(&c->s, 0, sizeof(c->s));
	for (size_t i = g->first; i < g->end; i++)
		apply_record(c, g, &c->t->v[i].rec);
}

/* ---- One group: its shape (chapter 3's rules) ------------------------- */

static int scan_group(struct tv_checker *c, struct tv_group *g)
{
	g->insn = g->pc_update = g->cause = -1;
	for (size_t i = g->first; i < g->end; i++) {
		const struct tvtrace_record *r = &c->t->v[i].rec;
		bool is_pc = r->opcode == TVTRACE_OP_INCR_PC ||
			     (r->opcode == TVTRACE_OP_STATE && r->state_id == TVTRACE_STATE_PC);

		if (r->opcode == TVTRACE_OP_INSN16 || r->opcode == TVTRACE_OP_INSN32) {
			if (g->insn >= 0)
				return tv_check_fail(c, g, i, "second instruction in one group");
			g->insn = (long)i;
		}
		/* chapter 3: only unambiguous state changes */
		if (is_pc && g->pc_update >= 0)
			return tv_check_fail(c, g, i, "second pc update in one group");
		if (is_pc)
			g->pc_update = (long)i;
		g->reset |= r->opcode == TVTRACE_OP_HART_RESET;
		g->init |= r->opcode == TVTRACE_OP_STATE_INIT;
	}
	if (g->pc_update >= 0 && c->t->v[g->pc_update].rec.opcode == TVTRACE_OP_INCR_PC && g->insn < 0)
		return tv_check_fail(c, g, (size_t)g->pc_update,
				     "increment pc in a group without an instruction (chapter 3)");
	if (g->init && (g->insn >= 0 || g->reset))
		return tv_check_fail(c, g, (size_t)(g->insn >= 0 ? g->insn : (long)g->first),
				     "state initialization with an instruction or a reset (chapter 3)");
	return 0;
}

/*
 * The instruction of a group.  Its length is the encoding's (ISA manual,
 * "Base Instruction-Length Encoding"); the record's may differ only when it
 * traps: C.7 reports the illegal 0x0000 in a 32-bit record.
 */
static void decode_insn(struct tv_checker *c, struct tv_group *g)
{
	const struct tvtrace_record *r = &c->t->v[g->insn].rec;

	g->rec_len = r->opcode == TVTRACE_OP_INSN16 ? 2 : 4;
	g->raw = g->rec_len == 2 ? (r->insn & 0xffff) : r->insn;
	g->len = rv_insn_length((uint16_t)g->raw, RV_EXT_C);
	if (g->len == 0 || g->len > g->rec_len)
		g->len = g->rec_len;
	if (g->len == 2)
		g->raw &= 0xffff;
	rv_insn_decode(g->raw, c->xlen, RV_EXT_C, &g->in);
	tv_operands_decode(g->raw, c->xlen, &g->ops);
}

static int check_insn_length(struct tv_checker *c, const struct tv_group *g)
{
	if (g->len == g->rec_len)
		return 0;
	return tv_check_fail(c, g, (size_t)g->insn,
			     "%u-bit instruction record holds 0x%08" PRIx32 ", a %u-byte encoding, and it did not trap",
			     g->rec_len * 8, c->t->v[g->insn].rec.insn, g->len);
}

/* Instruction bits equal the ELF's bytes at pc, when pc is in an image. */
static int check_bits(struct tv_checker *c, const struct tv_group *g)
{
	uint8_t b[4];

	if (!g->pc0.known || !c->images || nt_images_read(c->images, g->pc0.v, b, g->len))
		return 0;
	uint32_t elf = b[0] | (uint32_t)b[1] << 8;

	if (g->len == 4)
		elf |= (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	c->sum->bits_checked++;
	if (elf != g->raw)
		return tv_check_fail(c, g, (size_t)g->insn,
				     "instruction 0x%0*" PRIx32 " but the ELF has 0x%0*" PRIx32 " at 0x%" PRIx64,
				     (int)g->len * 2, g->raw, (int)g->len * 2, elf, g->pc0.v);
	return 0;
}

/* Whether the group writes xcause as a trap (not a csr* to xcause). */
static void find_cause(struct tv_checker *c, struct tv_group *g)
{
	static const uint16_t causes[] = { CSR_SCAUSE, CSR_MCAUSE };

	for (size_t k = 0; k < 2; k++) {
		long w = tv_group_write(c, g, causes[k]);

		if (w >= 0 && !(g->insn >= 0 && g->ops.is_csr && g->ops.csr == causes[k]))
			g->cause = w;
	}
}

static void snapshot(struct tv_checker *c, struct tv_group *g)
{
	const struct tv_shadow *s = &c->s;
	uint16_t base = g->ops.rs2_fp ? TVTRACE_REG_FPR_FIRST : TVTRACE_REG_GPR_FIRST;

	g->pc0 = s->pc;
	g->priv0 = s->priv;
	g->rs1 = tv_shadow_get(s, (uint16_t)TVTRACE_REG_GPR(g->ops.rs1));
	g->rs2 = tv_shadow_get(s, (uint16_t)(base + g->ops.rs2));
	if (g->insn >= 0 && g->in.kind == RV_INSN_JUMP_REG)
		g->rs1 = tv_shadow_get(s, (uint16_t)TVTRACE_REG_GPR(g->in.rs1));
	g->stvec = tv_shadow_get(s, CSR_STVEC);
	g->mtvec = tv_shadow_get(s, CSR_MTVEC);
	g->sepc = tv_shadow_get(s, CSR_SEPC);
	g->mepc = tv_shadow_get(s, CSR_MEPC);
	g->sstatus = tv_shadow_get(s, CSR_SSTATUS);
	g->mstatus = tv_shadow_get(s, CSR_MSTATUS);
	g->satp = tv_shadow_get(s, CSR_SATP);
	if (g->ops.is_csr)
		g->csr_old = tv_shadow_get(s, g->ops.csr);
}

/* ---- Traps ------------------------------------------------------------ */

/* Privileged spec, "Machine Trap-Vector Base-Address Register": MODE 1
 * (vectored) sends interrupts to BASE + 4 * cause. */
static struct tv_known trap_vector(const struct tv_checker *c, struct tv_known tvec, uint64_t cause)
{
	uint64_t irq_bit = 1ull << (c->xlen - 1);

	if (!tvec.known)
		return tvec;
	uint64_t base = tvec.v & ~3ull;

	if ((tvec.v & 3) == 1 && (cause & irq_bit))
		base += 4 * (cause & ~irq_bit);
	return (struct tv_known){ true, xlen_mask(c, base) };
}

/* ecall's cause is 8 + the privilege it came from; ebreak's is 3. */
static int check_trap_cause(struct tv_checker *c, const struct tv_group *g, uint64_t cause)
{
	uint64_t want;

	if (g->insn < 0 || g->in.kind != RV_INSN_TRAP)
		return 0;
	bool ecall = g->raw == 0x00000073;

	if (ecall && !g->priv0.known)
		return 0;
	want = ecall ? 8 + g->priv0.v : 3;
	if (cause != want)
		return tv_check_fail(c, g, (size_t)g->cause, "%s traps with cause %" PRIu64 ", not %" PRIu64,
				     ecall ? "ecall" : "ebreak", cause, want);
	return 0;
}

static int check_trap(struct tv_checker *c, const struct tv_group *g)
{
	bool to_m = c->t->v[g->cause].rec.reg == CSR_MCAUSE;
	struct tv_known told = tv_shadow_get(&c->s, to_m ? CSR_MCAUSE : CSR_SCAUSE);
	uint64_t cause = told.v;
	bool irq = cause >> (c->xlen - 1);
	long epc = tv_group_write(c, g, to_m ? CSR_MEPC : CSR_SEPC);
	long priv = -1;

	if (irq)
		c->sum->interrupts++;
	else
		c->sum->exceptions++;
	if (g->pc_update < 0 || c->t->v[g->pc_update].rec.opcode != TVTRACE_OP_STATE)
		return tv_check_fail(c, g, (size_t)g->cause, "trap without a new pc record");
	struct tv_known vec = trap_vector(c, to_m ? g->mtvec : g->stvec, cause);

	vec.known &= told.known;        /* an OR into an unknown cause */

	if (vec.known && c->s.pc.v != vec.v)
		return tv_check_fail(c, g, (size_t)g->pc_update,
				     "trap (cause 0x%" PRIx64 ") goes to 0x%" PRIx64 ", but %s names 0x%" PRIx64,
				     cause, c->s.pc.v, to_m ? "mtvec" : "stvec", vec.v);
	struct tv_known epc_value = tv_shadow_get(&c->s, to_m ? CSR_MEPC : CSR_SEPC);

	if (epc >= 0 && g->pc0.known && epc_value.known && epc_value.v != g->pc0.v)
		return tv_check_fail(c, g, (size_t)epc, "%s = 0x%" PRIx64 ", but the trap was at 0x%" PRIx64,
				     to_m ? "mepc" : "sepc", epc_value.v, g->pc0.v);
	for (size_t i = g->first; i < g->end; i++)
		if (c->t->v[i].rec.opcode == TVTRACE_OP_STATE && c->t->v[i].rec.state_id == TVTRACE_STATE_PRIV)
			priv = (long)i;
	if (priv >= 0 && c->s.priv.v != (to_m ? 3u : 1u))
		return tv_check_fail(c, g, (size_t)priv, "trap to %s-mode enters privilege %" PRIu64,
				     to_m ? "M" : "S", c->s.priv.v);
	return check_trap_cause(c, g, cause);
}

/* ---- Groups ------------------------------------------------------------ */

static int check_group(struct tv_checker *c, struct tv_group *g)
{
	int rc = scan_group(c, g);

	if (rc)
		return rc;
	if (g->insn >= 0)
		decode_insn(c, g);
	snapshot(c, g);
	/* Without an instruction, xcause names a trap only once something ran:
	 * the first group of a trace tells the initial state. */
	if (g->insn >= 0 || g->pc0.known)
		find_cause(c, g);
	if (g->insn >= 0 && (rc = check_bits(c, g)))
		return rc;
	apply_group(c, g);
	for (size_t i = g->first; i < g->end; i++) {
		const struct tvtrace_record *r = &c->t->v[i].rec;

		if (r->opcode == TVTRACE_OP_FULL_REG && r->reg == TVTRACE_REG_GPR(0) && r->value)
			return tv_check_fail(c, g, i, "x0 written with 0x%" PRIx64, r->value);
	}
	if (g->insn >= 0)
		c->sum->instructions++;
	if (g->reset || g->init)
		return 0;
	if (g->cause >= 0)
		return check_trap(c, g);
	if (g->insn < 0)
		return 0;
	if (g->pc_update < 0)
		return tv_check_fail(c, g, (size_t)g->insn, "instruction without a pc update");
	rc = check_insn_length(c, g);
	return rc ? rc : tv_check_retired(c, g);
}

/* A record outside any group is a state change of its own (chapter 3). */
static int check_loose(struct tv_checker *c, size_t i)
{
	const struct tvtrace_record *r = &c->t->v[i].rec;

	if (r->opcode == TVTRACE_OP_END_GROUP)
		return tv_check_fail(c, NULL, i, "end group outside a group");
	if (r->opcode == TVTRACE_OP_INSN16 || r->opcode == TVTRACE_OP_INSN32 ||
	    r->opcode == TVTRACE_OP_INCR_PC)
		return tv_check_fail(c, NULL, i, "%s outside a group", tv_opcode_name(r->opcode));
	if (r->opcode == TVTRACE_OP_HART_RESET)
		memset(&c->s, 0, sizeof(c->s));
	else
		apply_record(c, NULL, r);
	return 0;
}

int tv_check(const struct tv_trace *t, const struct tvtrace_params *params,
	     struct nt_image_set *images, struct tv_check_summary *sum,
	     struct nt_err *err)
{
	struct tv_checker *c = calloc(1, sizeof(*c));
	int rc = 0;
	size_t i = 0;

	if (!c) {
		nt_err_set(err, "out of memory");
		return -1;
	}
	*c = (struct tv_checker){ .t = t, .params = *params, .xlen = params->xlen_bytes * 8u,
				  .images = images, .sum = sum, .err = err };
	memset(sum, 0, sizeof(*sum));
	sum->records = t->count;
	while (i < t->count && rc == 0) {
		if (t->v[i].rec.opcode != TVTRACE_OP_BEGIN_GROUP) {
			rc = check_loose(c, i++);
			continue;
		}
		struct tv_group g = { .number = sum->groups++, .first = i + 1 };

		for (g.end = g.first; g.end < t->count; g.end++) {
			uint8_t op = t->v[g.end].rec.opcode;

			if (op == TVTRACE_OP_BEGIN_GROUP || op == TVTRACE_OP_END_GROUP)
				break;
		}
		if (g.end == t->count) {
			sum->unterminated = 1;  /* cut short: its state is incomplete */
			break;
		}
		rc = check_group(c, &g);
		i = t->v[g.end].rec.opcode == TVTRACE_OP_END_GROUP ? g.end + 1 : g.end;
	}
	free(c);
	return rc;
}
