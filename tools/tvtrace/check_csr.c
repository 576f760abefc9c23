// SPDX-License-Identifier: BSD-2-Clause
/*
 * tvtrace check: csr* instructions (Zicsr).  A CSR the trace has told keeps
 * its value until the trace tells another, so a csr* that reads it puts
 * that value in rd.  Only CSRs no hart event changes between records are
 * checked: counters, time, sip/mip and sstatus (a view of mstatus, whose
 * dirty bits the hardware sets) are not.  The new value of a scratch
 * register, which holds any XLEN bits (no WARL field), follows from the
 * operation; the other CSRs' writes are WARL and not recomputed.
 */
#include <inttypes.h>

#include "check.h"

#define CSR_SSCRATCH 0x140u
#define CSR_STVAL    0x143u
#define CSR_MSCRATCH 0x340u
#define CSR_MTVAL    0x343u

static bool csr_is_stable(uint16_t csr)
{
	static const uint16_t stable[] = {
		CSR_STVEC, CSR_SSCRATCH, CSR_SEPC, CSR_SCAUSE, CSR_STVAL, CSR_SATP,
		CSR_MTVEC, CSR_MSCRATCH, CSR_MEPC, CSR_MCAUSE, CSR_MTVAL,
	};

	for (size_t i = 0; i < sizeof(stable) / sizeof(stable[0]); i++)
		if (stable[i] == csr)
			return true;
	return false;
}

/* ISA manual, "CSR Instructions": funct3 1/5 write, 2/6 set, 3/7 clear;
 * 5-7 take the rs1 field as a 5-bit immediate. */
static struct tv_known csr_new_value(const struct tv_checker *c, const struct tv_group *g)
{
	unsigned f3 = (g->raw >> 12) & 7;
	struct tv_known src = f3 >= 5 ? (struct tv_known){ true, g->ops.rs1 } : g->rs1;
	uint64_t v;

	if (!src.known || (!g->csr_old.known && (f3 & 3) != 1))
		return (struct tv_known){ false, 0 };
	switch (f3 & 3) {
	case 1:  v = src.v; break;
	case 2:  v = g->csr_old.v | src.v; break;
	default: v = g->csr_old.v & ~src.v; break;
	}
	return (struct tv_known){ true, rv_xlen_mask(v, c->xlen) };
}

static int check_csr_read(struct tv_checker *c, const struct tv_group *g)
{
	uint16_t rd = (uint16_t)TVTRACE_REG_GPR(g->ops.rd);
	long w = tv_group_write(c, g, rd);
	struct tv_known got = tv_shadow_get(&c->s, rd);
	char name[24];

	if (w < 0 || !got.known || !g->csr_old.known || got.v == g->csr_old.v)
		return 0;
	tv_reg_name(g->ops.csr, name, sizeof(name));
	return tv_check_fail(c, g, (size_t)w, "x%u = 0x%" PRIx64 " read from %s, but the trace left 0x%" PRIx64 " in it",
			     g->ops.rd, got.v, name, g->csr_old.v);
}

static int check_scratch_write(struct tv_checker *c, const struct tv_group *g)
{
	struct tv_known want = csr_new_value(c, g);
	struct tv_known got = tv_shadow_get(&c->s, g->ops.csr);
	long w = tv_group_write(c, g, g->ops.csr);
	char name[24];

	if (w < 0 || !want.known || !got.known || got.v == want.v)
		return 0;
	tv_reg_name(g->ops.csr, name, sizeof(name));
	return tv_check_fail(c, g, (size_t)w, "%s = 0x%" PRIx64 ", but the instruction makes it 0x%" PRIx64,
			     name, got.v, want.v);
}

int tv_check_csr(struct tv_checker *c, const struct tv_group *g)
{
	int rc = 0;

	if (!g->ops.is_csr || !csr_is_stable(g->ops.csr))
		return 0;
	if (g->ops.rd != 0)
		rc = check_csr_read(c, g);
	if (!rc && (g->ops.csr == CSR_SSCRATCH || g->ops.csr == CSR_MSCRATCH))
		rc = check_scratch_write(c, g);
	return rc;
}
