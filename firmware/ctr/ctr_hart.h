/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Control Transfer Records on each hart (docs/CTR.md): the hardware's
 * (drivers/ctr) handed to S-mode, or the emulation (ctr_model.h) behind
 * the illegal-instruction traps of the CTR CSRs and SCTRCLR
 * (trace/ctr_access.h).
 */
#ifndef FIRMWARE_CTR_CTR_HART_H
#define FIRMWARE_CTR_CTR_HART_H

#include <stdbool.h>
#include "drivers/ctr/ctr_hw.h"
#include "firmware/ctr/ctr_model.h"
#include "firmware/ctr/ctr_ingress.h"

struct hart;
struct fdt;
struct trap_regs;
struct trap_info;

enum ctr_kind { CTR_KIND_NONE, CTR_KIND_HARDWARE, CTR_KIND_EMULATED };

struct ctr_hart {
	enum ctr_kind kind;
	struct ctr_hw hw;
	union {
		struct ctr_state emul;        /* CTR_KIND_EMULATED */
		struct ctr_hw_saved saved;    /* CTR_KIND_HARDWARE, across suspend */
	};
	struct ctr_ingress ingress;           /* CTR_KIND_EMULATED, while recording */
};

/* Cold boot: the boot option tracesbi.ctr=ratified|draft|off. */
void ctr_cold_init(const struct fdt *fdt);
/* Warm boot, on each hart: probe, hand the hardware to S-mode, or reset
 * the emulated registers; sets h->ctr. */
void ctr_hart_init(struct hart *h);
void ctr_print_banner(void);

/* Non-retentive suspend (hsm.c): save before the hart loses its state,
 * restore after it wakes, on the suspending hart.  No-ops on harts
 * without CTR hardware (the emulated state is in firmware memory). */
void ctr_suspend_save(struct hart *h);
void ctr_resume_restore(struct hart *h);

#endif
