// SPDX-License-Identifier: BSD-2-Clause
/* The hart table: hartids from the DTB, in DTB order, and their structs. */
#include <stddef.h>
#include "firmware/core/hart.h"

unsigned int hart_count;
unsigned long hart_ids[MAX_HARTS];
struct hart *hart_table[MAX_HARTS];

struct hart *hart_by_index(unsigned int index)
{
	return index < hart_count ? hart_table[index] : NULL;
}

struct hart *hart_by_id(unsigned long hartid)
{
	unsigned int i;

	for (i = 0; i < hart_count; i++)
		if (hart_ids[i] == hartid)
			return hart_table[i];
	return NULL;
}

/* Binary encoding, "Hart list parameter": base -1 selects every hart; a set
 * bit selects hartid base + bit, which must exist. */
long hart_mask_validate(unsigned long mask, unsigned long base)
{
	unsigned long bit;

	if (base == (unsigned long)-1)
		return SBI_SUCCESS;
	for (bit = 0; mask; bit++, mask >>= 1) {
		if (!(mask & 1))
			continue;
		if (base + bit < base || !hart_by_id(base + bit))
			return SBI_ERR_INVALID_PARAM;
	}
	return SBI_SUCCESS;
}

long hart_mask_for_each(unsigned long mask, unsigned long base, hart_mask_fn fn, void *arg)
{
	unsigned long bit;
	unsigned int i;
	long ret = hart_mask_validate(mask, base);

	if (ret)
		return ret;
	if (base == (unsigned long)-1) {
		for (i = 0; i < hart_count; i++)
			if ((ret = fn(hart_table[i], arg)))
				return ret;
		return SBI_SUCCESS;
	}
	for (bit = 0; mask; bit++, mask >>= 1)
		if ((mask & 1) && (ret = fn(hart_by_id(base + bit), arg)))
			return ret;
	return SBI_SUCCESS;
}
