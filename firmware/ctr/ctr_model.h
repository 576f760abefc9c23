/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Register model of Control Transfer Records for harts without Smctr/Ssctr
 * (docs/CTR.md): the control, status and depth registers of the ratified
 * Smctr/Ssctr 1.0 or of the draft v0.1.4 layout, the entry buffer, and the
 * recording rule (privilege enables, transfer-type filters, external traps,
 * RASEMU, freeze, cycle counting).  Pure: no CSR, no memory outside the
 * struct; the caller supplies the transfers and the elapsed cycles.
 */
#ifndef TRACE_CTR_MODEL_H
#define TRACE_CTR_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "drivers/ctr/ctr_spec.h"

/* Depths offered: 16, 32 and 64 (sctrdepth.DEPTH 0..2).  Larger codes
 * read back as 2 (WARL): 64 entries x 20 bytes per hart fit the firmware
 * region for 32 harts, 256 would not. */
#define CTR_DEPTH_CODE_MAX 2u
#define CTR_MAX_ENTRIES    (16u << CTR_DEPTH_CODE_MAX)

enum ctr_layout { CTR_LAYOUT_RATIFIED, CTR_LAYOUT_DRAFT };

/* Privilege modes as CTR sees them (V=1 modes apart). */
enum ctr_mode { CTR_MODE_U, CTR_MODE_S, CTR_MODE_M, CTR_MODE_VU, CTR_MODE_VS };

/* The three registers behind sireg, sireg2, sireg3. */
enum ctr_entry_reg { CTR_SOURCE, CTR_TARGET, CTR_DATA };

struct ctr_state {
	uint64_t mctrctl;        /* ratified field positions; bit 38 draft ETEN */
	uint64_t vsctrctl;
	uint64_t siselect, vsiselect;   /* emulated Sscsrind selects */
	uint64_t cycles;         /* CtrCycleCounter: active cycles since the last record */
	bool cycles_valid;       /* false after a control write or a clear */
	bool frozen;
	bool wrap;               /* draft mctrstatus.WRAP */
	uint8_t wrptr;
	uint8_t depth_code;      /* sctrdepth.DEPTH, 0..CTR_DEPTH_CODE_MAX */
	uint8_t layout;          /* enum ctr_layout */
	uint64_t source[CTR_MAX_ENTRIES];   /* physical entries */
	uint64_t target[CTR_MAX_ENTRIES];
	uint32_t data[CTR_MAX_ENTRIES];
};

/* A control transfer: a trap or trap return changes the mode (from, to);
 * every other type has from == to. */
struct ctr_transfer {
	uint64_t source, target;
	enum ctr_type type;
	enum ctr_mode from, to;
};

void ctr_reset(struct ctr_state *s, enum ctr_layout layout);
/* The depth (entries) sctrdepth selects. */
static inline unsigned int ctr_depth(const struct ctr_state *s)
{
	return 16u << s->depth_code;
}

/* Ratified registers.  `virt`: sctrctl is vsctrctl (V=1, or vsctrctl itself). */
uint64_t ctr_sctrctl_read(const struct ctr_state *s, bool virt);
void ctr_sctrctl_write(struct ctr_state *s, bool virt, uint64_t value);
uint64_t ctr_mctrctl_read(const struct ctr_state *s);
void ctr_mctrctl_write(struct ctr_state *s, uint64_t value);
uint64_t ctr_sctrstatus_read(const struct ctr_state *s);
void ctr_sctrstatus_write(struct ctr_state *s, uint64_t value);
uint64_t ctr_sctrdepth_read(const struct ctr_state *s);
void ctr_sctrdepth_write(struct ctr_state *s, uint64_t value);
void ctr_sctrclr(struct ctr_state *s);

/* Draft v0.1.4 registers: the control as M, S or VS sees it, the status. */
uint64_t ctr_draft_control_read(const struct ctr_state *s, enum ctr_mode who);
void ctr_draft_control_write(struct ctr_state *s, enum ctr_mode who, uint64_t value);
uint64_t ctr_draft_status_read(const struct ctr_state *s);
void ctr_draft_status_write(struct ctr_state *s, uint64_t value);

/* Logical entry `index` (siselect - 0x200): read-only 0 at or past depth. */
uint64_t ctr_entry_read(const struct ctr_state *s, unsigned int index, enum ctr_entry_reg reg);
void ctr_entry_write(struct ctr_state *s, unsigned int index, enum ctr_entry_reg reg,
		     uint64_t value);

/* Recording: add `n` active cycles; record one transfer if it qualifies
 * (returns whether the buffer changed); set FROZEN for a breakpoint or
 * LCOFI trap into `to` when BPFRZ / LCOFIFRZ ask (returns whether it did:
 * that trap is then not recorded). */
void ctr_count_cycles(struct ctr_state *s, uint64_t n);
bool ctr_record(struct ctr_state *s, const struct ctr_transfer *t);
bool ctr_freeze_on_trap(struct ctr_state *s, bool interrupt, unsigned long code,
			enum ctr_mode to);
/* Whether recording can happen at all in mode m (enabled, not frozen). */
bool ctr_active(const struct ctr_state *s, enum ctr_mode m);

/* ctrdata.CC of an elapsed count ("Cycle Counting": 4 CCE bits). */
uint16_t ctr_cc_encode(uint64_t cycles);

/* ctrdata.TYPE of an instruction that retired without trapping (taken: a
 * branch was taken); CTR_TYPE_NONE when it is no transfer. */
struct rv_insn;
enum ctr_type ctr_classify(const struct rv_insn *in, bool taken);

#endif
