/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Misaligned load/store emulation (contract in misaligned.h).
 *
 * RV64 only (XLEN = 64): an x register is a 64-bit unsigned long, and
 * compressed funct3 = 3/7 decode as C.LD/C.SD/C.LDSP/C.SDSP (on RV32 the same
 * encodings are C.FLW/C.FSW/C.FLWSP/C.FSWSP).
 */
#include <stdbool.h>
#include <stdint.h>
#include "firmware/emu/misaligned.h"
#include "firmware/emu/memaccess.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/umem.h"
#include "firmware/emu/fpreg.h"

_Static_assert(sizeof(unsigned long) == 8, "misaligned.c assumes XLEN = 64");

/* A half-precision value NaN-boxed to 32 bits; fpreg_write(.., 4, ..) boxes
 * that on to FLEN (unprivileged spec, "NaN Boxing of Narrower Values"). */
#define NAN_BOX_16_TO_32  0xffff0000ULL

static int redirect_trap(struct trap_info *redirect, unsigned long cause,
			 unsigned long tval)
{
	redirect->cause = cause;
	redirect->tval = tval;
	return -1;
}

/* Little-endian, lowest address first; nothing is returned on a fault. */
static int load_bytes(unsigned long mstatus, unsigned long addr,
		      unsigned int width, uint64_t *val,
		      struct trap_info *fault)
{
	uint64_t result = 0;
	unsigned int i;
	uint8_t byte;

	for (i = 0; i < width; i++) {
		if (umem_load_u8(mstatus, addr + i, &byte, fault))
			return -1;
		result |= (uint64_t)byte << (8 * i);
	}
	*val = result;
	return 0;
}

/* Little-endian, lowest address first: on a fault the bytes below the
 * faulting one stay written, as when a hart splits a misaligned store. */
static int store_bytes(unsigned long mstatus, unsigned long addr,
		       unsigned int width, uint64_t val,
		       struct trap_info *fault)
{
	unsigned int i;

	for (i = 0; i < width; i++) {
		if (umem_store_u8(mstatus, addr + i, (uint8_t)(val >> (8 * i)),
				  fault))
			return -1;
	}
	return 0;
}

static void fp_load_result(struct trap_regs *regs, unsigned int reg,
			   unsigned int width, uint64_t val)
{
	/* Half and single go through the 4-byte access, which works whether
	 * FLEN is 32 or 64. */
	if (width == 2)
		fpreg_write(reg, 4, NAN_BOX_16_TO_32 | val);
	else
		fpreg_write(reg, width, val);
	/* Writing an f register makes the FP state Dirty, FS = 3 (privileged
	 * spec, "Extension Context Status in mstatus"). */
	regs->mstatus |= MSTATUS_FS;
}

/* FSH/FSW store the low bits whether or not they are NaN-boxed; store_bytes
 * writes only `width` bytes of the value. */
static uint64_t fp_store_value(unsigned int reg, unsigned int width)
{
	return fpreg_read(reg, width == 8 ? 8 : 4);
}

static int emulate_load(struct trap_regs *regs, const struct mem_access *acc,
			struct trap_info *fault)
{
	uint64_t val;

	if (load_bytes(regs->mstatus, acc->addr, acc->width, &val, fault))
		return -1;
	if (acc->fp) {
		fp_load_result(regs, acc->reg, acc->width, val);
		return 0;
	}
	if (acc->sign_extend)
		val = sign_extend(val, 8 * acc->width);
	xreg_write(regs, acc->reg, val);
	return 0;
}

static int emulate_store(const struct trap_regs *regs,
			 const struct mem_access *acc, struct trap_info *fault)
{
	uint64_t val = acc->fp ? fp_store_value(acc->reg, acc->width) :
				 xreg_read(regs, acc->reg);

	return store_bytes(regs->mstatus, acc->addr, acc->width, val, fault);
}

static unsigned long misaligned_cause_of(enum access_kind kind)
{
	return kind == ACCESS_LOAD ? CAUSE_MISALIGNED_LOAD :
				     CAUSE_MISALIGNED_STORE;
}

int misaligned_emulate(struct trap_regs *regs, unsigned long mcause,
		       unsigned long mtval, struct trap_info *redirect)
{
	struct mem_access acc;
	enum decode_result decoded;
	uint32_t insn;
	int rc;

	if (umem_fetch_insn(regs->mstatus, regs->mepc, &insn, redirect))
		return -1;

	decoded = memaccess_decode(insn, regs, &acc);
	if (decoded == DECODE_ATOMIC)
		return redirect_trap(redirect, acc.kind == ACCESS_LOAD ?
				     CAUSE_LOAD_ACCESS :
				     CAUSE_STORE_ACCESS, acc.addr);
	/* A load reported as a store misalignment (or the reverse) is not the
	 * instruction that trapped: leave the trap as it was. */
	if (decoded == DECODE_UNKNOWN || mcause != misaligned_cause_of(acc.kind))
		return redirect_trap(redirect, mcause, mtval);
	/* With FS Off the hart would have raised illegal instruction before
	 * looking at the address. */
	if (acc.fp && !(regs->mstatus & MSTATUS_FS))
		return redirect_trap(redirect, CAUSE_ILLEGAL_INSN, insn);

	if (acc.kind == ACCESS_LOAD)
		rc = emulate_load(regs, &acc, redirect);
	else
		rc = emulate_store(regs, &acc, redirect);
	if (rc)
		return -1;
	regs->mepc += insn_length(insn);
	return 0;
}
