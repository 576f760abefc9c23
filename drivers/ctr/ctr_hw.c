// SPDX-License-Identifier: BSD-2-Clause
/*
 * The Smctr/Ssctr hardware path (ctr_hw.h).  Every CSR goes through
 * ctr_hw_csr.h, guarded, so a hart that lacks one reports it instead of
 * trapping.
 */
#include "drivers/ctr/ctr_hw.h"
#include "drivers/ctr/ctr_hw_csr.h"

/* "sctrdepth": DEPTH is WARL; the largest value that sticks is the
 * deepest buffer (codes 5..7 are reserved and never stick). */
static uint8_t probe_depth_max(void)
{
	unsigned long v = 0;
	unsigned int code;

	for (code = 4; code > 0; code--) {
		ctr_hw_csr_write(CSR_SCTRDEPTH, code);
		if (!ctr_hw_csr_read(CSR_SCTRDEPTH, &v) && (v & SCTRDEPTH_DEPTH_MASK) == code)
			break;
	}
	return (uint8_t)code;
}

bool ctr_hw_probe(struct ctr_hw *hw, bool h)
{
	unsigned long v;

	*hw = (struct ctr_hw){ .h = h };
	hw->smstateen = ctr_hw_csr_read(CSR_MSTATEEN0_NUM, &v) == 0;
	hw->sscsrind = ctr_hw_csr_read(CSR_SISELECT, &v) == 0;
	/* Smctr depends on Sscsrind: without siselect the entries are out
	 * of reach, and the hart is treated as having no CTR. */
	hw->smctr = hw->sscsrind && ctr_hw_csr_read(CSR_MCTRCTL, &v) == 0 &&
		    ctr_hw_csr_read(CSR_SCTRDEPTH, &v) == 0;
	if (hw->smctr)
		hw->depth_max = probe_depth_max();
	return hw->smctr;
}

unsigned int ctr_hw_depth_max(const struct ctr_hw *hw)
{
	return 16u << hw->depth_max;
}

/* "State Enable Access Control": mstateen0.CTR (54) and Sscsrind's bit 60
 * open CTR to S-mode; hstateen0's to VS-mode (read-only 0 unless the
 * mstateen0 bits are set, so mstateen0 first). */
static void open_state_enables(const struct ctr_hw *hw)
{
	unsigned long v;

	if (!hw->smstateen)
		return;
	if (!ctr_hw_csr_read(CSR_MSTATEEN0_NUM, &v))
		ctr_hw_csr_write(CSR_MSTATEEN0_NUM, v | STATEEN0_CTR | STATEEN0_CSRIND);
	if (hw->h && !ctr_hw_csr_read(CSR_HSTATEEN0, &v))
		ctr_hw_csr_write(CSR_HSTATEEN0, v | STATEEN0_CTR | STATEEN0_CSRIND);
}

void ctr_hw_enable(const struct ctr_hw *hw)
{
	if (!hw->smctr)
		return;
	open_state_enables(hw);
	/* mctrctl.M = 0 (and MTE = 0): M-mode transfers and traps into M are
	 * never recorded; the rest of mctrctl is S-mode's via sctrctl. */
	ctr_hw_csr_write(CSR_MCTRCTL, 0);
	ctr_hw_csr_write(CSR_SCTRDEPTH, hw->depth_max);
}

static unsigned int saved_depth(const struct ctr_hw_saved *s)
{
	unsigned int depth = 16u << (s->sctrdepth & SCTRDEPTH_DEPTH_MASK);

	return depth < CTR_HW_SAVE_ENTRIES ? depth : CTR_HW_SAVE_ENTRIES;
}

void ctr_hw_save(const struct ctr_hw *hw, struct ctr_hw_saved *s)
{
	unsigned long v = 0;
	unsigned int i;

	s->count = 0;
	if (!hw->smctr)
		return;
	ctr_hw_csr_read(CSR_MCTRCTL, &v);
	s->mctrctl = v;
	v = 0;
	if (hw->h)
		ctr_hw_csr_read(CSR_VSCTRCTL, &v);
	s->vsctrctl = v;
	ctr_hw_csr_read(CSR_SCTRSTATUS, &v);
	s->sctrstatus = v;
	ctr_hw_csr_read(CSR_SCTRDEPTH, &v);
	s->sctrdepth = v;
	ctr_hw_csr_read(CSR_SISELECT, &v);
	s->siselect = v;
	s->count = saved_depth(s);
	for (i = 0; i < s->count; i++) {
		ctr_hw_csr_write(CSR_SISELECT, CTR_ISELECT_FIRST + i);
		ctr_hw_csr_read(CSR_SIREG, &v);
		s->source[i] = v;
		ctr_hw_csr_read(CSR_SIREG2, &v);
		s->target[i] = v;
		ctr_hw_csr_read(CSR_SIREG3, &v);
		s->data[i] = (uint32_t)v;
	}
	ctr_hw_csr_write(CSR_SISELECT, s->siselect);
}

/* Depth, then status ("sctrstatus" note: before the entries, so logical
 * entries land in the right physical ones), then the entries, then the
 * control, which starts recording again. */
void ctr_hw_restore(const struct ctr_hw *hw, const struct ctr_hw_saved *s)
{
	unsigned int i;

	if (!hw->smctr || !s->count)
		return;
	ctr_hw_csr_write(CSR_SCTRDEPTH, s->sctrdepth);
	ctr_hw_csr_write(CSR_SCTRSTATUS, s->sctrstatus);
	for (i = 0; i < s->count; i++) {
		ctr_hw_csr_write(CSR_SISELECT, CTR_ISELECT_FIRST + i);
		ctr_hw_csr_write(CSR_SIREG, s->source[i]);
		ctr_hw_csr_write(CSR_SIREG2, s->target[i]);
		ctr_hw_csr_write(CSR_SIREG3, s->data[i]);
	}
	ctr_hw_csr_write(CSR_SISELECT, s->siselect);
	if (hw->h)
		ctr_hw_csr_write(CSR_VSCTRCTL, s->vsctrctl);
	ctr_hw_csr_write(CSR_MCTRCTL, s->mctrctl);
}
