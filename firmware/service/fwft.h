/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SBI Firmware Features (ext-firmware-features.adoc): the per-hart feature
 * values and locks behind sbi/ecall_fwft.c.  Every feature of the spec is local.
 */
#ifndef FIRMWARE_FWFT_H
#define FIRMWARE_FWFT_H

#include <stdint.h>
#include "firmware/core/hart.h"

#define FWFT_FEATURES 6   /* MISALIGNED_EXC_DELEG .. POINTER_MASKING_PMLEN */

long fwft_set(struct hart *self, uint32_t feature, unsigned long value, unsigned long flags);

/* The feature, or DENIED (reserved or platform-specific: none is
 * implemented) / NOT_SUPPORTED (the hart lacks what it needs). */
static inline long fwft_feature_check(const struct hart *self, uint32_t feature)
{
	if (feature >= FWFT_FEATURES)
		return SBI_ERR_DENIED;
	if (!(self->fwft.supported & (1u << feature)))
		return SBI_ERR_NOT_SUPPORTED;
	return SBI_SUCCESS;
}

/* The feature's value in *value (0 on an error).  Inline: one load on
 * the SBI call's path. */
static inline long fwft_get(const struct hart *self, uint32_t feature, unsigned long *value)
{
	long ret = fwft_feature_check(self, feature);

	*value = ret ? 0 : self->fwft.value[feature];
	return ret;
}
/* Hart reset (boot, HSM stop): every feature to its reset value, unlocked. */
void fwft_hart_reset(struct hart *self);

#endif
