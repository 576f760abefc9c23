/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_PMU_PMU_HART_H
#define FIRMWARE_PMU_PMU_HART_H

struct hart;

/* Cold boot, for each hart of the table: its PMU state, cleared
 * (hart.pmu, hart.fw_events). */
void pmu_hart_attach(struct hart *h);

#endif
