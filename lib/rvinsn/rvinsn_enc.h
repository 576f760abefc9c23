/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Build RISC-V instruction encodings from fields (RV32/RV64 base + C, Zcmp,
 * Zcmt): for tests and synthetic programs.  Each function returns the raw
 * instruction bits (16-bit ones in the low half).  Offsets are in bytes and
 * must be in range and suitably aligned; they are masked, not checked.
 */
#ifndef RVINSN_ENC_H
#define RVINSN_ENC_H

#include <stdint.h>

static inline uint32_t rv_bits(uint32_t v, unsigned hi, unsigned lo)
{
	return (v >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

/* ---- 32-bit base instructions ---- */
static inline uint32_t rv_enc_jal(unsigned rd, int32_t off)
{
	uint32_t o = (uint32_t)off;

	return (rv_bits(o, 20, 20) << 31) | (rv_bits(o, 10, 1) << 21) | (rv_bits(o, 11, 11) << 20) |
	       (rv_bits(o, 19, 12) << 12) | (rd << 7) | 0x6f;
}

static inline uint32_t rv_enc_jalr(unsigned rd, unsigned rs1, int32_t imm)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | rd << 7 | 0x67;
}

/* funct3: 0 beq, 1 bne, 4 blt, 5 bge, 6 bltu, 7 bgeu */
static inline uint32_t rv_enc_branch(unsigned funct3, unsigned rs1, unsigned rs2, int32_t off)
{
	uint32_t o = (uint32_t)off;

	return (rv_bits(o, 12, 12) << 31) | (rv_bits(o, 10, 5) << 25) | rs2 << 20 | rs1 << 15 |
	       funct3 << 12 | (rv_bits(o, 4, 1) << 8) | (rv_bits(o, 11, 11) << 7) | 0x63;
}

static inline uint32_t rv_enc_lui(unsigned rd, uint32_t imm20)
{
	return (imm20 << 12) | rd << 7 | 0x37;
}

static inline uint32_t rv_enc_auipc(unsigned rd, uint32_t imm20)
{
	return (imm20 << 12) | rd << 7 | 0x17;
}

static inline uint32_t rv_enc_addi(unsigned rd, unsigned rs1, int32_t imm)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | rd << 7 | 0x13;
}

static inline uint32_t rv_enc_nop(void) { return rv_enc_addi(0, 0, 0); }
static inline uint32_t rv_enc_ecall(void) { return 0x00000073; }
static inline uint32_t rv_enc_ebreak(void) { return 0x00100073; }
static inline uint32_t rv_enc_mret(void) { return 0x30200073; }
static inline uint32_t rv_enc_sret(void) { return 0x10200073; }
static inline uint32_t rv_enc_uret(void) { return 0x00200073; }
static inline uint32_t rv_enc_dret(void) { return 0x7b200073; }
static inline uint32_t rv_enc_wfi(void) { return 0x10500073; }

/* ---- 16-bit (C extension) ---- */
static inline uint32_t rv_enc_cj_imm(int32_t off)
{
	uint32_t o = (uint32_t)off;

	return (rv_bits(o, 11, 11) << 12) | (rv_bits(o, 4, 4) << 11) | (rv_bits(o, 9, 8) << 9) |
	       (rv_bits(o, 10, 10) << 8) | (rv_bits(o, 6, 6) << 7) | (rv_bits(o, 7, 7) << 6) |
	       (rv_bits(o, 3, 1) << 3) | (rv_bits(o, 5, 5) << 2);
}

static inline uint32_t rv_enc_c_j(int32_t off) { return 0xa001 | rv_enc_cj_imm(off); }
/* RV32 only (RV64 reads this encoding as c.addiw). */
static inline uint32_t rv_enc_c_jal(int32_t off) { return 0x2001 | rv_enc_cj_imm(off); }
static inline uint32_t rv_enc_c_jr(unsigned rs1) { return 0x8002 | rs1 << 7; }
static inline uint32_t rv_enc_c_jalr(unsigned rs1) { return 0x9002 | rs1 << 7; }
static inline uint32_t rv_enc_c_ebreak(void) { return 0x9002; }
static inline uint32_t rv_enc_c_nop(void) { return 0x0001; }
/* c.mv rd, rs2 (rs2 != 0) and c.add rd, rs2: linear */
static inline uint32_t rv_enc_c_mv(unsigned rd, unsigned rs2) { return 0x8002 | rd << 7 | rs2 << 2; }
static inline uint32_t rv_enc_c_add(unsigned rd, unsigned rs2) { return 0x9002 | rd << 7 | rs2 << 2; }

/* c.beqz / c.bnez rs1' (x8..x15) */
static inline uint32_t rv_enc_cb(unsigned funct3, unsigned rs1, int32_t off)
{
	uint32_t o = (uint32_t)off;

	return funct3 << 13 | (rv_bits(o, 8, 8) << 12) | (rv_bits(o, 4, 3) << 10) | ((rs1 - 8) << 7) |
	       (rv_bits(o, 7, 6) << 5) | (rv_bits(o, 2, 1) << 3) | (rv_bits(o, 5, 5) << 2) | 0x1;
}
static inline uint32_t rv_enc_c_beqz(unsigned rs1, int32_t off) { return rv_enc_cb(6, rs1, off); }
static inline uint32_t rv_enc_c_bnez(unsigned rs1, int32_t off) { return rv_enc_cb(7, rs1, off); }

/* c.lui rd, nzimm (rd != 0, 2): imm6 is the signed 6-bit value of imm[17:12] */
static inline uint32_t rv_enc_c_lui(unsigned rd, int32_t imm6)
{
	uint32_t v = (uint32_t)imm6;

	return 0x6001 | (rv_bits(v, 5, 5) << 12) | rd << 7 | (rv_bits(v, 4, 0) << 2);
}

/* ---- Zcmp / Zcmt ---- */
static inline uint32_t rv_enc_cm_popret(unsigned rlist, unsigned spimm)
{
	return 0xbe02 | (rlist & 0xf) << 4 | (spimm & 3) << 2;
}
static inline uint32_t rv_enc_cm_popretz(unsigned rlist, unsigned spimm)
{
	return 0xbc02 | (rlist & 0xf) << 4 | (spimm & 3) << 2;
}
static inline uint32_t rv_enc_cm_push(unsigned rlist, unsigned spimm)
{
	return 0xb802 | (rlist & 0xf) << 4 | (spimm & 3) << 2;
}
/* cm.jt index 0..31, cm.jalt index 32..255 */
static inline uint32_t rv_enc_cm_jt(unsigned index) { return 0xa002 | (index & 0xff) << 2; }
static inline uint32_t rv_enc_cm_jalt(unsigned index) { return 0xa002 | (index & 0xff) << 2; }

#endif /* RVINSN_ENC_H */
