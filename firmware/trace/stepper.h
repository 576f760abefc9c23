/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Block stepping: how the firmware sees a hart's S/U-mode execution.
 *
 * Two execute triggers (Sdtrig mcontrol/mcontrol6, action 0 = breakpoint
 * exception into M-mode, with medeleg's breakpoint bit cleared while the
 * hart traces):
 *   T0 sits on the end of the current block: the next instruction that can
 *      change the flow (decoded forward from the block start with
 *      lib/rvinsn and cached), or a split point.  When it fires, the block
 *      ran; the firmware emulates the transfer (branch, jal, jalr, sret),
 *      reports block + transfer and arms T0 at the end of the next block.
 *   T1 sits on the S-mode trap vector (stvec, direct mode): every trap the
 *      hardware delivers to S-mode fires it, and sepc/scause say where and
 *      why execution left the block.
 * Traps that come to M-mode first (SBI calls, the firmware's emulations
 * and redirects) are seen by the traced trap path (trace_trap_enter).
 * docs/TRACE.md, "Ingress", has the whole picture.
 */
#ifndef TRACE_STEPPER_H
#define TRACE_STEPPER_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/ntrace/ntrace.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/trap_regs.h"
#include "firmware/trace/lrsc_guard.h"

/* Decoded blocks (direct-mapped): the firmware's pool holds
 * STEP_CACHE_PER_HART for each hart it can serve, and is shared out at
 * boot among the harts there are (components.c): one hart on QEMU virt
 * gets all of it. */
#define STEP_CACHE_PER_HART 128
#define STEP_CHAIN_MAX  8        /* predicted transfers per visit, after the first */

/* How a block ends. */
enum block_end {
	BLOCK_END_EMULATE,   /* a transfer the firmware emulates             */
	BLOCK_END_NATIVE,    /* an instruction the hart runs itself, T0 after it
				(ecall, ebreak, anything rvinsn does not know) */
	BLOCK_END_SPLIT,     /* no instruction: the run goes on at `end`      */
	BLOCK_END_FAULT,     /* the instruction at `end` cannot be fetched    */
};

#define ADDR_NONE 1UL   /* odd: never an instruction address */

/* Block flags. */
#define BLOCK_SEQ_INFERABLE (1u << 0) /* the end jump is sequentially inferable (9.1) */
#define BLOCK_WATCH_STVEC   (1u << 1) /* split after an access to stvec   */
#define BLOCK_WATCH_CODE    (1u << 2) /* split after satp/sfence.vma/fence.i */
#define BLOCK_CHAIN_STOP    (1u << 3) /* no chain goes on after this block: its
					 end is not a predictable transfer, or
					 its run writes the transfer's sources */

/* How the firmware emulates an end transfer (decoded once, at scan). */
enum emu_op {
	EMU_BRANCH,    /* conditional branch: cond on x[rs1], x[rs2]          */
	EMU_JAL,       /* direct jump: link in rd                             */
	EMU_JALR,      /* indirect jump: (x[rs1] + imm) & ~1, link in rd      */
	EMU_SRET,
};

struct tci_qualifier;

struct step_block {
	uint64_t start;          /* tag: first instruction (odd = empty slot) */
	uint64_t end;            /* end instruction / split point            */
	uint64_t rvc_mask;       /* sizes of the run [start, end)            */
	uint64_t target;         /* direct target; EMU_JALR: the immediate   */
	uint32_t raw;            /* the end instruction                      */
	uint32_t wmask;          /* registers the run may write (bit n: xn)  */
	uint8_t count;           /* instructions in the run                  */
	uint8_t kind;            /* enum block_end                           */
	uint8_t flags;           /* BLOCK_*                                  */
	uint8_t size;            /* of the end instruction                   */
	uint8_t op;              /* enum emu_op (BLOCK_END_EMULATE)          */
	uint8_t cond;            /* EMU_BRANCH: funct3 of the compare        */
	uint8_t rd, rs1, rs2;
	uint8_t itype_taken;     /* Table 2 itype when taken / a jump (a
				    branch not taken: RV_ITYPE_NOT_TAKEN_BRANCH) */
	uint8_t fast_op;         /* STEP_FAST_*: how the fast visit takes the
				    end (step_fast.S), 0: it does not     */
	uint8_t fast_h;          /* I-CNT half-words of the run and the end */
	uint32_t tag;            /* tag too: the cache's generation when
				    decoded, | STEP_V for V=1 code,
				    | STEP_TAG_LRSC, _SLOW or _OUT          */
};

/*
 * A block whose run goes on with a constrained LR/SC sequence (lrsc.h)
 * has STEP_TAG_LRSC in its tag (so the fast visit's tag compare misses
 * it, and only C enters it): its run [start, LR) is count / rvc_mask,
 * `end` is the instruction after the SC (kind BLOCK_END_SPLIT) and
 * `target` the sequence's exit (LRSC_NO_EXIT: none).  The hart runs the
 * sequence natively (stepper.c, "LR/SC sequences").
 */
#define STEP_TAG_LRSC 1u

/*
 * In a session whose filters look at addresses, a block the comparators
 * do not decide whole, in U and in S alike (tci_qualify_span()), has
 * STEP_TAG_SLOW in its tag: the fast visit's tag compare misses it too,
 * so every block the fast visit holds is qualified as a whole, as the
 * privilege alone qualifies blocks in other sessions (step_fast.h).
 */
#define STEP_TAG_SLOW 2u
/* ... and one they leave out whole, in U and S alike, STEP_TAG_OUT: the
 * fast visit takes such blocks in a steady state of its own, while the
 * encoder is stopped (outside the traced part), with fast_tag saying so. */
#define STEP_TAG_OUT 8u
#define STEP_TAG_FLAGS (STEP_TAG_LRSC | STEP_TAG_SLOW | STEP_TAG_OUT)

/* What the fast visit holds (struct stepper, `fast`; 0: not in the
 * steady state). */
enum step_fast_state {
	STEP_FAST_PENDING = 1,   /* fast_h1's run is the whole held run, its
				    end the pending transfer                 */
	STEP_FAST_TWO = 2,       /* fast_h1's run and end are the whole held
				    run and its end (HELD_RECORD), and
				    fast_h2's end (no run) is the pending
				    transfer                                 */
	STEP_FAST_RAN = 4,       /* fast_h1's run and end are the whole held
				    run and its end, and nothing is pending:
				    the firmware ran the end (a loop)        */
};

/* Whether a session can take the fast visit (struct stepper,
 * `fast_allowed`). */
enum step_fast_allowed {
	STEP_FAST_NEVER = 0,     /* single-stepping, timestamps              */
	STEP_FAST_ALWAYS = 1,
	STEP_FAST_SAME_OWNER = 2, /* trTeContext: while the encoder's privilege
				     and context are the hart's, so that no
				     Ownership is due (7.1)                  */
};

/* step_block.fast_op: an end transfer the fast visit predicts. */
#define STEP_FAST_BRANCH 1
#define STEP_FAST_JAL    2       /* jal, or a jalr 9.1 makes direct      */
#define STEP_FAST_JALR   3

/* The stepper's privileges are the N-Trace records' (ntrace.h): PRV in
 * bits 1..0, V in bit 2.  V=1 is stepped for CTR recording only. */
#define STEP_V 4u

/* mstatus.MPP/MPV of a stepper privilege (an MPRV access as that code)... */
static inline unsigned long step_priv_mstatus(unsigned int priv)
{
	return (unsigned long)(priv & 3) << MSTATUS_MPP_SHIFT | (priv & STEP_V ? MSTATUS_MPV : 0);
}

/* ...and the stepper privilege mstatus.MPP/MPV says a trap came from. */
static inline unsigned int step_priv_of(unsigned long mstatus)
{
	return (unsigned int)((mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT) |
	       (mstatus & MSTATUS_MPV ? STEP_V : 0);
}

/* A predicted transfer the hart runs natively, then the run after it. */
struct step_segment {
	struct ntrace_retired xfer;
	uint64_t start, end;     /* the run [start, end); end: the next transfer */
	uint64_t mask;           /* its instruction sizes                       */
	uint8_t count;
};

/*
 * The held records: the last retired instruction waits until it is known
 * whether a trap follows it, with the run before it.  The run is
 * [start, end) (count instructions, sizes in mask); its end is the run's
 * last instruction (HELD_LAST) or `rec`, a record after it (HELD_RECORD).
 * `whole`: the run is a block's whole run, which the
 * encoder may take inline.
 */
enum held_kind {
	HELD_LAST = 0,   /* (0: a whole run's end is one test on the common visit) */
	HELD_RECORD = 1,
	HELD_NONE = 2,
};

struct step_held {
	uint64_t start, end, mask, tstamp;
	uint8_t count, priv;
	uint8_t kind;            /* enum held_kind                             */
	bool whole;
	struct ntrace_retired rec;
};

/* The size of instruction i of a run whose sizes are mask (bit i: 2). */
static inline unsigned int step_insn_size(uint64_t mask, unsigned int i)
{
	return (mask >> i) & 1 ? 2 : 4;
}

/* The record of the run's last instruction (HELD_LAST: the held end). */
static inline struct ntrace_retired step_held_last(const struct step_held *h)
{
	unsigned int last = step_insn_size(h->mask, h->count - 1u);

	return (struct ntrace_retired){ .addr = h->end - last, .size = (uint8_t)last,
					.tstamp = h->tstamp, .priv = h->priv };
}

/* The held end's record, if anything is held. */
static inline bool step_held_end(const struct step_held *h, struct ntrace_retired *rec)
{
	if (h->kind == HELD_NONE)
		return false;
	*rec = h->kind == HELD_LAST ? step_held_last(h) : h->rec;
	return true;
}

/* A run is held, its last instruction the held end (field by field: a
 * whole-struct assignment is a memset, a byte loop here). */
static inline __attribute__((always_inline)) void
held_run_set(struct step_held *h, uint64_t start, uint64_t end, uint64_t mask, unsigned int n,
	     unsigned int priv, uint64_t tstamp, bool whole)
{
	h->start = start;
	h->end = end;
	h->mask = mask;
	h->count = (uint8_t)n;
	h->priv = (uint8_t)priv;
	h->tstamp = tstamp;
	h->kind = HELD_LAST;
	h->whole = whole;
}

enum step_mode {
	STEP_OFF,      /* not stepping                                        */
	STEP_RUN,      /* T0 at the end of `blk`                               */
	STEP_SINGLE,   /* one instruction at `run.start` runs natively, T0 after it
			  (ecall, ebreak, unknown; the first instruction at
			  stvec, stepped with T1 off)                          */
	STEP_FREE,     /* T0 off: execution is not traced until the next trap
			  into S-mode (fetch fault at a block start, V=1)     */
};

struct stepper {
	uint8_t mode;            /* enum step_mode                             */
	uint8_t priv;            /* privilege the current block runs in        */
	uint8_t trig_type;       /* 2 (mcontrol) or 6 (mcontrol6)              */
	uint8_t max_block;       /* NTRACE_BLOCK_MAX, or 1 when single-stepping */
	bool ecall_no_retire;    /* ratified convention: ecall/ebreak do not retire */
	bool itype4;             /* 4-bit itypes (implicit return)             */
	bool all_jumps;          /* trTeInstEnAllJumps: direct jumps get itypes */
	bool seq_jump;           /* trTeInstEnSequentialJump                    */
	bool align4;             /* no C: IALIGN is 32                         */
	bool t1_on;
	bool follow_virt;        /* V=1 is stepped too (CTR without N-Trace)  */
	bool t1_virt;            /* T1 follows vstvec (else stvec), medeleg is
				    cut to hedeleg's causes                  */
	unsigned long medeleg_hs; /* medeleg to restore when V=1 ends        */
	bool trap_to_vs;         /* the trap being reported went to VS-mode  */
	bool in_m;               /* the SBI call's trap + M record went out, and
				    nothing retired since (hold() clears it) */
	bool single_is_vector;   /* STEP_SINGLE over stvec's first instruction  */
	uint64_t t0, t1;         /* armed addresses                            */
	struct step_block *blk;  /* STEP_RUN: the block whose end T0 marks, or
				    NULL when T0 marks where a plan resumes */
	/* The current segment, as a chain's: run.xfer, a transfer the hart
	 * runs natively, while `pend` (its outcome predicted from the
	 * registers: stepper.c, "Where the hart goes"), then the run
	 * [run.start, run.end); run.start is the first instruction not
	 * accounted yet. */
	bool pend;
	struct step_segment run;
	/* The segments after it, when their outcomes were known from the
	 * registers at the visit (stepper.c, "Chains"); T0 then marks the
	 * end of the last one. */
	uint8_t chain_pos, chain_len;
	struct step_segment chain[STEP_CHAIN_MAX];
	uint32_t single_raw;     /* STEP_SINGLE: the instruction               */
	unsigned long vec_scause, vec_sepc; /* STEP_SINGLE at stvec: to see a trap in the window */
	uint64_t tstamp;         /* timestamp of the event being handled       */
	uint64_t m_handler;      /* where an SBI call enters M-mode (mtvec)    */
	/* What retired and waits (step_held.h). */
	struct step_held held;
	/* The block cache: this hart's share of the pool.  A flush moves
	 * cache_gen on (blocks of older generations miss) instead of
	 * clearing every slot. */
	struct step_block *cache;
	uint32_t cache_mask;     /* slots - 1 (a power of two)               */
	uint32_t fast_tag;       /* the tag of every block the fast visit
				    moves into: cache_gen, | STEP_TAG_OUT in
				    the steady state outside the traced part */
	uint32_t cache_gen;      /* multiple of STEP_CACHE_GEN; 0: slots hold
				    garbage (never cleared yet)              */
	/* The leaf PTEs the cached code was fetched through, as a 64-bit
	 * filter (step_cache.c, code_leaf_bit(); all ones: unknown), and the
	 * last page looked up: an sfence.vma of one address that misses them
	 * leaves the cache (step_sfence_spares_cache()). */
	uint64_t code_leaves;
	uint64_t leaf_page;
	/*
	 * The fast visit (step_fast.S, step_fast.c): while
	 * `fast` is not 0, what was held and is pending is kept as the
	 * blocks it came from, and the fields it stands for (held,
	 * pend and run) are out of date until
	 * stepper_fast_leave() writes them.
	 */
	uint8_t fast;            /* 0, or enum step_fast_state             */
	uint8_t fast_it1, fast_it2; /* the itypes of their ends           */
	uint8_t fast_allowed;    /* enum step_fast_allowed                 */
	/* The session's qualifier when its filters look at addresses (the
	 * blocks' STEP_TAG_SLOW), else NULL. */
	const struct tci_qualifier *span_qual;
	const struct step_block *fast_h1, *fast_h2;
	uint8_t fast_end[16];    /* enum ntrace_inline_end of an end's itype,
				    | STEP_FAST_END_TS (step_fast.h) */
	/* With timestamps: the raw time (time CSR or mtime) at which the
	 * fast visit left a message waiting, 0 none, which C makes the
	 * encoder's pending_tstamp (stepper_fast_unfold()); and mtime when
	 * the hart has no time CSR, else NULL. */
	uint64_t fast_ptime;
	const volatile uint64_t *time_mmio;
	/* What step_fast.S calls for ntrace_enc_resolve_jump(): it, or with
	 * timestamps stepper_fast_resolve_ts(). */
	bool (*fast_resolve)(struct ntrace_encoder *e, uint64_t addr, uint8_t priv,
			     uint64_t context);
	/* The current run goes on with the LR/SC sequence at lrsc.at, which
	 * the hart runs with the guard on (stepper.c, "LR/SC sequences").
	 * TV mode's stepper keeps its sequence here too (the two never step
	 * at once). */
	struct lrsc_guard lrsc;
};

/* The current run is [start, end): n instructions, their sizes in mask. */
static inline void step_set_run(struct stepper *s, uint64_t start, unsigned int n, uint64_t mask,
				uint64_t end)
{
	s->lrsc.at = ADDR_NONE;
	s->run.start = start;
	s->run.count = (uint8_t)n;
	s->run.mask = mask;
	s->run.end = end;
}

#define STEP_CACHE_GEN 16u       /* generation step: above STEP_V, STEP_TAG_OUT */

struct trace_hart;

/* Start stepping: execution continues at pc in privilege priv (PRV_U/S,
 * with STEP_V for VS/VU when follow_virt).  regs (may be NULL) is the
 * frame mret returns through.  follow_virt: the stepper follows the hart
 * into V=1 (CTR recording without an N-Trace session). */
void stepper_start(struct trace_hart *th, struct trap_regs *regs, uint64_t pc, unsigned priv,
		   bool follow_virt);
/* Account everything before pc as retired (execution continues at pc;
 * regs, which may be NULL, its registers), then stop stepping: triggers
 * off, trap path back to normal. */
void stepper_finish(struct trace_hart *th, const struct trap_regs *regs, uint64_t pc);
/* The S context is inside an SBI call (HSM stop/suspend, reset): report
 * the ecall's trap into M-mode now. */
void stepper_enter_m(struct trace_hart *th);
/* Stop stepping without reporting anything (sink full, hart reset). */
void stepper_off(struct trace_hart *th);

/* An exception that came to M-mode only because the hart steps in V=1
 * (delegated to HS, see step_follow_mode()): delivered to HS as delegation
 * would, and reported.  False when cause is not such a trap. */
bool stepper_delegated_trap(struct trace_hart *th, struct trap_regs *regs, unsigned long cause);

/* A trap into M-mode while the hart runs an LR/SC sequence (engine.c,
 * lrsc_trap()): the guard off, T1 back on stvec. */
void stepper_lrsc_end(struct trace_hart *th);

/* Traced trap path: a breakpoint (T0, T1, or S/U's own ebreak); then
 * what the event left pending (engine_apply_pending()).  True when it was
 * the common visit, which changes nothing in regs (trace_trap_enter()). */
bool stepper_breakpoint(struct trace_hart *th, struct trap_regs *regs);
/* Traced trap path: trap_handler delivered (cause, tval) to S-mode; regs
 * now return to the S trap vector.  `epc` is where the trap happened. */
void stepper_redirected(struct trace_hart *th, struct trap_regs *regs, unsigned long epc,
			unsigned long cause);

/* The SBI call the hart is in (STEP_SINGLE on its ecall) returns to pc,
 * with mstatus as mret will leave it, instead of after the ecall. */
void stepper_sbi_returns_to(struct trace_hart *th, uint64_t pc, unsigned long mstatus);

/* Code or translations changed (fence.i, sfence.vma, satp): forget blocks. */
void stepper_flush_cache(struct stepper *s);

/* The block cache is the `slots` (a power of two) blocks at cache, whose
 * contents are garbage: cleared at the first flush. */
void stepper_cache_init(struct stepper *s, struct step_block *cache, unsigned int slots);

#endif /* TRACE_STEPPER_H */
