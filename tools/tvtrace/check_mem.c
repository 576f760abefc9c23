// SPDX-License-Identifier: BSD-2-Clause
/*
 * tvtrace check: the memory records of a load, store, lr/sc or AMO against
 * the instruction's operands.  Address = rs1 + offset when rs1 is known;
 * a physical address (memory request, paddr) is compared whole only while
 * satp is known to be Bare, otherwise only in its page offset, which
 * translation keeps.  Store data = rs2's value; a load's rd = the response
 * data, extended as the instruction says.  The spec (chapter 3) lets memory
 * traffic be implementation dependent; the firmware's TV mode writes one
 * request per access, which is what is checked.
 */
#include <inttypes.h>

#include "check.h"

#define PAGE_OFFSET_MASK 0xfffull

static uint64_t size_mask(unsigned size_log2)
{
	return size_log2 >= 3 ? ~0ull : (1ull << (8u << size_log2)) - 1;
}

/* Privileged spec, satp: MODE 0 (Bare) is bit 31 = 0 on RV32, bits 63:60 = 0 on RV64. */
static bool satp_bare(const struct tv_checker *c, const struct tv_group *g)
{
	if (!g->satp.known)
		return false;
	return c->xlen == 32 ? !(g->satp.v >> 31) : !(g->satp.v >> 60);
}

static int check_address(struct tv_checker *c, const struct tv_group *g, size_t rec,
			 uint64_t addr, bool physical)
{
	uint64_t ea = rv_xlen_mask(g->rs1.v + (uint64_t)g->ops.imm, c->xlen);
	uint64_t mask = physical && !satp_bare(c, g) ? PAGE_OFFSET_MASK : ~0ull;

	if (!g->rs1.known || ((addr ^ ea) & mask) == 0)
		return 0;
	return tv_check_fail(c, g, rec, "address 0x%" PRIx64 ", but x%u (0x%" PRIx64 ") + %" PRId64
			     " is 0x%" PRIx64 "%s", addr, g->ops.rs1, g->rs1.v, g->ops.imm, ea,
			     mask == ~0ull ? "" : " (page offset compared)");
}

static int check_store_data(struct tv_checker *c, const struct tv_group *g, size_t rec,
			    uint64_t data, unsigned size_log2)
{
	uint64_t want = g->rs2.v & size_mask(size_log2);

	if (g->ops.access == TV_ACCESS_LOAD || g->ops.access == TV_ACCESS_LR ||
	    !g->rs2.known || data == want)
		return 0;
	return tv_check_fail(c, g, rec, "store data 0x%" PRIx64 ", but %c%u holds 0x%" PRIx64,
			     data, g->ops.rs2_fp ? 'f' : 'x', g->ops.rs2, g->rs2.v);
}

static int check_request(struct tv_checker *c, const struct tv_group *g, size_t i)
{
	const struct tvtrace_record *r = &c->t->v[i].rec;

	if (r->mem_op == TVTRACE_MEM_FETCH)
		return 0;
	if (r->mem_op != g->ops.mem_op || r->mem_size != g->ops.size_log2)
		return tv_check_fail(c, g, i, "memory request %s of %u bytes, but the instruction does %s of %u",
				     tv_mem_op_name(r->mem_op), 1u << r->mem_size,
				     tv_mem_op_name(g->ops.mem_op), 1u << g->ops.size_log2);
	int rc = check_address(c, g, i, r->addr, true);

	if (!rc && r->has_data)
		rc = check_store_data(c, g, i, r->value, r->mem_size);
	return rc;
}

/* rd after a load, lr or AMO: the response data, extended to the register. */
static uint64_t loaded_value(const struct tv_checker *c, const struct tv_group *g, uint64_t data)
{
	unsigned bits = 8u << g->ops.size_log2;

	data &= size_mask(g->ops.size_log2);
	if (g->ops.rd_fp)       /* ISA manual, "NaN Boxing": narrower values get upper ones */
		return bits < c->params.flen_bytes * 8u ? data | ~size_mask(g->ops.size_log2) : data;
	if (g->ops.load_signed && bits < 64 && (data >> (bits - 1)) & 1)
		data |= ~size_mask(g->ops.size_log2);
	return rv_xlen_mask(data, c->xlen);
}

static int check_response(struct tv_checker *c, const struct tv_group *g, size_t i)
{
	const struct tvtrace_record *r = &c->t->v[i].rec;
	uint16_t rd = (uint16_t)((g->ops.rd_fp ? TVTRACE_REG_FPR_FIRST : TVTRACE_REG_GPR_FIRST) + g->ops.rd);
	struct tv_known got = tv_shadow_get(&c->s, rd);
	long w = tv_group_write(c, g, rd);
	char name[8];

	if (w < 0 || !got.known)
		return 0;
	snprintf(name, sizeof(name), "%c%u", g->ops.rd_fp ? 'f' : 'x', g->ops.rd);
	if (g->ops.access == TV_ACCESS_SC) {
		bool ok = r->mem_result == TVTRACE_MEM_SUCCESS;

		if (ok != (got.v == 0))
			return tv_check_fail(c, g, (size_t)w, "sc %s, but %s = 0x%" PRIx64,
					     ok ? "succeeded" : "failed", name, got.v);
		return 0;
	}
	if (!r->has_data || got.v == loaded_value(c, g, r->value))
		return 0;
	return tv_check_fail(c, g, (size_t)w, "%s = 0x%" PRIx64 ", but the load returned 0x%" PRIx64 " (0x%" PRIx64 " in %s)",
			     name, got.v, r->value, loaded_value(c, g, r->value), name);
}

static int check_state(struct tv_checker *c, const struct tv_group *g, size_t i)
{
	const struct tvtrace_record *r = &c->t->v[i].rec;

	switch (r->state_id) {
	case TVTRACE_STATE_EADDR:
		return check_address(c, g, i, r->value, false);
	case TVTRACE_STATE_PADDR:
		return check_address(c, g, i, r->value, true);
	case TVTRACE_STATE_DATA8:
	case TVTRACE_STATE_DATA16:
	case TVTRACE_STATE_DATA32:
	case TVTRACE_STATE_DATA64:
		return check_store_data(c, g, i, r->value, r->state_id - TVTRACE_STATE_DATA8);
	default:
		return 0;
	}
}

int tv_check_memory(struct tv_checker *c, const struct tv_group *g)
{
	int rc = 0;

	if (g->ops.access == TV_ACCESS_NONE)
		return 0;
	for (size_t i = g->first; i < g->end && !rc; i++) {
		const struct tvtrace_record *r = &c->t->v[i].rec;

		if (r->opcode == TVTRACE_OP_MEM_REQ)
			rc = check_request(c, g, i);
		else if (r->opcode == TVTRACE_OP_MEM_RSP && c->t->v[i - 1].rec.mem_op != TVTRACE_MEM_FETCH)
			rc = check_response(c, g, i);
		else if (r->opcode == TVTRACE_OP_STATE)
			rc = check_state(c, g, i);
	}
	return rc;
}
