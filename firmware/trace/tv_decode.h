/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the tandem-verification trace needs to know about one RV64GC
 * instruction before it runs: where it may go, which register it writes,
 * which memory it touches and with what, which CSR it writes.  Pure.
 * (lib/rvinsn knows the control flow only; this adds the data side.)
 */
#ifndef TRACE_TV_DECODE_H
#define TRACE_TV_DECODE_H

#include <stdbool.h>
#include <stdint.h>

enum tv_flow {
	TV_FLOW_SEQ,       /* pc + len                                   */
	TV_FLOW_BRANCH,    /* cond(x[rs1], x[rs2]) ? pc + imm : pc + len   */
	TV_FLOW_JAL,       /* pc + imm                                   */
	TV_FLOW_JALR,      /* (x[rs1] + imm) & ~1                         */
	TV_FLOW_SRET,      /* sepc, privilege sstatus.SPP                 */
	TV_FLOW_ECALL,     /* an SBI call from S returns to pc + 4        */
};

enum tv_dest { TV_DEST_NONE, TV_DEST_GPR, TV_DEST_FPR };

enum tv_mem {
	TV_MEM_NONE,
	TV_MEM_LOAD,       /* address x[rs1] + imm                        */
	TV_MEM_STORE,      /* address x[rs1] + imm, data rs2              */
	TV_MEM_AMO,        /* address x[rs1]; data rs2 but for lr         */
};

struct tv_insn {
	uint8_t len;       /* 2 or 4                                      */
	uint8_t flow;      /* enum tv_flow                                */
	uint8_t cond;      /* TV_FLOW_BRANCH: funct3 of the compare       */
	uint8_t dest;      /* enum tv_dest                                */
	uint8_t rd, rs1, rs2;
	uint8_t mem;       /* enum tv_mem                                 */
	uint8_t mem_size;  /* log2 bytes                                  */
	bool has_data;     /* stores, sc, AMOs: store data from rs2       */
	bool data_fpr;     /* the store data is f[rs2]                    */
	bool writes_csr;   /* csr below is written                        */
	bool fp_flags;     /* may set fflags (fcsr)                       */
	uint16_t csr;
	int64_t imm;
};

/* Decode raw (16-bit instructions in the low half).  False when the
 * instruction is not RV64GC: then only len (and flow SEQ) is meaningful. */
bool tv_decode(uint32_t raw, struct tv_insn *in);


#endif /* TRACE_TV_DECODE_H */
