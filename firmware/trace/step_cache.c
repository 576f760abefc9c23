// SPDX-License-Identifier: BSD-2-Clause
/*
 * Block stepping's block cache (step_cache.h): decoding forward from a
 * block's start to the next instruction that may change the flow.
 */
#include <stdbool.h>
#include <stdint.h>
#include "firmware/trace/step_cache.h"
#include "firmware/trace/step_trigger.h"
#include "firmware/trace/step_fast.h"
#include "firmware/trace/lrsc.h"
#include "firmware/core/umem.h"
#include "firmware/core/riscv_csr.h"
#include "lib/rvinsn/rvinsn.h"
#include "lib/tci/tci_filter.h"

#define INSN_SRET   0x10200073u

void stepper_cache_init(struct stepper *s, struct step_block *cache, unsigned int slots)
{
	s->cache = cache;
	s->cache_mask = slots - 1;
	s->cache_gen = 0;
	s->fast = 0;          /* (RAM held anything before) */
	s->lrsc.on = false;
	s->lrsc.at = ADDR_NONE;
	s->fast_allowed = STEP_FAST_NEVER;
	s->span_qual = NULL;
	s->code_leaves = ~0ULL;
	s->leaf_page = ~0ULL;
}

/* A new generation: every block decoded before misses.  The slots are
 * cleared only the first time (they may hold blocks of an earlier boot)
 * and when the generation wraps. */
void stepper_flush_cache(struct stepper *s)
{
	unsigned int i;

	stepper_fast_leave(s);   /* its blocks are read, and may be cleared */
	s->code_leaves = 0;
	s->leaf_page = ~0ULL;   /* (no page number: va >> 12) */
	s->cache_gen += STEP_CACHE_GEN;
	if (s->cache_gen != STEP_CACHE_GEN)
		return;
	for (i = 0; i <= s->cache_mask; i++)
		s->cache[i].start = ADDR_NONE;
}

/* mstatus for fetching code of privilege priv (STEP_V: V=1, through
 * both translation stages) through MPRV. */
unsigned long step_fetch_context(unsigned int priv)
{
	return (csr_read(mstatus) & ~(MSTATUS_MPP | MSTATUS_MPV)) | step_priv_mstatus(priv);
}

/* CSR instructions (SYSTEM, funct3 != 0) name their CSR in bits 31:20. */
static bool csr_insn_on(uint32_t raw, unsigned int csr)
{
	return (raw & 0x7f) == 0x73 && ((raw >> 12) & 7) != 0 && (raw >> 20) == csr;
}

/* Instructions after which the block is split so the firmware can follow
 * a change: stvec (T1), satp / sfence.vma / fence.i (the cached code). */
static uint8_t watch_flags(uint32_t raw)
{
	if ((raw & 3) != 3)
		return 0;
	/* stvec (in V=1: vstvec), vstvec from HS */
	if (csr_insn_on(raw, 0x105) || csr_insn_on(raw, 0x205))
		return BLOCK_WATCH_STVEC;
	/* satp (in V=1: vsatp), vsatp and hgatp from HS, the fences that
	 * change what an address fetches (sfence.vma, hfence.vvma/gvma,
	 * fence.i) */
	if (csr_insn_on(raw, 0x180) || csr_insn_on(raw, 0x280) || csr_insn_on(raw, 0x680) ||
	    (raw & 0xfe007fff) == 0x12000073 ||       /* sfence.vma */
	    (raw & 0xbe007fff) == 0x22000073 ||       /* hfence.vvma, hfence.gvma */
	    (raw & 0x707f) == 0x100f)                 /* fence.i */
		return BLOCK_WATCH_CODE;
	return 0;
}

/* funct3 of a compare: c.beqz / c.bnez compare rs1' with x0. */
static uint8_t branch_cond(uint32_t raw)
{
	if ((raw & 3) != 3)
		return ((raw >> 13) & 7) == 6 ? 0 : 1;   /* beq / bne */
	return (uint8_t)((raw >> 12) & 7);
}

static uint8_t branch_rs1(uint32_t raw)
{
	return (raw & 3) != 3 ? (uint8_t)(8 + ((raw >> 7) & 7)) : (uint8_t)((raw >> 15) & 31);
}

static uint8_t branch_rs2(uint32_t raw)
{
	return (raw & 3) != 3 ? 0 : (uint8_t)((raw >> 20) & 31);
}

/*
 * The integer registers a linear instruction may write (bit n: xn), from
 * its rd field; more is harmless (a chain stops earlier), less is not.
 * Writes to f registers count as writes to the same number.
 */
static uint32_t written_regs(uint32_t raw)
{
	unsigned int f3 = (raw >> 13) & 7, rd = (raw >> 7) & 31, rdc = 8 + ((raw >> 2) & 7);

	switch (raw & 3) {
	case 0:   /* c.addi4spn, loads: rd'; stores: none */
		return f3 >= 5 ? 0 : 1u << rdc;
	case 1:   /* c.addi(w), c.li, c.lui/c.addi16sp: rd; arithmetic: rd' */
		if (f3 <= 3)
			return 1u << rd;
		return f3 == 4 ? 1u << (8 + ((raw >> 7) & 7)) : ~0u;
	case 2:   /* c.slli, sp loads, c.mv/c.add: rd; sp stores: none */
		return f3 >= 5 ? 0 : 1u << rd;
	default:
		switch ((raw >> 2) & 31) {
		case 0x08: case 0x09: case 0x18: case 0x03:   /* stores, branches, fences */
			return 0;
		case 0x1c:                                     /* SYSTEM: CSR ops write rd */
			return (raw >> 12) & 7 ? 1u << rd : 0;
		default:
			return 1u << rd;
		}
	}
}

/* What ends the block at `in` (and how to emulate it), from rvinsn. */
static void classify_end(const struct stepper *s, struct step_block *b, const struct rv_insn *in,
			 uint32_t raw)
{
	b->kind = BLOCK_END_EMULATE;
	b->raw = raw;
	b->size = in->size;
	b->rd = in->rd;
	b->rs1 = in->rs1;
	b->itype_taken = (uint8_t)rv_insn_itype(in, true, s->itype4, s->all_jumps);
	switch (in->kind) {
	case RV_INSN_BRANCH:
		b->op = EMU_BRANCH;
		b->cond = branch_cond(raw);
		b->rs1 = branch_rs1(raw);
		b->rs2 = branch_rs2(raw);
		b->target = rv_insn_direct_target(in, b->end, 64);
		break;
	case RV_INSN_JUMP:
		b->op = EMU_JAL;
		b->target = rv_insn_direct_target(in, b->end, 64);
		break;
	case RV_INSN_JUMP_REG:
		b->op = EMU_JALR;
		b->target = (uint64_t)in->imm;
		break;
	case RV_INSN_TRAP_RETURN:
		b->op = EMU_SRET;
		if (raw != INSN_SRET)
			b->kind = BLOCK_END_NATIVE;   /* mret, dret, ...: they trap */
		break;
	default:
		b->kind = BLOCK_END_NATIVE;           /* ecall, ebreak, table jumps */
		break;
	}
	/* A direct target off IALIGN: the hart raises the misaligned fetch. */
	if ((b->op == EMU_BRANCH || b->op == EMU_JAL) && s->align4 && (b->target & 2))
		b->kind = BLOCK_END_NATIVE;
}

/*
 * Fetching ahead for scan_block(): one aligned doubleword read through
 * MPRV serves the two to four instructions in it.  An instruction that
 * straddles two doublewords, or a doubleword that cannot be read whole,
 * is fetched on its own (umem_fetch_insn() says exactly what faults).
 */
struct fetch_window {
	uint64_t base;           /* of word; bit 0: it could not be read */
	uint64_t word;
};

static int fetch_ahead(unsigned long ctx, struct fetch_window *w, uint64_t addr, uint32_t *raw,
		       struct trap_info *fault)
{
	uint64_t base = addr & ~7ULL;
	unsigned int shift = (unsigned int)(addr & 6) * 8;
	uint32_t v;

	if ((w->base & ~1ULL) != base)
		w->base = umem_fetch_u64(ctx, base, &w->word, fault) ? base | 1 : base;
	if (w->base & 1)
		return umem_fetch_insn(ctx, addr, raw, fault);
	v = (uint32_t)(w->word >> shift);
	if ((v & 3) != 3) {
		*raw = v & 0xffff;
		return 0;
	}
	if (shift == 48)
		return umem_fetch_insn(ctx, addr, raw, fault);
	*raw = v;
	return 0;
}

/*
 * A jalr right after the lui/auipc that wrote its base (9.1): the run
 * leaves the base at a value known from the code, so the target is
 * (the hart runs the pair in a row, or the block is not run from its
 * start), and the jump is emulated and predicted as a direct one.  Its
 * record is the jalr's, flagged sequentially inferable.
 */
static void seq_jump_static(const struct stepper *s, struct step_block *b, uint64_t target)
{
	b->flags |= BLOCK_SEQ_INFERABLE;
	if (b->kind != BLOCK_END_EMULATE || (s->align4 && (target & 2)))
		return;   /* misaligned: the hart raises it */
	b->op = EMU_JAL;
	b->target = target;
}

static bool reg_written(const struct step_block *b, unsigned int r)
{
	return r && ((b->wmask >> r) & 1);
}

/* Whether a chain stops at b whatever the registers (chain_from()): its
 * end is not a transfer the firmware predicts, or its run writes the
 * transfer's sources, which no register known at a visit then gives. */
static bool ends_chain(const struct step_block *b)
{
	if (b->kind != BLOCK_END_EMULATE || b->op == EMU_SRET)
		return true;
	if (b->op == EMU_BRANCH)
		return reg_written(b, b->rs1) || reg_written(b, b->rs2);
	return b->op == EMU_JALR && reg_written(b, b->rs1);
}

/* How the fast visit takes b's end (step_fast.S): a branch, a jump or a
 * jalr it predicts as t0_common_hit() does; not an sret, and not a jalr
 * with no run before it when 9.1 is on (outcome() looks at the held
 * instruction then). */
static uint8_t fast_op_of(const struct stepper *s, const struct step_block *b)
{
	if (b->kind != BLOCK_END_EMULATE)
		return 0;
	switch (b->op) {
	case EMU_BRANCH:
		return STEP_FAST_BRANCH;
	case EMU_JAL:
		return STEP_FAST_JAL;
	case EMU_JALR:
		return !b->count && s->seq_jump ? 0 : STEP_FAST_JALR;
	default:
		return 0;
	}
}

/* The run so far goes on with the constrained LR/SC sequence at lr, when
 * lrsc_scan() takes it: b ends after its SC (STEP_TAG_LRSC, stepper.h).
 * Out of line: its frame holds the decoded sequence. */
static __attribute__((noinline)) bool lrsc_block(const struct stepper *s, struct step_block *b,
						 uint64_t lr, unsigned long ctx)
{
	struct lrsc_seq seq;

	if (lrsc_scan(lrsc_fetch_mprv, &ctx, lr, !s->align4, &seq) != LRSC_OK)
		return false;
	b->end = seq.end;
	b->target = seq.exit;
	b->kind = BLOCK_END_SPLIT;
	b->tag |= STEP_TAG_LRSC;
	return true;
}

/* What the comparators make of b (its run and its end) in U and in S,
 * which the cache keeps one block for (the stepper's records carry
 * context 0): 0 when they take it whole in both, STEP_TAG_OUT when they
 * leave it out whole in both, STEP_TAG_SLOW otherwise. */
static uint32_t span_tag(const struct tci_qualifier *q, const struct step_block *b)
{
	enum tci_span u = tci_qualify_span(q, b->start, b->end, TCI_PRIV_U, 0);

	if (u == TCI_SPAN_MIXED || tci_qualify_span(q, b->start, b->end, TCI_PRIV_S, 0) != u)
		return STEP_TAG_SLOW;
	return u == TCI_SPAN_ALL ? 0 : STEP_TAG_OUT;
}

/*
 * The filter bit of the leaf PTE of `level` (0: 4 KiB) that maps va: what
 * an sfence.vma of va changes (with rs1 != x0 it orders only accesses
 * through the leaf that translates va; a changed non-leaf PTE needs rs1 =
 * x0, privileged spec "SFENCE.VMA"), so a fence whose leaves at every
 * level miss the filter changes no cached code.
 */
static uint64_t code_leaf_bit(unsigned int level, uint64_t va)
{
	return 1ULL << (((va >> (12 + 9 * level)) + 17ULL * level) & 63);
}

/* The leaf that maps the code at va joins the filter (a page already
 * looked up costs a compare).  V=1 (two stages) and failed walks make it
 * all ones; untranslated code has no leaf a fence changes. */
static void note_code_leaf(struct stepper *s, unsigned long ctx, uint64_t va)
{
	uint64_t pa;
	int level;

	if (va >> 12 == s->leaf_page)
		return;
	s->leaf_page = va >> 12;
	level = umem_leaf(ctx, va, &pa);
	if (level == UMEM_NO_LEAF)
		s->code_leaves = ~0ULL;
	else if (level != UMEM_BARE)
		s->code_leaves |= code_leaf_bit((unsigned int)level, va);
}

bool step_fence_spares_cache(const struct stepper *s, uint64_t va)
{
	unsigned int level;

	for (level = 0; level <= 4; level++)
		if (s->code_leaves & code_leaf_bit(level, va))
			return false;
	return true;
}

bool step_sfence_spares_cache(const struct stepper *s, uint32_t raw, const unsigned long *x)
{
	unsigned int rs1 = (raw >> 15) & 31;

	/* sfence.vma rs1, rs2 with rs1 != x0 (rs2, the ASID, not looked at) */
	return (raw & 0xfe007fff) == 0x12000073 && rs1 && step_fence_spares_cache(s, x[rs1]);
}

/* Decode forward from pc to the next instruction that may change the flow. */
void step_scan_block(struct stepper *s, struct step_block *b, uint64_t pc, unsigned int priv)
{
	unsigned long ctx = step_fetch_context(priv);
	unsigned int ext = s->align4 ? 0 : RV_EXT_C, n = 0;
	uint64_t addr = pc, mask = 0;
	struct rv_insn prev, in;
	struct fetch_window fw = { .base = 1 };
	bool prev_ok = false;

	b->start = pc;
	b->tag = s->cache_gen | (priv & STEP_V);
	b->flags = 0;
	b->raw = 0;
	b->size = 0;
	b->wmask = 0;
	b->kind = BLOCK_END_SPLIT;
	for (;;) {
		struct trap_info fault;
		uint32_t raw;
		unsigned int len;

		b->end = addr;
		if (n == s->max_block)
			break;
		if (fetch_ahead(ctx, &fw, addr, &raw, &fault)) {
			b->kind = BLOCK_END_FAULT;
			break;
		}
		if (lrsc_is_lr(raw) && lrsc_block(s, b, addr, ctx))
			break;
		len = rv_insn_plain_length(raw, ext);
		if (len) {
			prev_ok = false;   /* not lui/auipc: 9.1 does not apply */
			goto linear;
		}
		len = rv_insn_length((uint16_t)raw, ext);
		if (!rv_insn_decode(raw, 64, ext, &in) || (len != 2 && len != 4)) {
			/* Unknown to rvinsn: the hart runs it, T0 after it. */
			b->kind = BLOCK_END_NATIVE;
			b->raw = raw;
			b->size = (uint8_t)(len ? len : 2);
			break;
		}
		if (in.kind != RV_INSN_LINEAR) {
			classify_end(s, b, &in, raw);
			if (prev_ok && in.kind == RV_INSN_JUMP_REG && rv_insn_seq_inferable(&prev, &in))
				seq_jump_static(s, b, rv_insn_seq_target(&prev, addr - prev.size, &in, 64));
			break;
		}
		prev = in;
		prev_ok = true;
linear:
		if (len == 2)
			mask |= 1ULL << n;
		b->wmask |= written_regs(raw);
		n++;
		addr += len;
		b->flags = watch_flags(raw);
		if (b->flags) {
			b->end = addr;
			b->raw = raw;   /* (step_sfence_spares_cache()) */
			break;
		}
	}
	note_code_leaf(s, ctx, pc);
	if (addr > pc)
		note_code_leaf(s, ctx, addr - 1);   /* the run's last byte */
	if (b->size)
		note_code_leaf(s, ctx, b->end + b->size - 1);   /* the end's */
	b->count = (uint8_t)n;
	b->rvc_mask = mask;
	if (ends_chain(b))
		b->flags |= BLOCK_CHAIN_STOP;
	b->fast_op = fast_op_of(s, b);
	b->fast_h = (uint8_t)(((b->end - b->start) >> 1) + (b->size >> 1));
	if (s->span_qual)
		b->tag |= span_tag(s->span_qual, b);
}
