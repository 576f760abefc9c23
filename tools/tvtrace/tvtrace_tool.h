/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tvtrace host tool: reading Bluespec tandem-verification traces
 * (bluespec-trace-protocol-2018-11-20.txt) as the firmware's TV mode writes
 * them.  The core (this header) works on bytes in memory so tests call it
 * directly; main.c is only the command line.
 */
#ifndef TVTRACE_TOOL_H
#define TVTRACE_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ntrace_tool.h"        /* struct nt_err, ELF images */
#include "tvtrace.h"

/* ---- Parsed trace ---------------------------------------------------- */

/* One record and where it starts in the file. */
struct tv_item {
	struct tvtrace_record rec;
	size_t offset;
};

struct tv_trace {
	struct tv_item *v;
	size_t count;
	size_t padding;         /* padding bytes after the last record (pad) */
};

/*
 * Parses every record of buf[0..len).  On a malformed record returns -1
 * with err = "byte 0xOFF (OFF): record N: reason" and out holding the
 * records before it (so dump can print them); 0 otherwise.  pad (a byte
 * value, or TV_PAD_NONE): the bytes from an opcode position on may all be
 * pad -- 0 for a buffer saved whole, 0xFF for the RAM sink's idle bytes
 * after a stop on wrap; neither is an opcode, so they cannot be records
 * and are skipped.
 */
#define TV_PAD_NONE (-1)
int tv_trace_parse(const struct tvtrace_params *params, const uint8_t *buf,
		   size_t len, int pad, struct tv_trace *out, struct nt_err *err);
void tv_trace_free(struct tv_trace *t);

/* ---- Names ----------------------------------------------------------- */

/* Name of a register address of opcodes 4-6: "x3", "f7", "mepc", "csr 0x7c0". */
void tv_reg_name(uint16_t reg, char *buf, size_t size);
const char *tv_opcode_name(uint8_t opcode);
const char *tv_mem_op_name(uint8_t op);
const char *tv_state_name(uint8_t id);

/* ---- dump ------------------------------------------------------------ */

/* One line per record; records inside a group are indented under it. */
void tv_dump(FILE *out, const struct tv_trace *t);

/* ---- Operands the check needs beyond lib/rvinsn's control flow -------- */

enum tv_access {
	TV_ACCESS_NONE = 0,
	TV_ACCESS_LOAD,        /* integer or FP load                       */
	TV_ACCESS_STORE,       /* integer or FP store                      */
	TV_ACCESS_LR,
	TV_ACCESS_SC,
	TV_ACCESS_AMO,
};

struct tv_operands {
	uint8_t access;        /* enum tv_access                            */
	uint8_t mem_op;        /* enum tvtrace_mem_op of the access         */
	uint8_t size_log2;     /* access size: 1 << size_log2 bytes         */
	bool load_signed;      /* loaded value is sign extended into rd     */
	bool rd_fp, rs2_fp;    /* rd / rs2 are FPRs (flw, fsd, ...)          */
	bool is_branch;
	uint8_t branch_cond;   /* funct3 of beq..bgeu (c.beqz 0, c.bnez 1)  */
	bool is_csr;           /* csrrw..csrrci                              */
	uint16_t csr;
	uint8_t rd, rs1, rs2;
	int64_t imm;           /* address offset of loads and stores        */
};

/* Decodes what a memory access or branch reads (RV32/RV64 G + C). */
void tv_operands_decode(uint32_t raw, unsigned xlen, struct tv_operands *out);

/* ---- check ----------------------------------------------------------- */

struct tv_check_summary {
	size_t records, groups, instructions;
	size_t exceptions, interrupts, trap_returns;
	size_t ecalls_serviced;   /* ecall with no trap: serviced below the trace */
	size_t bits_checked;      /* instructions compared with the ELF           */
	size_t unterminated;      /* 1 when the last group has no end (unchecked) */
};

/*
 * Replays the trace against the images (may be empty) and reports the first
 * inconsistency in err ("record N at byte 0xOFF: ...") with -1; 0 and the
 * summary when the trace is self-consistent.
 */
int tv_check(const struct tv_trace *t, const struct tvtrace_params *params,
	     struct nt_image_set *images, struct tv_check_summary *sum,
	     struct nt_err *err);

#endif /* TVTRACE_TOOL_H */
