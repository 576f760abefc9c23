/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef FIRMWARE_FEATURES_H
#define FIRMWARE_FEATURES_H

#include "firmware/core/hart.h"

/* Probe this hart's CSRs under trap guards (never assume a feature). */
void features_probe(struct hart_features *f);
void features_print(const struct hart_features *f);
/* What the SBI FWFT features can control on this hart: what sticks in
 * medeleg and (when the hart has it) menvcfg. */
void features_probe_fwft(struct fwft_support *s, bool menvcfg);


#endif
