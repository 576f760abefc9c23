/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * State every hart has one of, apart from its struct hart (which sits at
 * the top of its stack, hart.h): one slot per hart in the firmware's
 * per-hart section, by the hart's index.  The section is not cleared at
 * boot (hundreds of KiB of stores would dominate it): the owner of each
 * array puts a hart's slot in its reset state before anything reads it,
 * usually when the hart first comes up (warm boot).
 */
#ifndef FIRMWARE_CORE_PER_HART_H
#define FIRMWARE_CORE_PER_HART_H

#include "firmware/core/hart.h"

/* Defines `name`, one `type` per hart, in the per-hart section. */
#define PER_HART(type, name) \
	type name[MAX_HARTS] __attribute__((section(".per_hart"), aligned(64)))

/* The slot of hart `h` (a struct hart *). */
#define per_hart(name, h) (&(name)[(h)->index])
/* The slot of the hart at index i of the hart table. */
#define per_hart_at(name, i) (&(name)[(i)])

/* Memory the firmware does not clear at boot and that is not per hart
 * (the stepper's block caches, shared out at boot). */
#define NOINIT __attribute__((section(".noinit")))

#endif
