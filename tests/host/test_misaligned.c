/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests of firmware/emu/misaligned.c against a fake S-mode address space
 * (pages that can be made to fault on load, store or fetch) and a fake FP
 * register file, which stand in for the firmware's umem.h.
 *
 * Instructions are built from their fields by the enc_* helpers below, after
 * the formats of the unprivileged spec ("RV32/64G Instruction Set Listings",
 * "RVC Instruction Set Listings"); test_encodings_match_assembler compares a
 * sample of them with what riscv64-unknown-elf-as produces (the build
 * assembles the ASM_CHECK lines of this file into misaligned_asm.inc).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "firmware/emu/misaligned.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/umem.h"

/* ---- Fake address space ------------------------------------------------ */

#define PAGE_SIZE     4096UL
#define MEM_PAGES     3
#define MEM_BASE      0x80200000UL
#define MEM_END       (MEM_BASE + MEM_PAGES * PAGE_SIZE)
#define CODE_ADDR     (MEM_BASE + 0x100)               /* page 0 */
#define DATA_ADDR     (MEM_BASE + PAGE_SIZE + 0x400)   /* page 1, 8-aligned */
#define PAGE_BOUNDARY (MEM_BASE + 2 * PAGE_SIZE)       /* pages 1 | 2 */

enum { DENY_LOAD = 1, DENY_STORE = 2, DENY_FETCH = 4 };

static struct {
	uint8_t bytes[MEM_PAGES * PAGE_SIZE];
	unsigned int deny[MEM_PAGES];
	unsigned int loads, stores, fetches, fp_writes;
	unsigned long expected_mstatus;
	bool wrong_mstatus;       /* a umem call got another mstatus */
} fake;

static uint64_t fregs[32];
static struct trap_regs regs;

/* Distinct, address-dependent filler so a stray write is always visible. */
static uint8_t fill_byte(size_t index)
{
	return (uint8_t)(0x5a ^ (index * 13) ^ (index >> 8));
}

static int fake_access(unsigned long mstatus, unsigned long addr,
		       unsigned int deny_bit, unsigned long access_fault,
		       unsigned long page_fault, size_t *index,
		       struct trap_info *fault)
{
	if (mstatus != fake.expected_mstatus)
		fake.wrong_mstatus = true;
	if (addr < MEM_BASE || addr >= MEM_END) {
		fault->cause = access_fault;
		fault->tval = addr;
		return -1;
	}
	*index = addr - MEM_BASE;
	if (fake.deny[*index / PAGE_SIZE] & deny_bit) {
		fault->cause = page_fault;
		fault->tval = addr;
		return -1;
	}
	return 0;
}

int umem_load_u8(unsigned long mstatus, unsigned long addr, uint8_t *val,
		 struct trap_info *fault)
{
	size_t i;

	fake.loads++;
	if (fake_access(mstatus, addr, DENY_LOAD, CAUSE_LOAD_ACCESS,
			CAUSE_LOAD_PAGE_FAULT, &i, fault))
		return -1;
	*val = fake.bytes[i];
	return 0;
}

int umem_store_u8(unsigned long mstatus, unsigned long addr, uint8_t val,
		  struct trap_info *fault)
{
	size_t i;

	fake.stores++;
	if (fake_access(mstatus, addr, DENY_STORE, CAUSE_STORE_ACCESS,
			CAUSE_STORE_PAGE_FAULT, &i, fault))
		return -1;
	fake.bytes[i] = val;
	return 0;
}

static int fetch_parcel(unsigned long mstatus, unsigned long addr,
			uint32_t *parcel, struct trap_info *fault)
{
	size_t i;

	if (fake_access(mstatus, addr, DENY_FETCH, CAUSE_FETCH_ACCESS,
			CAUSE_FETCH_PAGE_FAULT, &i, fault) ||
	    fake_access(mstatus, addr + 1, DENY_FETCH,
			CAUSE_FETCH_ACCESS,
			CAUSE_FETCH_PAGE_FAULT, &i, fault))
		return -1;
	*parcel = fake.bytes[i - 1] | (uint32_t)fake.bytes[i] << 8;
	return 0;
}

/* As the firmware's: one 16-bit parcel, a second one when the first says
 * the instruction is 32 bits long. */
int umem_fetch_insn(unsigned long mstatus, unsigned long addr, uint32_t *insn,
		    struct trap_info *fault)
{
	uint32_t low, high;

	fake.fetches++;
	if (fetch_parcel(mstatus, addr, &low, fault))
		return -1;
	if ((low & 3) != 3) {
		*insn = low;
		return 0;
	}
	if (fetch_parcel(mstatus, addr + 2, &high, fault))
		return -1;
	*insn = low | high << 16;
	return 0;
}

uint64_t fpreg_read(unsigned int reg, unsigned int width)
{
	assert_true(reg < 32);
	assert_true(width == 4 || width == 8);
	return width == 4 ? fregs[reg] & 0xffffffffULL : fregs[reg];
}

void fpreg_write(unsigned int reg, unsigned int width, uint64_t val)
{
	assert_true(reg < 32);
	assert_true(width == 4 || width == 8);
	fake.fp_writes++;
	fregs[reg] = width == 4 ? 0xffffffff00000000ULL | (val & 0xffffffffULL)
				: val;
}

/* ---- Instruction encodings ------------------------------------------- */

/* Major opcodes insn[6:0] and funct3 insn[14:12]. */
#define OP_LOAD      0x03
#define OP_LOAD_FP   0x07
#define OP_STORE     0x23
#define OP_STORE_FP  0x27
#define OP_AMO       0x2f
#define OP_OP        0x33
#define F3_B  0
#define F3_H  1
#define F3_W  2
#define F3_D  3
#define F3_BU 4
#define F3_HU 5
#define F3_WU 6

/* mstatus.FS values (privileged spec, "Extension Context Status in
 * mstatus"): Off 0, Initial 1, Clean 2, Dirty 3 in bits 14:13. */
#define FS_CLEAN  (2UL << 13)
#define FS_DIRTY  (3UL << 13)

#define SP 2

/* bits hi..lo of val, shifted down to bit 0 */
static uint32_t field(uint32_t val, unsigned int hi, unsigned int lo)
{
	return (val >> lo) & ((1U << (hi - lo + 1)) - 1);
}

/* I-type: imm[11:0] rs1 funct3 rd opcode = [31:20] [19:15] [14:12] [11:7] [6:0] */
static uint32_t enc_i(int32_t imm, unsigned int rs1, unsigned int funct3,
		      unsigned int rd, unsigned int opcode)
{
	assert_true(imm >= -2048 && imm <= 2047);
	return field((uint32_t)imm, 11, 0) << 20 | rs1 << 15 | funct3 << 12 |
	       rd << 7 | opcode;
}

/* S-type: imm[11:5] rs2 rs1 funct3 imm[4:0] opcode =
 * [31:25] [24:20] [19:15] [14:12] [11:7] [6:0] */
static uint32_t enc_s(int32_t imm, unsigned int rs2, unsigned int rs1,
		      unsigned int funct3, unsigned int opcode)
{
	assert_true(imm >= -2048 && imm <= 2047);
	return field((uint32_t)imm, 11, 5) << 25 | rs2 << 20 | rs1 << 15 |
	       funct3 << 12 | field((uint32_t)imm, 4, 0) << 7 | opcode;
}

/* R-type AMO: funct5 aq rl rs2 rs1 funct3 rd opcode =
 * [31:27] [26] [25] [24:20] [19:15] [14:12] [11:7] [6:0] */
static uint32_t enc_amo(unsigned int funct5, bool aq, bool rl, unsigned int rs2,
			unsigned int rs1, unsigned int funct3, unsigned int rd)
{
	return funct5 << 27 | (uint32_t)aq << 26 | (uint32_t)rl << 25 |
	       rs2 << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | OP_AMO;
}

/* x8..x15 (f8..f15) as the 3-bit register field of the CL/CS formats */
static uint32_t creg(unsigned int reg)
{
	assert_true(reg >= 8 && reg <= 15);
	return reg - 8;
}

static void check_offset(int32_t off, int32_t scale, int32_t max)
{
	assert_true(off >= 0 && off <= max && off % scale == 0);
}

/* CL/CS word: funct3 uimm[5:3] rs1' uimm[2] uimm[6] rd'/rs2' op =
 * [15:13] [12:10] [9:7] [6] [5] [4:2] [1:0] */
static uint32_t enc_c_word(unsigned int funct3, unsigned int reg,
			   unsigned int base, int32_t off)
{
	check_offset(off, 4, 124);
	return funct3 << 13 | field(off, 5, 3) << 10 | creg(base) << 7 |
	       field(off, 2, 2) << 6 | field(off, 6, 6) << 5 | creg(reg) << 2;
}

/* CL/CS doubleword: funct3 uimm[5:3] rs1' uimm[7:6] rd'/rs2' op =
 * [15:13] [12:10] [9:7] [6:5] [4:2] [1:0] */
static uint32_t enc_c_double(unsigned int funct3, unsigned int reg,
			     unsigned int base, int32_t off)
{
	check_offset(off, 8, 248);
	return funct3 << 13 | field(off, 5, 3) << 10 | creg(base) << 7 |
	       field(off, 7, 6) << 5 | creg(reg) << 2;
}

/* CI word (C.LWSP): funct3 uimm[5] rd uimm[4:2|7:6] op =
 * [15:13] [12] [11:7] [6:4|3:2] [1:0] */
static uint32_t enc_ci_word(unsigned int funct3, unsigned int rd, int32_t off)
{
	check_offset(off, 4, 252);
	return funct3 << 13 | field(off, 5, 5) << 12 | rd << 7 |
	       field(off, 4, 2) << 4 | field(off, 7, 6) << 2 | 2;
}

/* CI doubleword (C.LDSP, C.FLDSP): funct3 uimm[5] rd uimm[4:3|8:6] op =
 * [15:13] [12] [11:7] [6:5|4:2] [1:0] */
static uint32_t enc_ci_double(unsigned int funct3, unsigned int rd, int32_t off)
{
	check_offset(off, 8, 504);
	return funct3 << 13 | field(off, 5, 5) << 12 | rd << 7 |
	       field(off, 4, 3) << 5 | field(off, 8, 6) << 2 | 2;
}

/* CSS word (C.SWSP): funct3 uimm[5:2|7:6] rs2 op = [15:13] [12:9|8:7] [6:2] [1:0] */
static uint32_t enc_css_word(unsigned int funct3, unsigned int rs2, int32_t off)
{
	check_offset(off, 4, 252);
	return funct3 << 13 | field(off, 5, 2) << 9 | field(off, 7, 6) << 7 |
	       rs2 << 2 | 2;
}

/* CSS doubleword (C.SDSP, C.FSDSP): funct3 uimm[5:3|8:6] rs2 op =
 * [15:13] [12:10|9:7] [6:2] [1:0] */
static uint32_t enc_css_double(unsigned int funct3, unsigned int rs2,
			       int32_t off)
{
	check_offset(off, 8, 504);
	return funct3 << 13 | field(off, 5, 3) << 10 | field(off, 8, 6) << 7 |
	       rs2 << 2 | 2;
}

/* One helper per instruction: (rd or rs2, rs1, offset).  The sp-relative
 * forms take the base only to check it is sp. */
#define STD_LOAD(name, op, f3) \
	static uint32_t name(unsigned int rd, unsigned int rs1, int32_t off) \
	{ return enc_i(off, rs1, f3, rd, op); }
#define STD_STORE(name, op, f3) \
	static uint32_t name(unsigned int rs2, unsigned int rs1, int32_t off) \
	{ return enc_s(off, rs2, rs1, f3, op); }
STD_LOAD(lb, OP_LOAD, F3_B)
STD_LOAD(lh, OP_LOAD, F3_H)
STD_LOAD(lw, OP_LOAD, F3_W)
STD_LOAD(ld, OP_LOAD, F3_D)
STD_LOAD(lbu, OP_LOAD, F3_BU)
STD_LOAD(lhu, OP_LOAD, F3_HU)
STD_LOAD(lwu, OP_LOAD, F3_WU)
STD_LOAD(flh, OP_LOAD_FP, F3_H)
STD_LOAD(flw, OP_LOAD_FP, F3_W)
STD_LOAD(fld, OP_LOAD_FP, F3_D)
STD_STORE(sb, OP_STORE, F3_B)
STD_STORE(sh, OP_STORE, F3_H)
STD_STORE(sw, OP_STORE, F3_W)
STD_STORE(sd, OP_STORE, F3_D)
STD_STORE(fsh, OP_STORE_FP, F3_H)
STD_STORE(fsw, OP_STORE_FP, F3_W)
STD_STORE(fsd, OP_STORE_FP, F3_D)

/* Quadrant 0 (op = 00) funct3: C.FLD 1, C.LW 2, C.LD 3, C.FSD 5, C.SW 6, C.SD 7 */
static uint32_t c_fld(unsigned int r, unsigned int b, int32_t o) { return enc_c_double(1, r, b, o); }
static uint32_t c_lw(unsigned int r, unsigned int b, int32_t o) { return enc_c_word(2, r, b, o); }
static uint32_t c_ld(unsigned int r, unsigned int b, int32_t o) { return enc_c_double(3, r, b, o); }
static uint32_t c_fsd(unsigned int r, unsigned int b, int32_t o) { return enc_c_double(5, r, b, o); }
static uint32_t c_sw(unsigned int r, unsigned int b, int32_t o) { return enc_c_word(6, r, b, o); }
static uint32_t c_sd(unsigned int r, unsigned int b, int32_t o) { return enc_c_double(7, r, b, o); }

/* Quadrant 2 (op = 10) funct3: C.FLDSP 1, C.LWSP 2, C.LDSP 3, C.FSDSP 5,
 * C.SWSP 6, C.SDSP 7 */
#define SP_FORM(name, enc, f3) \
	static uint32_t name(unsigned int r, unsigned int b, int32_t o) \
	{ assert_int_equal(b, SP); return enc(f3, r, o); }
SP_FORM(c_fldsp, enc_ci_double, 1)
SP_FORM(c_lwsp, enc_ci_word, 2)
SP_FORM(c_ldsp, enc_ci_double, 3)
SP_FORM(c_fsdsp, enc_css_double, 5)
SP_FORM(c_swsp, enc_css_word, 6)
SP_FORM(c_sdsp, enc_css_double, 7)

/* ---- Instruction forms under test ------------------------------------- */

enum reg_class {
	REGS_ANY,   /* 5-bit register fields, any base */
	REGS_C,     /* 3-bit fields: x8..x15 (f8..f15) */
	REGS_SP,    /* 5-bit rd/rs2, base is sp */
};

struct form {
	const char *name;
	uint32_t (*encode)(unsigned int reg, unsigned int base, int32_t off);
	bool store;
	bool fp;
	bool sign_extend;
	unsigned int width;       /* bytes */
	unsigned int length;      /* instruction bytes */
	enum reg_class regs;
	int32_t off_scale, off_max;   /* compressed unsigned offsets */
};

#define LOAD(fn, w, sx, fp, len, rc, sc, mx) \
	{ #fn, fn, false, fp, sx, w, len, rc, sc, mx }
#define STORE(fn, w, fp, len, rc, sc, mx) \
	{ #fn, fn, true, fp, false, w, len, rc, sc, mx }

static const struct form forms[] = {
	LOAD(lb, 1, true, false, 4, REGS_ANY, 0, 0),
	LOAD(lh, 2, true, false, 4, REGS_ANY, 0, 0),
	LOAD(lw, 4, true, false, 4, REGS_ANY, 0, 0),
	LOAD(ld, 8, true, false, 4, REGS_ANY, 0, 0),
	LOAD(lbu, 1, false, false, 4, REGS_ANY, 0, 0),
	LOAD(lhu, 2, false, false, 4, REGS_ANY, 0, 0),
	LOAD(lwu, 4, false, false, 4, REGS_ANY, 0, 0),
	LOAD(flh, 2, false, true, 4, REGS_ANY, 0, 0),
	LOAD(flw, 4, false, true, 4, REGS_ANY, 0, 0),
	LOAD(fld, 8, false, true, 4, REGS_ANY, 0, 0),
	LOAD(c_lw, 4, true, false, 2, REGS_C, 4, 124),
	LOAD(c_ld, 8, true, false, 2, REGS_C, 8, 248),
	LOAD(c_fld, 8, false, true, 2, REGS_C, 8, 248),
	LOAD(c_lwsp, 4, true, false, 2, REGS_SP, 4, 252),
	LOAD(c_ldsp, 8, true, false, 2, REGS_SP, 8, 504),
	LOAD(c_fldsp, 8, false, true, 2, REGS_SP, 8, 504),
	STORE(sb, 1, false, 4, REGS_ANY, 0, 0),
	STORE(sh, 2, false, 4, REGS_ANY, 0, 0),
	STORE(sw, 4, false, 4, REGS_ANY, 0, 0),
	STORE(sd, 8, false, 4, REGS_ANY, 0, 0),
	STORE(fsh, 2, true, 4, REGS_ANY, 0, 0),
	STORE(fsw, 4, true, 4, REGS_ANY, 0, 0),
	STORE(fsd, 8, true, 4, REGS_ANY, 0, 0),
	STORE(c_sw, 4, false, 2, REGS_C, 4, 124),
	STORE(c_sd, 8, false, 2, REGS_C, 8, 248),
	STORE(c_fsd, 8, true, 2, REGS_C, 8, 248),
	STORE(c_swsp, 4, false, 2, REGS_SP, 4, 252),
	STORE(c_sdsp, 8, false, 2, REGS_SP, 8, 504),
	STORE(c_fsdsp, 8, true, 2, REGS_SP, 8, 504),
};
#define NFORMS (sizeof(forms) / sizeof(forms[0]))

/* ---- Machine state and checks ----------------------------------------- */

static char context[200];   /* what the current case is, for failures */

#define EXPECT_EQ(actual, expected) do { \
	unsigned long long a_ = (actual), e_ = (expected); \
	if (a_ != e_) { \
		print_error("%s: %s = %#llx, expected %#llx\n", context, \
			    #actual, a_, e_); \
		fail(); \
	} \
} while (0)

static void reset_machine(void)
{
	size_t i;

	memset(&fake, 0, sizeof(fake));
	for (i = 0; i < sizeof(fake.bytes); i++)
		fake.bytes[i] = fill_byte(i);
	memset(&regs, 0, sizeof(regs));
	for (i = 1; i < 32; i++)
		regs.x[i] = 0xc0ffee0000000000UL | i << 16 | i;
	for (i = 0; i < 32; i++)
		fregs[i] = 0x400921fb00000000ULL | i;
	regs.mepc = CODE_ADDR;
	regs.mstatus = PRV_S << MSTATUS_MPP_SHIFT | MSTATUS_FS_INITIAL;
}

static int setup(void **state)
{
	(void)state;
	reset_machine();
	return 0;
}

static void poke(unsigned long addr, unsigned int width, uint64_t val)
{
	unsigned int i;

	assert_true(addr >= MEM_BASE && addr + width <= MEM_END);
	for (i = 0; i < width; i++)
		fake.bytes[addr - MEM_BASE + i] = (uint8_t)(val >> (8 * i));
}

static void place_insn(uint32_t insn, unsigned int length)
{
	poke(regs.mepc, length, insn);
}

/* A snapshot of everything the emulator may change. */
struct machine {
	struct trap_regs regs;
	uint64_t fregs[32];
	uint8_t bytes[MEM_PAGES * PAGE_SIZE];
};

static struct machine before, expected;

static void snapshot(struct machine *m)
{
	m->regs = regs;
	memcpy(m->fregs, fregs, sizeof(fregs));
	memcpy(m->bytes, fake.bytes, sizeof(fake.bytes));
}

static void expect_machine(const struct machine *m)
{
	unsigned int i;

	for (i = 0; i < 32; i++) {
		if (regs.x[i] != m->regs.x[i]) {
			print_error("%s: x%u = %#lx, expected %#lx\n", context,
				    i, regs.x[i], m->regs.x[i]);
			fail();
		}
		if (fregs[i] != m->fregs[i]) {
			print_error("%s: f%u = %#llx, expected %#llx\n", context,
				    i, (unsigned long long)fregs[i],
				    (unsigned long long)m->fregs[i]);
			fail();
		}
	}
	EXPECT_EQ(regs.mepc, m->regs.mepc);
	EXPECT_EQ(regs.mstatus, m->regs.mstatus);
	for (i = 0; i < sizeof(fake.bytes); i++) {
		if (fake.bytes[i] != m->bytes[i]) {
			print_error("%s: byte at %#lx = %#x, expected %#x\n",
				    context, MEM_BASE + i, fake.bytes[i],
				    m->bytes[i]);
			fail();
		}
	}
	if (fake.wrong_mstatus) {
		print_error("%s: umem called with another mstatus\n", context);
		fail();
	}
}

static int emulate(unsigned long mcause, unsigned long mtval,
		   struct trap_info *redirect)
{
	fake.expected_mstatus = regs.mstatus;
	return misaligned_emulate(&regs, mcause, mtval, redirect);
}

/* Expect the emulator to refuse with `cause`/`tval` and change nothing. */
static void expect_redirect(unsigned long mcause, unsigned long mtval,
			    unsigned long cause, unsigned long tval)
{
	struct trap_info redirect = { 0, 0 };

	snapshot(&before);
	EXPECT_EQ(emulate(mcause, mtval, &redirect), -1);
	EXPECT_EQ(redirect.cause, cause);
	EXPECT_EQ(redirect.tval, tval);
	expect_machine(&before);
}

static unsigned long mcause_of(const struct form *f)
{
	return f->store ? CAUSE_MISALIGNED_STORE :
			  CAUSE_MISALIGNED_LOAD;
}

/* The value a load of `width` bytes leaves in rd (integer) or fd (FP, the
 * NaN-boxing of the unprivileged spec, "NaN Boxing of Narrower Values"). */
static uint64_t load_result(const struct form *f, uint64_t mem_val)
{
	unsigned int bits = 8 * f->width;
	uint64_t mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;

	mem_val &= mask;
	if (f->fp || (f->sign_extend && (mem_val >> (bits - 1)) & 1))
		return mem_val | ~mask;
	return mem_val;
}

/*
 * Set up `f` with register `reg` (rd/rs2), base register `base` and offset
 * `off` so that it accesses `addr`; returns the instruction.
 */
static uint32_t prepare(const struct form *f, unsigned int reg,
			unsigned int base, int32_t off, unsigned long addr)
{
	uint32_t insn = f->encode(reg, base, off);

	snprintf(context, sizeof(context),
		 "%s reg %u base x%u off %d addr %#lx (insn %#x)", f->name,
		 reg, base, off, addr, insn);
	regs.x[base] = addr - off;
	place_insn(insn, f->length);
	return insn;
}

static void run_load(const struct form *f, unsigned int rd, unsigned int base,
		     int32_t off, unsigned long addr, uint64_t mem_val)
{
	struct trap_info redirect;

	reset_machine();
	poke(addr, f->width, mem_val);
	prepare(f, rd, base, off, addr);
	snapshot(&expected);
	if (f->fp) {
		expected.fregs[rd] = load_result(f, mem_val);
		expected.regs.mstatus |= FS_DIRTY;
	} else if (rd != 0) {
		expected.regs.x[rd] = load_result(f, mem_val);
	}
	expected.regs.mepc += f->length;

	EXPECT_EQ(emulate(CAUSE_MISALIGNED_LOAD, addr, &redirect), 0);
	expect_machine(&expected);
	EXPECT_EQ(fake.loads, f->width);
	EXPECT_EQ(fake.stores, 0);
}

static void run_store(const struct form *f, unsigned int rs2,
		      unsigned int base, int32_t off, unsigned long addr,
		      uint64_t val)
{
	struct trap_info redirect;
	uint64_t stored;
	unsigned int i;

	reset_machine();
	if (f->fp)
		fregs[rs2] = val;
	else if (rs2 != 0)
		regs.x[rs2] = val;
	prepare(f, rs2, base, off, addr);
	/* x0 reads as zero; a base register that is also rs2 stores the base */
	stored = f->fp ? val : regs.x[rs2];
	snapshot(&expected);
	for (i = 0; i < f->width; i++)
		expected.bytes[addr - MEM_BASE + i] = (uint8_t)(stored >> (8 * i));
	expected.regs.mepc += f->length;

	EXPECT_EQ(emulate(CAUSE_MISALIGNED_STORE, addr, &redirect), 0);
	expect_machine(&expected);
	EXPECT_EQ(fake.stores, f->width);
}

/* Registers a form is run with by default. */
static void default_regs(const struct form *f, unsigned int *reg,
			 unsigned int *base)
{
	*reg = 10;
	*base = 11;
	if (f->regs == REGS_C) {
		*reg = 13;
		*base = 9;
	} else if (f->regs == REGS_SP) {
		*reg = 12;
		*base = SP;
	}
}

static int32_t default_offset(const struct form *f)
{
	return f->regs == REGS_ANY ? -20 : f->off_scale * 3;
}

static void run_form(const struct form *f, unsigned int reg, unsigned int base,
		     int32_t off, unsigned long addr, uint64_t val)
{
	if (f->store)
		run_store(f, reg, base, off, addr, val);
	else
		run_load(f, reg, base, off, addr, val);
}

/* Values around the sign boundary of every width, and a pattern. */
static const uint64_t interesting_values[] = {
	0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff,
	0x80000000, 0xffffffff, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
	0xffffffffffffffffULL, 0x0123456789abcdefULL, 0xfedcba9876543210ULL,
};

/* ---- Tests: every form ------------------------------------------------- */

/* Each form at misalignments 1..7 with every interesting value. */
static void test_form_misalignments(void **state)
{
	const struct form *f = *state;
	unsigned int reg, base, m, v;

	default_regs(f, &reg, &base);
	for (m = 1; m <= 7; m++)
		for (v = 0; v < sizeof(interesting_values) / sizeof(uint64_t); v++)
			run_form(f, reg, base, default_offset(f), DATA_ADDR + m,
				 interesting_values[v]);
}

/* Each form with every register it can name as rd/rs2 and as base. */
static void test_form_registers(void **state)
{
	const struct form *f = *state;
	const uint64_t val = 0x8899aabbccddeeffULL;
	unsigned int reg, base, r, b;

	default_regs(f, &reg, &base);
	switch (f->regs) {
	case REGS_ANY:
		for (r = 0; r < 32; r++)
			run_form(f, r, base, -3, DATA_ADDR + 3, val);
		for (b = 1; b < 32; b++)
			run_form(f, reg, b, 5, DATA_ADDR + 5, val);
		break;
	case REGS_C:
		for (r = 8; r <= 15; r++)
			for (b = 8; b <= 15; b++)
				run_form(f, r, b, 0, DATA_ADDR + 1, val);
		break;
	case REGS_SP:
		/* C.LWSP/C.LDSP with rd = x0 are reserved: see
		 * test_reserved_c_lwsp_ldsp_x0 */
		for (r = (f->store || f->fp) ? 0 : 1; r < 32; r++)
			run_form(f, r, SP, 0, DATA_ADDR + 7, val);
		break;
	}
}

/* Each form with offsets that set every immediate bit. */
static void test_form_offsets(void **state)
{
	static const int32_t std_offsets[] = {
		-2048, -1365, -1, 0, 1, 0x155, 0x2aa, 2047,
	};
	const struct form *f = *state;
	unsigned int reg, base, i;
	int32_t off;

	default_regs(f, &reg, &base);
	if (f->regs == REGS_ANY) {
		for (i = 0; i < sizeof(std_offsets) / sizeof(std_offsets[0]); i++)
			run_form(f, reg, base, std_offsets[i], DATA_ADDR + 6,
				 0x1122334455667788ULL);
		return;
	}
	for (off = 0; off <= f->off_max; off += f->off_scale)
		run_form(f, reg, base, off, DATA_ADDR + 6, 0x1122334455667788ULL);
}

/* A load crossing into a page that faults: that page fault, rd untouched. */
static void test_form_fault_on_second_page(void **state)
{
	const struct form *f = *state;
	unsigned int reg, base, k;

	default_regs(f, &reg, &base);
	for (k = 1; k < f->width; k++) {
		unsigned long addr = PAGE_BOUNDARY - k;
		unsigned int i;

		reset_machine();
		fake.deny[2] = f->store ? DENY_STORE : DENY_LOAD;
		prepare(f, reg, base, default_offset(f), addr);
		if (!f->store) {
			expect_redirect(mcause_of(f), addr, CAUSE_LOAD_PAGE_FAULT,
					PAGE_BOUNDARY);
			continue;
		}
		/* Stores write the bytes below the faulting one (documented in
		 * misaligned.h); nothing on the faulting page. */
		{
			struct trap_info redirect;
			uint64_t val = f->fp ? fregs[reg] : regs.x[reg];

			snapshot(&expected);
			for (i = 0; i < k; i++)
				expected.bytes[addr - MEM_BASE + i] =
					(uint8_t)(val >> (8 * i));
			EXPECT_EQ(emulate(mcause_of(f), addr, &redirect), -1);
			EXPECT_EQ(redirect.cause, CAUSE_STORE_PAGE_FAULT);
			EXPECT_EQ(redirect.tval, PAGE_BOUNDARY);
			expect_machine(&expected);
		}
	}
}

/* ---- Tests: individual rules ------------------------------------------- */

struct literal_load {
	uint32_t (*encode)(unsigned int, unsigned int, int32_t);
	unsigned int base;
	int32_t off;
	uint64_t mem;
	uint64_t result;
	bool fp;
};

/* Sign and zero extension at the boundaries, results written out as the
 * spec defines them (LB/LH/LW sign-extend, LBU/LHU/LWU zero-extend, FLW/FLH
 * NaN-box). */
static void test_extension_boundaries(void **state)
{
	static const struct literal_load cases[] = {
		{ lb, 11, 0, 0x80, 0xffffffffffffff80ULL, false },
		{ lb, 11, 0, 0x7f, 0x7f, false },
		{ lbu, 11, 0, 0x80, 0x80, false },
		{ lh, 11, 0, 0x8000, 0xffffffffffff8000ULL, false },
		{ lh, 11, 0, 0x7fff, 0x7fff, false },
		{ lhu, 11, 0, 0x8000, 0x8000, false },
		{ lw, 11, 0, 0x80000000, 0xffffffff80000000ULL, false },
		{ lw, 11, 0, 0x7fffffff, 0x7fffffff, false },
		{ lwu, 11, 0, 0x80000000, 0x80000000, false },
		{ ld, 11, 0, 0x8000000000000000ULL, 0x8000000000000000ULL, false },
		{ c_lw, 9, 0, 0x80000000, 0xffffffff80000000ULL, false },
		{ c_lwsp, SP, 0, 0x80000000, 0xffffffff80000000ULL, false },
		{ c_lwsp, SP, 0, 0x7fffffff, 0x7fffffff, false },
		{ flw, 11, 0, 0x3f800000, 0xffffffff3f800000ULL, true },
		{ flh, 11, 0, 0x3c00, 0xffffffffffff3c00ULL, true },
		{ fld, 11, 0, 0x3ff0000000000000ULL, 0x3ff0000000000000ULL, true },
	};
	struct trap_info redirect;
	unsigned int i;
	const unsigned int rd = 13;   /* valid in every form */

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const unsigned long addr = DATA_ADDR + 1 + 2 * i;

		reset_machine();
		poke(addr, 8, cases[i].mem);
		regs.x[cases[i].base] = addr;
		place_insn(cases[i].encode(rd, cases[i].base, 0),
			   cases[i].encode == c_lw || cases[i].encode == c_lwsp ? 2 : 4);
		snprintf(context, sizeof(context), "literal case %u", i);
		EXPECT_EQ(emulate(CAUSE_MISALIGNED_LOAD, addr, &redirect), 0);
		EXPECT_EQ(cases[i].fp ? fregs[rd] : regs.x[rd], cases[i].result);
	}
}

/* Stores are little-endian, lowest address first. */
static void test_store_byte_order(void **state)
{
	static const uint8_t want[] = { 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };
	struct trap_info redirect;
	const unsigned long addr = DATA_ADDR + 3;

	(void)state;
	regs.x[10] = 0x0102030405060708ULL;
	regs.x[11] = addr;
	place_insn(sd(10, 11, 0), 4);
	snprintf(context, sizeof(context), "sd byte order");
	EXPECT_EQ(emulate(CAUSE_MISALIGNED_STORE, addr, &redirect), 0);
	assert_memory_equal(&fake.bytes[addr - MEM_BASE], want, sizeof(want));
	EXPECT_EQ(fake.bytes[addr - MEM_BASE - 1], fill_byte(addr - MEM_BASE - 1));
	EXPECT_EQ(fake.bytes[addr - MEM_BASE + 8], fill_byte(addr - MEM_BASE + 8));
}

static void test_load_to_x0_is_discarded(void **state)
{
	struct trap_info redirect;

	(void)state;
	regs.x[11] = DATA_ADDR + 1;
	place_insn(ld(0, 11, 0), 4);
	snprintf(context, sizeof(context), "ld x0");
	snapshot(&expected);
	expected.regs.mepc += 4;
	EXPECT_EQ(emulate(CAUSE_MISALIGNED_LOAD, DATA_ADDR + 1, &redirect), 0);
	expect_machine(&expected);
	EXPECT_EQ(regs.x[0], 0);
}

static void test_store_from_x0_writes_zero(void **state)
{
	struct trap_info redirect;

	(void)state;
	regs.x[0] = 0x1234;   /* a stale frame slot must not leak */
	regs.x[11] = DATA_ADDR + 1;
	place_insn(sw(0, 11, 0), 4);
	snprintf(context, sizeof(context), "sw x0");
	EXPECT_EQ(emulate(CAUSE_MISALIGNED_STORE, DATA_ADDR + 1, &redirect), 0);
	EXPECT_EQ(fake.bytes[DATA_ADDR + 1 - MEM_BASE], 0);
	EXPECT_EQ(fake.bytes[DATA_ADDR + 4 - MEM_BASE], 0);
}

static void test_mepc_advances_by_instruction_length(void **state)
{
	struct trap_info redirect;

	(void)state;
	regs.x[9] = DATA_ADDR + 2;
	place_insn(c_lw(10, 9, 0), 2);
	snprintf(context, sizeof(context), "c.lw");
	EXPECT_EQ(emulate(CAUSE_MISALIGNED_LOAD, DATA_ADDR + 2, &redirect), 0);
	EXPECT_EQ(regs.mepc, CODE_ADDR + 2);

	regs.x[11] = DATA_ADDR + 2;
	place_insn(lw(10, 11, 0), 4);
	snprintf(context, sizeof(context), "lw");
	EXPECT_EQ(emulate(CAUSE_MISALIGNED_LOAD, DATA_ADDR + 2, &redirect), 0);
	EXPECT_EQ(regs.mepc, CODE_ADDR + 2 + 4);
}

/* The access fault of a byte outside memory is passed on unchanged. */
static void test_access_fault_past_end_of_memory(void **state)
{
	(void)state;
	regs.x[11] = MEM_END - 2;
	place_insn(lw(10, 11, 0), 4);
	snprintf(context, sizeof(context), "lw at end of memory");
	expect_redirect(CAUSE_MISALIGNED_LOAD, MEM_END - 2,
			CAUSE_LOAD_ACCESS, MEM_END);

	reset_machine();
	regs.x[11] = MEM_END - 1;
	place_insn(sd(10, 11, 0), 4);
	snprintf(context, sizeof(context), "sd at end of memory");
	snapshot(&expected);
	expected.bytes[MEM_END - 1 - MEM_BASE] = (uint8_t)regs.x[10];
	{
		struct trap_info redirect;

		EXPECT_EQ(emulate(CAUSE_MISALIGNED_STORE, MEM_END - 1, &redirect), -1);
		EXPECT_EQ(redirect.cause, CAUSE_STORE_ACCESS);
		EXPECT_EQ(redirect.tval, MEM_END);
		expect_machine(&expected);
	}
}

/* A fault on the first byte: nothing is accessed beyond it. */
static void test_fault_on_first_byte(void **state)
{
	(void)state;
	fake.deny[1] = DENY_LOAD | DENY_STORE;
	regs.x[11] = DATA_ADDR + 3;
	place_insn(ld(10, 11, 0), 4);
	snprintf(context, sizeof(context), "ld on a faulting page");
	expect_redirect(CAUSE_MISALIGNED_LOAD, DATA_ADDR + 3,
			CAUSE_LOAD_PAGE_FAULT, DATA_ADDR + 3);
	EXPECT_EQ(fake.loads, 1);

	place_insn(sd(10, 11, 0), 4);
	snprintf(context, sizeof(context), "sd on a faulting page");
	fake.stores = 0;
	expect_redirect(CAUSE_MISALIGNED_STORE, DATA_ADDR + 3,
			CAUSE_STORE_PAGE_FAULT, DATA_ADDR + 3);
	EXPECT_EQ(fake.stores, 1);
}

static void test_instruction_fetch_fault(void **state)
{
	(void)state;
	regs.x[11] = DATA_ADDR + 1;
	place_insn(lw(10, 11, 0), 4);
	fake.deny[0] = DENY_FETCH;
	snprintf(context, sizeof(context), "fetch from a faulting page");
	expect_redirect(CAUSE_MISALIGNED_LOAD, DATA_ADDR + 1,
			CAUSE_FETCH_PAGE_FAULT, CODE_ADDR);
	EXPECT_EQ(fake.loads + fake.stores, 0);

	/* a 32-bit instruction whose second half is on a faulting page */
	reset_machine();
	regs.mepc = MEM_BASE + PAGE_SIZE - 2;
	regs.x[11] = DATA_ADDR + 1;
	place_insn(lw(10, 11, 0), 4);
	fake.deny[1] = DENY_FETCH;
	snprintf(context, sizeof(context), "fetch across into a faulting page");
	expect_redirect(CAUSE_MISALIGNED_LOAD, DATA_ADDR + 1,
			CAUSE_FETCH_PAGE_FAULT, MEM_BASE + PAGE_SIZE);
	EXPECT_EQ(fake.loads + fake.stores, 0);
}

/* With mstatus.FS = Off an FP access is an illegal instruction (privileged
 * spec, "Extension Context Status in mstatus"); tval is the instruction. */
static void test_fp_with_fs_off_is_illegal_instruction(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < NFORMS; i++) {
		const struct form *f = &forms[i];
		unsigned int reg, base;
		uint32_t insn;

		if (!f->fp)
			continue;
		reset_machine();
		regs.mstatus &= ~MSTATUS_FS;
		default_regs(f, &reg, &base);
		insn = prepare(f, reg, base, default_offset(f), DATA_ADDR + 1);
		expect_redirect(mcause_of(f), DATA_ADDR + 1,
				CAUSE_ILLEGAL_INSN, insn);
		EXPECT_EQ(fake.loads + fake.stores + fake.fp_writes, 0);
	}
}

/* FS Clean also allows FP loads, and they leave it Dirty; stores leave FS. */
static void test_fp_state_dirty_after_load_only(void **state)
{
	struct trap_info redirect;

	(void)state;
	regs.mstatus = (regs.mstatus & ~MSTATUS_FS) | FS_CLEAN;
	regs.x[11] = DATA_ADDR + 1;
	place_insn(fsd(5, 11, 0), 4);
	snprintf(context, sizeof(context), "fsd with FS clean");
	EXPECT_EQ(emulate(CAUSE_MISALIGNED_STORE, DATA_ADDR + 1, &redirect), 0);
	EXPECT_EQ(regs.mstatus & MSTATUS_FS, FS_CLEAN);

	regs.mepc = CODE_ADDR;
	place_insn(fld(6, 11, 0), 4);
	snprintf(context, sizeof(context), "fld with FS clean");
	EXPECT_EQ(emulate(CAUSE_MISALIGNED_LOAD, DATA_ADDR + 1, &redirect), 0);
	EXPECT_EQ(regs.mstatus & MSTATUS_FS, FS_DIRTY);
	EXPECT_EQ(fregs[6], fregs[5]);
}

/* Misaligned LR/SC/AMOs are never emulated: load access fault for LR,
 * store/AMO access fault for the others, tval = the address (unprivileged
 * spec, "A" extension). */
static void test_atomics_raise_access_fault(void **state)
{
	/* funct5 (aq, rl), width funct3, expected cause */
	static const struct {
		unsigned int funct5, funct3;
		bool aq, rl;
		unsigned long cause;
	} amos[] = {
		{ 0x02, F3_W, false, false, CAUSE_LOAD_ACCESS },   /* lr.w */
		{ 0x02, F3_D, true, true, CAUSE_LOAD_ACCESS },     /* lr.d.aqrl */
		{ 0x03, F3_W, false, true, CAUSE_STORE_ACCESS },   /* sc.w.rl */
		{ 0x03, F3_D, false, false, CAUSE_STORE_ACCESS },  /* sc.d */
		{ 0x01, F3_W, false, false, CAUSE_STORE_ACCESS },  /* amoswap.w */
		{ 0x00, F3_D, true, false, CAUSE_STORE_ACCESS },   /* amoadd.d.aq */
		{ 0x08, F3_W, false, false, CAUSE_STORE_ACCESS },  /* amoor.w */
		{ 0x1c, F3_D, false, false, CAUSE_STORE_ACCESS },  /* amomaxu.d */
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(amos) / sizeof(amos[0]); i++) {
		const unsigned long addr = DATA_ADDR + 1 + i;
		unsigned long mcause = amos[i].cause == CAUSE_LOAD_ACCESS ?
			CAUSE_MISALIGNED_LOAD : CAUSE_MISALIGNED_STORE;

		reset_machine();
		regs.x[11] = addr;
		place_insn(enc_amo(amos[i].funct5, amos[i].aq, amos[i].rl, 12,
				   11, amos[i].funct3, 10), 4);
		snprintf(context, sizeof(context), "amo case %u", i);
		expect_redirect(mcause, addr, amos[i].cause, addr);
		EXPECT_EQ(fake.loads + fake.stores, 0);
	}
}

/* Anything else hands the original trap back unchanged. */
static void test_unknown_instruction_keeps_original_trap(void **state)
{
	static const struct {
		const char *what;
		uint32_t insn;
		unsigned int length;
	} unknown[] = {
		/* add a0, a1, a2: R-type funct7 rs2 rs1 funct3 rd opcode */
		{ "add", 12 << 20 | 11 << 15 | 10 << 7 | OP_OP, 4 },
		{ "LOAD funct3 7 (ldu, RV128)", 11 << 15 | 7 << 12 | 10 << 7 | OP_LOAD, 4 },
		{ "STORE funct3 4", 10 << 20 | 11 << 15 | 4 << 12 | OP_STORE, 4 },
		{ "LOAD-FP funct3 0 (vector)", 11 << 15 | 0 << 12 | 10 << 7 | OP_LOAD_FP, 4 },
		{ "LOAD-FP funct3 4 (flq)", 11 << 15 | 4 << 12 | 10 << 7 | OP_LOAD_FP, 4 },
		{ "STORE-FP funct3 6 (vector)", 10 << 20 | 11 << 15 | 6 << 12 | OP_STORE_FP, 4 },
		/* quadrant 0 funct3 0: c.addi4spn; 4: reserved (Zcb) */
		{ "c.addi4spn", 0 << 13 | 1 << 5 | 2 << 2 | 0, 2 },
		{ "quadrant 0 funct3 4", 4 << 13 | 1 << 7 | 2 << 2 | 0, 2 },
		/* quadrant 1 funct3 0: c.addi a0, 1 */
		{ "c.addi", 0 << 13 | 10 << 7 | 1 << 2 | 1, 2 },
		/* quadrant 2 funct3 0: c.slli a0, 1; 4: c.mv a0, a1 */
		{ "c.slli", 0 << 13 | 10 << 7 | 1 << 2 | 2, 2 },
		{ "c.mv", 4 << 13 | 10 << 7 | 11 << 2 | 2, 2 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		reset_machine();
		regs.x[11] = DATA_ADDR + 1;
		place_insn(unknown[i].insn, unknown[i].length);
		snprintf(context, sizeof(context), "%s", unknown[i].what);
		expect_redirect(CAUSE_MISALIGNED_LOAD, DATA_ADDR + 5,
				CAUSE_MISALIGNED_LOAD, DATA_ADDR + 5);
		expect_redirect(CAUSE_MISALIGNED_STORE, DATA_ADDR + 6,
				CAUSE_MISALIGNED_STORE, DATA_ADDR + 6);
	}
}

static void test_reserved_c_lwsp_ldsp_x0(void **state)
{
	(void)state;
	regs.x[SP] = DATA_ADDR + 1;
	place_insn(enc_ci_word(2, 0, 0), 2);
	snprintf(context, sizeof(context), "c.lwsp x0");
	expect_redirect(CAUSE_MISALIGNED_LOAD, DATA_ADDR + 1,
			CAUSE_MISALIGNED_LOAD, DATA_ADDR + 1);
	place_insn(enc_ci_double(3, 0, 0), 2);
	snprintf(context, sizeof(context), "c.ldsp x0");
	expect_redirect(CAUSE_MISALIGNED_LOAD, DATA_ADDR + 1,
			CAUSE_MISALIGNED_LOAD, DATA_ADDR + 1);
}

/* A load reported as a store misalignment (or the reverse) is not what
 * trapped: the trap is handed back as it came. */
static void test_kind_mismatch_keeps_original_trap(void **state)
{
	(void)state;
	regs.x[11] = DATA_ADDR + 1;
	place_insn(lw(10, 11, 0), 4);
	snprintf(context, sizeof(context), "lw reported as store");
	expect_redirect(CAUSE_MISALIGNED_STORE, DATA_ADDR + 1,
			CAUSE_MISALIGNED_STORE, DATA_ADDR + 1);
	place_insn(sw(10, 11, 0), 4);
	snprintf(context, sizeof(context), "sw reported as load");
	expect_redirect(CAUSE_MISALIGNED_LOAD, DATA_ADDR + 1,
			CAUSE_MISALIGNED_LOAD, DATA_ADDR + 1);
	place_insn(lw(10, 11, 0), 4);
	snprintf(context, sizeof(context), "lw with an unrelated mcause");
	expect_redirect(CAUSE_ILLEGAL_INSN, 0, CAUSE_ILLEGAL_INSN, 0);
}

/* ---- Cross-check of the encoders with the assembler --------------------- */

static const uint8_t asm_bytes[] = {
#include "misaligned_asm.inc"
};

static void asm_check(size_t *pos, const char *text, uint32_t encoding)
{
	uint32_t insn;
	size_t length;

	assert_true(*pos + 2 <= sizeof(asm_bytes));
	insn = asm_bytes[*pos] | (uint32_t)asm_bytes[*pos + 1] << 8;
	length = (insn & 3) == 3 ? 4 : 2;
	assert_true(*pos + length <= sizeof(asm_bytes));
	if (length == 4)
		insn |= (uint32_t)asm_bytes[*pos + 2] << 16 |
			(uint32_t)asm_bytes[*pos + 3] << 24;
	if (insn != encoding) {
		print_error("\"%s\": assembler %#x, encoder %#x\n", text, insn,
			    encoding);
		fail();
	}
	*pos += length;
}

/* Each line below is extracted by mk/25-misaligned.mk and assembled; keep
 * one ASM_CHECK per line, starting the line. */
#define ASM_CHECK(text, encoding) asm_check(&pos, text, encoding)

static void test_encodings_match_assembler(void **state)
{
	size_t pos = 0;

	(void)state;
	ASM_CHECK("lb a0, -1(a1)", lb(10, 11, -1));
	ASM_CHECK("lh t0, 2047(s1)", lh(5, 9, 2047));
	ASM_CHECK("lw zero, -2048(a5)", lw(0, 15, -2048));
	ASM_CHECK("ld s11, 682(ra)", ld(27, 1, 0x2aa));
	ASM_CHECK("lbu a0, 341(t6)", lbu(10, 31, 0x155));
	ASM_CHECK("lhu sp, 3(sp)", lhu(2, 2, 3));
	ASM_CHECK("lwu a2, -1365(a3)", lwu(12, 13, -1365));
	ASM_CHECK("flh fa0, 2(a1)", flh(10, 11, 2));
	ASM_CHECK("flw ft11, -7(s2)", flw(31, 18, -7));
	ASM_CHECK("fld fs0, 1365(t0)", fld(8, 5, 1365));
	ASM_CHECK("sb a0, -1(a1)", sb(10, 11, -1));
	ASM_CHECK("sh t6, -2048(s1)", sh(31, 9, -2048));
	ASM_CHECK("sw ra, 2047(gp)", sw(1, 3, 2047));
	ASM_CHECK("sd s3, 1365(t1)", sd(19, 6, 1365));
	ASM_CHECK("fsh fa1, -1365(a0)", fsh(11, 10, -1365));
	ASM_CHECK("fsw ft0, 17(sp)", fsw(0, 2, 17));
	ASM_CHECK("fsd fs11, -3(a7)", fsd(27, 17, -3));
	ASM_CHECK("c.lw a5, 124(s0)", c_lw(15, 8, 124));
	ASM_CHECK("c.lw s0, 68(a5)", c_lw(8, 15, 68));
	ASM_CHECK("c.ld s1, 248(a3)", c_ld(9, 13, 248));
	ASM_CHECK("c.ld a4, 136(a2)", c_ld(14, 12, 136));
	ASM_CHECK("c.fld fa0, 160(a1)", c_fld(10, 11, 160));
	ASM_CHECK("c.sw a2, 36(a4)", c_sw(12, 14, 36));
	ASM_CHECK("c.sd a0, 200(s1)", c_sd(10, 9, 200));
	ASM_CHECK("c.fsd fs1, 72(a5)", c_fsd(9, 15, 72));
	ASM_CHECK("c.lwsp ra, 252(sp)", c_lwsp(1, SP, 252));
	ASM_CHECK("c.lwsp t6, 36(sp)", c_lwsp(31, SP, 36));
	ASM_CHECK("c.ldsp s11, 504(sp)", c_ldsp(27, SP, 504));
	ASM_CHECK("c.ldsp a0, 296(sp)", c_ldsp(10, SP, 296));
	ASM_CHECK("c.fldsp ft11, 328(sp)", c_fldsp(31, SP, 328));
	ASM_CHECK("c.swsp a1, 196(sp)", c_swsp(11, SP, 196));
	ASM_CHECK("c.swsp t6, 60(sp)", c_swsp(31, SP, 60));
	ASM_CHECK("c.sdsp s0, 456(sp)", c_sdsp(8, SP, 456));
	ASM_CHECK("c.sdsp ra, 56(sp)", c_sdsp(1, SP, 56));
	ASM_CHECK("c.fsdsp fa5, 264(sp)", c_fsdsp(15, SP, 264));
	ASM_CHECK("lr.w a0, (a1)", enc_amo(0x02, false, false, 0, 11, F3_W, 10));
	ASM_CHECK("sc.d.rl a0, a2, (a1)", enc_amo(0x03, false, true, 12, 11, F3_D, 10));
	ASM_CHECK("amoadd.w.aq a0, a2, (a1)", enc_amo(0x00, true, false, 12, 11, F3_W, 10));
	ASM_CHECK("amomaxu.d a0, a2, (a1)", enc_amo(0x1c, false, false, 12, 11, F3_D, 10));
	assert_int_equal(pos, sizeof(asm_bytes));
}

/* ---- Test list -------------------------------------------------------- */

int main(void)
{
	static struct CMUnitTest per_form[NFORMS * 4];
	static const struct CMUnitTest rules[] = {
		cmocka_unit_test_setup(test_encodings_match_assembler, setup),
		cmocka_unit_test_setup(test_extension_boundaries, setup),
		cmocka_unit_test_setup(test_store_byte_order, setup),
		cmocka_unit_test_setup(test_load_to_x0_is_discarded, setup),
		cmocka_unit_test_setup(test_store_from_x0_writes_zero, setup),
		cmocka_unit_test_setup(test_mepc_advances_by_instruction_length, setup),
		cmocka_unit_test_setup(test_access_fault_past_end_of_memory, setup),
		cmocka_unit_test_setup(test_fault_on_first_byte, setup),
		cmocka_unit_test_setup(test_instruction_fetch_fault, setup),
		cmocka_unit_test_setup(test_fp_with_fs_off_is_illegal_instruction, setup),
		cmocka_unit_test_setup(test_fp_state_dirty_after_load_only, setup),
		cmocka_unit_test_setup(test_atomics_raise_access_fault, setup),
		cmocka_unit_test_setup(test_unknown_instruction_keeps_original_trap, setup),
		cmocka_unit_test_setup(test_reserved_c_lwsp_ldsp_x0, setup),
		cmocka_unit_test_setup(test_kind_mismatch_keeps_original_trap, setup),
	};
	static char names[NFORMS * 4][64];
	static const char *const kinds[4] = {
		"misalignments_1_to_7", "every_register", "every_offset_bit",
		"fault_on_second_page",
	};
	static const CMUnitTestFunction funcs[4] = {
		test_form_misalignments, test_form_registers, test_form_offsets,
		test_form_fault_on_second_page,
	};
	size_t i, k, n = 0;
	int failed;

	for (i = 0; i < NFORMS; i++) {
		for (k = 0; k < 4; k++) {
			/* a byte access cannot cross a page */
			if (k == 3 && forms[i].width == 1)
				continue;
			snprintf(names[n], sizeof(names[n]), "%s_%s",
				 forms[i].name, kinds[k]);
			per_form[n].name = names[n];
			per_form[n].test_func = funcs[k];
			per_form[n].setup_func = setup;
			per_form[n].teardown_func = NULL;
			per_form[n].initial_state = (void *)&forms[i];
			n++;
		}
	}
	failed = cmocka_run_group_tests_name("misaligned rules", rules, NULL, NULL);
	failed += _cmocka_run_group_tests("misaligned forms", per_form, n, NULL, NULL);
	return failed ? 1 : 0;
}
