/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tvtrace check, internal: the shadow state the replay keeps (what the
 * records told so far) and one group of records being checked.
 */
#ifndef TVTRACE_CHECK_H
#define TVTRACE_CHECK_H

#include "rvinsn.h"
#include "tvtrace_tool.h"

/* Register addresses 0x0000-0x103f: CSRs, GPRs, FPRs (Debug spec numbers). */
#define TV_REG_COUNT (TVTRACE_REG_FPR_LAST + 1u)

#define CSR_SSTATUS 0x100u
#define CSR_STVEC   0x105u
#define CSR_SEPC    0x141u
#define CSR_SCAUSE  0x142u
#define CSR_SATP    0x180u
#define CSR_MSTATUS 0x300u
#define CSR_MTVEC   0x305u
#define CSR_MEPC    0x341u
#define CSR_MCAUSE  0x342u

/* A value the trace has told, or not yet. */
struct tv_known {
	bool known;
	uint64_t v;
};

struct tv_shadow {
	uint64_t reg[TV_REG_COUNT];
	bool known[TV_REG_COUNT];
	struct tv_known pc;
	struct tv_known priv;
};

struct tv_checker {
	const struct tv_trace *t;
	struct tvtrace_params params;
	unsigned xlen;
	struct nt_image_set *images;
	struct tv_shadow s;
	struct tv_check_summary *sum;
	struct nt_err *err;
};

/* The records of one group: t->v[first..end) without begin/end. */
struct tv_group {
	size_t number;
	size_t first, end;
	long insn;          /* index of the instruction record, or -1 */
	long pc_update;     /* index of incr-pc or state pc, or -1   */
	long cause;         /* index of the xcause write of a trap, or -1 */
	bool reset, init;
	/* The instruction, when there is one. */
	uint32_t raw;
	unsigned len;       /* the encoding's length in bytes              */
	unsigned rec_len;   /* the record's: 2 (opcode 16) or 4 (opcode 17) */
	struct rv_insn in;
	struct tv_operands ops;
	/* State before the group: what the instruction or trap reads. */
	struct tv_known pc0, priv0, rs1, rs2;
	struct tv_known stvec, mtvec, sepc, mepc, sstatus, mstatus, satp;
	struct tv_known csr_old;   /* the CSR a csr* instruction names */
};

/* "record N at byte 0xOFF (group G, pc P): ..." into c->err; returns -1. */
int tv_check_fail(struct tv_checker *c, const struct tv_group *g, size_t rec,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Value of a register address, unknown when never told (x0 is always 0). */
struct tv_known tv_shadow_get(const struct tv_shadow *s, uint16_t reg);

/* Index of the last record of g that writes reg, or -1. */
long tv_group_write(const struct tv_checker *c, const struct tv_group *g, uint16_t reg);

/* Next pc of g's instruction, when it did not trap: known or not. */
struct tv_known tv_next_pc(const struct tv_checker *c, const struct tv_group *g);

/*
 * The rules of one retired instruction that did not trap: its next pc and
 * the values it links (check_insn.c), its memory accesses (check_mem.c).
 * Called after the group's writes reached c->s; sources come from g.
 */
int tv_check_retired(struct tv_checker *c, const struct tv_group *g);
int tv_check_memory(struct tv_checker *c, const struct tv_group *g);
int tv_check_csr(struct tv_checker *c, const struct tv_group *g);

#endif /* TVTRACE_CHECK_H */
