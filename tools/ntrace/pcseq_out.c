// SPDX-License-Identifier: BSD-2-Clause
/*
 * `decode --export-pcseq`: a decoded trace in the N-Trace reference code's
 * pcseq form ("<hex pc>,<class><size>[ exc|int]", pcs.c), so the reference
 * tools can read what tracesbi recorded.  The class of each instruction
 * comes from its encoding (rvinsn) and the pc that followed it.
 */
#include <inttypes.h>

#include "ntrace_tool.h"
#include "rvinsn.h"

/* Calls and returns by their link registers (ISA manual, "Return-address
 * stack" hints): the same reading as Table 2's itype 8/9/13. */
static const char *jump_class(const struct rv_insn *in)
{
	bool link_rd = rv_is_link_reg(in->rd);

	if (in->kind == RV_INSN_JUMP)
		return link_rd ? "C" : "J";
	if (in->kind == RV_INSN_POPRET)
		return "R";
	if (link_rd)
		return "CI";
	return rv_is_link_reg(in->rs1) && in->rd == 0 ? "R" : "JI";
}

const char *nt_pcseq_class(struct nt_image_set *images, unsigned xlen, uint64_t pc,
			   uint64_t next, bool has_next, unsigned *size)
{
	uint8_t bytes[4] = { 0 };
	struct rv_insn in;
	uint64_t avail = 0;
	const uint8_t *p = nt_images_lookup(images, pc, &avail);

	*size = 0;
	if (!p)
		return "L";
	for (unsigned i = 0; i < 4 && i < avail; i++)
		bytes[i] = p[i];
	uint32_t raw = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
		       (uint32_t)bytes[3] << 24;
	if (!rv_insn_decode(raw, xlen, RV_EXT_C, &in) || in.size > avail)
		return "L";
	*size = in.size;
	switch (in.kind) {
	case RV_INSN_BRANCH: {
		uint64_t target = rv_insn_direct_target(&in, pc, xlen);

		/* a branch to the next instruction is reported not taken */
		return has_next && next == target && target != pc + in.size ? "B" : "BN";
	}
	case RV_INSN_JUMP:
	case RV_INSN_JUMP_REG:
	case RV_INSN_POPRET:
		return jump_class(&in);
	case RV_INSN_TABLE_JUMP:
		return in.rd ? "CI" : "JI";
	case RV_INSN_TRAP:
		return "E";
	case RV_INSN_TRAP_RETURN:
		return "X";
	default:
		return "L";
	}
}

static void write_last(struct nt_pcseq_writer *w, uint64_t next, bool has_next)
{
	static const char *const marker[] = { "", " exc", " int" };
	unsigned size;
	const char *cls;

	if (!w->have_last)
		return;
	cls = nt_pcseq_class(w->images, w->xlen, w->last.pc, next, has_next, &size);
	if (fprintf(w->out, "0x%" PRIx64 ",%s%u%s\n", w->last.pc, cls, size ? size : 4,
		    marker[w->last.event <= NT_EVENT_INTERRUPT ? w->last.event : 0]) < 0)
		w->write_error = true;
	w->have_last = false;
}

static void pcseq_step(void *ctx, const struct nt_step *s)
{
	struct nt_pcseq_writer *w = ctx;

	/* after a trap the next pc is the handler's, not the instruction's successor */
	write_last(w, s->pc, w->have_last && w->last.event == NT_EVENT_NONE);
	w->last = *s;
	w->have_last = true;
}

/* A stop says where execution continues; lost trace and decoding errors
 * leave it unknown.  Other events (syncs, traps, ownership) do not break
 * the flow: the next instruction is still the successor. */
static void pcseq_event(void *ctx, const struct ntrace_event *ev)
{
	struct nt_pcseq_writer *w = ctx;

	if (!nt_event_breaks_flow(ev))
		return;
	write_last(w, ev->addr, ev->kind == NTRACE_EV_STOP && w->last.event == NT_EVENT_NONE);
}

void nt_pcseq_writer_visitor(struct nt_pcseq_writer *w, struct nt_visitor *v)
{
	*v = (struct nt_visitor){ pcseq_step, pcseq_event, w };
}

void nt_pcseq_writer_finish(struct nt_pcseq_writer *w)
{
	write_last(w, 0, false);
}
