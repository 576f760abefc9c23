/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LR/SC sequences the hart runs natively, with no trigger inside
 * (docs/TRACE.md, "LR/SC sequences").  A trap between an LR and its SC
 * loses the reservation (QEMU 7.2 clears it on every privilege change),
 * so a visit of the stepper there makes the SC fail every time.  The
 * unprivileged ISA's constrained LR/SC loop ("Zalrsc", "Eventual Success
 * of Store-Conditional Instructions") is the unit: from the LR, at most
 * 16 instructions placed sequentially in memory, the SC last, and between
 * them "only instructions from the I ... base instruction set, excluding
 * loads, stores, backward jumps, taken backward branches, JALR, FENCE,
 * and SYSTEM instructions" (and their compressed forms).
 *
 * The steppers let the hart run such a sequence with T0 on the
 * instruction after the SC and T1 on the one address outside it a forward
 * branch may leave to, and work out the path afterwards from the
 * registers (lrsc_replay()).  That is exact when the path and every value
 * in it follow from the registers after the sequence, which lrsc_scan()
 * checks once: the LR's destination is not written again, and no
 * instruction reads a register a later one writes unless the sequence
 * itself wrote it first on every path there.
 *
 * Pure: the instruction fetch is the caller's (host tests: test_lrsc).
 */
#ifndef TRACE_LRSC_H
#define TRACE_LRSC_H

#include <stdbool.h>
#include <stdint.h>

#define LRSC_MAX 16              /* instructions, the LR and the SC included */
#define LRSC_NO_EXIT 1ULL        /* odd: never an instruction address */

/* Whether raw is lr.w or lr.d (any aq/rl). */
static inline bool lrsc_is_lr(uint32_t raw)
{
	return (raw & 0xf9f0607fu) == 0x1000202fu;
}

enum lrsc_kind { LRSC_ALU, LRSC_BRANCH, LRSC_JAL, LRSC_LR, LRSC_SC };

/* One instruction of a sequence, decoded for the replay. */
struct lrsc_op {
	uint8_t kind;            /* enum lrsc_kind                             */
	uint8_t alu;             /* LRSC_ALU: the operation (lrsc.c)           */
	uint8_t cond;            /* LRSC_BRANCH: funct3 of the compare         */
	uint8_t size;            /* 2 or 4                                     */
	uint8_t rd, rs1, rs2;    /* rs2 0 with an immediate operand            */
	bool use_imm;
	int64_t imm;             /* operand, or branch / jump offset           */
};

struct lrsc_seq {
	uint64_t lr;             /* address of the LR                          */
	uint64_t end;            /* the instruction after the SC               */
	uint64_t exit;           /* where a forward transfer leaves to other
				    than end, or LRSC_NO_EXIT                  */
	uint8_t n;               /* instructions                               */
	uint8_t off[LRSC_MAX];   /* their offsets from lr                      */
	uint32_t raw[LRSC_MAX];
	struct lrsc_op op[LRSC_MAX];
};

/* Fetch the instruction at addr (16-bit ones in the low half): 0, or not
 * 0 when it cannot be read. */
typedef int (*lrsc_fetch_fn)(void *ctx, uint64_t addr, uint32_t *raw);

/* Why lrsc_scan() refuses a sequence (0: it takes it). */
enum lrsc_refusal {
	LRSC_OK = 0,
	LRSC_NOT_LR,             /* no LR at the address                       */
	LRSC_UNREADABLE,         /* an instruction cannot be fetched           */
	LRSC_NO_SC,              /* no SC within LRSC_MAX instructions         */
	LRSC_NOT_CONSTRAINED,    /* an instruction the ISA excludes, a backward
				    transfer, a target off IALIGN or inside an
				    instruction                                */
	LRSC_TWO_EXITS,          /* transfers leave to two addresses past end   */
	LRSC_NOT_REPLAYABLE,     /* the registers after it do not tell the path */
};

/* The sequence at lr (rvc: the C extension), decoded and checked. */
enum lrsc_refusal lrsc_scan(lrsc_fetch_fn fetch, void *ctx, uint64_t lr, bool rvc,
			    struct lrsc_seq *seq);

/* One instruction of the path, as it retired. */
struct lrsc_step {
	uint64_t pc;
	uint64_t value;          /* what it wrote to rd (LRSC_ALU, JAL, LR, SC) */
	uint64_t eaddr;          /* LR, SC: the address                         */
	uint64_t sdata;          /* SC: the data                                */
	uint8_t index;           /* in seq                                      */
	bool taken;              /* LRSC_BRANCH: taken                          */
};

/*
 * The path the hart took from seq->lr to stop (where it is now: seq->end,
 * seq->exit, or an instruction of the sequence that trapped), from x, its
 * registers there (x[0] is read as 0).  Returns how many instructions
 * retired before stop (steps[0..n-1]), or -1 when stop is not on the path
 * the registers give or those registers are not what the path leaves.
 */
int lrsc_replay(const struct lrsc_seq *seq, const uint64_t x[32], uint64_t stop,
		struct lrsc_step steps[LRSC_MAX]);

#endif /* TRACE_LRSC_H */
