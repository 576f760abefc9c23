// SPDX-License-Identifier: BSD-2-Clause
/*
 * The PMU and the hart: the trap entry that counts events 256..258
 * (tracesbi's firmware-counted traps), and the PMU's part of a hart's
 * life (HSM start, non-retentive suspend).  Apart from pmu.c, which host
 * tests build against a fake of this.
 */
#include <string.h>
#include "firmware/pmu/pmu.h"
#include "firmware/core/hart.h"
#include "firmware/core/trap_vector.h"
#include "firmware/core/fw_hooks.h"
#include "firmware/core/per_hart.h"
#include "firmware/pmu/pmu_hart.h"

/* Events 256..258 are counted by another trap entry (trap.S), installed
 * only while a counter counts them. */
void pmu_trap_counting(bool on)
{
	struct hart *self = hart_self();

	self->trap_counting = on;
	trap_set_vector(self);
}

/* The PMU state of each hart: too big for the hart struct on its stack. */
static PER_HART(struct pmu_hart, pmu_harts);

void pmu_hart_attach(struct hart *h)
{
	struct pmu_hart *p = per_hart(pmu_harts, h);

	memset(p, 0, sizeof(*p));
	h->pmu = p;
	h->fw_events = &p->fw_events;
}

/* A started hart's PMU is as at boot: counters free, no snapshot. */
static void pmu_hart_reset(struct hart *self)
{
	pmu_hart_init(self->pmu, self->feat.hpm_mask, self->feat.hpm_width,
		      self->feat.sscofpmf, self->feat.mcountinhibit);
}

static void pmu_hart_save(struct hart *self)
{
	pmu_hart_suspend(self->pmu);
}

static void pmu_hart_restore(struct hart *self)
{
	pmu_hart_resume(self->pmu);
}

static const struct fw_hooks pmu_hooks = {
	.hart_reset = pmu_hart_reset,
	.hart_suspend = pmu_hart_save,
	.hart_resume = pmu_hart_restore,
};
FW_HOOKS(10, pmu_hooks);
