/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Constants of the Bluespec trace protocol for tandem verification
 * (bluespec-trace-protocol-2018-11-20.txt), with the spec's meanings.
 * All values are decimal as in the spec's tables (chapter 2).
 */
#ifndef TVTRACE_SPEC_H
#define TVTRACE_SPEC_H

/* Chapter 2, "Opcode". */
enum tvtrace_opcode {
	TVTRACE_OP_BEGIN_GROUP  = 1,
	TVTRACE_OP_END_GROUP    = 2,
	TVTRACE_OP_INCR_PC      = 3,  /* pc += length of the group's instruction */
	TVTRACE_OP_FULL_REG     = 4,  /* 16-bit address, XLEN or FLEN data     */
	TVTRACE_OP_INCR_REG_ADD = 5,  /* 16-bit address, 8-bit signed offset   */
	TVTRACE_OP_INCR_REG_OR  = 6,  /* 16-bit address, 8-bit OR mask         */
	TVTRACE_OP_STATE        = 7,  /* additional state: 8-bit identifier    */
	TVTRACE_OP_MEM_REQ      = 8,  /* addr (MLEN), op:4, size:4, store data */
	TVTRACE_OP_MEM_RSP      = 9,  /* size:4, result:4, load/amo data       */
	TVTRACE_OP_HART_RESET   = 10,
	TVTRACE_OP_STATE_INIT   = 11,
	TVTRACE_OP_INSN16       = 16,
	TVTRACE_OP_INSN32       = 17,
};

/* Chapter 2, "Memory Request Size": log2 of the access size in bytes. */
enum tvtrace_mem_size {
	TVTRACE_MEM_SIZE_8  = 0,
	TVTRACE_MEM_SIZE_16 = 1,
	TVTRACE_MEM_SIZE_32 = 2,
	TVTRACE_MEM_SIZE_64 = 3,
};

/* Chapter 2, "Memory Request Opcode". */
enum tvtrace_mem_op {
	TVTRACE_MEM_LOAD     = 0,
	TVTRACE_MEM_STORE    = 1,
	TVTRACE_MEM_LR       = 2,
	TVTRACE_MEM_SC       = 3,
	TVTRACE_MEM_AMO_SWAP = 4,
	TVTRACE_MEM_AMO_ADD  = 5,
	TVTRACE_MEM_AMO_XOR  = 6,
	TVTRACE_MEM_AMO_AND  = 7,
	TVTRACE_MEM_AMO_OR   = 8,
	TVTRACE_MEM_AMO_MIN  = 9,
	TVTRACE_MEM_AMO_MAX  = 10,
	TVTRACE_MEM_AMO_MINU = 11,
	TVTRACE_MEM_AMO_MAXU = 12,
	TVTRACE_MEM_FETCH    = 13,
};

/* Chapter 2, "Memory Request Result". */
enum tvtrace_mem_result {
	TVTRACE_MEM_SUCCESS = 0,
	TVTRACE_MEM_FAILURE = 1,
};

/* Chapter 2, "Identifier" of additional state (opcode 7). */
enum tvtrace_state_id {
	TVTRACE_STATE_PRIV     = 1,  /* 8 bits: PRIVLEN (2) zero extended  */
	TVTRACE_STATE_PADDR    = 2,  /* MLEN: physical address              */
	TVTRACE_STATE_EADDR    = 3,  /* MLEN: effective address             */
	TVTRACE_STATE_DATA8    = 4,  /* memory store data, 8 bits           */
	TVTRACE_STATE_DATA16   = 5,
	TVTRACE_STATE_DATA32   = 6,
	TVTRACE_STATE_DATA64   = 7,
	TVTRACE_STATE_MTIME    = 8,  /* 64 bits                             */
	TVTRACE_STATE_PC_PADDR = 9,  /* MLEN: pc physical address           */
	TVTRACE_STATE_PC       = 10, /* XLEN: program counter               */
};

/* Chapter 3: PRIVLEN is 2. */
#define TVTRACE_PRIVLEN 2

/*
 * Register addresses of opcodes 4, 5, 6: the RISC-V Debug Specification's
 * abstract register numbers (chapter 3, "Register addresses").
 */
#define TVTRACE_REG_CSR_FIRST 0x0000u
#define TVTRACE_REG_CSR_LAST  0x0fffu
#define TVTRACE_REG_GPR(n)    (0x1000u + (unsigned)(n))
#define TVTRACE_REG_FPR(n)    (0x1020u + (unsigned)(n))
#define TVTRACE_REG_GPR_FIRST 0x1000u
#define TVTRACE_REG_FPR_FIRST 0x1020u
#define TVTRACE_REG_FPR_LAST  0x103fu

#endif /* TVTRACE_SPEC_H */
