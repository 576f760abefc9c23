// SPDX-License-Identifier: BSD-2-Clause
/*
 * CTR register model: WARL fields, depth, WRPTR/FROZEN, clears, the
 * entries by logical index.  The recording rule is in ctr_record.c.
 * Section names below are those of Smctr/Ssctr 1.0 unless "draft" says
 * v0.1.4.
 */
#include "firmware/ctr/ctr_model.h"

/* What sctrctl lets S-mode write: M (2) and MTE (9) are read-only 0,
 * Custom is not implemented ("All unimplemented fields are read-only 0"). */
#define SCTRCTL_WRITABLE (CTRCTL_U | CTRCTL_S | CTRCTL_RASEMU | CTRCTL_STE | CTRCTL_BPFRZ | \
			  CTRCTL_LCOFIFRZ | CTRCTL_TYPE_FILTERS)
#define MCTRCTL_WRITABLE (SCTRCTL_WRITABLE | CTRCTL_M | CTRCTL_MTE)

/* The draft's control fields that move, as (draft bit, model bit) pairs. */
static const struct { uint64_t draft, model; } draft_moved[] = {
	{ DRAFT_CTL_M, CTRCTL_M }, { DRAFT_CTL_S, CTRCTL_S }, { DRAFT_CTL_U, CTRCTL_U },
	{ DRAFT_CTL_MTE, CTRCTL_MTE }, { DRAFT_CTL_STE, CTRCTL_STE },
	{ DRAFT_CTL_RASEMU, CTRCTL_RASEMU }, { DRAFT_CTL_BPFRZ, CTRCTL_BPFRZ },
	{ DRAFT_CTL_LCOFIFRZ, CTRCTL_LCOFIFRZ },
};
/* Fields at the same place in both layouts (type filters, ETEN). */
#define DRAFT_CTL_KEPT (CTRCTL_TYPE_FILTERS | DRAFT_CTL_ETEN)

static void clear_entries(struct ctr_state *s)
{
	unsigned int i;

	for (i = 0; i < CTR_MAX_ENTRIES; i++) {
		s->source[i] = 0;
		s->target[i] = 0;
		s->data[i] = 0;
	}
}

/* "Cycle Counting": writes to xctrctl and SCTRCLR reset CtrCycleCounter,
 * and the next record has CCV=0. */
static void reset_cycle_counter(struct ctr_state *s)
{
	s->cycles = 0;
	s->cycles_valid = false;
}

void ctr_reset(struct ctr_state *s, enum ctr_layout layout)
{
	s->mctrctl = 0;
	s->vsctrctl = 0;
	s->siselect = 0;
	s->vsiselect = 0;
	s->frozen = false;
	s->wrap = false;
	s->wrptr = 0;
	s->depth_code = CTR_DEPTH_CODE_MAX;
	s->layout = (uint8_t)layout;
	reset_cycle_counter(s);
	clear_entries(s);
}

/* ---- control ------------------------------------------------------------ */

uint64_t ctr_sctrctl_read(const struct ctr_state *s, bool virt)
{
	return (virt ? s->vsctrctl : s->mctrctl) & SCTRCTL_WRITABLE;
}

void ctr_sctrctl_write(struct ctr_state *s, bool virt, uint64_t value)
{
	uint64_t *ctl = virt ? &s->vsctrctl : &s->mctrctl;

	*ctl = (*ctl & ~SCTRCTL_WRITABLE) | (value & SCTRCTL_WRITABLE);
	reset_cycle_counter(s);
}

uint64_t ctr_mctrctl_read(const struct ctr_state *s)
{
	return s->mctrctl & MCTRCTL_WRITABLE;
}

void ctr_mctrctl_write(struct ctr_state *s, uint64_t value)
{
	s->mctrctl = (s->mctrctl & ~MCTRCTL_WRITABLE) | (value & MCTRCTL_WRITABLE);
	reset_cycle_counter(s);
}

/* ---- status and depth --------------------------------------------------- */

/* "sctrstatus": WRPTR bits above depth-1 are read-only 0. */
static uint8_t wrptr_legal(const struct ctr_state *s, uint64_t value)
{
	return (uint8_t)(value & (ctr_depth(s) - 1u));
}

uint64_t ctr_sctrstatus_read(const struct ctr_state *s)
{
	return s->wrptr | (s->frozen ? SCTRSTATUS_FROZEN : 0);
}

void ctr_sctrstatus_write(struct ctr_state *s, uint64_t value)
{
	s->wrptr = wrptr_legal(s, value);
	s->frozen = value & SCTRSTATUS_FROZEN;
}

/* A depth change: the spec leaves WRPTR and the newly reachable entries
 * "unspecified but legal"; tracesbi clears the buffer and WRPTR, so no
 * stale record survives in entries that come and go. */
static void set_depth_code(struct ctr_state *s, unsigned int code)
{
	if (code > CTR_DEPTH_CODE_MAX)
		code = CTR_DEPTH_CODE_MAX;
	if (code == s->depth_code)
		return;
	s->depth_code = (uint8_t)code;
	s->wrptr = 0;
	s->wrap = false;
	clear_entries(s);
}

uint64_t ctr_sctrdepth_read(const struct ctr_state *s)
{
	return s->depth_code;
}

/* DEPTH is WARL: codes above the largest offered (128, 256 and the
 * reserved 11x) select the largest, 64. */
void ctr_sctrdepth_write(struct ctr_state *s, uint64_t value)
{
	set_depth_code(s, (unsigned int)(value & SCTRDEPTH_DEPTH_MASK));
}

/* "Supervisor CTR Clear Instruction": every entry of every depth, and the
 * cycle counter; WRPTR and FROZEN stay. */
void ctr_sctrclr(struct ctr_state *s)
{
	clear_entries(s);
	reset_cycle_counter(s);
}

/* ---- draft v0.1.4 layout ------------------------------------------------ */

/* Draft DEPTH encodings 0000, 0001, 0011, 0111, 1111: the number of
 * trailing ones is the depth code; other values read as the code of their
 * trailing ones (WARL), clamped to the largest depth offered. */
static unsigned int draft_depth_code(uint64_t field)
{
	unsigned int code = 0;

	while (code < 4 && (field >> code) & 1)
		code++;
	return code;
}

static uint64_t draft_depth_field(const struct ctr_state *s)
{
	return ((1ULL << s->depth_code) - 1) << DRAFT_CTL_DEPTH_SHIFT;
}

/* Control bits between the layouts: to the draft, or back to the model. */
static uint64_t draft_translate(uint64_t value, bool to_draft)
{
	uint64_t out = value & DRAFT_CTL_KEPT;
	unsigned int i;

	for (i = 0; i < sizeof(draft_moved) / sizeof(draft_moved[0]); i++) {
		uint64_t from = to_draft ? draft_moved[i].model : draft_moved[i].draft;

		if (value & from)
			out |= to_draft ? draft_moved[i].draft : draft_moved[i].model;
	}
	return out;
}

/* Draft "sctrcontrol": bits 0 (M) and 8 (MTE) read-only 0; the same for
 * vsctrcontrol, whose DEPTH is a read-only copy of mctrcontrol's. */
static uint64_t draft_writable(enum ctr_mode who)
{
	uint64_t w = MCTRCTL_WRITABLE | DRAFT_CTL_ETEN;

	return who == CTR_MODE_M ? w : w & ~(CTRCTL_M | CTRCTL_MTE);
}

uint64_t ctr_draft_control_read(const struct ctr_state *s, enum ctr_mode who)
{
	uint64_t ctl = who == CTR_MODE_VS ? s->vsctrctl : s->mctrctl;

	return draft_translate(ctl & draft_writable(who), true) | draft_depth_field(s);
}

void ctr_draft_control_write(struct ctr_state *s, enum ctr_mode who, uint64_t value)
{
	uint64_t *ctl = who == CTR_MODE_VS ? &s->vsctrctl : &s->mctrctl;
	uint64_t writable = draft_writable(who);

	*ctl = (*ctl & ~writable) | (draft_translate(value, false) & writable);
	reset_cycle_counter(s);
	if (who != CTR_MODE_VS)
		set_depth_code(s, draft_depth_code((value & DRAFT_CTL_DEPTH_MASK) >>
						   DRAFT_CTL_DEPTH_SHIFT));
	/* Draft CLR: zeroes the entries and mctrstatus; reads as 0. */
	if (value & DRAFT_CTL_CLR) {
		clear_entries(s);
		s->wrptr = 0;
		s->wrap = false;
		s->frozen = false;
	}
}

uint64_t ctr_draft_status_read(const struct ctr_state *s)
{
	return s->wrptr | (s->wrap ? DRAFT_STATUS_WRAP : 0) |
	       (s->frozen ? DRAFT_STATUS_FROZEN : 0);
}

void ctr_draft_status_write(struct ctr_state *s, uint64_t value)
{
	s->wrptr = wrptr_legal(s, value);
	s->wrap = value & DRAFT_STATUS_WRAP;
	s->frozen = value & DRAFT_STATUS_FROZEN;
}

/* ---- entries ------------------------------------------------------------ */

/* "sctrstatus" note: logical X is physical (WRPTR - X - 1) % depth. */
static int physical_index(const struct ctr_state *s, unsigned int index)
{
	unsigned int depth = ctr_depth(s);

	if (index >= depth)
		return -1;
	return (int)((s->wrptr - index - 1u) & (depth - 1u));
}

uint64_t ctr_entry_read(const struct ctr_state *s, unsigned int index, enum ctr_entry_reg reg)
{
	int p = physical_index(s, index);

	if (p < 0)
		return 0;
	switch (reg) {
	case CTR_SOURCE:
		return s->source[p];
	case CTR_TARGET:
		return s->target[p];
	default:
		return s->data[p];
	}
}

/* ctrsource holds every address (V in bit 0); ctrtarget's MISP is not
 * implemented (read-only 0); ctrdata keeps TYPE, CCV and CC. */
void ctr_entry_write(struct ctr_state *s, unsigned int index, enum ctr_entry_reg reg,
		     uint64_t value)
{
	int p = physical_index(s, index);

	if (p < 0)
		return;
	switch (reg) {
	case CTR_SOURCE:
		s->source[p] = value;
		break;
	case CTR_TARGET:
		s->target[p] = value & ~CTRTARGET_MISP;
		break;
	default:
		s->data[p] = (uint32_t)value & CTRDATA_MASK;
		break;
	}
}
