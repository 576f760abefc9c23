// SPDX-License-Identifier: BSD-2-Clause
/*
 * firmware/trace/stepper.c, the whole block stepper, on the host: its
 * visits against the per-record path.
 *
 * A random program (linear addi/c.addi runs ending in branches, jumps,
 * calls, indirect calls and returns; leaf functions; an S-mode trap
 * handler that returns with sret or jumps away; a cmpxchg, Linux's LR/SC
 * loop) runs on a model hart: an interpreter of those instructions with
 * the two execute triggers of the debug spec (fire before the instruction
 * at tdata2 executes, in S-mode) and interrupts delivered to S-mode at
 * random instruction boundaries (sepc, scause, then stvec).  When a trigger
 * fires, the model hart traps into the stepper as the firmware's trap entry
 * does (stepper_breakpoint()), with its registers as the frame, and resumes
 * where the frame's mepc says, with the registers the frame holds.
 *
 * The reference is what `ntrace encode` makes of the same execution: one
 * Trace Ingress Port record per retired instruction (rv_insn_itype() of its
 * decoding, as tools/ntrace/codec.c classifies a QEMU log line), the last
 * one before an interrupt marked as interrupted.  Both go through the
 * qualified ingress into an N-Trace encoder with the same configuration;
 * their bytes must be equal, the stepper must never lose track, count
 * every retired instruction once, never trap twice at one place without
 * the hart retiring anything in between, and never let a visit or an
 * interrupt fall between an LR and its SC (every SC succeeds).
 *
 * This drives every C visit (the common visit, the loop visit, chains,
 * single steps, the trap vector's window) but not step_fast.S, which only
 * runs on a hart: the target suite's byte-exact trace tests cover it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "firmware/trace/trace_hart.h"
#include "firmware/trace/stepper.h"
#include "firmware/trace/step_fast.h"
#include "firmware/trace/step_cache.h"
#include "firmware/core/hart.h"
#include "firmware/core/umem.h"
#include "firmware/emu/time_csr.h"
#include "firmware/service/redirect.h"
#include "firmware/core/trigger.h"
#include "firmware/core/riscv_csr.h"
#include "lib/ntrace/ntrace_ingress.h"
#include "lib/rvinsn/rvinsn.h"

#define BASE        0x80200000ull
#define MEM_HALVES  4096               /* 8 KiB of code */
#define M_HANDLER   0x80000000ull      /* mtvec: the firmware's */

/* ---- The model hart's CSRs (riscv_csr.h, TSBI_HOST_CSR) -------------- */

static unsigned long csr_file[4096];
static unsigned long tdata1[2], tdata2[2], tselect;

static unsigned int csr_number(const char *name)
{
	static const struct { const char *name; unsigned int n; } names[] = {
		{ "mstatus", 0x300 }, { "misa", 0x301 }, { "medeleg", 0x302 }, { "mie", 0x304 },
		{ "mtvec", 0x305 }, { "mtval", 0x343 }, { "stvec", 0x105 }, { "sepc", 0x141 },
		{ "scause", 0x142 },
	};
	char *end;
	unsigned long n = strtoul(name, &end, 0);
	size_t i;

	if (end != name && !*end && n < 4096)
		return (unsigned int)n;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].name, name))
			return names[i].n;
	fail_msg("the stepper names a CSR the model has not: %s", name);
	return 0;
}

static unsigned long *csr_slot(const char *name)
{
	unsigned int n = csr_number(name);

	if (n == CSR_TSELECT)
		return &tselect;
	if (n == CSR_TDATA1 || n == CSR_TDATA2) {
		assert_true(tselect < 2);   /* two triggers, as QEMU 7.2 has */
		return n == CSR_TDATA1 ? &tdata1[tselect] : &tdata2[tselect];
	}
	return &csr_file[n];
}

unsigned long host_csr_read(const char *csr)
{
	return *csr_slot(csr);
}

unsigned long host_csr_update(const char *csr, enum host_csr_op op, unsigned long val)
{
	unsigned long *p = csr_slot(csr), old = *p;

	*p = op == HOST_CSR_WRITE ? val : op == HOST_CSR_SET ? old | val : old & ~val;
	return old;
}

static bool trigger_fires(unsigned int t, uint64_t pc)
{
	unsigned long want = MCONTROL_EXECUTE | MCONTROL_S;

	return (tdata1[t] & want) == want && tdata2[t] == pc;
}

/* ---- The program: memory, and what each instruction does ------------ */

enum op { OP_NONE, OP_ADDI, OP_BRANCH, OP_JAL, OP_JALR, OP_SRET, OP_LR, OP_SC };

struct insn {
	uint8_t op, size, rd, rs1, rs2, cond;
	int64_t imm;             /* addi, jalr */
	uint64_t target;         /* branch, jal */
};

static uint16_t mem[MEM_HALVES];
static struct insn code[MEM_HALVES];

static struct insn *insn_at(uint64_t pc)
{
	if (pc < BASE || pc >= BASE + 2 * MEM_HALVES || (pc & 1))
		return NULL;
	return &code[(pc - BASE) / 2];
}

/* Outside the program: the fetch page fault S-mode would take. */
static int fetch_fault(struct trap_info *fault, unsigned long addr)
{
	*fault = (struct trap_info){ CAUSE_FETCH_PAGE_FAULT, addr };
	return -1;
}

int umem_fetch_insn(unsigned long mstatus, unsigned long addr, uint32_t *insn,
		    struct trap_info *fault)
{
	uint64_t i = (addr - BASE) / 2;

	(void)mstatus;
	if (addr < BASE || (addr & 1) || i + 1 >= MEM_HALVES)
		return fetch_fault(fault, addr);
	*insn = mem[i] | (uint32_t)mem[i + 1] << 16;
	return 0;
}

int umem_fetch_u64(unsigned long mstatus, unsigned long addr, uint64_t *val,
		   struct trap_info *fault)
{
	uint64_t i = (addr - BASE) / 2;
	unsigned int k;

	(void)mstatus;
	if (addr < BASE || (addr & 7) || i + 4 > MEM_HALVES)
		return fetch_fault(fault, addr);
	*val = 0;
	for (k = 0; k < 4; k++)
		*val |= (uint64_t)mem[i + k] << (16 * k);
	return 0;
}

/* The model hart's code is untranslated, but for test_sfence_leaves,
 * which sets the level of the leaf that maps every address (0: 4 KiB). */
static int leaf_level = UMEM_BARE;

int umem_leaf(unsigned long mstatus, unsigned long va, uint64_t *pa)
{
	(void)mstatus;
	*pa = va;
	return leaf_level;
}

/* Nothing here takes an ebreak of its own. */
void trap_redirect(struct trap_regs *regs, const struct trap_info *trap)
{
	(void)regs;
	fail_msg("trap_redirect(cause %lu): the program has no ebreak", trap->cause);
}

static struct hart model_hart;

struct hart *hart_self(void)
{
	return &model_hart;
}

/* ---- The engine, as engine.c feeds the encoder (no CTR, no sink limit) -- */

static struct trace_hart th;

uint64_t engine_timestamp(const struct trace_hart *t)
{
	(void)t;
	return 0;
}

uint64_t engine_timestamp_at(const struct trace_hart *t, uint64_t now)
{
	(void)t;
	(void)now;
	return 0;
}

/* (the model hart has no time: sessions here have no timestamps) */
bool time_now_source(const volatile uint64_t **mmio)
{
	*mmio = NULL;
	return false;
}

void engine_apply_pending(struct trace_hart *t, struct trap_regs *regs)
{
	(void)t;
	(void)regs;
}

void engine_block(struct trace_hart *t, const struct ntrace_block *b,
		  const struct ntrace_retired *end)
{
	ntrace_ingress_block(&t->ingress, b, end);
	t->te.blocks++;
	t->te.insns += b->count + (end && end->size ? 1u : 0u);
}

void engine_record(struct trace_hart *t, const struct ntrace_retired *r)
{
	ntrace_ingress_retire(&t->ingress, r, 1);
	t->te.insns += r->size && (r->priv & 3) != PRV_M ? 1u : 0u;
}

void engine_ctr_record(struct trace_hart *t, const struct ntrace_retired *r)
{
	(void)t;
	(void)r;
}

/* ---- Byte sinks ------------------------------------------------------ */

struct bytes {
	uint8_t *p;
	size_t n, cap;
};

static int bytes_write(void *ctx, const uint8_t *data, size_t len)
{
	struct bytes *b = ctx;

	if (b->n + len > b->cap) {
		b->cap = (b->n + len) * 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, data, len);
	b->n += len;
	return 0;
}

/* ---- Random programs --------------------------------------------------- */

struct rng {
	uint64_t s;
};

static uint32_t rnd(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (uint32_t)(r->s >> 11);
}

static unsigned int below(struct rng *r, unsigned int n)
{
	return rnd(r) % n;
}

/* Registers the program computes with (c.beqz/c.bnez reach x8..x15 only:
 * the last six); s1 (x9) holds the address of function 0 for indirect
 * calls and is never written, ra links calls. */
static const uint8_t data_regs[] = { 5, 6, 7, 28, 29, 10, 11, 12, 13, 14, 15 };
#define DATA_REGS   (sizeof(data_regs) / sizeof(data_regs[0]))
#define REG_S1      9
#define REG_RA      1

struct layout {
	uint64_t at;             /* next free address */
	bool rvc;
	uint64_t blocks[48];     /* main blocks' starts */
	unsigned int nblocks;
	uint64_t funcs[4];
	unsigned int nfuncs;
	uint64_t handler;
	bool handler_sret;
	unsigned int cmpxchg_block;  /* the main block with a cmpxchg, or nblocks */       /* the handler returns (sret), or jumps away */
};

static void put(struct layout *l, uint32_t raw, const struct insn *in)
{
	uint64_t i = (l->at - BASE) / 2;

	assert_true(i + 2 <= MEM_HALVES);
	code[i] = *in;
	mem[i] = (uint16_t)raw;
	if (in->size == 4)
		mem[i + 1] = (uint16_t)(raw >> 16);
	l->at += in->size;
}

static uint32_t enc_i(unsigned int opc, unsigned int rd, unsigned int rs1, int64_t imm)
{
	return (uint32_t)(imm & 0xfff) << 20 | rs1 << 15 | rd << 7 | opc;
}

static uint32_t enc_b(unsigned int f3, unsigned int rs1, unsigned int rs2, int64_t off)
{
	uint32_t o = (uint32_t)off;

	return ((o >> 12) & 1) << 31 | ((o >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 |
	       f3 << 12 | ((o >> 1) & 0xf) << 8 | ((o >> 11) & 1) << 7 | 0x63;
}

static uint32_t enc_j(unsigned int rd, int64_t off)
{
	uint32_t o = (uint32_t)off;

	return ((o >> 20) & 1) << 31 | ((o >> 1) & 0x3ff) << 21 | ((o >> 11) & 1) << 20 |
	       ((o >> 12) & 0xff) << 12 | rd << 7 | 0x6f;
}

static uint32_t enc_cb(unsigned int f3, unsigned int rs1, int64_t off)
{
	uint32_t o = (uint32_t)off;

	return f3 << 13 | ((o >> 8) & 1) << 12 | ((o >> 3) & 3) << 10 | (rs1 - 8) << 7 |
	       ((o >> 6) & 3) << 5 | ((o >> 1) & 3) << 3 | ((o >> 5) & 1) << 2 | 1;
}

static void emit_addi(struct layout *l, struct rng *r)
{
	unsigned int rd = data_regs[below(r, DATA_REGS)], rs = data_regs[below(r, DATA_REGS)];
	int64_t imm = (int64_t)below(r, 9) - 4;
	struct insn in = { .op = OP_ADDI, .size = 4, .rd = (uint8_t)rd, .rs1 = (uint8_t)rs,
			   .imm = imm };

	if (l->rvc && below(r, 2)) {
		/* c.addi rd, imm (imm 0: c.nop-like hint... keep it non-zero) */
		if (!imm)
			imm = 1;
		in = (struct insn){ .op = OP_ADDI, .size = 2, .rd = (uint8_t)rd,
				    .rs1 = (uint8_t)rd, .imm = imm };
		put(l, (uint32_t)(((imm >> 5) & 1) << 12 | rd << 7 | (imm & 0x1f) << 2 | 1), &in);
		return;
	}
	put(l, enc_i(0x13, rd, rs, imm), &in);
}

static void emit_branch(struct layout *l, struct rng *r, uint64_t target)
{
	static const uint8_t conds[] = { 0, 1, 4, 5, 6, 7 };
	int64_t off = (int64_t)(target - l->at);
	unsigned int rs1 = data_regs[below(r, DATA_REGS)], rs2 = data_regs[below(r, DATA_REGS)];
	struct insn in = { .op = OP_BRANCH, .size = 4, .target = target };

	if (l->rvc && below(r, 3) == 0 && off >= -256 && off < 256) {
		/* c.beqz / c.bnez rs1', off: x[rs1] against x0 */
		rs1 = data_regs[DATA_REGS - 1 - below(r, 6)];
		in.size = 2;
		in.rs1 = (uint8_t)rs1;
		in.cond = (uint8_t)below(r, 2);
		put(l, enc_cb(6 + in.cond, rs1, off), &in);
		return;
	}
	in.rs1 = (uint8_t)rs1;
	in.rs2 = (uint8_t)rs2;
	in.cond = conds[below(r, 6)];
	put(l, enc_b(in.cond, rs1, rs2, off), &in);
}

static void emit_jal(struct layout *l, unsigned int rd, uint64_t target)
{
	struct insn in = { .op = OP_JAL, .size = 4, .rd = (uint8_t)rd, .target = target };

	put(l, enc_j(rd, (int64_t)(target - l->at)), &in);
}

static void emit_jalr(struct layout *l, struct rng *r, unsigned int rd, unsigned int rs1)
{
	struct insn in = { .op = OP_JALR, .size = 4, .rd = (uint8_t)rd, .rs1 = (uint8_t)rs1 };

	if (l->rvc && below(r, 2)) {
		/* c.jr rs1 / c.jalr rs1 */
		in.size = 2;
		put(l, (rd ? 0x9002u : 0x8002u) | rs1 << 7, &in);
		return;
	}
	put(l, enc_i(0x67, rd, rs1, 0), &in);
}

/*
 * A compare-and-swap as Linux's cmpxchg is (a constrained LR/SC loop,
 * lrsc.h): lr.w s4,(s0); bne s4,s2,out; sc.w s5,s3,(s0); bnez s5,retry;
 * out: the next expected value and the next new one.  The registers are
 * the sequence's own (s0 the word's address, never written).
 */
#define REG_S0 8
#define LRSC_WORD 0x80100000ull

static void emit_cmpxchg(struct layout *l)
{
	const struct insn lr = { .op = OP_LR, .size = 4, .rd = 20, .rs1 = REG_S0 };
	const struct insn sc = { .op = OP_SC, .size = 4, .rd = 21, .rs1 = REG_S0, .rs2 = 19 };
	uint64_t at = l->at, bne = at + 4, retry = at + 12;
	struct insn b1 = { .op = OP_BRANCH, .size = 4, .rs1 = 20, .rs2 = 18, .cond = 1,
			   .target = at + 16 };
	struct insn b2 = { .op = OP_BRANCH, .size = 4, .rs1 = 21, .rs2 = 0, .cond = 1,
			   .target = at };
	const struct insn next = { .op = OP_ADDI, .size = 4, .rd = 18, .rs1 = 20, .imm = 0 };
	const struct insn bump = { .op = OP_ADDI, .size = 4, .rd = 19, .rs1 = 19, .imm = 1 };

	put(l, 0x1000202fu | REG_S0 << 15 | 20u << 7, &lr);
	put(l, enc_b(1, 20, 18, (int64_t)(b1.target - bne)), &b1);
	put(l, 0x1800202fu | 19u << 20 | REG_S0 << 15 | 21u << 7, &sc);
	put(l, enc_b(1, 21, 0, (int64_t)(b2.target - retry)), &b2);
	/* out: expected = what the word held (so the next one succeeds,
	 * after a failed compare), new value + 1 */
	put(l, enc_i(0x13, 18, 20, 0), &next);
	put(l, enc_i(0x13, 19, 19, 1), &bump);
}

static void emit_run(struct layout *l, struct rng *r, unsigned int max)
{
	unsigned int n = below(r, max + 1);

	while (n--)
		emit_addi(l, r);
}

/* A branch at `at` (laid out before as a placeholder of its size) gets
 * its target. */
static void patch_branch(struct layout *l, uint64_t at, uint64_t target)
{
	struct layout p = *l;
	struct insn in = *insn_at(at);

	p.at = at;
	in.target = target;
	put(&p, enc_b(in.cond, in.rs1, in.rs2, (int64_t)(target - at)), &in);
}

/* A leaf function: runs with forward branches over the next run, then a
 * return. */
static void emit_function(struct layout *l, struct rng *r)
{
	unsigned int parts = 1 + below(r, 3), i;
	bool rvc = l->rvc;

	for (i = 0; i < parts; i++) {
		uint64_t skip;

		emit_run(l, r, 5);
		if (i + 1 == parts)
			break;
		skip = l->at;
		l->rvc = false;   /* a 4-byte branch, patched below */
		emit_branch(l, r, l->at);
		l->rvc = rvc;
		emit_run(l, r, 3);
		patch_branch(l, skip, l->at);
	}
	emit_jalr(l, r, 0, REG_RA);
}

static void gen_program(struct layout *l, struct rng *r, bool rvc)
{
	unsigned int i, nb = 6 + below(r, 30);
	uint64_t ends[48];

	memset(mem, 0, sizeof(mem));
	memset(code, 0, sizeof(code));
	memset(l, 0, sizeof(*l));
	l->at = BASE;
	l->rvc = rvc;
	/* Main blocks first, with room for their ends (patched below, 4
	 * bytes each: every end is laid out as a 4-byte placeholder and
	 * rewritten once every block's address is known). */
	l->cmpxchg_block = below(r, 2) ? below(r, nb) : nb;
	for (i = 0; i < nb; i++) {
		l->blocks[i] = l->at;
		emit_run(l, r, 6);
		if (i == l->cmpxchg_block) {
			emit_cmpxchg(l);
			emit_run(l, r, 2);
		}
		ends[i] = l->at;
		l->at += 4;
	}
	l->nblocks = nb;
	l->nfuncs = 1 + below(r, 4);
	for (i = 0; i < l->nfuncs; i++) {
		l->funcs[i] = l->at;
		emit_function(l, r);
	}
	/* The S-mode trap handler: a few instructions, then back where the
	 * interrupt came (sret) or to block 0. */
	l->at = (l->at + 3) & ~3ull;   /* stvec's BASE: 4-byte aligned */
	l->handler = l->at;
	emit_run(l, r, 3);
	emit_addi(l, r);
	l->handler_sret = below(r, 2);
	if (l->handler_sret)
		put(l, 0x10200073u, &(struct insn){ .op = OP_SRET, .size = 4 });
	else
		emit_jal(l, 0, l->blocks[0]);
	/* The ends of the main blocks (4 bytes each). */
	for (i = 0; i < nb; i++) {
		struct layout at = *l;
		unsigned int v = i + 1 == nb ? 60 : below(r, 100);
		uint64_t t = l->blocks[below(r, nb)];

		/* (not to itself: test_self_loop() has those) */
		if (t == ends[i])
			t = l->blocks[(i + 1) % nb];
		at.at = ends[i];
		at.rvc = false;
		if (v < 55)
			emit_branch(&at, r, t);
		else if (v < 70)
			emit_jal(&at, 0, t);   /* (the last block: never falls off) */
		else if (v < 85)
			emit_jal(&at, REG_RA, l->funcs[below(r, l->nfuncs)]);
		else if (v < 92)
			emit_jalr(&at, r, REG_RA, REG_S1);
		else
			emit_addi(&at, r);     /* falls into the next block */
	}
}

/* ---- The model hart ---------------------------------------------------- */

struct model {
	unsigned long x[32];
	uint64_t pc;
	bool rvc;
	bool itype4, all_jumps;
	bool sret_handler;           /* interrupts wait for sstatus.SIE */
	unsigned long sstatus;       /* SIE, SPIE, SPP: what sret restores */
	uint32_t word;               /* the word at LRSC_WORD */
	bool reserved;               /* an LR's reservation, until a trap or SC */
	uint64_t lr_at;              /* the last LR run */
	unsigned long sc_ok, sc_failed;
	struct ntrace_ingress *ref;
	struct ntrace_retired held;  /* the last retired record, until it is
					known whether a trap follows it */
	bool held_valid;
	unsigned long retired, visits, interrupts;
	unsigned int since_trap;     /* retired since the last interrupt */
};

/* The hart is past an LR and not past its SC (emit_cmpxchg(): the SC is
 * the third instruction; the compare's exit leaves the sequence). */
static bool inside_lrsc(const struct model *m)
{
	return m->reserved && m->pc > m->lr_at && m->pc <= m->lr_at + 8;
}

/* The reference record of the instruction at pc (what `ntrace encode`
 * classifies from a log line), and a check of the generator's encoding. */
static struct ntrace_retired reference_record(const struct model *m, const struct insn *in,
					      bool taken)
{
	struct trap_info fault;
	struct rv_insn d;
	uint32_t raw;

	assert_int_equal(umem_fetch_insn(0, m->pc, &raw, &fault), 0);
	assert_true(rv_insn_decode(raw, 64, m->rvc ? RV_EXT_C : 0, &d));
	assert_int_equal(d.size, in->size);
	if (in->op == OP_BRANCH || in->op == OP_JAL)
		assert_true(rv_insn_direct_target(&d, m->pc, 64) == in->target);
	return (struct ntrace_retired){
		.addr = m->pc, .size = in->size, .priv = PRV_S,
		.itype = (uint8_t)rv_insn_itype(&d, taken, m->itype4, m->all_jumps) };
}

static void reference_retire(struct model *m, const struct ntrace_retired *rec)
{
	if (m->held_valid)
		ntrace_ingress_retire(m->ref, &m->held, 1);
	m->held = *rec;
	m->held_valid = true;
}

static bool branch_taken(const struct insn *in, unsigned long a, unsigned long b)
{
	switch (in->cond) {
	case 0: return a == b;
	case 1: return a != b;
	case 4: return (long)a < (long)b;
	case 5: return (long)a >= (long)b;
	case 6: return a < b;
	default: return a >= b;
	}
}

/* One instruction retires. */
static void execute(struct model *m)
{
	const struct insn *in = insn_at(m->pc);
	struct ntrace_retired rec;
	uint64_t next;
	bool taken = true;

	assert_non_null(in);
	if (in->op == OP_NONE)
		fail_msg("the hart ran off the program at %#llx", (unsigned long long)m->pc);
	next = m->pc + in->size;
	switch (in->op) {
	case OP_ADDI:
		taken = false;
		m->x[in->rd] = m->x[in->rs1] + (unsigned long)in->imm;
		break;
	case OP_BRANCH:
		/* c.beqz/c.bnez: rs2 is x0 (0 in the descriptor) */
		taken = branch_taken(in, m->x[in->rs1], m->x[in->rs2]);
		if (taken)
			next = in->target;
		break;
	case OP_JAL:
		m->x[in->rd] = next;
		next = in->target;
		break;
	case OP_LR:
		taken = false;
		m->x[in->rd] = (unsigned long)(int64_t)(int32_t)m->word;
		m->reserved = true;
		m->lr_at = m->pc;
		break;
	case OP_SC:
		taken = false;
		if (m->reserved)
			m->word = (uint32_t)m->x[in->rs2];
		m->x[in->rd] = !m->reserved;
		m->sc_ok += m->reserved;
		m->sc_failed += !m->reserved;
		m->reserved = false;
		break;
	case OP_SRET:
		/* from S to S (SPP): SIE = SPIE, SPIE = 1, SPP = U */
		next = csr_file[0x141];
		m->sstatus = (m->sstatus & MSTATUS_SPIE ? MSTATUS_SIE : 0) | MSTATUS_SPIE;
		break;
	default: {
		uint64_t t = (m->x[in->rs1] + (unsigned long)in->imm) & ~1ull;

		m->x[in->rd] = next;
		next = t;
		break;
	}
	}
	m->x[0] = 0;
	rec = reference_record(m, in, taken);
	if (getenv("STEPPER_TRACE"))
		fprintf(stderr, "  retire %#llx itype %u\n", (unsigned long long)m->pc, rec.itype);
	reference_retire(m, &rec);
	m->pc = next;
	m->retired++;
	m->since_trap++;
}

/* An interrupt delivered to S-mode before the instruction at pc. */
static void interrupt(struct model *m)
{
	if (inside_lrsc(m))
		fail_msg("an interrupt at %#llx, between an LR and its SC: the guard did not mask it",
			 (unsigned long long)m->pc);
	m->reserved = false;
	m->held.itype = RV_ITYPE_INTERRUPT;
	ntrace_ingress_retire(m->ref, &m->held, 1);
	m->held_valid = false;
	csr_file[0x141] = m->pc;                    /* sepc */
	csr_file[0x142] = MCAUSE_INTR | 5;          /* scause: S timer */
	m->sstatus = (m->sstatus & MSTATUS_SIE ? MSTATUS_SPIE : 0) | MSTATUS_SPP;
	m->pc = csr_file[0x105] & ~3ul;             /* stvec */
	m->since_trap = 0;
	m->interrupts++;
}

static struct trap_regs frame_of(const struct model *m)
{
	struct trap_regs regs;

	memcpy(regs.x, m->x, sizeof(regs.x));
	regs.mepc = m->pc;
	regs.mstatus = PRV_S << MSTATUS_MPP_SHIFT | MSTATUS_MPIE | m->sstatus;
	return regs;
}

#define S_BITS (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP)

/* The stepper reports only what retired (it holds the rest). */
static void check_reported(const struct model *m, uint64_t at)
{
	if (th.te.status & TSBI_STATUS_LOST_TRACK)
		fail_msg("at %#llx (%lu retired): the stepper lost track", (unsigned long long)at,
			 m->retired);
	if (th.te.insns > m->retired)
		fail_msg("at %#llx: %llu instructions reported, %lu retired", (unsigned long long)at,
			 (unsigned long long)th.te.insns, m->retired);
}

/* A trigger fired: the trap into the stepper, and mret. */
static void visit(struct model *m)
{
	struct trap_regs regs = frame_of(m);
	uint64_t at = m->pc;

	/* (a trap there loses the reservation: the SC fails every time) */
	if (inside_lrsc(m))
		fail_msg("a visit at %#llx, between an LR and its SC", (unsigned long long)at);
	m->reserved = false;   /* (QEMU clears it at every privilege change) */
	stepper_breakpoint(&th, &regs);
	if (getenv("STEPPER_TRACE"))
		fprintf(stderr, "visit %#llx -> %#llx mode %u t0 %#llx counted %llu retired %lu\n",
			(unsigned long long)at, (unsigned long long)regs.mepc, th.step.mode,
			(unsigned long long)th.step.t0, (unsigned long long)th.te.insns, m->retired);
	assert_true((regs.mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT == PRV_S);
	m->visits++;
	if (regs.mepc != at) {
		/* The firmware ran the transfer at `at` in the hart's place
		 * (emulate()): it retired, and left what the hart would. */
		execute(m);
		check_reported(m, at);
		if (m->pc != regs.mepc || memcmp(m->x, regs.x, sizeof(m->x)) ||
		    (regs.mstatus & S_BITS) != m->sstatus)
			fail_msg("the transfer at %#llx emulated to %#llx, not as the hart runs it",
				 (unsigned long long)at, (unsigned long long)regs.mepc);
		return;
	}
	check_reported(m, at);
	if (memcmp(m->x, regs.x, sizeof(m->x)) || (regs.mstatus & S_BITS) != m->sstatus)
		fail_msg("a visit at %#llx changed registers without emulating",
			 (unsigned long long)at);
}

/* ---- One run ------------------------------------------------------------ */

struct variant {
	const char *name;
	uint8_t mode;            /* trTeInstMode: 6 HTM, 3 BTM */
	bool implicit_return, all_jumps, seq_jump, single_step, rvc;
	unsigned int int_permille;  /* interrupt chance per instruction */
};

static struct step_block cache[128];
static struct { unsigned long visits, retired, interrupts, sc_ok, sc_failed; } totals;

static struct bytes fw_bytes, ref_bytes;   /* (static: no leak on a failure) */
static struct ntrace_encoder ref_enc;
static struct ntrace_ingress ref;

/* The hart starts at pc, traced from there with the variant's options;
 * the reference encoder likewise. */
static void session_start(const struct variant *v, struct model *m, uint64_t stvec)
{
	static struct ntrace_sink fw_sink = { bytes_write, &fw_bytes };
	static struct ntrace_sink ref_sink = { bytes_write, &ref_bytes };
	struct ntrace_enc_config cfg = { 0 };
	struct trap_regs regs;

	fw_bytes.n = 0;
	ref_bytes.n = 0;
	cfg.trTeInstMode = v->mode;
	cfg.trTeInstEnImplicitReturn = v->implicit_return;
	cfg.trTeInstImplicitReturnMode = v->implicit_return ? 3 : 0;
	cfg.trTeInstEnAllJumps = v->all_jumps;
	cfg.trTeInstEnSequentialJump = v->seq_jump;
	cfg.xlen = 64;

	memset(&th, 0, sizeof(th));
	memset(csr_file, 0, sizeof(csr_file));
	memset(tdata1, 0, sizeof(tdata1));
	memset(tdata2, 0, sizeof(tdata2));
	tselect = 0;
	csr_file[0x301] = v->rvc ? 1ul << ('C' - 'A') : 0;    /* misa */
	csr_file[0x305] = M_HANDLER;                         /* mtvec */
	csr_file[0x105] = stvec;                             /* direct */
	csr_file[0x302] = 1ul << CAUSE_BREAKPOINT;           /* medeleg */
	csr_file[0x304] = MIP_STIP;                          /* mie: the S timer */

	memset(&ref, 0, sizeof(ref));
	assert_int_equal(ntrace_enc_init(&th.enc, &cfg, &fw_sink), 0);
	assert_int_equal(ntrace_enc_init(&ref_enc, &cfg, &ref_sink), 0);
	ntrace_ingress_start(&th.ingress, &th.enc, NULL);
	ntrace_ingress_start(&ref, &ref_enc, NULL);
	th.tracing = true;
	th.block_privs = 1u << PRV_S;
	th.cfg = cfg;
	th.step.itype4 = v->implicit_return;
	th.step.all_jumps = v->all_jumps;
	th.step.seq_jump = v->seq_jump;
	th.step.max_block = v->single_step ? 1 : NTRACE_BLOCK_MAX;
	th.step.trig_type = TRIGGER_TYPE_MCONTROL;
	stepper_cache_init(&th.step, cache, sizeof(cache) / sizeof(cache[0]));
	stepper_fast_configure(&th);

	m->rvc = v->rvc;
	m->itype4 = v->implicit_return;
	m->all_jumps = v->all_jumps;
	m->ref = &ref;
	regs = frame_of(m);
	stepper_start(&th, &regs, m->pc, PRV_S, false);
}

/* Tracing stops with the hart at pc: both encoders' last messages. */
static void session_end(struct model *m)
{
	struct trap_regs regs = frame_of(m);

	stepper_finish(&th, &regs, m->pc);
	if (m->held_valid)
		ntrace_ingress_retire(&ref, &m->held, 1);
	m->held_valid = false;
	ntrace_ingress_stop(&th.ingress, m->pc, 0);
	ntrace_ingress_stop(&ref, m->pc, 0);
}

static void check_same_bytes(const char *name, uint64_t seed, const struct model *m)
{
	size_t k = 0;

	if (fw_bytes.n == ref_bytes.n && !memcmp(fw_bytes.p, ref_bytes.p, fw_bytes.n))
		return;
	while (k < fw_bytes.n && k < ref_bytes.n && fw_bytes.p[k] == ref_bytes.p[k])
		k++;
	fail_msg("%s seed %llu: %zu bytes from the stepper, %zu per record; first "
		 "difference at byte %zu (%lu retired, %lu visits, %lu interrupts)",
		 name, (unsigned long long)seed, fw_bytes.n, ref_bytes.n, k, m->retired,
		 m->visits, m->interrupts);
}

static void run_one(const struct variant *v, uint64_t seed)
{
	struct rng r = { seed * 0x9e3779b97f4a7c15ull + 1 };
	struct model m = { 0 };
	struct layout l;
	unsigned long limit, idle = 0, last_retired = 0;
	unsigned int i;

	gen_program(&l, &r, v->rvc);
	if (getenv("STEPPER_TRACE")) {
		FILE *f = fopen("/tmp/stepper-prog.bin", "wb");

		if (f) {
			fwrite(mem, 1, (size_t)(l.at - BASE), f);
			fclose(f);
		}
	}
	m.pc = l.blocks[0];
	for (i = 0; i < DATA_REGS; i++)
		m.x[data_regs[i]] = below(&r, 16);
	m.x[REG_S1] = l.funcs[0];
	m.x[REG_RA] = l.blocks[0];
	m.sret_handler = l.handler_sret;
	m.x[REG_S0] = LRSC_WORD;
	m.x[18] = below(&r, 2);
	m.x[19] = below(&r, 4);
	m.sstatus = MSTATUS_SIE;
	session_start(v, &m, l.handler);

	limit = 200 + below(&r, 3000);
	while (m.retired < limit) {
		if (m.held_valid && m.since_trap >= 3 && below(&r, 1000) < v->int_permille &&
		    (!m.sret_handler || (m.sstatus & MSTATUS_SIE)) &&
		    (csr_file[0x304] & MIP_STIP)) {
			interrupt(&m);
			continue;
		}
		if (trigger_fires(0, m.pc) || trigger_fires(1, m.pc)) {
			if (m.retired == last_retired && ++idle > 4)
				fail_msg("%s seed %llu: the hart traps at %#llx again and again",
					 v->name, (unsigned long long)seed, (unsigned long long)m.pc);
			visit(&m);
			continue;
		}
		idle = 0;
		last_retired = m.retired + 1;
		execute(&m);
	}
	session_end(&m);

	if (th.te.status & TSBI_STATUS_LOST_TRACK)
		fail_msg("%s seed %llu: the stepper lost track", v->name, (unsigned long long)seed);
	check_same_bytes(v->name, seed, &m);
	if (th.te.insns != m.retired)
		fail_msg("%s seed %llu: %llu instructions counted, %lu retired", v->name,
			 (unsigned long long)seed, (unsigned long long)th.te.insns, m.retired);
	/* (a run without a visit would not test them) */
	assert_true(m.visits > 0);
	totals.visits += m.visits;
	totals.retired += m.retired;
	totals.interrupts += m.interrupts;
	totals.sc_ok += m.sc_ok;
	totals.sc_failed += m.sc_failed;
}

/*
 * `j .`, where a hart waits for an interrupt: with T0 on it the hart never
 * runs it itself, so every visit there (but the first, which may only plan)
 * runs one turn in its place.  The trace shows the turns the stepper ran,
 * the last one interrupted; then the handler.
 */
static void test_self_loop(void **state)
{
	static const struct variant v = { "self-loop", 6, false, false, false, false, false, 0 };
	const struct insn addi = { .op = OP_ADDI, .size = 4, .rd = 10, .rs1 = 10, .imm = 1 };
	struct ntrace_sink ref_sink = { bytes_write, &ref_bytes };
	struct ntrace_enc_config cfg = { .trTeInstMode = 6, .xlen = 64 };
	struct layout l = { .at = BASE };
	struct model m = { 0 };
	unsigned long visits = 0, native = 0, turns, i;
	uint64_t loop, handler;

	(void)state;
	memset(mem, 0, sizeof(mem));
	memset(code, 0, sizeof(code));
	put(&l, enc_i(0x13, 10, 10, 1), &addi);
	loop = l.at;
	emit_jal(&l, 0, loop);
	handler = l.at;
	for (i = 0; i < 3; i++)
		put(&l, enc_i(0x13, 10, 10, 1), &addi);
	m.pc = BASE;
	session_start(&v, &m, handler);
	while (m.pc != handler + 8) {
		if (m.pc == loop && visits == 10) {
			interrupt(&m);
			continue;
		}
		if (trigger_fires(0, m.pc) || trigger_fires(1, m.pc)) {
			struct trap_regs regs = frame_of(&m);

			stepper_breakpoint(&th, &regs);
			assert_true(regs.mepc == m.pc);
			visits += m.pc == loop;
			continue;
		}
		if (m.pc == loop && ++native > 100)
			fail_msg("the hart runs `j .` on its own: no visit ever comes");
		execute(&m);
	}
	session_end(&m);
	assert_false(th.te.status & TSBI_STATUS_LOST_TRACK);
	/* th.te.insns: the addi, the turns and the handler's two */
	turns = th.te.insns - 3;
	assert_true(turns >= native + visits - 1 && turns <= native + visits);

	/* The reference, now that the turns are known. */
	ref_bytes.n = 0;
	memset(&ref, 0, sizeof(ref));
	assert_int_equal(ntrace_enc_init(&ref_enc, &cfg, &ref_sink), 0);
	ntrace_ingress_start(&ref, &ref_enc, NULL);
	ntrace_ingress_retire(&ref, &(struct ntrace_retired){ .addr = BASE, .size = 4,
							.priv = PRV_S }, 1);
	for (i = 0; i < turns; i++)
		ntrace_ingress_retire(&ref, &(struct ntrace_retired){
			.addr = loop, .size = 4, .priv = PRV_S,
			.itype = i + 1 == turns ? RV_ITYPE_INTERRUPT : 0 }, 1);
	for (i = 0; i < 2; i++)
		ntrace_ingress_retire(&ref, &(struct ntrace_retired){ .addr = handler + 4 * i,
								.size = 4, .priv = PRV_S }, 1);
	ntrace_ingress_stop(&ref, m.pc, 0);
	check_same_bytes(v.name, 0, &m);
}

static const struct variant variants[] = {
	{ "htm", 6, false, false, false, false, true, 0 },
	{ "htm-irq", 6, false, false, false, false, true, 8 },
	{ "htm-ret-alljumps", 6, true, true, false, false, true, 4 },
	{ "htm-seqjump-norvc", 6, false, false, true, false, false, 4 },
	{ "btm", 3, false, false, false, false, true, 4 },
	{ "btm-ret", 3, true, false, false, false, true, 0 },
	{ "htm-singlestep", 6, false, false, false, true, true, 4 },
};

#define SEEDS 1000

static void test_variant(void **state)
{
	const struct variant *v = *state;
	uint64_t seed;

	const char *only = getenv("STEPPER_SEED");

	if (only) {
		run_one(v, strtoull(only, NULL, 0));
		return;
	}
	memset(&totals, 0, sizeof(totals));
	for (seed = 1; seed <= SEEDS; seed++)
		run_one(v, seed);
	/* Block stepping visits once a block, single-stepping once an
	 * instruction or two (a visit may run a transfer in the hart's place),
	 * and an interrupt variant takes interrupts. */
	if (v->single_step)
		assert_true(2 * totals.visits >= totals.retired);
	else
		assert_true(2 * totals.visits < totals.retired);
	assert_true(!v->int_permille || totals.interrupts > SEEDS);
	/* cmpxchg loops ran, and every SC succeeded: no visit or interrupt
	 * fell between an LR and its SC */
	assert_true(totals.sc_ok > SEEDS / 4);
	assert_int_equal(totals.sc_failed, 0);
}

/* step_sfence_spares_cache() for the fences below, which name a0 (x10). */
static bool spares(const struct stepper *s, uint32_t raw, unsigned long va)
{
	unsigned long x[32] = { 0 };

	x[10] = va;
	return step_sfence_spares_cache(s, raw, x);
}

/*
 * An sfence.vma of one address keeps the block cache only when the leaf
 * that maps it maps no cached code, at any level; any other fence (rs1 =
 * x0, fence.i, a CSR write) and code not walked (V=1) flush it.
 */
static void test_sfence_leaves(void **state)
{
	static const struct variant v = { "sfence", 6, false, false, false, false, false, 0 };
	const struct insn addi = { .op = OP_ADDI, .size = 4, .rd = 10, .rs1 = 10, .imm = 1 };
	const uint32_t sfence_a0 = 0x12050073, sfence_all = 0x12000073, fence_i = 0x0000100f;
	struct layout l = { .at = BASE };
	struct model m = { 0 };
	struct step_block b;
	struct stepper *s = &th.step;

	(void)state;
	memset(mem, 0, sizeof(mem));
	memset(code, 0, sizeof(code));
	put(&l, enc_i(0x13, 10, 10, 1), &addi);
	emit_jal(&l, 0, BASE);
	m.pc = BASE;
	session_start(&v, &m, BASE);
	/* untranslated code: no fence changes it */
	leaf_level = UMEM_BARE;
	stepper_flush_cache(s);
	step_scan_block(s, &b, BASE, PRV_S);
	assert_true(spares(s, sfence_a0, BASE));
	/* 4 KiB pages: another page is spared, the code's is not */
	leaf_level = 0;
	stepper_flush_cache(s);
	step_scan_block(s, &b, BASE, PRV_S);
	assert_true(spares(s, sfence_a0, BASE + 0x3000));
	assert_false(spares(s, sfence_a0, BASE + 4));
	assert_false(spares(s, sfence_all, BASE + 0x3000));
	assert_false(spares(s, fence_i, BASE + 0x3000));
	/* (the ASID, rs2, is not looked at: the address decides) */
	assert_true(spares(s, sfence_a0 | (1u << 20), BASE + 0x3000));
	/* a 2 MiB leaf: a page inside it is not spared, one outside it is */
	leaf_level = 1;
	stepper_flush_cache(s);
	step_scan_block(s, &b, BASE, PRV_S);
	assert_false(spares(s, sfence_a0, BASE + 0x3000));
	assert_true(spares(s, sfence_a0, BASE + 0x400000));
	/* no walk (V=1, a failed walk): every fence flushes */
	leaf_level = UMEM_NO_LEAF;
	stepper_flush_cache(s);
	step_scan_block(s, &b, BASE, PRV_S);
	assert_false(spares(s, sfence_a0, BASE + 0x400000));
	/* a flush forgets the leaves */
	leaf_level = UMEM_BARE;
	stepper_flush_cache(s);
	assert_true(spares(s, sfence_a0, BASE));
	session_end(&m);
}

int main(void)
{
	struct CMUnitTest tests[sizeof(variants) / sizeof(variants[0]) + 2];
	size_t i;

	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
		tests[i] = (struct CMUnitTest){ variants[i].name, test_variant, NULL, NULL,
						(void *)&variants[i] };
	tests[i++] = (struct CMUnitTest)cmocka_unit_test(test_self_loop);
	tests[i] = (struct CMUnitTest)cmocka_unit_test(test_sfence_leaves);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
