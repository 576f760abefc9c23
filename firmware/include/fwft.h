/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SBI Firmware Features (ext-firmware-features.adoc): the per-hart feature
 * values and locks behind sbi/fwft.c.  Every feature of the spec is local.
 */
#ifndef FIRMWARE_FWFT_H
#define FIRMWARE_FWFT_H

#include <stdint.h>
#include "hart.h"

long fwft_set(struct hart *self, uint32_t feature, unsigned long value, unsigned long flags);
/* The feature's value in *value (0 on an error). */
long fwft_get(const struct hart *self, uint32_t feature, unsigned long *value);
/* Hart reset (boot, HSM stop): every feature to its reset value, unlocked. */
void fwft_hart_reset(struct hart *self);

#endif
