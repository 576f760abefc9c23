// SPDX-License-Identifier: BSD-2-Clause
/*
 * The PMU's hold on the trap entry: events 256..258 (the SBI PMU's
 * firmware-counted traps) need the counting entry.  Apart from pmu.c,
 * which host tests build against a fake of this.
 */
#include "firmware/pmu/pmu.h"
#include "firmware/core/hart.h"
#include "firmware/core/trap_vector.h"

/* Events 256..258 are counted by another trap entry (trap.S), installed
 * only while a counter counts them. */
void pmu_trap_counting(bool on)
{
	struct hart *self = hart_self();

	self->trap_counting = on;
	trap_set_vector(self);
}
