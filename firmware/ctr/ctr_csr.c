// SPDX-License-Identifier: BSD-2-Clause
/*
 * CTR CSR accesses, emulated: which register an instruction names, who
 * may reach it from which mode (privileged spec, "CSR Address Mapping
 * Conventions"; Smctr/Ssctr 1.0 "sctrdepth" and Sscsrind for the virtual
 * instruction cases), and csrrw/csrrs/csrrc with their immediate forms
 * (Zicsr: rd = x0 reads nothing, rs1 = x0 / uimm = 0 writes nothing).
 */
#include "firmware/ctr/ctr_csr.h"

enum reg_kind {
	REG_CTL, REG_VSCTL, REG_STATUS, REG_DEPTH, REG_ISELECT, REG_IREG, REG_IREG_ZERO,
	REG_DRAFT_CTL, REG_DRAFT_VSCTL, REG_DRAFT_STATUS,
};

struct reg_ref {
	enum reg_kind kind;
	bool virt;                 /* V=1: sctrctl is vsctrctl, siselect vsiselect */
	enum ctr_entry_reg entry;  /* REG_IREG: which of the three */
};

#define OPCODE_SYSTEM 0x73u

/* The layout's registers: kind, and whether the layout has the CSR. */
static bool layout_reg(struct reg_ref *r, enum reg_kind kind, bool present)
{
	r->kind = kind;
	return present;
}

/* CSR number -> register of the layout in use; false when not CTR's.  A
 * switch, not a table walk: this runs on every illegal instruction. */
static bool reg_of_csr(const struct ctr_state *s, unsigned int csr, struct reg_ref *r)
{
	bool draft = s->layout == CTR_LAYOUT_DRAFT;

	switch (csr) {
	case CSR_SISELECT:
		return layout_reg(r, REG_ISELECT, true);
	case CSR_SIREG:
	case CSR_SIREG2:
	case CSR_SIREG3:
		r->entry = (enum ctr_entry_reg)(csr - CSR_SIREG);
		return layout_reg(r, REG_IREG, true);
	case CSR_SIREG4:
	case CSR_SIREG5:
	case CSR_SIREG6:
		/* "sireg4, sireg5, and sireg6 are read-only 0" */
		return layout_reg(r, REG_IREG_ZERO, true);
	case CSR_SCTRCTL:
		return layout_reg(r, REG_CTL, !draft);
	case CSR_VSCTRCTL:
		return layout_reg(r, REG_VSCTL, !draft);
	case CSR_SCTRSTATUS:
		return layout_reg(r, REG_STATUS, !draft);
	case CSR_SCTRDEPTH:
		return layout_reg(r, REG_DEPTH, !draft);
	case CSR_SCTRCONTROL:
		return layout_reg(r, REG_DRAFT_CTL, draft);
	case CSR_VSCTRCONTROL:
		return layout_reg(r, REG_DRAFT_VSCTL, draft);
	case CSR_SCTRSTATUS_DRAFT:
		return layout_reg(r, REG_DRAFT_STATUS, draft);
	default:
		return false;
	}
}

static bool is_hypervisor_csr(enum reg_kind k)
{
	return k == REG_VSCTL || k == REG_DRAFT_VSCTL;
}

/* Who may touch the register from `mode`: U never (illegal), VU never
 * (virtual instruction), VS neither sctrdepth nor the hypervisor CSRs
 * (virtual instruction); without H there are no hypervisor CSRs. */
static enum ctr_csr_result access_check(const struct reg_ref *r, enum ctr_mode mode,
					bool has_h)
{
	if (is_hypervisor_csr(r->kind) && !has_h)
		return CTR_CSR_NOT_CTR;
	switch (mode) {
	case CTR_MODE_U:
	case CTR_MODE_M:
		return CTR_CSR_ILLEGAL;
	case CTR_MODE_VU:
		return CTR_CSR_VIRTUAL;
	case CTR_MODE_VS:
		if (r->kind == REG_DEPTH || is_hypervisor_csr(r->kind))
			return CTR_CSR_VIRTUAL;
		return CTR_CSR_DONE;
	default:
		return CTR_CSR_DONE;
	}
}

/* The select in use (siselect, or vsiselect at V=1) names an entry of
 * CTR's range; outside it, sireg* stay illegal, as Sscsrind recommends
 * for values no extension implements. */
static bool select_in_range(const struct ctr_state *s, bool virt, unsigned int *index)
{
	uint64_t sel = virt ? s->vsiselect : s->siselect;

	if (sel < CTR_ISELECT_FIRST || sel > CTR_ISELECT_LAST)
		return false;
	*index = (unsigned int)(sel - CTR_ISELECT_FIRST);
	return true;
}

static uint64_t reg_read(const struct ctr_state *s, const struct reg_ref *r, unsigned int index)
{
	switch (r->kind) {
	case REG_CTL:
		return ctr_sctrctl_read(s, r->virt);
	case REG_VSCTL:
		return ctr_sctrctl_read(s, true);
	case REG_STATUS:
		return ctr_sctrstatus_read(s);
	case REG_DEPTH:
		return ctr_sctrdepth_read(s);
	case REG_ISELECT:
		return r->virt ? s->vsiselect : s->siselect;
	case REG_IREG:
		return ctr_entry_read(s, index, r->entry);
	case REG_DRAFT_CTL:
		return ctr_draft_control_read(s, r->virt ? CTR_MODE_VS : CTR_MODE_S);
	case REG_DRAFT_VSCTL:
		return ctr_draft_control_read(s, CTR_MODE_VS);
	case REG_DRAFT_STATUS:
		return ctr_draft_status_read(s);
	default:
		return 0;
	}
}

static void reg_write(struct ctr_state *s, const struct reg_ref *r, unsigned int index,
		      uint64_t v)
{
	switch (r->kind) {
	case REG_CTL:
		ctr_sctrctl_write(s, r->virt, v);
		break;
	case REG_VSCTL:
		ctr_sctrctl_write(s, true, v);
		break;
	case REG_STATUS:
		ctr_sctrstatus_write(s, v);
		break;
	case REG_DEPTH:
		ctr_sctrdepth_write(s, v);
		break;
	case REG_ISELECT:
		/* siselect holds every value (WARL with all values legal). */
		*(r->virt ? &s->vsiselect : &s->siselect) = v;
		break;
	case REG_IREG:
		ctr_entry_write(s, index, r->entry, v);
		break;
	case REG_DRAFT_CTL:
		ctr_draft_control_write(s, r->virt ? CTR_MODE_VS : CTR_MODE_S, v);
		break;
	case REG_DRAFT_VSCTL:
		ctr_draft_control_write(s, CTR_MODE_VS, v);
		break;
	case REG_DRAFT_STATUS:
		ctr_draft_status_write(s, v);
		break;
	default:
		break;   /* sireg4..6: read-only 0 */
	}
}

/* "Supervisor CTR Clear Instruction": illegal in U, virtual in VU; the
 * draft has no such instruction (its CLR bit does the work). */
static enum ctr_csr_result emulate_sctrclr(struct ctr_state *s, enum ctr_mode mode)
{
	if (s->layout == CTR_LAYOUT_DRAFT)
		return CTR_CSR_NOT_CTR;
	if (mode == CTR_MODE_U || mode == CTR_MODE_M)
		return CTR_CSR_ILLEGAL;
	if (mode == CTR_MODE_VU)
		return CTR_CSR_VIRTUAL;
	ctr_sctrclr(s);
	return CTR_CSR_DONE;
}

static uint64_t csr_op(unsigned int funct3, uint64_t old, uint64_t src)
{
	switch (funct3 & 3) {
	case 1:
		return src;            /* csrrw(i) */
	case 2:
		return old | src;      /* csrrs(i) */
	default:
		return old & ~src;     /* csrrc(i) */
	}
}

enum ctr_csr_result ctr_csr_emulate(struct ctr_state *s, uint32_t insn, enum ctr_mode mode,
				    bool has_h, unsigned long x[32])
{
	unsigned int funct3 = (insn >> 12) & 7, rd = (insn >> 7) & 31, rs1 = (insn >> 15) & 31;
	unsigned int index = 0;
	struct reg_ref r = { 0 };
	enum ctr_csr_result res;
	uint64_t old, src;
	bool writes;

	if (insn == INSN_SCTRCLR)
		return emulate_sctrclr(s, mode);
	if ((insn & 0x7F) != OPCODE_SYSTEM || (funct3 & 3) == 0)
		return CTR_CSR_NOT_CTR;
	if (!reg_of_csr(s, insn >> 20, &r))
		return CTR_CSR_NOT_CTR;
	res = access_check(&r, mode, has_h);
	if (res != CTR_CSR_DONE)
		return res;
	r.virt = mode == CTR_MODE_VS;
	if ((r.kind == REG_IREG || r.kind == REG_IREG_ZERO) && !select_in_range(s, r.virt, &index))
		return CTR_CSR_NOT_CTR;
	src = funct3 & 4 ? rs1 : (rs1 ? x[rs1] : 0);
	/* csrrw(i) always writes; csrrs/csrrc(i) only with rs1 / uimm != 0. */
	writes = (funct3 & 3) == 1 || rs1 != 0;
	old = reg_read(s, &r, index);
	if (writes)
		reg_write(s, &r, index, csr_op(funct3, old, src));
	if (rd)
		x[rd] = old;
	return CTR_CSR_DONE;
}
