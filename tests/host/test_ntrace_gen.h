/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Synthetic programs and executions for N-Trace round-trip tests.
 *
 * gen_program() lays out random functions (linear code, branches, direct and
 * indirect calls, returns, co-routine swaps, lui/auipc+jalr pairs, ecall,
 * Zcmp/Zcmt table jumps and pops) plus a trap handler ending in mret.
 * run_program() "executes" it by walking the code and choosing branch
 * outcomes, indirect targets, interrupts and exceptions pseudo-randomly,
 * producing Trace Ingress Port records and the expected retired addresses.
 */
#ifndef TEST_NTRACE_GEN_H
#define TEST_NTRACE_GEN_H

#include "test_ntrace_prog.h"

struct rng {
	uint64_t s;
};

static inline uint32_t rng_next(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (uint32_t)(r->s >> 11);
}

static inline unsigned rng_below(struct rng *r, unsigned n)
{
	return n ? rng_next(r) % n : 0;
}

#define GEN_MAX_FUNCS 24
#define GEN_MAX_SLOTS 40

enum slot_kind {
	S_LIN32, S_LIN16, S_BR, S_CBR, S_CALL, S_CJAL, S_JFWD, S_CJ, S_CALL_IND, S_CJALR,
	S_JMP_IND, S_CJR, S_SEQ_AUIPC, S_SEQ_LUI, S_ECALL, S_SWAP, S_TABLE_JT, S_TABLE_JALT,
	S_RET, S_CRET, S_POPRET, S_KINDS
};

struct program {
	struct image img;
	unsigned xlen, ext;
	uint64_t funcs[GEN_MAX_FUNCS];
	unsigned nfuncs;
	uint64_t handler;
	uint64_t jvt;
};

static inline unsigned slot_size(enum slot_kind k)
{
	switch (k) {
	case S_LIN16: case S_CBR: case S_CJAL: case S_CJ: case S_CJALR: case S_CJR: case S_CRET:
	case S_POPRET: case S_TABLE_JT: case S_TABLE_JALT:
		return 2;
	case S_SEQ_AUIPC: case S_SEQ_LUI:
		return 8;
	default:
		return 4;
	}
}

static inline enum slot_kind pick_kind(struct rng *r, const struct program *p)
{
	for (;;) {
		unsigned v = rng_below(r, 100);
		enum slot_kind k;

		if (v < 28) k = S_LIN32;
		else if (v < 40) k = S_LIN16;
		else if (v < 52) k = S_BR;
		else if (v < 58) k = S_CBR;
		else if (v < 63) k = S_CALL;
		else if (v < 65) k = S_CJAL;
		else if (v < 68) k = S_JFWD;
		else if (v < 70) k = S_CJ;
		else if (v < 73) k = S_CALL_IND;
		else if (v < 75) k = S_CJALR;
		else if (v < 77) k = S_JMP_IND;
		else if (v < 78) k = S_CJR;
		else if (v < 81) k = S_SEQ_AUIPC;
		else if (v < 83) k = S_SEQ_LUI;
		else if (v < 85) k = S_ECALL;
		else if (v < 87) k = S_SWAP;
		else if (v < 89) k = S_TABLE_JT;
		else if (v < 91) k = S_TABLE_JALT;
		else k = S_LIN32;
		if (k == S_CJAL && p->xlen != 32)
			continue;
		if ((k == S_TABLE_JT || k == S_TABLE_JALT) && !(p->ext & RV_EXT_ZCMT))
			continue;
		return k;
	}
}

static inline int32_t seq_lo(int64_t delta)
{
	return (int32_t)(((delta & 0xfff) ^ 0x800) - 0x800);
}

/* Build the program.  `base` is where code starts. */
static inline void gen_program(struct program *p, struct rng *r, unsigned xlen, unsigned ext,
			       uint64_t base)
{
	enum slot_kind kinds[GEN_MAX_FUNCS][GEN_MAX_SLOTS];
	uint64_t addr[GEN_MAX_FUNCS][GEN_MAX_SLOTS + 1];
	unsigned nslots[GEN_MAX_FUNCS];
	uint64_t a = base;

	img_init(&p->img, base);
	p->xlen = xlen;
	p->ext = ext;
	p->nfuncs = 6 + rng_below(r, GEN_MAX_FUNCS - 6);
	/* pass 1: kinds and addresses */
	for (unsigned f = 0; f < p->nfuncs; f++) {
		unsigned n = 6 + rng_below(r, GEN_MAX_SLOTS - 6);

		nslots[f] = n;
		p->funcs[f] = a;
		for (unsigned s = 0; s < n; s++) {
			enum slot_kind k = s == n - 1 ? S_RET : pick_kind(r, p);

			if (k == S_RET) {
				unsigned v = rng_below(r, 3);

				k = v == 0 ? S_RET : v == 1 ? S_CRET : ((ext & RV_EXT_ZCMP) ? S_POPRET : S_RET);
			}
			kinds[f][s] = k;
			addr[f][s] = a;
			a += slot_size(k);
		}
		addr[f][n] = a;
	}
	p->handler = a;
	/* jump table (Zcmt): XLEN-wide entries, 4-byte aligned after the code */
	p->jvt = (a + 64 + 63) & ~63ull;
	/* pass 2: encodings */
	for (unsigned f = 0; f < p->nfuncs; f++) {
		unsigned n = nslots[f];

		for (unsigned s = 0; s < n; s++) {
			uint64_t pc = addr[f][s];
			unsigned tf = rng_below(r, p->nfuncs);
			uint64_t target = p->funcs[tf];
			unsigned ts = rng_below(r, n);
			int64_t br = (int64_t)(addr[f][ts] - pc);
			int64_t d = (int64_t)(target - pc);

			switch (kinds[f][s]) {
			case S_LIN32: img_put(&p->img, pc, rv_enc_addi(10, 10, (int32_t)rng_below(r, 100))); break;
			case S_LIN16: img_put(&p->img, pc, rng_below(r, 2) ? rv_enc_c_nop() : rv_enc_c_mv(11, 12)); break;
			case S_BR: img_put(&p->img, pc, rv_enc_branch(rng_below(r, 2), 10, 11, (int32_t)br)); break;
			case S_CBR:
				if (br < -256 || br > 254)
					br = 0;
				img_put(&p->img, pc, rng_below(r, 2) ? rv_enc_c_beqz(8, (int32_t)br)
								  : rv_enc_c_bnez(9, (int32_t)br));
				break;
			case S_CALL: img_put(&p->img, pc, rv_enc_jal(1, (int32_t)d)); break;
			case S_CJAL:
				if (d < -2048 || d > 2046)
					d = 0;
				img_put(&p->img, pc, rv_enc_c_jal((int32_t)d));
				break;
			case S_JFWD: {
				int64_t fwd = (int64_t)(addr[f][s + 1 + rng_below(r, n - s)] - pc);

				if (s + 1 >= n || fwd <= 0)
					fwd = (int64_t)(addr[f][s + 1] - pc);
				img_put(&p->img, pc, rv_enc_jal(0, (int32_t)fwd));
				break;
			}
			case S_CJ: {
				int64_t fwd = (int64_t)(addr[f][s + 1] - pc);

				img_put(&p->img, pc, rv_enc_c_j((int32_t)fwd));
				break;
			}
			case S_CALL_IND: img_put(&p->img, pc, rv_enc_jalr(1, 6, 0)); break;
			case S_CJALR: img_put(&p->img, pc, rv_enc_c_jalr(6)); break;
			case S_JMP_IND: img_put(&p->img, pc, rv_enc_jalr(0, 6, 0)); break;
			case S_CJR: img_put(&p->img, pc, rv_enc_c_jr(7)); break;
			case S_SEQ_AUIPC:
				img_put(&p->img, pc, rv_enc_auipc(6, (uint32_t)((d + 0x800) >> 12) & 0xfffff));
				img_put(&p->img, pc + 4, rv_enc_jalr(1, 6, seq_lo(d)));
				break;
			case S_SEQ_LUI: {
				int64_t t = (int64_t)target;

				img_put(&p->img, pc, rv_enc_lui(6, (uint32_t)((t + 0x800) >> 12) & 0xfffff));
				img_put(&p->img, pc + 4, rv_enc_jalr(rng_below(r, 2) ? 1 : 0, 6, seq_lo(t)));
				break;
			}
			case S_ECALL: img_put(&p->img, pc, rv_enc_ecall()); break;
			case S_SWAP: img_put(&p->img, pc, rv_enc_jalr(1, 5, 0)); break;
			case S_TABLE_JT: img_put(&p->img, pc, rv_enc_cm_jt(rng_below(r, 32))); break;
			case S_TABLE_JALT: img_put(&p->img, pc, rv_enc_cm_jalt(32 + rng_below(r, 16))); break;
			case S_RET: img_put(&p->img, pc, rv_enc_jalr(0, 1, 0)); break;
			case S_CRET: img_put(&p->img, pc, rv_enc_c_jr(1)); break;
			case S_POPRET: img_put(&p->img, pc, rv_enc_cm_popret(4 + rng_below(r, 8), 0)); break;
			default: break;
			}
		}
	}
	/* trap handler: linear code, a forward branch, mret */
	a = p->handler;
	a += img_put(&p->img, a, rv_enc_addi(5, 5, 1));
	a += img_put(&p->img, a, rv_enc_branch(1, 5, 0, 8));
	a += img_put(&p->img, a, rv_enc_c_nop());
	a += img_put(&p->img, a, rv_enc_c_nop());
	a += img_put(&p->img, a, rv_enc_addi(6, 6, 1));
	img_put(&p->img, a, rv_enc_mret());
	if (ext & RV_EXT_ZCMT)
		for (unsigned i = 0; i < 48; i++)
			img_put_word(&p->img, p->jvt + i * (xlen / 8), p->funcs[i % p->nfuncs], xlen / 8);
}

/* ---------------------------------------------------------------- execution */

struct run_opts {
	bool itype4;          /* 4-bit itype (implicit return)              */
	bool all_jumps;       /* trTeInstEnAllJumps                         */
	bool wild_returns;    /* some returns go elsewhere (modes 2/3 only) */
	unsigned int_permille; /* interrupt probability per instruction       */
	unsigned exc_permille; /* exception (not retired) probability         */
	unsigned int_after_permille; /* interrupt right after a retired insn  */
	bool context_changes;
};

struct run {
	struct ntrace_retired *rec;
	size_t nrec, cap;
	uint64_t *expect;     /* addresses of retired instructions          */
	size_t nexpect;
	size_t ntraps;
	uint64_t next_pc;     /* where execution would continue              */
	uint64_t tstamp;
};

static inline void run_free(struct run *x)
{
	free(x->rec);
	free(x->expect);
	memset(x, 0, sizeof(*x));
}

static inline void run_add_retired(struct run *x, uint64_t pc, unsigned size, unsigned itype,
				   unsigned priv, uint64_t ctx, unsigned flags, unsigned retired_itype,
				   struct rng *r)
{
	if (x->nrec == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 1024;
		x->rec = realloc(x->rec, x->cap * sizeof(*x->rec));
		x->expect = realloc(x->expect, x->cap * sizeof(uint64_t));
	}
	x->tstamp += 1 + rng_below(r, 3);
	x->rec[x->nrec++] = (struct ntrace_retired){ .addr = pc, .size = (uint8_t)size,
		.itype = (uint8_t)itype, .priv = (uint8_t)priv, .context = ctx, .flags = (uint8_t)flags,
		.tstamp = x->tstamp, .retired_itype = (uint8_t)retired_itype };
	if (size)
		x->expect[x->nexpect++] = pc;
}

static inline void run_add(struct run *x, uint64_t pc, unsigned size, unsigned itype, unsigned priv,
			   uint64_t ctx, unsigned flags, struct rng *r)
{
	run_add_retired(x, pc, size, itype, priv, ctx, flags, 0, r);
}

/* Execute about `steps` records starting at the first function. */
static inline void run_program(const struct program *p, const struct run_opts *o, struct rng *r,
			       size_t steps, struct run *x)
{
	uint64_t stack[1024];
	unsigned depth = 0;
	uint64_t pc = p->funcs[0], epc = 0;
	bool in_handler = false, prev_valid = false;
	unsigned priv = NTRACE_PRV_U;
	uint64_t ctx = 1;
	struct rv_insn prev = { 0 }, in;

	for (size_t i = 0; i < steps; i++) {
		uint64_t next;
		unsigned itype, flags = 0;

		if (!in_handler && (rng_below(r, 1000) < o->int_permille ||
				    rng_below(r, 1000) < o->exc_permille)) {
			bool irq = rng_below(r, 2);

			run_add(x, pc, 0, irq ? RV_ITYPE_INTERRUPT : RV_ITYPE_EXCEPTION, priv, ctx, 0, r);
			x->ntraps++;
			epc = pc;
			pc = p->handler;
			in_handler = true;
			priv = NTRACE_PRV_M;
			prev_valid = false;
			continue;
		}
		rv_insn_decode(img_fetch(&p->img, pc), p->xlen, p->ext, &in);
		next = pc + in.size;
		itype = rv_insn_itype(&in, false, o->itype4, o->all_jumps);
		switch (in.kind) {
		case RV_INSN_BRANCH: {
			bool back = in.imm <= 0;
			bool taken = rng_below(r, 100) < (back ? 85u : 50u);

			itype = rv_insn_itype(&in, taken, o->itype4, o->all_jumps);
			if (taken)
				next = rv_insn_direct_target(&in, pc, p->xlen);
			break;
		}
		case RV_INSN_JUMP:
			next = rv_insn_direct_target(&in, pc, p->xlen);
			if (rv_is_link_reg(in.rd) && depth < 1024)
				stack[depth++] = pc + in.size;
			break;
		case RV_INSN_TABLE_JUMP: {
			uint64_t v = 0;

			img_read((void *)&p->img, p->jvt + in.table_index * (p->xlen / 8), &v, p->xlen / 8);
			next = v & ~1ull;
			if (in.itype4 == RV_ITYPE_INFERABLE_CALL && depth < 1024)
				stack[depth++] = pc + in.size;
			break;
		}
		case RV_INSN_JUMP_REG:
		case RV_INSN_POPRET: {
			bool seq = prev_valid && rv_insn_seq_inferable(&prev, &in);
			unsigned c4 = in.itype4;
			uint64_t popped = 0;
			bool have = false;

			if (c4 == RV_ITYPE_RETURN || c4 == RV_ITYPE_COROUTINE_SWAP) {
				if (depth) {
					popped = stack[--depth];
					have = true;
				}
			}
			if (c4 == RV_ITYPE_UNINFERABLE_CALL || c4 == RV_ITYPE_COROUTINE_SWAP)
				if (depth < 1024)
					stack[depth++] = pc + in.size;
			if (seq) {
				flags = NTRACE_REC_SEQ_INFERABLE;
				next = rv_insn_seq_target(&prev, pc - prev.size, &in, p->xlen);
			} else if (have && !(o->wild_returns && rng_below(r, 10) == 0)) {
				next = popped;
			} else {
				next = p->funcs[rng_below(r, p->nfuncs)];
			}
			break;
		}
		case RV_INSN_TRAP_RETURN:
			next = epc;
			in_handler = false;
			priv = NTRACE_PRV_U;
			break;
		case RV_INSN_TRAP:
			x->ntraps++;
			epc = pc + in.size;
			next = p->handler;
			in_handler = true;
			break;
		default:
			break;
		}
		if ((!in_handler || in.kind == RV_INSN_TRAP_RETURN) && in.kind != RV_INSN_TRAP &&
		    rng_below(r, 1000) < o->int_after_permille) {
			/* retired, then interrupted before the next instruction; the
			 * record may or may not say what the instruction was */
			run_add_retired(x, pc, in.size, RV_ITYPE_INTERRUPT, priv, ctx, 0,
					rng_below(r, 2) ? itype : 0, r);
			x->ntraps++;
			epc = rv_xlen_mask(next, p->xlen);
			pc = p->handler;
			in_handler = true;
			priv = NTRACE_PRV_M;
			prev_valid = false;
			continue;
		}
		run_add(x, pc, in.size, itype, priv, ctx, flags, r);
		if (in.kind == RV_INSN_TRAP)
			priv = NTRACE_PRV_M;
		if (in.kind == RV_INSN_TRAP_RETURN && o->context_changes && rng_below(r, 4) == 0)
			ctx = 1 + rng_below(r, 1000);
		prev = in;
		prev_valid = true;
		pc = rv_xlen_mask(next, p->xlen);
	}
	x->next_pc = pc;
}

#endif /* TEST_NTRACE_GEN_H */
