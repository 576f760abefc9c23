/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tvtrace: writer and parser of the Bluespec tandem-verification trace
 * protocol (bluespec-trace-protocol-2018-11-20.txt).
 *
 * Freestanding C: no allocation, only string.h; every buffer belongs to the
 * caller.  One record is one opcode byte and its payload (chapter 2).  The
 * writer and the parser walk the same payload layout (tvtrace.c,
 * record_layout()), so they cannot disagree.  The group rules of chapter 3
 * (increment pc inside a group with an instruction, state initialization
 * apart from instructions) are left to the consumer: this layer checks what
 * one record and its neighbour (a response follows its request) decide.
 * Where the spec is ambiguous, README.md says how it is read.
 */
#ifndef TVTRACE_H
#define TVTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tvtrace_spec.h"

enum tvtrace_err {
	TVTRACE_OK = 0,
	TVTRACE_ERR_PARAMS,      /* xlen/flen/mlen not a supported width       */
	TVTRACE_ERR_SPACE,       /* writer: output buffer too small            */
	TVTRACE_ERR_TRUNCATED,   /* parser: input ends inside a record         */
	TVTRACE_ERR_OPCODE,      /* opcode not in chapter 2's table            */
	TVTRACE_ERR_STATE_ID,    /* additional state identifier unknown        */
	TVTRACE_ERR_MEM_OP,      /* memory request opcode > 13                 */
	TVTRACE_ERR_MEM_SIZE,    /* memory size > 3                            */
	TVTRACE_ERR_MEM_RESULT,  /* memory response result > 1                 */
	TVTRACE_ERR_ORPHAN_RSP,  /* memory response not right after a request  */
	TVTRACE_ERR_REGISTER,    /* FPR address with FLEN 0                    */
	TVTRACE_ERR_VALUE,       /* value wider than its field (priv > 3, ...) */
};

/*
 * Parameters both sides must agree on (chapter 3), in bytes: xlen 4 or 8,
 * flen 0 (no F), 4 or 8, mlen 4, 5 (RV32 with Sv32: MLEN 34 rounded up) or 8.
 */
struct tvtrace_params {
	uint8_t xlen_bytes;
	uint8_t flen_bytes;
	uint8_t mlen_bytes;
};

/* RV64 with Sv39/48: XLEN 64, FLEN 64, MLEN 64 (the Appendix C examples). */
#define TVTRACE_PARAMS_RV64GC ((struct tvtrace_params){ 8, 8, 8 })

/* One record.  Which members count depends on opcode. */
struct tvtrace_record {
	uint8_t opcode;          /* enum tvtrace_opcode                        */
	uint16_t reg;            /* FULL_REG, INCR_REG_ADD, INCR_REG_OR        */
	int8_t reg_offset;       /* INCR_REG_ADD                               */
	uint8_t reg_mask;        /* INCR_REG_OR                                */
	uint8_t state_id;        /* STATE: enum tvtrace_state_id               */
	uint8_t mem_op;          /* MEM_REQ: enum tvtrace_mem_op               */
	uint8_t mem_size;        /* MEM_REQ, MEM_RSP: enum tvtrace_mem_size    */
	uint8_t mem_result;      /* MEM_RSP: enum tvtrace_mem_result           */
	bool has_data;           /* MEM_REQ, MEM_RSP: data bytes present       */
	uint32_t insn;           /* INSN16 (low 16 bits), INSN32               */
	uint64_t addr;           /* MEM_REQ address                            */
	/* FULL_REG value, STATE value, MEM_REQ store data, MEM_RSP data. */
	uint64_t value;
};

/*
 * The parser keeps the one fact that crosses records: whether the previous
 * record was a memory request, and of which opcode (a response's data
 * length depends on it).  Zero-initialise, or call tvtrace_parser_init().
 */
struct tvtrace_parser {
	struct tvtrace_params params;
	bool after_request;
	uint8_t request_op;
	size_t err_offset;       /* byte offset of the last error               */
};

/* Whether params are widths this library supports. */
bool tvtrace_params_valid(const struct tvtrace_params *params);

/* Whether a memory request / response of this request op carries data. */
bool tvtrace_mem_req_has_data(uint8_t mem_op);
bool tvtrace_mem_rsp_has_data(uint8_t mem_op);

/*
 * Write one record at buf[0..cap).  Returns the number of bytes written, or
 * -TVTRACE_ERR_* (nothing usable is written then).  The writer fills in
 * has_data of memory records itself from mem_op (responses: from the op of
 * the request given as rsp_for; pass the request record, or NULL when the
 * response is written alone, which then carries data iff rec->has_data).
 */
int tvtrace_write(const struct tvtrace_params *params,
		  const struct tvtrace_record *rec,
		  const struct tvtrace_record *rsp_for,
		  uint8_t *buf, size_t cap);

void tvtrace_parser_init(struct tvtrace_parser *p,
			 const struct tvtrace_params *params);

/*
 * Parse the record that starts at buf[*off] (buf holds len bytes).  On
 * success fills *rec, advances *off past the record and returns TVTRACE_OK.
 * On failure returns TVTRACE_ERR_*, leaves *off unchanged and sets
 * p->err_offset to the offset of the offending byte (for a truncated record:
 * the offset of its opcode byte, so a streaming caller can retry there with
 * more bytes).  Never reads outside buf[0..len).
 */
int tvtrace_parse(struct tvtrace_parser *p, const uint8_t *buf, size_t len,
		  size_t *off, struct tvtrace_record *rec);

/* Name of an error, for messages. */
const char *tvtrace_strerror(int err);

#endif /* TVTRACE_H */
