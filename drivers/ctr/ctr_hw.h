/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Smctr/Ssctr hardware: detection at boot, S-mode access (state enables),
 * mctrctl left so that M-mode transfers are not recorded, and the save /
 * restore of the CTR state around a non-retentive suspend (Smctr/Ssctr
 * 1.0: CTR state is the firmware's to keep when the hart loses it).
 */
#ifndef DRIVERS_CTR_HW_H
#define DRIVERS_CTR_HW_H

#include <stdbool.h>
#include <stdint.h>

/* Entries kept across a suspend: the first 64 logical entries (a deeper
 * hardware buffer loses the older ones; docs/CTR.md). */
#define CTR_HW_SAVE_ENTRIES 64u

struct ctr_hw {
	bool smctr;          /* mctrctl, sctrctl, sctrstatus, sctrdepth exist */
	bool sscsrind;       /* siselect / sireg* exist */
	bool smstateen;      /* mstateen0 exists */
	bool h;              /* vsctrctl and hstateen0 may exist */
	uint8_t depth_max;   /* largest sctrdepth.DEPTH that sticks */
};

struct ctr_hw_saved {
	uint64_t mctrctl, vsctrctl, sctrstatus, sctrdepth, siselect;
	unsigned int count;  /* entries saved */
	uint64_t source[CTR_HW_SAVE_ENTRIES], target[CTR_HW_SAVE_ENTRIES];
	uint32_t data[CTR_HW_SAVE_ENTRIES];   /* ctrdata 63:32 are WPRI (read-only 0) */
};

/* Probe under trap guards; `h`: misa.H.  True when the hart has CTR. */
bool ctr_hw_probe(struct ctr_hw *hw, bool h);
/* S-mode (and VS-mode) may use CTR; M-mode records nothing. */
void ctr_hw_enable(const struct ctr_hw *hw);
unsigned int ctr_hw_depth_max(const struct ctr_hw *hw);
void ctr_hw_save(const struct ctr_hw *hw, struct ctr_hw_saved *s);
void ctr_hw_restore(const struct ctr_hw *hw, const struct ctr_hw_saved *s);

#endif
