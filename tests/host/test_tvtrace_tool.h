/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Trace builder of the tvtrace tool's tests: writes records with
 * lib/tvtrace's writer (RV64GC) and the trace of tests/data/tvtrace/tool/
 * prog.S as its execution gives it, with one fault injected on demand.
 * Include after <cmocka.h>.
 */
#ifndef TEST_TVTRACE_TOOL_H
#define TEST_TVTRACE_TOOL_H

#include <stdint.h>
#include <string.h>

#include "lib/tvtrace/tvtrace.h"

#define PROG 0x80000000ull
#define STVEC (PROG + 0x30)
#define IRQ_BIT (1ull << 63)

struct tb {
	uint8_t buf[4096];
	size_t len;
	size_t records;
	struct tvtrace_record last;     /* a response's request */
	size_t mark, mark_off;          /* the record a fault went into */
};

static void tb_put(struct tb *b, struct tvtrace_record r)
{
	const struct tvtrace_params rv64 = TVTRACE_PARAMS_RV64GC;
	int n = tvtrace_write(&rv64, &r, r.opcode == TVTRACE_OP_MEM_RSP ? &b->last : NULL,
			      b->buf + b->len, sizeof(b->buf) - b->len);

	assert_true(n > 0);
	b->len += (size_t)n;
	b->records++;
	b->last = r;
}

/* Marks the next record as the one a test expects an error at. */
static void tb_mark(struct tb *b)
{
	b->mark = b->records;
	b->mark_off = b->len;
}

static void tb_op(struct tb *b, uint8_t op) { tb_put(b, (struct tvtrace_record){ .opcode = op }); }

static void tb_insn(struct tb *b, uint32_t raw)
{
	bool c = (raw & 3) != 3;

	tb_put(b, (struct tvtrace_record){ .opcode = c ? TVTRACE_OP_INSN16 : TVTRACE_OP_INSN32, .insn = raw });
}

static void tb_state(struct tb *b, uint8_t id, uint64_t v)
{
	tb_put(b, (struct tvtrace_record){ .opcode = TVTRACE_OP_STATE, .state_id = id, .value = v });
}

static void tb_reg(struct tb *b, unsigned reg, uint64_t v)
{
	tb_put(b, (struct tvtrace_record){ .opcode = TVTRACE_OP_FULL_REG, .reg = (uint16_t)reg, .value = v });
}

static void tb_gpr(struct tb *b, unsigned n, uint64_t v) { tb_reg(b, TVTRACE_REG_GPR(n), v); }

static void tb_mem(struct tb *b, uint8_t op, uint64_t addr, uint64_t data, uint64_t rsp_data)
{
	tb_put(b, (struct tvtrace_record){ .opcode = TVTRACE_OP_MEM_REQ, .mem_op = op,
					   .mem_size = TVTRACE_MEM_SIZE_64, .addr = addr, .value = data });
	tb_put(b, (struct tvtrace_record){ .opcode = TVTRACE_OP_MEM_RSP, .mem_size = TVTRACE_MEM_SIZE_64,
					   .mem_result = TVTRACE_MEM_SUCCESS, .value = rsp_data });
}

/* One sequential instruction: begin, incr-pc, insn (end by the caller). */
static void tb_seq(struct tb *b, uint32_t raw)
{
	tb_op(b, TVTRACE_OP_BEGIN_GROUP);
	tb_op(b, TVTRACE_OP_INCR_PC);
	tb_insn(b, raw);
}

/* One instruction that sets the pc: begin, state pc, insn. */
static void tb_jump(struct tb *b, uint32_t raw, uint64_t pc)
{
	tb_op(b, TVTRACE_OP_BEGIN_GROUP);
	tb_state(b, TVTRACE_STATE_PC, pc);
	tb_insn(b, raw);
}

enum fault {
	FAULT_NONE,
	FAULT_BRANCH_PC,        /* bne taken, trace goes on sequentially  */
	FAULT_BRANCH_NOWHERE,   /* unknown operands, pc is neither target */
	FAULT_JALR_TARGET,
	FAULT_LINK,             /* jal's x1                               */
	FAULT_AUIPC,
	FAULT_ELF_BITS,         /* addi x10, x0, 4 where the ELF has 3    */
	FAULT_STORE_DATA,
	FAULT_LOAD_ADDR,
	FAULT_LOAD_VALUE,
	FAULT_TRAP_VECTOR,      /* ecall to stvec + 4                     */
	FAULT_TRAP_EPC,
	FAULT_ECALL_CAUSE,
	FAULT_IRQ_VECTOR,
	FAULT_SRET_TARGET,
	FAULT_INCR_PC_ALONE,    /* chapter 3: incr-pc needs an instruction */
	FAULT_NO_PC_UPDATE,
	FAULT_X0_WRITE,
	FAULT_UNKNOWN_REGS,     /* no addi x5/x6: the branch is unknown    */
};

/* The execution of prog.S: U-mode, stvec = handler; a timer interrupt
 * after the ld, handled by sret; then the ecall traps to S-mode. */
static void tb_program(struct tb *b, enum fault f)
{
	memset(b, 0, sizeof(*b));
	/* initial state: a group without an instruction */
	tb_op(b, TVTRACE_OP_BEGIN_GROUP);
	tb_state(b, TVTRACE_STATE_PC, PROG);
	tb_state(b, TVTRACE_STATE_PRIV, 0);
	tb_reg(b, 0x105, STVEC);                /* stvec, direct mode */
	tb_reg(b, 0x100, 0);                    /* sstatus: SPP = U */
	tb_reg(b, 0x180, 0);                    /* satp: Bare */
	tb_op(b, TVTRACE_OP_END_GROUP);
	if (f == FAULT_INCR_PC_ALONE) {
		tb_op(b, TVTRACE_OP_BEGIN_GROUP);
		tb_mark(b);
		tb_op(b, TVTRACE_OP_INCR_PC);
		tb_op(b, TVTRACE_OP_END_GROUP);
	}

	tb_seq(b, 0x00010117);                  /* 0x00 auipc x2, 0x10 */
	if (f == FAULT_AUIPC)
		tb_mark(b);
	tb_gpr(b, 2, f == FAULT_AUIPC ? 0x10000 : PROG + 0x10000);
	if (f != FAULT_UNKNOWN_REGS && f != FAULT_BRANCH_NOWHERE) {
		tb_seq(b, 0x00500293);          /* 0x04 addi x5, x0, 5 */
		tb_gpr(b, 5, 5);
		tb_seq(b, 0x00700313);          /* 0x08 addi x6, x0, 7 */
		tb_gpr(b, 6, 7);
	} else {
		/* the same pcs, values untold */
		tb_seq(b, 0x00500293);
		tb_seq(b, 0x00700313);
	}
	tb_op(b, TVTRACE_OP_BEGIN_GROUP);       /* 0x0c bne x5, x6: taken */
	if (f == FAULT_BRANCH_PC || f == FAULT_BRANCH_NOWHERE) {
		tb_mark(b);
		tb_state(b, TVTRACE_STATE_PC, PROG + (f == FAULT_BRANCH_PC ? 0x10 : 0x18));
	} else {
		tb_state(b, TVTRACE_STATE_PC, PROG + 0x14);
	}
	tb_insn(b, 0x00629463);
	tb_jump(b, 0x014000ef, PROG + 0x28);    /* 0x14 jal x1, func */
	if (f == FAULT_LINK)
		tb_mark(b);
	tb_gpr(b, 1, PROG + (f == FAULT_LINK ? 0x14 : 0x18));
	tb_op(b, TVTRACE_OP_BEGIN_GROUP);       /* 0x28 addi x10, x0, 3 */
	if (f != FAULT_NO_PC_UPDATE)
		tb_op(b, TVTRACE_OP_INCR_PC);
	if (f == FAULT_NO_PC_UPDATE || f == FAULT_ELF_BITS)
		tb_mark(b);
	tb_insn(b, f == FAULT_ELF_BITS ? 0x00400513 : 0x00300513);
	tb_gpr(b, 10, f == FAULT_ELF_BITS ? 4 : 3);
	tb_op(b, TVTRACE_OP_BEGIN_GROUP);       /* 0x2c jalr x0, 0(x1) */
	if (f == FAULT_JALR_TARGET)
		tb_mark(b);
	tb_state(b, TVTRACE_STATE_PC, PROG + (f == FAULT_JALR_TARGET ? 0x1c : 0x18));
	tb_insn(b, 0x00008067);
	if (f == FAULT_X0_WRITE) {
		tb_mark(b);
		tb_gpr(b, 0, 0x18);
	}
	tb_seq(b, 0x00613423);                  /* 0x18 sd x6, 8(x2) */
	if (f == FAULT_STORE_DATA)
		tb_mark(b);
	tb_mem(b, TVTRACE_MEM_STORE, PROG + 0x10008, f == FAULT_STORE_DATA ? 8 : 7, 0);
	tb_seq(b, 0x00813403);                  /* 0x1c ld x8, 8(x2) */
	if (f == FAULT_LOAD_ADDR)
		tb_mark(b);
	tb_mem(b, TVTRACE_MEM_LOAD, PROG + (f == FAULT_LOAD_ADDR ? 0x10010 : 0x10008), 0, 7);
	if (f == FAULT_LOAD_VALUE)
		tb_mark(b);
	tb_gpr(b, 8, f == FAULT_LOAD_VALUE ? 8 : 7);

	tb_op(b, TVTRACE_OP_BEGIN_GROUP);       /* supervisor timer interrupt at 0x20 */
	if (f == FAULT_IRQ_VECTOR)
		tb_mark(b);
	tb_state(b, TVTRACE_STATE_PC, f == FAULT_IRQ_VECTOR ? STVEC + 4 : STVEC);
	tb_reg(b, 0x141, PROG + 0x20);          /* sepc */
	tb_reg(b, 0x142, IRQ_BIT | 5);          /* scause */
	tb_state(b, TVTRACE_STATE_PRIV, 1);
	tb_op(b, TVTRACE_OP_BEGIN_GROUP);       /* 0x30 sret */
	if (f == FAULT_SRET_TARGET)
		tb_mark(b);
	tb_state(b, TVTRACE_STATE_PC, PROG + (f == FAULT_SRET_TARGET ? 0x24 : 0x20));
	tb_insn(b, 0x10200073);
	tb_state(b, TVTRACE_STATE_PRIV, 0);
	tb_seq(b, 0xfe628ae3);                  /* 0x20 beq x5, x6: not taken */

	tb_op(b, TVTRACE_OP_BEGIN_GROUP);       /* 0x24 ecall from U: to S */
	if (f == FAULT_TRAP_VECTOR)
		tb_mark(b);
	tb_state(b, TVTRACE_STATE_PC, f == FAULT_TRAP_VECTOR ? STVEC + 4 : STVEC);
	tb_insn(b, 0x00000073);
	if (f == FAULT_TRAP_EPC)
		tb_mark(b);
	tb_reg(b, 0x141, PROG + (f == FAULT_TRAP_EPC ? 0x28 : 0x24));
	if (f == FAULT_ECALL_CAUSE)
		tb_mark(b);
	tb_reg(b, 0x142, f == FAULT_ECALL_CAUSE ? 9 : 8);
	tb_reg(b, 0x143, 0);                    /* stval */
	tb_state(b, TVTRACE_STATE_PRIV, 1);
	tb_op(b, TVTRACE_OP_END_GROUP);
}

#endif /* TEST_TVTRACE_TOOL_H */
