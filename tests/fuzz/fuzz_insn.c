// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for the instruction decoders the firmware runs on
 * S-mode instructions: lib/rvinsn (block stepping, trace) and
 * firmware/emu/memaccess.c (the loads and stores M-mode emulates).
 *
 * The input is a sequence of 12-byte records: a 32-bit instruction word,
 * a register value and a pc (both 32 bits, sign-extended).  Every word is
 * decoded for RV32 and RV64 with every extension set, and each result is
 * checked against the encoding rules it must obey:
 *   - the size agrees with rv_insn_length(); 16-bit words ignore their
 *     upper half; an invalid word has size 0;
 *   - register numbers are below 32, itype values in their forms' ranges,
 *     branches report 5 taken and 4 not taken, direct targets are
 *     pc + imm and 2-byte aligned;
 *   - Sequential Jump Optimization only pairs lui/auipc with a jump through
 *     the register they wrote;
 *   - memaccess_decode agrees with an independent decoding of the 32-bit
 *     load/store formats (address = x[rs1] + imm, width = 1 << funct3), and
 *     whatever it accepts rvinsn reads as a linear instruction of the same
 *     size.
 * Built by mk/70-ntrace-tests.mk (suite fuzz).
 */
#include <stdint.h>
#include <string.h>

#include "firmware/emu/memaccess.h"
#include "lib/rvinsn/rvinsn.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static const unsigned ext_sets[] = {
	0, RV_EXT_C, RV_EXT_C | RV_EXT_ZCMP, RV_EXT_C | RV_EXT_ZCMT,
	RV_EXT_C | RV_EXT_ZCMP | RV_EXT_ZCMT,
};

static int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t sign = 1ull << (bits - 1);

	v &= (sign << 1) - 1;
	return (int64_t)((v ^ sign) - sign);
}

static void check_rvinsn(uint32_t raw, uint64_t pc, unsigned xlen, unsigned ext)
{
	struct rv_insn in, again;
	unsigned size = rv_insn_decode(raw, xlen, ext, &in);
	unsigned len = rv_insn_length((uint16_t)raw, ext);

	CHECK(size == in.size);
	if (!size) {
		CHECK(in.kind == RV_INSN_INVALID);
		return;
	}
	CHECK(size == len);
	CHECK(in.kind > RV_INSN_INVALID && in.kind <= RV_INSN_TRAP);
	CHECK(in.rd < 32 && in.rs1 < 32);
	CHECK(!!(in.flags & RV_INSN_F_COMPRESSED) == (size == 2));
	CHECK(in.itype3 <= 7 && in.itype4 <= 15);
	if (size > 4)
		CHECK(in.kind == RV_INSN_LINEAR);
	if (size == 2) {
		/* A 16-bit instruction does not depend on the parcel after it. */
		rv_insn_decode((raw & 0xffff) | (~raw & 0xffff0000u), xlen, ext, &again);
		CHECK(!memcmp(&in, &again, sizeof(in)));
	}
	for (int all = 0; all < 2; all++)
		for (int four = 0; four < 2; four++) {
			unsigned t = rv_insn_itype(&in, true, four, all);
			unsigned f = rv_insn_itype(&in, false, four, all);

			CHECK(t <= (four ? 15u : 7u) && f <= (four ? 15u : 7u));
			if (in.kind == RV_INSN_BRANCH)
				CHECK(t == RV_ITYPE_TAKEN_BRANCH && f == RV_ITYPE_NOT_TAKEN_BRANCH);
			if (in.kind == RV_INSN_LINEAR)
				CHECK(t == RV_ITYPE_NONE);
		}
	if (rv_insn_is_direct(&in)) {
		uint64_t target = rv_insn_direct_target(&in, pc, xlen);

		CHECK(target == rv_xlen_mask(pc + (uint64_t)in.imm, xlen));
		CHECK(!(in.imm & 1));
		CHECK(in.kind == RV_INSN_BRANCH ? in.imm >= -4096 && in.imm < 4096
						: in.imm >= -(1 << 20) && in.imm < (1 << 20));
	}
	if (in.flags & (RV_INSN_F_LUI | RV_INSN_F_AUIPC)) {
		struct rv_insn jalr;

		/* jalr x0, 8(rd): inferable exactly when rd is not x0. */
		CHECK(rv_insn_decode(0x00800067u | (uint32_t)in.rd << 15, xlen, ext, &jalr) == 4);
		CHECK(rv_insn_seq_inferable(&in, &jalr) == (in.rd != 0));
		if (in.rd) {
			uint64_t base = in.flags & RV_INSN_F_LUI ? (uint64_t)in.imm : pc + (uint64_t)in.imm;

			CHECK(rv_insn_seq_target(&in, pc, &jalr, xlen) ==
			      rv_xlen_mask((base + 8) & ~1ull, xlen));
		}
	} else if (in.kind == RV_INSN_JUMP_REG) {
		struct rv_insn lui;

		CHECK(rv_insn_decode(0x12345037u, xlen, ext, &lui) == 4);   /* lui x0 */
		CHECK(!rv_insn_seq_inferable(&in, &lui));
	}
}

/* The 32-bit load/store formats (unprivileged spec, "RV32/64G Instruction
 * Set Listings"): what memaccess_decode must return for them. */
static void check_memaccess(uint32_t raw, uint64_t reg)
{
	struct trap_regs regs;
	struct mem_access acc;
	enum decode_result r;
	struct rv_insn in;
	unsigned rs1 = (raw >> 15) & 31, funct3 = (raw >> 12) & 7, opcode = raw & 0x7f;

	for (unsigned i = 0; i < 32; i++)
		regs.x[i] = i ? reg * (i + 1) : 0;
	r = memaccess_decode(raw, &regs, &acc);
	if (r == DECODE_UNKNOWN)
		CHECK(opcode != 0x03 || funct3 == 7);
	if (r != DECODE_ACCESS)
		return;
	CHECK(acc.width == 1 || acc.width == 2 || acc.width == 4 || acc.width == 8);
	CHECK(acc.reg < 32);
	CHECK(rv_insn_decode(raw, 64, RV_EXT_C, &in) == insn_length(raw));
	CHECK(in.kind == RV_INSN_LINEAR);
	if (insn_length(raw) == 2)
		return;
	if (opcode == 0x03) {
		CHECK(acc.kind == ACCESS_LOAD && !acc.fp && funct3 != 7);
		CHECK(acc.width == 1u << (funct3 & 3) && acc.sign_extend == !(funct3 & 4));
		CHECK(acc.reg == ((raw >> 7) & 31));
		CHECK(acc.addr == regs.x[rs1] + (uint64_t)sext(raw >> 20, 12));
	} else if (opcode == 0x23) {
		uint32_t imm = (raw >> 25) << 5 | ((raw >> 7) & 31);

		CHECK(acc.kind == ACCESS_STORE && !acc.fp && funct3 < 4);
		CHECK(acc.width == 1u << funct3 && acc.reg == ((raw >> 20) & 31));
		CHECK(acc.addr == regs.x[rs1] + (uint64_t)sext(imm, 12));
	} else {
		CHECK(opcode == 0x07 || opcode == 0x27);
		CHECK(acc.fp && funct3 >= 1 && funct3 <= 3 && acc.width == 1u << funct3);
		CHECK(acc.kind == (opcode == 0x07 ? ACCESS_LOAD : ACCESS_STORE));
	}
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (size_t at = 0; at + 12 <= size; at += 12) {
		uint32_t raw = le32(data + at);
		uint64_t reg = (uint64_t)sext(le32(data + at + 4), 32);
		uint64_t pc = (uint64_t)sext(le32(data + at + 8), 32) & ~1ull;

		for (unsigned e = 0; e < sizeof(ext_sets) / sizeof(ext_sets[0]); e++) {
			check_rvinsn(raw, pc, 32, ext_sets[e]);
			check_rvinsn(raw, pc, 64, ext_sets[e]);
		}
		check_memaccess(raw, reg);
	}
	return 0;
}
